/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --workload=FILE: replays a recorded profile (or an LLVM libc size
 * distribution) on every implementation, and says which wins.
 *
 * Per function of the profile, one row in table 2's layout (an op is one
 * call): a list of calls is drawn from the profile once (sizes; the first
 * address's offset mod 64; the second's at the profile's most common
 * distance from the first; equal inputs or the first difference where
 * the profile puts it), long enough that the fastest implementation takes
 * --batch on it, and every sample runs all of it in a new order (the
 * same work each time, never the same sequence twice).  Calls of up to
 * 16 KiB walk a 128 KiB buffer in turn, larger ones start at its
 * beginning: the data is as hot as a program's own would be at best.
 * memset also runs memlane at a few MEMLANE_REP_STOSB_THRESHOLD and
 * MEMLANE_NT_THRESHOLD settings that fall within the profile's sizes.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "memlane.h"
#include "profile.h"
#include "stats.h"
#include "tunables.h"

int bench_tuned_impls;

enum {
    SMALL_CALL = 16 * 1024,      /* calls up to this walk the buffer */
    MAX_CALL = 256 * 1024 * 1024 /* larger recorded sizes are replayed at this */
};

/* ---- memset tunables per implementation ---- */

void impl_tunables_apply(const struct bench_impl *im)
{
    static struct ml_memset_tunables saved;
    static int have;
    if (!have) {
        saved = *ml_memset_tunables();
        have = 1;
    }
    struct ml_memset_tunables t = saved;
    if (im->tuned) {
        t.rep_stosb = im->rep_stosb;
        t.nt = im->nt;
        t.special = t.rep_stosb < t.nt ? t.rep_stosb : t.nt;
    }
    ml_memset_tun = t;
}

/* ---- drawing from the profile ---- */

/* A discrete distribution: cum[i] is the weight of outcomes 0..i. */
struct table {
    uint64_t cum[ML_TRACE_EXACT + 1 + ML_TRACE_POW2];
    size_t n;
};

static void table_set(struct table *t, const uint64_t *w, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        t->cum[i] = s += w[i];
    t->n = n;
}

static uint64_t table_total(const struct table *t) { return t->n ? t->cum[t->n - 1] : 0; }

