/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_bcmp, SSE2: the or of the xors of every 16-byte block; the
 * final test is pcmpeqb against zero and pmovmskb (SSE2 has no ptest).
 * Size classes by n only: scalar words up to 16 bytes, two overlapping
 * vectors up to 32, four up to 64 and six up to 96 (there pcmpeqb and
 * pand, so that one pmovmskb of the "equal" bytes decides); up to 256 no
 * loop: the first 64, 128 or 192 bytes and the last 32 or 64, one tree of
 * ors (shallower than the loop's chain, and at 129-160 bytes ten vectors
 * where the loop would read twelve).  Above, the first 256 bytes in the same
 * way, then the last 32 bytes up to 288, or a loop of four vectors per
 * step and the last 64 bytes, overlapping the loop.
 */
#include <emmintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

/* The or of the xors of 32, 64 or 128 bytes. */
ML_CT_INLINE __m128i xor32b(const unsigned char *p, const unsigned char *q)
{
    return _mm_or_si128(ml_ct_xor16(p, q), ml_ct_xor16(p + 16, q + 16));
}
ML_CT_INLINE __m128i xor64b(const unsigned char *p, const unsigned char *q)
{
    return _mm_or_si128(xor32b(p, q), xor32b(p + 32, q + 32));
}
ML_CT_INLINE __m128i xor128b(const unsigned char *p, const unsigned char *q)
{
    return _mm_or_si128(xor64b(p, q), xor64b(p + 64, q + 64));
}

int memlane_timingsafe_bcmp_sse2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (__builtin_expect(n <= 32, 1)) {
        if (__builtin_expect(n <= 16, 1))
            return ml_ct_bcmp_upto16(p, q, n);
        return ml_ct_bcmp16_32(p, q, n);
    }
    if (n <= 64)
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm_movemask_epi8(
                _mm_and_si128(_mm_and_si128(ml_ct_eq16(p, q), ml_ct_eq16(p + 16, q + 16)),
                              _mm_and_si128(ml_ct_eq16(p + n - 32, q + n - 32),
                                            ml_ct_eq16(p + n - 16, q + n - 16)))),
            16, "33-64");
    if (n <= 96)
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm_movemask_epi8(_mm_and_si128(
                _mm_and_si128(_mm_and_si128(ml_ct_eq16(p, q), ml_ct_eq16(p + 16, q + 16)),
                              _mm_and_si128(ml_ct_eq16(p + 32, q + 32),
                                            ml_ct_eq16(p + 48, q + 48))),
                _mm_and_si128(ml_ct_eq16(p + n - 32, q + n - 32),
                              ml_ct_eq16(p + n - 16, q + n - 16)))),
            16, "65-96");
    if (n <= 128)
        return ml_ct_nonzero16(
            _mm_or_si128(xor64b(p, q), xor64b(p + n - 64, q + n - 64)));
    if (n <= 160)
        return ml_ct_nonzero16(
            _mm_or_si128(xor128b(p, q), xor32b(p + n - 32, q + n - 32)));
    if (n <= 192)
        return ml_ct_nonzero16(
            _mm_or_si128(xor128b(p, q), xor64b(p + n - 64, q + n - 64)));
    if (n <= 256)
        return ml_ct_nonzero16(
            _mm_or_si128(xor128b(p, q), _mm_or_si128(xor64b(p + 128, q + 128),
                                                     xor64b(p + n - 64, q + n - 64))));

    __m128i head = _mm_or_si128(xor128b(p, q), xor128b(p + 128, q + 128));
    if (n <= 288)
        return ml_ct_nonzero16(_mm_or_si128(head, xor32b(p + n - 32, q + n - 32)));
    __m128i acc0 = head, acc1 = _mm_setzero_si128();
    size_t last = n - 64;
    for (size_t i = 256; i < last; i += 64) {
        acc0 = _mm_or_si128(acc0, ml_ct_xor16(p + i, q + i));
        acc1 = _mm_or_si128(acc1, ml_ct_xor16(p + i + 16, q + i + 16));
        acc0 = _mm_or_si128(acc0, ml_ct_xor16(p + i + 32, q + i + 32));
        acc1 = _mm_or_si128(acc1, ml_ct_xor16(p + i + 48, q + i + 48));
    }
    acc0 = _mm_or_si128(acc0, ml_ct_xor16(p + last, q + last));
    acc1 = _mm_or_si128(acc1, ml_ct_xor16(p + last + 16, q + last + 16));
    acc0 = _mm_or_si128(acc0, ml_ct_xor16(p + last + 32, q + last + 32));
    acc1 = _mm_or_si128(acc1, ml_ct_xor16(p + last + 48, q + last + 48));
    return ml_ct_nonzero16(_mm_or_si128(acc0, acc1));
}
