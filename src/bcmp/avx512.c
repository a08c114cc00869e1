/*
 * bcmp, AVX-512 (BW): the memcmp ladder without locating the difference:
 * XORs of the vectors ORed together (vpternlog) and one test per group.
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head + tail vector
 *   129..256   two head + two tail vectors
 *   257..      four vectors per iteration, p aligned, then the last four
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m512i xor4(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2, size_t o3)
{
    return ml_or4_512(ml_xor64(p + o0, q + o0), ml_xor64(p + o1, q + o1),
                      ml_xor64(p + o2, q + o2), ml_xor64(p + o3, q + o3));
}

int memlane_bcmp_avx512(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 64)
        return ml_ne64_masked(p, q, n) != 0;
    if (n <= 128)
        return ml_nz64(_mm512_or_si512(ml_xor64(p, q),
                                       ml_xor64(p + n - 64, q + n - 64))) != 0;
    if (n <= 256)
        return ml_nz64(xor4(p, q, 0, 64, n - 128, n - 64)) != 0;

    if (ml_nz64(xor4(p, q, 0, 64, 128, 192)))
        return 1;
    size_t i = 256 - ((uintptr_t)p & 63);
    for (; i < n - 256; i += 256)
        if (ml_nz64(xor4(p, q, i, i + 64, i + 128, i + 192)))
            return 1;
    return ml_nz64(xor4(p, q, n - 256, n - 192, n - 128, n - 64)) != 0;
}
