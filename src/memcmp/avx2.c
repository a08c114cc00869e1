/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, AVX2: 32-byte vectors, vpcmpeqb + vpmovmskb masks.
 *
 * Size ladder:
 *     0..32    one whole vector when both stay on their page, the bits
 *              from n on cleared; else the vector ending at n, or whole
 *              dwords by a masked load and the last bytes by byte loads
 *    33..64    the head vector, then the one ending at n
 *    65..128   the head vector, the next one, then the last two
 *   129..256   the head vector, the next one, the two after them, then
 *              the four ending at n
 *   257..      as far as the two after them, then four aligned vectors
 *              per iteration (eight above 16 KiB), then the two (up to
 *              64 bytes left) or four ending at n
 * Groups are tested by ANDing vpcmpeqb results, one vpmovmskb; only a
 * group that differs builds the mask of its differing bytes (bit i =
 * byte i) for one bit scan, and a group of four does that out
 * of line (diff_in128), so the equal path needs no stack frame.
 *
 * The entry, with the 128-byte loop to 16 KiB, is assembly (avx2_entry.S,
 * which says why); it jumps here above 16 KiB (ml_memcmp_avx2_above16k)
 * and where a vector would cross a page end (ml_memcmp_avx2_page_end).
 * Sanitizer builds, which must not read around the buffers, compile the
 * in-bounds C entry at the end of this file instead: the same loads to
 * 128 bytes (33..64 under one test), then the loop.
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

/* The difference at the first differing byte of the 128 bytes at o (some
 * byte there differs).  Out of line and cold: the equal path then needs
 * few registers and no stack frame. */
static __attribute__((noinline, cold)) int diff_in128(const unsigned char *p,
                                                      const unsigned char *q, size_t o)
{
    size_t at = ml_first_of4(ml_ne_of32(ml_eq32(p + o, q + o)), o,
                             ml_ne_of32(ml_eq32(p + o + 32, q + o + 32)), o + 32,
                             ml_ne_of32(ml_eq32(p + o + 64, q + o + 64)), o + 64,
                             ml_ne_of32(ml_eq32(p + o + 96, q + o + 96)), o + 96);
    return ml_diff_at(p, q, at);
}

#if ML_READ_AROUND
/* The C parts of the assembly entry (avx2_entry.S), which jumps to them. */
ML_ASM_PART int ml_memcmp_avx2_page_end(const unsigned char *p, const unsigned char *q,
                                        size_t n);
ML_ASM_PART int ml_memcmp_avx2_above16k(const unsigned char *p, const unsigned char *q,
                                        size_t n);

/* 1 <= n <= 31 where a vector from p or q would cross a page end: the 32
 * bytes ending at n when they stay on the page of byte n - 1 (a buffer
 * byte), else the masked in-bounds path.  Out of line and cold: the
 * entry's OR-test sends few addresses here (docs/memcmp-results.md). */
ML_ASM_PART __attribute__((noinline, cold)) int
ml_memcmp_avx2_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    uint32_t m;
    if (ml_in_page(p + n - 32, q + n - 32, 32))
        m = ml_ne32(p + n - 32, q + n - 32) >> (32 - n);
    else
        m = ml_ne_upto32_masked(p, q, n);
    return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
}
#endif

/* Two vectors at o0 and o1 (o0 < o1 <= o0 + 32): `equal` if equal (0,
 * or ml_equal_result() where this is the function's result), else the
 * difference at their first differing byte. */
static inline ML_INLINE_CLANG int cmp_pair(const unsigned char *p, const unsigned char *q,
                                           size_t o0, size_t o1, int equal)
{
    __m256i e0 = ml_eq32(p + o0, q + o0), e1 = ml_eq32(p + o1, q + o1);
    if (ML_LIKELY(ml_ne_of32(_mm256_and_si256(e0, e1)) == 0))
        return equal;
    uint64_t m = ml_ne_of32(e0) | (uint64_t)ml_ne_of32(e1) << (o1 - o0);
    return ml_diff_at(p, q, o0 + ml_ctz64(m));
}

static inline int same128(const unsigned char *p, const unsigned char *q, size_t o)
{
    return ml_ne_of32(ml_and4_32(ml_eq32(p + o, q + o), ml_eq32(p + o + 32, q + o + 32),
                                 ml_eq32(p + o + 64, q + o + 64),
                                 ml_eq32(p + o + 96, q + o + 96))) == 0;
}

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 128 bytes a test, the lines 2 KiB ahead asked for while
 * ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
memcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 128; i += 128) {
        if (prefetch) {
            ml_prefetch_ahead(p, q, i);
            ml_prefetch_ahead(p, q, i + 64);
        }
        if (ML_UNLIKELY(!same128(p, q, i)))
            return diff_in128(p, q, i);
    }
    return ML_LIKELY(same128(p, q, n - 128)) ? 0 : diff_in128(p, q, n - 128);
}

