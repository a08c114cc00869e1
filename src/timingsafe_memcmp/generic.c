/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timingsafe_memcmp, portable constant-time C.
 *
 * Up to 8 bytes, one big-endian word of a composed sequence
 * (ml_ct_load_upto8be) and one three-way compare.  Above, the words are
 * walked from the last to the first and every pair of words that differs
 * replaces the kept pair (a mask select), so the pair kept at the end is
 * the first that differs, without an early exit; its big-endian order is
 * the result.  The last word overlaps the one before it when n is not a
 * multiple of 8; it is taken first, so the overlap cannot decide ahead of
 * an earlier difference.  Loop count and addresses depend on n only.
 */
#include "ct.h"
#include "internal.h"
#include "ops_scalar.h"

int memlane_timingsafe_memcmp_generic(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;

    if (n <= 8) {
        if (n == 0)
            return 0;
        return ml_ct_cmp64_c(ml_ct_load_upto8be(p, n), ml_ct_load_upto8be(q, n));
    }
    uint64_t ka = ml_load64(p + n - 8), kb = ml_load64(q + n - 8);
    for (size_t i = (n - 1) / 8; i-- > 0;) {
        uint64_t wa = ml_load64(p + 8 * i), wb = ml_load64(q + 8 * i);
        uint64_t differ = ml_ct_mask_nonzero(wa ^ wb);
        ka = ml_ct_select(differ, wa, ka);
        kb = ml_ct_select(differ, wb, kb);
    }
    return ml_ct_cmp64_c(ml_be64(ka), ml_be64(kb));
}
