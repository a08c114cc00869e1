# SPDX-License-Identifier: BSD-2-Clause
# memlane — GNU Makefile.  `make` builds the libraries and tests,
# `make test` runs the suite.  CC=clang works as well as gcc.
# WERROR=1 turns warnings into errors (CI does this).  BUILD names the
# output folder (default build/).

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
WERROR  ?=

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-align=strict -Wvla
IS_CLANG := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep -c __clang__)
ifeq ($(IS_CLANG),1)
  WARN := $(filter-out -Wcast-align=strict,$(WARN)) -Wcast-align
  # The library must not call itself: no builtin expansion into libcalls.
  LIB_NOLIBCALL := -fno-builtin
else
  LIB_NOLIBCALL := -fno-builtin -fno-tree-loop-distribute-patterns
endif
ifneq ($(WERROR),)
  WARN += -Werror
endif

TARGET  := $(shell $(CC) -dumpmachine)
IS_X86_64 := $(if $(findstring x86_64,$(TARGET)),1,)
# The C library the compiler targets: glibc defines __GLIBC__; musl
# defines no macro of its own, but its headers guard each type with a
# __DEFINED_<type> macro.  musl-gcc's -dumpmachine still says -gnu.
LIBC := $(shell printf '\043include <stdlib.h>\n' | $(CC) -dM -E -x c - 2>/dev/null | \
          awk '/define __GLIBC__ /{print "glibc"; exit} /define __DEFINED_size_t/{m=1} END{if (m) print "musl"}' | head -1)
LIBC := $(or $(LIBC),unknown)
ifeq ($(LIBC),musl)
  # musl's start files and libc, found where the compiler's link takes
  # them (musl-gcc's specs add the directory; -print-file-name looks in
  # glibc's), and the version its dynamic loader prints.
  MUSL_LIBDIR := $(patsubst %/,%,$(dir $(shell printf 'int main(void){return 0;}\n' | \
                   $(CC) -x c - -o /dev/null -Wl,--trace 2>/dev/null | grep -m1 'crt1\.o$$')))
  MUSL_VERSION := $(shell $(MUSL_LIBDIR)/libc.so 2>&1 | sed -n 's/^Version //p')
endif

BASE_CFLAGS := -std=gnu11 $(WARN) -Iinclude -Isrc
LIB_CFLAGS  := $(BASE_CFLAGS) -fPIC -fvisibility=hidden $(LIB_NOLIBCALL)

# Target flags of each x86-64 level; a variant file is named after its level.
FLAGS_generic :=
FLAGS_sse2    := -msse2
FLAGS_avx2    := -mavx2 -mbmi -mbmi2 -mmovbe
FLAGS_avx512  := -mavx2 -mbmi -mbmi2 -mmovbe -mavx512f -mavx512bw -mavx512vl
# Code that IFUNC resolvers run (src/dispatch.c, cpu.c, env.c): in a static executable
# they run before libc has set up thread-local storage, which holds the
# stack protector's canary, so no canary checks there whatever CFLAGS say.
FLAGS_dispatch := -fno-stack-protector
FLAGS_cpu      := -fno-stack-protector
FLAGS_env      := -fno-stack-protector

# The functions, in src/functions.def's order.
FUNCTIONS := $(shell sed -n 's/^ML_FUNCTION.\([a-z_0-9]*\), .*/\1/p' src/functions.def)
LEVELS    := generic $(if $(IS_X86_64),sse2 avx2 avx512)
LIB_SRCS  := src/cpu.c src/dispatch.c src/env.c src/warn.c src/version.c \
             $(foreach f,$(FUNCTIONS),$(foreach l,$(LEVELS),$(wildcard src/$(f)/$(l).c)))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

