/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memset-ab: memlane's memset variants against libc, all of them reached
 * in a shared library as glibc is (memlane-bench links the variants into
 * the executable, which on Zen 4 moves small-size results by a cycle or
 * two; see docs/benchmarking.md).  run.sh builds the library with the
 * variants exported, and runs this program once per implementation and
 * code placement.
 *
 *   ab LIB MODE IMPL...
 *     LIB   the shared library holding memlane_memset_<variant> (and the
 *           probes of probes.c)
 *     MODE  dist            random sizes: Short, Mid, Uniform512 (as in
 *                           memlane-bench: a 128 KiB buffer cut into
 *                           consecutive segments, a new list every sample)
 *           uniform:A-B     sizes uniform in A..B, the same way
 *           fixed:OFF:N,..  each size in a loop, dst at OFF from a page
 *     IMPL  libc, a variant name (avx512, avx2, ...; a probe: null,
 *           onemask), or memlane: memlane_memset from the library named by
 *           $AB_LIBMEMLANE (the real libmemlane.so; not moved by placements)
 *
 * Output: one line per row, TSC ticks per call (median of 21 samples,
 * implementations interleaved sample by sample), then first / each other.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

typedef void *(*memset_fn)(void *, int, size_t);

enum { BUF = 128 * 1024, SAMPLES = 21, MAX_IMPLS = 8, FIXED_CALLS = 2000 };

static unsigned char *buf;
static size_t lens[BUF + 1], nlens;
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Geometric length with the given mean (support 0, 1, 2, ...). */
static size_t geometric(double mean)
{
    double u = ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
    return (size_t)floor(log(u) / log(mean / (mean + 1)));
}

/* kind: 0 Short, 1 Mid, 2 uniform lo..hi */
static void new_list(int kind, size_t lo, size_t hi)
{
    size_t pos = 0;
    nlens = 0;
    while (pos < BUF) {
        size_t n = kind == 0   ? geometric(16)
                   : kind == 1 ? geometric(64)
                               : lo + (size_t)(rnd() % (hi - lo + 1));
        if (n > BUF - pos)
            n = BUF - pos;
        lens[nlens++] = n;
        pos += n;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, SAMPLES, sizeof *v, cmp_double);
    return v[SAMPLES / 2];
}

static __attribute__((noinline)) double pass(memset_fn f)
{
    unsigned aux;
    unsigned char *p = buf;
    uint64_t t0 = __rdtsc();
    for (size_t i = 0; i < nlens; i++) {
        f(p, (int)i, lens[i]);
        p += lens[i];
    }
    return (double)(__rdtscp(&aux) - t0) / (double)nlens;
}

static __attribute__((noinline)) double fixed(memset_fn f, unsigned char *d, size_t n)
{
    unsigned aux;
    uint64_t t0 = __rdtsc();
    for (int i = 0; i < FIXED_CALLS; i++)
        f(d, i, n);
    return (double)(__rdtscp(&aux) - t0) / FIXED_CALLS;
}

static void row(const char *name, double t[][SAMPLES], int nimpl)
{
    double m[MAX_IMPLS];
    printf("%-10s", name);
    for (int k = 0; k < nimpl; k++) {
        m[k] = median(t[k]);
        printf(" %8.2f", m[k]);
    }
    printf("  ");
    for (int k = 1; k < nimpl; k++)
        printf(" %5.2f", m[0] / m[k]);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc - 3 > MAX_IMPLS) {
        fprintf(stderr, "usage: ab LIB MODE IMPL... (at most %d)\n", MAX_IMPLS);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "ab: %s\n", dlerror());
        return 2;
    }
    int nimpl = argc - 3;
    memset_fn fns[MAX_IMPLS];
    for (int k = 0; k < nimpl; k++) {
        const char *name = argv[k + 3];
        char sym[96];
        if (!strcmp(name, "libc"))
            snprintf(sym, sizeof sym, "memset");
        else
            snprintf(sym, sizeof sym, "memlane_memset_%s", name);
        void *from = lib;
        if (!strcmp(name, "libc"))
            from = RTLD_DEFAULT;
        if (!strcmp(name, "memlane")) {
            /* the public entry point of the real library (an IFUNC on glibc) */
            const char *so = getenv("AB_LIBMEMLANE");
            from = so ? dlopen(so, RTLD_NOW) : NULL;
            if (!from) {
                fprintf(stderr,
                        "ab: memlane needs AB_LIBMEMLANE=path of libmemlane.so\n");
                return 2;
            }
            snprintf(sym, sizeof sym, "memlane_memset");
        }
        void *addr = dlsym(from, sym);
        if (!addr) {
            fprintf(stderr, "ab: no %s\n", sym);
            return 2;
        }
        memcpy(&fns[k], &addr, sizeof addr);
    }
    buf = aligned_alloc(4096, BUF + 8192);
    if (!buf)
        return 1;
    memset(buf, 1, BUF + 8192); /* fault the pages in */

    static double t[MAX_IMPLS][SAMPLES];
    const char *mode = argv[2];
    printf("%-10s", strncmp(mode, "fixed", 5) ? "dist" : "size");
    for (int k = 0; k < nimpl; k++)
        printf(" %8s", argv[k + 3]);
    printf("   %s / each\n", argv[3]);

    if (!strncmp(mode, "fixed:", 6)) {
        char *s = (char *)mode + 6;
        size_t off = strtoul(s, &s, 10);
        while (*s == ':' || *s == ',') {
            size_t n = strtoul(s + 1, &s, 10);
            for (int r = 0; r < SAMPLES; r++)
                for (int k = 0; k < nimpl; k++) {
                    fixed(fns[k], buf + off, n); /* warm-up */
                    t[k][r] = fixed(fns[k], buf + off, n);
                }
            char name[32];
            snprintf(name, sizeof name, "%zu", n);
            row(name, t, nimpl);
        }
        return 0;
    }
    size_t lo = 0, hi = 512;
    int first = 0, last = 2;
    if (!strncmp(mode, "uniform:", 8)) {
        if (sscanf(mode + 8, "%zu-%zu", &lo, &hi) != 2 || lo > hi || hi > BUF) {
            fprintf(stderr, "ab: bad %s\n", mode);
            return 2;
        }
        first = 2;
    } else if (strcmp(mode, "dist")) {
        fprintf(stderr, "ab: unknown mode %s\n", mode);
        return 2;
    }
    static const char *const names[3] = {"Short", "Mid", "Uniform512"};
    for (int kind = first; kind <= last; kind++) {
        for (int r = 0; r < SAMPLES; r++) {
            new_list(kind, lo, hi);
            for (int k = 0; k < nimpl; k++)
                t[k][r] = pass(fns[k]);
        }
        row(first == 2 ? mode + 8 : names[kind], t, nimpl);
    }
    return 0;
}
