/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, AVX-512 (F/BW/VL): constant time at memcmp speed.
 *
 * Size classes by n (the only branches): up to 16 bytes big-endian words
 * and up to 32 two 16-byte blocks in general-purpose registers (ct_x86.h);
 * up to 64 one masked 64-byte block (the mask comes from n; masked-off
 * bytes are never read); up to 512 two to eight blocks without a loop,
 * the last one ending at n (span_sign); above that a loop over 256-byte
 * groups.
 *
 * The loop xors each group's blocks, ors the four xors into one vector
 * (vpternlogq) and asks which 8-byte lanes differ anywhere in the group
 * (one vptestmq into a mask register).  Masked register moves copy those
 * lanes of the group's eight vectors into eight saved registers, and the
 * group's number into a per-lane record (no memory access depends on the
 * mask), so each lane ends holding the first group that differs in it.
 * Every lane starts with the last 256 bytes, numbered after all whole
 * groups; they overlap the group before them, and any difference in the
 * overlap is also seen by that earlier group.  After the loop the
 * smallest group number among the lanes is the first group that differs,
 * and only its lanes count.  The expensive part -- "greater" and "less"
 * sets, the sign -- runs once, on the saved vectors.
 *
 * Up to 16 KiB the walk goes from the end to the start: each group simply
 * overwrites the lanes it differs in, and the last write is the first
 * group.  Above, where two buffers no longer fit a 32 KiB L1 data cache,
 * it goes from the start, which measured much faster there; it then takes
 * only the lanes no earlier group differed in (two mask operations more
 * a group), which measured slower in L1 (docs/timingsafe.md).
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"

/* Fully unrolled loops over constant counts (clang does not take gcc's
 * pragma; left rolled, it vectorises them with instructions off the
 * allow-list). */
#if defined(__clang__)
#define ML_UNROLL _Pragma("clang loop unroll(full)")
#else
#define ML_UNROLL _Pragma("GCC unroll 8")
#endif

/* Blocks of 64 bytes per group of the loop: the group's vectors and their
 * saved copies must all fit in the 32 registers. */
#define GROUP_BLOCKS 4 /* group_sign_lanes takes four */
#define GROUP (64 * GROUP_BLOCKS)
/* The walk goes backwards up to this n, forwards above (see the top). */
#define BACKWARD_UPTO 16384

