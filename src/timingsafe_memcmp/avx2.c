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
 * difference of the composition is the true one).
 *
 * Above, the pieces from the start to the end, the last one ending at n:
 * the bit-sets of each replace the kept pair while the kept "equal" has
 * every bit set (cmp + two cmove), so the pair kept is the first
 * differing piece's.  Ten vector operations per 64 bytes (two vpcmpeqb,
 * two vpmaxub + vpcmpeqb, four vpmovmskb) besides the four loads, and
 * about eight integer ones.  Forwards, because it measured faster at every
 * size above 128 bytes than this loop walked backwards and than the
 * lane-select loop it replaced (docs/timingsafe.md).
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
    uint64_t eq, le, e, l;

    if (__builtin_expect(n <= 16, 1))
        return ml_ct_memcmp_upto16(p, q, n);
    if (n <= 32)
        return ml_ct_memcmp_blocks(p, q, n);
    if (n <= 64) {
        piece(p, q, n - 32, &eq, &le);
        return (int)ml_ct_sign_of_masks(~eq, le);
    }

    /* The pieces below the last 64 bytes (none up to 128), then the last
     * 64 bytes: if every earlier piece is equal, so is their overlap. */
    piece(p, q, 32, &eq, &le);
    for (size_t off = 64; off < n - 64; off += 64) {
        piece(p + off, q + off, 32, &e, &l);
        ml_ct_cmov2_all_ones(&eq, e, &le, l);
    }
    piece(p + n - 64, q + n - 64, 32, &e, &l);
    ml_ct_cmov2_all_ones(&eq, e, &le, l);
    return (int)ml_ct_sign_of_masks(~eq, le);
}
