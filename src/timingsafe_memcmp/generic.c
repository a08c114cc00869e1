/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, portable constant-time C.
 *
 * Words are compared from the last to the first and every word that
 * differs overwrites the result, so the first differing word wins without
 * an early exit.  The last word overlaps the one before it when n is not
 * a multiple of 8; it is taken first, so the overlap cannot decide ahead
 * of an earlier difference.  Loop count and addresses depend on n only.
 */
#include "ct.h"
#include "internal.h"
#include "ops_scalar.h"

int memlane_timingsafe_memcmp_generic(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t res;

    if (n <= 8) {
        if (n == 0)
            return 0;
        res = ml_ct_cmp_words_le(ml_load_upto8le(p, n), ml_load_upto8le(q, n));
        return (int)(int64_t)res;
    }
    res = ml_ct_cmp_words_le(ml_load64le(p + n - 8), ml_load64le(q + n - 8));
    for (size_t i = (n - 1) / 8; i-- > 0;) {
        uint64_t r = ml_ct_cmp_words_le(ml_load64le(p + 8 * i), ml_load64le(q + 8 * i));
        res = ml_ct_select(ml_ct_mask_nonzero(r), r, res);
    }
    return (int)(int64_t)res;
}
