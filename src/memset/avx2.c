/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, AVX2: 32-byte vectors.
 *
 *   n                 stores
 *   0 .. 31           xmm/dword/byte, three classes, clamped overlapping
 *                     stores (ml_set_upto64_sse): 1-3, 4-15, 16-31
 *   32 .. 128         4 ymm at d + min(32k, n - 32), no branch
 *   129 .. 256        8 ymm, 4 at each end
 *   257 .. 512        8 ymm at d, 8 ending at d+n (7 aligned), 1 between,
 *                     no loop
 *   > 512             4 unaligned ymm at d, aligned loop of 4 ymm, then
 *                     4 unaligned ymm ending at d+n (no remainder branch)
 *   >= special        rep stosb / non-temporal by the tunables (checked
 *                     above 512 bytes only)
 * Up to 512 bytes no loop and one class per size range, so random sizes
 * meet three unpredictable branches at most (glibc's loop from 257 B
 * mispredicts its exit); why: docs/memset.md.  The function starts on a
 * 64-byte line.
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

/* dst, returned by each size class: with clang through ml_memset_result,
 * else clang ends the classes with jumps to one shared store-and-return
 * block (32-256 B a core cycle slower); gcc gives each class its own
 * return unasked and lays the function out better without the asm
 * (docs/memset.md). */
static inline void *class_result(void *dst)
{
#if defined(__clang__)
    return ml_memset_result(dst);
#else
    return dst;
#endif
}

__attribute__((aligned(64))) void *memlane_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    if (n < 32) {
        ml_set_upto64_sse(d, n, _mm_set1_epi8((char)c)); /* no ymm: no vzeroupper */
        return class_result(dst);
    }
    __m256i v = _mm256_set1_epi8((char)c);
    if (n <= 128) {
        mls_clamped4(d, n, v);
        return class_result(dst);
    }
    if (n <= 256) {
        mls_head_tail2_or4(d, n, v); /* n > 4W here: no branch */
        return class_result(dst);
    }
    if (n <= 512) {
        mls_head8_tail8_aligned(d, n, v);
        return class_result(dst);
    }
    if (__builtin_expect(n >= ml_memset_special(), 0))
        return mls_set_large(d, c, n);
    mls_head4_loop_tail4(d, n, v);
    return class_result(dst);
}
