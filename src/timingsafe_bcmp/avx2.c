/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_bcmp, AVX2: the or of the xors of every 32-byte block and a
 * single test at the end.  Size classes by n only: scalar words up to 16
 * bytes, two overlapping 16-byte vectors up to 32, two 32-byte vectors up
 * to 64, four up to 128 (below 129 bytes vpcmpeqb and vpand, so that one
 * vpmovmskb of the "equal" bytes decides), eight up to 256 (no loop),
 * then a loop of two vectors per step and the last 128 bytes, overlapping
 * the loop.  No byte outside the buffers is read.
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"
#include "ops_scalar.h"

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
    if (n <= 256) {
        __m256i x0 = _mm256_or_si256(ml_ct_xor32(p, q), ml_ct_xor32(p + 32, q + 32));
        __m256i x1 =
            _mm256_or_si256(ml_ct_xor32(p + 64, q + 64), ml_ct_xor32(p + 96, q + 96));
        __m256i x2 = _mm256_or_si256(ml_ct_xor32(p + n - 128, q + n - 128),
                                     ml_ct_xor32(p + n - 96, q + n - 96));
        __m256i x3 = _mm256_or_si256(ml_ct_xor32(p + n - 64, q + n - 64),
                                     ml_ct_xor32(p + n - 32, q + n - 32));
        return ML_CT_NOT_ALL_ONES_TAG(
            (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
                _mm256_or_si256(_mm256_or_si256(x0, x1), _mm256_or_si256(x2, x3)),
                _mm256_setzero_si256())),
            32, "129-256");
    }

    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    size_t last = n - 128;
    /* two vectors a step: the loop and the last 128 bytes then overlap by
     * at most 63 bytes, not 127 (docs/timingsafe-results.md) */
    for (size_t i = 0; i < last; i += 64) {
        acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + i, q + i));
        acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + i + 32, q + i + 32));
    }
    acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + last, q + last));
    acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + last + 32, q + last + 32));
    acc0 = _mm256_or_si256(acc0, ml_ct_xor32(p + last + 64, q + last + 64));
    acc1 = _mm256_or_si256(acc1, ml_ct_xor32(p + last + 96, q + last + 96));
    return ml_ct_nonzero32(_mm256_or_si256(acc0, acc1));
}
