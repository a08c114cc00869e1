/* memset, AVX2: 32-byte vectors.
 *
 *   n                 stores
 *   0 .. 64           three classes, clamped overlapping stores:
 *                     1-3 bytes, 4-15 4 dwords, 16-64 4 xmm
 *   65 .. 128         4 ymm, 2 at each end
 *   129 .. 256        8 ymm, 4 at each end
 *   > 256             aligned loop, 4 ymm per iteration, 4-ymm tail;
 *                     (aligned body, unaligned vector at each end)
 *                     rep stosb / non-temporal above the tunables
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

void *memlane_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    __m256i v = _mm256_set1_epi8((char)c);
    if (__builtin_expect(n <= 64, 1)) {
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
        mls_loop_and_tail(d, n, v);
    return dst;
}
