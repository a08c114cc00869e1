# SPDX-License-Identifier: BSD-2-Clause
# The environment in hostile settings (issue 20): secure-execution
# (set-user-ID) processes ignore every MEMLANE_* variable.

# A program linked with the shared library (absolute run path: a
# set-user-ID program ignores LD_LIBRARY_PATH and $ORIGIN).
ENV_PROBE := $(BUILD)/env-probe
$(ENV_PROBE): tests/env/probe.c include/memlane.h $(BUILD)/libmemlane.so
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< -L$(BUILD) -lmemlane \
	    -Wl,-rpath,$(abspath $(BUILD)) -o $@

test-extra:: $(TEST_BIN) $(DISPATCH_STATIC) $(ENV_PROBE)
	sh tests/env/secure.sh $(BUILD)
