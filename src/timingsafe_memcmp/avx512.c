/*
 * timingsafe_memcmp, AVX-512 (F/BW/VL): constant time at memcmp speed.
 *
 * Size classes by n (the only branches): one masked 64-byte block for
 * n <= 64 (the mask comes from n; masked-off bytes are never read), two
 * overlapping blocks up to 128, four up to 256, and above that a loop over
 * 256-byte groups.
 *
 * The loop walks the groups from the end of the buffers to the start.
 * Per group it only xors the blocks, ors the four xors into one vector
 * and asks one question, "does the group differ anywhere?" (one vptestmq).
 * The answer becomes an all-ones or all-zero mask register that copies the
 * group's eight vectors into eight saved registers (masked register moves,
 * no memory access depends on it).  Because the walk goes backwards, the
 * last group to be saved is the first group that differs, with no forward
 * "already found" flag.  The expensive part -- "differ" and "less than"
 * masks per byte, the lowest set bit, the sign -- runs once, on the saved
 * group, after the loop.  The first group is the last 256 bytes, so it
 * overlaps the group before it; any difference in the overlap is also seen
 * by that earlier group, which overwrites it.
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"

static inline __m512i ld(const unsigned char *p)
{
    return _mm512_loadu_si512((const void *)p);
}

static inline uint64_t gt_bits(__m512i a, __m512i b)
{
    return _cvtmask64_u64(_mm512_cmpgt_epu8_mask(a, b));
}
static inline uint64_t lt_bits(__m512i a, __m512i b)
{
    return _cvtmask64_u64(_mm512_cmplt_epu8_mask(a, b));
}
static inline ml_u128 pair(uint64_t lo, uint64_t hi)
{
    return (ml_u128)hi << 64 | lo;
}

/*
 * Several blocks at once are decided per 8-byte word rather than per
 * byte: the bytes of each 64-bit lane are reversed (vpshufb), so that an
 * unsigned vpcmpuq of two lanes orders them as memcmp orders their bytes,
 * and a block gives 8-bit "greater"/"less" sets instead of 64-bit ones.
 * Four blocks then fit one 32-bit set, built in mask registers
 * (kshift/kor), and one scalar step decides: two kmovs and a dozen ALU ops
 * instead of eight kmovs and sixty.
 */
static inline __m512i bytes_reversed_per_lane(__m512i v)
{
    const __m512i rev = _mm512_set4_epi32(0x08090a0b, 0x0c0d0e0f, 0x00010203, 0x04050607);
    return _mm512_shuffle_epi8(v, rev);
}

/* (hi << 8) | lo for 8-bit sets held in mask registers. */
static inline __mmask32 join8(__mmask8 lo, __mmask8 hi)
{
    return _kor_mask32(_kshiftli_mask32((__mmask32)hi, 8), (__mmask32)lo);
}
static inline __mmask32 join16(__mmask32 lo, __mmask32 hi)
{
    return _kor_mask32(_kshiftli_mask32(hi, 16), lo);
}

/* Sign of memcmp over the sequence a0 ++ a1 vs b0 ++ b1. */
static inline int64_t two_sign(__m512i a0, __m512i a1, __m512i b0, __m512i b1)
{
    a0 = bytes_reversed_per_lane(a0), a1 = bytes_reversed_per_lane(a1);
    b0 = bytes_reversed_per_lane(b0), b1 = bytes_reversed_per_lane(b1);
    __mmask32 g = join8(_mm512_cmpgt_epu64_mask(a0, b0), _mm512_cmpgt_epu64_mask(a1, b1));
    __mmask32 l = join8(_mm512_cmplt_epu64_mask(a0, b0), _mm512_cmplt_epu64_mask(a1, b1));
    return ml_ct_sign_gl64(_cvtmask32_u32(g), _cvtmask32_u32(l));
}

/* Sign of memcmp over the sequence a0 ++ a1 ++ a2 ++ a3 vs b0 ++ ... */
static inline __attribute__((always_inline)) int64_t
group_sign(__m512i a0, __m512i a1, __m512i a2, __m512i a3,
           __m512i b0, __m512i b1, __m512i b2, __m512i b3)
{
    a0 = bytes_reversed_per_lane(a0), a1 = bytes_reversed_per_lane(a1);
    a2 = bytes_reversed_per_lane(a2), a3 = bytes_reversed_per_lane(a3);
    b0 = bytes_reversed_per_lane(b0), b1 = bytes_reversed_per_lane(b1);
    b2 = bytes_reversed_per_lane(b2), b3 = bytes_reversed_per_lane(b3);
    __mmask32 g = join16(join8(_mm512_cmpgt_epu64_mask(a0, b0), _mm512_cmpgt_epu64_mask(a1, b1)),
                         join8(_mm512_cmpgt_epu64_mask(a2, b2), _mm512_cmpgt_epu64_mask(a3, b3)));
    __mmask32 l = join16(join8(_mm512_cmplt_epu64_mask(a0, b0), _mm512_cmplt_epu64_mask(a1, b1)),
                         join8(_mm512_cmplt_epu64_mask(a2, b2), _mm512_cmplt_epu64_mask(a3, b3)));
    return ml_ct_sign_gl64(_cvtmask32_u32(g), _cvtmask32_u32(l));
}

