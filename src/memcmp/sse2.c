/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, SSE2 (x86-64 baseline): 16-byte vectors, pcmpeqb + pmovmskb.
 *
 * The entry, up to 16 KiB, is assembly (sse2_entry.S, which says why
 * and gives its ladder); it jumps here above 16 KiB
 * (ml_memcmp_sse2_above16k) and where a vector of 1..16 bytes would cross
 * a page end (ml_memcmp_sse2_page_end).  Sanitizer builds, which must not
 * read around the buffers, compile the in-bounds C entry at the end of
 * this file instead:
 *     0..16    overlapping words
 *    17..32    head + tail vector, one 32-bit mask
 *    33..      the first vector alone, then
 *    33..64    the second vector and the two ending at n
 *    65..128   the rest of the first 64 bytes, then the two (65..96) or
 *              four (97..128) vectors ending at n
 *   129..      the rest of the first 64 bytes, then
 * above 128 (16 KiB from the assembly entry) both go on in the loop: four
 * aligned vectors per iteration, then the last two ending at n with, if
 * more than 32 bytes remain, two aligned ones before them.
 * A group of vectors is tested for equality first: pcmpeqb results ANDed,
 * one pmovmskb (glibc's test; XOR/OR then pcmpeqb against zero costs one
 * more operation per group).  Only a group that differs builds the mask
 * of its differing bytes (bit i = byte i), and one bit scan finds the
 * first; two groups are chosen between by conditional moves, not
 * branches, since with a random mismatch position such a branch is
 * mispredicted half the time.
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

/* Whether all bytes of four equality vectors are equal. */
static inline int all_eq4(__m128i e0, __m128i e1, __m128i e2, __m128i e3)
{
    return _mm_movemask_epi8(ml_and4_16(e0, e1, e2, e3)) == 0xffff;
}

/* Whether all bytes of two equality vectors are equal. */
static inline int all_eq2(__m128i e0, __m128i e1)
{
    return _mm_movemask_epi8(_mm_and_si128(e0, e1)) == 0xffff;
}

/* Differing bytes of two consecutive vectors as one mask, bit i = byte i. */
static inline uint32_t ne_mask2(__m128i e0, __m128i e1)
{
    return ~((uint32_t)_mm_movemask_epi8(e0) | (uint32_t)_mm_movemask_epi8(e1) << 16);
}

/* Differing bytes of four consecutive vectors as one mask, bit i = byte i.
 * Running ANDs serve as well: from e0, e0&e1, e2, e0&e1&e2&e3 the lowest
 * set bit is the same (a lane of an AND differs where one of its vectors
 * does, and an earlier vector's difference comes first). */
static inline uint64_t ne_mask4(__m128i e0, __m128i e1, __m128i e2, __m128i e3)
{
    uint64_t m = (uint64_t)(uint32_t)_mm_movemask_epi8(e0) |
                 (uint64_t)(uint32_t)_mm_movemask_epi8(e1) << 16 |
                 (uint64_t)(uint32_t)_mm_movemask_epi8(e2) << 32 |
                 (uint64_t)(uint32_t)_mm_movemask_epi8(e3) << 48;
    return ~m;
}

/* The four vectors at o..o+64: if they differ, *at = the first difference. */
static inline ML_INLINE_CLANG int differ_at4(const unsigned char *p,
                                             const unsigned char *q, size_t o, size_t *at)
{
    __m128i e0 = ml_eq16(p + o, q + o), e1 = ml_eq16(p + o + 16, q + o + 16);
    __m128i e2 = ml_eq16(p + o + 32, q + o + 32), e3 = ml_eq16(p + o + 48, q + o + 48);
    if (ML_LIKELY(all_eq4(e0, e1, e2, e3)))
        return 0;
    *at = o + ml_ctz64(ne_mask4(e0, e1, e2, e3));
    return 1;
}

