/*
 * memcmp, AVX-512 (BW): 64-byte vectors, compares into mask registers.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head vector, then tail vector
 *   129..256   two head vectors one by one, then the two tail vectors
 *   257..      two head vectors one by one, the next two, then a loop
 *              of four aligned 32-byte vectors, then the last one or two
 *              vectors (overlapping, as few as cover the rest)
 * The first vectors are checked one by one, so that inputs differing
 * early cost little; within a later group the first differing vector is
 * picked by conditional moves (a random mismatch position would
 * mispredict a chain of branches).
 * Upper register state: with gcc, mk/memcmp.mk reserves xmm0-15 for this
 * file, so only zmm16-31 are used, which leave no dirty upper state and
 * need no vzeroupper (it cost ~1.4 cycles a call on Zen 4).  Other
 * compilers use zmm0-15 and put a vzeroupper before each return.
 */
#include "internal.h"
#include "ops_x86_cmp.h"

/* One or two vectors at byte offsets o0 <= o1, each starting
 * no later than the end of the ones before it: 0 if equal, else the
 * memcmp result. */
static inline int vec1(const unsigned char *p, const unsigned char *q, size_t o)
{
    uint64_t m = ml_ne64(p + o, q + o);
    return m ? ml_diff_at(p, q, o + ml_ctz64(m)) : 0;
}

static inline int vec2(const unsigned char *p, const unsigned char *q, size_t o0, size_t o1)
{
    uint64_t m0 = ml_ne64(p + o0, q + o0), m1 = ml_ne64(p + o1, q + o1);
    if ((m0 | m1) == 0)
        return 0;
    return ml_diff_at(p, q, ml_first_of2(m0, o0, m1, o1));
}

int memlane_memcmp_avx512(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    int r;

    if (ML_LIKELY(n <= 64)) {
        uint64_t m = ml_ne64_masked(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    /* The first vectors one by one: inputs that differ early leave here
     * after reading little. */
    if ((r = vec1(p, q, 0)))
        return r;
    if (n <= 128)
        return vec1(p, q, n - 64);
    if ((r = vec1(p, q, 64)))
        return r;
    if (n <= 256)
        return vec2(p, q, n - 128, n - 64);
    if ((r = vec2(p, q, 128, 192)))
        return r;

    /* Loop of four 32-byte vectors on p aligned to 32 (the step back
     * re-reads at most 31 bytes found equal).  32-byte rather than
     * 64-byte vectors: when q is not aligned like p, every 64-byte load
     * of q splits a cache line, which on Zen 4 made the zmm loop 7-10%
     * slower than glibc; 32-byte loads split half as often, and with both
     * aligned the two widths run at the same speed. */
    size_t i = 256 - ((uintptr_t)p & 31);
    for (; i < n - 128; i += 128) {
        __m256i x0 = ml_xor32(p + i, q + i), x1 = ml_xor32(p + i + 32, q + i + 32);
        __m256i x2 = ml_xor32(p + i + 64, q + i + 64);
        __m256i x3 = ml_xor32(p + i + 96, q + i + 96);
        if (ML_UNLIKELY(ml_nz32k(ml_or4_256(x0, x1, x2, x3)) != 0)) {
            uint64_t m01 = ml_nz32k(x0) | (uint64_t)ml_nz32k(x1) << 32;
            uint64_t m23 = ml_nz32k(x2) | (uint64_t)ml_nz32k(x3) << 32;
            return ml_diff_at(p, q, ml_first_of2(m01, i, m23, i + 64));
        }
    }
    /* The last 1..128 bytes: one or two 64-byte vectors ending at n. */
    if (n - i <= 64)
        return vec1(p, q, n - 64);
    return vec2(p, q, n - 128, n - 64);
}
