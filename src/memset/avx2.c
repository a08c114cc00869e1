/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, AVX2: 32-byte vectors.
 *
 *   n                 stores
 *   0 .. 31           xmm/dword/byte: 1-3 bytes, 4-15 4 dwords (clamped,
 *                     overlapping), 16-31 2 xmm at the ends
 *   32 .. 64          2 ymm at the ends
 *   65 .. 128         2 ymm at each end
 *   129 .. 256        4 ymm at each end
 *   257 .. 512        lines of 4 ymm at d, d+128 and ending at d+n, and
 *                     at d+256 from 385 B, no loop
 *   > 512             4 unaligned ymm at d, aligned loop of 4 ymm, then
 *                     4 unaligned ymm ending at d+n (no remainder branch)
 *   >= special        rep stosb / non-temporal by the tunables (checked
 *                     above 512 bytes only)
 * From 16 B as many stores as glibc's code up to 512 B; why: docs/
 * memset.md, "avx2 on Zen 3".  The function is assembly (avx2_entry.S,
 * which says why) except above the special threshold, ml_memset_avx2_large
 * here.  Sanitizer builds compile the C entry below instead, the same
 * classes and stores.
 */
#include <immintrin.h>

#include "internal.h"
#include "tunables.h"

#define MLS_VEC __m256i
#define MLS_W 32
#define MLS_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define MLS_STOREA(p, v) _mm256_store_si256((__m256i *)(void *)(p), (v))
#define MLS_STORENT(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
#define MLS_SPLAT(c) _mm256_set1_epi8((char)(c))
#include "ops_x86_store.h"

#if !defined(ML_SANITIZED)
/* avx2_entry.S reads the threshold at this offset. */
_Static_assert(offsetof(struct ml_memset_tunables, special) == 24,
               "SPECIAL in avx2_entry.S");

/* n at or above the special threshold (avx2_entry.S jumps here). */
ML_ASM_PART void *ml_memset_avx2_large(unsigned char *d, int c, size_t n);
ML_ASM_PART void *ml_memset_avx2_large(unsigned char *d, int c, size_t n)
{
    return mls_set_large(d, c, n);
}
#else
/* The entry of sanitizer builds: the classes of avx2_entry.S. */
__attribute__((aligned(64))) void *memlane_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    if (n < 32) {
        ml_set_upto32_sse(d, n, _mm_set1_epi8((char)c)); /* no ymm: no vzeroupper */
        return dst;
    }
    __m256i v = _mm256_set1_epi8((char)c);
    if (n <= 64)
        mls_head_tail(d, n, v);
    else if (n <= 128)
        mls_head_tail2(d, n, v);
    else if (n <= 256)
        mls_head_tail2_or4(d, n, v); /* n > 4W here: no branch */
    else if (n <= 512)
        mls_lines3_or4(d, n, v);
    else if (__builtin_expect(n >= ml_memset_special(), 0))
        return mls_set_large(d, c, n);
    else
        mls_head4_loop_tail4(d, n, v);
    return dst;
}
#endif
