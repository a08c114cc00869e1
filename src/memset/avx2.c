/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, AVX2: 32-byte vectors.
 *
 *   n                 stores
 *   0 .. 31           three classes, clamped overlapping stores:
 *                     1-3 bytes, 4-15 4 dwords, 16-31 4 xmm
 *   32 .. 64          2 ymm, one at each end
 *   65 .. 128         4 ymm, 2 at each end
 *   129 .. 256        8 ymm, 4 at each end
 *   > 256             4 unaligned ymm at d, aligned loop of 4 ymm, then
 *                     4 unaligned ymm ending at d+n (no remainder branch)
 *                     rep stosb / non-temporal above the tunables
 * Measured against glibc 2.36's __memset_avx2_unaligned_erms (docs/memset.md):
 * 2 ymm rather than 4 xmm for 32-64 bytes took fixed sizes from 1.37x
 * glibc's time to 1.00x; the 4-ymm
 * tail took sizes uniform in 0-512 from 0.77x glibc's speed to 0.93x
 * (257-1024 B at fixed sizes: 0.86-1.0x became 1.0-1.07x); the function
 * starts on a 64-byte line (at 16 bytes past one it measured ~10 %
 * slower at 16-256 B).  4 head vectors before the loop rather than one
 * (mls_head4_loop_tail4): 257-512 B uniform 0.90 -> 0.97x glibc's speed.
 * Tried and dropped: the < 32 B path on xmm only (no vzeroupper; Mid and
 * 8 B slower), 65-256 B as one class (Uniform512 0.95 -> 0.90x).
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

    __m256i v = _mm256_set1_epi8((char)c);
    if (__builtin_expect(n <= 64, 1)) {
        if (n >= 32)
            mls_head_tail(d, n, v);
        else
            ml_set_upto64_sse(d, n, _mm256_castsi256_si128(v));
        return dst;
    }
    if (n <= 128) {
        mls_head_tail2(d, n, v);
        return dst;
    }
    if (n <= 256) {
        mls_head_tail2_or4(d, n, v); /* n > 4W here: no branch */
        return dst;
    }
    if (__builtin_expect(n >= ml_memset_special(), 0))
        return mls_set_large(d, c, n);
    else
        mls_head4_loop_tail4(d, n, v);
    return dst;
}
