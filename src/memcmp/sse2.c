/*
 * memcmp, SSE2 (x86-64 baseline): 16-byte vectors, pcmpeqb + pmovmskb.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..16    overlapping little-endian words (no byte loop); laid out
 *              first, on the fall-through path
 *    17..32    head + tail vector, one 32-bit mask
 *    33..64    two head + two tail vectors, one test of the ANDed masks
 *    65..128   the first four vectors, then the last four ending at n
 *   129..      the first four vectors, then four per iteration with p
 *              aligned to 16, then the last four ending at n (no branch
 *              on how many bytes are left)
 * A group of four consecutive vectors is tested by ANDing the pcmpeqb
 * masks and one pmovmskb (in the loop the aligned side is pcmpeqb's
 * memory operand); if it differs, the four byte masks make one 64-bit
 * mask whose lowest set bit is the first difference (as glibc's
 * __memcmp_sse2 does), from the compares already made.  Against that
 * glibc code on Zen 4 (all code positions): MemcmpMid 1.06-1.09x -> 0.95-0.97x
 * its time, Uniform512 1.14x -> 0.90x, fixed 65-1008 B equal 1.1-1.5x ->
 * 1.03-1.35x (the XOR/OR groups, the loop's compare with zero and the
 * branches on the rest were the difference).
 */
#include "internal.h"
#include "ops_x86_cmp.h"

static inline __m128i eq16(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(ml_ld16(p), ml_ld16(q));
}

/* p aligned to 16 bytes: the load can be pcmpeqb's memory operand. */
static inline __m128i eq16a(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(_mm_load_si128((const __m128i *)(const void *)p), ml_ld16(q));
}

struct eq4 {
    __m128i e0, e1, e2, e3;
};

static inline struct eq4 eq4_at(const unsigned char *p, const unsigned char *q)
{
    struct eq4 e = {eq16(p, q), eq16(p + 16, q + 16), eq16(p + 32, q + 32),
                    eq16(p + 48, q + 48)};
    return e;
}

static inline struct eq4 eq4a_at(const unsigned char *p, const unsigned char *q)
{
    struct eq4 e = {eq16a(p, q), eq16a(p + 16, q + 16), eq16a(p + 32, q + 32),
                    eq16a(p + 48, q + 48)};
    return e;
}

static inline int eq4_all(struct eq4 e)
{
    __m128i all = _mm_and_si128(_mm_and_si128(e.e0, e.e1), _mm_and_si128(e.e2, e.e3));
    return _mm_movemask_epi8(all) == 0xffff;
}

/* Offset of the first differing byte of the 64 bytes (some differ). */
static inline size_t eq4_first(struct eq4 e)
{
    uint64_t eq = (uint64_t)(uint32_t)_mm_movemask_epi8(e.e0) |
                  (uint64_t)(uint32_t)_mm_movemask_epi8(e.e1) << 16 |
                  (uint64_t)(uint32_t)_mm_movemask_epi8(e.e2) << 32 |
                  (uint64_t)(uint32_t)_mm_movemask_epi8(e.e3) << 48;
    return ml_ctz64(~eq);
}

__attribute__((aligned(64))) int memlane_memcmp_sse2(const void *a, const void *b,
                                                     size_t n)
{
    const unsigned char *p = a, *q = b;

    if (ML_LIKELY(n <= 16))
        return ml_memcmp_upto16(p, q, n);
    if (n <= 32) {
        uint32_t m = ml_ne16_head_tail(p, q, n);
        return m ? ml_diff_at(p, q, ml_ctz64(m)) : 0;
    }
    if (n <= 64) {
        /* Two head and two tail vectors, one test; bit i of the mask is
         * byte i (the tail half shifted by its offset). */
        __m128i e0 = eq16(p, q), e1 = eq16(p + 16, q + 16);
        __m128i e2 = eq16(p + n - 32, q + n - 32), e3 = eq16(p + n - 16, q + n - 16);
        if (ML_LIKELY(_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1),
                                                      _mm_and_si128(e2, e3))) == 0xffff))
            return 0;
        uint64_t head = (uint32_t)_mm_movemask_epi8(e0) | (uint32_t)_mm_movemask_epi8(e1)
                                                              << 16;
        uint64_t tail = (uint32_t)_mm_movemask_epi8(e2) | (uint32_t)_mm_movemask_epi8(e3)
                                                              << 16;
        uint64_t m = (head ^ 0xffffffffu) | (tail ^ 0xffffffffu) << (n - 32);
        return ml_diff_at(p, q, ml_ctz64(m));
    }

    struct eq4 e = eq4_at(p, q);
    if (!eq4_all(e))
        return ml_diff_at(p, q, eq4_first(e));
    if (n > 128) {
        /* Loop on p aligned to 16 bytes; the step back to alignment
         * re-reads at most 15 bytes already found equal. */
        for (size_t i = 64 - ((uintptr_t)p & 15); i < n - 64; i += 64) {
            e = eq4a_at(p + i, q + i);
            if (ML_UNLIKELY(!eq4_all(e)))
                return ml_diff_at(p, q, i + eq4_first(e));
        }
    }
    e = eq4_at(p + n - 64, q + n - 64);
    return ML_LIKELY(eq4_all(e)) ? 0 : ml_diff_at(p, q, n - 64 + eq4_first(e));
}
