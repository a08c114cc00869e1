/* SPDX-License-Identifier: BSD-2-Clause */
/* Reports: the header, the two tables (human, gobench, csv) and the plot
 * data files. */
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "cpu.h"
#include "memlane.h"
#include "stats.h"
#include "tunables.h"

/* ---- header ---- */

static void features(char *buf, size_t len)
{
    const struct ml_cpu *c = ml_cpu_all();
    struct {
        int on;
        const char *name;
    } f[] = {
        {c->sse2, "sse2"},         {c->avx2, "avx2"},         {c->bmi1, "bmi1"},
        {c->bmi2, "bmi2"},         {c->movbe, "movbe"},       {c->avx512f, "avx512f"},
        {c->avx512bw, "avx512bw"}, {c->avx512vl, "avx512vl"}, {c->erms, "erms"},
        {c->fsrm, "fsrm"},         {c->fsrs, "fsrs"},
    };
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].on && used < len) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? " " : "", f[i].name);
            if (w > 0)
                used += (size_t)w;
        }
    if (!used)
        snprintf(buf, len, "none detected");
}

/* A prefetch band as MEMLANE_CMP_PREFETCH takes it: "1M-4M" or "off". */
static void format_band(char *buf, size_t len, size_t lo, size_t hi)
{
    char a[32], b[32];
    if (lo > hi) {
        snprintf(buf, len, "off");
        return;
    }
    format_size(a, sizeof a, lo);
    format_size(b, sizeof b, hi);
    snprintf(buf, len, "%s-%s", a, b);
}

void report_header(FILE *out)
{
    const char *pre = ctx.opt.format == FMT_CSV ? "# " : "";
    char feat[256], date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    features(feat, sizeof feat);
    char brand[49];
    ml_cpu_brand(brand);

    if (ctx.opt.format == FMT_GOBENCH) {
        fprintf(out, "goos: linux\ngoarch: %s\npkg: memlane\n",
#if defined(__x86_64__)
                "amd64"
#else
                "unknown"
#endif
        );
    }
    fprintf(out, "%scpu: %s\n", pre, *brand ? brand : "unknown");
    fprintf(out, "%sfeatures: %s\n", pre, feat);
    {
        char l1[32], l2[32], l3[32];
        format_size(l1, sizeof l1, cache_bytes(1));
        format_size(l2, sizeof l2, cache_bytes(2));
        format_size(l3, sizeof l3, cache_bytes(3));
        fprintf(out, "%scaches: L1d %s, L2 %s, L3 %s (footprints L1, L2, LLC use half)\n",
                pre, l1, l2, l3);
    }
    fprintf(out,
            "%smemlane-level: %s (memset=%s memcmp=%s bcmp=%s "
            "timingsafe_bcmp=%s timingsafe_memcmp=%s)\n",
            pre, ctx.selected_level, memlane_active("memset"), memlane_active("memcmp"),
            memlane_active("bcmp"), memlane_active("timingsafe_bcmp"),
            memlane_active("timingsafe_memcmp"));
    {
        /* The thresholds memset uses in this run, and this CPU's defaults
         * (they differ when MEMLANE_* variables are set). */
        const struct ml_memset_tunables *t = ml_memset_tunables();
        struct ml_memset_tunables d;
        ml_tunables_cpu_defaults(&d);
        char rep[32], nt[32], drep[32], dnt[32];
        format_threshold(rep, sizeof rep, t->rep_stosb);
        format_threshold(nt, sizeof nt, t->nt);
        format_threshold(drep, sizeof drep, d.rep_stosb);
        format_threshold(dnt, sizeof dnt, d.nt);
        fprintf(out,
                "%smemset-thresholds: rep-stosb=%s nt=%s (this CPU's defaults: "
                "rep-stosb=%s nt=%s)\n",
                pre, rep, nt, drep, dnt);
        /* The sizes at which memcmp and bcmp prefetch, likewise. */
        struct ml_cmp_tunables db;
        ml_cmp_tunables_cpu_defaults(&db);
        char band[72], dband[72];
        format_band(band, sizeof band, ml_cmp_tun.prefetch_lo, ml_cmp_tun.prefetch_hi);
        format_band(dband, sizeof dband, db.prefetch_lo, db.prefetch_hi);
        fprintf(out, "%scmp-prefetch: %s (this CPU's default: %s)\n", pre, band, dband);
    }
#if defined(__GLIBC__)
    fprintf(out, "%slibc: glibc %s\n", pre, gnu_get_libc_version());
    {
        /* Which of glibc's variants runs: it follows GLIBC_TUNABLES. */
        const char *set = bench_libc_variant(BF_MEMSET);
        const char *cmp = bench_libc_variant(BF_MEMCMP);
        const char *eq = bench_libc_variant(BF_BCMP);
        fprintf(out, "%slibc-variants: memset=%s memcmp=%s bcmp=%s\n", pre,
                set ? set : "?", cmp ? cmp : "?", eq ? eq : "?");
    }
#elif defined(BENCH_LIBC_MUSL)
    /* musl has no version call: the version of the libc the build linked
     * (mk/bench.mk); one memset, memcmp and bcmp, no variants. */
    fprintf(out, "%slibc: musl %s\n", pre, BENCH_LIBC_MUSL);
#else
    fprintf(out, "%slibc: unknown\n", pre);
#endif
#if defined(__clang__)
    fprintf(out, "%scompiler: %s\n", pre, __VERSION__);
#elif defined(__GNUC__)
    fprintf(out, "%scompiler: gcc %s\n", pre, __VERSION__);
#else
    fprintf(out, "%scompiler: %s\n", pre, __VERSION__);
#endif
    fprintf(out, "%sdate: %s\n", pre, date);
    fprintf(out, "%stsc: %.3f GHz, empty measurement %.0f ticks (subtracted)\n", pre,
            ctx.timer.tsc_ghz, ctx.timer.overhead);
    if (ctx.opt.cpu >= 0)
        fprintf(out, "%spinned: cpu %d\n", pre, ctx.opt.cpu);
    else
        fprintf(out, "%spinned: no (--cpu N pins)\n", pre);
    if (ctx.opt.format == FMT_TABLE)
        fprintf(out, "\n");
}

