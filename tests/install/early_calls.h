/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The calls that tests/install/early.c (glibc: .preinit_array) and
 * early_lib.c (musl: a preloaded library's constructor) make before the
 * drop-in's constructor has run, and the report on them: whether the
 * results are right, and the file each of the seven standard names
 * resolves to.  Both are built with -fno-builtin so that every call is a
 * real call.
 */
#ifndef MEMLANE_EARLY_CALLS_H
#define MEMLANE_EARLY_CALLS_H

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static unsigned char early_buf[100], early_zeroed[40];
static int early_lt, early_eq, early_ne;
static void *early_set_ret;

static void early_make_calls(void)
{
    static const unsigned char x[3] = {1, 2, 3}, y[3] = {1, 2, 9};
    early_set_ret = memset(early_buf, 0xa5, sizeof early_buf);
    early_lt = memcmp(x, y, 3);
    early_eq = memcmp(x, y, 2);
    early_ne = bcmp(x, y, 3);
    for (size_t i = 0; i < sizeof early_zeroed; i++)
        early_zeroed[i] = (unsigned char)(i + 1);
    explicit_bzero(early_zeroed, sizeof early_zeroed);
}

/* Prints "NAME from FILE" for each standard name, then "ok" or "FAILED";
 * returns 1 if a result was wrong. */
static int early_report(void)
{
    int bad =
        early_set_ret != early_buf || early_lt >= 0 || early_eq != 0 || early_ne == 0;
    for (size_t i = 0; i < sizeof early_buf; i++)
        bad |= early_buf[i] != 0xa5;
    for (size_t i = 0; i < sizeof early_zeroed; i++)
        bad |= early_zeroed[i] != 0;

    static const char *const names[] = {"memset",
                                        "memcmp",
                                        "bcmp",
                                        "timingsafe_bcmp",
                                        "timingsafe_memcmp",
                                        "explicit_bzero",
                                        "memset_explicit"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Dl_info info;
        void *p = dlsym(RTLD_DEFAULT, names[i]);
        printf("%s from %s\n", names[i],
               p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : "(none)");
    }
    printf("%s\n", bad ? "FAILED" : "ok");
    fflush(stdout);
    return bad;
}

#endif
