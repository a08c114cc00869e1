/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86 store building blocks for memset, in the style of LLVM libc's
 * memory_utils: every block fills [d, d+n) exactly, never a byte outside,
 * and a variant is a size ladder of these blocks that reads like a table.
 *
 * The header is a template over one vector width.  Before including it a
 * variant defines:
 *   MLS_VEC              the vector type (__m128i, __m256i, __m512i)
 *   MLS_W                its width in bytes (16, 32, 64)
 *   MLS_STOREU(p, v)     unaligned store of one vector
 *   MLS_STOREA(p, v)     aligned store of one vector
 *   MLS_STORENT(p, v)    aligned non-temporal store of one vector
 *   MLS_MASKED, MLS_STORE_MASKED(p, mask, v)   optionally (AVX-512 only):
 *                        byte-masked store of one vector
 *   MLS_SPLAT(c)         the byte c broadcast to a vector
 * and gets, all static inline, with v the byte broadcast once:
 *   mls_head_tail(d, n, v)      1 vector at each end,  W <= n <= 2W
 *   mls_head_tail2(d, n, v)     2 vectors at each end, 2W <= n <= 4W
 *   mls_head_tail2_or4(d, n, v) the same, and 4 vectors at each end when
 *                               n > 4W, 2W <= n <= 8W (one branch, which
 *                               folds away where the caller knows n > 4W)
 *   mls_lines3_or4(d, n, v)     lines of 4 vectors at d, d+4W, d+8W
 *                               (n > 12W) and ending at d+n; 8W < n <= 16W
 *   mls_head4_loop_tail4(d, n, v) 4 unaligned vectors at each end, aligned
 *                               vectors between, 4 per iteration; n > 8W
 *   mls_ends_ladder(d, n, v)    lines of 4 vectors from both ends in turn,
 *                               a test after each, to 32W, then aligned
 *                               vectors between; n > 4W
 *   mls_loop_nt(d, n, v)        the same with non-temporal stores for the
 *                               aligned vectors, then sfence; n > W
 *   mls_masked_upto128(d, n, v) (if MLS_MASKED: AVX-512) two masked
 *                               stores, no branch; 0 <= n <= 128; the
 *                               second at d + mls_masked_upto128_second(n)
 *   mls_masked_lines_upto128    the same with aligned lines, near a page end
 *   mls_rep_stosb(d, c, n)      rep stosb
 *   mls_set_large(d, c, n)      out of line: non-temporal, rep stosb or
 *                               mls_head4_loop_tail4 by the tunables; n > 8W
 * Level-independent blocks come first: ml_set_upto64_sse covers n <= 64,
 * ml_set_upto32_sse n <= 31, ml_memset_result(dst) returns dst.
 */
#ifndef MEMLANE_OPS_X86_STORE_H
#define MEMLANE_OPS_X86_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <emmintrin.h>

#include "ops_scalar.h"
#include "tunables.h"

/* dst, the return value, in the return register (rax) at the exit that
 * returns it: else gcc 12 sends exits through one shared `mov; ret` block,
 * a taken jump more each (docs/memset.md). */
static inline void *ml_memset_result(void *dst)
{
    __asm__("" : "+a"(dst));
    return dst;
}

/* 0 <= n <= 15 in two classes of clamped overlapping stores (below). */
static inline __attribute__((always_inline)) void ml_set_upto15(unsigned char *d,
                                                                size_t n, uint32_t w)
{
    if (n >= 4) {
        size_t t = n - 4;
        ml_store32(d, w);
        ml_store32(d + (t < 4 ? t : 4), w);
        ml_store32(d + (t < 8 ? t : 8), w);
        ml_store32(d + t, w);
        return;
    }
    if (n) {
        d[0] = (unsigned char)w;
        d[n >> 1] = (unsigned char)w;
        d[n - 1] = (unsigned char)w;
    }
}

/*
 * 0 <= n <= 64 without AVX-512 masks, in three classes (0-3, 4-15,
 * 16-64) so that random sizes meet two unpredictable branches rather
 * than a ladder of six.  Within a class the store addresses are clamped
 * (min(k * size, n - size)) so one sequence covers the whole class:
 *   16 .. 64   4 xmm at d, d+min(16,n-16), d+min(32,n-16), d+n-16
 *   4 .. 15    4 dwords at d, d+min(4,n-4), d+min(8,n-4), d+n-4
 *   1 .. 3     bytes at d, d+n/2, d+n-1
 * (measured against the ladder: docs/memset.md, "The store sequences").
 */
