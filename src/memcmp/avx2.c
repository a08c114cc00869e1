/*
 * memcmp, AVX2: 32-byte vectors, vpcmpeqb + vpmovmskb masks.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..16    overlapping little-endian words (no byte loop)
 *    17..32    head + tail 16-byte vector, one 32-bit mask
 *    33..64    head + tail vector, one 64-bit mask
 *    65..128   two head vectors one by one, then two tail vectors
 *   129..      two head vectors one by one, the next two, then four
 *              aligned vectors per
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
 * position of the first difference. */
static inline int differ4(const unsigned char *p, const unsigned char *q, size_t o0,
                          size_t o1, size_t o2, size_t o3, size_t *at)
{
    __m256i x0 = ml_xor32(p + o0, q + o0), x1 = ml_xor32(p + o1, q + o1);
    __m256i x2 = ml_xor32(p + o2, q + o2), x3 = ml_xor32(p + o3, q + o3);
    __m256i any = _mm256_or_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x2, x3));
    if (ML_LIKELY(!ml_any32(any)))
        return 0;
    *at =
        ml_first_of4(ml_nz32(x0), o0, ml_nz32(x1), o1, ml_nz32(x2), o2, ml_nz32(x3), o3);
    return 1;
}

__attribute__((aligned(64))) int memlane_memcmp_avx2(const void *a, const void *b,
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
        uint64_t m = ml_ne32_head_tail(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    /* The first vectors one by one: inputs that differ early leave here
     * after reading little. */
    uint64_t m = ml_ne32(p, q);
    if (m)
        return ml_diff_at(p, q, ml_ctz64(m));
    if ((m = ml_ne32(p + 32, q + 32)))
        return ml_diff_at(p, q, 32 + ml_ctz64(m));
    if (n <= 128) {
        m = ml_ne32x2(p + n - 64, q + n - 64);
        return m ? ml_diff_at(p, q, n - 64 + ml_ctz64(m)) : 0;
    }
    if ((m = ml_ne32x2(p + 64, q + 64)))
        return ml_diff_at(p, q, 64 + ml_ctz64(m));
    /* Loop on p aligned to 32 bytes (no split loads on p); the step back
     * to alignment re-reads at most 31 bytes already found equal. */
    size_t i = 128 - ((uintptr_t)p & 31);
    for (; i < n - 128; i += 128) {
        __m256i x0 = ml_xor32(p + i, q + i), x1 = ml_xor32(p + i + 32, q + i + 32);
        __m256i x2 = ml_xor32(p + i + 64, q + i + 64);
        __m256i x3 = ml_xor32(p + i + 96, q + i + 96);
        __m256i any = _mm256_or_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x2, x3));
        if (ML_UNLIKELY(ml_any32(any)))
            return ml_diff_at(p, q,
                              ml_first_of4(ml_nz32(x0), i, ml_nz32(x1), i + 32,
                                           ml_nz32(x2), i + 64, ml_nz32(x3), i + 96));
    }
    /* The last 1..128 bytes: as few vectors as cover them, ending at n. */
    size_t rest = n - i;
    if (rest <= 32) {
        m = ml_ne32(p + n - 32, q + n - 32);
        return m ? ml_diff_at(p, q, n - 32 + ml_ctz64(m)) : 0;
    }
    if (rest <= 64) {
        m = ml_ne32x2(p + n - 64, q + n - 64);
        return m ? ml_diff_at(p, q, n - 64 + ml_ctz64(m)) : 0;
    }
    size_t at;
    return differ4(p, q, n - 128, n - 96, n - 64, n - 32, &at) ? ml_diff_at(p, q, at) : 0;
}
