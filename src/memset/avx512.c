/* memset, AVX-512 (F/BW/VL): 64-byte vectors.
 *
 *   n              stores                                      why
 *   0 .. 64        1 masked zmm (bzhi mask), no branch on n    5.7 vs 7.0 cycles for
 *                                                              overlapping xmm/ymm pairs
 *   65 .. 128      2 zmm, head + tail
 *   129 .. 256     4 zmm, 2 at each end
 *   449 .. 512     8 zmm, 4 at each end                        beats 9 aligned lines
 *   257 .. 448,    all aligned: masked first/last line, full   split zmm stores cost
 *   > 512          lines between (4 per iteration)             double on Zen 4
 *   >= threshold   rep stosb / non-temporal (src/tunables.h)
 * Measurements: docs/memset-tuning.md.
 */
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
#include "ops_x86_store.h"

/* Out of line, and taking the byte rather than the vector: a vector
 * argument would make the caller realign its stack and keep a frame on
 * every path, small sizes included. */
static __attribute__((noinline)) void *set_large(unsigned char *d, int c,
                                                 size_t n)
{
    const struct ml_memset_tunables *t = ml_memset_tunables();
    __m512i v = _mm512_set1_epi8((char)c);
    if (n >= t->nt)
        mls_loop_nt(d, n, v);
    else if (n >= t->rep_stosb)
        mls_rep_stosb(d, c, n);
    else
        mls_masked_loop(d, n, v);
    return d;
}

void *memlane_memset_avx512(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m512i v = _mm512_set1_epi8((char)c);

    if (n <= 64) {
        /* bzhi keeps the low n bits; n = 64 keeps all of them.  Masked-off
         * bytes are never written and never fault. */
        _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)n), v);
        return dst;
    }
    if (n <= 128) {
        mls_head_tail(d, n, v);
        return dst;
    }
    if (n <= 256) {
        mls_head_tail2(d, n, v);
        return dst;
    }
    if (n - 449 < 64) {         /* 449 .. 512 */
        mls_head_tail4(d, n, v);
        return dst;
    }
    if (__builtin_expect(n >= ml_memset_tun.special, 0) ||
        __builtin_expect(!ml_memset_tun_ready, 0))
        return set_large(d, c, n);
    else
        mls_masked_loop(d, n, v);
    return dst;
}
