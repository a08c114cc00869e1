/*
 * bcmp, AVX-512 (BW): the memcmp ladder without locating the difference:
 * XORs of the vectors ORed together (vpternlog) and one test per group.
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head + tail vector, one test
 *   129..256   32 bytes alone, then two heads + two tails, one test
 *   257..      32-byte vectors (see bcmp_long): one, then one, two, four
 *              and four per iteration on p aligned to 32, then the last
 *              two or four
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
    /* One, one, two, four vectors, then the loop (the shape of
     * memcmp_long).  Equal inputs fall through every test (ML_UNLIKELY):
     * at these sizes each taken branch on the equal path cost up to a
     * cycle. */
    if (ML_UNLIKELY(ml_ne32k(p, q)))
        return 1;
    /* All later loads on p aligned to 32 (pa = p + 1..32): with the
     * prologue at p + 32, p + 64, ... (as memcmp_long has) every vector
     * of a misaligned p was misaligned too, and equal inputs at 257 B..1
     * KiB took 1.03-1.25x glibc's time; now 0.90-1.05x. */
    size_t a = 32 - ((uintptr_t)p & 31);
    const unsigned char *pa = p + a, *qa = q + a;
    if (ML_UNLIKELY(ml_ne32k(pa, qa)))
        return 1;
    if (ML_UNLIKELY(ml_nz32k(
            _mm256_or_si256(ml_xor32(pa + 32, qa + 32), ml_xor32(pa + 64, qa + 64)))))
        return 1;
    if (ML_UNLIKELY(ml_nz32k(xor4y(pa, qa, 96, 128, 160, 192))))
        return 1;
    size_t i = a + 224;
    for (; i < n - 128; i += 128)
        if (ML_UNLIKELY(ml_nz32k(xor4y(p, q, i, i + 32, i + 64, i + 96))))
            return 1;
    /* The last 1..128 bytes: four vectors (falling through) or two,
     * ending at n.  With a separate one-vector case (as memcmp has) equal
     * inputs at 720-768, 848-896 and 976-1024 bytes were 1.15-1.23x
     * glibc's time. */
    if (ML_LIKELY(n - i > 64))
        return ml_nz32k(xor4y(p, q, n - 128, n - 96, n - 64, n - 32)) != 0;
    return ml_nz32k(_mm256_or_si256(ml_xor32(p + n - 64, q + n - 64),
                                    ml_xor32(p + n - 32, q + n - 32))) != 0;
}

/* Aligned to 1024 (the code, helpers included, is under 1 KiB): a hot path
 * that straddles a 4 KiB page boundary ran 5-7% slower (the same code
 * placed across 0x9000 and not, side by side in memlane-bench: bcmp at
 * 160-512 bytes); 64-byte alignment left that to the linker. */
__attribute__((aligned(1024))) int memlane_bcmp_avx512(const void *a, const void *b,
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