/* ---- number formatting ---- */

/* 4 significant digits with an SI (or binary) prefix, benchstat style. */
static void fmt_prefixed(char *buf, size_t len, double v, int binary)
{
    static const char *const si[] = {"n", "\xc2\xb5", "m", "", "k", "M", "G", "T"};
    static const char *const bin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
    int i;
    double base = binary ? 1024 : 1000;
    if (binary) {
        for (i = 0; i < 5 && fabs(v) >= 1000; i++)
            v /= base;
    } else {
        v *= 1e9; /* seconds to ns */
        for (i = 0; i < 7 && fabs(v) >= 1000; i++)
            v /= base;
    }
    const char *p = binary ? bin[i] : si[i];
    int digits = fabs(v) < 10 ? 3 : fabs(v) < 100 ? 2 : 1;
    snprintf(buf, len, "%.*f%s", digits, v, p);
}

void format_size(char *buf, size_t len, size_t n)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, len, "%zuM", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zuK", n >> 10);
    else
        snprintf(buf, len, "%zu", n);
}

void format_threshold(char *buf, size_t len, size_t n)
{
    if (n == ML_THRESHOLD_OFF)
        snprintf(buf, len, "off");
    else
        format_size(buf, len, n);
}

static void fmt_count(char *buf, size_t len, double v)
{
    if (v >= 1000)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.1f", v);
}

/* Display width of a UTF-8 string. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xc0) != 0x80;
    return w;
}

static void put_padded(FILE *out, const char *s, size_t w, int right)
{
    size_t sw = width(s);
    if (right)
        for (size_t i = sw; i < w; i++)
            fputc(' ', out);
    fputs(s, out);
    if (!right)
        for (size_t i = sw; i < w; i++)
            fputc(' ', out);
}

/* ---- helpers over results ---- */

static const char *impl_name(const struct result *r, unsigned col)
{
    return r->f->impls[r->cols[col]].name;
}

static const struct cell *cell_at(const struct result *r, unsigned row, unsigned col)
{
    return &r->cells[row * r->ncols + col];
}

static double tick_ns(double ticks) { return ticks / ctx.timer.tsc_ghz; }

/* Bytes of one op of table 2 (a pass) or 3 (a call, on average). */
static double op_bytes(const struct result *r)
{
    return r->table == 3 ? r->op_bytes : DIST_BUFFER;
}

