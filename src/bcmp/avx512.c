/*
 * bcmp, AVX-512 (BW): the memcmp ladder without locating the difference:
 * XORs of the vectors ORed together (vpternlog) and one test per group.
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head + tail vector, one test
 *   129..256   32 bytes alone, then two heads + two tails, one test
 *   257..      32-byte vectors (see bcmp_long): one, one, two, four, then
 *              blocks of four aligned, the last one moved back to end at n
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

/* 65..128 bytes: head and tail, one test. */
static inline int differ_65_128(const unsigned char *p, const unsigned char *q, size_t n)
{
    return !_kortestz_mask64_u8(ml_ne64(p, q), ml_ne64(p + n - 64, q + n - 64));
}

/* The first 129..256 bytes of a call: the first 32 bytes alone first, so
 * inputs that differ at once read little (see memcmp/avx512.c). */
static inline int differ_first_129_256(const unsigned char *p, const unsigned char *q,
                                       size_t n)
{
    if (ml_ne32k(p, q))
        return 1;
    return !_kortestz_mask64_u8(ml_ne32k(p + 32, q + 32),
                                ml_nz64(xor3(p, q, 64, n - 128, n - 64)));
}

/* OR of the XORs of four 32-byte vectors. */
static inline __m256i xor4y(const unsigned char *p, const unsigned char *q, size_t o0,
                            size_t o1, size_t o2, size_t o3)
{
    return ml_or4_256(ml_xor32(p + o0, q + o0), ml_xor32(p + o1, q + o1),
                      ml_xor32(p + o2, q + o2), ml_xor32(p + o3, q + o3));
}

/* n > 256 with 32-byte vectors, for the reason given in memcmp/avx512.c
 * (64-byte loads of a q not aligned like p split cache lines). */
static int bcmp_long(const unsigned char *p, const unsigned char *q, size_t n)
{
    /* The same shape as memcmp_long (one, one, two, four vectors): with
     * one, three, four, bcmp was slower than memcmp at more sizes. */
    if (ML_UNLIKELY(ml_ne32k(p, q)))
        return 1;
    if (ML_UNLIKELY(ml_ne32k(p + 32, q + 32)))
        return 1;
    if (ML_UNLIKELY(ml_nz32k(
            _mm256_or_si256(ml_xor32(p + 64, q + 64), ml_xor32(p + 96, q + 96)))))
        return 1;
    if (ML_UNLIKELY(ml_nz32k(xor4y(p, q, 128, 160, 192, 224))))
        return 1;
    /* Blocks of four vectors from p + 256 aligned down to 32, the last
     * one moved back to end at n (cmov): one loop, no tail code (see
     * memcmp_long; with the 1/2/4-vector tail, equal inputs at 720-768,
     * 848-896 and 976-1024 bytes took 1.15-1.23x glibc's time). */
    size_t i = 256 - ((uintptr_t)p & 31), lim = n - 128;
    for (;;) {
        if (i > lim)
            i = lim;
        uint32_t nz = ml_nz32k(xor4y(p, q, i, i + 32, i + 64, i + 96));
        if (ML_UNLIKELY(nz))
            return 1;
        if (i == lim)
            return 0;
        i += 128;
    }
}

__attribute__((aligned(64))) int memlane_bcmp_avx512(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    if (ML_LIKELY(n <= 64))
        return ml_ne64_masked(p, q, n) != 0;
    /* At most one branch on the data up to 256 bytes (see
     * memcmp/avx512.c). */
    if (ML_LIKELY(n <= 128))
        return differ_65_128(p, q, n);
    if (n <= 256)
        return differ_first_129_256(p, q, n);
    return bcmp_long(p, q, n);
}
