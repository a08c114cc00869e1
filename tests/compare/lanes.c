/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparison lane positions beyond the main suite's 256 bytes: for
 * lengths that run the loops and every kind of tail of each variant
 * (16-, 32- and 64-byte vectors, four per iteration, tails of one, two or
 * four vectors), a difference at every position, with byte pairs whose
 * signed and unsigned orders disagree, in both argument orders, plus a
 * later difference of the opposite sign that must not decide.  The
 * pointers are offset against each other and against 64 bytes, since the
 * loops align the first pointer and that moves which lane a byte lands in.
 * a ends flush against a guard page.  Lengths of 32 KiB and more, where
 * some loops change their vector width, get three windows of positions.
 *
 * The timing-safe comparisons run here too: their 256-byte groups walked
 * from the end, and the blocks of the last group, meet every position.
 *
 *   memlane-test-lanes [function ...]   (default: every comparison)
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const size_t lengths[] = {
    257, 300, 319, 320, 321, 383, 384,  385,  449,  511,  512,  513,
    577, 640, 700, 767, 768, 769, 1000, 1024, 1031, 1279, 1543,
};
static const size_t shifts[][2] = {{0, 0}, {0, 1}, {1, 0}, {5, 17}, {31, 32}, {63, 33}};
static const unsigned char pairs[][2] = {{0x00, 0xff}, {0x7f, 0x80}, {0x01, 0xfe}};

static void check(const struct impl *im, const unsigned char *a, const unsigned char *b,
                  size_t n, size_t pos)
{
    int want = ref_memcmp(a, b, n);
    cur_n = n, cur_align_a = (uintptr_t)a % 64, cur_align_b = (uintptr_t)b % 64;
    int got = im->fn.cmp(a, b, n);
    if (!cmp_result_ok(im->function, got, want))
        fail("n=%zu align a=%zu b=%zu diff pos=%zu: got %d, memcmp is %d", n,
             (size_t)((uintptr_t)a % 64), (size_t)((uintptr_t)b % 64), pos, got, want);
}

/* A difference at pos (byte pairs v0..v1-1, both orders), alone and
 * followed by one of the opposite sign; a and b are equal before and after. */
static void check_position(const struct impl *im, unsigned char *a, unsigned char *b,
                           size_t n, size_t pos, size_t v0, size_t v1)
{
    unsigned char ka = a[pos], kb = b[pos];
    for (size_t v = v0; v < v1; v++)
        for (int swap = 0; swap < 2; swap++) {
            a[pos] = pairs[v][swap];
            b[pos] = pairs[v][!swap];
            check(im, a, b, n, pos);
            check(im, b, a, n, pos);
            if (pos + 1 < n) {
                size_t pos2 = pos + 1 + (size_t)(rnd() % (n - pos - 1));
                unsigned char ka2 = a[pos2], kb2 = b[pos2];
                a[pos2] = pairs[v][!swap];
                b[pos2] = pairs[v][swap];
                check(im, a, b, n, pos);
                a[pos2] = ka2;
                b[pos2] = kb2;
            }
        }
    a[pos] = ka;
    b[pos] = kb;
}

/* Equal random buffers of n bytes, a flush against its guard page, each
 * shifted by its shift, and their compare checked. */
static void place_equal(const struct impl *im, size_t n, const size_t shift[2],
                        unsigned char **a, unsigned char **b)
{
    *a = at_end(&g_a, n + shift[0]);
    *b = g_b.lo + 64 + shift[1];
    rnd_fill(*a, n);
    memcpy(*b, *a, n);
    check(im, *a, *b, n, (size_t)-1);
}

static void lanes(const struct impl *im)
{
    case_begin("lanes", im);
    for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++)
        for (size_t k = 0; k < sizeof lengths / sizeof lengths[0] && !case_failed();
             k++) {
            size_t n = lengths[k];
            unsigned char *a, *b;
            place_equal(im, n, shifts[s], &a, &b);
            for (size_t pos = 0; pos < n && !case_failed(); pos++)
                check_position(im, a, b, n, pos, 0, sizeof pairs / sizeof pairs[0]);
        }
    case_end();
}

/*
 * Lengths above 1 KiB, past the pairs that avx512 memcmp runs first up to
 * about 1 KiB, the first past the 16 KiB where the sse2 and avx2 entries
 * hand over to C, and lengths whose loop reads 32-byte vectors (avx512
 * memcmp and bcmp from 32 KiB, src/ops_x86_cmp.h): every position of the
 * first 1100 bytes, of 320 bytes in the middle and of the last 320, at
 * three pointer offsets, with the byte pair whose signed and unsigned
 * orders disagree.
 */
static const size_t big_lengths[] = {2048, 4099, 16385, 32768, 33799};
static const size_t big_shifts[][2] = {{0, 0}, {5, 17}, {63, 33}};
#define BIG_MAP (40 * 1024)

static void lanes_big(const struct impl *im)
{
    case_begin("lanes/big", im);
    for (size_t s = 0; s < sizeof big_shifts / sizeof big_shifts[0]; s++)
        for (size_t k = 0;
             k < sizeof big_lengths / sizeof big_lengths[0] && !case_failed(); k++) {
            size_t n = big_lengths[k];
            unsigned char *a, *b;
            place_equal(im, n, big_shifts[s], &a, &b);
            const size_t from[3] = {0, n / 2 - 160, n - 320}, len[3] = {1100, 320, 320};
            for (int w = 0; w < 3; w++)
                for (size_t pos = from[w]; pos < from[w] + len[w] && !case_failed();
                     pos++)
                    check_position(im, a, b, n, pos, 1, 2);
        }
    case_end();
}

int main(int argc, char **argv)
{
    if (guarded_init(&g_a, BIG_MAP) || guarded_init(&g_b, BIG_MAP)) {
        perror("mmap");
        return 2;
    }
    install_fault_handler();
    struct impl impls[64];
    size_t nimpls = impls_all(impls, 64);
    for (size_t i = 0; i < nimpls; i++) {
        int wanted = 0;
        if (argc > 1) {
            for (int k = 1; k < argc; k++)
                wanted |= !strcmp(argv[k], impls[i].function);
        } else {
            wanted = 1;
        }
        if (!wanted || impls[i].kind != ML_KIND_CMP)
            continue;
        lanes(&impls[i]);
        lanes_big(&impls[i]);
    }
    printf("lanes: %lu passed, %lu failed\n", cases_passed, cases_failed);
    return cases_failed ? 1 : 0;
}
