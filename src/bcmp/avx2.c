/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, AVX2.
 *     0..32    one whole vector when both stay on their page, the bits
 *              from n on cleared; else the vector ending at n, or whole
 *              dwords by a masked load and the last bytes by byte loads
 *    33..64    head + tail vector, one test
 *    65..128   vectors at 0, 32, n - 64 and n - 32, one test
 *   129..256   head vector, the next three, then three from p's first
 *              32-byte boundary at or above n - 128, and the one ending at n
 *   257..      head vector, the next three, then four vectors per
 *              iteration, p aligned, then the last one, two or four (all
 *              but the one ending at n aligned)
 * Up to 128 bytes a group is tested by ANDing vpcmpeqb masks and one
 * vpmovmskb compared with all-ones (as glibc's __memcmp_avx2_movbe
 * does); above, XORs ORed and one vptest: each measured the faster
 * where it is used (docs/memcmp.md).
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

/* Whether some byte of the mask e is not all-ones (some byte differed). */
static inline int not_all(__m256i e)
{
    return (uint32_t)_mm256_movemask_epi8(e) != 0xffffffffu;
}

static inline __m256i xor4(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2, size_t o3)
{
    return _mm256_or_si256(
        _mm256_or_si256(ml_xor32(p + o0, q + o0), ml_xor32(p + o1, q + o1)),
        _mm256_or_si256(ml_xor32(p + o2, q + o2), ml_xor32(p + o3, q + o3)));
}

/* 1 <= n <= 32 strictly inside the buffers: whole dwords by a masked
 * load, the last 1-3 bytes by byte loads. */
static inline int upto32_in_bounds(const unsigned char *p, const unsigned char *q,
                                   size_t n)
{
    size_t j0, j1, last;
    ml_upto32_tail_at(n, &j0, &j1, &last);
    unsigned tail = (p[j0] ^ q[j0]) | (p[j1] ^ q[j1]) | (p[last] ^ q[last]);
    return ml_any32(ml_upto32_dword_xor(p, q, n)) | (tail != 0);
}

#if ML_READ_AROUND
/* Where a vector from p or q would cross a page end: the 32 bytes ending
 * at n if they stay on their page, else in bounds (see memcmp/avx2.c). */
static __attribute__((noinline, cold)) int
upto32_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    if (ml_in_page(p + n - 32, q + n - 32, 32))
        return (ml_ne32(p + n - 32, q + n - 32) >> (32 - n)) != 0;
    return upto32_in_bounds(p, q, n);
}
#endif

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 128 bytes a test, the lines 2 KiB ahead asked for while
 * ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
bcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 128; i += 128) {
        if (prefetch) {
            ml_prefetch_ahead(p, q, i);
            ml_prefetch_ahead(p, q, i + 64);
        }
        if (ml_any32(xor4(p, q, i, i + 32, i + 64, i + 96)))
            return 1;
    }
    return ml_any32(xor4(p, q, n - 128, n - 96, n - 64, n - 32));
}

__attribute__((aligned(64))) int memlane_bcmp_avx2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 32) {
#if ML_READ_AROUND
        /* One whole vector when both stay on their page (see memcmp);
         * n == 0 compares a static block, every bit masked off. */
        ml_empty_at_zeros(&p, &q, n);
        if (ML_LIKELY(ml_in_page(p, q, 32)))
            return _bzhi_u32(ml_ne32(p, q), (unsigned)n) != 0;
        return upto32_page_end(p, q, n);
#else
        if (n == 0)
            return 0;
        return upto32_in_bounds(p, q, n);
#endif
    }
    /* 33..64 apart from 65..128 (two loads, not four), expected, so that
     * gcc lays it out straight from the entry's one taken branch. */
    if (ML_LIKELY(n <= 64))
        return not_all(_mm256_and_si256(ml_eq32(p, q), ml_eq32(p + n - 32, q + n - 32)));
    if (n <= 128)
        return not_all(
            _mm256_and_si256(_mm256_and_si256(ml_eq32(p, q), ml_eq32(p + 32, q + 32)),
                             _mm256_and_si256(ml_eq32(p + n - 64, q + n - 64),
                                              ml_eq32(p + n - 32, q + n - 32))));
    if (not_all(ml_eq32(p, q)))
        return 1;
    if (ml_any32(_mm256_or_si256(
            ml_xor32(p + 32, q + 32),
            _mm256_or_si256(ml_xor32(p + 64, q + 64), ml_xor32(p + 96, q + 96)))))
        return 1;
    /* 129..256: no loop and no branch on how many bytes are left, which
     * mispredict on random sizes (docs/memcmp.md).  Three vectors from
     * p's first 32-byte boundary at or above n - 128 (128 at most), then
     * the one ending at n: with p aligned only that one can cross a
     * 64-byte line (of the four ending at n, two did at n = 16 mod 32). */
    if (n <= 256) {
        size_t at = (((uintptr_t)p + n - 128 + 31) & ~(uintptr_t)31) - (uintptr_t)p;
        at = at < 128 ? at : 128;
        return ml_any32(xor4(p, q, at, at + 32, at + 64, n - 32));
    }
    size_t i = 128 - ((uintptr_t)p & 31);
    if (ML_UNLIKELY(n >= ML_CMP_PREFETCH_MIN) && ml_cmp_in_band(n))
        return bcmp_prefetching(p, q, n, i);
    for (; i < n - 128; i += 128)
        if (ml_any32(xor4(p, q, i, i + 32, i + 64, i + 96)))
            return 1;
    size_t rest = n - i;
    if (rest <= 32)
        return ml_any32(ml_xor32(p + n - 32, q + n - 32));
    if (rest <= 64)
        return ml_any32(_mm256_or_si256(ml_xor32(p + n - 64, q + n - 64),
                                        ml_xor32(p + n - 32, q + n - 32)));
    /* 64 < rest <= 128: two aligned vectors from i, a third aligned one
     * unless it would pass n, then the one ending at n. */
    size_t third = i + 64 < n - 32 ? i + 64 : n - 32;
    return ml_any32(xor4(p, q, i, i + 32, third, n - 32));
}
