/* SPDX-License-Identifier: BSD-2-Clause */
/* Callers whose buffers are dead after the fill: a compiler may drop an
 * ordinary memset here (dead-store elimination), never memset_explicit.
 * tests/memset/explicit_survives.sh builds this with -O3 and -flto and
 * reads the machine code. */
#include <string.h>

#include "memlane.h"

/* Opaque to the optimiser, so the key is really written and read. */
__attribute__((noinline)) void fill_key(unsigned char *k, unsigned n);
__attribute__((noinline)) void fill_key(unsigned char *k, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        k[i] = (unsigned char)(i * 37 + 11);
    __asm__ volatile("" : : "r"(k) : "memory");
}

__attribute__((noinline)) unsigned wipe_explicit(void);
__attribute__((noinline)) unsigned wipe_explicit(void)
{
    unsigned char key[64];
    fill_key(key, sizeof key);
    unsigned sum = key[0] + key[63];
    memlane_memset_explicit(key, 0, sizeof key); /* must stay */
    return sum;
}

/* The control: the same with plain memset, which the compiler removes.
 * If it did not, the check below could not tell a kept call from a
 * dropped one, and the script fails rather than pass vacuously. */
__attribute__((noinline)) unsigned wipe_plain(void);
__attribute__((noinline)) unsigned wipe_plain(void)
{
    unsigned char key[64];
    fill_key(key, sizeof key);
    unsigned sum = key[0] + key[63];
    memset(key, 0, sizeof key); /* dead store */
    return sum;
}

int main(void) { return wipe_explicit() != wipe_plain(); }
