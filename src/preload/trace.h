/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The recorder of libmemlane-trace.so (src/preload/trace.c): under
 * MEMLANE_TRACE=FILE, the drop-in's entry points count the sizes,
 * alignments and (memcmp, bcmp) first differences of every call in
 * per-thread counters, and each process writes them to FILE.<pid> when it
 * exits.  The format is docs/workloads.md's "memlane-profile 1"; the
 * constants below are shared with its reader (bench/profile.c).
 *
 * The hooks are inline and run in the caller's thread: no lock, no
 * allocation, no call to a function the drop-in exports.
 */
#ifndef MEMLANE_TRACE_H
#define MEMLANE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define ML_TRACE_FORMAT "memlane-profile"
#define ML_TRACE_VERSION 1

enum {
    ML_TRACE_EXACT = 4096, /* sizes 0..4096 counted one by one */
    ML_TRACE_POW2 = 64,    /* above: [2^k, 2^(k+1)) for k = 12..63 */
    ML_TRACE_ALIGN = 64,   /* addresses modulo 64 */
    ML_TRACE_CLASSES = 49, /* comparisons: n and the first difference by
                              bit length, 0..48 (48: 2^47 and up) */
    ML_TRACE_REL = 16,     /* first difference in sixteenths of n */
    ML_TRACE_SCAN = 256,   /* the first difference is searched for in
                              every call up to this offset ... */
    ML_TRACE_SAMPLE = 32   /* ... and beyond it in one call of this many */
};

/* The functions recorded: explicit_bzero counts as memset_explicit,
 * __memset_chk as memset. */
enum ml_trace_fn {
    MLT_MEMSET,
    MLT_MEMSET_EXPLICIT,
    MLT_MEMCMP,
    MLT_BCMP,
    MLT_TS_BCMP,
    MLT_TS_MEMCMP,
    MLT_COUNT
};
/* Those whose data is recorded (equal or not, first difference): memcmp
 * and bcmp, in this order.  Never the timing-safe ones: a search for
 * the first difference would make their time depend on the data. */
enum { MLT_DATA_COUNT = 2 };

struct ml_trace_fn_counts {
    uint64_t bytes;
    uint64_t exact[ML_TRACE_EXACT + 1];
    uint64_t pow2[ML_TRACE_POW2];
    uint64_t align_a[ML_TRACE_ALIGN], align_b[ML_TRACE_ALIGN];
    uint64_t delta[ML_TRACE_ALIGN]; /* (b - a) mod 64 */
};

struct ml_trace_data_counts {
    /* by the size class of n */
    uint64_t equal[ML_TRACE_CLASSES], differ[ML_TRACE_CLASSES];
    uint64_t unsampled[ML_TRACE_CLASSES];            /* differ beyond ML_TRACE_SCAN,
                                                        not searched */
    uint64_t at[ML_TRACE_CLASSES][ML_TRACE_CLASSES]; /* [n][offset] */
    uint64_t rel[ML_TRACE_CLASSES][ML_TRACE_REL];
};

/* One thread's counters; page-aligned, so that they can be dropped with
 * madvise (after fork) and only the pages a thread touches use memory. */
struct ml_trace_counters {
    struct ml_trace_fn_counts fn[MLT_COUNT];
    struct ml_trace_data_counts data[MLT_DATA_COUNT];
    uint64_t sample_tick; /* mismatches beyond ML_TRACE_SCAN seen */
};

/* What a profile says beside the counts. */
struct ml_profile_meta {
    const char *program; /* written with spaces and control characters as '?' */
    uint64_t pid;        /* 0: merged from several processes */
    uint64_t processes, threads;
};
/* "memset", "memset_explicit", "memcmp", ... by enum ml_trace_fn. */
ML_HIDDEN extern const char *const ml_trace_fn_names[MLT_COUNT];
/* Writes the profile to fd (src/preload/profile-write.c); 0 or an errno
 * value.  Not reentrant. */
