/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
/*
 * Measuring.
 *
 * Every sample is one timed batch: a list of calls (pointer pairs and
 * lengths, prepared beforehand) run K times in a row between two ordered
 * TSC reads; the cost of an empty timed region is subtracted and the rest
 * divided by K (table 1) or by the passes over the list (table 2).  K is
 * chosen in a warm-up so that a batch takes about --batch µs.  Runs are
 * interleaved: round r times every implementation once, starting at a
 * different one each round, so drift and noise hit all alike.
 */
#include "bench.h"
#include "memlane.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

struct context ctx;

/* Results are folded into this so no call can be optimised away. */
static volatile uintptr_t sink;

/* ---- the timed batch ---- */

void call_list_alloc(struct call_list *cl, size_t cap)
{
    cl->call = malloc(cap * sizeof *cl->call);
    cl->cum = malloc((cap + 1) * sizeof *cl->cum);
    if (!cl->call || !cl->cum)
        abort();
}

void call_list_free(struct call_list *cl)
{
    free(cl->call);
    free(cl->cum);
}

void call_list_sum(struct call_list *cl)
{
    cl->cum[0] = 0;
    for (size_t i = 0; i < cl->count; i++)
        cl->cum[i + 1] = cl->cum[i] + cl->call[i].len;
}

/* Bytes covered by k calls from call j. */
static double batch_bytes(const struct call_list *cl, size_t j, unsigned long k)
{
    size_t m = cl->count, end = j + k % m;
    double laps = (double)(k / m) * (double)cl->cum[m];
    if (end <= m)
        return laps + (double)(cl->cum[end] - cl->cum[j]);
    return laps + (double)(cl->cum[m] - cl->cum[j] + cl->cum[end - m]);
}

/* Ticks of k calls walking the list cyclically from *cursor, less the
 * empty measurement. */
static double time_batch(const struct bench_function *f, const struct bench_impl *im,
                         const struct call_list *cl, unsigned long k, size_t *cursor)
{
    uintptr_t acc;
    int is_set = f->kind == ML_KIND_SET;
    void *fn = is_set ? (void *)im->fn.set : (void *)im->fn.cmp;
    if (is_set && bench_tuned_impls)
        impl_tunables_apply(im);
    uint64_t ticks = batch_run(im->site, fn, is_set, cl->a_base, cl->b_base, cl->call,
                               cl->count, k, cursor, &acc);
    sink += acc;
    double t = (double)ticks - ctx.timer.overhead;
    return t > 0 ? t : 0;
}

/* Target time of a batch of r's in microseconds. */
static double batch_us(const struct result *r)
{
    return r->table == 1 ? ctx.opt.batch_us : ctx.opt.pass_batch_us;
}

/* Calls per batch for about the target time. */
static unsigned long choose_batch(const struct result *r, const struct bench_impl *im,
                                  const struct call_list *cl)
{
    const struct bench_function *f = r->f;
    const unsigned long kmax = 1ul << 24;
    double target = batch_us(r) * 1e3 * ctx.timer.tsc_ghz;
    unsigned long k = 1;
    size_t cursor = 0;
    for (;;) {
        time_batch(f, im, cl, k, &cursor); /* warm caches and predictors */
        double t = time_batch(f, im, cl, k, &cursor);
        if (t >= target / 4 || k >= kmax) {
            double want = t > 0 ? (double)k * target / t : (double)kmax;
            if (want > (double)kmax)
                want = (double)kmax;
            return want >= 1 ? (unsigned long)(want + 0.5) : 1;
        }
        k *= 8;
    }
}

/* Context switches of this thread so far. */
static long switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru))
        return 0;
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* One batch; a batch during which the thread was switched out (the
 * machine may be shared) is run again, a few times at most. */
static double batch_retried(const struct bench_function *f, const struct bench_impl *im,
                            const struct call_list *cl, unsigned long k, size_t *cursor)
{
    double t = 0;
    size_t start = *cursor;
    for (int attempt = 0; attempt < 8; attempt++) {
        *cursor = start; /* the same calls: they carry the differences */
        long before = switches();
        t = time_batch(f, im, cl, k, cursor);
        if (switches() == before)
            break;
    }
    return t;
}

/*
 * One sample of k calls.  With chunk < k (table 2, replays), the calls
 * are timed in chunks of `chunk` calls (about CHUNK_US each), and a chunk
 * whose ticks per call exceed 1.25 times the median chunk's counts at the
 * median chunk's rate: on a virtual machine the host can stop the CPU for
 * a few hundred microseconds, unseen by the guest (no context switch),
 * which would otherwise make a long sample worthless.  *clipped counts
 * such chunks.
 */
enum { CHUNK_US = 20, MAX_CHUNKS = 512, CLIP_PERCENT = 125 };

