/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, SSE2: 16-byte vectors.
 *
 *   n                 stores
 *   0 .. 64           three classes, overlapping stores:
 *                     1-3 bytes, 4-15 4 dwords, 16-64 4 xmm
 *   65 .. 512         a ladder of lines (4 xmm) from both ends: one at
 *                     each end, then one at a time, head and tail in
 *                     turn, to 512
 *   > 512             the same 32 xmm, then an aligned loop of 4 xmm
 *                     over the middle; rep stosb / non-temporal above
 *                     the tunables (from 129 B on)
 * The function is assembly (sse2_entry.S, which says why) except above
 * the special threshold, ml_memset_sse2_large here.  Sanitizer builds
 * compile the C entry below instead, the same classes and stores.
 */
#include <emmintrin.h>

#include "internal.h"
#include "tunables.h"

#define MLS_VEC __m128i
#define MLS_W 16
#define MLS_STOREU(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define MLS_STOREA(p, v) _mm_store_si128((__m128i *)(void *)(p), (v))
#define MLS_STORENT(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define MLS_SPLAT(c) _mm_set1_epi8((char)(c))
#include "ops_x86_store.h"

#if !defined(ML_SANITIZED)
/* sse2_entry.S reads the threshold at this offset. */
_Static_assert(offsetof(struct ml_memset_tunables, special_sse2) == 32,
               "SPECIAL_SSE2 in sse2_entry.S");

/* n at or above the special threshold (sse2_entry.S jumps here). */
ML_ASM_PART void *ml_memset_sse2_large(unsigned char *d, int c, size_t n);
ML_ASM_PART void *ml_memset_sse2_large(unsigned char *d, int c, size_t n)
{
    return mls_set_large(d, c, n);
}
#else
__attribute__((aligned(64))) void *memlane_memset_sse2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    __m128i v = _mm_set1_epi8((char)c);
    if (__builtin_expect(n <= 64, 1)) {
        ml_set_upto64_sse(d, n, v);
        return ml_memset_result(dst);
    }
    if (__builtin_expect(n > 128 && n >= ml_memset_special_sse2(), 0))
        return mls_set_large(d, c, n);
    mls_ends_ladder(d, n, v);
    return ml_memset_result(dst);
}
#endif
