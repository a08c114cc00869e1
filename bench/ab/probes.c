/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Probes for the ab harness, NOT correct functions: what the harness
 * itself costs (null: returns at once) and, for memset, what one
 * byte-masked store costs with nothing around it (onemask, correct only
 * for n <= 64 and away from a page end).  No implementation can beat
 * `null`, and `onemask` is the least any AVX-512 memset does for n < 64,
 * so they bound the speed-up any variant can show.
 */
#include <immintrin.h>
#include <stddef.h>

void *memlane_memset_null(void *d, int c, size_t n);
void *memlane_memset_onemask(void *d, int c, size_t n);
int memlane_memcmp_null(const void *a, const void *b, size_t n);
int memlane_bcmp_null(const void *a, const void *b, size_t n);
int memlane_timingsafe_bcmp_null(const void *a, const void *b, size_t n);
int memlane_timingsafe_memcmp_null(const void *a, const void *b, size_t n);

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

int memlane_memcmp_null(const void *a, const void *b, size_t n)
{
    (void)a;
    (void)b;
    (void)n;
    return 0;
}

/* The same probe under each compare's name (aliases: one body). */
int memlane_bcmp_null(const void *a, const void *b, size_t n)
    __attribute__((alias("memlane_memcmp_null")));
int memlane_timingsafe_bcmp_null(const void *a, const void *b, size_t n)
    __attribute__((alias("memlane_memcmp_null")));
int memlane_timingsafe_memcmp_null(const void *a, const void *b, size_t n)
    __attribute__((alias("memlane_memcmp_null")));
