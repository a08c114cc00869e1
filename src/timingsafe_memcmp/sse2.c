/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp for the x86-64 baseline, in general-purpose registers
 * (ct_x86.h): bytes as big-endian words, whose unsigned order is memcmp's.
 * Up to 16 bytes one word (composed below 9 bytes) or a head/tail pair
 * compared with sub/sbb.  Up to 512 bytes FreeBSD's walk: one loop over
 * the 16-byte blocks from the start, each replacing the kept word pair by
 * its first differing pair while the kept pair is equal (cmov); a single
 * loop exit is all random lengths mispredict.  Above, unrolled 64-byte
 * groups, each decided from its last block to its first (one cmov deep
 * per block), the groups taken from the start the same way.  Per
 * 16 bytes: four loads, two cmp and four cmov, against five SSE2 ops per 16
 * bytes and two pmovmskb in the vector form this replaced
 * (docs/timingsafe.md).
 */
#include "ct.h"
#include "ct_x86.h"
#include "internal.h"

/* n > 512 (out of line under clang: see ML_CT_OUTLINE_CLANG). */
ML_CT_OUTLINE_CLANG int memcmp_above512(const unsigned char *p, const unsigned char *q,
                                        size_t n)
{
    return ml_ct_memcmp_groups(p, q, n);
}

int memlane_timingsafe_memcmp_sse2(const void *pa, const void *pb, size_t n)
{
    const unsigned char *p = pa, *q = pb;

    /* the long case tested first: measured faster below 64 bytes than
     * after the n <= 16 test (docs/timingsafe-results.md) */
    if (n > 512)
        return memcmp_above512(p, q, n);
    if (__builtin_expect(n <= 16, 1))
        return ml_ct_memcmp_upto16(p, q, n);
    return ml_ct_memcmp_fwd16(p, q, n);
}
