/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, SSE2: the memcmp ladder without locating the difference:
 * pcmpeqb results ANDed and one pmovmskb test per group.
 *
 * The entry, up to 16 KiB, is assembly (sse2_entry.S, which says why
 * and gives its ladder); it jumps here above 16 KiB
 * (ml_bcmp_sse2_above16k) and where a vector of 1..16 bytes would cross
 * a page end (ml_bcmp_sse2_page_end).  Sanitizer builds, which must not
 * read around the buffers, compile the in-bounds C entry at the end of
 * this file instead:
 *     0..16    overlapping words
 *    17..32    head + tail vector
 *    33..      the first vector alone, then
 *    33..64    the second vector and the two ending at n, one test
 *    65..128   the rest of the first 64 bytes, then the two (65..96) or
 *              four (97..128) vectors ending at n
 *   129..      the rest of the first 64 bytes, then
 * above 128 (16 KiB from the assembly entry) both go on in the loop: four
 * aligned vectors per iteration, then the last two or four ending at n.
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

static inline int differ(__m128i e) { return _mm_movemask_epi8(e) != 0xffff; }

#if ML_READ_AROUND
/* The C parts of the assembly entry (sse2_entry.S), which jumps to them. */
ML_ASM_PART int ml_bcmp_sse2_page_end(const unsigned char *p, const unsigned char *q,
                                      size_t n);
ML_ASM_PART int ml_bcmp_sse2_above16k(const unsigned char *p, const unsigned char *q,
                                      size_t n);

/* 1 <= n <= 16 where a vector from p or q would cross a page end (see
 * ml_ne_upto16_page_end); cold. */
ML_ASM_PART __attribute__((noinline, cold)) int
ml_bcmp_sse2_page_end(const unsigned char *p, const unsigned char *q, size_t n)
{
    int in_bounds;
    uint32_t m = ml_ne_upto16_page_end(p, q, n, &in_bounds);
    return in_bounds ? ml_bcmp_upto16(p, q, n) : m != 0;
}
#endif

/* The loop's "differ" exit, out of line: with `return 1` there gcc
 * rotated the loop (a jump into its middle on entry and a taken branch
 * every iteration); a jump out of the function keeps the body straight,
 * falling through to the next test (docs/memcmp.md). */
static __attribute__((noinline, cold)) int differs_in_loop(void) { return 1; }

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 64 bytes a test, the lines 2 KiB ahead asked for while
 * ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
bcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 64; i += 64) {
        if (prefetch)
            ml_prefetch_ahead(p, q, i);
        if (ML_UNLIKELY(differ(ml_eq16x4_aligned_p(p + i, q + i))))
            return 1;
    }
    return differ(ml_eq16x4(p + n - 64, q + n - 64));
}

/* n > 128, the bytes before `equal` (32 or 64, below n - 64) found equal:
 * four aligned vectors per iteration, then the last two or four ending at
 * n. */
static inline int bcmp_from(const unsigned char *p, const unsigned char *q, size_t n,
                            size_t equal)
{
    size_t i = equal - ((uintptr_t)p & 15);
    if (ML_UNLIKELY(n >= ML_CMP_PREFETCH_MIN) && ml_cmp_in_band(n))
        return bcmp_prefetching(p, q, n, i);
    do {
        if (ML_UNLIKELY(differ(ml_eq16x4_aligned_p(p + i, q + i))))
            return differs_in_loop();
        i += 64;
    } while (i < n - 64);
    if (n - i <= 32)
        return differ(_mm_and_si128(ml_eq16(p + n - 32, q + n - 32),
                                    ml_eq16(p + n - 16, q + n - 16)));
    /* Four vectors ending at n, addressed from n rather than from a
     * pointer computed first (faster at fixed sizes); the empty asm keeps
     * gcc from hoisting the two loads the shorter tail shares above the
     * branch (slower on random sizes).  docs/memcmp.md. */
    size_t end = n;
    __asm__("" : "+r"(end));
    return differ(ml_and4_16(
        ml_eq16(p + end - 64, q + end - 64), ml_eq16(p + end - 48, q + end - 48),
        ml_eq16(p + end - 32, q + end - 32), ml_eq16(p + end - 16, q + end - 16)));
}

#if ML_READ_AROUND
/* n > 16 KiB, the first 32 bytes equal (sse2_entry.S). */
ML_ASM_PART __attribute__((aligned(64))) int
ml_bcmp_sse2_above16k(const unsigned char *p, const unsigned char *q, size_t n)
{
    return bcmp_from(p, q, n, 32);
}
#else
/* The entry of sanitizer builds, every load inside the buffers. */
__attribute__((aligned(64))) int memlane_bcmp_sse2(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    /* The hints steer gcc's block order: 17..32 runs straight from the
     * entry, 1..16 takes one jump (as in glibc's code). */
    if (ML_UNLIKELY(n <= 16))
        return ml_bcmp_upto16(p, q, n);
    if (ML_LIKELY(n <= 32))
        return differ(_mm_and_si128(ml_eq16(p, q), ml_eq16(p + n - 16, q + n - 16)));
    /* From 33 B the first vector alone: inputs that differ in their
     * first bytes (the common case) leave after one test. */
    if (differ(ml_eq16(p, q)))
        return 1;
    if (ML_LIKELY(n <= 64))
        return differ(_mm_and_si128(ml_eq16(p + 16, q + 16),
                                    _mm_and_si128(ml_eq16(p + n - 32, q + n - 32),
                                                  ml_eq16(p + n - 16, q + n - 16))));
    /* The rest of the first 64 bytes, then (65..128) the bytes up to n:
     * a difference in the first 64 exits before a second line is read. */
    if (differ(_mm_and_si128(
            ml_eq16(p + 16, q + 16),
            _mm_and_si128(ml_eq16(p + 32, q + 32), ml_eq16(p + 48, q + 48)))))
        return 1;
    if (n <= 96)
        return differ(_mm_and_si128(ml_eq16(p + n - 32, q + n - 32),
                                    ml_eq16(p + n - 16, q + n - 16)));
    if (n <= 128)
        return differ(ml_eq16x4(p + n - 64, q + n - 64));
    return bcmp_from(p, q, n, 64);
}
#endif
