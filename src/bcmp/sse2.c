/*
 * bcmp, SSE2: the memcmp ladder without locating the difference: XORs
 * ORed together and one pmovmskb test per group.
 *     0..16    overlapping words
 *    17..32    head + tail vector
 *    33..64    two head + two tail vectors
 *    65..      four vectors per iteration, p aligned, then the last
 *              one, two or four vectors
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline int any4(const unsigned char *p, const unsigned char *q, size_t o0,
                       size_t o1, size_t o2, size_t o3)
{
    __m128i x =
        _mm_or_si128(_mm_or_si128(ml_xor16(p + o0, q + o0), ml_xor16(p + o1, q + o1)),
                     _mm_or_si128(ml_xor16(p + o2, q + o2), ml_xor16(p + o3, q + o3)));
    return ml_nz16(x) != 0;
}

__attribute__((aligned(64))) int memlane_bcmp_sse2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 16)
        return ml_bcmp_upto16(p, q, n);
    if (n <= 32)
        return ml_any16_head_tail(p, q, n);
    if (n <= 64)
        return any4(p, q, 0, 16, n - 32, n - 16);

    if (any4(p, q, 0, 16, 32, 48))
        return 1;
    size_t i = 64 - ((uintptr_t)p & 15);
    for (; i < n - 64; i += 64)
        if (any4(p, q, i, i + 16, i + 32, i + 48))
            return 1;
    size_t rest = n - i;
    if (rest <= 16)
        return ml_ne16(p + n - 16, q + n - 16) != 0;
    if (rest <= 32)
        return ml_nz16(_mm_or_si128(ml_xor16(p + n - 32, q + n - 32),
                                    ml_xor16(p + n - 16, q + n - 16))) != 0;
    return any4(p, q, n - 64, n - 48, n - 32, n - 16);
}
