/*
 * bcmp, AVX2: the memcmp ladder without locating the difference: XORs
 * ORed together and one vptest per group.
 *     0..16    overlapping words
 *    17..32    head + tail 16-byte vector
 *    33..64    head + tail vector
 *    65..128   head vector, then the next one and two tail vectors
 *   129..      head vector, the next three, then four vectors per iteration, p aligned,
 * then the last one, two or four vectors
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m256i xor4(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2, size_t o3)
{
    return _mm256_or_si256(
        _mm256_or_si256(ml_xor32(p + o0, q + o0), ml_xor32(p + o1, q + o1)),
        _mm256_or_si256(ml_xor32(p + o2, q + o2), ml_xor32(p + o3, q + o3)));
}

__attribute__((aligned(64))) int memlane_bcmp_avx2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 16)
        return ml_bcmp_upto16(p, q, n);
    if (n <= 32)
        return ml_any16_head_tail(p, q, n);
    if (n <= 64)
        return ml_any32(
            _mm256_or_si256(ml_xor32(p, q), ml_xor32(p + n - 32, q + n - 32)));
    /* The first vector alone: inputs that differ early leave here. */
    if (ml_any32(ml_xor32(p, q)))
        return 1;
    if (n <= 128)
        return ml_any32(_mm256_or_si256(
            ml_xor32(p + 32, q + 32), _mm256_or_si256(ml_xor32(p + n - 64, q + n - 64),
                                                      ml_xor32(p + n - 32, q + n - 32))));
    if (ml_any32(_mm256_or_si256(
            ml_xor32(p + 32, q + 32),
            _mm256_or_si256(ml_xor32(p + 64, q + 64), ml_xor32(p + 96, q + 96)))))
        return 1;
    size_t i = 128 - ((uintptr_t)p & 31);
    for (; i < n - 128; i += 128)
        if (ml_any32(xor4(p, q, i, i + 32, i + 64, i + 96)))
            return 1;
    size_t rest = n - i;
    if (rest <= 32)
        return ml_any32(ml_xor32(p + n - 32, q + n - 32));
    if (rest <= 64)
        return ml_any32(_mm256_or_si256(ml_xor32(p + n - 64, q + n - 64),
                                        ml_xor32(p + n - 32, q + n - 32)));
    return ml_any32(xor4(p, q, n - 128, n - 96, n - 64, n - 32));
}