static size_t table_draw(const struct table *t)
{
    uint64_t x = rnd64() % table_total(t);
    size_t lo = 0, hi = t->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static uint64_t uniform(uint64_t lo, uint64_t hi)
{
    return hi - lo == UINT64_MAX ? rnd64() : lo + rnd64() % (hi - lo + 1);
}

/* One replayed call: its length, first address mod 64 and difference. */
struct call {
    uint32_t len;
    uint32_t pos; /* first difference, UINT32_MAX: equal inputs */
    uint8_t align;
};

struct source {
    const struct profile *p;
    int tf; /* enum ml_trace_fn */
    struct table size, align;
    struct table differ[ML_TRACE_CLASSES]; /* over at[k][0..] and unsampled */
    unsigned delta;                        /* b - a mod 64 of every call */
    unsigned long clamped;                 /* sizes above MAX_CALL */
};

static void source_init(struct source *s, const struct profile *p, int tf)
{
    const struct ml_trace_fn_counts *c = &p->c.fn[tf];
    uint64_t w[ML_TRACE_EXACT + 1 + ML_TRACE_POW2];
    memcpy(w, c->exact, sizeof c->exact);
    memcpy(w + ML_TRACE_EXACT + 1, c->pow2, sizeof c->pow2);
    s->p = p;
    s->tf = tf;
    s->clamped = 0;
    table_set(&s->size, w, ML_TRACE_EXACT + 1 + ML_TRACE_POW2);
    table_set(&s->align, c->align_a, ML_TRACE_ALIGN);
    s->delta = 0;
    for (unsigned d = 1; d < ML_TRACE_ALIGN; d++)
        if (c->delta[d] > c->delta[s->delta])
            s->delta = d;
    int di = tf == MLT_MEMCMP ? 0 : tf == MLT_BCMP ? 1 : -1;
    for (unsigned k = 0; k < ML_TRACE_CLASSES; k++) {
        uint64_t v[ML_TRACE_CLASSES + 1] = {0};
        if (di >= 0) {
            memcpy(v, p->c.data[di].at[k], sizeof p->c.data[di].at[k]);
            v[ML_TRACE_CLASSES] = p->c.data[di].unsampled[k];
        }
        table_set(&s->differ[k], v, ML_TRACE_CLASSES + 1);
    }
}

/* A first difference of a call of n bytes (size class k) in offset class
 * j, below n, and in a sixteenth of n that the profile's diff-rel counts
 * of class k give, drawn among those that overlap the offset class (the
 * two are recorded apart: taken as independent). */
static uint32_t offset_in_class(const struct ml_trace_data_counts *d, unsigned k,
                                unsigned j, uint64_t n)
{
    uint64_t lo, hi;
    profile_class_range(j, &lo, &hi);
    if (hi > n - 1)
        hi = n - 1;
    if (lo > hi)
        lo = hi;
    /* Sixteenth s holds the offsets o with s*n <= 16*o < (s+1)*n. */
    uint64_t from[ML_TRACE_REL], to[ML_TRACE_REL], w[ML_TRACE_REL], total = 0;
    for (unsigned s = 0; s < ML_TRACE_REL; s++) {
        from[s] = (s * n + ML_TRACE_REL - 1) / ML_TRACE_REL;
        to[s] = ((s + 1) * n + ML_TRACE_REL - 1) / ML_TRACE_REL - 1;
        if (from[s] < lo)
            from[s] = lo;
        if (to[s] > hi)
            to[s] = hi;
        w[s] = from[s] <= to[s] ? d->rel[k][s] : 0;
        total += w[s];
    }
    if (!total)
        return (uint32_t)uniform(lo, hi);
    uint64_t r = rnd64() % total;
    unsigned s = 0;
    for (; r >= w[s]; s++)
        r -= w[s];
    return (uint32_t)uniform(from[s], to[s]);
}

static struct call draw_call_as_recorded(struct source *s)
{
    struct call c;
    size_t i = table_draw(&s->size);
    uint64_t n = i;
    if (i > ML_TRACE_EXACT) { /* a power-of-two bucket: uniform in it */
        unsigned k = (unsigned)(i - ML_TRACE_EXACT - 1);
        uint64_t lo = (uint64_t)1 << k;
        n = uniform(lo > ML_TRACE_EXACT ? lo : ML_TRACE_EXACT + 1, 2 * lo - 1);
    }
    if (n > MAX_CALL) {
        n = MAX_CALL;
        s->clamped++;
    }
    c.len = (uint32_t)n;
    c.align = (uint8_t)table_draw(&s->align);
    c.pos = UINT32_MAX;
    int di = s->tf == MLT_MEMCMP ? 0 : s->tf == MLT_BCMP ? 1 : -1;
    if (di < 0 || n == 0)
        return c;
    const struct ml_trace_data_counts *d = &s->p->c.data[di];
    unsigned k = ml_trace_class(n);
    uint64_t eq = d->equal[k], ne = d->differ[k];
    if (!eq && !ne) /* clamped into a class the profile has none of */
        return c;
    if (rnd64() % (eq + ne) < eq)
        return c;
    const struct table *t = &s->differ[k];
    size_t j = table_total(t) ? table_draw(t) : ML_TRACE_CLASSES;
    if (j < ML_TRACE_CLASSES) {
        c.pos = offset_in_class(d, k, (unsigned)j, n);
        return c;
    }
    /* Not sampled: somewhere from ML_TRACE_SCAN on, where the sampled
     * ones of this size class lie, or anywhere there. */
    unsigned from = ml_trace_class(ML_TRACE_SCAN);
    uint64_t w = 0;
    for (unsigned x = from; x < ML_TRACE_CLASSES; x++)
        w += d->at[k][x];
    if (!w) {
        c.pos = (uint32_t)uniform(ML_TRACE_SCAN < n ? ML_TRACE_SCAN : n - 1, n - 1);
        return c;
    }
    uint64_t r = rnd64() % w;
    unsigned x = from;
    for (; r >= d->at[k][x]; x++)
        r -= d->at[k][x];
    c.pos = offset_in_class(d, k, x, n);
    if (c.pos < ML_TRACE_SCAN && ML_TRACE_SCAN < n)
        c.pos = ML_TRACE_SCAN;
    return c;
}

/* A call as replayed: a first difference beyond DIFF_EXACT moved down
 * by up to 63 bytes (diff_round). */
static struct call draw_call(struct source *s)
{
    struct call c = draw_call_as_recorded(s);
    if (c.pos != UINT32_MAX)
        c.pos = diff_round(c.align, c.pos);
    return c;
}

/* The drawn list of a function: the same for a seed, whatever its
 * length (--dump-sequence shows its start). */
static void draw_list(struct source *s, struct call *calls, size_t count)
{
    rnd_seed(ctx.opt.seed * 0x9e3779b97f4a7c15u + (uint64_t)s->tf + 1);
    for (size_t i = 0; i < count; i++)
        calls[i] = draw_call(s);
}

/* ---- measuring ---- */

struct replay {
    struct cmp_data d; /* first: measure_row passes &d to replay_prepare */
    struct call *calls;
    size_t count;
    size_t walk;           /* bytes the calls without a difference walk */
    struct diff_zone zone; /* where the calls with one go */
};

/* Offsets for the calls in their current order.  memset's calls walk
 * the buffer one after another (up to SMALL_CALL; larger ones at its
 * start).  A comparison's inputs that differ go to the zone of
 * differences (struct diff_zone), the others to a random place of the
 * buffer: both scattered over about 128 KiB, where a program's compared
 * records would be, with no stream for a prefetcher to follow.  Every
 * call at its recorded first address mod 64. */
static void lay_out(struct replay *rp, int cmp)
{
    struct call_list *cl = rp->d.cl;
    size_t cursor = 0;
    for (size_t i = 0; i < rp->count; i++) {
        const struct call *c = &rp->calls[i];
        size_t off;
        if (c->pos != UINT32_MAX) {
            off = diff_zone_place(&rp->zone, c->align, c->pos);
        } else if (c->len > SMALL_CALL) {
            off = c->align;
        } else if (cmp) {
            size_t lines = (DIST_BUFFER - c->len - c->align) / 64 + 1;
            off = (size_t)(rnd64() % lines) * 64 + c->align;
        } else {
            off = ((cursor + 63) & ~(size_t)63) + c->align;
            if (off + c->len > DIST_BUFFER)
                off = c->align;
            cursor = off + c->len;
        }
        cl->call[i].off = (uint32_t)off;
        cl->call[i].len = c->len;
        rp->d.pos[i] = c->pos;
    }
    cl->count = rp->count;
    call_list_sum(cl);
}

static void shuffle(struct call *v, size_t n)
{
    for (; n > 1; n--) {
        size_t j = (size_t)(rnd64() % n);
        struct call t = v[n - 1];
        v[n - 1] = v[j];
        v[j] = t;
    }
}

static size_t replay_prepare(void *arg, size_t cursor, size_t calls)
{
    (void)cursor;
    (void)calls;
    struct replay *rp = arg;
    shuffle(rp->calls, rp->count);
    lay_out(rp, rp->d.cl->b_base != NULL);
    check_differences(&rp->d);
    return 0;
}

/* ---- columns ---- */

static enum bench_func bench_fn_of(int tf)
{
    switch (tf) {
    case MLT_MEMCMP:
        return BF_MEMCMP;
    case MLT_BCMP:
        return BF_BCMP;
    case MLT_TS_BCMP:
        return BF_TS_BCMP;
    case MLT_TS_MEMCMP:
        return BF_TS_MEMCMP;
    default:
        return BF_MEMSET;
    }
}

/* memlane's memset at a threshold setting, as a column. */
static void add_tuned(size_t rep, size_t nt)
{
    char name[32], sz[16];
    format_size(sz, sizeof sz, rep != ML_THRESHOLD_OFF ? rep : nt);
    snprintf(name, sizeof name, "memlane/%s=%s", rep != ML_THRESHOLD_OFF ? "rep" : "nt",
             sz);
    if (bench_impl_index(bench_function_get(BF_MEMSET), name) >= 0)
        return;
    struct bench_impl *im = bench_impl_add(BF_MEMSET, name,
                                           "memlane's memset at a threshold setting "
                                           "(replays)",
                                           0);
    if (!im)
        return;
    const struct ml_memset_tunables *t = ml_memset_tunables();
    im->fn.set = memlane_memset;
    im->tuned = 1;
    im->rep_stosb = rep != ML_THRESHOLD_OFF ? rep : t->rep_stosb;
    im->nt = nt != ML_THRESHOLD_OFF ? nt : t->nt;
    bench_tuned_impls = 1;
}

/* The store loop for any size (the tables' store-loop takes whole
 * aligned blocks only, which a replay's sizes are not). */
static void add_store_loop_any(void)
{
    const char *what;
    ml_set_fn loop = bench_store_loop_any(&what);
    if (!loop || bench_impl_index(bench_function_get(BF_MEMSET), "store-loop-any") >= 0)
        return;
    struct bench_impl *im = bench_impl_add(BF_MEMSET, "store-loop-any", what, 1);
    if (im)
        im->fn.set = loop;
}

/* The thresholds tried: those within the profile's memset sizes. */
static void add_threshold_columns(uint64_t largest)
{
    static const size_t rep[] = {2048, 32768, 524288};
    static const size_t nt[] = {1u << 20, 8u << 20};
    for (size_t i = 0; i < sizeof rep / sizeof rep[0]; i++)
        if (rep[i] <= largest)
            add_tuned(rep[i], ML_THRESHOLD_OFF);
    for (size_t i = 0; i < sizeof nt / sizeof nt[0]; i++)
        if (nt[i] <= largest)
            add_tuned(ML_THRESHOLD_OFF, nt[i]);
}

static int wanted(const struct bench_impl *im)
{
    const struct options *o = &ctx.opt;
    if (!o->impls)
        return im->in_default || im->tuned;
    for (size_t k = 0; k < o->nimpls; k++)
        if (!strcmp(o->impls[k], "all") || !strcmp(o->impls[k], im->name))
            return 1;
    return 0;
}

/* Columns of r: the base (--base, else libc, else the function's) first. */
static void replay_columns(struct result *r)
{
    struct bench_function *f = r->f;
    r->cols = calloc(BENCH_MAX_IMPLS, sizeof *r->cols);
    if (!r->cols)
        abort();
    int bi = ctx.opt.base ? bench_impl_index(f, ctx.opt.base) : -1;
    if (bi < 0)
        bi = bench_impl_index(f, "libc");
    if (bi < 0)
        bi = bench_impl_index(f, f->default_base);
    r->ncols = 0;
    if (bi >= 0)
        r->cols[r->ncols++] = bi;
    /* Not the loops that take whole aligned blocks only: no replay has
     * such sizes alone. */
    for (unsigned i = 0; i < f->nimpls; i++)
        if ((int)i != bi && wanted(&f->impls[i]) && !f->impls[i].size_multiple &&
            !f->impls[i].dst_align)
            r->cols[r->ncols++] = (int)i;
    r->base_col = bi >= 0 ? 0 : -1;
}

/* ---- reports ---- */

static const char *title_of(int tf)
{
    static const char *const t[MLT_COUNT] = {"Memset", "MemsetExplicit", "Memcmp",
                                             "Bcmp",   "TsBcmp",         "TsMemcmp"};
    return t[tf];
}

static uint64_t fn_largest(const struct profile *p, int tf)
{
    const struct ml_trace_fn_counts *c = &p->c.fn[tf];
    for (unsigned k = ML_TRACE_POW2; k-- > 12;)
        if (c->pow2[k])
            return k == 63 ? UINT64_MAX : ((uint64_t)2 << k) - 1;
    for (unsigned n = ML_TRACE_EXACT + 1; n-- > 0;)
        if (c->exact[n])
            return n;
    return 0;
}

/* The size histogram of one function: by bit length, in the terminal. */
static void histogram(FILE *out, const struct profile *p, int tf)
{
    const struct ml_trace_fn_counts *c = &p->c.fn[tf];
    uint64_t cls[65] = {0}, most = 0;
    for (unsigned n = 0; n <= ML_TRACE_EXACT; n++)
        cls[n ? 64 - __builtin_clzll(n) : 0] += c->exact[n];
    for (unsigned k = 12; k < ML_TRACE_POW2; k++)
        cls[k + 1] += c->pow2[k];
    unsigned first = 65, last = 0;
    for (unsigned k = 0; k < 65; k++)
        if (cls[k]) {
            first = k < first ? k : first;
            last = k;
            most = cls[k] > most ? cls[k] : most;
        }
    fprintf(out, "  %s sizes (%llu calls, mean %.1f B):\n", ml_trace_fn_names[tf],
            (unsigned long long)p->calls[tf],
            p->calls[tf] ? (double)c->bytes / (double)p->calls[tf] : 0.0);
    for (unsigned k = first; k <= last && first < 65; k++) {
        char range[48], lo[16], hi[16];
        uint64_t l = k ? (uint64_t)1 << (k - 1) : 0, h = k ? 2 * l - 1 : 0;
        format_size(lo, sizeof lo, (size_t)l);
        format_size(hi, sizeof hi, (size_t)h);
        if (k == 64)
            snprintf(hi, sizeof hi, "...");
        snprintf(range, sizeof range, k < 2 ? "%s" : "%s-%s", lo, hi);
        int bar = (int)((double)cls[k] / (double)most * 50 + 0.5);
        double pct = 100.0 * (double)cls[k] / (double)p->calls[tf];
        if (cls[k] && pct < 0.005)
            fprintf(out, "  %14s <0.01%% ", range);
        else
            fprintf(out, "  %14s %6.2f%% ", range, pct);
        for (int i = 0; i < bar; i++)
            fputc('#', out);
        fputc('\n', out);
    }
}

static int fn_selected(int tf);

/* The gnuplot data of the size distribution (--plot-dir): per size class
 * (bit length of n) its range, a label, and the percent of the calls of
 * each function replayed (record.c's script charts every column from the
 * fourth on). */
static void histogram_data(const struct profile *p)
{
    if (!ctx.opt.plot_dir)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/workload-sizes.dat", ctx.opt.plot_dir);
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "memlane-bench: cannot write %s\n", path);
        return;
    }
    int shown[MLT_COUNT];
    fprintf(out, "# size class (bit length of n): from, to, label, then %% of calls per "
                 "function\nfrom to label");
    for (int f = 0; f < MLT_COUNT; f++)
        if ((shown[f] = p->calls[f] && fn_selected(f)))
            fprintf(out, " %s", ml_trace_fn_names[f]);
    fputc('\n', out);
    for (unsigned k = 0; k < 65; k++) {
        uint64_t l = k ? (uint64_t)1 << (k - 1) : 0,
                 h = k ? (k == 64 ? UINT64_MAX : 2 * l - 1) : 0;
        double pct[MLT_COUNT];
        int any = 0;
        for (int f = 0; f < MLT_COUNT; f++) {
            const struct ml_trace_fn_counts *c = &p->c.fn[f];
            uint64_t v = 0;
            if (k <= 13)
                for (uint64_t n = l; n <= h && n <= ML_TRACE_EXACT; n++)
                    v += c->exact[n];
            if (k >= 13)
                v += c->pow2[k - 1];
            pct[f] = p->calls[f] ? 100.0 * (double)v / (double)p->calls[f] : 0;
            any |= shown[f] && v != 0;
        }
        if (!any)
            continue;
        char lo[16], hi[16];
        format_size(lo, sizeof lo, (size_t)l);
        format_size(hi, sizeof hi, (size_t)h);
        fprintf(out, "%llu %llu %s%s%s", (unsigned long long)l, (unsigned long long)h, lo,
                k < 2 ? "" : "-",
                k < 2     ? ""
                : k == 64 ? "..."
                          : hi);
        for (int f = 0; f < MLT_COUNT; f++)
            if (shown[f])
                fprintf(out, " %.4f", pct[f]);
        fputc('\n', out);
    }
    fclose(out);
}