static double sample(const struct bench_function *f, const struct bench_impl *im,
                     const struct call_list *cl, unsigned long k, size_t *cursor,
                     double *bytes, unsigned long chunk, unsigned long *chunks,
                     unsigned long *clipped)
{
    size_t start = *cursor;
    *bytes = batch_bytes(cl, start, k);
    if (!chunk || chunk >= k)
        return batch_retried(f, im, cl, k, cursor);
    if (k / chunk >= MAX_CHUNKS)
        chunk = k / MAX_CHUNKS + 1;
    double ticks[MAX_CHUNKS], rate[MAX_CHUNKS];
    unsigned long calls[MAX_CHUNKS];
    unsigned n = 0;
    for (unsigned long done = 0; done < k; done += calls[n++]) {
        calls[n] = k - done < chunk ? k - done : chunk;
        ticks[n] = batch_retried(f, im, cl, calls[n], cursor);
        rate[n] = ticks[n] / (double)calls[n];
    }
    double med = median_inplace(rate, n), total = 0;
    for (unsigned i = 0; i < n; i++) {
        double cap = med * (double)calls[i];
        if (ticks[i] * 100 > cap * CLIP_PERCENT) {
            ticks[i] = cap;
            ++*clipped;
        }
        total += ticks[i];
    }
    *chunks += n;
    return total;
}

/* Times every supported cell of row `row` for ctx.opt.runs rounds.
 * `prepare` (may be NULL) runs before every sample: new difference
 * positions where the sample will run, or a new split of the buffer into
 * calls (the sample then starts at its first call), so that no sample
 * repeats a sequence the branch predictor saw before; such samples take
 * at most one pass over the list.  Every sample is
 * preceded by an untimed batch of the same implementation.  Table 1 samples
 * are ticks per call, table 2 samples ticks per DIST_BUFFER bytes. */
static void measure_cells(struct result *r, unsigned row, struct call_list *cl,
                          size_t (*prepare)(void *, size_t, size_t), void *arg, int only)
{
    unsigned nc = r->ncols, runs = ctx.opt.runs;
    struct cell *cells = &r->cells[row * nc];
    size_t cursor[BENCH_MAX_IMPLS] = {0};
    double calls_per_pass = 0;

    for (unsigned c = 0; c < nc; c++) {
        if (only >= 0 && (int)c != only)
            continue;
        /* Each implementation walks its own part of the list: with a
         * large footprint, one must not find the lines the one before it
         * just brought into the cache. */
        cursor[c] = (size_t)((double)cl->count * c / nc);
        cells[c].n = 0;
        cells[c].v = calloc(runs, sizeof(double));
        if (!cells[c].v)
            abort();
        if (cells[c].supported) {
            cells[c].calls = choose_batch(r, &r->f->impls[r->cols[c]], cl);
            if (r->table != 1) {
                /* Table 2 and replays: every sample is the whole list
                 * (row_list_calls sized it), the same calls in a new
                 * order, timed in chunks. */
                double chunk = (double)cells[c].calls * CHUNK_US / batch_us(r);
                cells[c].chunk = chunk >= 1 ? (unsigned long)chunk : 1;
                cells[c].calls = cl->count;
            }
            if (prepare && cells[c].calls > cl->count)
                cells[c].calls = cl->count;
            cells[c].iters = cells[c].calls;
        }
    }
    for (unsigned run = 0; run < runs; run++) {
        for (unsigned t = 0; t < nc; t++) {
            unsigned c = (t + run) % nc;
            if (!cells[c].supported || (only >= 0 && (int)c != only))
                continue;
            unsigned long k = cells[c].calls;
            /* An untimed batch first: the caches and predictors then hold
             * this implementation's own state, not what the one before
             * it left (non-temporal stores, say, evict the buffer). */
            if (cursor[c] >= cl->count)
                cursor[c] = 0;
            time_batch(r->f, &r->f->impls[r->cols[c]], cl,
                       prepare && k > cl->count ? cl->count : k, &cursor[c]);
            if (prepare) {
                if (k > cl->count)
                    k = cl->count;
                cursor[c] = prepare(arg, cursor[c], k);
                if (k > cl->count) /* a new layout may be shorter */
                    k = cl->count;
            }
            calls_per_pass +=
                (double)cl->count * DIST_BUFFER / (double)cl->cum[cl->count];
            double bytes;
            double ticks =
                sample(r->f, &r->f->impls[r->cols[c]], cl, k, &cursor[c], &bytes,
                       cells[c].chunk, &cells[c].chunks, &cells[c].clipped);
            double per =
                r->table != 2 ? (double)k : (bytes > 0 ? bytes / DIST_BUFFER : 1);
            cells[c].v[cells[c].n++] = ticks / per;
        }
    }
    if (r->table == 2) { /* iterations for gobench: passes per batch */
        unsigned nsamples = 0;
        for (unsigned c = 0; c < nc; c++)
            nsamples += cells[c].n;
        calls_per_pass /= nsamples ? nsamples : 1;
        for (unsigned c = 0; c < nc; c++)
            if (cells[c].supported) {
                double passes = (double)cells[c].calls / calls_per_pass;
                cells[c].iters = passes >= 1 ? (unsigned long)(passes + 0.5) : 1;
            }
    }
}

