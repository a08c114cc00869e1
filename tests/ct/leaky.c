/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Deliberately leaky comparisons: the negative controls of the
 * constant-time checks.  Each check must flag the leak it is built to see,
 * or the check itself fails.  Not part of the library.
 *
 *   ct_leaky_early_exit  returns at the first differing byte: its time and
 *                        branches depend on the data (trace, taint, t-test)
 *   ct_leaky_tzcnt       branch-free, but finds the first differing byte
 *                        with tzcnt, which is not on the DOIT list
 *                        (instruction allow-list)
 *   ct_leaky_libcall     calls libc memcmp (allow-list: no calls)
 *   ct_leaky_tailjump    ct_leaky_tzcnt's loop in a cold helper it jumps
 *                        to (a tail call into another section, so in an
 *                        object file a relocation): the allow-list check
 *                        must follow the jump to see the tzcnt
 */
#include <immintrin.h>
#include <string.h>

#include "ct_check.h"
#include "ops_scalar.h"

int ct_leaky_early_exit(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] < q[i] ? -1 : 1;
    return 0;
}

/* Word-wise memcmp sign without branches on the data; the first differing
 * byte of each word is found with tzcnt (BMI1, named explicitly so the
 * instruction is there whatever the compiler flags). */
__attribute__((always_inline, target("bmi"))) static inline long
tzcnt_sign(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    long res = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        unsigned long long x = ml_load64(p + i), y = ml_load64(q + i);
        unsigned long long d = x ^ y;
        /* tzcnt of 0 is 64: shift by 63 at most, mask the no-difference case. */
        unsigned long long tz = (unsigned long long)_tzcnt_u64(d);
        unsigned sh = (unsigned)(tz & 56);
        long xb = (long)((x >> sh) & 0xff), yb = (long)((y >> sh) & 0xff);
        long diff = xb - yb;
        long sign = (diff > 0) - (diff < 0);
        long none = (long)(res == 0);
        res = res + (sign & -none);
    }
    return res;
}

__attribute__((target("bmi"))) int ct_leaky_tzcnt(const void *a, const void *b, size_t n)
{
    return (int)tzcnt_sign(a, b, n);
}

/* Out of line and cold (.text.unlikely), so that ct_leaky_tailjump
 * reaches it by a jump to another section. */
__attribute__((noinline, cold, target("bmi"))) static int
tzcnt_sign_outlined(const void *a, const void *b, size_t n)
{
    return (int)tzcnt_sign(a, b, n);
}

int ct_leaky_tailjump(const void *a, const void *b, size_t n)
{
    if (n < 8)
        return 0;
    return tzcnt_sign_outlined(a, b, n);
}

int ct_leaky_libcall(const void *a, const void *b, size_t n)
{
    /* Through a volatile pointer so that no compiler inlines it away. */
    int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
    return cmp(a, b, n) != 0;
}
