/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, AVX2: 32-byte vectors, glibc's size classes.
 *
 *   n                 stores
 *   0 .. 31           xmm/dword/byte, three classes, clamped overlapping
 *                     stores (ml_set_upto64_sse): 1-3, 4-15, 16-31
 *   32 .. 64          2 ymm, one at each end
 *   65 .. 128         4 ymm, 2 at each end         (mls_above2w)
 *   129 .. 256        8 ymm, 4 at each end
 *   > 256             4 unaligned ymm at d, aligned loop of 4 ymm, then
 *                     4 unaligned ymm ending at d+n (no remainder branch)
 *   >= special        rep stosb / non-temporal by the tunables (checked
 *                     above 64 bytes, where glibc checks its threshold)
 * The order of the tests and blocks is glibc 2.36's
 * __memset_avx2_unaligned_erms: on Zen 5 the same stores behind a
 * different block layout (the classes' own branches, a shared
 * vzeroupper/ret reached by a jump, a loop across a 64-byte line) cost
 * 0.5-1.2 TSC cycles per call at 65-128 B and 272-1024 B
 * (docs/memset-results.md).  The function starts on a 64-byte line.
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
#define MLS_LOOP mls_loop_and_tail
#include "ops_x86_store.h"

__attribute__((aligned(64))) void *memlane_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    if (n < 32) {
        ml_set_upto64_sse(d, n, _mm_set1_epi8((char)c)); /* no ymm: no vzeroupper */
        return dst;
    }
    __m256i v = _mm256_set1_epi8((char)c);
    if (n <= 64) {
        mls_head_tail(d, n, v);
        return dst;
    }
    if (__builtin_expect(n >= ml_memset_special(), 0))
        return mls_set_large(d, c, n);
    mls_above2w(d, n, v);
    return dst;
}