size_t row_list_calls(struct result *r, unsigned row, const struct call_list *cl)
{
    /* Long enough that the fastest implementation's sample lasts about
     * --batch; the others' last longer. */
    unsigned long most = 1;
    for (unsigned c = 0; c < r->ncols; c++) {
        if (!r->cells[row * r->ncols + c].supported)
            continue;
        unsigned long k = choose_batch(r, &r->f->impls[r->cols[c]], cl);
        if (k > most)
            most = k;
    }
    return most;
}

/* Reads or writes all of a pipe transfer. */
static int pipe_io(int fd, void *buf, size_t len, int writing)
{
    char *p = buf;
    while (len) {
        ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* --isolate: each implementation measured alone in a child process.  In
 * one process, small-size results depend on what was measured before
 * (docs/benchmarking.md, "Small sizes depend on the process state"), so
 * small differences between columns can be an artefact of their order. */
static void measure_isolated(struct result *r, unsigned row, struct call_list *cl,
                             size_t (*prepare)(void *, size_t, size_t), void *arg)
{
    unsigned nc = r->ncols, runs = ctx.opt.runs;
    struct cell *cells = &r->cells[row * nc];
    for (unsigned c = 0; c < nc; c++) {
        cells[c].n = 0;
        cells[c].v = calloc(runs, sizeof(double));
        if (!cells[c].v)
            abort();
        if (!cells[c].supported)
            continue;
        int fd[2];
        if (pipe(fd)) {
            perror("memlane-bench: pipe");
            exit(1);
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("memlane-bench: fork");
            exit(1);
        }
        if (pid == 0) {
            close(fd[0]);
            rnd_seed(ctx.opt.seed * 1000003u + row * 131u + c + 1);
            /* fork does not copy the page tables of shared mappings:
             * fault every page in now, writable, not inside a timing. */
            for (size_t i = 0; i < cl->map_len; i += 4096) {
                volatile unsigned char *pa = cl->a_map + i;
                *pa = *pa;
                if (cl->b_map) {
                    volatile unsigned char *pb = cl->b_map + i;
                    *pb = *pb;
                }
            }
            free(cells[c].v);
            measure_cells(r, row, cl, prepare, arg, (int)c);
            /* The buffers are shared: take the differences out again. */
            undo_mismatches(arg);
            struct cell *x = &cells[c];
            int bad = pipe_io(fd[1], &x->n, sizeof x->n, 1) ||
                      pipe_io(fd[1], &x->calls, sizeof x->calls, 1) ||
                      pipe_io(fd[1], &x->iters, sizeof x->iters, 1) ||
                      pipe_io(fd[1], &x->chunks, sizeof x->chunks, 1) ||
                      pipe_io(fd[1], &x->clipped, sizeof x->clipped, 1) ||
                      pipe_io(fd[1], x->v, x->n * sizeof *x->v, 1);
            _exit(bad ? 1 : 0);
        }
        close(fd[1]);
        struct cell *x = &cells[c];
        int status = 0;
        int bad = pipe_io(fd[0], &x->n, sizeof x->n, 0) ||
                  pipe_io(fd[0], &x->calls, sizeof x->calls, 0) ||
                  pipe_io(fd[0], &x->iters, sizeof x->iters, 0) ||
                  pipe_io(fd[0], &x->chunks, sizeof x->chunks, 0) ||
                  pipe_io(fd[0], &x->clipped, sizeof x->clipped, 0) || x->n > runs ||
                  pipe_io(fd[0], x->v, x->n * sizeof *x->v, 0);
        close(fd[0]);
        waitpid(pid, &status, 0);
        if (bad || !WIFEXITED(status) || WEXITSTATUS(status)) {
            fprintf(stderr, "memlane-bench: the child measuring %s failed\n",
                    r->f->impls[r->cols[c]].name);
            exit(1);
        }
    }
}

void measure_row(struct result *r, unsigned row, struct call_list *cl,
                 size_t (*prepare)(void *, size_t, size_t), void *arg)
{
    if (ctx.opt.isolate)
        measure_isolated(r, row, cl, prepare, arg);
    else
        measure_cells(r, row, cl, prepare, arg, -1);
}
