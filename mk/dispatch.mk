# SPDX-License-Identifier: BSD-2-Clause
# Dispatch: the IFUNC resolvers in executables linked statically.  There
# they run before libc has set up thread-local storage, so the library is
# rebuilt with every function stack-protected (as hardened distribution
# builds do; the canary lives in TLS) and the MEMLANE_ARCH tests run in
# static and static-pie executables: every public symbol must be bound to
# the variant memlane_active names (tests/test_arch.c).
DISPATCH_SSP_BUILD := $(BUILD)/ssp
DISPATCH_STATIC := $(BUILD)/memlane-test-static $(BUILD)/memlane-test-static-pie

# The inner make decides what to rebuild (it knows every dependency).
.PHONY: $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
$(DISPATCH_SSP_BUILD)/libmemlane-internal.a:
	$(MAKE) --no-print-directory BUILD=$(DISPATCH_SSP_BUILD) \
	    CFLAGS="$(CFLAGS) -fstack-protector-all" $@

$(BUILD)/memlane-test-static: $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -static $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a -o $@
$(BUILD)/memlane-test-static-pie: $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -static-pie $(TEST_SRCS) $(DISPATCH_SSP_BUILD)/libmemlane-internal.a -o $@

test-extra:: $(DISPATCH_STATIC)
	$(BUILD)/memlane-test-static arch
	$(BUILD)/memlane-test-static-pie arch
