/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Warnings of the library (a bad MEMLANE_ARCH, a malformed tunable): one
 * line on stderr, with write(2) rather than stdio, which may call memset
 * and memcmp -- memlane's own, under the drop-in.
 */
#include <unistd.h>

#include "internal.h"

void ml_warn_line(const char *const *parts, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        size_t len = 0;
        while (parts[i][len])
            len++;
        ssize_t r = write(2, parts[i], len);
        (void)r;
    }
}