/* The loop's exit: the four equality vectors of the 64 bytes at o (e01
 * and e0123 the running ANDs) hold a difference.  Out of line, so that
 * the loop is one block that falls through to the tail (docs/memcmp.md). */
static __attribute__((noinline, cold)) int loop_differs(const unsigned char *p,
                                                        const unsigned char *q, size_t o,
                                                        __m128i e0, __m128i e01,
                                                        __m128i e2, __m128i e0123)
{
    return ml_diff_at(p, q, o + ml_ctz64(ne_mask4(e0, e01, e2, e0123)));
}

#if ML_READ_AROUND
/* The C parts of the assembly entry (sse2_entry.S), which jumps to them. */
ML_ASM_PART int ml_memcmp_sse2_page_end(const unsigned char *p, const unsigned char *q,
                                        size_t n);
ML_ASM_PART int ml_memcmp_sse2_above16k(const unsigned char *p, const unsigned char *q,
                                        size_t n);

/* 1 <= n <= 16 where a vector from p or q would cross a page end (see
 * ml_ne_upto16_page_end).  Out of line and cold: the entry's OR-test
 * sends few addresses here. */
ML_ASM_PART __attribute__((noinline, cold)) int
ml_memcmp_sse2_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    int in_bounds;
    uint32_t m = ml_ne_upto16_page_end(p, q, n, &in_bounds);
    if (in_bounds)
        return ml_memcmp_upto16(p, q, n);
    return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
}
#endif

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 64 bytes a test, the lines 2 KiB ahead asked for while
 * ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
memcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    size_t at;
    for (; i < n - 64; i += 64) {
        if (prefetch)
            ml_prefetch_ahead(p, q, i);
        if (ML_UNLIKELY(differ_at4(p, q, i, &at)))
            return ml_diff_at(p, q, at);
    }
    return differ_at4(p, q, n - 64, &at) ? ml_diff_at(p, q, at) : 0;
}

/* n > 128, the bytes before `equal` (32 or 64, below n - 64) found equal. */
static inline int memcmp_from(const unsigned char *p, const unsigned char *q, size_t n,
                              size_t equal)
{
    /* Loop on p aligned to 16 bytes (aligned loads on p), a pointer per
     * buffer walked as in glibc's loop (an index was slower: docs/memcmp.md);
     * the step back to alignment re-reads at most 15 bytes already found
     * equal. */
    size_t step_in = equal - ((uintptr_t)p & 15);
    if (ML_UNLIKELY(n >= ML_CMP_PREFETCH_MIN) && ml_cmp_in_band(n))
        return memcmp_prefetching(p, q, n, step_in);
    const unsigned char *pa = p + step_in, *qa = q + step_in, *loop_end = p + n - 64;
    do {
        __m128i e0 = ml_eq16_aligned_p(pa, qa), e1 = ml_eq16_aligned_p(pa + 16, qa + 16);
        __m128i e2 = ml_eq16_aligned_p(pa + 32, qa + 32);
        __m128i e3 = ml_eq16_aligned_p(pa + 48, qa + 48);
        /* The masks from the running ANDs (see above): the group's
         * equality vectors need not outlive the AND, so no copies. */
        __m128i e01 = _mm_and_si128(e0, e1),
                e0123 = _mm_and_si128(e01, _mm_and_si128(e2, e3));
        if (ML_UNLIKELY(_mm_movemask_epi8(e0123) != 0xffff))
            return loop_differs(p, q, (size_t)(pa - p), e0, e01, e2, e0123);
        pa += 64;
        qa += 64;
    } while (pa < loop_end);
    /* The last 1..64 bytes: the two vectors ending at n, and if more than
     * 32 remain, the two aligned ones at pa too, under one test (four
     * vectors ending at n were slower: docs/memcmp.md).  The test on pa,
     * not on an index from it, was faster on random sizes.  Equal inputs
     * fall through to a return of their own. */
    __m128i t0 = ml_eq16(p + n - 32, q + n - 32), t1 = ml_eq16(p + n - 16, q + n - 16);
    if (pa >= loop_end + 32) {
        if (ML_LIKELY(all_eq2(t0, t1)))
            return ml_equal_result();
        return ml_diff_at(p, q, n - 32 + ml_ctz64(ne_mask2(t0, t1)));
    }
    __m128i a0 = ml_eq16_aligned_p(pa, qa), a1 = ml_eq16_aligned_p(pa + 16, qa + 16);
    if (ML_LIKELY(all_eq4(a0, a1, t0, t1)))
        return ml_equal_result();
    return ml_diff_at(
        p, q, ml_first_of2(ne_mask2(a0, a1), (size_t)(pa - p), ne_mask2(t0, t1), n - 32));
}