# The version is written in one place, include/memlane.h's
# MEMLANE_VERSION_* macros; the file name of the shared library, the
# soname, memlane.pc and the man pages follow it (docs/releasing.md).
version_part = $(shell sed -n 's/^[#]define MEMLANE_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/memlane.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION   := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
ifneq ($(words $(subst ., ,$(VERSION))),3)
  $(error cannot read MEMLANE_VERSION_MAJOR/MINOR/PATCH from include/memlane.h)
endif
# The soname changes with the major version only: see the soname policy
# in docs/releasing.md.
SONAME    := libmemlane.so.$(VERSION_MAJOR)
SOVERSION := $(VERSION)

TEST_BIN  := $(BUILD)/memlane-test
# The library's objects, one archive member each, for the programs that
# reach its internals (ml_* functions, the variants by name): the tests
# and the benchmark.  Not installed: the installed libmemlane.a is made of
# the same objects with only the API left global (see below).
LIB_INTERNAL_A := $(BUILD)/libmemlane-internal.a
OBJCOPY   ?= objcopy

.PHONY: all test clean version
all: $(BUILD)/libmemlane.a $(BUILD)/libmemlane.so $(TEST_BIN)

# A variant's level is the file name: src/<function>/<level>.c.
level_of = $(basename $(notdir $(1)))
# Header dependencies: the compiler writes each object's .d file (-MMD),
# with an empty rule per header (-MP) so that a removed header is no error.
DEPFLAGS := -MMD -MP
$(BUILD)/obj/src/%.o: src/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) $(DEPFLAGS) $(FLAGS_$(call level_of,$<)) -c $< -o $@

$(LIB_INTERNAL_A): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The static library users link: every object of the internal archive
# linked into one relocatable object in which only the functions of the
# API (src/memlane.map) stay global; ml_cpu, memlane_memset_avx2 and the
# rest become local, so a program may use those names for its own.
# With link-time optimisation (-flto in CFLAGS) the objects hold compiler
# IR, whose symbols objcopy cannot make local: the partial link compiles
# them (gcc: -flinker-output=nolto-rel; lld does by itself), so this
# archive holds machine code either way.
LIB_A_LTO := $(if $(findstring -flto,$(CFLAGS)),$(CFLAGS) \
               $(if $(filter 1,$(IS_CLANG)),,-flinker-output=nolto-rel))
$(BUILD)/libmemlane.a: $(LIB_INTERNAL_A) src/memlane.map
	sed -n 's/^[[:space:]]*\(memlane_[a-z0-9_]*\);.*/\1/p' src/memlane.map > $(BUILD)/obj/api-symbols.txt
	$(CC) $(LIB_A_LTO) -r -nostdlib -Wl,--whole-archive $(LIB_INTERNAL_A) -Wl,--no-whole-archive \
	    -o $(BUILD)/obj/libmemlane-all.o
	$(OBJCOPY) --keep-global-symbols=$(BUILD)/obj/api-symbols.txt \
	    $(BUILD)/obj/libmemlane-all.o $(BUILD)/obj/libmemlane.o
	@rm -f $@
	$(AR) rcs $@ $(BUILD)/obj/libmemlane.o

$(BUILD)/libmemlane.so.$(SOVERSION): $(LIB_OBJS)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,noexecstack $^ -o $@

$(BUILD)/libmemlane.so: $(BUILD)/libmemlane.so.$(SOVERSION)
	ln -sf libmemlane.so.$(SOVERSION) $(BUILD)/$(SONAME)
	ln -sf libmemlane.so.$(SOVERSION) $@

# The suite: its runner and harness (tests/suite/), and a suite per
# function or kind of function: memset, the comparisons (memcmp, bcmp,
# timingsafe_bcmp, timingsafe_memcmp share one, with each function's
# own expectations), the dispatch.
TEST_SRCS := tests/suite/main.c tests/suite/harness.c tests/memset/suite.c \
             tests/compare/suite.c tests/dispatch/suite.c
TEST_CFLAGS := $(BASE_CFLAGS) -Itests/suite
$(TEST_BIN): $(TEST_SRCS) tests/suite/harness.h $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) $(TEST_SRCS) $(LIB_INTERNAL_A) -o $@

test: $(TEST_BIN)
	sh tests/check-spdx.sh
	$(TEST_BIN)
	$(MAKE) --no-print-directory test-extra

# Further parts of `make test`, one double-colon rule per mk/*.mk file.
.PHONY: test-extra
test-extra::

clean:
	rm -rf $(BUILD)

version:
	@echo $(VERSION)

# Each area of work (benchmark, checks, install, ...) keeps its targets in
# its own mk/<area>.mk; they may use every variable above.
-include $(sort $(wildcard mk/*.mk))

# The header dependencies the compiler wrote (DEPFLAGS).
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
