/* SPDX-License-Identifier: BSD-2-Clause */
/* Test harness: guarded buffers, the list of implementations to test,
 * and failure reporting. */
#ifndef MEMLANE_TEST_HARNESS_H
#define MEMLANE_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A mapping with PROT_NONE pages at both ends; [lo, hi) is usable. */
struct guarded {
    unsigned char *lo, *hi;
    void *map;
    size_t map_len;
};
int guarded_init(struct guarded *g, size_t usable);
void guarded_free(struct guarded *g);
/* n bytes flush against the trailing guard page / the leading one. */
static inline unsigned char *at_end(const struct guarded *g, size_t n)
{
    return g->hi - n;
}
static inline unsigned char *at_start(const struct guarded *g) { return g->lo; }

/* One implementation under test: a variant, or the public entry point. */
struct impl {
    const char *function;
    const char *variant; /* variant name, or "dispatch" */
    enum ml_kind kind;
    union {
        ml_set_fn set;
        ml_cmp_fn cmp;
    } fn;
};
/* Every implementation that can run on this CPU. */
size_t impls_all(struct impl *out, size_t max);

/* Counting: a case is one (suite, implementation); it fails if any of its
 * checks fails.  fail() prints one line naming everything needed to
 * reproduce, at most a few per case. */
void case_begin(const char *suite, const struct impl *im);
void case_end(void);
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int case_failed(void);
/* The call in progress, for the report if it faults on a guard page. */
extern size_t cur_n, cur_align_a, cur_align_b;
void install_fault_handler(void);
extern unsigned long cases_passed, cases_failed;

/* Deterministic PRNG (xorshift64*). */
uint64_t rnd(void);
void rnd_fill(unsigned char *p, size_t n);

/* Reference results computed byte by byte. */
int ref_memcmp(const unsigned char *a, const unsigned char *b, size_t n);
/* What impl must return when the true memcmp result is r; 1 if got is right. */
int cmp_result_ok(const char *function, int got, int r);

/* The suites. */
void suite_set(const struct impl *im);
void suite_cmp(const struct impl *im);
void suite_arch(const char *self);
int arch_probe(void);

/* Buffers shared by the suites (allocated once). */
#define BIG_MAX ((size_t)8 << 20)
extern struct guarded g_a, g_b;
extern int g_long; /* --long: wider sweeps */

#endif
