# SPDX-License-Identifier: BSD-2-Clause
# memset area (issue 6): the tunables module, its tests, and the check that
# memset_explicit survives optimisation.

# src/tunables.c is not a variant, so add it to the libraries by hand
# ($^ in their recipes picks up prerequisites added here).
MEMSET_LIB_OBJS := $(BUILD)/obj/src/tunables.o
LIB_OBJS += $(MEMSET_LIB_OBJS)
$(BUILD)/libmemlane.a $(BUILD)/libmemlane.so.$(SOVERSION): $(MEMSET_LIB_OBJS)

MEMSET_TUN_TEST := $(BUILD)/memset-tunables-test
$(MEMSET_TUN_TEST): tests/memset/test_tunables.c $(wildcard src/*.h) $(BUILD)/libmemlane.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< $(BUILD)/libmemlane.a -o $@

# The rep stosb and non-temporal paths under the full memset suite (guard
# pages, canaries, alignments): the default thresholds are above the
# suite's largest size, so lower them for these runs.
test-extra:: $(MEMSET_TUN_TEST) $(TEST_BIN)
	$(MEMSET_TUN_TEST)
	sh tests/memset/explicit_survives.sh "$(CC) $(filter -fuse-ld=%,$(CFLAGS))" $(BUILD)/libmemlane.a $(BUILD)/memset-explicit
	MEMLANE_NT_THRESHOLD=off MEMLANE_REP_STOSB_THRESHOLD=600 $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=600 MEMLANE_REP_STOSB_THRESHOLD=off $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=64K MEMLANE_REP_STOSB_THRESHOLD=1000 $(TEST_BIN) memset memset_explicit

# memset-ab (bench/memset-ab): memset variants against libc with both in
# shared libraries, each in a process of its own, at four code placements.
#   make memset-ab [AB_MODE=dist|uniform:A-B|fixed:OFF:N,N..] [AB_IMPLS="avx512 memlane null"]
# The harness is built (not run) by `make test`, so it keeps compiling.
AB_MODE  ?= dist
AB_IMPLS ?= avx512 memlane null onemask
AB_CC     = $(CC) $(CFLAGS) -std=gnu11 $(WARN) $(LIB_NOLIBCALL)
.PHONY: memset-ab
memset-ab: $(BUILD)/libmemlane.so.$(SOVERSION)
	AB_LIBMEMLANE=$(abspath $(BUILD)/libmemlane.so.$(SOVERSION)) sh bench/memset-ab/run.sh $(BUILD)/memset-ab "$(AB_CC)" $(AB_MODE) $(AB_IMPLS)
ifeq ($(IS_X86_64),1)
test-extra::
	AB_RUN=true sh bench/memset-ab/run.sh $(BUILD)/memset-ab "$(AB_CC)" dist avx512
endif
