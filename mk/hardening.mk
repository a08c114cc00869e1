# SPDX-License-Identifier: BSD-2-Clause
# Hardening (issue 8): differential fuzzing, sanitizer and valgrind runs of
# the test suite, static analysis, formatting, and the portable library
# cross-built for aarch64 and tested under qemu-user.  Each target builds
# into its own BUILD folder through a recursive make, so the library is
# compiled with exactly the flags the tool needs.
#
#   make fuzz        FUZZ_TIME=60 FUZZ_ONLY=function[/variant]
#   make sanitize    SANITIZE_CCS="clang gcc"
#   make memcheck    MEMCHECK_ARGS=--quick
#   make lint
#   make format / make format-check
#   make cross-test  CROSS_CC=aarch64-linux-gnu-gcc

.PHONY: fuzz fuzz-build sanitize memcheck lint lint-cppcheck lint-tidy \
        format format-check cross-test fuzz-selftest

SUBMAKE := $(MAKE) --no-print-directory

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
SAN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

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

# ---- the regression corpus, replayed by `make test` ----
# fuzz/regress: inputs kept from fuzzing (minimised with libFuzzer's
# -merge=1), fuzz/corpus: the seeds.  The harness's own main() runs each
# once against this build (no libFuzzer needed, IFUNC entry points), then
# again with memset's thresholds low so its rep stosb and non-temporal
# paths run, and with MEMLANE_ARCH=sse2 for the entry points.
FUZZ_REPLAY := $(BUILD)/fuzz-replay
$(FUZZ_REPLAY): fuzz/fuzz_memlane.c $(wildcard src/*.h include/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -DMEMLANE_FUZZ_REPLAY $(BASE_CFLAGS) $< $(LIB_INTERNAL_A) -o $@
FUZZ_REPLAY_INPUTS := $(wildcard fuzz/regress) fuzz/corpus
test-extra:: $(FUZZ_REPLAY) $(FUZZ_REPLAY)-selftest
	@set -e; log=$(BUILD)/fuzz-replay.log; \
	for env in "" "MEMLANE_REP_STOSB_THRESHOLD=1K MEMLANE_NT_THRESHOLD=8K" \
	           "MEMLANE_ARCH=sse2"; do \
	    env $$env $(FUZZ_REPLAY) $(FUZZ_REPLAY_INPUTS) >$$log 2>&1 || \
	        { cat $$log; echo "fuzz replay FAILED ($$env)"; exit 1; }; \
	    echo "fuzz replay ($${env:-default settings}): $$(grep -o '[0-9]* inputs, no finding' $$log)"; \
	done
	@set -e; for t in $(FUZZ_BROKEN); do \
	    if MEMLANE_FUZZ_ONLY=$$t $(FUZZ_REPLAY)-selftest $(FUZZ_REPLAY_INPUTS) \
	        >/dev/null 2>&1; then \
	        echo "fuzz replay: $$t NOT detected by the regression inputs"; exit 1; fi; \
	done; echo "fuzz replay: the regression inputs catch all $(words $(FUZZ_BROKEN)) broken implementations"

# The replay must be able to fail: each deliberately broken implementation
# (FUZZ_BROKEN, below) must make it stop on some regression input.
$(FUZZ_REPLAY)-selftest: fuzz/fuzz_memlane.c $(wildcard src/*.h include/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) -DMEMLANE_FUZZ_REPLAY -DMEMLANE_FUZZ_SELFTEST $(BASE_CFLAGS) $< \
	    $(LIB_INTERNAL_A) -o $@
test-extra:: $(FUZZ_REPLAY)-selftest

# ---- sanitize: the test suite under ASan + UBSan, per compiler ----
SANITIZE_CCS ?= clang gcc

sanitize:
	@set -e; for cc in $(SANITIZE_CCS); do \
	    echo "=== sanitize: CC=$$cc"; \
	    $(SUBMAKE) BUILD=build-san-$$cc CC=$$cc CFLAGS="-O2 -g $(SAN_FLAGS)" \
	        build-san-$$cc/memlane-test; \
	    $(SAN_ENV) build-san-$$cc/memlane-test $(SANITIZE_ARGS); \
	done

# The harness must be able to fail: a build with deliberately broken
# implementations added (over- and under-reads and -writes, wrong return
# conventions), each of which the fuzzer must report within the time.
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
	@rm -rf $(FUZZ_BUILD)/selftest; mkdir -p $(FUZZ_BUILD)/selftest/corpus
	@set -e; for t in $(FUZZ_BROKEN); do \
	    log=$(FUZZ_BUILD)/selftest/$$(echo $$t | tr / _).log; \
	    if MEMLANE_FUZZ_ONLY=$$t $(SAN_ENV) $(FUZZ_BUILD)/fuzz_memlane_selftest \
	        -max_total_time=$(FUZZ_SELFTEST_TIME) \
	        -artifact_prefix=$(FUZZ_BUILD)/selftest/ \
	        $(FUZZ_BUILD)/selftest/corpus fuzz/corpus >$$log 2>&1; then \
	        echo "fuzz-selftest: $$t NOT detected (see $$log)"; exit 1; \
	    fi; \
	    what=$$(grep -m1 -oE 'memlane-fuzz FINDING|AddressSanitizer: [a-z-]+|SEGV' $$log || true); \
	    if [ -z "$$what" ]; then \
	        echo "fuzz-selftest: $$t failed without a report (see $$log)"; exit 1; fi; \
	    echo "fuzz-selftest: $$t detected: $$what"; \
	done

# ---- memcheck: the test suite under valgrind ----
# valgrind's CPU hides AVX-512, so the suite's "every variant the CPU
# supports" becomes every variant valgrind can run.  The suite is run per
# function (which leaves out its MEMLANE_ARCH re-exec suite: a re-exec of
# /proc/self/exe under valgrind starts valgrind's own binary); the
# dispatcher is checked instead by --arch-probe under valgrind for every
# MEMLANE_ARCH value: entry points work, nothing above the CPU's level is
# selected, an AVX-512 variant never is, and none that reads around its
# buffers (the dispatcher detects valgrind, src/dispatch.c).
MEMCHECK_BUILD ?= build-memcheck
MEMCHECK_ARGS  ?=
MEMCHECK_FUNCS := memset memset_explicit memcmp bcmp timingsafe_bcmp \
                  timingsafe_memcmp
# Its own name: mk/ct.mk's VALGRIND runs a control that must report errors.
MEMCHECK_VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full \
                     --errors-for-leak-kinds=definite

memcheck:
	$(SUBMAKE) BUILD=$(MEMCHECK_BUILD) CFLAGS="-O2 -g" $(MEMCHECK_BUILD)/memlane-test
	@set -e; bin=$(MEMCHECK_BUILD)/memlane-test; \
	native=$$($$bin no-such-function | sed -n 1p); \
	under=$$($(MEMCHECK_VALGRIND) $$bin no-such-function | sed -n 1p); \
	echo "memcheck: natively:      $$native"; \
	echo "memcheck: under valgrind: $$under"; \
	case "$$under" in *"CPU level avx512"*) \
	    echo "memcheck: valgrind reports AVX-512 usable: it cannot run it"; exit 1;; esac; \
	for arch in unset generic sse2 avx2 avx512; do \
	    if [ $$arch = unset ]; then env=; else env=MEMLANE_ARCH=$$arch; fi; \
	    out=$$(env $$env $(MEMCHECK_VALGRIND) $$bin --arch-probe 2>&1) || \
	        { echo "memcheck: --arch-probe failed under valgrind ($$env):"; echo "$$out"; exit 1; }; \
	    case "$$out" in *"calls ok"*) ;; *) echo "memcheck: entry points wrong under valgrind: $$out"; exit 1;; esac; \
	    case "$$out" in *"in-bounds: yes"*) ;; *) \
	        echo "memcheck: a variant that reads around its buffers under valgrind: $$out"; exit 1;; esac; \
	    if echo "$$out" | grep -q ' avx512$$'; then \
	        echo "memcheck: dispatcher picked AVX-512 under valgrind ($$env): $$out"; exit 1; fi; \
	    echo "memcheck: dispatch under valgrind, MEMLANE_ARCH=$$arch:" \
	        $$(echo "$$out" | awk '/^[a-z_]+ [a-z0-9]+$$/ {printf "%s=%s ", $$1, $$2}'); \
	done
	$(MEMCHECK_VALGRIND) $(MEMCHECK_BUILD)/memlane-test $(MEMCHECK_ARGS) $(MEMCHECK_FUNCS)

# ---- lint: cppcheck and clang-tidy with the checked-in configuration ----
# (.cppcheck-suppressions, .cppcheck/memlane.cfg and .clang-tidy).  Each file is analysed with
# its variant level's target flags, as the build compiles it.
CPPCHECK   ?= cppcheck
CLANG_TIDY ?= clang-tidy
CPPCHECK_FLAGS := --enable=warning,portability,performance --std=c11 \
                  --library=posix --library=.cppcheck/memlane.cfg \
                  --platform=unix64 --inline-suppr \
                  --suppressions-list=.cppcheck-suppressions \
                  --error-exitcode=1 -q -Iinclude -Isrc -Itests/suite
# The whole library (every variant, whoever wrote it), the foundation's
# test suite and the fuzz harness.  Other areas' test folders
# (tests/<area>/) have their own include paths and are not linted here;
# LINT_EXTRA adds files.
LINT_TESTS := $(TEST_SRCS) tests/suite/harness.h
LINT_C    := $(wildcard src/*.c src/*/*.c fuzz/*.c) $(TEST_SRCS) $(LINT_EXTRA)
LINT_DIRS := src $(LINT_TESTS) fuzz $(LINT_EXTRA)
TIDY_CHECKS := $(LINT_C:%=tidy/%)
.PHONY: $(TIDY_CHECKS)

lint: lint-cppcheck lint-tidy
	@echo "lint: clean (cppcheck and clang-tidy, $(words $(LINT_C)) files)"

lint-cppcheck:
	$(CPPCHECK) $(CPPCHECK_FLAGS) $(LINT_DIRS)

lint-tidy: $(TIDY_CHECKS)

$(TIDY_CHECKS): tidy/%:
	@echo "clang-tidy $*"
	@out=$$($(CLANG_TIDY) --quiet $* -- -std=gnu11 -Iinclude -Isrc -Itests/suite \
	    $(FLAGS_$(call level_of,$*)) 2>&1); rc=$$?; \
	printf '%s\n' "$$out" | grep -v '^[0-9]* warnings* generated\.$$' | grep . ; \
	exit $$rc

# ---- cross-test: the portable library on aarch64, under qemu-user ----
# The Makefile picks variants by `$(CC) -dumpmachine`, so only generic C
# is built; this checks that no x86 variant got in, runs the test suite
# per function under qemu, and checks the dispatcher with --arch-probe for
# each MEMLANE_ARCH value (the suite's own MEMLANE_ARCH part re-executes
# /proc/self/exe, which qemu-user without binfmt_misc cannot do): every
# function is generic, x86 levels and bad names warn once on stderr.
# Installs nothing: .ci/steps/40-hardening.sh does.
CROSS_CC      ?= aarch64-linux-gnu-gcc
CROSS_PREFIX  := $(patsubst %gcc,%,$(notdir $(CROSS_CC)))
CROSS_BUILD   ?= build-aarch64
CROSS_SYSROOT ?= /usr/aarch64-linux-gnu
QEMU_AARCH64  ?= qemu-aarch64
CROSS_RUN     := $(QEMU_AARCH64) -L $(CROSS_SYSROOT)

cross-test:
	$(SUBMAKE) BUILD=$(CROSS_BUILD) CC=$(CROSS_CC) AR=$(CROSS_PREFIX)ar \
	    $(CROSS_BUILD)/libmemlane-internal.a $(CROSS_BUILD)/libmemlane.so $(CROSS_BUILD)/memlane-test
	@set -e; bin=$(CROSS_BUILD)/memlane-test; \
	file $$bin | grep -q 'ARM aarch64' || { echo "cross-test: $$bin is not aarch64"; exit 1; }; \
	syms=$$($(CROSS_PREFIX)nm $(CROSS_BUILD)/libmemlane-internal.a); \
	if echo "$$syms" | grep -E 'memlane_[a-z_]+_(sse2|avx2|avx512)$$'; then \
	    echo "cross-test: x86 variants in the portable library"; exit 1; fi; \
	echo "cross-test: variants built:" \
	    $$(echo "$$syms" | grep -oE ' T memlane_[a-z_]+_generic$$' | sed 's/ T //' | sort -u); \
	for arch in unset "" generic sse2 avx2 avx512 bogus; do \
	    if [ "$$arch" = unset ]; then set -- env -u MEMLANE_ARCH; else set -- env MEMLANE_ARCH=$$arch; fi; \
	    out=$$("$$@" $(CROSS_RUN) $$bin --arch-probe 2>$(CROSS_BUILD)/probe.err) || \
	        { echo "cross-test: --arch-probe failed (MEMLANE_ARCH=$$arch): $$out"; exit 1; }; \
	    nerr=$$(wc -l <$(CROSS_BUILD)/probe.err); \
	    case "$$arch" in unset|""|generic) want=0;; *) want=1;; esac; \
	    if [ $$nerr -ne $$want ] || { [ $$want = 1 ] && ! grep -q MEMLANE_ARCH $(CROSS_BUILD)/probe.err; }; then \
	        echo "cross-test: MEMLANE_ARCH=$$arch: want $$want warning line(s), got:"; \
	        cat $(CROSS_BUILD)/probe.err; exit 1; fi; \
	    if [ "$$(echo "$$out" | grep -c ' generic$$')" -ne $(words $(FUNCTIONS) memset_explicit) ] || ! echo "$$out" | grep -q 'calls ok'; then \
	        echo "cross-test: MEMLANE_ARCH=$$arch: dispatch wrong: $$out"; exit 1; fi; \
	    echo "cross-test: MEMLANE_ARCH=$$arch: all generic, $$nerr warning line(s), calls ok"; \
	done
	$(CROSS_RUN) $(CROSS_BUILD)/memlane-test $(MEMCHECK_FUNCS)

# ---- format: clang-format with the checked-in .clang-format ----
# Every tracked C file; `format` rewrites them, `format-check` lists the
# files that differ and fails if any does.
CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)

format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	@bad=; for f in $(FORMAT_FILES); do \
	    $(CLANG_FORMAT) --dry-run --Werror $$f >/dev/null 2>&1 || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then echo "format-check: not formatted:$$bad"; exit 1; fi; \
	echo "format-check: $(words $(FORMAT_FILES)) files formatted"
