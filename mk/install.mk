# SPDX-License-Identifier: BSD-2-Clause
# Install and use: make install / uninstall (memlane.pc, the CMake
# package, man pages), the LD_PRELOAD drop-in, and their tests.
#
#   make install   [PREFIX=/usr/local] [DESTDIR=] [LIBDIR=...] [CMAKEDIR=...] ...
#   make uninstall (same variables: removes exactly the installed files)
#   make preload   $(BUILD)/libmemlane-preload.so
#   make man       $(BUILD)/man/memlane.7 (the synopsis from include/memlane.h
#                  and the variant table filled in)
#   make test-install  (part of make test)

PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/memlane
INSTALL      ?= install

.PHONY: install uninstall preload man test-install

# ---- the LD_PRELOAD drop-in ----
# Linked against the internal archive (PIC objects, internal names still
# global: preload.c jumps through dispatch.c's pointers), so that objects
# other areas add to LIB_OBJS after this file is read come along too.
# On x86-64, bind.c writes the loaded objects' writable PLT slots for
# memset, memcmp and bcmp with the selected variants at load time.
PRELOAD_SO := $(BUILD)/libmemlane-preload.so
PRELOAD_OBJS := $(BUILD)/obj/src/preload/preload.o \
                $(if $(IS_X86_64),$(BUILD)/obj/src/preload/bind.o)
preload: $(PRELOAD_SO)
$(PRELOAD_SO): $(PRELOAD_OBJS) $(LIB_INTERNAL_A) src/preload/preload.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=src/preload/preload.map \
	    -Wl,-z,noexecstack -Wl,--no-undefined \
	    $(PRELOAD_OBJS) $(LIB_INTERNAL_A) -ldl -o $@
all: $(PRELOAD_SO)

