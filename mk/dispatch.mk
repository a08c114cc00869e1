# SPDX-License-Identifier: BSD-2-Clause
# Dispatch: the IFUNC resolvers in executables linked statically.  There
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
