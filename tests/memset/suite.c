/* SPDX-License-Identifier: BSD-2-Clause */
/* memset and memset_explicit suites: canaries, guard pages, fill values,
 * the return value. */
#include <limits.h>
#include <stdio.h>

#include "harness.h"

static size_t align64(const void *p) { return (uintptr_t)p % 64; }

/* Fill n bytes at d with c, and check them, the canaries of `guard`
 * bytes on each side (as far as the mapping allows) and the return. */
static void check_fill(const struct impl *im, struct guarded *g, unsigned char *d,
                       size_t n, int c, const char *what)
{
    unsigned char want = (unsigned char)c;
    unsigned char canary = (unsigned char)(want ^ 0x5a);
    size_t before = (size_t)(d - g->lo) < 64 ? (size_t)(d - g->lo) : 64;
    size_t after = (size_t)(g->hi - (d + n)) < 64 ? (size_t)(g->hi - (d + n)) : 64;
    for (size_t i = 0; i < before + n + after; i++)
        d[(ptrdiff_t)i - (ptrdiff_t)before] = canary;

    cur_n = n, cur_align_a = align64(d), cur_align_b = 0;
    void *ret = im->fn.set(d, c, n);

    if (ret != d)
        fail("%s: n=%zu align=%zu c=%d: returned %p, not dst %p", what, n, align64(d), c,
             ret, (void *)d);
    for (size_t i = 0; i < n; i++)
        if (d[i] != want) {
            fail("%s: n=%zu align=%zu c=%d: byte %zu is 0x%02x, want 0x%02x", what, n,
                 align64(d), c, i, d[i], want);
            break;
        }
    for (size_t i = 1; i <= before; i++)
        if (d[-(ptrdiff_t)i] != canary) {
            fail("%s: n=%zu align=%zu c=%d: wrote %zu bytes before dst", what, n,
                 align64(d), c, i);
            break;
        }
    for (size_t i = 0; i < after; i++)
        if (d[n + i] != canary) {
            fail("%s: n=%zu align=%zu c=%d: wrote byte %zu past the end", what, n,
                 align64(d), c, i);
            break;
        }
}

static const size_t big_sizes[] = {
    1025,    2047,    2048,    2049,    4095,    4096,    4097,    8192,
    16383,   16384,   32769,   65535,   65536,   65537,   262144,  1048575,
    1048576, 1048577, 2097152, 4194303, 4194304, 4194305, 8388608,
};

void suite_set(const struct impl *im)
{
    static const int fills[] = {0,    1,          0x7f,    0x80,    0xff,       -1,
                                -128, 256 + 0x37, INT_MAX, INT_MIN, 0x12345678, 0xa5};
    const size_t nfills = sizeof fills / sizeof fills[0];

    case_begin("lengths/guard-end", im);
    for (size_t n = 0; n <= 1024; n++)
        check_fill(im, &g_a, at_end(&g_a, n), n, fills[n % nfills], "guard end");
    for (size_t k = 0; k < sizeof big_sizes / sizeof big_sizes[0]; k++)
        check_fill(im, &g_a, at_end(&g_a, big_sizes[k]), big_sizes[k], fills[k % nfills],
                   "guard end");
    case_end();

    case_begin("lengths/guard-start", im);
    for (size_t n = 0; n <= 1024; n++)
        check_fill(im, &g_a, at_start(&g_a), n, fills[(n + 3) % nfills], "guard start");
    for (size_t k = 0; k < sizeof big_sizes / sizeof big_sizes[0]; k += 2)
        check_fill(im, &g_a, at_start(&g_a), big_sizes[k], fills[k % nfills],
                   "guard start");
    case_end();

    case_begin("fill-values", im);
    for (size_t f = 0; f < nfills; f++)
        for (size_t n = 0; n <= 300; n += 1)
            check_fill(im, &g_a, at_end(&g_a, n), n, fills[f], "fill value");
    case_end();

    case_begin("alignment", im);
    for (size_t n = 0; n <= 256; n++)
        for (size_t al = 0; al < 64; al++)
            check_fill(im, &g_a, g_a.lo + 128 + al, n, (int)(n * 64 + al), "aligned");
    static const size_t above[] = {257, 300, 511, 777, 1000, 4099, 65543, 1048583};
    for (size_t k = 0; k < sizeof above / sizeof above[0]; k++)
        for (size_t al = 0; al < 64; al += (g_long ? 1 : 3))
            check_fill(im, &g_a, g_a.lo + 128 + al, above[k], (int)al - 7, "aligned");
    case_end();
}
