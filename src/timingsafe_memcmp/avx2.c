/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, AVX2.
 *
 * Each 64-byte piece gives two 64-bit bit-sets, from vpcmpeqb/vpmaxub and
 * vpmovmskb: "equal" (bit i: byte i equal) and "less or equal" (a <= b).
 * The sign of the first difference is whether "less or equal" owns the
 * lowest clear bit of "equal" (ct_x86.h).  Size classes by n only: scalar
 * words below 8 bytes; one 16-byte vector composed of the first and last
 * 8 bytes up to 16; the first and last 16 bytes up to 32; the first and
 * last 32 bytes up to 64 (the composed sequences: when the head is equal,
 * the repeated bytes of the tail are equal too, so the first difference of
 * the composition is the true one).
 *
 * Above 64 bytes a loop walks the 64-byte pieces from the end to the
 * start, the last 64 bytes first.  Per piece it only xors, ors the two
 * xors and asks which 8-byte lanes differ (vpcmpeqq against zero); with
 * that vector as the mask, one vpblendvb per vector keeps the piece's
 * bytes in the lanes that differ (lane by lane, no round trip through a
 * general register), and one vpmovmskb + cmov remembers which lanes the
 * last differing piece had.  Walking backwards, those are the lanes of the
 * first piece that differs, and they hold its bytes; the other lanes hold
 * later pieces, which were equal in it there, and are masked out.  The
 * bit-sets and the sign are computed once, at the end.  Nine vector
 * operations per 64 bytes (two vpxor, vpor, vpcmpeqq, four vpblendvb,
 * vpmovmskb) besides the four loads.
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

ML_CT_INLINE __m256i ld(const unsigned char *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

ML_CT_INLINE uint64_t eq_bits32(__m256i a, __m256i b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b));
}
ML_CT_INLINE uint64_t le_bits32(__m256i a, __m256i b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(a, b), b));
}

/* Bit-sets of the 64 bytes p[0..32) ++ p[off..off+32) against q. */
ML_CT_INLINE void piece(const unsigned char *p, const unsigned char *q, size_t off,
                        uint64_t *eq, uint64_t *le)
{
    __m256i a0 = ld(p), b0 = ld(q), a1 = ld(p + off), b1 = ld(q + off);
    *eq = eq_bits32(a0, b0) | eq_bits32(a1, b1) << 32;
    *le = le_bits32(a0, b0) | le_bits32(a1, b1) << 32;
}

int memlane_timingsafe_memcmp_avx2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;
    uint64_t eq, le;

    if (__builtin_expect(n <= 16, 1))
        return ml_ct_memcmp_upto16(p, q, n);
    if (n <= 32)
        return ml_ct_memcmp_blocks(p, q, n);
    if (n <= 64) {
        piece(p, q, n - 32, &eq, &le);
        return (int)ml_ct_sign_of_masks(~eq, le);
    }

    /* The last 64 bytes start the walk: every lane holds them.  Saved
     * and new vectors in the order a[0..32), a[32..64), b[0..32), b[32..64). */
    __m256i s[4] = {ld(p + n - 64), ld(p + n - 32), ld(q + n - 64), ld(q + n - 32)};
    uint64_t lanes = 0xffffffffu;
    for (size_t i = (n - 1) / 64; i-- > 0;) {
        const unsigned char *pg = p + 64 * i, *qg = q + 64 * i;
        __m256i v[4] = {ld(pg), ld(pg + 32), ld(qg), ld(qg + 32)};
#if !defined(__clang__)
        /* in registers: else gcc loads each vector twice, for the compare
         * and for the blend */
        for (int k = 0; k < 4; k++)
            ML_CT_VBARRIER(v[k]);
#endif
        /* all ones in the 8-byte lanes where this piece has no difference */
        __m256i same =
            _mm256_and_si256(_mm256_cmpeq_epi64(v[0], v[2]), _mm256_cmpeq_epi64(v[1], v[3]));
        ML_CT_VBARRIER(same);
        ml_ct_replace_unless256x4(s, v, same);
        uint64_t differ = (uint32_t)~_mm256_movemask_epi8(same);
        ml_ct_cmov_nz(differ, &lanes, differ);
    }
    /* Lanes saved from later pieces were equal in the first piece that
     * differs: count them as equal. */
    eq = eq_bits32(s[0], s[2]) | eq_bits32(s[1], s[3]) << 32;
    le = le_bits32(s[0], s[2]) | le_bits32(s[1], s[3]) << 32;
    return (int)ml_ct_sign_of_masks(~eq & (lanes | lanes << 32), le);
}
