# SPDX-License-Identifier: BSD-2-Clause
# Constant-time checks (issue 4; docs/constant-time.md).
#
#   make check-ct            all four checks on every timingsafe variant
#   make check-ct CT_LONG=1  the statistical test with 10^7 measurements per class
#   CT_VARIANTS=generic      only the named variants (comma-separated)
#
# `make test` runs checks 1 and 2 (the trace on fewer lengths).

CT_DIR      := $(BUILD)/ct
CT_CFLAGS    = $(CFLAGS) $(BASE_CFLAGS) -Itests/ct
CT_COMMON   := $(CT_DIR)/common.o $(CT_DIR)/leaky.o
CT_HEADERS  := tests/ct/ct.h src/internal.h $(wildcard src/*.def src/*/*.def)
VALGRIND    ?= valgrind
CT_DUDECT_ARGS := $(if $(CT_LONG),--long,$(CT_DUDECT_N))

.PRECIOUS: $(CT_DIR)/%.o
.PHONY: check-ct check-ct-insn check-ct-trace check-ct-trace-quick check-ct-taint check-ct-dudect

$(CT_DIR)/%.o: tests/ct/%.c $(CT_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CT_CFLAGS) -c $< -o $@

$(CT_DIR)/ct-%: $(CT_DIR)/%.o $(CT_COMMON) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $^ -lm -o $@

ifeq ($(IS_X86_64),1)

check-ct-insn: $(CT_DIR)/ct-list $(CT_DIR)/leaky.o $(BUILD)/libmemlane.a
	@echo "== check 1: DOIT instruction allow-list (objdump)"
	@$(CT_DIR)/ct-list > $(CT_DIR)/targets.txt
	@tests/ct/check-insn.sh $(CT_DIR)/targets.txt $(BUILD)/libmemlane.a $(CT_DIR)/leaky.o tests/ct/doit-allowlist.txt

check-ct-trace: $(CT_DIR)/ct-trace
	@echo "== check 2: instruction-trace equality (ptrace single-step)"
	@$(CT_DIR)/ct-trace

check-ct-trace-quick: $(CT_DIR)/ct-trace
	@echo "== check 2: instruction-trace equality (ptrace single-step, quick)"
	@$(CT_DIR)/ct-trace --quick

check-ct-dudect: $(CT_DIR)/ct-dudect
	@echo "== check 4: dudect timing test (Welch t, |t| > 10 fails)"
	@$(CT_DIR)/ct-dudect $(CT_DUDECT_ARGS)

else

check-ct-insn check-ct-trace check-ct-trace-quick check-ct-dudect:
	@echo "$@: x86-64 only (DOIT list, RIP trace, rdtsc); skipped on $(TARGET)"

endif

# valgrind 3.19 (Debian 12) cannot read clang 14's DWARF 5 and gives up,
# so valgrind runs a copy without debug information (reports then name
# functions, not lines).
OBJCOPY ?= objcopy
$(CT_DIR)/ct-taint-nodebug: $(CT_DIR)/ct-taint
	$(OBJCOPY) --strip-debug $< $@

check-ct-taint: $(CT_DIR)/ct-taint-nodebug
	@echo "== check 3: secret poisoning under valgrind memcheck"
	@command -v $(VALGRIND) >/dev/null || { echo "check-ct-taint: valgrind not found"; exit 1; }
	@$(VALGRIND) -q --error-exitcode=1 $(CT_DIR)/ct-taint$(if $(filter 1,$(IS_CLANG)),-nodebug)
	@$(VALGRIND) -q --log-file=$(CT_DIR)/taint-control.log $(CT_DIR)/ct-taint$(if $(filter 1,$(IS_CLANG)),-nodebug) --control

# One after the other (the timing test must not share the CPU with the
# others), all four even if one fails, then one verdict.
check-ct:
	@fail=; for c in insn trace taint dudect; do \
	    t0=$$(date +%s); \
	    $(MAKE) --no-print-directory check-ct-$$c || fail="$$fail $$c"; \
	    echo "($$c: $$(( $$(date +%s) - t0 )) s)"; \
	done; \
	if [ -n "$$fail" ]; then echo "check-ct: FAILED:$$fail"; exit 1; fi; \
	echo "check-ct: all four checks passed"

test-extra:: check-ct-insn check-ct-trace-quick
