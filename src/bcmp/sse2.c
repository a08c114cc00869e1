/*
 * bcmp, SSE2: the memcmp ladder without locating the difference:
 * pcmpeqb results ANDed and one pmovmskb test per group.
 *     0..16    overlapping words
 *    17..32    head + tail vector
 *    33..64    two head + two tail vectors
 *    65..128   the first four and the last four vectors, one test
 *   129..      the first four vectors, four aligned vectors per
 *              iteration, then the last two or four ending at n
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m128i eq16(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(ml_ld16(p), ml_ld16(q));
}

static inline __m128i and4(__m128i e0, __m128i e1, __m128i e2, __m128i e3)
{
    return _mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3));
}

static inline __m128i eq16x4(const unsigned char *p, const unsigned char *q)
{
    return and4(eq16(p, q), eq16(p + 16, q + 16), eq16(p + 32, q + 32),
                eq16(p + 48, q + 48));
}

/* p aligned to 16 bytes: the loads of p fold into pcmpeqb. */
static inline __m128i eq16x4_aligned_p(const unsigned char *p, const unsigned char *q)
{
    const __m128i *v = (const __m128i *)(const void *)p;
    return and4(_mm_cmpeq_epi8(_mm_load_si128(v), ml_ld16(q)),
                _mm_cmpeq_epi8(_mm_load_si128(v + 1), ml_ld16(q + 16)),
                _mm_cmpeq_epi8(_mm_load_si128(v + 2), ml_ld16(q + 32)),
                _mm_cmpeq_epi8(_mm_load_si128(v + 3), ml_ld16(q + 48)));
}

static inline int differ(__m128i e) { return _mm_movemask_epi8(e) != 0xffff; }

__attribute__((aligned(64))) int memlane_bcmp_sse2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 16)
        return ml_bcmp_upto16(p, q, n);
    if (n <= 32)
        return differ(_mm_and_si128(eq16(p, q), eq16(p + n - 16, q + n - 16)));
    if (n <= 64)
        return differ(and4(eq16(p, q), eq16(p + 16, q + 16), eq16(p + n - 32, q + n - 32),
                           eq16(p + n - 16, q + n - 16)));
    if (n <= 128)
        return differ(_mm_and_si128(eq16x4(p, q), eq16x4(p + n - 64, q + n - 64)));

    if (differ(eq16x4(p, q)))
        return 1;
    size_t i = 64 - ((uintptr_t)p & 15);
    for (; i < n - 64; i += 64)
        if (differ(eq16x4_aligned_p(p + i, q + i)))
            return 1;
    if (n - i <= 32)
        return differ(
            _mm_and_si128(eq16(p + n - 32, q + n - 32), eq16(p + n - 16, q + n - 16)));
    return differ(eq16x4(p + n - 64, q + n - 64));
}