static inline __attribute__((always_inline)) void ml_set_upto64_sse(unsigned char *d,
                                                                    size_t n, __m128i x)
{
    if (n >= 16) {
        size_t t = n - 16;
        _mm_storeu_si128((__m128i *)(void *)d, x);
        _mm_storeu_si128((__m128i *)(void *)(d + (t < 16 ? t : 16)), x);
        _mm_storeu_si128((__m128i *)(void *)(d + (t < 32 ? t : 32)), x);
        _mm_storeu_si128((__m128i *)(void *)(d + t), x);
        return;
    }
    ml_set_upto15(d, n, (uint32_t)_mm_cvtsi128_si32(x));
}

/* 0 <= n <= 31: 16..31 as the xmm at d and at d+n-16, below as above. */
static inline __attribute__((always_inline)) void ml_set_upto32_sse(unsigned char *d,
                                                                    size_t n, __m128i x)
{
    if (n >= 16) {
        _mm_storeu_si128((__m128i *)(void *)d, x);
        _mm_storeu_si128((__m128i *)(void *)(d + n - 16), x);
        return;
    }
    ml_set_upto15(d, n, (uint32_t)_mm_cvtsi128_si32(x));
}

/* rep stosb: dst in rdi, count in rcx, byte in al.  Inline asm because C
 * has no intrinsic that guarantees the string instruction itself (the
 * compiler would be free to turn a loop into a call to memset). */
