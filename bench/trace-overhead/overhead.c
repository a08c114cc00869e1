/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What recording costs: TSC cycles per call of memset, memcmp and bcmp
 * called through their standard names, as a program calls them; run by
 * bench/trace-overhead/run.sh under the drop-in, under
 * libmemlane-trace.so with recording off and with it on, and the
 * differences are the recorder's cost.  Each case is a loop of CALLS
 * calls on the same buffers, timed ROUNDS times; the median is printed.
 * Built with -fno-builtin: every call is a call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "timer.h"

enum { CALLS = 200000, ROUNDS = 15 };

static void *(*volatile set)(void *, int, size_t) = memset;
static int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
static int (*volatile eq)(const void *, const void *, size_t) = bcmp;

static unsigned char a[8192] __attribute__((aligned(64)));
static unsigned char b[8192] __attribute__((aligned(64)));
static volatile unsigned long sink;

static int by_value(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

/* kind: 0 memset, 1 memcmp, 2 bcmp; n bytes; inputs differ at `at`
 * (-1: equal). */
static double cycles(int kind, size_t n, long at)
{
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = b[i] = (unsigned char)(i * 13 + 5);
    if (at >= 0)
        b[at] ^= 1;
    double r[ROUNDS];
    for (int k = 0; k < ROUNDS; k++) {
        unsigned long acc = 0;
        uint64_t t0 = tsc_start();
        for (int i = 0; i < CALLS; i++) {
            if (kind == 0)
                acc += (unsigned long)set(a, 0, n);
            else if (kind == 1)
                acc += (unsigned long)cmp(a, b, n);
            else
                acc += (unsigned long)eq(a, b, n);
        }
        uint64_t t1 = tsc_stop();
        sink += acc;
        r[k] = (double)(t1 - t0) / CALLS;
    }
    qsort(r, ROUNDS, sizeof r[0], by_value);
    return r[ROUNDS / 2];
}

int main(void)
{
    static const struct {
        const char *name;
        int kind;
        size_t n;
        long at;
    } cases[] = {
        {"memset-16", 0, 16, -1},         {"memset-256", 0, 256, -1},
        {"memset-4096", 0, 4096, -1},     {"memcmp-32-equal", 1, 32, -1},
        {"memcmp-32-differ@5", 1, 32, 5}, {"memcmp-1000-differ@900", 1, 1000, 900},
        {"bcmp-16-equal", 2, 16, -1},     {"bcmp-256-differ@200", 2, 256, 200},
    };
    cycles(0, 4096, -1); /* leave the idle clock */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        printf("%s %.2f\n", cases[i].name,
               cycles(cases[i].kind, cases[i].n, cases[i].at));
    return 0;
}
