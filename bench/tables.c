/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
/*
 * What the tables measure: the calls of table 1 (one size, many buffer
 * slots) and of table 2 (sizes drawn from a distribution), their
 * buffers' contents, and for comparisons the difference each call meets.
 */
#include "bench.h"
#include "memlane.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

const char *dist_name(enum dist d)
{
    static const char *const names[DIST_COUNT] = {"Short", "Mid", "Long", "Uniform512"};
    return (unsigned)d < DIST_COUNT ? names[d] : "?";
}

/* ---- comparison data: equal, or one difference per call ---- */

void undo_mismatches(void *arg)
{
    struct cmp_data *d = arg;
    struct call_list *cl = d->cl;
    if (!cl->b_base)
        return;
    for (size_t j = 0; j < d->placed; j++) {
        size_t i = (d->first + j) % cl->count;
        if (d->pos[i] != UINT32_MAX) {
            size_t at = cl->call[i].off + d->pos[i];
            cl->b_base[at] = cl->a_base[at];
            d->pos[i] = UINT32_MAX;
        }
    }
    d->placed = 0;
}

/* ---- differences at fixed bytes (struct diff_zone) ---- */

static size_t round64(size_t x) { return (x + 63) & ~(size_t)63; }

uint32_t diff_round(size_t off, uint32_t p)
{
    return p < DIFF_EXACT ? p : p - (uint32_t)((off + p) % 64);
}

void diff_zone_plan(struct diff_zone *z, size_t walk, size_t max_small, size_t max_big,
                    size_t max_len)
{
    memset(z, 0, sizeof *z);
    size_t start = round64(walk);
    if (max_big) {
        /* Before it, the walk (no differing byte), as far back as max_big. */
        z->big = round64(start > max_big + 64 ? start : max_big + 64);
        start = z->big + 64;
    }
    z->gap = round64(max_small + 64);
    z->copies = (unsigned)((DIST_BUFFER + 64 * z->gap - 1) / (64 * z->gap));
    z->first = start + z->gap;
    size_t last = z->first + (64 * (size_t)z->copies - 1) * z->gap + 63;
    size_t end = last + max_len;
    if (z->big && z->big + max_len > end)
        end = z->big + max_len;
    z->end = round64(end + 64);
}

static size_t diff_zone_byte(const struct diff_zone *z, size_t m)
{
    return z->first + m * z->gap + m % 64;
}

void diff_zone_mark(const struct diff_zone *z, unsigned char *a_base,
                    unsigned char *b_base, int on)
{
    for (size_t m = 0; m < 64 * (size_t)z->copies; m++) {
        size_t q = diff_zone_byte(z, m);
        b_base[q] = on ? (unsigned char)~a_base[q] : a_base[q];
    }
    if (z->big)
        b_base[z->big] = on ? (unsigned char)~a_base[z->big] : a_base[z->big];
}

size_t diff_zone_place(struct diff_zone *z, size_t off, uint32_t p)
{
    if (p >= DIFF_EXACT)
        return z->big - p; /* (off + p) % 64 == 0 == z->big % 64 */
    unsigned r = (unsigned)((off + p) % 64);
    size_t m = r + 64 * (size_t)(z->next[r]++ % z->copies);
    return diff_zone_byte(z, m) - p;
}

/* MEMLANE_BENCH_CHECK=1 (the tests): after a layout, every call of the
 * list must first differ where d->pos says, or have equal inputs
 * (UINT32_MAX); an error stops the run. */
void check_differences(const struct cmp_data *d)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("MEMLANE_BENCH_CHECK");
        on = e && !strcmp(e, "1");
    }
    const struct call_list *cl = d->cl;
    if (!on || !cl->b_base)
        return;
    for (size_t i = 0; i < cl->count; i++) {
        const unsigned char *a = cl->a_base + cl->call[i].off;
        const unsigned char *b = cl->b_base + cl->call[i].off;
        size_t n = cl->call[i].len, at = 0;
        while (at < n && a[at] == b[at])
            at++;
        size_t want = d->pos[i] == UINT32_MAX ? n : d->pos[i];
        if (at != want) {
            fprintf(stderr,
                    "memlane-bench: internal error: call %zu of %zu (%zu bytes at offset "
                    "%u) first differs at %zu, not at %zu\n",
                    i, cl->count, n, cl->call[i].off, at, want);
            exit(3);
        }
    }
}

/* A position for --data=mismatch in a call of length len > 0, or
 * UINT32_MAX (equal inputs) for the calls --mismatch-share leaves equal. */
