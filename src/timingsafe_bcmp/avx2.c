/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_bcmp, AVX2: the or of the xors of every 32-byte block and a
 * single test at the end.  Size classes by n only: scalar words up to 16
 * bytes, two overlapping 16-byte vectors up to 32, two 32-byte vectors up
 * to 64, four up to 128 (below 129 bytes vpcmpeqb and vpand, so that one
 * vpmovmskb of the "equal" bytes decides), eight up to 256 (no loop).
 * Up to 320 the first 256 bytes as one tree of ors and the last 32 or 64;
 * above, the first 128 bytes, a loop of two vectors per step from 128 and
 * the last 128 bytes, overlapping the loop.  No byte outside the buffers
 * is read.
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

/* The or of the xors of 128 bytes. */
ML_CT_INLINE __m256i xor128b(const unsigned char *p, const unsigned char *q)
{
    return _mm256_or_si256(
        _mm256_or_si256(ml_ct_xor32(p, q), ml_ct_xor32(p + 32, q + 32)),
        _mm256_or_si256(ml_ct_xor32(p + 64, q + 64), ml_ct_xor32(p + 96, q + 96)));
}

int memlane_timingsafe_bcmp_avx2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (__builtin_expect(n <= 32, 1)) {
        if (__builtin_expect(n <= 16, 1))
            return ml_ct_bcmp_upto16(p, q, n);
        return ml_ct_bcmp16_32(p, q, n);
    }
    if (n <= 64)
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm256_movemask_epi8(
                _mm256_and_si256(ml_ct_eq32(p, q), ml_ct_eq32(p + n - 32, q + n - 32))),
            32, "33-64");
    if (n <= 128)
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
                _mm256_and_si256(ml_ct_eq32(p, q), ml_ct_eq32(p + 32, q + 32)),
                _mm256_and_si256(ml_ct_eq32(p + n - 64, q + n - 64),
                                 ml_ct_eq32(p + n - 32, q + n - 32)))),
            32, "65-128");
    if (n <= 256)
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
                _mm256_or_si256(xor128b(p, q), xor128b(p + n - 128, q + n - 128)),
                _mm256_setzero_si256())),
            32, "129-256");

    if (n <= 320) {
        __m256i head = _mm256_or_si256(xor128b(p, q), xor128b(p + 128, q + 128));
        if (n <= 288)
            return ml_ct_nonzero32(
                _mm256_or_si256(head, ml_ct_xor32(p + n - 32, q + n - 32)));
        return ml_ct_nonzero32(
            _mm256_or_si256(head, _mm256_or_si256(ml_ct_xor32(p + n - 64, q + n - 64),
                                                  ml_ct_xor32(p + n - 32, q + n - 32))));
    }
    __m256i acc0 = xor128b(p, q), acc1 = _mm256_setzero_si256();
    size_t last = n - 128, i = 128;
    /* n > 320, so the loop runs at least once: as a for loop, gcc copied
     * both accumulators on every step for the case that it does not */
    do {
        acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + i, q + i));
        acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + i + 32, q + i + 32));
        i += 64;
    } while (i < last);
    acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + last, q + last));
    acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + last + 32, q + last + 32));
    acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + last + 64, q + last + 64));
    acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + last + 96, q + last + 96));
    return ml_ct_nonzero32(_mm256_or_si256(acc0, acc1));
}