/* The last 1..128 bytes from i (the bytes before i found equal): the two
 * vectors ending at n up to 64 bytes (the one before n - 32 also where 32
 * would do: on Zen 3 a branch costs more than a load), else the four. */
static inline ML_INLINE_CLANG int memcmp_rest(const unsigned char *p,
                                              const unsigned char *q, size_t n, size_t i)
{
    if (ML_LIKELY(n - i <= 64))
        return cmp_pair(p, q, n - 64, n - 32, ml_equal_result());
    if (ML_LIKELY(same128(p, q, n - 128)))
        return ml_equal_result();
    return diff_in128(p, q, n - 128);
}

/* n > 16 KiB, from i (p + i aligned, the bytes before it equal), where
 * the two buffers outgrow L1: 256 bytes an iteration under one test,
 * walking a pointer per buffer with the vector from q loaded and the one
 * from p (aligned) the compare's memory operand, as glibc's loop: the
 * indexed 128-byte loop below is slower there.  The test is written out
 * because a helper gave a slower schedule (both in docs/memcmp.md).  Out
 * of line: its registers would otherwise be saved on every call from
 * 129 B (clang). */
static __attribute__((noinline)) int
memcmp_above16k(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    if (n >= ML_CMP_PREFETCH_MIN && ml_cmp_in_band(n))
        return memcmp_prefetching(p, q, n, i);
    const unsigned char *pa = p + i, *qa = q + i, *loop_end = p + n - 128;
    for (; pa + 128 < loop_end; pa += 256, qa += 256)
        if (ML_UNLIKELY(
                ml_ne_of32(_mm256_and_si256(
                    ml_and4_32(ml_eq32(qa, pa), ml_eq32(qa + 32, pa + 32),
                               ml_eq32(qa + 64, pa + 64), ml_eq32(qa + 96, pa + 96)),
                    ml_and4_32(ml_eq32(qa + 128, pa + 128), ml_eq32(qa + 160, pa + 160),
                               ml_eq32(qa + 192, pa + 192),
                               ml_eq32(qa + 224, pa + 224)))) != 0)) {
            if (!same128(qa, pa, 0))
                return diff_in128(p, q, (size_t)(pa - p));
            return diff_in128(p, q, (size_t)(pa - p) + 128);
        }
    if (pa < loop_end) {
        if (ML_UNLIKELY(!same128(qa, pa, 0)))
            return diff_in128(p, q, (size_t)(pa - p));
        pa += 128;
    }
    return memcmp_rest(p, q, n, (size_t)(pa - p));
}

/* n > 128, the first 128 bytes found equal. */
static inline int memcmp_from128(const unsigned char *p, const unsigned char *q, size_t n)
{
    size_t i = 128 - ((uintptr_t)p & 31);
    if (n > 16384)
        return memcmp_above16k(p, q, n, i);
    for (; i < n - 128; i += 128)
        if (ML_UNLIKELY(!same128(p, q, i)))
            return diff_in128(p, q, i);
    return memcmp_rest(p, q, n, i);
}

#if ML_READ_AROUND
/* n > 16 KiB, the first 128 bytes equal (avx2_entry.S). */
ML_ASM_PART __attribute__((aligned(64))) int
ml_memcmp_avx2_above16k(const unsigned char *p, const unsigned char *q, size_t n)
{
    return memcmp_from128(p, q, n);
}
#else
/* The entry of sanitizer builds, every load inside the buffers. */
__attribute__((aligned(64))) int memlane_memcmp_avx2(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 32) {
        if (n == 0)
            return 0;
        uint32_t m = ml_ne_upto32_masked(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    if (n <= 64)
        return cmp_pair(p, q, 0, n - 32, 0);
    /* The first vectors one by one: inputs that differ early leave here
     * after reading little. */
    uint64_t m = ml_ne32(p, q);
    if (m)
        return ml_diff_at(p, q, ml_ctz64(m));
    if ((m = ml_ne32(p + 32, q + 32)))
        return ml_diff_at(p, q, 32 + ml_ctz64(m));
    if (n <= 128)
        return cmp_pair(p, q, n - 64, n - 32, 0);
    /* The two vectors after them under one test, so that a difference in
     * the first 64 bytes returns before the next line is read
     * (docs/memcmp.md, "Lines read before the exit"), then a loop on p
     * aligned to 32 bytes (no split loads on p; the step back to
     * alignment re-reads at most 31 bytes already found equal). */
    int d = cmp_pair(p, q, 64, 96, 0);
    if (d)
        return d;
    return memcmp_from128(p, q, n);
}
#endif
