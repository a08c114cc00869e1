# SPDX-License-Identifier: BSD-2-Clause
# make test: the suite (tests/suite/ and a suite per function), then its
# extra parts (test-extra; each mk/ file adds its own): memset's
# tunables, the static executables, the environment in hostile settings,
# the code as linked.  Beyond make test, the suite under tools:
#
#   make sanitize    SANITIZE_CCS="clang gcc"  (ASan + UBSan)
#   make memcheck    MEMCHECK_ARGS=--long      (valgrind)
#   make test-lto    LTO_CCS="gcc clang"       (make test with -flto)
#   make cross-test  CROSS_CC=aarch64-linux-gnu-gcc (qemu-user)
#   make check-nolibcall                       (part of make test)

# ---- the suite ----
# Its runner and harness (tests/suite/), and a suite per function or
# kind of function: memset, the comparisons (memcmp, bcmp,
# timingsafe_bcmp, timingsafe_memcmp share one, with each function's own
# expectations), the dispatch.
TEST_BIN  := $(BUILD)/memlane-test
TEST_SRCS := tests/suite/main.c tests/suite/harness.c tests/memset/suite.c \
             tests/compare/suite.c tests/dispatch/suite.c
TEST_CFLAGS := $(BASE_CFLAGS) -Itests/suite
$(TEST_BIN): $(TEST_SRCS) tests/suite/harness.h $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) $(TEST_SRCS) $(LIB_INTERNAL_A) -o $@
all: $(TEST_BIN)

test: $(TEST_BIN)
	sh tests/check-spdx.sh
	$(TEST_BIN)
	$(SUBMAKE) test-extra

# Further parts of `make test`: one double-colon rule each.
test-extra::

# ---- the comparisons' lanes beyond 256 bytes ----
# A difference at every position of lengths that run each variant's loops
# and tails (tests/compare/lanes.c), a binary of its own.
LANES_BIN := $(BUILD)/memlane-test-lanes
$(LANES_BIN): tests/compare/lanes.c tests/suite/harness.c tests/suite/harness.h $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) tests/compare/lanes.c tests/suite/harness.c $(LIB_INTERNAL_A) -o $@
all: $(LANES_BIN)

test-extra:: $(LANES_BIN)
	$(LANES_BIN)

