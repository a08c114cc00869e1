/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A memcmp of a program's own, preloaded ahead of the drop-in: it says
 * each call on stderr, so that the install tests see that the drop-in's
 * load-time binding (src/preload/bind.c) never calls another definition.
 */
#include <stddef.h>
#include <unistd.h>

__attribute__((visibility("default"))) int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    (void)!write(2, "own memcmp\n", 11);
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] - q[i];
    return 0;
}
