/* SPDX-License-Identifier: BSD-2-Clause */
/* timingsafe_bcmp, portable constant-time C: the or of the xors of every
 * word, with an overlapping last word; the loop count depends on n only
 * and there is no early exit. */
#include "ct.h"
#include "internal.h"
#include "ops_scalar.h"

int memlane_timingsafe_bcmp_generic(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t acc = 0;

    if (n <= 8) {
        if (n == 0)
            return 0;
        acc = ml_load_upto8le(p, n) ^ ml_load_upto8le(q, n);
    } else {
        for (size_t i = 0; i < n - 8; i += 8)
            acc |= ml_ct_barrier(ml_load64(p + i) ^ ml_load64(q + i));
        acc |= ml_load64(p + n - 8) ^ ml_load64(q + n - 8);
    }
    return (int)ml_ct_nonzero(ml_ct_barrier(acc));
}
