# SPDX-License-Identifier: BSD-2-Clause
# memset area (issue 6): the tunables module, its tests, and the check that
# memset_explicit survives optimisation.

# src/tunables.c is not a variant, so add it to the libraries by hand
# ($^ in their recipes picks up prerequisites added here).
MEMSET_LIB_OBJS := $(BUILD)/obj/src/tunables.o
LIB_OBJS += $(MEMSET_LIB_OBJS)
$(LIB_INTERNAL_A) $(BUILD)/libmemlane.so.$(SOVERSION): $(MEMSET_LIB_OBJS)

MEMSET_TUN_TEST := $(BUILD)/memset-tunables-test
$(MEMSET_TUN_TEST): tests/memset/test_tunables.c $(wildcard src/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< $(LIB_INTERNAL_A) -o $@

# The rep stosb and non-temporal paths under the full memset suite (guard
# pages, canaries, alignments): the default thresholds are above the
# suite's largest size, so lower them for these runs.
test-extra:: $(MEMSET_TUN_TEST) $(TEST_BIN)
	$(MEMSET_TUN_TEST)
	sh tests/memset/explicit_survives.sh "$(CC) $(filter -fuse-ld=%,$(CFLAGS))" $(BUILD)/libmemlane.a $(BUILD)/memset-explicit
	MEMLANE_NT_THRESHOLD=off MEMLANE_REP_STOSB_THRESHOLD=600 $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=600 MEMLANE_REP_STOSB_THRESHOLD=off $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=64K MEMLANE_REP_STOSB_THRESHOLD=1000 $(TEST_BIN) memset memset_explicit