static double cell_median(const struct result *r, unsigned col)
{
    const struct cell *c = &r->cells[col];
    if (!c->supported || !c->n)
        return 0;
    struct summary s;
    summarize(c->v, c->n, &s);
    return s.median;
}

static double cell_p(const struct result *r, unsigned x, unsigned y)
{
    const struct cell *a = &r->cells[x], *b = &r->cells[y];
    return mann_whitney_p(a->v, a->n, b->v, b->n);
}

static int col_of(const struct result *r, const char *name)
{
    for (unsigned c = 0; c < r->ncols; c++)
        if (!strcmp(r->f->impls[r->cols[c]].name, name) && r->cells[c].supported)
            return (int)c;
    return -1;
}

/* What one replayed row says, for the verdict. */
struct row_verdict {
    int tf;
    uint64_t calls;
    struct result r;
};

/* The level of the variant column `name` ("memlane-avx2"), -1 if none. */
static int variant_level(const struct bench_function *f, const char *name)
{
    if (strncmp(name, "memlane-", 8))
        return -1;
    const struct ml_function *mf = ml_function_find(f->name);
    for (unsigned i = 0; mf && i < mf->nvariants; i++)
        if (!strcmp(mf->variants[i].name, name + 8))
            return (int)mf->variants[i].level;
    return -1;
}

