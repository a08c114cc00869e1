/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, SSE2.
 *
 * Each 64-byte piece (four 16-byte vectors) gives two 64-bit bit-sets,
 * from pcmpeqb/pmaxub and pmovmskb: "equal" (bit i: byte i equal) and
 * "less or equal" (a <= b).  The sign of the first difference is whether
 * "less or equal" owns the lowest clear bit of "equal" (ct_x86.h).  Size
 * classes by n only: scalar words below 8 bytes; one vector composed of
 * the first and last 8 bytes up to 16; the first and last 16 bytes up to
 * 32; the first and last 32 bytes up to 64 (composed sequences: when the
 * head is equal, the repeated bytes of the tail are equal too, so the
 * first difference of the composition is the true one).  Above 64 bytes a
 * loop walks the 64-byte pieces from the end to the start, the last 64
 * bytes first, and keeps the bit-sets of every piece that differs with
 * cmov: the piece kept last is the first that differs.
 */
#include <emmintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

ML_CT_INLINE __m128i ld(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Bit-sets of p[0..32) ++ p[off..off+32) against the same of q. */
ML_CT_INLINE void piece(const unsigned char *p, const unsigned char *q, size_t off,
                        uint64_t *eq, uint64_t *le)
{
    __m128i a0 = ld(p), a1 = ld(p + 16), a2 = ld(p + off), a3 = ld(p + off + 16);
    __m128i b0 = ld(q), b1 = ld(q + 16), b2 = ld(q + off), b3 = ld(q + off + 16);
    *eq = ml_ct_eq_bits16(a0, b0) | ml_ct_eq_bits16(a1, b1) << 16 |
          ml_ct_eq_bits16(a2, b2) << 32 | ml_ct_eq_bits16(a3, b3) << 48;
    *le = ml_ct_le_bits16(a0, b0) | ml_ct_le_bits16(a1, b1) << 16 |
          ml_ct_le_bits16(a2, b2) << 32 | ml_ct_le_bits16(a3, b3) << 48;
}

int memlane_timingsafe_memcmp_sse2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;
    uint64_t eq, le;

    if (n <= 32)
        return ml_ct_memcmp_upto32_scalar(p, q, n);
    if (n <= 64) {
        piece(p, q, n - 32, &eq, &le);
        return (int)ml_ct_sign_of_masks(~eq, le);
    }

    piece(p + n - 64, q + n - 64, 32, &eq, &le);
    for (size_t i = (n - 1) / 64; i-- > 0;) {
        uint64_t e, l;
        piece(p + 64 * i, q + 64 * i, 32, &e, &l);
        ml_ct_cmov2_nz(~e, &eq, e, &le, l);
    }
    return (int)ml_ct_sign_of_masks(~eq, le);
}