static uint32_t mismatch_position(size_t len)
{
    if (ctx.opt.mismatch_share < 100 && rnd_below(100) >= ctx.opt.mismatch_share)
        return UINT32_MAX;
    size_t last = len - 1;
    size_t hi = ctx.opt.mismatch_hi < last ? ctx.opt.mismatch_hi : last;
    size_t lo = ctx.opt.mismatch_lo < hi ? ctx.opt.mismatch_lo : hi;
    return (uint32_t)(lo + rnd_below(hi - lo + 1));
}

/* Differences in the `calls` calls from `first` on (the next sample's). */
void place_mismatches(struct cmp_data *d, size_t first, size_t calls)
{
    struct call_list *cl = d->cl;
    if (!cl->b_base || d->mode != DATA_MISMATCH)
        return;
    if (calls > cl->count)
        calls = cl->count;
    d->first = first;
    d->placed = calls;
    for (size_t j = 0; j < calls; j++) {
        size_t i = (first + j) % cl->count;
        if (cl->call[i].len == 0)
            continue;
        uint32_t p = d->want ? d->want[i] : mismatch_position(cl->call[i].len);
        if (p == UINT32_MAX)
            continue;
        size_t at = cl->call[i].off + p;
        cl->b_base[at] = (unsigned char)(cl->a_base[at] ^ (1 + rnd_below(255)));
        d->pos[i] = p;
    }
}

static void fill_random(unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = rnd64();
        memcpy(p + i, &v, 8);
    }
    for (; i < n; i++)
        p[i] = (unsigned char)rnd64();
}

/* Random bytes in a, and b the same bytes as seen from the call bases:
 * b_base[x] == a_base[x] for every x, so inputs are equal at any
 * --align=A,B (the bases are a + A and b + B). */
static void fill_equal_pair(unsigned char *a, unsigned char *b, size_t need)
{
    size_t shift = ctx.opt.align_a > ctx.opt.align_b ? ctx.opt.align_a : ctx.opt.align_b;
    fill_random(a, need);
    memcpy(b + ctx.opt.align_b, a + ctx.opt.align_a, need - shift);
}

/* ---- table 1: fixed sizes ---- */

static void fixed_layout(size_t n, size_t *stride, size_t *slots)
{
    size_t align = ctx.opt.align_a > ctx.opt.align_b ? ctx.opt.align_a : ctx.opt.align_b;
    *stride = (n + align + 63) & ~(size_t)63;
    if (*stride == 0)
        *stride = 64;
    size_t s = ctx.opt.footprint ? ctx.opt.footprint / *stride : 1;
    /* The call list costs 16 bytes a slot: keep it to 64 MiB. */
    if (s > ((size_t)1 << 22))
        s = (size_t)1 << 22;
    *slots = s ? s : 1;
}

/* With differences, a batch needs many slots (a batch is at most one
 * pass over them), or the same few positions would repeat and the branch
 * predictor would learn them: up to 1024 slots within 256 KiB, at least
 * 8 unless that exceeds 16 MiB. */
static size_t mismatch_slots(size_t stride, size_t slots)
{
    size_t want = (256u << 10) / stride;
    if (want > 1024)
        want = 1024;
    if (want < 8 && 8 * stride <= (16u << 20))
        want = 8;
    return slots > want ? slots : want;
}

/* Table 1: new differences where the sample will run; the walk over the
 * footprint goes on. */
static size_t fixed_prepare(void *arg, size_t cursor, size_t calls)
{
    struct cmp_data *d = arg;
    undo_mismatches(d);
    place_mismatches(d, cursor, calls);
    return cursor;
}

