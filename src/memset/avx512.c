/* SPDX-License-Identifier: BSD-2-Clause */
// clang-format off
/* memset, AVX-512 (F/BW/VL): 64-byte vectors.  Why each row: docs/memset.md.
 *
 *   n             stores                                why (Zen 4; > 512 B: Zen 5)
 *   0 .. 128      2 byte-masked zmm at d, d+n-64 (d, d  no branch on n: random sizes
 *                 for n <= 64), no branch on n          around 64 B do not mispredict
 *     near a page aligned masked lines instead          a page-split store ~25 cycles,
 *                                                       even with an empty mask
 *   129 .. 256    4 zmm, 2 at each end
 *   257 .. 512    8 zmm, 4 at each end                  no loop: a trip count that
 *                                                       varies mispredicts
 *   > 512         4 unaligned zmm at d, aligned loop of  glibc's shape: on Zen 5 an
 *                 4 zmm, 4 unaligned zmm ending at d+n  all-aligned masked loop was
 *                                                       slower (docs/memset.md)
 *   >= threshold  non-temporal / rep stosb (src/tunables.h)
 *
 * The classes to 512 B are in the entry function (64-byte aligned), the
 * rarer paths (page end, above 512 B) out of line.
 */
// clang-format on
#include <immintrin.h>

#include "internal.h"
#include "tunables.h"

#define MLS_VEC __m512i
#define MLS_W 64
#define MLS_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define MLS_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define MLS_STORENT(p, v) _mm512_stream_si512((void *)(p), (v))
#define MLS_MASKED 1
#define MLS_STORE_MASKED(p, m, v) _mm512_mask_storeu_epi8((void *)(p), (m), (v))
#define MLS_SPLAT(c) _mm512_set1_epi8((char)(c))
#include "ops_x86_store.h"

#define ML_PAGE 4096

/* avx512_zmm16.c builds this file again under another entry name. */
#ifndef ML_MEMSET_AVX512_ENTRY
#define ML_MEMSET_AVX512_ENTRY memlane_memset_avx512
#endif

static __attribute__((noinline)) void *set_page_end(unsigned char *d, int c, size_t n)
{
    mls_masked_lines_upto128(d, n, _mm512_set1_epi8((char)c));
    __asm__("" : "+r"(d)); /* keeps clang's call to this a jump: see mls_set_large */
    return d;
}

static __attribute__((noinline)) void *set_above512(unsigned char *d, int c, size_t n)
{
    if (__builtin_expect(n >= ml_memset_special(), 0))
        return mls_set_large(d, c, n);
    mls_head4_loop_tail4(d, n, _mm512_set1_epi8((char)c));
    return d;
}

__attribute__((aligned(64))) void *ML_MEMSET_AVX512_ENTRY(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    if (__builtin_expect(n <= 128, 1)) {
        /* the two stores cover [d, d + second + 64): within d's page? */
        size_t end_in_page =
            ((uintptr_t)d & (ML_PAGE - 1)) + mls_masked_upto128_second(n) + 64;
        if (__builtin_expect(end_in_page > ML_PAGE, 0))
            return set_page_end(d, c, n);
        mls_masked_upto128(d, n, _mm512_set1_epi8((char)c));
        return dst;
    }
    /* 129..256 B tested first, so that no branch other sizes take lies
     * on its way: passed untaken once the predictor knows it, such a
     * branch slows the class (docs/memset.md, "Every size warmed"). */
    __m512i v = _mm512_set1_epi8((char)c);
    if (n <= 256) {
        mls_head_tail2(d, n, v);
        return dst;
    }
    if (n <= 512) {
        mls_head_tail2_or4(d, n, v); /* n > 4W here: no branch */
        return dst;
    }
    return set_above512(d, c, n);
}
