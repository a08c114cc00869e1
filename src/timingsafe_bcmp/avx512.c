/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_bcmp, AVX-512 (F/BW/VL): the or of the xors of every block,
 * one vpternlogq per block, and a single test at the end.  Size classes
 * by n only: one masked 32-byte vector up to 32 bytes (vpcmpneqb into a
 * mask), one masked 64-byte block up to 64 bytes (the masks come from n;
 * masked-off bytes are not read), two overlapping 64-byte blocks up to
 * 128, four up to 256; above, 32-byte vectors: a loop of four per 128-byte
 * step into two accumulators, then one to four for the rest, the last
 * ending at n.
 */
#include <immintrin.h>

#include "ct.h"
#include "ct_x86.h"
#include "internal.h"

int memlane_timingsafe_bcmp_avx512(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (__builtin_expect(n <= 32, 1)) {
        __mmask32 len = (__mmask32)(((uint64_t)1 << n) - 1);
        __m256i a = _mm256_maskz_loadu_epi8(len, p), b = _mm256_maskz_loadu_epi8(len, q);
        return ML_CT_NONZERO_CF(_cvtmask32_u32(_mm256_cmpneq_epu8_mask(a, b)), "0-32");
    }
    if (n <= 64) {
        __mmask64 len = _cvtu64_mask64(~0ull >> (64 - n));
        return ml_ct_nonzero64(_mm512_xor_si512(_mm512_maskz_loadu_epi8(len, p),
                                                _mm512_maskz_loadu_epi8(len, q)));
    }
    if (n <= 128)
        return ml_ct_nonzero64(
            ml_ct_or_xor64(_mm512_xor_si512(ml_ct_ld64(p), ml_ct_ld64(q)),
                           ml_ct_ld64(p + n - 64), ml_ct_ld64(q + n - 64)));
    if (n <= 256) {
        __m512i acc0 = ml_ct_or_xor64(_mm512_xor_si512(ml_ct_ld64(p), ml_ct_ld64(q)),
                                      ml_ct_ld64(p + 64), ml_ct_ld64(q + 64));
        __m512i acc1 = ml_ct_or_xor64(
            _mm512_xor_si512(ml_ct_ld64(p + n - 128), ml_ct_ld64(q + n - 128)),
            ml_ct_ld64(p + n - 64), ml_ct_ld64(q + n - 64));
        return ml_ct_nonzero64(_mm512_or_si512(acc0, acc1));
    }

    /* Above 256 bytes, 32-byte vectors: on Zen 4 the same loop over zmm
     * loads measured 5-8% slower at 0.5-16 KiB (and behind libc memcmp).  Two
     * accumulators halve the vpternlogq dependency chain.  The loop covers whole 128-byte
     * steps that end before n; the rest, 1 to 128 bytes, takes as many vectors as it
     * needs, the last one ending at n (overlapping the loop). */
    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 128 < n; i += 128) {
        acc0 = ml_ct_or_xor32(acc0, ml_ct_ld32(p + i), ml_ct_ld32(q + i));
        acc1 = ml_ct_or_xor32(acc1, ml_ct_ld32(p + i + 32), ml_ct_ld32(q + i + 32));
        acc0 = ml_ct_or_xor32(acc0, ml_ct_ld32(p + i + 64), ml_ct_ld32(q + i + 64));
        acc1 = ml_ct_or_xor32(acc1, ml_ct_ld32(p + i + 96), ml_ct_ld32(q + i + 96));
    }
    size_t rest = n - i;
    acc0 = ml_ct_or_xor32(acc0, ml_ct_ld32(p + n - 32), ml_ct_ld32(q + n - 32));
    if (rest > 32)
        acc1 = ml_ct_or_xor32(acc1, ml_ct_ld32(p + n - 64), ml_ct_ld32(q + n - 64));
    if (rest > 64)
        acc0 = ml_ct_or_xor32(acc0, ml_ct_ld32(p + n - 96), ml_ct_ld32(q + n - 96));
    if (rest > 96)
        acc1 = ml_ct_or_xor32(acc1, ml_ct_ld32(p + n - 128), ml_ct_ld32(q + n - 128));
    __m256i acc = _mm256_or_si256(acc0, acc1);
    ML_CT_VBARRIER(acc);
    return (int)ml_ct_nonzero((uint64_t)_mm256_test_epi64_mask(acc, acc));
}