static void row_name(char *buf, size_t len, const struct result *r, unsigned row)
{
    if (r->table == 3) {
        snprintf(buf, len, "%s", r->label);
        return;
    }
    const char *data =
        r->f->kind == ML_KIND_CMP && r->data == DATA_MISMATCH ? "Mismatch" : "";
    if (r->table == 1)
        snprintf(buf, len, "%sFixed%s", r->f->title, data);
    else
        snprintf(buf, len, "%s%s%s", r->f->title, dist_name(r->dists[row]), data);
}

static const char *data_text(const struct result *r)
{
    if (r->f->kind == ML_KIND_SET)
        return "";
    static char at[192];
    const char *caller =
        ctx.opt.caller_branches ? ", the caller branching on each result" : "";
    if (r->data != DATA_MISMATCH) {
        snprintf(at, sizeof at, ", equal inputs%s", caller);
        return at;
    }
    char share[48] = "";
    if (ctx.opt.mismatch_share < 100)
        snprintf(share, sizeof share, " in %u %% of the calls (the rest equal)",
                 ctx.opt.mismatch_share);
    if (!ctx.opt.mismatch_at_given)
        snprintf(at, sizeof at, ", inputs differ at one random position per call%s%s",
                 share, caller);
    else if (ctx.opt.mismatch_lo == ctx.opt.mismatch_hi)
        snprintf(at, sizeof at,
                 ", inputs differ at position %zu (or the last byte) per call%s%s",
                 ctx.opt.mismatch_lo, share, caller);
    else
        snprintf(at, sizeof at,
                 ", inputs differ at one position in %zu..%zu (clamped) per call%s%s",
                 ctx.opt.mismatch_lo, ctx.opt.mismatch_hi, share, caller);
    return at;
}

static const char *footprint_text(void)
{
    static char buf[64];
    if (!ctx.opt.footprint)
        return "hot (the same buffer every call)";
    char sz[32];
    format_size(sz, sizeof sz, ctx.opt.footprint);
    snprintf(buf, sizeof buf, "%s (%s per buffer)", ctx.opt.footprint_name, sz);
    return buf;
}

/* ---- table 1 ---- */

static void table1_human(FILE *out, const struct result *r)
{
    int ns = ctx.opt.unit_ns == 1, ratio = ctx.opt.unit_ns == 2 && r->base_col >= 0;
    char what[96];
    if (ratio)
        snprintf(what, sizeof what, "time per call relative to %s",
                 impl_name(r, (unsigned)r->base_col));
    else
        snprintf(what, sizeof what, "%s per call", ns ? "ns" : "TSC cycles");
    fprintf(out, "%s: %s by size, fixed size%s; median of %u runs\n", r->f->name, what,
            data_text(r), ctx.opt.runs);
    fprintf(out,
            "  each run times a batch of calls (about %.0f us) between "
            "lfence;rdtsc and rdtscp;lfence\n"
            "  and divides by the calls; the empty measurement (%.0f ticks) "
            "is subtracted from every batch.\n"
            "  footprint %s, alignment %zu",
            ctx.opt.batch_us, ctx.timer.overhead, footprint_text(), ctx.opt.align_a);
    if (r->f->kind == ML_KIND_CMP)
        fprintf(out, "/%zu", ctx.opt.align_b);
    fprintf(out, "; '-': size not supported by that implementation.\n");

    size_t wsize = 8;
    size_t *w = calloc(r->ncols, sizeof *w);
    for (unsigned c = 0; c < r->ncols; c++) {
        w[c] = strlen(impl_name(r, c)) + 1;
        if (w[c] < 9)
            w[c] = 9;
    }
    put_padded(out, "size", wsize, 1);
    for (unsigned c = 0; c < r->ncols; c++) {
        fputc(' ', out);
        put_padded(out, impl_name(r, c), w[c], 1);
    }
    fputc('\n', out);
    for (unsigned row = 0; row < r->nrows; row++) {
        char buf[64];
        format_size(buf, sizeof buf, r->sizes[row]);
        put_padded(out, buf, wsize, 1);
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct cell *ce = cell_at(r, row, c);
            fputc(' ', out);
            if (!ce->supported || !ce->n) {
                put_padded(out, "-", w[c], 1);
                continue;
            }
            struct summary s;
            summarize(ce->v, ce->n, &s);
            if (ratio) {
                const struct cell *b = cell_at(r, row, (unsigned)r->base_col);
                struct summary bs;
                summarize(b->v, b->n, &bs);
                if (b->supported && b->n && bs.median > 0)
                    snprintf(buf, sizeof buf, "%.3f", s.median / bs.median);
                else
                    snprintf(buf, sizeof buf, "-");
            } else {
                fmt_count(buf, sizeof buf, ns ? tick_ns(s.median) : s.median);
            }
            put_padded(out, buf, w[c], 1);
        }
        fputc('\n', out);
    }
    fputc('\n', out);
    free(w);
}

