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

FUNCTIONS := memset memcmp bcmp timingsafe_bcmp timingsafe_memcmp
LEVELS    := generic $(if $(IS_X86_64),sse2 avx2 avx512)
LIB_SRCS  := src/cpu.c src/dispatch.c src/env.c src/warn.c \
             $(foreach f,$(FUNCTIONS),$(foreach l,$(LEVELS),$(wildcard src/$(f)/$(l).c)))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

SONAME    := libmemlane.so.0
SOVERSION := 0.1.0

TEST_BIN  := $(BUILD)/memlane-test

.PHONY: all test clean
all: $(BUILD)/libmemlane.a $(BUILD)/libmemlane.so $(TEST_BIN)

# A variant's level is the file name: src/<function>/<level>.c.
level_of = $(basename $(notdir $(1)))
$(BUILD)/obj/src/%.o: src/%.c $(wildcard src/*.h src/*/*.def src/*.def include/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) $(FLAGS_$(call level_of,$<)) -c $< -o $@

$(BUILD)/libmemlane.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libmemlane.so.$(SOVERSION): $(LIB_OBJS)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,noexecstack $^ -o $@

$(BUILD)/libmemlane.so: $(BUILD)/libmemlane.so.$(SOVERSION)
	ln -sf libmemlane.so.$(SOVERSION) $(BUILD)/$(SONAME)
	ln -sf libmemlane.so.$(SOVERSION) $@

TEST_SRCS := $(wildcard tests/*.c)
$(TEST_BIN): $(TEST_SRCS) $(wildcard tests/*.h) $(BUILD)/libmemlane.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(TEST_SRCS) $(BUILD)/libmemlane.a -o $@

test: $(TEST_BIN)
	sh tests/check-spdx.sh
	$(TEST_BIN)
	$(MAKE) --no-print-directory test-extra

# Further parts of `make test`, one double-colon rule per mk/*.mk file.
.PHONY: test-extra
test-extra::

clean:
	rm -rf $(BUILD)

# Each area of work (benchmark, checks, install, ...) keeps its targets in
# its own mk/<area>.mk; they may use every variable above.
-include $(sort $(wildcard mk/*.mk))
