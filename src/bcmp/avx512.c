/*
 * bcmp, AVX-512 (BW): the memcmp ladder without locating the difference:
 * XORs of the vectors ORed together (vpternlog) and one test per group.
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head vector, then tail vector
 *   129..256   head vector, then the next one and two tail vectors
 *   257..      head vector, the next three, then four aligned 32-byte
 *              vectors per iteration, then the last one or two vectors
 * Only zmm16-31 with gcc (see memcmp/avx512.c and mk/memcmp.mk).
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m512i xor3(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2)
{
    return _mm512_ternarylogic_epi64(ml_xor64(p + o0, q + o0), ml_xor64(p + o1, q + o1),
                                     ml_xor64(p + o2, q + o2), 0xfe);
}

int memlane_bcmp_avx512(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (ML_LIKELY(n <= 64))
        return ml_ne64_masked(p, q, n) != 0;
    /* The first vector alone: inputs that differ early leave here. */
    if (ml_ne64(p, q))
        return 1;
    if (n <= 128)
        return ml_ne64(p + n - 64, q + n - 64) != 0;
    if (n <= 256)
        return ml_nz64(xor3(p, q, 64, n - 128, n - 64)) != 0;
    if (ml_nz64(xor3(p, q, 64, 128, 192)))
        return 1;
    /* 32-byte vectors in the loop, as in memcmp/avx512.c (split loads). */
    size_t i = 256 - ((uintptr_t)p & 31);
    for (; i < n - 128; i += 128)
        if (ml_nz32k(ml_or4_256(ml_xor32(p + i, q + i), ml_xor32(p + i + 32, q + i + 32),
                                ml_xor32(p + i + 64, q + i + 64), ml_xor32(p + i + 96, q + i + 96))))
            return 1;
    if (n - i <= 64)
        return ml_ne64(p + n - 64, q + n - 64) != 0;
    return ml_nz64(_mm512_or_si512(ml_xor64(p + n - 128, q + n - 128),
                                   ml_xor64(p + n - 64, q + n - 64))) != 0;
}
