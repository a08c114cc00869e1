/* SPDX-License-Identifier: BSD-2-Clause */
/* Comparison suites: memcmp, bcmp, timingsafe_bcmp, timingsafe_memcmp. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const unsigned char tricky[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
#define NTRICKY (sizeof tricky / sizeof tricky[0])

static size_t align64(const void *p) { return (uintptr_t)p % 64; }

/* Give a[0..n) random content and b the same, with the bytes around both
 * (up to 64 on each side, inside the mapping) different between a and b,
 * so that an out-of-bounds read that the guard pages miss still changes
 * the result. */
static void setup_pair(unsigned char *a, unsigned char *b, size_t n)
{
    unsigned char *alo = a - 64 < g_a.lo ? g_a.lo : a - 64;
    unsigned char *blo = b - 64 < g_b.lo ? g_b.lo : b - 64;
    size_t before =
        (size_t)(a - alo) < (size_t)(b - blo) ? (size_t)(a - alo) : (size_t)(b - blo);
    size_t after_a = (size_t)(g_a.hi - (a + n)), after_b = (size_t)(g_b.hi - (b + n));
    size_t after = after_a < after_b ? after_a : after_b;
    if (after > 64)
        after = 64;
    rnd_fill(a - before, before + n + after);
    for (size_t i = 0; i < before; i++)
        b[(ptrdiff_t)i - (ptrdiff_t)before] =
            (unsigned char)~a[(ptrdiff_t)i - (ptrdiff_t)before];
    memcpy(b, a, n);
    for (size_t i = 0; i < after; i++)
        b[n + i] = (unsigned char)~a[n + i];
}

static void check(const struct impl *im, const unsigned char *a, const unsigned char *b,
                  size_t n, long pos, const char *what)
{
    int want = ref_memcmp(a, b, n);
    cur_n = n, cur_align_a = align64(a), cur_align_b = align64(b);
    int got = im->fn.cmp(a, b, n);
    if (!cmp_result_ok(im->function, got, want))
        fail("%s: n=%zu align a=%zu b=%zu first diff pos=%ld: got %d, memcmp is %d", what,
             n, align64(a), align64(b), pos, got, want);
}

/* Equal inputs, and one difference at the first, middle, last and a
 * random position, in both argument orders. */
static void check_len(const struct impl *im, unsigned char *a, unsigned char *b, size_t n)
{
    setup_pair(a, b, n);
    check(im, a, b, n, -1, "equal");
    if (n == 0)
        return;
    size_t where[4] = {0, n / 2, n - 1, (size_t)(rnd() % n)};
    for (int w = 0; w < 4; w++) {
        size_t i = where[w];
        unsigned char keep = b[i];
        b[i] = (unsigned char)(a[i] ^ (1u << (rnd() % 8)));
        check(im, a, b, n, (long)i, "one diff");
        check(im, b, a, n, (long)i, "one diff, swapped");
        b[i] = keep;
    }
}

static const size_t big_sizes[] = {
    1025,   1535,    2047,    2048,    2049,    4095,    4096,    4097,    8191,   8192,
    8193,   16383,   16384,   16385,   32768,   65535,   65536,   65537,   131072, 262144,
    524288, 1048575, 1048576, 1048577, 2097152, 4194303, 4194304, 4194305,
};
#define NBIG (sizeof big_sizes / sizeof big_sizes[0])

static void lengths(const struct impl *im)
{
    case_begin("lengths/guard-end", im);
    for (size_t n = 0; n <= 1024; n++)
        check_len(im, at_end(&g_a, n), at_end(&g_b, n), n);
    for (size_t k = 0; k < NBIG; k++)
        check_len(im, at_end(&g_a, big_sizes[k]), at_end(&g_b, big_sizes[k]),
                  big_sizes[k]);
    case_end();

    case_begin("lengths/guard-start", im);
    for (size_t n = 0; n <= 1024; n++)
        check_len(im, at_start(&g_a), at_start(&g_b), n);
    for (size_t k = 0; k < NBIG; k += 3)
        check_len(im, at_start(&g_a), at_start(&g_b), big_sizes[k]);
    case_end();
}

/* Every mismatch position for n <= 256 with every ordered pair of tricky
 * byte values, plus a second, later difference of the opposite sign that
 * must not decide. */
