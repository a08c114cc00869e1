/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared parts of the constant-time checks (tests/ct/): the list of
 * functions to check, taken from the variant table (ml_functions()), the
 * deliberately leaky controls, the input pairs, and a PRNG.
 */
#ifndef MEMLANE_CT_CHECK_H
#define MEMLANE_CT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One function under check: a timingsafe variant or a leaky control. */
struct ct_target {
    const char *function; /* "timingsafe_bcmp", ..., or "control" */
    const char *variant;  /* variant name, or the control's name */
    ml_cmp_fn fn;
    int runnable; /* its level is supported here */
    int control;  /* 1: a leaky control that must be flagged */
};

/* Every timingsafe variant in the table (runnable or not), in table
 * order, then the leaky controls.  CT_VARIANTS=generic,sse2 in the
 * environment keeps only the named variants (controls always stay). */
size_t ct_targets(struct ct_target *out, size_t max);

/* The deliberately leaky functions (tests/ct/leaky.c, not the library). */
int ct_leaky_early_exit(const void *a, const void *b, size_t n);
int ct_leaky_tzcnt(const void *a, const void *b, size_t n);
int ct_leaky_libcall(const void *a, const void *b, size_t n);
int ct_leaky_tailjump(const void *a, const void *b, size_t n);

/* Input pairs of one length: b is a copy of a with the given change. */
enum ct_pair {
    CT_EQUAL,      /* random bytes, b == a */
    CT_FIRST_UP,   /* b[0] > a[0] */
    CT_FIRST_DOWN, /* b[0] < a[0] */
    CT_LAST_UP,    /* b[n-1] > a[n-1] */
    CT_LAST_DOWN,
    CT_RANDOM_POS, /* one byte at a random position, random sign */
    CT_RANDOM_POS2,
    CT_MANY,      /* every byte differs (independent random b) */
    CT_ZERO_FF,   /* a all 0x00, b all 0xff */
    CT_FF_ZERO,   /* a all 0xff, b all 0x00 */
    CT_ZERO_ZERO, /* both all 0x00 */
    CT_NPAIRS
};
extern const char *const ct_pair_name[CT_NPAIRS];
/* Fill a[0..n), b[0..n) for pair kind k. */
void ct_make_pair(enum ct_pair k, unsigned char *a, unsigned char *b, size_t n);

/* Deterministic PRNG (xorshift64*). */
uint64_t ct_rnd(void);
void ct_rnd_seed(uint64_t s);

/* Counting for the closing "N passed, N failed" line. */
extern unsigned long ct_passed, ct_failed;

#endif
