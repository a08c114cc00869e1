# SPDX-License-Identifier: BSD-2-Clause
# Constant-time checks (docs/constant-time.md).
#
#   make check-ct            all four checks on every timingsafe variant
#   make check-ct CT_LONG=1  the statistical test with 10^7 measurements per class
#   CT_VARIANTS=generic      only the named variants (comma-separated)
#   CT_CHECKS="insn trace"   only these checks (default: all four)
#
# `make test` runs checks 1 and 2 (the trace on fewer lengths).

# The timing-safe objects, compiled with pinned flags (mk/library.mk).
CT_TS_OBJS := $(filter $(BUILD)/obj/src/timingsafe_%,$(LIB_OBJS))

CT_DIR      := $(BUILD)/ct
CT_CFLAGS    = $(CFLAGS) $(BASE_CFLAGS) -Itests/ct
CT_COMMON   := $(CT_DIR)/common.o $(CT_DIR)/leaky.o
VALGRIND    ?= valgrind
CT_DUDECT_ARGS := $(if $(CT_LONG),--long,$(CT_DUDECT_N))

.PRECIOUS: $(CT_DIR)/%.o
.PHONY: check-ct check-ct-insn check-ct-trace check-ct-trace-quick check-ct-taint check-ct-dudect

$(CT_DIR)/%.o: tests/ct/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CT_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(CT_DIR)/ct-%: $(CT_DIR)/%.o $(CT_COMMON) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $^ -lm -o $@

ifeq ($(IS_X86_64),1)

# Check 1 reads the code of the program that lists the targets and of the
# archive; the flag matrix (tests/ct/matrix.sh) gives another build's ct-list
# (the list does not depend on flags) and only the timing-safe objects. With
# link-time optimisation (-flto in CFLAGS) the archive and the controls'
# object hold compiler IR: then it reads the linked ct-list, which takes
# every variant and control through its tables.
CT_LTO       := $(findstring -flto,$(CFLAGS))
CT_INSN_LIST ?= $(CT_DIR)/ct-list
CT_INSN_LIB  ?= $(if $(CT_LTO),$(CT_DIR)/ct-list,$(BUILD)/libmemlane.a)
CT_INSN_CTL  := $(if $(CT_LTO),$(CT_DIR)/ct-list,$(CT_DIR)/leaky.o)
check-ct-insn: $(CT_INSN_LIST) $(CT_DIR)/leaky.o $(CT_INSN_LIB)
	@echo "== check 1: DOIT instruction allow-list (objdump$(if $(CT_LTO), of the LTO-linked ct-list))"
	@$(CT_INSN_LIST) > $(CT_DIR)/targets.txt
	@tests/ct/check-insn.sh $(CT_DIR)/targets.txt $(CT_INSN_LIB) $(CT_INSN_CTL) tests/ct/doit-allowlist.txt

$(CT_DIR)/timingsafe.a: $(CT_TS_OBJS)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) rcs $@ $^

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
$(CT_DIR)/ct-taint-nodebug: $(CT_DIR)/ct-taint
	$(OBJCOPY) --strip-debug $< $@

check-ct-taint: $(CT_DIR)/ct-taint-nodebug
	@echo "== check 3: secret poisoning under valgrind memcheck"
	@command -v $(VALGRIND) >/dev/null || { echo "check-ct-taint: valgrind not found"; exit 1; }
	@$(VALGRIND) -q --error-exitcode=1 $(CT_DIR)/ct-taint$(if $(filter 1,$(IS_CLANG)),-nodebug)
	@$(VALGRIND) -q --log-file=$(CT_DIR)/taint-control.log $(CT_DIR)/ct-taint$(if $(filter 1,$(IS_CLANG)),-nodebug) --control

# One after the other (the timing test must not share the CPU with the
# others), all four even if one fails, then one verdict.
CT_CHECKS ?= insn trace taint dudect
check-ct:
	@fail=; for c in $(CT_CHECKS); do \
	    t0=$$(date +%s); \
	    $(MAKE) --no-print-directory check-ct-$$c || fail="$$fail $$c"; \
	    echo "($$c: $$(( $$(date +%s) - t0 )) s)"; \
	done; \
	if [ -n "$$fail" ]; then echo "check-ct: FAILED:$$fail"; exit 1; fi; \
	echo "check-ct: checks passed: $(CT_CHECKS)"

# ---- the flag matrix ----
# Compilers x optimisation levels x -march values that users and
# distributions build with; every configuration in its own build folder
# under CT_MATRIX_DIR, one verdict line each, and a failure of any one
# fails the target (a build that cannot be proven is never passed over).
#   make check-ct-insn-matrix   check 1 on each (seconds per build: only
#                               the timing-safe objects are compiled)
#   make check-ct-matrix        all four checks on each (long: the
#                               statistical test alone is a minute or more)
CT_MATRIX_CCS   ?= gcc clang
CT_MATRIX_OPTS  ?= -O2 -O3 -Os
CT_MATRIX_ARCHS ?= default x86-64-v2 x86-64-v3 x86-64-v4 native hardened
CT_MATRIX_DIR   ?= build-ct-matrix
.PHONY: check-ct-insn-matrix check-ct-matrix
ifeq ($(IS_X86_64),1)
check-ct-insn-matrix: $(CT_DIR)/ct-list
	+@MAKE="$(MAKE)" WERROR="$(WERROR)" CT_MATRIX_CCS="$(CT_MATRIX_CCS)" \
	    CT_MATRIX_OPTS="$(CT_MATRIX_OPTS)" CT_MATRIX_ARCHS="$(CT_MATRIX_ARCHS)" \
	    sh tests/ct/matrix.sh insn $(CT_MATRIX_DIR) $(abspath $(CT_DIR)/ct-list)
check-ct-matrix:
	+@MAKE="$(MAKE)" WERROR="$(WERROR)" CT_MATRIX_CCS="$(CT_MATRIX_CCS)" \
	    CT_MATRIX_OPTS="$(CT_MATRIX_OPTS)" CT_MATRIX_ARCHS="$(CT_MATRIX_ARCHS)" \
	    sh tests/ct/matrix.sh all $(CT_MATRIX_DIR)
else
check-ct-insn-matrix check-ct-matrix:
	@echo "$@: x86-64 only; skipped on $(TARGET)"
endif

test-extra:: check-ct-insn check-ct-trace-quick
