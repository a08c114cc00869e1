/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tunables: the sizes from which memset uses `rep stosb` and non-temporal
 * stores, and the sizes at which memcmp and bcmp prefetch.  Defaults come
 * from the CPU (vendor, family, ERMS/FSRM/FSRS, cache sizes; see
 * docs/memset.md and docs/memcmp.md); the environment variables
 * MEMLANE_REP_STOSB_THRESHOLD, MEMLANE_NT_THRESHOLD and
 * MEMLANE_CMP_PREFETCH override them.  All are read once, at start-up or
 * on the first call that needs them.
 */
#ifndef MEMLANE_TUNABLES_H
#define MEMLANE_TUNABLES_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define ML_THRESHOLD_OFF SIZE_MAX

/* An AMD LLC larger than the largest L3 one core can use (96 MiB, a
 * 3D V-Cache CCX) is a sum over CCXs; the defaults then assume one
 * 32 MiB CCX (see ml_tunables_defaults). */
#define ML_AMD_CCX_L3_MAX ((size_t)96 << 20)
#define ML_AMD_CCX_L3_ASSUMED ((size_t)32 << 20)

/* The sse2 variant's rep stosb threshold on CPUs with ERMS: above 2 KiB,
 * as glibc's SSE2 code (its rep_stosb_threshold, 2048, is the last size
 * the vector loop takes); measured on Zen 3, Zen 4 and Zen 5:
 * docs/memset.md. */
#define ML_SSE2_REP_STOSB ((size_t)2049)

struct ml_memset_tunables {
    size_t rep_stosb;      /* rep stosb for n >= this (and n < nt) */
    size_t rep_stosb_sse2; /* the same for the sse2 variant: rep stosb beats
                              a 16-byte store loop from smaller sizes */
    size_t nt;             /* non-temporal stores for n >= this */
    size_t special;        /* min(rep_stosb, nt), 0 until initialised: the
                              one compare in the hot path */
    size_t special_sse2;   /* min(rep_stosb_sse2, nt), likewise */
};

/* The compares' prefetch band: memcmp and bcmp (x86-64 variants) of n
 * bytes, lo <= n <= hi, ask for the lines of both buffers 2 KiB ahead of
 * their loop.  Off: lo = ML_THRESHOLD_OFF, hi = 0; until the tunables are
 * read, ML_CMP_PREFETCH_MIN and SIZE_MAX (see ml_cmp_in_band). */
struct ml_cmp_tunables {
    size_t prefetch_lo, prefetch_hi;
};

/* No band starts below this: the variants test n against it before they
 * read the band, so smaller sizes never touch the tunables. */
#define ML_CMP_PREFETCH_MIN ((size_t)256 << 10)

ML_HIDDEN extern struct ml_memset_tunables ml_memset_tun;
ML_HIDDEN extern struct ml_cmp_tunables ml_cmp_tun;
ML_HIDDEN extern int ml_tunables_ready;
ML_HIDDEN void ml_tunables_init(void);

/* The tunables, computed on first use (a large memset may come before any
 * constructor ran).  Every thread computes the same values. */
static inline void ml_tunables_ensure(void)
{
    if (__builtin_expect(!__atomic_load_n(&ml_tunables_ready, __ATOMIC_ACQUIRE), 0))
        ml_tunables_init();
}
static inline const struct ml_memset_tunables *ml_memset_tunables(void)
{
    ml_tunables_ensure();
    return &ml_memset_tun;
}

/* Whether a compare of n >= ML_CMP_PREFETCH_MIN bytes takes its
 * prefetching loop.  No call, so that the variants' hot paths need no
 * saved registers: until the tunables are read the band holds every size
 * from ML_CMP_PREFETCH_MIN on, and the prefetching loop reads them
 * (ml_cmp_prefetches). */
static inline int ml_cmp_in_band(size_t n)
{
    return n >= __atomic_load_n(&ml_cmp_tun.prefetch_lo, __ATOMIC_RELAXED) &&
           n <= __atomic_load_n(&ml_cmp_tun.prefetch_hi, __ATOMIC_RELAXED);
}

/* In a prefetching loop: whether n is in the band, the tunables read. */
static inline int ml_cmp_prefetches(size_t n)
{
    ml_tunables_ensure();
    return ml_cmp_in_band(n);
}

/* Sizes from this one on take the out-of-line path (which initialises the
 * tunables on its first call); the sse2 variant's own below. */
static inline size_t ml_memset_special(void)
{
    return __atomic_load_n(&ml_memset_tun.special, __ATOMIC_RELAXED);
}
static inline size_t ml_memset_special_sse2(void)
{
    return __atomic_load_n(&ml_memset_tun.special_sse2, __ATOMIC_RELAXED);
}

/*
 * Parse a size: decimal digits, optionally followed by one of K, M, G
 * (either case, powers of 1024, an optional trailing 'B' or 'iB'), or the
 * word "off" (any case).  Returns 0 and sets *out (ML_THRESHOLD_OFF for
 * "off"), or -1 for anything else, including overflow and the empty
 * string; *out is then untouched.  Calls no libc function.
 */
ML_HIDDEN int ml_parse_size(const char *s, size_t *out);

/* The same grammar without "off", on the characters [s, end) (the
 * benchmark's size lists): 0 and *out, -1 for no size, -2 for a size
 * beyond size_t. */
ML_HIDDEN int ml_parse_size_span(const char *s, const char *end, size_t *out);

/* Defaults for a CPU description (exposed for tests and the benchmark's
 * --calibrate): vendor flags, ERMS/FSRM/FSRS, the family and the LLC size
 * in bytes (0 if unknown). */
struct ml_tun_cpu {
    unsigned is_intel : 1, is_amd : 1, erms : 1, fsrm : 1, fsrs : 1;
    unsigned family; /* CPUID display family (base + extended), 0 if unknown */
    size_t llc_bytes;
    size_t l2_bytes; /* one core's L2, 0 if unknown */
};
ML_HIDDEN void ml_tunables_defaults(const struct ml_tun_cpu *cpu,
                                    struct ml_memset_tunables *out);
/* The compares' prefetch band for a CPU description. */
ML_HIDDEN void ml_cmp_tunables_defaults(const struct ml_tun_cpu *cpu,
                                        struct ml_cmp_tunables *out);
/* The defaults for the CPU this runs on (no environment applied). */
ML_HIDDEN void ml_tunables_cpu_defaults(struct ml_memset_tunables *out);
ML_HIDDEN void ml_cmp_tunables_cpu_defaults(struct ml_cmp_tunables *out);

/* A band "LO-HI" (two sizes as ml_parse_size takes them, LO <= HI) or
 * "off": 0 and *out set, or -1 and *out untouched. */
ML_HIDDEN int ml_parse_band(const char *s, struct ml_cmp_tunables *out);

#endif /* MEMLANE_TUNABLES_H */