/* y | (a ^ b) in one vpternlogq. */
static inline __m512i or_xor(__m512i y, __m512i a, __m512i b)
{
    return _mm512_ternarylogic_epi64(y, a, b, 0xf6);
}

int memlane_timingsafe_memcmp_avx512(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (n <= 64) {
        if (n == 0)
            return 0;
        __mmask64 len = _cvtu64_mask64(~0ull >> (64 - n));
        __m512i a = _mm512_maskz_loadu_epi8(len, p), b = _mm512_maskz_loadu_epi8(len, q);
        return (int)ml_ct_sign_gl64(gt_bits(a, b), lt_bits(a, b));
    }
    if (n <= 128) {
        /* [0, 64) ++ [n - 64, n): the overlap repeats bytes already
         * compared equal when the head has no difference. */
        return (int)two_sign(ld(p), ld(p + n - 64), ld(q), ld(q + n - 64));
    }
    if (n <= 256)
        return (int)group_sign(ld(p), ld(p + 64), ld(p + n - 128), ld(p + n - 64),
                               ld(q), ld(q + 64), ld(q + n - 128), ld(q + n - 64));

    if (n <= 512) {
        /* Two overlapping groups decided side by side: shorter latency
         * than a walk of one step. */
        const unsigned char *pt = p + n - 256, *qt = q + n - 256;
        int64_t r0 = group_sign(ld(p), ld(p + 64), ld(p + 128), ld(p + 192),
                                ld(q), ld(q + 64), ld(q + 128), ld(q + 192));
        int64_t r1 = group_sign(ld(pt), ld(pt + 64), ld(pt + 128), ld(pt + 192),
                                ld(qt), ld(qt + 64), ld(qt + 128), ld(qt + 192));
        return (int)ml_ct_first_nonzero(r0, r1);
    }

    /* The last 256 bytes start the walk; nothing to select yet. */
    const unsigned char *pt = p + n - 256, *qt = q + n - 256;
    __m512i sa0 = ld(pt), sa1 = ld(pt + 64), sa2 = ld(pt + 128), sa3 = ld(pt + 192);
    __m512i sb0 = ld(qt), sb1 = ld(qt + 64), sb2 = ld(qt + 128), sb3 = ld(qt + 192);

    for (size_t i = (n - 1) / 256; i-- > 0;) {
        const unsigned char *pg = p + 256 * i, *qg = q + 256 * i;
        __m512i a0 = ld(pg), a1 = ld(pg + 64), a2 = ld(pg + 128), a3 = ld(pg + 192);
        __m512i b0 = ld(qg), b1 = ld(qg + 64), b2 = ld(qg + 128), b3 = ld(qg + 192);
#if !defined(__clang__)
        /* In registers: else gcc reloads them as masked loads, whose mask
         * would depend on the bytes.  (Not for clang, which keeps them in
         * registers anyway, and after an empty asm would pick the
         * floating-point vmovups for the loads.) */
        ML_CT_ZBARRIER(a0); ML_CT_ZBARRIER(a1); ML_CT_ZBARRIER(a2); ML_CT_ZBARRIER(a3);
        ML_CT_ZBARRIER(b0); ML_CT_ZBARRIER(b1); ML_CT_ZBARRIER(b2); ML_CT_ZBARRIER(b3);
#endif
        __m512i y = _mm512_xor_si512(a0, b0);
        y = or_xor(y, a1, b1);
        y = or_xor(y, a2, b2);
        y = or_xor(y, a3, b3);
        uint32_t lanes = (uint32_t)_mm512_test_epi64_mask(y, y);
        __mmask8 take = (__mmask8)ml_ct_mask32_nonzero(lanes);
        sa0 = _mm512_mask_mov_epi64(sa0, take, a0);
        sa1 = _mm512_mask_mov_epi64(sa1, take, a1);
        sa2 = _mm512_mask_mov_epi64(sa2, take, a2);
        sa3 = _mm512_mask_mov_epi64(sa3, take, a3);
        sb0 = _mm512_mask_mov_epi64(sb0, take, b0);
        sb1 = _mm512_mask_mov_epi64(sb1, take, b1);
        sb2 = _mm512_mask_mov_epi64(sb2, take, b2);
        sb3 = _mm512_mask_mov_epi64(sb3, take, b3);
    }
    return (int)group_sign(sa0, sa1, sa2, sa3, sb0, sb1, sb2, sb3);
}
