/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, AVX2.
 *     0..32    one whole vector when both stay on their page, the bits
 *              from n on cleared; else the vector ending at n, or whole
 *              dwords by a masked load and the last bytes by byte loads
 *    33..64    the head vector, then the one ending at n
 *    65..128   the head vector, the next one, then the two ending at n
 *   129..256   the head, the next one, the two after them, then the
 *              four ending at n
 *   257..      as far as the two after them, then four vectors per
 *              iteration, p aligned, then the two (up to 64 bytes
 *              left) or four ending at n
 * The entry, with the same 128-byte loop, is assembly (avx2_entry.S,
 * which says why); it jumps here from 256 KiB, the prefetch band's floor
 * (ml_bcmp_avx2_above256), and where a vector would cross a page end
 * (ml_bcmp_avx2_page_end).
 * Sanitizer builds compile the in-bounds C entry at the end of this file
 * instead.  A group is tested by ANDing vpcmpeqb masks and one vpmovmskb
 * (XORs ORed and one vptest only in the prefetching loop): on Zen 3 the
 * faster (docs/memcmp.md).
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

/* Whether some byte of the mask e is not all-ones (some byte differed). */
static inline int not_all(__m256i e)
{
    return (uint32_t)_mm256_movemask_epi8(e) != 0xffffffffu;
}

static inline __m256i xor4(const unsigned char *p, const unsigned char *q, size_t o0,
                           size_t o1, size_t o2, size_t o3)
{
    return _mm256_or_si256(
        _mm256_or_si256(ml_xor32(p + o0, q + o0), ml_xor32(p + o1, q + o1)),
        _mm256_or_si256(ml_xor32(p + o2, q + o2), ml_xor32(p + o3, q + o3)));
}

/* 1 <= n <= 32 strictly inside the buffers: whole dwords by a masked
 * load, the last 1-3 bytes by byte loads. */
static inline int upto32_in_bounds(const unsigned char *p, const unsigned char *q,
                                   size_t n)
{
    size_t j0, j1, last;
    ml_upto32_tail_at(n, &j0, &j1, &last);
    unsigned tail = (p[j0] ^ q[j0]) | (p[j1] ^ q[j1]) | (p[last] ^ q[last]);
    return ml_any32(ml_upto32_dword_xor(p, q, n)) | (tail != 0);
}

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 128 bytes a test, the lines 2 KiB ahead asked for while
 * ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
bcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 128; i += 128) {
        if (prefetch) {
            ml_prefetch_ahead(p, q, i);
            ml_prefetch_ahead(p, q, i + 64);
        }
        if (ml_any32(xor4(p, q, i, i + 32, i + 64, i + 96)))
            return 1;
    }
    return ml_any32(xor4(p, q, n - 128, n - 96, n - 64, n - 32));
}

/* n > 256, the first 128 bytes equal: four vectors per iteration on p
 * aligned, then the two or four ending at n. */
static inline int bcmp_from128(const unsigned char *p, const unsigned char *q, size_t n)
{
    size_t i = 128 - ((uintptr_t)p & 31);
    if (ML_UNLIKELY(n >= ML_CMP_PREFETCH_MIN) && ml_cmp_in_band(n))
        return bcmp_prefetching(p, q, n, i);
    for (; i < n - 128; i += 128)
        if (not_all(ml_and4_32(ml_eq32(p + i, q + i), ml_eq32(p + i + 32, q + i + 32),
                               ml_eq32(p + i + 64, q + i + 64),
                               ml_eq32(p + i + 96, q + i + 96))))
            return 1;
    /* The two vectors ending at n up to 64 bytes left, else the four (as
     * memcmp's loop). */
    __m256i tail = _mm256_and_si256(ml_eq32(p + n - 64, q + n - 64),
                                    ml_eq32(p + n - 32, q + n - 32));
    if (ML_LIKELY(n - i <= 64))
        return not_all(tail);
    return not_all(
        _mm256_and_si256(tail, _mm256_and_si256(ml_eq32(p + n - 128, q + n - 128),
                                                ml_eq32(p + n - 96, q + n - 96))));
}

#if ML_READ_AROUND
_Static_assert(ML_CMP_PREFETCH_MIN == 0x40000, "PREFETCH_MIN in avx2_entry.S");

/* The C parts of the assembly entry (avx2_entry.S), which jumps to them. */
ML_ASM_PART int ml_bcmp_avx2_page_end(const unsigned char *p, const unsigned char *q,
                                      size_t n);
ML_ASM_PART int ml_bcmp_avx2_above256(const unsigned char *p, const unsigned char *q,
                                      size_t n);

/* 1 <= n <= 32 where a vector from p or q would cross a page end: the
 * 32 bytes ending at n if they stay on their page, else in bounds (see
 * memcmp/avx2.c).  Cold. */
ML_ASM_PART __attribute__((noinline, cold)) int
ml_bcmp_avx2_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    if (ml_in_page(p + n - 32, q + n - 32, 32))
        return (ml_ne32(p + n - 32, q + n - 32) >> (32 - n)) != 0;
    return upto32_in_bounds(p, q, n);
}

/* n >= 256 KiB, the first 128 bytes equal (avx2_entry.S). */
ML_ASM_PART int ml_bcmp_avx2_above256(const unsigned char *p, const unsigned char *q,
                                      size_t n)
{
    return bcmp_from128(p, q, n);
}
#else
/* The entry of sanitizer builds, every load inside the buffers: the
 * classes of avx2_entry.S. */
__attribute__((aligned(64))) int memlane_bcmp_avx2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 32)
        return n ? upto32_in_bounds(p, q, n) : 0;
    if (not_all(ml_eq32(p, q)))
        return 1;
    if (n <= 64)
        return not_all(ml_eq32(p + n - 32, q + n - 32));
    if (not_all(ml_eq32(p + 32, q + 32)))
        return 1;
    if (n <= 128)
        return not_all(_mm256_and_si256(ml_eq32(p + n - 64, q + n - 64),
                                        ml_eq32(p + n - 32, q + n - 32)));
    if (not_all(_mm256_and_si256(ml_eq32(p + 64, q + 64), ml_eq32(p + 96, q + 96))))
        return 1;
    if (n <= 256)
        return not_all(
            ml_and4_32(ml_eq32(p + n - 128, q + n - 128), ml_eq32(p + n - 96, q + n - 96),
                       ml_eq32(p + n - 64, q + n - 64), ml_eq32(p + n - 32, q + n - 32)));
    return bcmp_from128(p, q, n);
}
#endif