/* The column of the variant the dispatcher would use at a cap of
 * `level`: the last one at or below it; -1 if none was measured. */
static int at_level(const struct result *r, int level)
{
    int col = -1, best = -1;
    for (unsigned c = 0; c < r->ncols; c++) {
        int l = variant_level(r->f, r->f->impls[r->cols[c]].name);
        if (l >= 0 && l <= level && l >= best && r->cells[c].supported) {
            best = l;
            col = (int)c;
        }
    }
    return col;
}

/* A column that can win: measured, and not libc's memcmp, which for the
 * timing-safe functions is a speed reference only. */
static int is_candidate(const struct result *r, unsigned c)
{
    return r->cells[c].supported && r->cells[c].n &&
           strcmp(r->f->impls[r->cols[c]].name, "libc-memcmp") != 0;
}

static void verdict(FILE *out, const struct profile *p, struct row_verdict *rows,
                    unsigned nrows)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < nrows; i++)
        total += rows[i].calls;
    char brand[49];
    ml_cpu_brand(brand);
    fprintf(out, "verdict for %s on this CPU (%s):\n", p->program, brand);
    double t_libc = 0, t_memlane = 0;
    int all_libc = 1, differs = 0;
    for (unsigned i = 0; i < nrows; i++) {
        const struct result *r = &rows[i].r;
        double share = 100.0 * (double)rows[i].calls / (double)(total ? total : 1);
        int best = -1;
        for (unsigned c = 0; c < r->ncols; c++)
            if (is_candidate(r, c) &&
                (best < 0 || cell_median(r, c) < cell_median(r, (unsigned)best)))
                best = (int)c;
        if (best < 0)
            continue;
        int lc = col_of(r, "libc"), mc = col_of(r, "memlane");
        double tb = cell_median(r, (unsigned)best);
        /* A candidate the fastest does not beat at p < 0.05 ties with it:
         * then there is no winner to name. */
        unsigned ntied = 0;
        for (unsigned c = 0; c < r->ncols; c++)
            ntied += is_candidate(r, c) && (int)c != best &&
                     cell_p(r, c, (unsigned)best) >= 0.05;
        if (ntied) {
            fprintf(out,
                    "  %s (%.1f%% of the calls): no difference (Mann-Whitney p >= 0.05) "
                    "between %s, %.3g ns a call, and",
                    r->label, share, r->f->impls[r->cols[best]].name,
                    tb / ctx.timer.tsc_ghz);
            for (unsigned c = 0, k = 0; c < r->ncols; c++) {
                double pc = cell_p(r, c, (unsigned)best);
                if (is_candidate(r, c) && (int)c != best && pc >= 0.05)
                    fprintf(out, "%s %s (p=%.3f)", k++ ? "," : "",
                            r->f->impls[r->cols[c]].name, pc);
            }
        } else {
            fprintf(out, "  %s (%.1f%% of the calls): fastest %s, %.3g ns a call",
                    r->label, share, r->f->impls[r->cols[best]].name,
                    tb / ctx.timer.tsc_ghz);
        }
        if (lc >= 0 && lc != best && !ntied)
            fprintf(out, ", %.2fx as fast as libc (p=%.3f)",
                    cell_median(r, (unsigned)lc) / tb,
                    cell_p(r, (unsigned)lc, (unsigned)best));
        for (int k = 0; k < 2; k++) { /* libc, memlane: their time against it */
            int c = k ? mc : lc;
            if (c < 0 || c == best || (!ntied && !k) ||
                (ntied && cell_p(r, (unsigned)c, (unsigned)best) >= 0.05))
                continue;
            fprintf(out, "; %s %.2fx its time (p=%.3f)",
                    k ? "memlane (dispatched)" : "libc", cell_median(r, (unsigned)c) / tb,
                    cell_p(r, (unsigned)c, (unsigned)best));
        }
        fprintf(out, "\n");
        double w = (double)rows[i].calls;
        if (lc >= 0 && mc >= 0) {
            t_libc += w * cell_median(r, (unsigned)lc);
            t_memlane += w * cell_median(r, (unsigned)mc);
            differs |= cell_p(r, (unsigned)lc, (unsigned)mc) < 0.05;
        } else {
            all_libc = 0;
        }
    }
    if (t_libc > 0) {
        double ratio = t_memlane / t_libc;
        fprintf(
            out,
            "  weighted by the program's calls%s: memlane's drop-in would take %.0f%% "
            "%s time in these functions than libc",
            all_libc ? "" : " (where libc has the function)", fabs(ratio - 1) * 100,
            ratio <= 1 ? "less" : "more");
        if (!differs)
            fprintf(out, " (no difference: Mann-Whitney p >= 0.05 between them in every "
                         "function)");
        else if (fabs(ratio - 1) < 0.02)
            fprintf(out, " (within 2%%: no difference worth having)");
        fprintf(out, ".\n");
    }
    /* Settings: a lower MEMLANE_ARCH, a memset threshold. */
    int helped = 0;
    double t_now = 0;
    for (unsigned i = 0; i < nrows; i++) {
        int mc = col_of(&rows[i].r, "memlane");
        t_now +=
            mc >= 0 ? (double)rows[i].calls * cell_median(&rows[i].r, (unsigned)mc) : 0;
    }
    for (int level = ML_GENERIC; level < (int)ml_selected_level() && t_now > 0; level++) {
        double t = 0;
        int complete = 1, significant = 0;
        for (unsigned i = 0; i < nrows; i++) {
            const struct result *r = &rows[i].r;
            int lc = at_level(r, level), mc = col_of(r, "memlane");
            double m = lc >= 0 ? cell_median(r, (unsigned)lc) : 0;
            complete &= m > 0;
            t += (double)rows[i].calls * m;
            /* Faster somewhere at p < 0.05, or it is noise. */
            significant |= mc >= 0 && m > 0 && m < cell_median(r, (unsigned)mc) &&
                           cell_p(r, (unsigned)lc, (unsigned)mc) < 0.05;
        }
        if (complete && significant && t < 0.98 * t_now) {
            fprintf(
                out,
                "  MEMLANE_ARCH=%s would take %.0f%% less time than the default %s.\n",
                ml_level_name((enum ml_level)level), (1 - t / t_now) * 100,
                ml_level_name(ml_selected_level()));
            helped = 1;
        }
    }
    for (unsigned i = 0; i < nrows; i++) {
        const struct result *r = &rows[i].r;
        int mc = col_of(r, "memlane"), best = -1;
        if (mc < 0)
            continue;
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct bench_impl *im = &r->f->impls[r->cols[c]];
            if (!im->tuned || !r->cells[c].supported)
                continue;
            double m = cell_median(r, c);
            if (m < 0.98 * cell_median(r, (unsigned)mc) &&
                cell_p(r, c, (unsigned)mc) < 0.05 &&
                (best < 0 || m < cell_median(r, (unsigned)best)))
                best = (int)c;
        }
        if (best >= 0) {
            const struct bench_impl *im = &r->f->impls[r->cols[best]];
            char v[16];
            int rep = im->rep_stosb != ml_memset_tunables()->rep_stosb;
            format_size(v, sizeof v, rep ? im->rep_stosb : im->nt);
            fprintf(out, "  %s=%s makes %s %.0f%% faster.\n",
                    rep ? "MEMLANE_REP_STOSB_THRESHOLD" : "MEMLANE_NT_THRESHOLD", v,
                    r->label,
                    (1 - cell_median(r, (unsigned)best) / cell_median(r, (unsigned)mc)) *
                        100);
            helped = 1;
        }
    }
    if (helped) /* the replay shuffles the calls at one call site: memlane-bench(1) */
        fprintf(out, "  (in this replay; time a setting on the program itself before "
                     "keeping it: memlane-bench(1), REPLAYING A PROGRAM)\n");
    else
        fprintf(out,
                "  No setting tried helps by 2%% or more (MEMLANE_ARCH below %s%s).\n",
                ml_level_name(ml_selected_level()),
                bench_tuned_impls ? ", the memset thresholds in the table"
                                  : "; no memset is large enough for a threshold");
}

