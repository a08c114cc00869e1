/*
 * bcmp, SSE2: the memcmp ladder without locating the difference: the
 * pcmpeqb masks of a group ANDed and one pmovmskb compared with 0xffff
 * (no XOR, OR and compare with zero).
 *     0..16    overlapping words, on the fall-through path
 *    17..64    one class, one test: vectors at 0, min(16, n - 16),
 *              max(n - 32, 0) and n - 16 (the middle two chosen by
 *              conditional moves, no branch on n)
 *    65..128   the first four vectors, then the last four ending at n
 *   129..      the first four, four per iteration with p aligned to 16
 *              (the aligned side as pcmpeqb's memory operand), then the
 *              last four ending at n, no branch on the rest
 * Against glibc's __memcmp_sse2 on Zen 4 (every code position): BcmpShort
 * 1.04x -> 0.97x its time, Mid 1.08x -> 0.92x, Uniform512 1.09x -> 0.86x;
 * fixed sizes 33-64 B 1.10x -> 1.00-1.03x, 97-128 B 1.27-1.32x ->
 * 1.14-1.18x, but 65-96 B 1.18-1.25x -> 1.25-1.30x and 129-144 B
 * 1.07-1.14x -> 1.18-1.21x, where the unconditional four-vector tail
 * reads more than the rest needs (a branch on the rest wins those back
 * and costs 10-17 % on Mid and Uniform512).
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m128i eq16(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(ml_ld16(p), ml_ld16(q));
}

/* p aligned to 16 bytes. */
static inline __m128i eq16a(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(_mm_load_si128((const __m128i *)(const void *)p), ml_ld16(q));
}

static inline int differ(__m128i e) { return _mm_movemask_epi8(e) != 0xffff; }

/* Whether the four vectors at o0..o3 differ. */
static inline int differ4(const unsigned char *p, const unsigned char *q, size_t o0,
                          size_t o1, size_t o2, size_t o3)
{
    return differ(
        _mm_and_si128(_mm_and_si128(eq16(p + o0, q + o0), eq16(p + o1, q + o1)),
                      _mm_and_si128(eq16(p + o2, q + o2), eq16(p + o3, q + o3))));
}

__attribute__((aligned(64))) int memlane_bcmp_sse2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (ML_LIKELY(n <= 16))
        return ml_bcmp_upto16(p, q, n);
    if (n <= 64) {
        /* 17..64 as one class, no branch on n: vectors at 0, min(16,
         * n - 16), max(n - 32, 0) and n - 16. */
        size_t o1 = n < 32 ? n - 16 : 16, o2 = n > 32 ? n - 32 : 0;
        return differ4(p, q, 0, o1, o2, n - 16);
    }

    if (differ4(p, q, 0, 16, 32, 48))
        return 1;
    if (n > 128) {
        size_t i = 64 - ((uintptr_t)p & 15); /* 49..64 < n - 64 */
        do {
            if (differ(_mm_and_si128(
                    _mm_and_si128(eq16a(p + i, q + i), eq16a(p + i + 16, q + i + 16)),
                    _mm_and_si128(eq16a(p + i + 32, q + i + 32),
                                  eq16a(p + i + 48, q + i + 48)))))
                return 1;
            i += 64;
        } while (i < n - 64);
    }
    return differ4(p, q, n - 64, n - 48, n - 32, n - 16);
}