/* ---- table 2 ---- */

struct cellstat {
    int ok;
    struct summary s;   /* of the seconds per op */
    struct summary bps; /* of the bytes per second */
    double p;           /* against the base */
    unsigned nbase;
};

static void stat_cells(const struct result *r, struct cellstat *cs)
{
    for (unsigned row = 0; row < r->nrows; row++) {
        const struct cell *base = cell_at(r, row, (unsigned)r->base_col);
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct cell *ce = cell_at(r, row, c);
            struct cellstat *x = &cs[row * r->ncols + c];
            x->ok = ce->supported && ce->n;
            if (!x->ok)
                continue;
            double *sec = malloc(ce->n * sizeof *sec);
            double *bps = malloc(ce->n * sizeof *bps);
            for (unsigned i = 0; i < ce->n; i++) {
                sec[i] = tick_ns(ce->v[i]) * 1e-9;
                bps[i] = sec[i] > 0 ? op_bytes(r) / sec[i] : 0;
            }
            summarize(sec, ce->n, &x->s);
            summarize(bps, ce->n, &x->bps);
            free(sec);
            free(bps);
            x->nbase = base->n;
            x->p = base->supported && base->n
                       ? mann_whitney_p(base->v, base->n, ce->v, ce->n)
                       : 1;
        }
    }
}

static void fmt_delta(char *buf, size_t len, double ratio, double p, unsigned n1,
                      unsigned n2, int with_p)
{
    char nbuf[32];
    if (n1 == n2)
        snprintf(nbuf, sizeof nbuf, "n=%u", n1);
    else
        snprintf(nbuf, sizeof nbuf, "n=%u+%u", n1, n2);
    if (!with_p)
        snprintf(buf, len, "%+.2f%%", (ratio - 1) * 100);
    else if (p >= 0.05)
        snprintf(buf, len, "~ (p=%.3f %s)", p, nbuf);
    else
        snprintf(buf, len, "%+.2f%% (p=%.3f %s)", (ratio - 1) * 100, p, nbuf);
}

/* One benchstat-style block: unit 0 sec/op, 1 B/s; columns [c0, c1) of
 * the non-base columns, with the base first. */
