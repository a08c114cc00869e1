# SPDX-License-Identifier: BSD-2-Clause
# The environment in hostile settings (issue 20): secure-execution
# (set-user-ID) processes ignore every MEMLANE_* variable; a program that
# cleared its environment does not see it again; a warning is one line
# whatever the value.

# A program linked with the shared library (absolute run path: a
# set-user-ID program ignores LD_LIBRARY_PATH and $ORIGIN).
ENV_PROBE := $(BUILD)/env-probe
$(ENV_PROBE): tests/env/probe.c include/memlane.h $(BUILD)/libmemlane.so
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< -L$(BUILD) -lmemlane \
	    -Wl,-rpath,$(abspath $(BUILD)) -o $@

test-extra:: $(TEST_BIN) $(DISPATCH_STATIC) $(ENV_PROBE)
	sh tests/env/secure.sh $(BUILD)

# clearenv() then dlopen: the variables left on the initial stack are not
# read once libc has started.
ENV_CLEARENV := $(BUILD)/env-clearenv
$(ENV_CLEARENV): tests/env/clearenv.c
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< -ldl -o $@

test-extra:: $(ENV_CLEARENV) $(BUILD)/libmemlane.so
	sh tests/env/clearenv.sh $(ENV_CLEARENV) $(abspath $(BUILD))/libmemlane.so

# Warnings: a hostile value gives one short, escaped line in one write().
test-extra:: $(TEST_BIN)
	sh tests/env/warn.sh $(TEST_BIN) --arch-probe
