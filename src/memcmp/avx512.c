/*
 * memcmp, AVX-512 (BW): 64-byte vectors, compares into mask registers.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..64    one masked compare, the load mask made from n
 *    65..128   head + tail vector, the first differing one picked by cmov
 *   129..256   32 bytes alone, then two heads + two tails picked by cmov
 *   257..      32-byte vectors (see memcmp_long): two one by one, two
 *              more, four, then four aligned per iteration, then the
 *              last one, two or four (overlapping)
 * Upper register state: with gcc, mk/memcmp.mk reserves xmm0-15 for this
 * file, so only zmm16-31 are used, which leave no dirty upper state and
 * need no vzeroupper (it cost ~1.4 cycles a call on Zen 4).  Other
 * compilers use zmm0-15 and put a vzeroupper before each return.
 */
#include "internal.h"
#include "ops_x86_cmp.h"

/* Whether four 32-byte vectors at o0 <= o1 <= o2 <= o3, each starting no
 * later than the end of the ones before it, differ; if so, *at = the
 * position of the first difference.  (Callers branch on this flag, not on
 * a byte difference read back from memory, so the branch does not wait
 * for those loads.) */
static inline int differ4y(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2, size_t o3, size_t *at)
{
    __m256i x0 = ml_xor32(p + o0, q + o0), x1 = ml_xor32(p + o1, q + o1);
    __m256i x2 = ml_xor32(p + o2, q + o2), x3 = ml_xor32(p + o3, q + o3);
    if (ML_LIKELY(ml_nz32k(ml_or4_256(x0, x1, x2, x3)) == 0))
        return 0;
    *at = ml_first_of4(ml_nz32k(x0), o0, ml_nz32k(x1), o1, ml_nz32k(x2), o2, ml_nz32k(x3),
                       o3);
    return 1;
}

/*
 * n > 256 with 32-byte vectors.  When q is not aligned like p, each
 * 64-byte load splits a cache line, and on Zen 4 such loads made this
 * range 15-25% slower than glibc; 32-byte loads split half as often.
 * With both aligned the two widths ran at the same speed.
 */
static int memcmp_long(const unsigned char *p, const unsigned char *q, size_t n)
{
    uint64_t m;
    size_t at;

    /* Equal inputs fall through every test (ML_UNLIKELY): at these sizes
     * each taken branch on the equal path cost up to a cycle. */
    if (ML_UNLIKELY(m = ml_ne32k(p, q)))
        return ml_diff_at(p, q, ml_ctz64(m));
    if (ML_UNLIKELY(m = ml_ne32k(p + 32, q + 32)))
        return ml_diff_at(p, q, 32 + ml_ctz64(m));
    if (ML_UNLIKELY(m = ml_ne32x2k(p + 64, q + 64)))
        return ml_diff_at(p, q, 64 + ml_ctz64(m));
    if (ML_UNLIKELY(differ4y(p, q, 128, 160, 192, 224, &at)))
        return ml_diff_at(p, q, at);
    /* Four vectors per iteration on p aligned to 32 (the step back
     * re-reads at most 31 bytes found equal).  Aligning the prologue too
     * (as bcmp_long does) made misaligned buffers faster (equal inputs at
     * 257 B..1 KiB: mean 0.96x glibc instead of 1.07x) but, in every
     * form tried, equal 32-aligned inputs at 592-640 bytes 1.25-1.3x. */
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
    /* The last 1..128 bytes: as few vectors as cover them, ending at n;
     * four falls through (without the hints, equal inputs whose tail
     * took four vectors, e.g. 352, 384, 480, 512 bytes, were 1.07-1.14x
     * glibc's time).  Moving the last block back into the loop instead
     * (no tail code) evened those out but read up to three vectors more
     * and was 5-25% slower on misaligned buffers. */
    size_t rest = n - i;
    if (ML_LIKELY(rest > 64)) {
        if (ML_UNLIKELY(differ4y(p, q, n - 128, n - 96, n - 64, n - 32, &at)))
            return ml_diff_at(p, q, at);
        return 0;
    }
    if (rest > 32) {
        m = ml_ne32x2k(p + n - 64, q + n - 64);
        if (ML_UNLIKELY(m))
            return ml_diff_at(p, q, n - 64 + ml_ctz64(m));
        return 0;
    }
    m = ml_ne32k(p + n - 32, q + n - 32);
    if (ML_UNLIKELY(m))
        return ml_diff_at(p, q, n - 32 + ml_ctz64(m));
    return 0;
}

