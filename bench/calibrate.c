/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --calibrate: where rep stosb starts to beat memlane's vector memset,
 * and where non-temporal stores start to beat ordinary ones, on this CPU.
 *
 * Both are fixed-size sweeps over a hot buffer (the same bytes every
 * call, as a program that clears one buffer again and again), powers of
 * two.  A contender "wins" at a size when its median is at least 2 %
 * below the vector memset's and the Mann-Whitney p-value is below 0.05.
 * The threshold is the smallest size from which it wins at every larger
 * size measured (rep stosb only up to the non-temporal threshold, above
 * which memset stops using ordinary stores); "off" when there is none.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "memlane.h"
#include "stats.h"
#include "tunables.h"

static double median_of(const struct cell *c)
{
    struct summary s;
    summarize(c->v, c->n, &s);
    return s.median;
}

/* Measures contender against the vector memset on sizes; wins[i] is set
 * per size.  Prints the sweep. */
static void sweep(struct bench_function *f, int vec, int other, size_t *sizes,
                  unsigned nsizes, int *wins)
{
    struct result r;
    memset(&r, 0, sizeof r);
    r.table = 1;
    r.f = f;
    r.nrows = nsizes;
    r.sizes = sizes;
    int cols[2] = {vec, other};
    r.cols = cols;
    r.ncols = 2;
    r.base_col = 0;
    r.cells = calloc((size_t)nsizes * 2, sizeof *r.cells);
    if (!r.cells)
        abort();
    measure_table1(&r);

    printf("%10s %18s %18s %8s %8s\n", "size", f->impls[vec].name, f->impls[other].name,
           "ratio", "p");
    for (unsigned i = 0; i < nsizes; i++) {
        struct cell *a = &r.cells[i * 2], *b = &r.cells[i * 2 + 1];
        char sz[32];
        format_size(sz, sizeof sz, sizes[i]);
        double ma = median_of(a), mb = median_of(b);
        double p = mann_whitney_p(a->v, a->n, b->v, b->n);
        double ratio = ma > 0 ? mb / ma : 1;
        wins[i] = ratio < 0.98 && p < 0.05;
        printf("%10s %18.1f %18.1f %8.3f %8.3f%s\n", sz, ma, mb, ratio, p,
               wins[i] ? "  wins" : "");
        free(a->v);
        free(b->v);
    }
    printf("\n");
    free(r.cells);
}

/* Smallest size from which every size up to limit (exclusive; 0: all)
 * wins; 0 if none. */
static size_t threshold(const size_t *sizes, const int *wins, unsigned n, size_t limit)
{
    size_t t = 0;
    for (unsigned i = n; i-- > 0;) {
        if (limit && sizes[i] >= limit)
            continue;
        if (!wins[i])
            break;
        t = sizes[i];
    }
    return t;
}

/* One suggested setting (0: off), and the library's default for this
 * CPU next to it. */
static void print_setting(const char *name, size_t v, size_t def)
{
    char setting[64], sz[32], d[32];
    if (v)
        snprintf(setting, sizeof setting, "%s=%zu", name, v);
    else
        snprintf(setting, sizeof setting, "%s=off", name);
    format_threshold(sz, sizeof sz, v ? v : ML_THRESHOLD_OFF);
    format_threshold(d, sizeof d, def);
    printf("%-40s # measured %s; default on this CPU %s\n", setting, sz, d);
}

int calibrate(void)
{
    struct bench_function *f = bench_function_get(BF_MEMSET);
    char name[48];
    snprintf(name, sizeof name, "memlane-%s", memlane_active("memset"));
    int vec = bench_impl_index(f, name);
    int stosb = bench_impl_index(f, "rep-stosb");
    int nt = bench_impl_index(f, "nt-store-loop");
    if (vec < 0) {
        fprintf(stderr, "memlane-bench: no memlane memset variant to calibrate\n");
        return 1;
    }
    /* Hot buffer, aligned: the thresholds are about sizes only. */
    ctx.opt.footprint = 0;
    ctx.opt.footprint_name = "hot";
    ctx.opt.align_a = ctx.opt.align_b = 0;
    if (!ctx.opt.quick && ctx.opt.runs > 11)
        ctx.opt.runs = 11;

    printf("calibrate: memset TSC cycles per call, fixed size, hot buffer, "
           "median of %u runs;\n"
           "  MEMLANE_REP_STOSB_THRESHOLD and MEMLANE_NT_THRESHOLD were off "
           "for this run;\n"
           "  'wins': at least 2 %% faster than %s with p < 0.05\n\n",
           ctx.opt.runs, name);

    size_t nt_sizes[16];
    unsigned n_nt = 0;
    size_t nt_t = 0;
    if (nt >= 0) {
        size_t top = ctx.opt.quick ? (64u << 20) : (256u << 20);
        for (size_t s = 256u << 10; s <= top; s *= 2)
            nt_sizes[n_nt++] = s;
        int wins[16];
        sweep(f, vec, nt, nt_sizes, n_nt, wins);
        nt_t = threshold(nt_sizes, wins, n_nt, 0);
    } else {
        printf("no non-temporal store loop on this CPU (needs AVX2)\n\n");
    }

    size_t rep_sizes[32];
    unsigned n_rep = 0;
    size_t rep_t = 0;
    if (stosb >= 0) {
        size_t top = nt_t ? nt_t : (ctx.opt.quick ? (16u << 20) : (64u << 20));
        for (size_t s = 64; s <= top; s *= 2)
            rep_sizes[n_rep++] = s;
        int wins[32];
        sweep(f, vec, stosb, rep_sizes, n_rep, wins);
        rep_t = threshold(rep_sizes, wins, n_rep, nt_t);
    }

    struct ml_memset_tunables def;
    ml_tunables_cpu_defaults(&def);
    printf("# settings for this CPU (read at start-up), and the defaults:\n");
    print_setting("MEMLANE_REP_STOSB_THRESHOLD", rep_t, def.rep_stosb);
    print_setting("MEMLANE_NT_THRESHOLD", nt_t, def.nt);
    return 0;
}
