/* SPDX-License-Identifier: BSD-2-Clause */
/* memcmp, portable C: 8-byte words, an overlapping last word, and the
 * first differing byte found from the xor of two little-endian words. */
#include "internal.h"
#include "ops_scalar.h"

int memlane_memcmp_generic(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t x, y;

    if (n <= 8) {
        if (n == 0)
            return 0;
        x = ml_load_upto8le(p, n);
        y = ml_load_upto8le(q, n);
        return x == y ? 0 : ml_diff_le64(x, y);
    }
    for (size_t i = 0; i < n - 8; i += 8) {
        x = ml_load64le(p + i);
        y = ml_load64le(q + i);
        if (x != y)
            return ml_diff_le64(x, y);
    }
    /* The last word overlaps bytes already found equal. */
    x = ml_load64le(p + n - 8);
    y = ml_load64le(q + n - 8);
    return x == y ? 0 : ml_diff_le64(x, y);
}
