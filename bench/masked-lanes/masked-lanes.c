/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * masked-lanes: what AVX-512/AVX2 masked loads and stores cost when
 * their masked-off lanes lie on a page that is not present or not
 * writable.  Masked-off lanes are never accessed and never fault, but a
 * CPU may still look the page up and take a microcode assist, glibc's
 * evex code included (the results: docs/benchmarking.md, "Masked lanes
 * at page edges").  Two tables, TSC ticks per call (best of 20 batches of 1000
 * calls; pin with taskset for steady numbers), libc next to memlane:
 *
 *   1. n == 0 with the pointers on: a written page; a page mapped but
 *      never touched; the shared zero page (read, never written); a
 *      read-only page; a PROT_NONE page; NULL.  A zero-length call
 *      touches no byte, so programs pass any pointer (memset(NULL, 0, 0)).
 *   2. n = 1..200 with both buffers ending at a page end, the next page
 *      PROT_NONE (a buffer at the end of a mapping), and in () the same
 *      with the next page mapped and written.
 *
 *   masked-lanes        (make masked-lanes)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "memlane.h"
#include "timer.h"

typedef void *(*set_fn)(void *, int, size_t);
typedef int (*cmp_fn)(const void *, const void *, size_t);

enum { CALLS = 1000, BATCHES = 20, KINDS = 6, PAGE = 4096 };
static const char *const kind_names[KINDS] = {"written",   "untouched", "zero-page",
                                              "read-only", "PROT_NONE", "NULL"};

/* The best of BATCHES batches of CALLS evaluations of `call`, in TSC
 * ticks per call, between memlane-bench's ordered reads (bench/timer.h). */
#define TICKS_PER_CALL(call) \
    ({ \
        double best_ = 1e30; \
        for (int r_ = 0; r_ < BATCHES; r_++) { \
            uint64_t t0_ = tsc_start(); \
            for (int i_ = 0; i_ < CALLS; i_++) \
                call; \
            double t_ = (double)(tsc_stop() - t0_) / CALLS; \
            best_ = t_ < best_ ? t_ : best_; \
        } \
        best_; \
    })

static __attribute__((noinline)) double time_set(set_fn f, unsigned char *p, size_t n)
{
    set_fn volatile vf = f; /* called, never inlined */
    f = vf;
    return TICKS_PER_CALL(f(p, 0, n));
}

static __attribute__((noinline)) double time_cmp(cmp_fn f, unsigned char *p,
                                                 unsigned char *q, size_t n)
{
    cmp_fn volatile vf = f;
    f = vf;
    return TICKS_PER_CALL(f(p, q, n));
}

static void *memset_explicit_as_set(void *p, int c, size_t n)
{
    return memlane_memset_explicit(p, c, n);
}

/* `count` pages: the first `written` of them written; then the ones
 * from `protect_from` on set to `prot`; the page after the written ones
 * read once if `read_next` (it then maps the shared zero page). */
static unsigned char *pages(int count, int written, int protect_from, int prot,
                            int read_next)
{
    unsigned char *p = mmap(NULL, (size_t)count * PAGE, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    for (int i = 0; i < written; i++)
        memset(p + (size_t)i * PAGE, 7, PAGE);
    if (read_next)
        (void)*(volatile unsigned char *)(p + (size_t)written * PAGE);
    if (protect_from < count && mprotect(p + (size_t)protect_from * PAGE,
                                         (size_t)(count - protect_from) * PAGE, prot)) {
        perror("mprotect");
        exit(1);
    }
    return p;
}

static const struct {
    const char *name;
    set_fn set;
    cmp_fn cmp;
} fns[] = {
    {"libc memset", memset, NULL},
    {"memlane_memset", memlane_memset, NULL},
    {"memlane_memset_explicit", memset_explicit_as_set, NULL},
    {"libc memcmp", NULL, memcmp},
    {"memlane_memcmp", NULL, memlane_memcmp},
    {"libc bcmp", NULL, bcmp},
    {"memlane_bcmp", NULL, memlane_bcmp},
    {"memlane_timingsafe_bcmp", NULL, memlane_timingsafe_bcmp},
    {"memlane_timingsafe_memcmp", NULL, memlane_timingsafe_memcmp},
};
enum { NFNS = sizeof fns / sizeof fns[0] };

static double time_fn(size_t i, unsigned char *p, unsigned char *q, size_t n)
{
    return fns[i].set ? time_set(fns[i].set, p, n) : time_cmp(fns[i].cmp, p, q, n);
}

static void zero_length(void)
{
    /* 256 bytes into each page, away from both ends; each kind has its
     * own page for the second operand, 64 bytes on */
    unsigned char *at[KINDS] = {
        pages(1, 1, 1, 0, 0) + 256,         /* written */
        pages(1, 0, 1, 0, 0) + 256,         /* untouched */
        pages(1, 0, 1, 0, 1) + 256,         /* zero page */
        pages(1, 1, 0, PROT_READ, 0) + 256, /* written, then read-only */
        pages(1, 0, 0, PROT_NONE, 0) + 256, /* PROT_NONE */
        NULL,
    };
    printf("1. n = 0, by the page behind the pointers\n%-26s", "pointer on:");
    for (int k = 0; k < KINDS; k++)
        printf(" %10s", kind_names[k]);
    printf("\n");
    for (size_t i = 0; i < NFNS; i++) {
        printf("%-26s", fns[i].name);
        /* memset on a read-only or PROT_NONE page is a valid call at
         * n == 0: every kind applies to every function */
        for (int k = 0; k < KINDS; k++)
            printf(" %10.1f", time_fn(i, at[k], at[k] ? at[k] + 64 : NULL, 0));
        printf("\n");
    }
}

static void page_end(void)
{
    static const size_t sizes[] = {1, 8, 16, 31, 32, 33, 48, 63, 64, 65, 128, 200};
    enum { NSIZES = sizeof sizes / sizeof sizes[0] };
    /* a written page, then PROT_NONE; and a written page, then another */
    unsigned char *none_a = pages(2, 1, 1, PROT_NONE, 0);
    unsigned char *none_b = pages(2, 1, 1, PROT_NONE, 0);
    unsigned char *rw_a = pages(2, 2, 2, 0, 0), *rw_b = pages(2, 2, 2, 0, 0);

    printf("\n2. both buffers end at a page end, the next page PROT_NONE "
           "(in (): mapped and written)\n%-26s",
           "n:");
    for (size_t s = 0; s < NSIZES; s++)
        printf(" %13zu", sizes[s]);
    printf("\n");
    for (size_t i = 0; i < NFNS; i++) {
        printf("%-26s", fns[i].name);
        for (size_t s = 0; s < NSIZES; s++) {
            size_t n = sizes[s];
            printf(" %5.0f (%5.1f)", time_fn(i, none_a + PAGE - n, none_b + PAGE - n, n),
                   time_fn(i, rw_a + PAGE - n, rw_b + PAGE - n, n));
        }
        printf("\n");
    }
}

int main(void)
{
    printf(
        "masked-lanes: TSC ticks per call (best of %d x %d calls); memlane level: %s\n\n",
        BATCHES, CALLS, memlane_active("memset"));
    zero_length();
    page_end();
    return 0;
}
