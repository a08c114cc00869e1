/*
 * memcmp, SSE2 (x86-64 baseline): 16-byte vectors, pcmpeqb + pmovmskb.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..16    overlapping little-endian words (no byte loop)
 *    17..32    head + tail vector, one 32-bit mask
 *    33..64    two head + two tail vectors, one 64-bit mask
 *    65..128   the first vector alone, the next four, then the last
 *              four ending at n, no loop set-up (MemcmpMid against
 *              glibc's __memcmp_sse2 on Zen 4: +23 % -> +11-13 % time,
 *              fixed 112-128 B 1.74x -> 1.3-1.45x, both code positions)
 *   129..      the first four vectors, then four aligned vectors per
 *              iteration, then the last one, two or four vectors
 *              (overlapping, as few as cover the rest)
 * A head/tail pair shifts the tail mask by its offset, so bit i is byte i
 * and one bit scan finds the first difference; larger groups pick the
 * first differing vector with conditional moves.
 */
#include "internal.h"
#include "ops_x86_cmp.h"

/* Whether four vectors at byte offsets o0 <= o1 <= o2 <= o3, each starting
 * where the ones before it end or earlier, differ; if so, *at = the
 * position of the first difference.  (Callers branch on this flag, not
 * on a byte difference read back from memory.) */
static inline int differ4(const unsigned char *p, const unsigned char *q, size_t o0,
                          size_t o1, size_t o2, size_t o3, size_t *at)
{
    __m128i x0 = ml_xor16(p + o0, q + o0), x1 = ml_xor16(p + o1, q + o1);
    __m128i x2 = ml_xor16(p + o2, q + o2), x3 = ml_xor16(p + o3, q + o3);
    __m128i any = _mm_or_si128(_mm_or_si128(x0, x1), _mm_or_si128(x2, x3));
    if (ML_LIKELY(ml_nz16(any) == 0))
        return 0;
    *at =
        ml_first_of4(ml_nz16(x0), o0, ml_nz16(x1), o1, ml_nz16(x2), o2, ml_nz16(x3), o3);
    return 1;
}

__attribute__((aligned(64))) int memlane_memcmp_sse2(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 16)
        return ml_memcmp_upto16(p, q, n);
    if (n <= 32) {
        uint32_t m = ml_ne16_head_tail(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    if (n <= 64) {
        uint64_t m = ml_ne16x2_head_tail(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }

    /* The first vector alone: inputs that differ early leave here. */
    uint32_t m0 = ml_ne16(p, q);
    if (m0)
        return ml_diff_at(p, q, ml_ctz64(m0));
    size_t at;
    if (differ4(p, q, 16, 32, 48, 64 < n - 16 ? 64 : n - 16, &at))
        return ml_diff_at(p, q, at);
    if (n <= 128)
        return differ4(p, q, n - 64, n - 48, n - 32, n - 16, &at) ? ml_diff_at(p, q, at)
                                                                  : 0;
    /* Loop on p aligned to 16 bytes (aligned loads on p); the step back
     * to alignment re-reads at most 15 bytes already found equal. */
    size_t i = 64 - ((uintptr_t)p & 15);
    for (; i < n - 64; i += 64) {
        __m128i x0 = ml_xor16(p + i, q + i), x1 = ml_xor16(p + i + 16, q + i + 16);
        __m128i x2 = ml_xor16(p + i + 32, q + i + 32);
        __m128i x3 = ml_xor16(p + i + 48, q + i + 48);
        __m128i any = _mm_or_si128(_mm_or_si128(x0, x1), _mm_or_si128(x2, x3));
        if (ML_UNLIKELY(ml_nz16(any) != 0))
            return ml_diff_at(p, q,
                              ml_first_of4(ml_nz16(x0), i, ml_nz16(x1), i + 16,
                                           ml_nz16(x2), i + 32, ml_nz16(x3), i + 48));
    }
    /* The last 1..64 bytes: as few vectors as cover them, ending at n. */
    size_t rest = n - i;
    if (rest <= 16) {
        uint32_t m = ml_ne16(p + n - 16, q + n - 16);
        return m ? ml_diff_at(p, q, n - 16 + ml_ctz64(m)) : 0;
    }
    if (rest <= 32) {
        uint32_t m = ml_ne16x2(p + n - 32, q + n - 32);
        return m ? ml_diff_at(p, q, n - 32 + ml_ctz64(m)) : 0;
    }
    return differ4(p, q, n - 64, n - 48, n - 32, n - 16, &at) ? ml_diff_at(p, q, at) : 0;
}
