/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Start-up under the drop-in on musl (tests/install/run.sh), which runs
 * no .preinit_array (early.c's way on glibc): a library preloaded ahead
 * of the drop-in, LD_PRELOAD="libearly.so libmemlane-preload.so".  musl
 * runs the preloaded libraries' constructors first, in that order, so
 * this one calls memset, memcmp, bcmp and explicit_bzero before the
 * drop-in's constructor has run.  Between the two marker lines on stderr
 * comes the drop-in's warning about a bad MEMLANE_ARCH, which only the
 * first call can print there.  Then the report (early_calls.h).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "early_calls.h"

static void say(const char *s)
{
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

__attribute__((constructor)) static void early(void)
{
    say("memlane-early: calls start\n");
    early_make_calls();
    say("memlane-early: calls done\n");
    early_report();
}