static void table2_block(FILE *out, const struct result *r, const struct cellstat *cs,
                         int unit, const unsigned *others, unsigned nothers)
{
    unsigned ncol = 1 + nothers, nrows = r->nrows + 1;
    unsigned cols[BENCH_MAX_IMPLS + 1];
    cols[0] = (unsigned)r->base_col;
    for (unsigned i = 0; i < nothers; i++)
        cols[1 + i] = others[i];

    /* Cell texts: value and (not for the base) the comparison. */
    char(*val)[48] = calloc((size_t)nrows * ncol, sizeof *val);
    char(*cmpt)[64] = calloc((size_t)nrows * ncol, sizeof *cmpt);
    char(*names)[48] = calloc(nrows, sizeof *names);
    for (unsigned row = 0; row < r->nrows; row++)
        row_name(names[row], sizeof names[row], r, row);
    snprintf(names[r->nrows], sizeof names[0], "geomean");

    for (unsigned k = 0; k < ncol; k++) {
        unsigned c = cols[k];
        double logsum = 0, logratio = 0;
        unsigned nlog = 0, nratio = 0;
        for (unsigned row = 0; row < r->nrows; row++) {
            const struct cellstat *x = &cs[row * r->ncols + c];
            const struct cellstat *b = &cs[row * r->ncols + (unsigned)r->base_col];
            char *v = val[row * ncol + k], *d = cmpt[row * ncol + k];
            if (!x->ok) {
                snprintf(v, 48, "-");
                continue;
            }
            const struct summary *s = unit ? &x->bps : &x->s;
            char num[32];
            fmt_prefixed(num, sizeof num, s->median, unit);
            snprintf(v, 48, "%s \xc2\xb1 %.0f%%", num, s->spread * 100);
            if (s->median > 0) {
                logsum += log(s->median);
                nlog++;
            }
            if (k == 0)
                continue;
            if (!b->ok) {
                snprintf(d, 64, "-");
                continue;
            }
            const struct summary *bs = unit ? &b->bps : &b->s;
            double ratio = bs->median > 0 ? s->median / bs->median : 1;
            fmt_delta(d, 64, ratio, x->p, x->nbase, x->s.n, 1);
            if (ratio > 0) {
                logratio += log(ratio);
                nratio++;
            }
        }
        char *v = val[r->nrows * ncol + k], *d = cmpt[r->nrows * ncol + k];
        if (nlog) {
            fmt_prefixed(v, 48, exp(logsum / nlog), unit);
        } else {
            snprintf(v, 48, "-");
        }
        if (k && nratio)
            fmt_delta(d, 64, exp(logratio / nratio), 1, 0, 0, 0);
    }

    /* Widths. */
    size_t wname = 0, wv[BENCH_MAX_IMPLS + 1], wc[BENCH_MAX_IMPLS + 1];
    for (unsigned row = 0; row < nrows; row++)
        if (width(names[row]) > wname)
            wname = width(names[row]);
    const char *unit_name = unit ? "B/s" : "sec/op";
    for (unsigned k = 0; k < ncol; k++) {
        wv[k] = width(unit_name);
        wc[k] = k ? strlen("vs base") : 0;
        for (unsigned row = 0; row < nrows; row++) {
            size_t a = width(val[row * ncol + k]), b = width(cmpt[row * ncol + k]);
            if (a > wv[k])
                wv[k] = a;
            if (b > wc[k])
                wc[k] = b;
        }
        size_t group = wv[k] + (k ? 2 + wc[k] : 0);
        size_t nw = strlen(impl_name(r, cols[k]));
        if (nw > group)
            wv[k] += nw - group;
    }

    /* Header lines: implementation names, then units. */
    put_padded(out, "", wname, 0);
    for (unsigned k = 0; k < ncol; k++) {
        fputs(" | ", out);
        put_padded(out, impl_name(r, cols[k]), wv[k] + (k ? 2 + wc[k] : 0), 0);
    }
    fputs(" |\n", out);
    put_padded(out, "", wname, 0);
    for (unsigned k = 0; k < ncol; k++) {
        fputs(" | ", out);
        put_padded(out, unit_name, wv[k], 1);
        if (k) {
            fputs("  ", out);
            put_padded(out, "vs base", wc[k], 0);
        }
    }
    fputs(" |\n", out);
    for (unsigned row = 0; row < nrows; row++) {
        put_padded(out, names[row], wname, 0);
        for (unsigned k = 0; k < ncol; k++) {
            fputs("   ", out);
            put_padded(out, val[row * ncol + k], wv[k], 1);
            if (k) {
                fputs("  ", out);
                /* No padding after the last column. */
                put_padded(out, cmpt[row * ncol + k], k + 1 < ncol ? wc[k] : 0, 0);
            }
        }
        fputc('\n', out);
    }
    fputc('\n', out);
    free(val);
    free(cmpt);
    free(names);
}

/* How many chunks of the samples counted at their sample's median rate
 * (bench/measure.c: sample), if any. */
static void clipped_note(FILE *out, const struct result *r)
{
    unsigned long chunks = 0, clipped = 0;
    for (unsigned i = 0; i < r->nrows * r->ncols; i++) {
        chunks += r->cells[i].chunks;
        clipped += r->cells[i].clipped;
    }
    if (clipped)
        fprintf(out,
                "  %lu of %lu timed chunks (%.2f%%) took over 1.25 times their "
                "sample's median and count at its rate.\n",
                clipped, chunks, 100.0 * (double)clipped / (double)chunks);
}