# ---- memset: the tunables, the thresholds' paths, memset_explicit ----
MEMSET_TUN_TEST := $(BUILD)/memset-tunables-test
$(MEMSET_TUN_TEST): tests/memset/test_tunables.c $(wildcard src/*.h) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $< $(LIB_INTERNAL_A) -o $@

# The rep stosb and non-temporal paths under the full memset suite (guard
# pages, canaries, alignments): the default thresholds are above the
# suite's largest size, so lower them for these runs.  memset_explicit
# must survive optimisation of a caller's dead store.
test-extra:: $(MEMSET_TUN_TEST) $(TEST_BIN)
	$(MEMSET_TUN_TEST)
	sh tests/memset/explicit_survives.sh "$(CC) $(filter -fuse-ld=%,$(CFLAGS))" $(BUILD)/libmemlane.a $(BUILD)/memset-explicit
	MEMLANE_NT_THRESHOLD=off MEMLANE_REP_STOSB_THRESHOLD=600 $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=600 MEMLANE_REP_STOSB_THRESHOLD=off $(TEST_BIN) memset memset_explicit
	MEMLANE_NT_THRESHOLD=64K MEMLANE_REP_STOSB_THRESHOLD=1000 $(TEST_BIN) memset memset_explicit

# ---- memcmp and bcmp: the prefetching loops ----
# The suite's compares (guard pages, alignments, a difference at the
# ends and in between) with the prefetch band over every size it runs
# from 256 KiB, whatever this CPU's default, and with the band off.
test-extra:: $(TEST_BIN)
	MEMLANE_CMP_PREFETCH=256K-64M $(TEST_BIN) memcmp bcmp
	MEMLANE_CMP_PREFETCH=off $(TEST_BIN) memcmp bcmp

# ---- static executables: the IFUNC resolvers before TLS ----
# The IFUNC resolvers in executables linked statically.  There
# they run before libc has set up thread-local storage, so the library is
# rebuilt with every function stack-protected (as hardened distribution
# builds do; the canary lives in TLS) and the MEMLANE_ARCH tests run in
# static and static-pie executables: every public symbol must be bound to
# the variant memlane_active names (tests/dispatch/suite.c).
DISPATCH_SSP_BUILD := $(BUILD)/ssp
DISPATCH_STATIC := $(BUILD)/memlane-test-static $(BUILD)/memlane-test-static-pie

# The inner make decides what to rebuild (it knows every dependency).
.PHONY: $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
$(DISPATCH_SSP_BUILD)/libmemlane-internal.a:
	$(MAKE) --no-print-directory BUILD=$(DISPATCH_SSP_BUILD) \
	    CFLAGS="$(CFLAGS) -fstack-protector-all" $@

# static_pie_link(objects): a static-pie link of the objects.  musl-gcc's
# specs know no -static-pie (it makes a dynamic PIE): musl's rcrt1.o,
# which relocates the executable itself, and the linker's flags by hand.
ifeq ($(LIBC),musl)
static_pie_link = -nostartfiles $(MUSL_LIBDIR)/rcrt1.o $(MUSL_LIBDIR)/crti.o \
    $(shell $(CC) -print-file-name=crtbeginS.o) $(1) \
    $(shell $(CC) -print-file-name=crtendS.o) $(MUSL_LIBDIR)/crtn.o \
    -Wl,-static,-pie,--no-dynamic-linker,-z,text
else
static_pie_link = -static-pie $(1)
endif

$(BUILD)/memlane-test-static: $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -static $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a -o $@
$(BUILD)/memlane-test-static-pie: $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
	$(CC) $(CFLAGS) $(TEST_CFLAGS) \
	    $(call static_pie_link,$(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a) -o $@

# Each is what its name says (no program interpreter; the static-pie one
# position-independent), then the MEMLANE_ARCH tests.
test-extra:: $(DISPATCH_STATIC)
	sh tests/check-static.sh $(BUILD)/memlane-test-static EXEC
	sh tests/check-static.sh $(BUILD)/memlane-test-static-pie DYN
	$(BUILD)/memlane-test-static arch
	$(BUILD)/memlane-test-static-pie arch

# ---- the environment in hostile settings ----
# Secure-execution
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

# ---- the code as linked: no libcalls, also with -flto ----
# The library's code as linked: no call into the C library's memory
# functions, also under link-time optimisation.
#
#   make check-nolibcall  (part of make test) libmemlane.so, the drop-in,
#                         the installed libmemlane.a (machine code, also
#                         after -flto) and the library's functions inside
#                         the test executables, static ones too, call no memset,
#                         memcmp, bcmp, memcpy, ... (tests/check-nolibcall.sh)
#   make test-lto         make test with -flto, one build per compiler:
#                         gcc (gcc-ar writes the archive's LTO symbol
#                         index) and clang (lld, llvm-ar); LTO_CCS picks
#
# -fno-builtin and gcc's -fno-tree-loop-distribute-patterns are per-file
# flags (LIB_NOLIBCALL), and with -flto the code is made at link time,
# where they are not on the command line: gcc keeps the optimisation
# flag with each function and clang a no-builtins attribute.  This check
# reads the code the link made, so it holds whichever way.

NOLIBCALL_CONTROL := $(BUILD)/nolibcall-control.so
$(NOLIBCALL_CONTROL): tests/nolibcall/control.c
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -fPIC -shared $< -o $@

NOLIBCALL_NAMES := $(BUILD)/libmemlane.so.$(SOVERSION)

.PHONY: check-nolibcall test-lto
check-nolibcall: $(NOLIBCALL_NAMES) $(PRELOAD_SO) $(BUILD)/libmemlane.a $(TEST_BIN) \
                 $(DISPATCH_STATIC) $(NOLIBCALL_CONTROL)
	@sh tests/check-nolibcall.sh $(NOLIBCALL_NAMES)
	@sh tests/check-nolibcall.sh $(PRELOAD_SO)
	@sh tests/check-nolibcall.sh $(BUILD)/libmemlane.a
	@for exe in $(TEST_BIN) $(DISPATCH_STATIC); do \
	    sh tests/check-nolibcall.sh $$exe $(NOLIBCALL_NAMES) || exit 1; done
	@if sh tests/check-nolibcall.sh $(NOLIBCALL_CONTROL) > $(NOLIBCALL_CONTROL).log; then \
	    cat $(NOLIBCALL_CONTROL).log; \
	    echo "check-nolibcall: the control was not flagged: the check does not work"; exit 1; fi
	@echo "check-nolibcall: control flagged ($$(grep -m1 "^nolibcall_control" $(NOLIBCALL_CONTROL).log | tr -s ' \t' ' ')), as it must be"

test-extra:: check-nolibcall

# ---- make test with -flto ----
LTO_CCS ?= gcc clang
LTO_MAKE_gcc   := CC=gcc AR=gcc-ar CFLAGS="-O2 -g -flto=auto"
# -fuse-ld is unused when only compiling, which clang would warn about.
LTO_MAKE_clang := CC=clang AR=llvm-ar \
    CFLAGS="-O2 -g -flto -fuse-ld=lld -Wno-unused-command-line-argument"
# What an object of an LTO build holds: gcc's GIMPLE sections, LLVM bitcode.
lto_ir_gcc   = readelf -S $(1) | grep -q '\.gnu\.lto_'
lto_ir_clang = [ "$$(od -An -tx1 -N4 $(1) | tr -d ' ')" = 4243c0de ]

test-lto: $(addprefix test-lto-,$(LTO_CCS))
test-lto-%:
	$(MAKE) --no-print-directory BUILD=build-lto-$* $(LTO_MAKE_$*) test
	@$(call lto_ir_$*,build-lto-$*/obj/src/dispatch.o) || \
	    { echo "test-lto-$*: build-lto-$*/obj/src/dispatch.o holds no LTO IR"; exit 1; }
	@echo "test-lto-$*: the objects hold IR, the code is made at link time; make test passed"