/* ---- the replay ---- */

static void replay_fn(FILE *out, const struct profile *p, int tf, struct row_verdict *rv)
{
    struct source s;
    source_init(&s, p, tf);
    struct result *r = &rv->r;
    memset(r, 0, sizeof *r);
    r->table = 3;
    r->f = bench_function_get(bench_fn_of(tf));
    int cmp = r->f->kind == ML_KIND_CMP;
    r->data = cmp ? DATA_MISMATCH : DATA_EQUAL;
    r->nrows = 1;
    static char label[96];
    snprintf(label, sizeof label, "%s/%s", title_of(tf), p->program);
    r->label = strdup(label);
    replay_columns(r);
    r->cells = calloc(r->ncols, sizeof *r->cells);
    if (!r->cells || !r->label)
        abort();

    size_t cap = 4 * DIST_BUFFER, count = 4096;
    struct replay rp = {.count = count};
    rp.calls = malloc(cap * sizeof *rp.calls);
    uint32_t *pos = malloc(cap * sizeof *pos);
    if (!rp.calls || !pos)
        abort();
    draw_list(&s, rp.calls, count);
    double bytes = 0;
    uint64_t biggest = fn_largest(p, tf);
    if (biggest > MAX_CALL)
        biggest = MAX_CALL;
    size_t walk = biggest > DIST_BUFFER ? biggest : DIST_BUFFER, need = walk + 8192;
    int data = tf == MLT_MEMCMP || tf == MLT_BCMP;
    if (data) { /* room for every difference the profile can give */
        size_t small = biggest < DIFF_EXACT ? biggest : DIFF_EXACT;
        diff_zone_plan(&rp.zone, walk, small ? small - 1 : 0,
                       biggest > DIFF_EXACT ? biggest - 1 : 0, biggest);
        need = rp.zone.end + 8192;
    }
    unsigned char *a = bench_alloc(need), *b = cmp ? bench_alloc(need) : NULL;
    /* b + delta holds what a holds: inputs equal but in the zone. */
    if (cmp) {
        for (size_t i = 0; i < need - 64; i++)
            a[i] = (unsigned char)rnd64();
        memcpy(b + s.delta, a, need - 64);
    }
    struct call_list cl = {.a_base = a,
                           .b_base = cmp ? b + s.delta : NULL,
                           .a_map = a,
                           .b_map = b,
                           .map_len = need};
    call_list_alloc(&cl, cap);
    if (data)
        diff_zone_mark(&rp.zone, cl.a_base, cl.b_base, 1);
    rp.d = (struct cmp_data){&cl, pos, r->data, DIST_LONG, 0, 0, NULL, NULL, 0, NULL};
    for (size_t i = 0; i < cap; i++)
        pos[i] = UINT32_MAX;
    lay_out(&rp, cmp);
    for (unsigned c = 0; c < r->ncols; c++)
        r->cells[c].supported = r->f->impls[r->cols[c]].size_multiple == 0 &&
                                r->f->impls[r->cols[c]].dst_align == 0;

    progress("replay: %s", r->label);
    count = row_list_calls(r, 0, &cl);
    rp.count = count < 4096 ? 4096 : count > cap ? cap : count;
    draw_list(&s, rp.calls, rp.count);
    for (size_t i = 0; i < rp.count; i++)
        bytes += rp.calls[i].len;
    r->op_bytes = bytes / (double)rp.count;
    lay_out(&rp, cmp);
    measure_row(r, 0, &cl, replay_prepare, &rp.d);
    progress_done();

    /* The header, then table 2's layout. */
    const struct ml_trace_fn_counts *fc = &p->c.fn[tf];
    fprintf(out,
            "%s: replay of %s, %llu calls recorded (mean %.1f B); base %s; median "
            "\xc2\xb1 spread of %u runs,\n",
            ml_trace_fn_names[tf], p->source, (unsigned long long)p->calls[tf],
            (double)fc->bytes / (double)(p->calls[tf] ? p->calls[tf] : 1),
            r->base_col >= 0 ? r->f->impls[r->cols[r->base_col]].name : "-",
            ctx.opt.runs);
    fprintf(out,
            "  each all of %zu calls drawn from the profile (seed %llu) in a new order; "
            "sec/op per call;\n",
            rp.count, (unsigned long long)ctx.opt.seed);
    if (data) {
        size_t equal = 0;
        for (size_t i = 0; i < rp.count; i++)
            equal += rp.calls[i].pos == UINT32_MAX;
        fprintf(out, "  %.1f%% of them with equal inputs%s;",
                100.0 * (double)equal / (double)rp.count,
                p->llvm ? " (the distribution has sizes only)" : "");
    }
    fprintf(out, "%s first address mod 64 as recorded", data ? "" : " ");
    if (cmp)
        fprintf(out, ", b at a + %u (the most common offset, %.0f%% of the calls)",
                s.delta,
                100.0 * (double)fc->delta[s.delta] /
                    (double)(p->calls[tf] ? p->calls[tf] : 1));
    fprintf(out, ".\n");
    if (s.clamped)
        fprintf(out, "  %lu drawn calls above %d MiB replayed at %d MiB.\n", s.clamped,
                MAX_CALL >> 20, MAX_CALL >> 20);
    fprintf(out, "  vs base: change of the median, Mann-Whitney U p-value, '~' when "
                 "p >= 0.05.\n");
    report_result(out, r);
    rv->tf = tf;
    rv->calls = p->calls[tf];

    bench_free(a, need);
    bench_free(b, need);
    call_list_free(&cl);
    free(rp.calls);
    free(pos);
}