static void table2_human(FILE *out, const struct result *r)
{
    struct cellstat *cs = calloc((size_t)r->nrows * r->ncols, sizeof *cs);
    stat_cells(r, cs);
    if (r->table == 2) /* a replay prints its own (bench/workload.c) */
        fprintf(out,
                "%s%s: base %s; a pass over a %u KiB buffer, sizes drawn per "
                "call (Short: geometric, mean 16 B;\n"
                "  Mid: mean 64 B; Uniform512: uniform 0..512 B; Long: one call); "
                "median \xc2\xb1 spread of %u runs;\n"
                "  vs base: change of the median, Mann-Whitney U p-value, '~' "
                "when p >= 0.05.\n",
                r->f->name, data_text(r), impl_name(r, (unsigned)r->base_col),
                DIST_BUFFER / 1024, ctx.opt.runs);
    clipped_note(out, r);
    unsigned others[BENCH_MAX_IMPLS], nothers = 0;
    for (unsigned c = 0; c < r->ncols; c++)
        if ((int)c != r->base_col)
            others[nothers++] = c;
    unsigned per = ctx.opt.columns ? ctx.opt.columns : nothers;
    /* Replays (table 3): sec/op only; the header gives the mean size. */
    for (int unit = 0; unit < (r->table == 3 ? 1 : 2); unit++)
        for (unsigned i = 0; i < nothers || (i == 0 && nothers == 0); i += per) {
            unsigned cnt = nothers - i < per ? nothers - i : per;
            table2_block(out, r, cs, unit, others + i, cnt);
            if (nothers == 0)
                break;
        }
    free(cs);
}

/* ---- machine-readable formats ---- */

/* Go benchmark lines whose sub-benchmark names are key=value pairs, so
 * that benchstat can project them: Benchmark<Function>[/data=equal|
 * mismatch]/size=<bytes> (table 1) or /dist=<Dist> (table 2), then
 * /impl=<implementation> (`benchstat -col /impl`). */
static void gobench(FILE *out, const struct result *r)
{
    const char *data = r->f->kind != ML_KIND_CMP || r->table == 3 ? ""
                       : r->data == DATA_MISMATCH                 ? "/data=mismatch"
                                                                  : "/data=equal";
    for (unsigned row = 0; row < r->nrows; row++) {
        char key[112];
        size_t bytes = (size_t)op_bytes(r);
        if (r->table == 1) {
            bytes = r->sizes[row];
            snprintf(key, sizeof key, "size=%zu", bytes);
        } else if (r->table == 3) {
            /* The label is "<Function>/<program>". */
            const char *program = strchr(r->label, '/');
            snprintf(key, sizeof key, "workload=%s", program ? program + 1 : r->label);
        } else {
            snprintf(key, sizeof key, "dist=%s", dist_name(r->dists[row]));
        }
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct cell *ce = cell_at(r, row, c);
            if (!ce->supported)
                continue;
            unsigned long iters = ce->iters;
            for (unsigned i = 0; i < ce->n; i++) {
                double ns = tick_ns(ce->v[i]);
                fprintf(out,
                        "Benchmark%s%s/%s/impl=%s\t%lu\t%.3f ns/op\t%.2f MB/s\t%.2f "
                        "cycles/op\n",
                        r->f->title, data, key, impl_name(r, c), iters, ns,
                        ns > 0 ? (double)bytes / ns * 1e3 : 0.0, ce->v[i]);
            }
        }
    }
}

void report_csv_head(FILE *out)
{
    fprintf(out, "table,benchmark,function,data,impl,size,n,calls_per_batch,"
                 "median_cycles,q1_cycles,q3_cycles,median_ns,spread_pct,"
                 "bytes_per_sec,base,vs_base_pct,p_value\n");
}