/*
 * 65..256 bytes without a branch on where the data differ: head and tail
 * vector (to 128) or two heads and two tails are all compared, the first
 * differing one is picked with cmov, and the result is read back at that
 * position.  With a random mismatch position every such branch is a
 * likely misprediction, resolved only when the loads arrive; reading all
 * the bytes is cheaper (memlane-bench, 1024 buffer pairs: 0.3-0.5x
 * glibc's time instead of 0.73-0.85x with first-vector early exits).
 * One branch remains on the data, "all equal", which inputs that are
 * either always equal or always different predict.
 */
static inline int memcmp_65_128(const unsigned char *p, const unsigned char *q, size_t n)
{
    uint64_t m0 = ml_ne64(p, q), m = ml_ne64(p + n - 64, q + n - 64);
    size_t o = n - 64;
    if (ML_LIKELY(_kortestz_mask64_u8(m0, m)))
        return 0;
    ml_take_if_nonzero(&m, &o, m0, 0);
    return ml_diff_at(p, q, o + ml_ctz64(m));
}

/*
 * 129..256 bytes: the first 32 bytes alone, then two heads and two tails
 * (the first 64-byte head completed by the next 32 bytes), the first
 * differing vector picked by cmov.  The lone first test keeps inputs that
 * differ at once (sort keys, most unequal strings) from reading 256
 * bytes: without it, 129..512 bytes differing in byte 0 took 2.3-3.6x
 * glibc's time, with it 1.2-1.3x.  It costs a few points of the
 * random-position gain.
 */
static inline int differ_129_256(const unsigned char *p, const unsigned char *q, size_t n,
                                 size_t *at)
{
    uint64_t m0 = ml_ne32k(p, q);
    if (m0) {
        *at = ml_ctz64(m0);
        return 1;
    }
    m0 = (uint64_t)ml_ne32k(p + 32, q + 32) << 32;
    uint64_t m1 = ml_ne64(p + 64, q + 64);
    uint64_t m2 = ml_ne64(p + n - 128, q + n - 128), m = ml_ne64(p + n - 64, q + n - 64);
    size_t o = n - 64;
    if (ML_LIKELY(_kortestz_mask64_u8(_kor_mask64(m0, m1), _kor_mask64(m2, m))))
        return 0;
    ml_take_if_nonzero(&m, &o, m2, n - 128);
    ml_take_if_nonzero(&m, &o, m1, 64);
    ml_take_if_nonzero(&m, &o, m0, 0);
    *at = o + ml_ctz64(m);
    return 1;
}

/* Aligned to 2048 (the code, helpers included, is about 1.4 KiB): a hot path
 * that straddles a 4 KiB page boundary ran 5-7% slower (the same code
 * placed across 0x9000 and not, side by side in memlane-bench: bcmp at
 * 160-512 bytes); 64-byte alignment left that to the linker. */
__attribute__((aligned(2048))) int memlane_memcmp_avx512(const void *a, const void *b,
                                                         size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t m;

    if (ML_LIKELY(n <= 64)) {
        m = ml_ne64_masked(p, q, n);
        /* Equal falls through to the return: one taken branch fewer. */
        if (ML_LIKELY(m == 0))
            return 0;
        return ml_diff_at(p, q, ml_ctz64(m));
    }
    if (ML_LIKELY(n <= 128))
        return memcmp_65_128(p, q, n);
    if (n <= 256) {
        size_t at;
        return differ_129_256(p, q, n, &at) ? ml_diff_at(p, q, at) : 0;
    }
    return memcmp_long(p, q, n);
}
