/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, AVX2: 32-byte vectors, vpcmpeqb + vpmovmskb masks.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..32    whole dwords by one masked load, the last 1-3 bytes by
 *              byte loads, one mask and no branch on n but n == 0
 *              (ml_ne_upto32_masked)
 *    33..64    head + tail vector, one 64-bit mask
 *    65..128   two head vectors one by one, then two tail vectors
 *   129..256   the same head, the next two, then the last four vectors
 *   257..      the same head, four aligned vectors per iteration, then
 *              the last one, two or four vectors (overlapping)
 * A head/tail pair shifts the tail mask by its offset, so bit i is byte i
 * and one bit scan finds the first difference.  A group of four vectors
 * is tested by ANDing equality masks, one vpmovmskb; which byte differs
 * is found out of line (diff_in128), so the equal path needs no stack
 * frame (the inline search used to cost three pushes and pops on every
 * call).  Against glibc 2.36's __memcmp_avx2_movbe on Zen 4, equal
 * inputs at 160-256 B went from 1.14-1.33x its time to ~1.09x; the
 * masked 0-32 path took the Short distribution from 2.0x its time to
 * parity (fixed sizes 4-32 B: 0.9-1.2x became 1.15-1.3x).
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline uint32_t ne_of(__m256i e) { return ~(uint32_t)_mm256_movemask_epi8(e); }

/* The difference at the first differing byte of the 128 bytes at o (some
 * byte there differs).  Out of line and cold: the equal path then needs
 * few registers and no stack frame. */
static __attribute__((noinline, cold)) int diff_in128(const unsigned char *p,
                                                      const unsigned char *q, size_t o)
{
    size_t at = ml_first_of4(ne_of(ml_eq32(p + o, q + o)), o,
                             ne_of(ml_eq32(p + o + 32, q + o + 32)), o + 32,
                             ne_of(ml_eq32(p + o + 64, q + o + 64)), o + 64,
                             ne_of(ml_eq32(p + o + 96, q + o + 96)), o + 96);
    return ml_diff_at(p, q, at);
}

#if ML_READ_AROUND
/* 1 <= n <= 32 where a vector from p or q would cross a page end: the 32
 * bytes ending at n when they stay on the page of byte n - 1 (a buffer
 * byte), else the masked in-bounds path.  Out of line and cold: the
 * OR-test of ml_in_page sends 1.5 % of random addresses here. */
static __attribute__((noinline, cold)) int
upto32_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    uint32_t m;
    if (ml_in_page(p + n - 32, q + n - 32, 32))
        m = ml_ne32(p + n - 32, q + n - 32) >> (32 - n);
    else
        m = ml_ne_upto32_masked(p, q, n);
    return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
}
#endif

static inline int same128(const unsigned char *p, const unsigned char *q, size_t o)
{
    __m256i all = _mm256_and_si256(
        _mm256_and_si256(ml_eq32(p + o, q + o), ml_eq32(p + o + 32, q + o + 32)),
        _mm256_and_si256(ml_eq32(p + o + 64, q + o + 64),
                         ml_eq32(p + o + 96, q + o + 96)));
    return ne_of(all) == 0;
}

__attribute__((aligned(64))) int memlane_memcmp_avx2(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 32) {
        if (n == 0)
            return 0;
#if ML_READ_AROUND
        /* One whole vector when both stay on their page, the bits from n
         * on cleared (as glibc): the bytes read around never count. */
        if (ML_LIKELY(ml_in_page(p, q, 32))) {
            uint32_t m = _bzhi_u32(ml_ne32(p, q), (unsigned)n);
            return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
        }
        return upto32_page_end(p, q, n);
#else
        uint32_t m = ml_ne_upto32_masked(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
#endif
    }
    if (n <= 64) {
        /* Head and tail tested at once; the mask only if they differ. */
        __m256i e0 = ml_eq32(p, q), e1 = ml_eq32(p + n - 32, q + n - 32);
        if (ML_LIKELY(ne_of(_mm256_and_si256(e0, e1)) == 0))
            return 0;
        uint64_t m = ne_of(e0) | (uint64_t)ne_of(e1) << (n - 32);
        return ml_diff_at(p, q, ml_ctz64(m));
    }
    /* The first vectors one by one: inputs that differ early leave here
     * after reading little. */
    uint64_t m = ml_ne32(p, q);
    if (m)
        return ml_diff_at(p, q, ml_ctz64(m));
    if ((m = ml_ne32(p + 32, q + 32)))
        return ml_diff_at(p, q, 32 + ml_ctz64(m));
    if (n <= 128) {
        m = ml_ne32x2(p + n - 64, q + n - 64);
        return m ? ml_diff_at(p, q, n - 64 + ml_ctz64(m)) : 0;
    }
    if ((m = ml_ne32x2(p + 64, q + 64)))
        return ml_diff_at(p, q, 64 + ml_ctz64(m));
    if (n <= 256)
        return ML_LIKELY(same128(p, q, n - 128)) ? 0 : diff_in128(p, q, n - 128);
    /* Loop on p aligned to 32 bytes (no split loads on p); the step back
     * to alignment re-reads at most 31 bytes already found equal. */
    size_t i = 128 - ((uintptr_t)p & 31);
    for (; i < n - 128; i += 128)
        if (ML_UNLIKELY(!same128(p, q, i)))
            return diff_in128(p, q, i);
    /* The last 1..128 bytes: as few vectors as cover them, ending at n. */
    size_t rest = n - i;
    if (rest <= 32) {
        m = ml_ne32(p + n - 32, q + n - 32);
        return m ? ml_diff_at(p, q, n - 32 + ml_ctz64(m)) : 0;
    }
    if (rest <= 64) {
        m = ml_ne32x2(p + n - 64, q + n - 64);
        return m ? ml_diff_at(p, q, n - 64 + ml_ctz64(m)) : 0;
    }
    return ML_LIKELY(same128(p, q, n - 128)) ? 0 : diff_in128(p, q, n - 128);
}