static void csv(FILE *out, const struct result *r)
{
    struct cellstat *cs = NULL;
    if (r->table == 2) {
        cs = calloc((size_t)r->nrows * r->ncols, sizeof *cs);
        stat_cells(r, cs);
    }
    for (unsigned row = 0; row < r->nrows; row++) {
        char name[96];
        row_name(name, sizeof name, r, row);
        size_t bytes = r->table == 1 ? r->sizes[row] : (size_t)op_bytes(r);
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct cell *ce = cell_at(r, row, c);
            if (!ce->supported || !ce->n)
                continue;
            struct summary s;
            summarize(ce->v, ce->n, &s);
            double ns = tick_ns(s.median);
            fprintf(out, "%d,%s,%s,%s,%s,", r->table, name, r->f->name,
                    r->f->kind == ML_KIND_SET  ? ""
                    : r->data == DATA_MISMATCH ? "mismatch"
                                               : "equal",
                    impl_name(r, c));
            if (r->table == 1)
                fprintf(out, "%zu,", bytes);
            else
                fprintf(out, "%s,", r->table == 3 ? "replay" : dist_name(r->dists[row]));
            fprintf(out, "%zu,%lu,%.3f,%.3f,%.3f,%.3f,%.2f,%.6g,", s.n, ce->calls,
                    s.median, s.q1, s.q3, ns, s.spread * 100,
                    ns > 0 ? (double)bytes / ns * 1e9 : 0.0);
            if (cs && (int)c != r->base_col) {
                const struct cellstat *x = &cs[row * r->ncols + c];
                const struct cellstat *b = &cs[row * r->ncols + (unsigned)r->base_col];
                if (b->ok)
                    fprintf(out, "%s,%.2f,%.4f\n", impl_name(r, (unsigned)r->base_col),
                            (x->s.median / b->s.median - 1) * 100, x->p);
                else
                    fprintf(out, "%s,,\n", impl_name(r, (unsigned)r->base_col));
            } else {
                fprintf(out, ",,\n");
            }
        }
    }
    free(cs);
}

void report_result(FILE *out, const struct result *r)
{
    switch (ctx.opt.format) {
    case FMT_TABLE:
        if (r->table == 1)
            table1_human(out, r);
        else
            table2_human(out, r);
        break;
    case FMT_GOBENCH:
        gobench(out, r);
        break;
    case FMT_CSV:
        csv(out, r);
        break;
    }
    fflush(out);
}

/* ---- plot data ---- */

/* The chart script next to the data, so that the folder is all gnuplot
 * needs, wherever the tool is installed. */
static void write_plot_script(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/memlane-bench.gp", ctx.opt.plot_dir);
    FILE *out = fopen(path, "w");
    if (!out || fputs(bench_plot_script, out) < 0 || fclose(out)) {
        fprintf(stderr, "memlane-bench: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    if (!ctx.opt.quiet)
        fprintf(stderr, "memlane-bench: charts: cd %s && gnuplot memlane-bench.gp\n",
                ctx.opt.plot_dir);
}

void write_plot_data(const struct result *r)
{
    static int script_written;
    if (!ctx.opt.plot_dir || r->table == 3)
        return;
    /* main checked before measuring that the folder takes files. */
    if (!script_written) {
        write_plot_script();
        script_written = 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/table%d-%s%s%s%s.dat", ctx.opt.plot_dir, r->table,
             r->f->name,
             r->f->kind == ML_KIND_CMP && r->data == DATA_MISMATCH ? "-mismatch" : "",
             ctx.opt.plot_tag ? "-" : "", ctx.opt.plot_tag ? ctx.opt.plot_tag : "");
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "memlane-bench: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    /* Medians: table 1 in TSC cycles per call, table 2 in GiB/s. */
    fprintf(out, "%s", r->table == 1 ? "size" : "row");
    for (unsigned c = 0; c < r->ncols; c++)
        fprintf(out, " %s", impl_name(r, c));
    fputc('\n', out);
    for (unsigned row = 0; row < r->nrows; row++) {
        if (r->table == 1)
            fprintf(out, "%zu", r->sizes[row]);
        else
            fprintf(out, "%s", dist_name(r->dists[row]));
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct cell *ce = cell_at(r, row, c);
            if (!ce->supported || !ce->n) {
                fprintf(out, " -");
                continue;
            }
            struct summary s;
            summarize(ce->v, ce->n, &s);
            if (r->table == 1)
                fprintf(out, " %.3f", s.median);
            else
                fprintf(out, " %.4f",
                        (double)DIST_BUFFER / (tick_ns(s.median) * 1e-9) /
                            (1024.0 * 1024 * 1024));
        }
        fputc('\n', out);
    }
    /* A full disk shows in the error flag or at the close. */
    int failed = ferror(out);
    if (fclose(out) != 0 || failed) {
        fprintf(stderr, "memlane-bench: cannot write %s: %s\n", path,
                errno ? strerror(errno) : "write error");
        exit(1);
    }
}