static inline __attribute__((always_inline)) void mls_rep_stosb(unsigned char *d, int c,
                                                                size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

#endif /* MEMLANE_OPS_X86_STORE_H */

/* ---- the vector template: once per including variant ---- */
#if defined(MLS_VEC) && !defined(MLS_TEMPLATE_DONE)
#define MLS_TEMPLATE_DONE

#define MLS_INLINE static inline __attribute__((always_inline))

/* W <= n <= 2W */
MLS_INLINE void mls_head_tail(unsigned char *d, size_t n, MLS_VEC v)
{
    MLS_STOREU(d, v);
    MLS_STOREU(d + n - MLS_W, v);
}

/* 2W <= n <= 4W */
MLS_INLINE void mls_head_tail2(unsigned char *d, size_t n, MLS_VEC v)
{
    unsigned char *e = d + n;
    MLS_STOREU(d, v);
    MLS_STOREU(d + MLS_W, v);
    MLS_STOREU(e - 2 * MLS_W, v);
    MLS_STOREU(e - MLS_W, v);
}

/* 2W <= n <= 8W: 2 vectors at each end, and 2 more at each end when
 * n > 4W, as one sequence with one branch that adds the middle stores.
 * The two size classes share their first and last stores in code: given
 * them as two blocks, clang 14 merged their common tail behind an extra
 * jump and kept a stack frame.  The stores stay in ascending order, which
 * was faster than the tail pair first (docs/memset.md, "avx512, 129-512
 * bytes and Uniform512"). */
MLS_INLINE void mls_head_tail2_or4(unsigned char *d, size_t n, MLS_VEC v)
{
    unsigned char *e = d + n;
    MLS_STOREU(d, v);
    MLS_STOREU(d + MLS_W, v);
    if (n > 4 * MLS_W) {
        MLS_STOREU(d + 2 * MLS_W, v);
        MLS_STOREU(d + 3 * MLS_W, v);
        MLS_STOREU(e - 4 * MLS_W, v);
        MLS_STOREU(e - 3 * MLS_W, v);
    }
    MLS_STOREU(e - 2 * MLS_W, v);
    MLS_STOREU(e - MLS_W, v);
}

/* One line of 4 vectors at p. */
MLS_INLINE void mls_line4(unsigned char *p, MLS_VEC v)
{
    MLS_STOREU(p, v);
    MLS_STOREU(p + MLS_W, v);
    MLS_STOREU(p + 2 * MLS_W, v);
    MLS_STOREU(p + 3 * MLS_W, v);
}

/* 8W < n <= 16W: lines of 4 vectors at d, d+4W, d+8W when n > 12W, and
 * ending at d+n; one branch, no loop whose trip count varies.  12 or 16
 * stores, as many as glibc's loop makes there. */
MLS_INLINE void mls_lines3_or4(unsigned char *d, size_t n, MLS_VEC v)
{
    mls_line4(d, v);
    mls_line4(d + 4 * MLS_W, v);
    if (n > 12 * MLS_W)
        mls_line4(d + 8 * MLS_W, v);
    mls_line4(d + n - 4 * MLS_W, v);
}

/* Aligned vectors, 4 per iteration, from the vector boundary at or below
 * d+4W while they start below last (at least one iteration: the callers
 * have n > 8W, and cover [last, last+4W) themselves). */
MLS_INLINE void mls_loop4_from4w(unsigned char *d, unsigned char *last, MLS_VEC v)
{
    unsigned char *p =
        (unsigned char *)(((uintptr_t)d + 4 * MLS_W) & ~(uintptr_t)(MLS_W - 1));
    do {
        MLS_STOREA(p, v);
        MLS_STOREA(p + MLS_W, v);
        MLS_STOREA(p + 2 * MLS_W, v);
        MLS_STOREA(p + 3 * MLS_W, v);
        p += 4 * MLS_W;
    } while (p < last);
}

/* Above 8W with no branch on the remainder (glibc's shape): 4 unaligned
 * vectors at d, aligned vectors 4 per iteration from the vector boundary
 * at or below d+4W while they start below e-4W, then 4 unaligned vectors
 * ending at e, overlapping what the loop stored.  The loop runs at least
 * once, so its test is one pointer compare at the bottom: no branch on the
 * remainder, which random sizes mispredict (docs/memset.md, "The store
 * sequences").  n > 8W, so every store lies in [d, e). */
MLS_INLINE void mls_head4_loop_tail4(unsigned char *d, size_t n, MLS_VEC v)
{
    unsigned char *e = d + n;
    unsigned char *last = e - 4 * MLS_W;
    mls_line4(d, v);
    mls_loop4_from4w(d, last, v);
    mls_line4(last, v);
}

/* n > 4W as a ladder of lines (4W bytes) filled from both ends: one at
 * each end, then one at a time, head and tail in turn, to 32W; above
 * that aligned vectors over the middle [d + 16W, e - 16W), 4 per
 * iteration.  Each rung's stores come before its test, so random sizes
 * meet one unpredictable test where a loop mispredicts its exit; each
 * size stores as many vectors as mls_head4_loop_tail4 or fewer
 * (docs/memset.md, "A ladder for 65-512 bytes"). */
MLS_INLINE void mls_ends_ladder(unsigned char *d, size_t n, MLS_VEC v)
{
    const size_t line = 4 * MLS_W;
    unsigned char *e = d + n;
    mls_line4(d, v);
    mls_line4(e - line, v);
    if (n <= 2 * line)
        return;
    mls_line4(d + line, v);
    if (n <= 3 * line)
        return;
    mls_line4(e - 2 * line, v);
    if (n <= 4 * line)
        return;
    mls_line4(d + 2 * line, v);
    if (n <= 5 * line)
        return;
    mls_line4(e - 3 * line, v);
    if (n <= 6 * line)
        return;
    mls_line4(d + 3 * line, v);
    if (n <= 7 * line)
        return;
    mls_line4(e - 4 * line, v);
    if (n <= 8 * line)
        return;
    mls_loop4_from4w(d + 3 * line, e - 4 * line, v);
}

/* The same with non-temporal stores for the whole vectors.  The two
 * unaligned ends go through the cache; the sfence orders the weakly
 * ordered NT stores before any later store (another thread that sees a
 * later flag must see the fill).  n > W. */
MLS_INLINE void mls_loop_nt(unsigned char *d, size_t n, MLS_VEC v)
{
    unsigned char *e = d + n;
    MLS_STOREU(d, v);
    unsigned char *p =
        (unsigned char *)(((uintptr_t)d + MLS_W) & ~(uintptr_t)(MLS_W - 1));
    for (; e - p > 4 * MLS_W; p += 4 * MLS_W) {
        MLS_STORENT(p, v);
        MLS_STORENT(p + MLS_W, v);
        MLS_STORENT(p + 2 * MLS_W, v);
        MLS_STORENT(p + 3 * MLS_W, v);
    }
    for (; e - p > MLS_W; p += MLS_W)
        MLS_STORENT(p, v);
    __asm__ volatile("sfence" ::: "memory");
    MLS_STOREU(e - MLS_W, v);
}

#if defined(MLS_MASKED)
/*
 * AVX-512 only: 0 <= n <= 128 with no branch on n: two byte-masked
 * stores, at d (the first min(n, 64) bytes) and at
 * d + mls_masked_upto128_second(n): for n > 64 the last 64 bytes, all of
 * them (overlapping the first store), else d again with the same mask.
 * Masked-off bytes are never written and never fault, but a store whose
 * 64 bytes cross into another page is slow even with an empty mask (a
 * page-split store, and a fault-suppression assist if that page is not
 * writable), so callers check that the stores' footprint,
 * [d, d + second + 64) = [d, max(d + 64, d + n)), stays in one page, and
 * take mls_masked_lines_upto128 when it does not.  The footprint is
 * glibc's (one masked store below 64 bytes, head and tail above), the
 * smallest the check can cover (docs/memset.md, "The store sequences").
 */
MLS_INLINE size_t mls_masked_upto128_second(size_t n) { return n > 64 ? n - 64 : 0; }

MLS_INLINE void mls_masked_upto128(unsigned char *d, size_t n, MLS_VEC v)
{
    size_t second = mls_masked_upto128_second(n);
    /* bzhi keeps the low `index` bits, all 64 for 64 <= index < 256. */
    MLS_STORE_MASKED(d, _bzhi_u64(~0ull, (unsigned)n), v);
    MLS_STORE_MASKED(d + second, _bzhi_u64(~0ull, (unsigned)(n - second)), v);
}

/* The same near a page end: aligned masked stores to just the cache lines
 * that hold bytes of [d, d+n), so no store crosses a page.  n <= 128. */
MLS_INLINE void mls_masked_lines_upto128(unsigned char *d, size_t n, MLS_VEC v)
{
    if (n == 0)
        return;
    unsigned skip = (unsigned)((uintptr_t)d & 63);
    unsigned char *line = d - skip;
    size_t end = skip + n; /* 1 .. 191 bytes from line */
    MLS_STORE_MASKED(
        line, _bzhi_u64(~0ull, (unsigned)(end < 64 ? end : 64)) & (~0ull << skip), v);
    if (end > 64)
        MLS_STORE_MASKED(line + 64, _bzhi_u64(~0ull, (unsigned)(end - 64)), v);
    if (end > 128)
        MLS_STORE_MASKED(line + 128, _bzhi_u64(~0ull, (unsigned)(end - 128)), v);
}

#endif

/*
 * The rare path at or above ml_memset_special() (the 16-byte variant:
 * ml_memset_special_sse2()): non-temporal stores or rep stosb past their
 * tunables, else the variants' loop (mls_head4_loop_tail4, which their
 * hot paths also run: every caller has n > 8W).
 * Out of line, and taking the byte rather than the vector: a vector
 * argument would make the caller realign its stack and keep a frame on
 * every path, small sizes included.  Needs MLS_SPLAT(c).
 */
static __attribute__((noinline)) void *mls_set_large(unsigned char *d, int c, size_t n)
{
    const struct ml_memset_tunables *t = ml_memset_tunables();
    MLS_VEC v = MLS_SPLAT(c);
    if (n >= t->nt)
        mls_loop_nt(d, n, v);
    else if (n >= (MLS_W == 16 ? t->rep_stosb_sse2 : t->rep_stosb))
        mls_rep_stosb(d, c, n);
    else
        mls_head4_loop_tail4(d, n, v);
    /* Hide that the result is d: clang otherwise proves it, reuses the
     * caller's copy of d and turns `return mls_set_large(...)` from a
     * jump into a call, which costs the caller a frame on every path. */
    __asm__("" : "+r"(d));
    return d;
}

#undef MLS_INLINE
#endif /* MLS_VEC */
