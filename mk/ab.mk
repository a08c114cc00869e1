# SPDX-License-Identifier: BSD-2-Clause
# ab (bench/ab): one function's variants against libc's, both in shared
# libraries, each implementation in a process of its own next to libc, at
# four code placements; per row the ticks and the time ratio (median over
# the placements, with its spread).
#   make ab FUNC=memcmp AB_MODE=fixed[:OFF][:SIZES]|dist[:OFF]|uniform:A-B
#           AB_DATA=equal|mismatch|mismatch:K|mismatch:A-B
#           AB_IMPLS="avx2 memlane" AB_GLIBC=default|avx2|sse2
# (bench/ab/ab.c and run.sh say more.)  `make memset-ab` is the former
# memset harness's interface: FUNC=memset, its speed-ratio layout.
# The harness is built (not run) by `make test`, so it keeps compiling.
FUNC     ?= memcmp
AB_MODE  ?= dist
AB_DATA  ?= equal
AB_IMPLS ?= avx512 avx2 sse2 memlane
AB_CC     = $(CC) $(CFLAGS) -std=gnu11 $(WARN) $(LIB_NOLIBCALL)
AB_ENV    = AB_LIBMEMLANE=$(abspath $(BUILD)/libmemlane.so.$(SOVERSION)) \
            AB_FLAGS_sse2="$(FLAGS_sse2)" AB_FLAGS_avx2="$(FLAGS_avx2)" \
            AB_FLAGS_avx512="$(FLAGS_avx512)" AB_FLAGS_cmp512="$(ML_NO_LOW_XMM)" \
            AB_FLAGS_memset="$(FLAGS_fn_memset)"
.PHONY: ab memset-ab
ab: $(BUILD)/libmemlane.so.$(SOVERSION)
	$(AB_ENV) sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" $(FUNC) $(AB_MODE) $(AB_DATA) $(AB_IMPLS)
memset-ab: $(BUILD)/libmemlane.so.$(SOVERSION)
	$(AB_ENV) AB_FORMAT=speed sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" memset $(AB_MODE) - \
	    $(if $(filter command line,$(origin AB_IMPLS)),$(AB_IMPLS),avx512 memlane null onemask)
ifeq ($(IS_X86_64),1)
test-extra::
	$(AB_ENV) AB_RUN=true sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" memcmp dist equal avx2
endif