static void mismatch(const struct impl *im, int layout)
{
    case_begin(layout ? "mismatch/a-start-b-end" : "mismatch/both-end", im);
    for (size_t n = 1; n <= 256 && !case_failed(); n++) {
        unsigned char *a = layout ? at_start(&g_a) : at_end(&g_a, n);
        unsigned char *b = at_end(&g_b, n);
        setup_pair(a, b, n);
        for (size_t pos = 0; pos < n; pos++) {
            unsigned char ka = a[pos], kb = b[pos];
            for (size_t x = 0; x < NTRICKY; x++)
                for (size_t y = 0; y < NTRICKY; y++) {
                    if (x == y)
                        continue;
                    a[pos] = tricky[x];
                    b[pos] = tricky[y];
                    check(im, a, b, n, (long)pos, "tricky bytes");
                    if (pos + 1 < n) {
                        size_t pos2 = pos + 1 + (size_t)(rnd() % (n - pos - 1));
                        unsigned char ka2 = a[pos2], kb2 = b[pos2];
                        a[pos2] = tricky[y];
                        b[pos2] = tricky[x];
                        check(im, a, b, n, (long)pos,
                              "tricky bytes + later opposite diff");
                        a[pos2] = ka2;
                        b[pos2] = kb2;
                    }
                }
            a[pos] = ka;
            b[pos] = kb;
        }
    }
    case_end();
}

/* Every alignment 0..63 of one pointer against a spread of the other. */
static void alignment(const struct impl *im)
{
    static const size_t spread[] = {0, 1, 3, 7, 8, 15, 16, 31, 32, 33, 48, 63};
    const size_t nspread = sizeof spread / sizeof spread[0];
    case_begin("alignment", im);
    for (size_t n = 0; n <= 256 && !case_failed(); n++)
        for (size_t x = 0; x < 64; x++)
            for (size_t s = 0; s < nspread; s++)
                for (int swap = 0; swap < 2; swap++) {
                    size_t aa = swap ? spread[s] : x, ab = swap ? x : spread[s];
                    unsigned char *a = g_a.lo + 128 + aa, *b = g_b.lo + 128 + ab;
                    setup_pair(a, b, n);
                    check(im, a, b, n, -1, "aligned equal");
                    if (n) {
                        size_t i = (size_t)(rnd() % n);
                        b[i] ^= 0x80;
                        check(im, a, b, n, (long)i, "aligned one diff");
                    }
                }
    static const size_t above[] = {257, 300, 511, 777, 1000, 4099, 65543};
    for (size_t k = 0; k < sizeof above / sizeof above[0]; k++)
        for (size_t aa = 0; aa < 64; aa += (g_long ? 1 : 5))
            for (size_t s = 0; s < nspread; s++) {
                size_t n = above[k];
                unsigned char *a = g_a.lo + 128 + aa, *b = g_b.lo + 128 + spread[s];
                setup_pair(a, b, n);
                check(im, a, b, n, -1, "aligned equal");
                size_t i = (size_t)(rnd() % n);
                a[i] ^= 0x01;
                check(im, a, b, n, (long)i, "aligned one diff");
            }
    case_end();
}

/*
 * The bytes around the buffers never decide (a compare may read them when
 * they are on the buffers' pages, include/memlane.h): every byte of the
 * two pages each buffer may touch is random and independent between a and
 * b, at offsets near both ends of a page and in both guarded mappings'
 * first and last pages, so that a guard page follows or precedes.
 */
static void around(const struct impl *im)
{
    static const size_t offs[] = {0, 1, 17, 32, 2000, 4031, 4063, 4064, 4080, 4095};
    static const size_t offs_b[] = {0, 5, 4070, 4095};
    const size_t nb = sizeof offs_b / sizeof offs_b[0];
    case_begin("around/pages", im);
    for (size_t n = 0; n <= 300 && !case_failed(); n += n < 80 ? 1 : 7)
        for (int end = 0; end < 2; end++) {
            /* end: the mappings' last two pages, the buffers ending at most
             * 4095 bytes before the guard page */
            unsigned char *pa = end ? g_a.hi - 8192 : g_a.lo;
            unsigned char *pb = end ? g_b.hi - 8192 : g_b.lo;
            rnd_fill(pa, 8192);
            rnd_fill(pb, 8192);
            for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++)
                for (size_t j = 0; j < nb; j++) {
                    size_t oa = end ? 8192 - n - offs[i] % (8193 - n) : offs[i];
                    size_t ob = end ? 8192 - n - offs_b[j] % (8193 - n) : offs_b[j];
                    unsigned char *a = pa + oa, *b = pb + ob;
                    memcpy(b, a, n);
                    check(im, a, b, n, -1, "equal, random pages around");
                    if (n) {
                        size_t k = (size_t)(rnd() % n);
                        b[k] = (unsigned char)~a[k];
                        check(im, a, b, n, (long)k, "one diff, random pages around");
                        check(im, b, a, n, (long)k, "one diff, random pages around");
                        b[n - 1] = (unsigned char)~a[n - 1];
                        check(im, a, b, n, (long)k, "diffs, random pages around");
                    }
                    rnd_fill(b, n); /* b's page random again */
                }
        }
    case_end();
}

void suite_cmp(const struct impl *im)
{
    around(im);
    lengths(im);
    mismatch(im, 0);
    mismatch(im, 1);
    alignment(im);
}
