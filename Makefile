# SPDX-License-Identifier: BSD-2-Clause
# memlane — GNU Makefile.  `make` builds the libraries and tests,
# `make test` runs the suite.  CC=clang works as well as gcc.
# WERROR=1 turns warnings into errors (CI does this).  BUILD names the
# output folder (default build/).
#
# This file finds out about the toolchain and the version; the rest is in
# mk/, one file per concern, read in the order below:
#   library.mk   the library: every source, its flags, the archives, the .so
#   install.mk   make install/uninstall, the LD_PRELOAD drop-in, man pages
#   bench.mk     memlane-bench, make ab / memset-ab, bench-programs, same-level
#   trace.mk     the recording drop-in (libmemlane-trace.so)
#   test.mk      make test (the suite and its extra parts), sanitize, memcheck,
#                test-lto, cross-test
#   check-ct.mk  the constant-time proofs (make check-ct and its matrix)
#   fuzz.mk      make fuzz, fuzz-ifunc, fuzz-selftest; the corpus replay
#   lint.mk      make lint, format, format-check
#   docs.mk      README's commands and the docs' links, as tests

CC      ?= cc
BUILD   ?= build
CFLAGS  ?= -O2 -g
WERROR  ?=

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-align=strict -Wvla
IS_CLANG := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | grep -c __clang__)
ifeq ($(IS_CLANG),1)
  WARN := $(filter-out -Wcast-align=strict,$(WARN)) -Wcast-align
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

# Flags of everything compiled here: the library, tests, benchmark.
BASE_CFLAGS := -std=gnu11 $(WARN) -Iinclude -Isrc
# Header dependencies: the compiler writes each object's .d file (-MMD),
# with an empty rule per header (-MP) so that a removed header is no error.
DEPFLAGS := -MMD -MP
OBJCOPY  ?= objcopy
SUBMAKE  := $(MAKE) --no-print-directory

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

.PHONY: all test test-extra clean version
all:

clean:
	rm -rf $(BUILD)

version:
	@echo $(VERSION)

# Order matters: a file may name, in its prerequisites, variables of the
# files before it.
include mk/library.mk mk/install.mk mk/bench.mk mk/trace.mk mk/test.mk \
        mk/check-ct.mk mk/fuzz.mk mk/lint.mk mk/docs.mk

# The header dependencies the compiler wrote (DEPFLAGS).
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