#if ML_READ_AROUND
/* n > 16 KiB, the first 32 bytes equal (sse2_entry.S). */
ML_ASM_PART __attribute__((aligned(64))) int
ml_memcmp_sse2_above16k(const unsigned char *p, const unsigned char *q, size_t n)
{
    return memcmp_from(p, q, n, 32);
}
#else
/* Whether all bytes of three equality vectors are equal. */
static inline int all_eq3(__m128i e0, __m128i e1, __m128i e2)
{
    return _mm_movemask_epi8(_mm_and_si128(e0, _mm_and_si128(e1, e2))) == 0xffff;
}

/* Differing bytes of three consecutive vectors, bit i = byte i. */
static inline uint64_t ne_mask3(__m128i e0, __m128i e1, __m128i e2)
{
    return ne_mask2(e0, e1) | (uint64_t)ml_ne_of16(e2) << 32;
}

/* The entry of sanitizer builds, every load inside the buffers. */
__attribute__((aligned(64))) int memlane_memcmp_sse2(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    /* The hints only steer gcc's block order: 17-64 B take no extra
     * jump (docs/memcmp.md). */
    if (ML_UNLIKELY(n <= 16))
        return ml_memcmp_upto16(p, q, n);
    if (ML_LIKELY(n <= 32)) {
        uint32_t m = ml_ne16_head_tail(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    /* From 33 B the first vector alone: a difference in the first bytes
     * (common where memcmp sorts or searches) leaves after one test. */
    uint32_t m0 = ml_ne16(p, q);
    if (m0)
        return ml_diff_at(p, q, ml_ctz64(m0));
    if (ML_LIKELY(n <= 64)) {
        /* The second vector and the two ending at n. */
        __m128i e1 = ml_eq16(p + 16, q + 16);
        __m128i e2 = ml_eq16(p + n - 32, q + n - 32),
                e3 = ml_eq16(p + n - 16, q + n - 16);
        if (all_eq3(e1, e2, e3))
            return 0;
        return ml_diff_at(p, q,
                          ml_first_of2(ml_ne_of16(e1), 16, ne_mask2(e2, e3), n - 32));
    }
    /* 65..: the rest of the first 64 bytes, then (65..128) the bytes up
     * to n, so that a difference in the first 64 exits before a second
     * line is read. */
    {
        __m128i e1 = ml_eq16(p + 16, q + 16), e2 = ml_eq16(p + 32, q + 32),
                e3 = ml_eq16(p + 48, q + 48);
        if (ML_UNLIKELY(!all_eq3(e1, e2, e3)))
            return ml_diff_at(p, q, 16 + ml_ctz64(ne_mask3(e1, e2, e3)));
    }
    if (n <= 128) {
        if (n <= 96) {
            uint32_t m = ne_mask2(ml_eq16(p + n - 32, q + n - 32),
                                  ml_eq16(p + n - 16, q + n - 16));
            return m ? ml_diff_at(p, q, n - 32 + ml_ctz64(m)) : 0;
        }
        size_t at;
        return differ_at4(p, q, n - 64, &at) ? ml_diff_at(p, q, at) : 0;
    }
    return memcmp_from(p, q, n, 64);
}
#endif
