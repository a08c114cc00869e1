/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_bcmp, AVX2: the or of the xors of every 32-byte block and a
 * single vptest at the end.  Size classes by n only: scalar words up to
 * 16 bytes, two overlapping 16-byte vectors up to 32, two 32-byte vectors
 * up to 64, four up to 128, then a loop of four vectors per step and the
 * last 128 bytes, overlapping the loop.  No byte outside the buffers is
 * read.
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
ML_CT_INLINE __m128i ld16(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ML_CT_INLINE __m256i xor2(const unsigned char *p, const unsigned char *q)
{
    return _mm256_xor_si256(ld(p), ld(q));
}

/* 0 if v is all zero, else 1.  vpcmpeqb/vpmovmskb rather than vptest:
 * with only domain-neutral consumers clang picks the floating-point forms
 * (vxorps, vorps) for the whole chain, which are not on the list. */
ML_CT_INLINE int nonzero256(__m256i v)
{
    uint32_t zero_bytes =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256()));
    return (int)ml_ct_nonzero(ml_ct_barrier(zero_bytes ^ 0xffffffffu));
}

int memlane_timingsafe_bcmp_avx2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    if (n <= 16)
        return ml_ct_bcmp_upto16(p, q, n);
    if (n <= 32) {
        __m128i v = _mm_or_si128(_mm_xor_si128(ld16(p), ld16(q)),
                                 _mm_xor_si128(ld16(p + n - 16), ld16(q + n - 16)));
        uint32_t zero_bytes =
            (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
        return (int)ml_ct_nonzero(ml_ct_barrier(zero_bytes ^ 0xffffu));
    }
    if (n <= 64)
        return nonzero256(_mm256_or_si256(xor2(p, q), xor2(p + n - 32, q + n - 32)));
    if (n <= 128)
        return nonzero256(_mm256_or_si256(
            _mm256_or_si256(xor2(p, q), xor2(p + 32, q + 32)),
            _mm256_or_si256(xor2(p + n - 64, q + n - 64), xor2(p + n - 32, q + n - 32))));

    __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
    size_t last = n - 128;
    for (size_t i = 0; i < last; i += 128) {
        acc0 = _mm256_or_si256(acc0, xor2(p + i, q + i));
        acc1 = _mm256_or_si256(acc1, xor2(p + i + 32, q + i + 32));
        acc0 = _mm256_or_si256(acc0, xor2(p + i + 64, q + i + 64));
        acc1 = _mm256_or_si256(acc1, xor2(p + i + 96, q + i + 96));
    }
    acc0 = _mm256_or_si256(acc0, xor2(p + last, q + last));
    acc1 = _mm256_or_si256(acc1, xor2(p + last + 32, q + last + 32));
    acc0 = _mm256_or_si256(acc0, xor2(p + last + 64, q + last + 64));
    acc1 = _mm256_or_si256(acc1, xor2(p + last + 96, q + last + 96));
    return nonzero256(_mm256_or_si256(acc0, acc1));
}
