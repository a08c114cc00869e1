/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The timed loop, in one copy per implementation.
 *
 * Each implementation has its own 64-byte-aligned copy of the loop, so
 * every indirect call site sees one callee, and the calls run in
 * stretches by a function whose live values fit in callee-saved
 * registers (the callee is not reloaded from the stack each call): a
 * shared loop read slower at small sizes (docs/benchmarking.md, "How it
 * measures").  What this does not remove, a variant reading slower after
 * another implementation in the same process, is what --isolate is for
 * (docs/benchmarking.md, "Small sizes depend on the process state").
 */
#include "bench.h"

struct batch_args {
    void *fn;
    int is_set;
    unsigned char *a_base, *b_base;
    const struct bench_call *call;
    size_t count;
    unsigned long k;
    size_t cursor; /* in: first call; out: the next one */
    uintptr_t acc; /* out: results, folded */
};

typedef uintptr_t (*set_stretch_fn)(ml_set_fn, unsigned char *, const struct bench_call *,
                                    const struct bench_call *);
typedef uintptr_t (*cmp_stretch_fn)(ml_cmp_fn, unsigned char *, unsigned char *,
                                    const struct bench_call *, const struct bench_call *);

/* The list is walked in contiguous stretches, each by a function of its
 * own whose only live values (callee, bases, call pointer, end, sum) fit
 * in callee-saved registers: the callee is never reloaded from the stack
 * and there is no wrap-around test per call. */
static inline __attribute__((always_inline)) uint64_t
batch_body(struct batch_args *b, set_stretch_fn set_stretch, cmp_stretch_fn cmp_stretch,
           cmp_stretch_fn cmp_branch_stretch)
{
    const int caller_branches = ctx.opt.caller_branches;
    const struct bench_call *const first = b->call, *const last = first + b->count;
    const struct bench_call *p = first + b->cursor;
    unsigned long left = b->k;
    uintptr_t acc = 0;
    uint64_t t0, t1;
    /* A volatile read: the compiler cannot know the callee. */
    void *volatile vfn = b->fn;
    void *fn = vfn;

    t0 = tsc_start();
    while (left) {
        size_t room = (size_t)(last - p);
        const struct bench_call *stop = p + (left < room ? left : room);
        left -= (unsigned long)(stop - p);
        if (b->is_set)
            acc += set_stretch((ml_set_fn)fn, b->a_base, p, stop);
        else if (caller_branches)
            acc += cmp_branch_stretch((ml_cmp_fn)fn, b->a_base, b->b_base, p, stop);
        else
            acc += cmp_stretch((ml_cmp_fn)fn, b->a_base, b->b_base, p, stop);
        p = stop == last ? first : stop;
    }
    t1 = tsc_stop();
    b->cursor = (size_t)(p - first);
    b->acc = acc;
    return t1 - t0;
}

#define BATCH_COPY(n) \
    static __attribute__((noinline, aligned(64))) \
    uintptr_t set_##n(ml_set_fn fn, unsigned char *ba, const struct bench_call *p, \
                      const struct bench_call *stop) \
    { \
        uintptr_t acc = 0; \
        for (; p != stop; p++) \
            acc += (uintptr_t)fn(ba + p->off, 0, p->len); \
        return acc; \
    } \
    static __attribute__((noinline, aligned(64))) \
    uintptr_t cmp_##n(ml_cmp_fn fn, unsigned char *ba, unsigned char *bb, \
                      const struct bench_call *p, const struct bench_call *stop) \
    { \
        uintptr_t acc = 0; \
        for (; p != stop; p++) \
            acc += (uintptr_t)fn(ba + p->off, bb + p->off, p->len); \
        return acc; \
    } \
    /* --caller=branch: a branch on each result, as `if (memcmp(...))` \
     * makes; the volatile asm keeps it from becoming a conditional move. */ \
    static __attribute__((noinline, aligned(64))) \
    uintptr_t cmpbr_##n(ml_cmp_fn fn, unsigned char *ba, unsigned char *bb, \
                        const struct bench_call *p, const struct bench_call *stop) \
    { \
        uintptr_t acc = 0; \
        for (; p != stop; p++) \
            if (fn(ba + p->off, bb + p->off, p->len) != 0) { \
                __asm__ volatile("" : "+r"(acc)); \
                acc++; \
            } \
        return acc; \
    } \
    static __attribute__((noinline, aligned(64))) \
    uint64_t batch_##n(struct batch_args *b) \
    { \
        return batch_body(b, set_##n, cmp_##n, cmpbr_##n); \
    }
#define BATCH_NAME(n) batch_##n,
#define TEN(M, d) \
    M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)
/* clang-format alternates between two layouts of this macro */
// clang-format off
#define COPIES(M) \
    TEN(M, ) TEN(M, 1) TEN(M, 2) TEN(M, 3) TEN(M, 4) TEN(M, 5) TEN(M, 6) \
    TEN(M, 7) TEN(M, 8) TEN(M, 9) TEN(M, 10) TEN(M, 11)
// clang-format on

COPIES(BATCH_COPY)

static uint64_t (*const batch_copies[])(struct batch_args *) = {COPIES(BATCH_NAME)};

_Static_assert(sizeof batch_copies / sizeof batch_copies[0] >= BATCH_SITES,
               "one loop copy per implementation");

uint64_t batch_run(unsigned site, void *fn, int is_set, unsigned char *a_base,
                   unsigned char *b_base, const struct bench_call *call, size_t count,
                   unsigned long k, size_t *cursor, uintptr_t *acc)
{
    struct batch_args b = {fn, is_set, a_base, b_base, call, count, k, *cursor, 0};
    uint64_t t = batch_copies[site % BATCH_SITES](&b);
    *cursor = b.cursor;
    *acc = b.acc;
    return t;
}