static int fn_selected(int tf)
{
    const struct options *o = &ctx.opt;
    return !o->funcs_given || o->funcs[bench_fn_of(tf)];
}

/* The functions --functions names, as recorded functions (for LLVM
 * distributions); NULL when none were named. */
static const int *llvm_funcs(void)
{
    static int v[MLT_COUNT];
    if (!ctx.opt.funcs_given)
        return NULL;
    for (int f = 0; f < MLT_COUNT; f++)
        v[f] = f != MLT_MEMSET_EXPLICIT && ctx.opt.funcs[bench_fn_of(f)];
    return v;
}

struct profile *workload_load(const char *path)
{
    return profile_load(path, llvm_funcs());
}

int run_workload(FILE *out, struct profile *p)
{
    uint64_t total = 0;
    for (int f = 0; f < MLT_COUNT; f++)
        total += fn_selected(f) ? p->calls[f] : 0;
    fprintf(out, "workload: %s (%s", p->source, p->program);
    if (p->llvm)
        fprintf(out, ", an LLVM libc size distribution");
    else
        fprintf(out, ", %llu process%s, %llu thread%s", (unsigned long long)p->processes,
                p->processes == 1 ? "" : "es", (unsigned long long)p->threads,
                p->threads == 1 ? "" : "s");
    fprintf(out, "): %llu calls\n", (unsigned long long)total);
    for (int f = 0; f < MLT_COUNT; f++)
        if (p->calls[f] && fn_selected(f))
            histogram(out, p, f);
    fprintf(out, "\n");
    histogram_data(p);
    if (!total) {
        fprintf(out, "nothing to replay: the profile has no calls%s\n",
                ctx.opt.funcs_given ? " of the functions named" : "");
        profile_free(p);
        return 0;
    }
    if (p->calls[MLT_MEMSET] + p->calls[MLT_MEMSET_EXPLICIT] &&
        (fn_selected(MLT_MEMSET) || fn_selected(MLT_MEMSET_EXPLICIT))) {
        uint64_t l1 = fn_largest(p, MLT_MEMSET), l2 = fn_largest(p, MLT_MEMSET_EXPLICIT);
        add_store_loop_any();
        add_threshold_columns(l1 > l2 ? l1 : l2);
    }
    struct row_verdict rows[MLT_COUNT];
    unsigned n = 0;
    for (int f = 0; f < MLT_COUNT; f++)
        if (p->calls[f] && fn_selected(f))
            replay_fn(out, p, f, &rows[n++]);
    verdict(out, p, rows, n);
    for (unsigned i = 0; i < n; i++) {
        for (unsigned c = 0; c < rows[i].r.ncols; c++)
            free(rows[i].r.cells[c].v);
        free(rows[i].r.cells);
        free(rows[i].r.cols);
        free((void *)rows[i].r.label);
    }
    profile_free(p);
    return 0;
}