ML_CT_INLINE uint64_t gt_bits(__m512i a, __m512i b)
{
    return _cvtmask64_u64(_mm512_cmpgt_epu8_mask(a, b));
}
ML_CT_INLINE uint64_t lt_bits(__m512i a, __m512i b)
{
    return _cvtmask64_u64(_mm512_cmplt_epu8_mask(a, b));
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
ML_CT_INLINE __m512i bytes_reversed_per_lane(__m512i v)
{
    const __m512i rev = _mm512_set4_epi32(0x08090a0b, 0x0c0d0e0f, 0x00010203, 0x04050607);
    return _mm512_shuffle_epi8(v, rev);
}

/* (hi << 8) | lo for 8-bit sets held in mask registers. */
ML_CT_INLINE __mmask32 join8(__mmask8 lo, __mmask8 hi)
{
    return _kor_mask32(_kshiftli_mask32((__mmask32)hi, 8), (__mmask32)lo);
}
ML_CT_INLINE __mmask32 join16(__mmask32 lo, __mmask32 hi)
{
    return _kor_mask32(_kshiftli_mask32(hi, 16), lo);
}

/* Per 8-byte lane: a > b, a < b in memcmp's order. */
ML_CT_INLINE __mmask8 gt_lanes(__m512i a, __m512i b)
{
    return _mm512_cmpgt_epu64_mask(bytes_reversed_per_lane(a),
                                   bytes_reversed_per_lane(b));
}
ML_CT_INLINE __mmask8 lt_lanes(__m512i a, __m512i b)
{
    return _mm512_cmplt_epu64_mask(bytes_reversed_per_lane(a),
                                   bytes_reversed_per_lane(b));
}

/* "greater"/"less" sets of up to four blocks, 8 bits each, block 0
 * lowest, joined as a tree (a chain of kshift/kor is slower). */
ML_CT_INLINE void sets4(const unsigned char *p, const unsigned char *q, const size_t *off,
                        int count, uint32_t *g, uint32_t *l)
{
    __mmask8 gk[4], lk[4];
    ML_UNROLL
    for (int k = 0; k < count; k++) {
        __m512i a = ml_ct_ld64(p + off[k]), b = ml_ct_ld64(q + off[k]);
        gk[k] = gt_lanes(a, b);
        lk[k] = lt_lanes(a, b);
    }
    __mmask32 gm, lm;
    if (count == 1) {
        gm = gk[0], lm = lk[0];
    } else if (count == 2) {
        gm = join8(gk[0], gk[1]), lm = join8(lk[0], lk[1]);
    } else if (count == 3) {
        gm = join16(join8(gk[0], gk[1]), gk[2]);
        lm = join16(join8(lk[0], lk[1]), lk[2]);
    } else {
        /* two halves through general registers: shorter than a second
         * level of kshift/kor */
        *g = _cvtmask32_u32(join8(gk[0], gk[1])) | _cvtmask32_u32(join8(gk[2], gk[3]))
                                                       << 16;
        *l = _cvtmask32_u32(join8(lk[0], lk[1])) | _cvtmask32_u32(join8(lk[2], lk[3]))
                                                       << 16;
        return;
    }
    *g = _cvtmask32_u32(gm);
    *l = _cvtmask32_u32(lm);
}

/*
 * Sign of memcmp over 64 < n <= 512 bytes, as `count` = ceil(n / 64)
 * blocks: at 0, 64, ..., and the last one at n - 64, overlapping the one
 * before it (when the earlier blocks are equal, the repeated bytes are
 * equal too, so the first difference of the sequence of blocks is the
 * true one).  One 8-bit set per block, all in one 64-bit integer.
 */
ML_CT_INLINE int64_t span_sign(const unsigned char *p, const unsigned char *q, size_t n,
                               int count)
{
    size_t off[8];
    ML_UNROLL
    for (int k = 0; k < count - 1; k++)
        off[k] = 64 * (size_t)k;
    off[count - 1] = n - 64;
    uint32_t g_lo, l_lo, g_hi = 0, l_hi = 0;
    sets4(p, q, off, count < 4 ? count : 4, &g_lo, &l_lo);
    if (count > 4)
        sets4(p, q, off + 4, count - 4, &g_hi, &l_hi);
    return ml_ct_sign_gl64(g_lo | (uint64_t)g_hi << 32, l_lo | (uint64_t)l_hi << 32);
}

/* Sign of memcmp over the sequence a0 ++ a1 ++ a2 ++ a3 vs b0 ++ ...,
 * looking only at the 8-byte lanes in `lanes` (the others count as
 * equal). */
ML_CT_INLINE int64_t group_sign_lanes(__mmask8 lanes, const __m512i *a, const __m512i *b)
{
    uint32_t g = _cvtmask32_u32(join8(gt_lanes(a[0], b[0]), gt_lanes(a[1], b[1]))) |
                 _cvtmask32_u32(join8(gt_lanes(a[2], b[2]), gt_lanes(a[3], b[3]))) << 16;
    uint32_t l = _cvtmask32_u32(join8(lt_lanes(a[0], b[0]), lt_lanes(a[1], b[1]))) |
                 _cvtmask32_u32(join8(lt_lanes(a[2], b[2]), lt_lanes(a[3], b[3]))) << 16;
    uint32_t every = _cvtmask32_u32((__mmask32)lanes) * 0x01010101u;
    return ml_ct_sign_gl64(g & every, l & every);
}

/* Every lane set to the smallest lane of v (unsigned).  The second
 * operand of each vshufi64x2 is a copy the compiler cannot see through:
 * with both operands the same register, clang rewrites the shuffle as a
 * vpermq, which is not on the allow-list. */
ML_CT_INLINE __m512i min_of_lanes(__m512i v)
{
    __m512i w = v;
    ML_CT_ZBARRIER(w);
    v = _mm512_min_epu64(v, _mm512_shuffle_i64x2(v, w, 0x4e)); /* 256-bit halves */
    w = v;
    ML_CT_ZBARRIER(w);
    v = _mm512_min_epu64(v, _mm512_shuffle_i64x2(v, w, 0xb1)); /* 128-bit quarters */
    return _mm512_min_epu64(v, _mm512_shuffle_epi32(v, 0x4e)); /* 64-bit lanes */
}

/* The group of GROUP bytes at p and q into a and b; returns which 8-byte
 * lanes differ in any of its blocks (their xors ored by vpternlogq, one
 * vptestmq). */
ML_CT_INLINE __mmask8 load_group(const unsigned char *p, const unsigned char *q,
                                 __m512i *a, __m512i *b)
{
    ML_UNROLL
    for (int k = 0; k < GROUP_BLOCKS; k++) {
        a[k] = ml_ct_ld64(p + 64 * k);
        b[k] = ml_ct_ld64(q + 64 * k);
#if !defined(__clang__)
        /* In registers: else gcc reloads them as masked loads, whose
         * mask would depend on the bytes.  (Not for clang, which keeps
         * them in registers anyway, and after an empty asm would pick
         * the floating-point vmovups for the loads.) */
        ML_CT_ZBARRIER(a[k]);
        ML_CT_ZBARRIER(b[k]);
#endif
    }
    __m512i y = _mm512_xor_si512(a[0], b[0]);
    ML_UNROLL
    for (int k = 1; k < GROUP_BLOCKS; k++)
        y = ml_ct_or_xor64(y, a[k], b[k]);
    return _mm512_test_epi64_mask(y, y);
}

/* The lanes in `take` of the group (a, b), numbered `group`, replace the
 * saved ones (masked register moves). */
ML_CT_INLINE void keep_lanes(__mmask8 take, const __m512i *a, const __m512i *b,
                             __m512i group, __m512i *sa, __m512i *sb,
                             __m512i *group_of_lane)
{
    ML_UNROLL
    for (int k = 0; k < GROUP_BLOCKS; k++) {
        sa[k] = _mm512_mask_mov_epi64(sa[k], take, a[k]);
        sb[k] = _mm512_mask_mov_epi64(sb[k], take, b[k]);
    }
    *group_of_lane = _mm512_mask_mov_epi64(*group_of_lane, take, group);
}

/* n > 512: the loop over the groups, then the first differing group's
 * sign. */
ML_CT_INLINE int memcmp_above512(const unsigned char *p, const unsigned char *q, size_t n)
{
    /* Every lane starts with the last GROUP bytes, numbered `groups`,
     * the count of whole groups before them (opaque: else clang divides
     * the broadcast vector, with vpsrlq). */
    size_t groups = (size_t)ml_ct_barrier((n - 1) / GROUP);
    __m512i sa[GROUP_BLOCKS], sb[GROUP_BLOCKS], a[GROUP_BLOCKS], b[GROUP_BLOCKS];
    ML_UNROLL
    for (int k = 0; k < GROUP_BLOCKS; k++) {
        sa[k] = ml_ct_ld64(p + n - GROUP + 64 * k);
        sb[k] = ml_ct_ld64(q + n - GROUP + 64 * k);
    }
    __m512i group_of_lane = _mm512_set1_epi64((long long)groups);

    if (n <= BACKWARD_UPTO) {
        __m512i group = group_of_lane, one = _mm512_set1_epi64(1);
        for (size_t i = groups; i-- > 0;) {
            __mmask8 differ = load_group(p + GROUP * i, q + GROUP * i, a, b);
            group = _mm512_sub_epi64(group, one);
            /* a vector counter: else clang rebuilds it from the loop index
             * (vpbroadcastq, vpsrlq) and selects it with vpblendmq */
            ML_CT_ZBARRIER(group);
            keep_lanes(differ, a, b, group, sa, sb, &group_of_lane);
        }
    } else {
        /* opaque: clang otherwise adds 1 as a vpsubq of all ones */
        __m512i group = _mm512_setzero_si512(),
                one = _mm512_set1_epi64((long long)ml_ct_barrier(1));
        __mmask16 fresh = 0xff; /* the lanes no group has differed in yet */
        for (size_t i = 0; i < groups; i++) {
            __mmask8 differ = load_group(p + GROUP * i, q + GROUP * i, a, b);
            __mmask16 take = _mm512_kand(fresh, differ);
            fresh = _mm512_kxor(fresh, take);
            keep_lanes((__mmask8)take, a, b, group, sa, sb, &group_of_lane);
            group = _mm512_add_epi64(group, one);
            ML_CT_ZBARRIER(group);
        }
    }

    /* The first group that differs is the smallest group number of any
     * lane; lanes saved from later groups were equal in it. */
    __m512i first = min_of_lanes(group_of_lane);
    __mmask8 lanes = _mm512_cmpeq_epu64_mask(group_of_lane, first);
    return (int)group_sign_lanes(lanes, sa, sb);
}

/* n > 256: five to eight blocks, or the groups above 512 (one function
 * out of line under clang: see ML_CT_OUTLINE_CLANG). */
ML_CT_OUTLINE_CLANG int memcmp_above256(const unsigned char *p, const unsigned char *q,
                                        size_t n)
{
    if (n <= 320)
        return (int)span_sign(p, q, n, 5);
    if (n <= 384)
        return (int)span_sign(p, q, n, 6);
    if (n <= 448)
        return (int)span_sign(p, q, n, 7);
    if (n <= 512)
        return (int)span_sign(p, q, n, 8);
    return memcmp_above512(p, q, n);
}

int memlane_timingsafe_memcmp_avx512(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (__builtin_expect(n <= 16, 1))
        return ml_ct_memcmp_upto16(p, q, n);
    if (n <= 32)
        return ml_ct_memcmp_blocks(p, q, n);
    if (n <= 64) {
        __mmask64 len = _cvtu64_mask64(~0ull >> (64 - n));
        __m512i a = _mm512_maskz_loadu_epi8(len, p), b = _mm512_maskz_loadu_epi8(len, q);
        return (int)ml_ct_sign_gl64(gt_bits(a, b), lt_bits(a, b));
    }
    /* if-chain, not a switch: no jump table (an indirect jump) */
    if (n <= 128)
        return (int)span_sign(p, q, n, 2);
    if (n <= 192)
        return (int)span_sign(p, q, n, 3);
    if (n <= 256)
        return (int)span_sign(p, q, n, 4);
    return memcmp_above256(p, q, n);
}
