/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, AVX2.
 *
 * Each 64-byte piece gives two 64-bit bit-sets, from vpcmpeqb/vpmaxub and
 * vpmovmskb: "equal" (bit i: byte i equal) and "less or equal" (a <= b).
 * The sign of the first difference is whether "less or equal" owns the
 * lowest clear bit of "equal" (ct_x86.h).  Size classes by n only: up
 * to 16 bytes big-endian words in general-purpose registers, up to 32
 * 16-byte blocks there (ml_ct_memcmp_upto16, ml_ct_memcmp_blocks); up to
 * 64 the first and last 32 bytes (a composed sequence: when the head is
 * equal, the repeated bytes of the tail are equal too, so the first
 * difference of the composition is the true one); up to 128 the first and
 * last 64 bytes as two pieces, the head's bit-sets kept by cmov if it
 * differs.
 *
 * Above 128 bytes (but from 1 KiB to 32 KiB, where the loop below keeps the
 * bit-sets of every piece instead) a loop walks the 64-byte pieces from the
 * end to the start, the last 64 bytes first.  Per piece it only asks which
 * 8-byte lanes differ (vpcmpeqq of each half, vpand of the two); with that
 * vector as the mask, and/andn/or keep the piece's bytes in the lanes that
 * differ (lane by lane, no round trip through a general register), and one
 * vpmovmskb + cmov remembers which lanes the last differing piece had.
 * Walking backwards, those are the lanes of the first piece that differs,
 * and they hold its bytes; the other lanes hold later pieces, which were
 * equal in it there, and are masked out.  The bit-sets and the sign are
 * computed once, at the end.  Sixteen vector operations per 64 bytes (two
 * vpcmpeqq, vpand, four selects of three, vpmovmskb) besides the four
 * loads: vpblendvb would make a select one operation, but it is not on the
 * allow-list (docs/constant-time.md).
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

ML_CT_INLINE uint64_t eq_bits32(__m256i a, __m256i b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b));
}
ML_CT_INLINE uint64_t le_bits32(__m256i a, __m256i b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(a, b), b));
}

/* same ? kept : v, bitwise (vpand, vpandn, vpor).  The barrier on same
 * keeps compilers from turning the three into a blend. */
ML_CT_INLINE __m256i select_same(__m256i same, __m256i kept, __m256i v)
{
    return _mm256_or_si256(_mm256_and_si256(same, kept), _mm256_andnot_si256(same, v));
}

/* Bit-sets of the 64 bytes p[0..32) ++ p[off..off+32) against q. */
ML_CT_INLINE void piece(const unsigned char *p, const unsigned char *q, size_t off,
                        uint64_t *eq, uint64_t *le)
{
    __m256i a0 = ml_ct_ld32(p), b0 = ml_ct_ld32(q), a1 = ml_ct_ld32(p + off),
            b1 = ml_ct_ld32(q + off);
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

    if (n <= 128) {
        /* The first and the last 64 bytes: the head's bit-sets if it
         * differs, else the tail's (their overlap is then equal). */
        uint64_t e, l;
        piece(p + n - 64, q + n - 64, 32, &eq, &le);
        piece(p, q, 32, &e, &l);
        ml_ct_cmov2_nz(~e, &eq, e, &le, l);
        return (int)ml_ct_sign_of_masks(~eq, le);
    }
    if (n > 1024 && n <= 32768) {
        /* Bit-sets of every piece, those of a differing piece kept with
         * cmov (ten vector operations per 64 bytes, four of them
         * vpmovmskb): faster than the lane selects below from 2 KiB
         * while both buffers fit in L1, slower above (docs/timingsafe.md). */
        piece(p + n - 64, q + n - 64, 32, &eq, &le);
        for (size_t i = (n - 1) / 64; i-- > 0;) {
            uint64_t e, l;
            piece(p + 64 * i, q + 64 * i, 32, &e, &l);
            ml_ct_cmov2_nz(~e, &eq, e, &le, l);
        }
        return (int)ml_ct_sign_of_masks(~eq, le);
    }

    /* The last 64 bytes start the walk: every lane holds them. */
    __m256i sa0 = ml_ct_ld32(p + n - 64), sa1 = ml_ct_ld32(p + n - 32);
    __m256i sb0 = ml_ct_ld32(q + n - 64), sb1 = ml_ct_ld32(q + n - 32);
    uint64_t lanes = 0xffffffffu;
    for (size_t i = (n - 1) / 64; i-- > 0;) {
        const unsigned char *pg = p + 64 * i, *qg = q + 64 * i;
        __m256i a0 = ml_ct_ld32(pg), a1 = ml_ct_ld32(pg + 32), b0 = ml_ct_ld32(qg),
                b1 = ml_ct_ld32(qg + 32);
        /* all ones in the 8-byte lanes where this piece has no difference */
        __m256i same =
            _mm256_and_si256(_mm256_cmpeq_epi64(a0, b0), _mm256_cmpeq_epi64(a1, b1));
        ML_CT_VBARRIER(same);
        sa0 = select_same(same, sa0, a0);
        sa1 = select_same(same, sa1, a1);
        sb0 = select_same(same, sb0, b0);
        sb1 = select_same(same, sb1, b1);
        uint64_t differ = (uint32_t)~_mm256_movemask_epi8(same);
        ml_ct_cmov_nz(differ, &lanes, differ);
    }
    /* Lanes saved from later pieces were equal in the first piece that
     * differs: count them as equal. */
    eq = eq_bits32(sa0, sb0) | eq_bits32(sa1, sb1) << 32;
    le = le_bits32(sa0, sb0) | le_bits32(sa1, sb1) << 32;
    return (int)ml_ct_sign_of_masks(~eq & (lanes | lanes << 32), le);
}
