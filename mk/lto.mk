# SPDX-License-Identifier: BSD-2-Clause
# The library's code as linked: no call into the C library's memory
# functions, also under link-time optimisation (issue 19).
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