int dump_sequence(FILE *out, const char *path, size_t count)
{
    struct profile *p = workload_load(path);
    fprintf(out,
            "# memlane-bench --dump-sequence: %s, seed %llu, the first %zu calls of each "
            "function's replay list\n",
            p->source, (unsigned long long)ctx.opt.seed, count);
    struct call *calls = malloc((count ? count : 1) * sizeof *calls);
    if (!calls)
        abort();
    for (int f = 0; f < MLT_COUNT; f++) {
        if (!p->calls[f] || !fn_selected(f))
            continue;
        struct source s;
        source_init(&s, p, f);
        draw_list(&s, calls, count);
        int set = f == MLT_MEMSET || f == MLT_MEMSET_EXPLICIT;
        for (size_t i = 0; i < count; i++) {
            fprintf(out, "%s %u %s=%u", ml_trace_fn_names[f], calls[i].len,
                    set ? "dst" : "a", calls[i].align);
            if (!set)
                fprintf(out, " b=%u", (calls[i].align + s.delta) % 64);
            if (f == MLT_MEMCMP || f == MLT_BCMP) {
                if (calls[i].pos == UINT32_MAX)
                    fprintf(out, " equal");
                else
                    fprintf(out, " differ@%u", calls[i].pos);
            }
            fputc('\n', out);
        }
    }
    free(calls);
    profile_free(p);
    return 0;
}
