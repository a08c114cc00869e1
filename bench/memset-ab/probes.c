/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Probes for memset-ab, NOT memsets: what the harness itself costs (null)
 * and what one byte-masked store costs with nothing around it (onemask,
 * correct only for n <= 64 and away from a page end).  A memset cannot
 * beat `null`, and `onemask` is the least any AVX-512 memset does for
 * n < 64, so they bound the speed-up any variant can show.
 */
#include <immintrin.h>
#include <stddef.h>

void *memlane_memset_null(void *d, int c, size_t n);
void *memlane_memset_onemask(void *d, int c, size_t n);

void *memlane_memset_null(void *d, int c, size_t n)
{
    (void)c;
    (void)n;
    return d;
}

void *memlane_memset_onemask(void *d, int c, size_t n)
{
    _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)n), _mm512_set1_epi8((char)c));
    return d;
}
