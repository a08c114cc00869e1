/* SPDX-License-Identifier: BSD-2-Clause */
/* bcmp, portable C: xor of 16 bytes per step, one test per step, and an
 * overlapping tail; never needs the position of a difference. */
#include "internal.h"
#include "ops_scalar.h"

int memlane_bcmp_generic(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 8) {
        if (n == 0)
            return 0;
        return ml_load_upto8le(p, n) != ml_load_upto8le(q, n);
    }
    if (n <= 16)
        return ((ml_load64(p) ^ ml_load64(q)) |
                (ml_load64(p + n - 8) ^ ml_load64(q + n - 8))) != 0;
    for (size_t i = 0; i < n - 16; i += 16)
        if ((ml_load64(p + i) ^ ml_load64(q + i)) |
            (ml_load64(p + i + 8) ^ ml_load64(q + i + 8)))
            return 1;
    return ((ml_load64(p + n - 16) ^ ml_load64(q + n - 16)) |
            (ml_load64(p + n - 8) ^ ml_load64(q + n - 8))) != 0;
}
