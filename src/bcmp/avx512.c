/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, AVX-512 (BW): the memcmp ladder without locating the difference:
 * XORs of the vectors ORed together (vpternlog) and one test per group.
 *     0..32    one masked 32-byte compare, the load mask made from n
 *    33..64    one masked 64-byte compare
 *    65..      the first vector alone, right after the size tests that
 *              reach it (inputs that differ early read one line), then
 *    65..128   the vector ending at n
 *   129..256   the second vector, then the two ending at n, one test
 *   257..      two vectors per iteration on p aligned to 64
 *              (four above 1 KiB, read as eight 32-byte vectors from 32
 *              KiB on, except in the prefetch band of tunables.h, where
 *              the lines 2 KiB ahead are asked for), then the two or four
 *              ending at n
 * Only zmm16-31 with gcc (see memcmp/avx512.c and mk/library.mk).
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

/* 129..256 bytes, the first 64 found equal: the second vector, then the
 * two ending at n under one test. */
static inline int differ_first_129_256(const unsigned char *p, const unsigned char *q,
                                       size_t n)
{
    uint64_t m = ml_ne64(p + 64, q + 64);
    if (m)
        return (int)m | 1;
    return !_kortestz_mask64_u8(ml_ne64(p + n - 128, q + n - 128),
                                ml_ne64(p + n - 64, q + n - 64));
}

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 256 bytes a test as above 1 KiB, the lines 2 KiB ahead
 * asked for while ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
bcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 256; i += 256) {
        if (prefetch)
            ml_prefetch256_ahead(p, q, i);
        if (ML_UNLIKELY(ml_differ256(p, q, i)))
            return 1;
    }
    return ml_differ256(p, q, n - 256);
}

/*
 * n > 256, the first 64 bytes found equal: two vectors per iteration on
 * p aligned to 64 (p + i, i = 1..64; only q's loads may split a cache
 * line), four above 1 KiB (as 32-byte loads where both buffers together
 * outgrow L1 but not L2: ml_differ256_by32), then the two or four ending
 * at n, which re-read bytes found equal.
 * Equal inputs fall through every test.
 */
static int bcmp_long(const unsigned char *p, const unsigned char *q, size_t n)
{
    size_t i = 64 - ((uintptr_t)p & 63);
    if (n > 1024) {
        if (n >= ML_CMP_PREFETCH_MIN && ml_cmp_in_band(n))
            return bcmp_prefetching(p, q, n, i);
        if (n >= ML_BY32_MIN) {
            for (; i < n - 256; i += 256)
                if (ML_UNLIKELY(ml_differ256_by32(p, q, i)))
                    return 1;
            return ml_differ256_by32(p, q, n - 256);
        }
        for (; i < n - 256; i += 256)
            if (ML_UNLIKELY(ml_differ256(p, q, i)))
                return 1;
        return ml_differ256(p, q, n - 256);
    }
    do {
        if (ML_UNLIKELY(ml_differ128(p, q, i)))
            return 1;
        i += 128;
    } while (i < n - 128);
    return ml_differ128(p, q, n - 128);
}

/* Aligned to 2048 (the code, helpers included, is under 2 KiB), so that
 * the hot path never straddles a 4 KiB page boundary (see memcmp/avx512.c). */
__attribute__((aligned(2048))) int memlane_bcmp_avx512(const void *a, const void *b,
                                                       size_t n)
{
    const unsigned char *p = a, *q = b;

    if (ML_LIKELY(n <= 32))
        return ml_ne32_masked(p, q, n) != 0;
    if (ML_LIKELY(n <= 64))
        return ml_ne64_masked(p, q, n) != 0;
    /* A differing exit returns the nonzero mask | 1, not a constant: with
     * `return 1` gcc sent every return of the function through one shared
     * block, a taken jump more on each path.  Expected, so that the exit
     * falls through: inputs that differ in their first bytes take no
     * jump there (docs/memcmp.md). */
    uint64_t m = ml_ne64(p, q);
    if (ML_LIKELY(m))
        return (int)m | 1;
    if (ML_LIKELY(n <= 128))
        return ml_ne64(p + n - 64, q + n - 64) != 0;
    if (n <= 256)
        return differ_first_129_256(p, q, n);
    return bcmp_long(p, q, n);
}
