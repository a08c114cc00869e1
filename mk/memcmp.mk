# SPDX-License-Identifier: BSD-2-Clause
# memcmp and bcmp (issue 7).
#
# gcc: keep the AVX-512 variants on zmm16-31 by reserving xmm0-15 for
# those two files.  Registers 16-31 leave no dirty upper state, so no
# vzeroupper is needed on return (it cost ~1.4 cycles a call on Zen 4),
# and callers' SSE code still pays no transition penalty.  clang has no
# such flag; it uses zmm0-15 and inserts vzeroupper itself.
ifneq ($(IS_CLANG),1)
ML_NO_LOW_XMM := $(foreach r,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,-ffixed-xmm$(r))
$(BUILD)/obj/src/memcmp/avx512.o $(BUILD)/obj/src/bcmp/avx512.o: LIB_CFLAGS += $(ML_NO_LOW_XMM)
endif
$(BUILD)/obj/src/memcmp/avx512.o $(BUILD)/obj/src/bcmp/avx512.o: mk/memcmp.mk

# Lane positions beyond 256 bytes for every comparison variant
# (tests/compare/lanes.c), a separate binary run by `make test`.
LANES_BIN := $(BUILD)/memlane-test-lanes
$(LANES_BIN): tests/compare/lanes.c tests/suite/harness.c tests/suite/harness.h $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) tests/compare/lanes.c tests/suite/harness.c $(LIB_INTERNAL_A) -o $@

test-extra:: $(LANES_BIN)
	$(LANES_BIN)
