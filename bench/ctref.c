/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The classic constant-time byte loops of the BSD libcs, the reference
 * base of the TsBcmp and TsMemcmp rows.  Built with vectorisation off
 * (mk/bench.mk) so they stay the byte loops users of those libcs run.
 */
#include <limits.h>
#include <stddef.h>

#include "impls.h"

int bench_bytewise_ct_bcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= (unsigned)(p[i] ^ q[i]);
    return acc != 0;
}

int bench_bytewise_ct_memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    int result = 0, decided = 0;
    for (size_t i = 0; i < n; i++) {
        /* -1 where p[i] < q[i] (the shifted difference is negative),
         * 0 otherwise; the same the other way round. */
        int below = (p[i] - q[i]) >> CHAR_BIT;
        int above = (q[i] - p[i]) >> CHAR_BIT;
        result |= (below - above) & ~decided;
        decided |= below | above;
    }
    return result;
}
