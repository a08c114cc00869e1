# SPDX-License-Identifier: BSD-2-Clause
# Fuzzing (fuzz/fuzz_memlane.c): differential, libFuzzer, every runnable
# variant against a reference.  Each target builds into its own BUILD
# folder through a recursive make, so the library is compiled with
# exactly the flags the fuzzer needs.
#
#   make fuzz           FUZZ_TIME=60 FUZZ_ONLY=function[/variant]  (ASan + UBSan)
#   make fuzz-ifunc     the IFUNC entry points, guard pages, no sanitizers
#   make fuzz-selftest  each deliberately broken implementation is found
#   (make test replays the corpus: fuzz/replay.sh)

.PHONY: fuzz fuzz-build fuzz-ifunc fuzz-selftest

# ---- fuzz: libFuzzer, ASan + UBSan, every runnable variant ----
FUZZ_TIME  ?= 60
FUZZ_ONLY  ?=
FUZZ_CC    ?= clang
FUZZ_BUILD ?= build-fuzz
FUZZ_FLAGS := -O2 -g $(SAN_FLAGS) -fsanitize=fuzzer-no-link

# Built inside the recursive make, where CC, CFLAGS and BUILD are the
# fuzz build's.
$(BUILD)/fuzz_memlane: fuzz/fuzz_memlane.c $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(BASE_CFLAGS) $< $(LIB_INTERNAL_A) -o $@

fuzz-build:
	$(SUBMAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" \
	    $(FUZZ_BUILD)/fuzz_memlane

# The seed corpus and the regression inputs are read (and each run once)
# before fuzzing starts; new inputs go to the build folder, not the tree.
fuzz: fuzz-build
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	MEMLANE_FUZZ_ONLY=$(FUZZ_ONLY) $(SAN_ENV) $(FUZZ_BUILD)/fuzz_memlane \
	    -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/ \
	    $(FUZZ_BUILD)/corpus fuzz/corpus $(wildcard fuzz/regress)

# ---- fuzz-ifunc: the entry points users call, without sanitizers ----
# The sanitizer build has no IFUNC (ML_IFUNC): this one has, so the
# "dispatch" targets are the IFUNC-bound public symbols.  No ASan: every
# buffer sits flush against a PROT_NONE page instead (fuzz_memlane.c).
# Coverage-guided (libFuzzer), lengths up to 4 MiB.
FUZZ_IFUNC_BUILD ?= build-fuzz-ifunc
FUZZ_IFUNC_FLAGS := -O2 -g -fsanitize=fuzzer-no-link
.PHONY: fuzz-ifunc
fuzz-ifunc:
	$(SUBMAKE) BUILD=$(FUZZ_IFUNC_BUILD) CC=$(FUZZ_CC) CFLAGS="$(FUZZ_IFUNC_FLAGS)" \
	    $(FUZZ_IFUNC_BUILD)/fuzz_memlane
	@mkdir -p $(FUZZ_IFUNC_BUILD)/corpus $(FUZZ_IFUNC_BUILD)/artifacts
	MEMLANE_FUZZ_ONLY=$(FUZZ_ONLY) $(FUZZ_IFUNC_BUILD)/fuzz_memlane \
	    -max_total_time=$(FUZZ_TIME) -print_final_stats=1 -rss_limit_mb=4096 \
	    -artifact_prefix=$(FUZZ_IFUNC_BUILD)/artifacts/ \
	    $(FUZZ_IFUNC_BUILD)/corpus fuzz/corpus $(wildcard fuzz/regress)

# ---- fuzz-selftest: the fuzzer must be able to fail ----
# Deliberately broken implementations (fuzz/fuzz_memlane.c, built with
# MEMLANE_FUZZ_SELFTEST), each of which the fuzzer must report within
# FUZZ_SELFTEST_TIME (fuzz/selftest.sh).
FUZZ_SELFTEST_TIME ?= 60
FUZZ_BROKEN := memset/broken-overwrite memset/broken-underwrite \
               memcmp/broken-overread memcmp/broken-underread \
               memcmp/broken-signed timingsafe_bcmp/broken-not01 \
               timingsafe_memcmp/broken-lastdiff

$(BUILD)/fuzz_memlane_selftest: fuzz/fuzz_memlane.c $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -DMEMLANE_FUZZ_SELFTEST $(BASE_CFLAGS) \
	    $< $(LIB_INTERNAL_A) -o $@

fuzz-selftest:
	$(SUBMAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" \
	    $(FUZZ_BUILD)/fuzz_memlane_selftest
	$(SAN_ENV) sh fuzz/selftest.sh $(FUZZ_BUILD)/fuzz_memlane_selftest $(FUZZ_BUILD)/selftest \
	    $(FUZZ_SELFTEST_TIME) "$(FUZZ_BROKEN)"

# ---- the regression corpus, replayed by `make test` ----
# fuzz/regress: inputs kept from fuzzing (minimised with libFuzzer's
# -merge=1), fuzz/corpus: the seeds.  fuzz/replay.sh runs them against
# this build, and checks that they catch every broken implementation.
FUZZ_REPLAY := $(BUILD)/fuzz-replay
FUZZ_REPLAY_INPUTS := $(wildcard fuzz/regress) fuzz/corpus
$(FUZZ_REPLAY): fuzz/fuzz_memlane.c $(wildcard src/*.h include/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -DMEMLANE_FUZZ_REPLAY $(BASE_CFLAGS) $< $(LIB_INTERNAL_A) -o $@
$(FUZZ_REPLAY)-selftest: fuzz/fuzz_memlane.c $(wildcard src/*.h include/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -DMEMLANE_FUZZ_REPLAY -DMEMLANE_FUZZ_SELFTEST $(BASE_CFLAGS) $< \
	    $(LIB_INTERNAL_A) -o $@
test-extra:: $(FUZZ_REPLAY) $(FUZZ_REPLAY)-selftest
	@sh fuzz/replay.sh $(FUZZ_REPLAY) $(FUZZ_REPLAY)-selftest $(BUILD)/fuzz-replay.log \
	    "$(FUZZ_BROKEN)" $(FUZZ_REPLAY_INPUTS)
