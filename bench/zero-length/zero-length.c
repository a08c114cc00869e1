/*
 * zero-length: what a call with n == 0 costs, by the page behind the
 * pointer.  Such a call touches no byte, so any pointer is valid to it
 * in practice (memset(NULL, 0, 0) is common), but an AVX-512 masked
 * load or store with an empty mask still looks the page up: on Zen 4 a
 * page that is not present or not writable costs a microcode assist of
 * hundreds of cycles per instruction, glibc's evex code included.
 *
 *   zero-length [memlane-library]   (default: the one it was linked with)
 *
 * Prints TSC ticks per call (best of 20 batches of 1000 calls; pin it
 * with taskset for steady numbers) for libc and memlane, n = 0, with the
 * pointers on: a written page; a page mapped but never touched; the
 * shared zero page (read, never written); a read-only page; a PROT_NONE
 * page; NULL.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <x86intrin.h>

#include "memlane.h"

typedef void *(*set_fn)(void *, int, size_t);
typedef int (*cmp_fn)(const void *, const void *, size_t);

enum { CALLS = 1000, BATCHES = 20, KINDS = 6 };
static const char *const kind_names[KINDS] = {"written",   "untouched", "zero-page",
                                              "read-only", "PROT_NONE", "NULL"};

/* The best of BATCHES batches of CALLS evaluations of `call`, in TSC
 * ticks per call, between lfence;rdtsc and rdtscp;lfence. */
#define TICKS_PER_CALL(call) \
    ({ \
        double best_ = 1e30; \
        for (int r_ = 0; r_ < BATCHES; r_++) { \
            unsigned aux_; \
            _mm_lfence(); \
            unsigned long t0_ = __rdtsc(); \
            _mm_lfence(); \
            for (int i_ = 0; i_ < CALLS; i_++) \
                call; \
            unsigned long t1_ = __rdtscp(&aux_); \
            _mm_lfence(); \
            double t_ = (double)(t1_ - t0_) / CALLS; \
            best_ = t_ < best_ ? t_ : best_; \
        } \
        best_; \
    })

static __attribute__((noinline)) double time_set(set_fn f, unsigned char *p)
{
    set_fn volatile vf = f; /* called, never inlined */
    f = vf;
    return TICKS_PER_CALL(f(p, 0, 0));
}

static __attribute__((noinline)) double time_cmp(cmp_fn f, unsigned char *p)
{
    cmp_fn volatile vf = f;
    f = vf;
    /* both operands on the same kind of page, 64 bytes apart */
    unsigned char *q = p ? p + 64 : NULL;
    return TICKS_PER_CALL(f(p, q, 0));
}

static void *memset_explicit_as_set(void *p, int c, size_t n)
{
    return memlane_memset_explicit(p, c, n);
}

static unsigned char *page(int prot, int touch)
{
    unsigned char *p =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    if (touch == 1)
        p[0] = 1;
    else if (touch == 2)
        (void)*(volatile unsigned char *)p;
    if (mprotect(p, 4096, prot)) {
        perror("mprotect");
        exit(1);
    }
    return p;
}

int main(void)
{
    /* 256 bytes into each page, away from both ends */
    unsigned char *at[KINDS] = {
        page(PROT_READ | PROT_WRITE, 1) + 256,
        page(PROT_READ | PROT_WRITE, 0) + 256,
        page(PROT_READ | PROT_WRITE, 2) + 256,
        page(PROT_READ, 1) + 256,
        page(PROT_NONE, 0) + 256,
        NULL,
    };
    struct {
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

    printf("n = 0, TSC ticks per call (best of %d x %d calls); memlane level: %s\n",
           BATCHES, CALLS, memlane_active("memset"));
    printf("%-26s", "pointer on:");
    for (int k = 0; k < KINDS; k++)
        printf(" %10s", kind_names[k]);
    printf("\n");
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        printf("%-26s", fns[i].name);
        for (int k = 0; k < KINDS; k++) {
            /* memset on a read-only or PROT_NONE page is still a valid
             * call at n == 0; every kind applies to every function. */
            double t =
                fns[i].set ? time_set(fns[i].set, at[k]) : time_cmp(fns[i].cmp, at[k]);
            printf(" %10.1f", t);
        }
        printf("\n");
    }
    return 0;
}
