/* SPDX-License-Identifier: BSD-2-Clause */
/* The control of tests/check-nolibcall.sh: a function that calls memset
 * and memcmp, built as a shared object with the build's CFLAGS (-flto
 * too); the check must flag it, or it cannot see such calls. */
#include <stddef.h>
#include <string.h>

int nolibcall_control(unsigned char *p, int c, size_t n);

int nolibcall_control(unsigned char *p, int c, size_t n)
{
    memset(p, c, n);
    return memcmp(p, p + n, n);
}