# ---- man pages ----
# memlane(7)'s table of functions x levels comes from the variant table as
# the compiler sees it for this target: variants.def run through the
# preprocessor with the library's flags, one "function variant level" line
# per variant.
MAN3_PAGES := $(sort $(wildcard man/memlane_*.3))
$(BUILD)/man/variants.txt: src/functions.def $(wildcard src/*/variants.def)
	@mkdir -p $(dir $@)
	printf '#define ML_VARIANT(f, v, l) ml_row f v l\n#include "functions.def"\n' \
	    | $(CC) $(CFLAGS) $(LIB_CFLAGS) -E -P -x c - \
	    | awk '$$1 == "ml_row" { print $$2, $$3, $$4 }' > $@.tmp
	mv $@.tmp $@

$(BUILD)/man/memlane.7: man/memlane.7.in man/synopsis.awk man/variant-table.awk \
                        include/memlane.h $(BUILD)/man/variants.txt
	awk -f man/synopsis.awk include/memlane.h $< \
	    | awk -f man/variant-table.awk $(BUILD)/man/variants.txt - > $@.tmp
	mv $@.tmp $@

man: $(BUILD)/man/memlane.7
all: $(BUILD)/man/memlane.7

# ---- install / uninstall ----
# The benchmark tool (built by mk/bench.mk, read after this file).
INSTALL_BENCH := $(BUILD)/memlane-bench

# ${prefix}-relative paths in memlane.pc where the directory is under PREFIX.
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

# The CMake package (cmake/*.in): paths relative to the prefix, which
# memlaneConfig.cmake finds from its own location ("../../.." from
# CMAKEDIR) when CMAKEDIR is under PREFIX; absolute paths otherwise.
empty :=
space := $(empty) $(empty)
cmake_rel = $(patsubst $(PREFIX)/%,$${_memlane_prefix}/%,$(1))
CMAKEDIR_TO_PREFIX = $(if $(filter $(PREFIX)/%,$(CMAKEDIR)),$(subst $(space),/,$(foreach d,$(subst /, ,$(CMAKEDIR:$(PREFIX)/%=%)),..)))
SIZEOF_POINTER := $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^.define __SIZEOF_POINTER__ //p')
CMAKE_SED = -e 's|@PREFIX@|$(PREFIX)|' -e 's|@CMAKEDIR_TO_PREFIX@|$(CMAKEDIR_TO_PREFIX)|' \
    -e 's|@LIBDIR@|$(call cmake_rel,$(LIBDIR))|' -e 's|@INCLUDEDIR@|$(call cmake_rel,$(INCLUDEDIR))|' \
    -e 's|@VERSION@|$(VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' \
    -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@SONAME@|$(SONAME)|g' \
    -e 's|@SIZEOF_POINTER@|$(SIZEOF_POINTER)|g'
CMAKE_FILES := memlaneConfig.cmake memlaneConfigVersion.cmake

INSTALL_FILES = $(INCLUDEDIR)/memlane.h \
    $(LIBDIR)/libmemlane.a \
    $(LIBDIR)/libmemlane.so.$(SOVERSION) \
    $(LIBDIR)/$(SONAME) \
    $(LIBDIR)/libmemlane.so \
    $(LIBDIR)/libmemlane-preload.so \
    $(PKGCONFIGDIR)/memlane.pc \
    $(addprefix $(CMAKEDIR)/,$(CMAKE_FILES)) \
    $(MANDIR)/man7/memlane.7 \
    $(addprefix $(MANDIR)/man3/,$(notdir $(MAN3_PAGES))) \
    $(if $(INSTALL_BENCH),$(BINDIR)/memlane-bench $(DATADIR)/memlane/memlane-bench.gp \
        $(MANDIR)/man1/memlane-bench.1)

install: $(BUILD)/libmemlane.a $(BUILD)/libmemlane.so $(PRELOAD_SO) \
         $(BUILD)/man/memlane.7 $(INSTALL_BENCH) memlane.pc.in \
         $(addprefix cmake/,$(addsuffix .in,$(CMAKE_FILES)))
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(VERSION)|' memlane.pc.in > $(BUILD)/memlane.pc
	@mkdir -p $(BUILD)/cmake
	$(foreach f,$(CMAKE_FILES),sed $(CMAKE_SED) cmake/$(f).in > $(BUILD)/cmake/$(f) &&) true
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(MANDIR)/man7 \
	    $(if $(INSTALL_BENCH),$(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/memlane $(DESTDIR)$(MANDIR)/man1)
	$(INSTALL) -m 644 include/memlane.h $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(BUILD)/libmemlane.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(BUILD)/libmemlane.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libmemlane.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libmemlane.so
	$(INSTALL) -m 755 $(PRELOAD_SO) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 $(BUILD)/memlane.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 $(addprefix $(BUILD)/cmake/,$(CMAKE_FILES)) $(DESTDIR)$(CMAKEDIR)/
	$(INSTALL) -m 644 $(BUILD)/man/memlane.7 $(DESTDIR)$(MANDIR)/man7/
	$(INSTALL) -m 644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/
	$(if $(INSTALL_BENCH),$(INSTALL) -m 755 $(INSTALL_BENCH) $(DESTDIR)$(BINDIR)/)
	$(if $(INSTALL_BENCH),$(INSTALL) -m 644 bench/plot.gp $(DESTDIR)$(DATADIR)/memlane/memlane-bench.gp)
	$(if $(INSTALL_BENCH),$(INSTALL) -m 644 man/memlane-bench.1 $(DESTDIR)$(MANDIR)/man1/)

# Files only: the directories are shared with other packages (as with
# automake's uninstall), except memlane's own folders.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALL_FILES))
	rmdir $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(DATADIR)/memlane 2>/dev/null || true

# ---- tests (part of make test) ----
test-install: $(BUILD)/libmemlane.a $(BUILD)/libmemlane.so $(PRELOAD_SO) $(INSTALL_BENCH) \
              $(BUILD)/man/memlane.7
	+@CC="$(CC)" CFLAGS="$(CFLAGS)" BASE_CFLAGS="$(BASE_CFLAGS)" \
	    BUILD="$(BUILD)" MAKE="$(MAKE)" SONAME="$(SONAME)" \
	    SOVERSION="$(SOVERSION)" VERSION="$(VERSION)" INSTALL_BENCH="$(INSTALL_BENCH)" LIBC="$(LIBC)" \
	    sh tests/install/run.sh

test-extra:: test-install