void measure_table1(struct result *r)
{
    struct bench_function *f = r->f;
    size_t need = 0, max_slots = 0;
    int cmp = f->kind == ML_KIND_CMP;

    for (unsigned i = 0; i < r->nrows; i++) {
        size_t stride, slots;
        fixed_layout(r->sizes[i], &stride, &slots);
        if (cmp && r->data == DATA_MISMATCH)
            slots = mismatch_slots(stride, slots);
        if (stride * slots > need)
            need = stride * slots;
        if (slots > max_slots)
            max_slots = slots;
    }
    need += 4096;
    if (need > UINT32_MAX) {
        fprintf(stderr,
                "memlane-bench: a footprint of %zu bytes is too "
                "large (at most 4G; --help for usage)\n",
                need);
        exit(2);
    }
    unsigned char *a = bench_alloc(need);
    unsigned char *b = cmp ? bench_alloc(need) : NULL;
    struct call_list cl = {.a_base = a + ctx.opt.align_a,
                           .b_base = cmp ? b + ctx.opt.align_b : NULL,
                           .a_map = a,
                           .b_map = b,
                           .map_len = need};
    /* Few slots are repeated in the list up to this many calls, so the
     * timed loop runs long stretches (see bench/batch.c). */
    const size_t min_list = 1024;
    call_list_alloc(&cl, max_slots > min_list ? max_slots : min_list);
    size_t *order = malloc(max_slots * sizeof *order);
    uint32_t *pos = malloc(max_slots * sizeof *pos);
    if (!order || !pos)
        abort();
    if (cmp)
        fill_equal_pair(a, b, need);

    for (unsigned row = 0; row < r->nrows; row++) {
        size_t n = r->sizes[row], stride, slots;
        fixed_layout(n, &stride, &slots);
        if (cmp && r->data == DATA_MISMATCH)
            slots = mismatch_slots(stride, slots);
        /* Slots in a random order, so prefetchers cannot run ahead. */
        for (size_t i = 0; i < slots; i++)
            order[i] = i;
        for (size_t i = slots; i > 1; i--) {
            size_t j = rnd_below(i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (size_t i = 0; i < slots; i++) {
            cl.call[i].off = (uint32_t)(order[i] * stride);
            cl.call[i].len = (uint32_t)n;
            pos[i] = UINT32_MAX;
        }
        cl.count = slots;
        int mismatch = cmp && r->data == DATA_MISMATCH;
        if (!mismatch && slots < min_list) {
            for (size_t i = slots; i < min_list; i++)
                cl.call[i] = cl.call[i % slots];
            cl.count = min_list;
        }
        call_list_sum(&cl);

        for (unsigned c = 0; c < r->ncols; c++)
            r->cells[row * r->ncols + c].supported =
                impl_supports(&f->impls[r->cols[c]], n, ctx.opt.align_a);

        progress("table 1: %s size %zu (%u/%u)", f->name, n, row + 1, r->nrows);
        struct cmp_data d = {&cl, pos, r->data, DIST_LONG, 0, 0, NULL, NULL, 0, NULL};
        fixed_prepare(&d, 0, cl.count);
        /* Positions are drawn anew before every sample only where the
         * walk revisits slots soon enough for the predictor to learn
         * them; with more slots they stay put, since drawing them reads
         * and writes the very lines the sample would then find cached. */
        int redraw = mismatch && slots < 4096;
        measure_row(r, row, &cl, redraw ? fixed_prepare : NULL, &d);
        undo_mismatches(&d);
    }
    progress_done();
    bench_free(a, need);
    bench_free(b, need);
    call_list_free(&cl);
    free(order);
    free(pos);
}

/* ---- table 2: sizes drawn from a distribution ---- */

/* Geometric length with the given mean (support 0, 1, 2, ...). */
static size_t geometric(double mean)
{
    double u = ((double)(rnd64() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
    return (size_t)floor(log(u) / log(mean / (mean + 1)));
}

static size_t draw_length(enum dist d)
{
    switch (d) {
    case DIST_SHORT:
        return geometric(16);
    case DIST_MID:
        return geometric(64);
    case DIST_UNIFORM512:
        return rnd_below(513);
    default:
        return DIST_BUFFER;
    }
}

/*
 * Table 2's list: passes over the buffer, each a split of it into calls
 * whose lengths are drawn from the row's distribution, with a difference
 * position drawn for each call (--data=mismatch).  Drawn once per row;
 * before every sample each pass is shuffled (its calls keep their
 * lengths and differences, in a new order), so every sample does the
 * same work, which keeps the spread down to the noise of the machine,
 * while the branch predictor never sees a sequence twice.
 */
static void dist_draw(struct cmp_data *d, size_t calls, size_t cap)
{
    struct call_list *cl = d->cl;
    size_t k = 0;
    d->npasses = 0;
    while (k < calls) {
        size_t off = 0, start = k;
        while (off < DIST_BUFFER && k < cap) {
            size_t len = draw_length(d->dist);
            if (len > DIST_BUFFER - off)
                len = DIST_BUFFER - off;
            cl->call[k].off = (uint32_t)off;
            cl->call[k].len = (uint32_t)len;
            d->pos[k] = UINT32_MAX;
            d->want[k] =
                len && d->mode == DATA_MISMATCH ? mismatch_position(len) : UINT32_MAX;
            off += len;
            k++;
        }
        if (off < DIST_BUFFER) { /* the list is full: drop the partial pass */
            k = start;
            break;
        }
        d->pass_end[d->npasses++] = k;
    }
    cl->count = k;
    call_list_sum(cl);
}

/* The calls of list entries [i, j) in a random order (Fisher-Yates),
 * each with its difference. */
void shuffle_calls(struct bench_call *call, uint32_t *want, size_t i, size_t j)
{
    for (size_t n = j - i; n > 1; n--) {
        size_t r = i + rnd_below(n), l = i + n - 1;
        struct bench_call t = call[l];
        call[l] = call[r];
        call[r] = t;
        if (want) {
            uint32_t w = want[l];
            want[l] = want[r];
            want[r] = w;
        }
    }
}

/* Table 2: every pass in a new order; the sample starts at call 0.  A
 * call with a difference goes to the zone (struct diff_zone), at the
 * offset modulo 64 the pass gives it. */
static size_t dist_prepare(void *arg, size_t cursor, size_t calls)
{
    (void)cursor;
    (void)calls;
    struct cmp_data *d = arg;
    struct call_list *cl = d->cl;
    for (size_t p = 0, i = 0; p < d->npasses; i = d->pass_end[p++]) {
        shuffle_calls(cl->call, d->want, i, d->pass_end[p]);
        uint32_t off = 0;
        for (size_t c = i; c < d->pass_end[p]; c++) {
            cl->call[c].off = off;
            d->pos[c] = UINT32_MAX;
            if (d->zone && d->want[c] != UINT32_MAX) {
                d->pos[c] = diff_round(off, d->want[c]);
                cl->call[c].off = (uint32_t)diff_zone_place(d->zone, off, d->pos[c]);
            }
            off += cl->call[c].len;
        }
    }
    check_differences(d);
    return 0;
}

/* The zone for the differences of d's list (none: NULL). */
static struct diff_zone *dist_zone(struct cmp_data *d, struct diff_zone *z)
{
    size_t small = 0, big = 0, any = 0;
    for (size_t i = 0; i < d->cl->count; i++) {
        uint32_t p = d->want[i];
        if (p == UINT32_MAX)
            continue;
        any = 1;
        if (p < DIFF_EXACT)
            small = p > small ? p : small;
        else
            big = p > big ? p : big;
    }
    if (!any)
        return NULL;
    diff_zone_plan(z, DIST_BUFFER, small, big, DIST_BUFFER);
    return z;
}

void measure_table2(struct result *r)
{
    struct bench_function *f = r->f;
    int cmp = f->kind == ML_KIND_CMP;
    /* Room for the walk and the largest zone of differences. */
    struct diff_zone zone;
    diff_zone_plan(&zone, DIST_BUFFER, DIFF_EXACT - 1, DIST_BUFFER - 1, DIST_BUFFER);
    size_t need = zone.end + 8192;
    unsigned char *a = bench_alloc(need);
    unsigned char *b = cmp ? bench_alloc(need) : NULL;
    if (cmp)
        fill_equal_pair(a, b, need);
    /* A zero-length call still takes a list entry: at most one per byte
     * plus the zero-length ones, bounded generously. */
    size_t cap = 4 * DIST_BUFFER;
    struct call_list cl = {.a_base = a + ctx.opt.align_a,
                           .b_base = cmp ? b + ctx.opt.align_b : NULL,
                           .a_map = a,
                           .b_map = b,
                           .map_len = need};
    call_list_alloc(&cl, cap);
    uint32_t *pos = malloc(cap * sizeof *pos);
    uint32_t *want = malloc(cap * sizeof *want);
    size_t *pass_end = malloc(cap * sizeof *pass_end);
    if (!pos || !want || !pass_end)
        abort();

    for (unsigned row = 0; row < r->nrows; row++) {
        enum dist d = r->dists[row];
        struct cmp_data dd = {&cl, pos, r->data, d, 0, 0, want, pass_end, 0, NULL};
        dist_draw(&dd, 4096, cap);

        /* The reference loops take only whole aligned blocks: that is
         * the Long row, and only when not offset. */
        for (unsigned c = 0; c < r->ncols; c++) {
            const struct bench_impl *im = &f->impls[r->cols[c]];
            r->cells[row * r->ncols + c].supported =
                d == DIST_LONG ? impl_supports(im, DIST_BUFFER, ctx.opt.align_a)
                               : impl_supports(im, 1, 1);
        }

        progress("table 2: %s%s (%u/%u)", f->title, dist_name(d), row + 1, r->nrows);
        dist_draw(&dd, row_list_calls(r, row, &cl), cap);
        if (cmp && (dd.zone = dist_zone(&dd, &zone)))
            diff_zone_mark(dd.zone, cl.a_base, cl.b_base, 1);
        measure_row(r, row, &cl, dist_prepare, &dd);
        if (dd.zone)
            diff_zone_mark(dd.zone, cl.a_base, cl.b_base, 0);
    }
    progress_done();
    bench_free(a, need);
    bench_free(b, need);
    call_list_free(&cl);
    free(pos);
    free(want);
    free(pass_end);
}
