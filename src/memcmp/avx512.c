/*
 * memcmp, AVX-512 (BW): 64-byte vectors, compares into mask registers.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head + tail vector
 *   129..256   two head + two tail vectors
 *   257..      the first four vectors, then four aligned vectors per
 *              iteration, then the last four vectors (overlapping)
 * Within a group the first differing vector is picked by conditional moves
 * (a random mismatch position would mispredict a chain of branches).
 * Only zmm0-15 are named by the compiler here; it puts a vzeroupper before
 * each return, so callers running SSE code pay no transition penalty.
 */
#include "internal.h"
#include "ops_x86_cmp.h"

/* Four vectors at byte offsets o0 <= o1 <= o2 <= o3, each starting where the
 * ones before it end or earlier: 0 if equal, else the memcmp result. */
static inline int block4(const unsigned char *p, const unsigned char *q, size_t o0,
                         size_t o1, size_t o2, size_t o3)
{
    __m512i x0 = ml_xor64(p + o0, q + o0), x1 = ml_xor64(p + o1, q + o1);
    __m512i x2 = ml_xor64(p + o2, q + o2), x3 = ml_xor64(p + o3, q + o3);
    if (ML_LIKELY(ml_nz64(ml_or4_512(x0, x1, x2, x3)) == 0))
        return 0;
    return ml_diff_at(p, q, ml_first_of4(ml_nz64(x0), o0, ml_nz64(x1), o1,
                                         ml_nz64(x2), o2, ml_nz64(x3), o3));
}

int memlane_memcmp_avx512(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 64) {
        uint64_t m = ml_ne64_masked(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    if (n <= 128) {
        uint64_t m0 = ml_ne64(p, q), m1 = ml_ne64(p + n - 64, q + n - 64);
        if ((m0 | m1) == 0)
            return 0;
        return ml_diff_at(p, q, ml_first_of2(m0, 0, m1, n - 64));
    }
    if (n <= 256)
        return block4(p, q, 0, 64, n - 128, n - 64);

    int r = block4(p, q, 0, 64, 128, 192);
    if (r)
        return r;
    /* Loop on p aligned to 64 bytes (no split loads on p); the step back
     * to alignment re-reads at most 63 bytes already found equal. */
    size_t i = 256 - ((uintptr_t)p & 63);
    for (; i < n - 256; i += 256) {
        __m512i x0 = ml_xor64(p + i, q + i), x1 = ml_xor64(p + i + 64, q + i + 64);
        __m512i x2 = ml_xor64(p + i + 128, q + i + 128);
        __m512i x3 = ml_xor64(p + i + 192, q + i + 192);
        if (ML_UNLIKELY(ml_nz64(ml_or4_512(x0, x1, x2, x3)) != 0))
            return ml_diff_at(p, q, ml_first_of4(ml_nz64(x0), i, ml_nz64(x1), i + 64,
                                                 ml_nz64(x2), i + 128, ml_nz64(x3), i + 192));
    }
    return block4(p, q, n - 256, n - 192, n - 128, n - 64);
}
