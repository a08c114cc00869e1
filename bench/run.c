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

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;

void rnd_seed(uint64_t seed) { rnd_state = seed ? seed : 0x9e3779b97f4a7c15u; }

uint64_t rnd64(void)
{
    /* xorshift64* */
    rnd_state ^= rnd_state >> 12;
    rnd_state ^= rnd_state << 25;
    rnd_state ^= rnd_state >> 27;
    return rnd_state * 0x2545f4914f6cdd1du;
}

static size_t rnd_below(size_t n) { return n ? (size_t)(rnd64() % n) : 0; }

const char *dist_name(enum dist d)
{
    static const char *const names[DIST_COUNT] = {"Short", "Mid", "Long", "Uniform512"};
    return (unsigned)d < DIST_COUNT ? names[d] : "?";
}

/* ---- progress on stderr ---- */

static double last_progress;
static int progress_open;

void progress(const char *fmt, ...)
{
    if (ctx.opt.quiet)
        return;
    double now = wall_seconds();
    int tty = isatty(2);
    /* On a terminal, overwrite one line; in a log, a line every 2 s. */
    if (now - last_progress < (tty ? 0.1 : 2.0))
        return;
    last_progress = now;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, tty ? "\r\033[Kmemlane-bench: " : "memlane-bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, tty ? "" : "\n");
    va_end(ap);
    progress_open = tty;
}

void progress_done(void)
{
    if (progress_open)
        fprintf(stderr, "\r\033[K");
    progress_open = 0;
    last_progress = 0;
}

/* ---- buffers ---- */

void *bench_alloc(size_t bytes)
{
    /* Shared under --isolate, so the children write the parent's pages
     * instead of copying them on the first write (inside a timing). */
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   (ctx.opt.isolate ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr,
                "memlane-bench: cannot allocate a %zu-byte buffer: %s "
                "(try a smaller --footprint or --sizes; --help for usage)\n",
                bytes, strerror(errno));
        exit(2);
    }
    /* Touch every page now, so page faults stay out of the timing. */
    memset(p, 0x55, bytes);
    return p;
}

void bench_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

/* Reads a small text file into buf; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

size_t cache_bytes(int level)
{
    /* sysfs first: it is what the kernel (and lscpu) report; glibc's
     * sysconf derives the L3 from CPUID, which some hypervisors fill
     * with odd values. */
    for (int i = 0; i < 16; i++) {
        char path[96], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level",
                 i);
        if (read_line(path, buf, sizeof buf))
            break;
        if (atoi(buf) != level)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (read_line(path, buf, sizeof buf) || !strncmp(buf, "Instruction", 11))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (read_line(path, buf, sizeof buf))
            continue;
        char *end;
        unsigned long v = strtoul(buf, &end, 10);
        if (*end == 'K')
            v <<= 10;
        else if (*end == 'M')
            v <<= 20;
        if (v)
            return v;
    }
#ifdef _SC_LEVEL1_DCACHE_SIZE /* glibc's; musl has no such sysconf names */
    long v = sysconf(level == 1   ? _SC_LEVEL1_DCACHE_SIZE
                     : level == 2 ? _SC_LEVEL2_CACHE_SIZE
                                  : _SC_LEVEL3_CACHE_SIZE);
    return v > 0 ? (size_t)v : 0;
#else
    return 0;
#endif
}

size_t footprint_bytes(const char *name)
{
    /* Per buffer; a comparison uses two, so each gets half the level. */
    size_t l1 = cache_bytes(1), l2 = cache_bytes(2), l3 = cache_bytes(3);
    if (!strcasecmp(name, "L1"))
        return l1 ? l1 / 2 : 16 * 1024;
    if (!strcasecmp(name, "L2"))
        return l2 ? l2 / 2 : 512 * 1024;
    if (!strcasecmp(name, "LLC"))
        return l3 ? l3 / 2 : l2 ? l2 / 2 : 4 * 1024 * 1024;
    if (!strcasecmp(name, "DRAM")) {
        size_t v = 4 * (l3 ? l3 : (size_t)32 << 20);
        if (v < (256u << 20))
            v = 256u << 20;
        if (v > (1u << 30))
            v = 1u << 30;
        return v;
    }
    return 0;
}

/* Spin on memset for a while so the core leaves its idle clock. */
void warm_up_cpu(double seconds)
{
    enum { N = 64 * 1024 };
    static unsigned char buf[N];
    double end = wall_seconds() + seconds;
    while (wall_seconds() < end)
        for (int i = 0; i < 64; i++)
            sink += (uintptr_t)memlane_memset(buf, i, N);
}

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

/* A position for --data=mismatch in a call of length len > 0. */
static uint32_t mismatch_position(size_t len)
{
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
 * one process, the first implementation measured in a row read up to 2
 * TSC cycles per call faster at small sizes than the same code measured
 * after another one, whatever the batch length (cause not found; see
 * bench/batch.c), so small differences between columns of one process
 * can be an artefact of their order. */
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
        struct cmp_data d = {&cl, pos, r->data, DIST_LONG, 0, 0, NULL, NULL, 0};
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

/* Table 2: every pass in a new order; the sample starts at call 0. */
static size_t dist_prepare(void *arg, size_t cursor, size_t calls)
{
    (void)cursor;
    struct cmp_data *d = arg;
    struct call_list *cl = d->cl;
    undo_mismatches(d);
    for (size_t p = 0, i = 0; p < d->npasses; i = d->pass_end[p++]) {
        shuffle_calls(cl->call, d->want, i, d->pass_end[p]);
        uint32_t off = 0;
        for (size_t c = i; c < d->pass_end[p]; c++) {
            cl->call[c].off = off;
            off += cl->call[c].len;
        }
    }
    place_mismatches(d, 0, calls);
    return 0;
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

void measure_table2(struct result *r)
{
    struct bench_function *f = r->f;
    int cmp = f->kind == ML_KIND_CMP;
    size_t need = DIST_BUFFER + 8192;
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
        struct cmp_data dd = {&cl, pos, r->data, d, 0, 0, want, pass_end, 0};
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
        measure_row(r, row, &cl, dist_prepare, &dd);
        undo_mismatches(&dd);
    }
    progress_done();
    bench_free(a, need);
    bench_free(b, need);
    call_list_free(&cl);
    free(pos);
    free(want);
    free(pass_end);
}