# ---- sanitize: the suite under ASan + UBSan, per compiler ----
# Each tool builds into its own BUILD folder through a recursive make, so
# the library is compiled with exactly the flags the tool needs.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
SAN_ENV   := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
             UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SANITIZE_CCS ?= clang gcc
.PHONY: sanitize memcheck cross-test
sanitize:
	@set -e; for cc in $(SANITIZE_CCS); do \
	    echo "=== sanitize: CC=$$cc"; \
	    $(SUBMAKE) BUILD=build-san-$$cc CC=$$cc CFLAGS="-O2 -g $(SAN_FLAGS)" \
	        build-san-$$cc/memlane-test; \
	    $(SAN_ENV) build-san-$$cc/memlane-test $(SANITIZE_ARGS); \
	done

# ---- memcheck: the suite under valgrind (tests/memcheck.sh) ----
MEMCHECK_BUILD ?= build-memcheck
MEMCHECK_ARGS  ?=
memcheck:
	$(SUBMAKE) BUILD=$(MEMCHECK_BUILD) CFLAGS="-O2 -g" $(MEMCHECK_BUILD)/memlane-test
	MEMCHECK_ARGS="$(MEMCHECK_ARGS)" sh tests/memcheck.sh $(MEMCHECK_BUILD)/memlane-test \
	    $(FUNCTIONS) memset_explicit

# ---- cross-test: the portable library on aarch64, under qemu-user ----
# Only generic C is built for another architecture (tests/cross-test.sh
# says what is checked), then the suite runs per function under qemu.
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
	sh tests/cross-test.sh $(CROSS_BUILD) $(CROSS_PREFIX)nm "$(CROSS_RUN)" \
	    $(words $(FUNCTIONS) memset_explicit)
	$(CROSS_RUN) $(CROSS_BUILD)/memlane-test $(FUNCTIONS) memset_explicit