ML_HIDDEN int ml_profile_write(int fd, const struct ml_trace_counters *t,
                               const struct ml_profile_meta *m);

/* Bit length of n, at most ML_TRACE_CLASSES - 1. */
static inline unsigned ml_trace_class(size_t n)
{
    unsigned k = n ? 64 - (unsigned)__builtin_clzll((unsigned long long)n) : 0;
    return k < ML_TRACE_CLASSES ? k : ML_TRACE_CLASSES - 1;
}

/* The calling thread's counters: NULL when recording is off, or the
 * thread cannot get any (then the call is not counted). */
ML_HIDDEN extern __thread struct ml_trace_counters *ml_trace_mine
    __attribute__((tls_model("initial-exec")));
ML_HIDDEN struct ml_trace_counters *ml_trace_counters_slow(void);
/* 1 once recording is known to be off: the hooks then cost a load. */
ML_HIDDEN extern int ml_trace_off;

/* A counter of this thread's own: a plain increment, written so that the
 * exit-time reader in another thread is no data race. */
#define ML_TRACE_ADD(x, v) \
    __atomic_store_n(&(x), __atomic_load_n(&(x), __ATOMIC_RELAXED) + (v), \
                     __ATOMIC_RELAXED)

#define ML_TRACE_INLINE static inline __attribute__((always_inline))

/* The calling thread's counters, NULL when not recording: one TLS load
 * and, until the thread's first call (or when recording is off), one
 * load of ml_trace_off. */
ML_TRACE_INLINE struct ml_trace_counters *ml_trace_get(void)
{
    struct ml_trace_counters *t = ml_trace_mine;
    if (__builtin_expect(t == NULL, 0) &&
        !__atomic_load_n(&ml_trace_off, __ATOMIC_RELAXED))
        t = ml_trace_counters_slow();
    return t;
}

ML_TRACE_INLINE void ml_trace_size(struct ml_trace_fn_counts *c, size_t n)
{
    ML_TRACE_ADD(c->bytes, n);
    if (n <= ML_TRACE_EXACT)
        ML_TRACE_ADD(c->exact[n], 1);
    else
        ML_TRACE_ADD(c->pow2[63 - __builtin_clzll((unsigned long long)n)], 1);
}

/* memset, memset_explicit: the size and the destination's alignment. */
ML_TRACE_INLINE void ml_trace_set(struct ml_trace_counters *t, enum ml_trace_fn f,
                                  const void *dst, size_t n)
{
    struct ml_trace_fn_counts *c = &t->fn[f];
    ml_trace_size(c, n);
    ML_TRACE_ADD(c->align_a[(uintptr_t)dst % ML_TRACE_ALIGN], 1);
}

/* Comparisons: the size and both alignments. */
ML_TRACE_INLINE void ml_trace_pair(struct ml_trace_counters *t, enum ml_trace_fn f,
                                   const void *a, const void *b, size_t n)
{
    struct ml_trace_fn_counts *c = &t->fn[f];
    ml_trace_size(c, n);
    uintptr_t aa = (uintptr_t)a % ML_TRACE_ALIGN, ab = (uintptr_t)b % ML_TRACE_ALIGN;
    ML_TRACE_ADD(c->align_a[aa], 1);
    ML_TRACE_ADD(c->align_b[ab], 1);
    ML_TRACE_ADD(c->delta[(ab - aa) % ML_TRACE_ALIGN], 1);
}

/* memcmp and bcmp, counted (src/preload/trace.c): the size, the
 * addresses, whether the inputs were equal and if not where they first
 * differ. */
ML_HIDDEN int ml_trace_memcmp(struct ml_trace_counters *t, const void *a, const void *b,
                              size_t n);
ML_HIDDEN int ml_trace_bcmp(struct ml_trace_counters *t, const void *a, const void *b,
                            size_t n);

#endif /* MEMLANE_TRACE_H */
