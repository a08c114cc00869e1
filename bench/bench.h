/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared declarations of memlane-bench: options, result tables, and the
 * measuring (measure.c; tables.c the calls measured, platform.c the
 * services), reporting (report.c) and calibrating (calibrate.c)
 * parts. */
#ifndef MEMLANE_BENCH_H
#define MEMLANE_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "impls.h"
#include "timer.h"

enum data_mode { DATA_EQUAL, DATA_MISMATCH, DATA_COUNT };
enum dist { DIST_SHORT, DIST_MID, DIST_LONG, DIST_UNIFORM512, DIST_COUNT };
enum format { FMT_TABLE, FMT_GOBENCH, FMT_CSV };

/* The buffer of the distribution rows (table 2). */
enum { DIST_BUFFER = 128 * 1024 };

struct options {
    int tables; /* bit 0: table 1, bit 1: table 2 */
    int calibrate, quick, quiet, list, unit_ns, isolate;
    int funcs_given, funcs[BF_COUNT];
    char **impls; /* --impls names, NULL: defaults */
    size_t nimpls;
    int impls_all;    /* --impls=all */
    const char *base; /* --base */
    size_t *sizes, nsizes;
    int dists;        /* bit per enum dist */
    int data;         /* bit per enum data_mode */
    size_t footprint; /* bytes per buffer; 0: hot */
    const char *footprint_name;
    size_t align_a, align_b;
    size_t mismatch_lo, mismatch_hi; /* --mismatch-at: positions drawn in
                                        [lo, hi], clamped to the length */
    int mismatch_at_given;
    unsigned mismatch_share; /* --mismatch-share: percent of calls that differ */
    int caller_branches;     /* --caller=branch */
    unsigned runs;
    double batch_us;      /* target time of one timed batch (table 1) */
    double pass_batch_us; /* table 2, replays: of one sample, at the
                             fastest implementation */
    int cpu;              /* -1: not pinned */
    enum format format;
    const char *plot_dir, *plot_tag;
    uint64_t seed;
    unsigned columns; /* non-base columns per table-2 block */
    /* Replays (bench/workload.c, record.c) */
    const char *workload; /* --workload */
    int record;           /* --record: the command follows '--' */
    size_t dump_sequence; /* --dump-sequence=N */
    int dump_given;
};

/* The samples of one implementation in one row. */
struct cell {
    int supported;
    unsigned n;                    /* samples taken */
    double *v;                     /* TSC cycles per call (table 1) or per
                                      pass over the buffer (table 2) */
    unsigned long calls;           /* calls per timed batch */
    unsigned long iters;           /* table 1: calls; table 2: passes */
    unsigned long chunk;           /* table 2, replays: calls timed at a time */
    unsigned long chunks, clipped; /* chunks timed; those counted at
                                      their sample's median rate */
};

struct result {
    int table; /* 1, 2, or 3: a replay (bench/workload.c), one row laid
                  out as table 2's, an op being one call */
    struct bench_function *f;
    enum data_mode data;
    unsigned nrows;
    size_t *sizes;    /* table 1: size of each row */
    enum dist *dists; /* table 2: distribution of each row */
    unsigned ncols;
    int *cols;          /* implementation index of each column */
    int base_col;       /* table 2: column of the base */
    struct cell *cells; /* [row * ncols + col] */
    const char *label;  /* table 3: the row's name */
    double op_bytes;    /* table 3: mean bytes per call */
};

struct context {
    struct options opt;
    struct timer_info timer;
    const char *selected_level;
    double start_time;
};

extern struct context ctx;

/* batch.c: k calls from *cursor on the cyclic call list, between the
 * ordered TSC reads; returns the raw ticks.  `site` selects the copy of
 * the loop (one per implementation, bench_impl.site). */
enum { BATCH_SITES = BF_COUNT * BENCH_MAX_IMPLS };
struct bench_call {
    uint32_t off, len;
};
uint64_t batch_run(unsigned site, void *fn, int is_set, unsigned char *a_base,
                   unsigned char *b_base, const struct bench_call *call, size_t count,
                   unsigned long k, size_t *cursor, uintptr_t *acc);

/* measure.c */
/* The calls of a batch: call i is on a_base + call[i].off (and b_base +
 * call[i].off) with length call[i].len; a batch walks the list
 * cyclically.  cum[i] is the sum of the lengths of calls 0..i-1, so a
 * batch knows how many bytes it covered. */
struct call_list {
    unsigned char *a_base, *b_base;
    struct bench_call *call;
    uint64_t *cum;
    unsigned char *a_map, *b_map; /* the buffers, map_len bytes each */
    size_t map_len;
    size_t count;
};
void call_list_alloc(struct call_list *cl, size_t cap);
void call_list_free(struct call_list *cl);
/* cum[] from the lengths. */
void call_list_sum(struct call_list *cl);

/*
 * Comparisons of lists that go over the buffer many times (table 2,
 * replays): the inputs are equal but at fixed differing bytes of b in a
 * zone past the calls' walk, and a call that differs at p is placed so
 * that one of them is its byte p and none comes before (a difference
 * placed in the walk would be seen by every call of a later pass over
 * the same bytes).  Per remainder of (offset + p) mod 64 there are
 * `copies` such bytes, spaced more than the largest p apart, so calls
 * keep their alignment and spread over about as many bytes as a walk.
 * A p of DIFF_EXACT or more is moved down by up to 63 bytes to one
 * remainder (diff_round), whose byte comes first, past the walk.
 */
enum { DIFF_EXACT = 4096 };
struct diff_zone {
    size_t big;        /* the byte for p >= DIFF_EXACT; 0: none */
    size_t first, gap; /* byte m (0 <= m < 64 * copies) is at first +
                          m * gap + m % 64 */
    unsigned copies;
    unsigned next[64]; /* per remainder: the copy the next call takes */
    size_t end;        /* bytes from the bases the zone needs */
};
/* A zone after `walk` bytes of the bases, for differences up to
 * max_small (< DIFF_EXACT) and max_big (0: none), calls up to max_len. */
void diff_zone_plan(struct diff_zone *z, size_t walk, size_t max_small, size_t max_big,
                    size_t max_len);
/* Makes (value 1) or takes out (0) the zone's differing bytes. */
void diff_zone_mark(const struct diff_zone *z, unsigned char *a_base,
                    unsigned char *b_base, int on);
/* The offset of a call that differs at p (as diff_round leaves it) and
 * whose offset is `off` modulo 64. */
size_t diff_zone_place(struct diff_zone *z, size_t off, uint32_t p);
/* p as replayed at offset `off` modulo 64: p < DIFF_EXACT unchanged, else
 * moved down to (off + p) % 64 == 0. */
uint32_t diff_round(size_t off, uint32_t p);

/* Comparisons: the differences placed in b, to be taken out again. */
struct cmp_data {
    struct call_list *cl;
    uint32_t *pos; /* difference of each call, or UINT32_MAX */
    enum data_mode mode;
    enum dist dist;       /* table 2: the lengths to draw */
    size_t first, placed; /* calls first.. (placed of them, cyclic)
                             may have a difference */
    uint32_t *want;       /* table 2, replays: the difference each call
                             carries (UINT32_MAX: none); NULL: drawn */
    size_t *pass_end;     /* table 2: where each pass over the buffer ends */
    size_t npasses;
    struct diff_zone *zone; /* table 2 with differences: where they are */
};
void undo_mismatches(void *arg);
/* MEMLANE_BENCH_CHECK=1: every call of d's list differs where d->pos
 * says (or not at all), else exit status 3. */
void check_differences(const struct cmp_data *d);
/* Differences in the `calls` calls from `first` on (the next sample's). */
void place_mismatches(struct cmp_data *d, size_t first, size_t calls);

/* Times every supported cell of a row (see measure.c); `prepare` (may be
 * NULL) runs before every sample with `arg`, a struct cmp_data. */
void measure_row(struct result *r, unsigned row, struct call_list *cl,
                 size_t (*prepare)(void *, size_t, size_t), void *arg);

/* Calls a list of row `row` needs so that a pass over it takes the
 * fastest supported implementation about --batch (timed on cl). */
size_t row_list_calls(struct result *r, unsigned row, const struct call_list *cl);

/* tables.c */
void measure_table1(struct result *r);
void measure_table2(struct result *r);
const char *dist_name(enum dist d);
/* Entries [i, j) of call (and of want, unless NULL) in a random order. */
void shuffle_calls(struct bench_call *call, uint32_t *want, size_t i, size_t j);

/* platform.c */
uint64_t rnd64(void);
void rnd_seed(uint64_t seed);
/* A number below n (0 if n is 0). */
size_t rnd_below(size_t n);
void warm_up_cpu(double seconds);
/* Bytes the footprint names stand for (L1, L2, LLC, DRAM); 0 if unknown. */
size_t footprint_bytes(const char *name);
/* Size of the level-1 data, level-2 or level-3 cache; 0 if unknown. */
size_t cache_bytes(int level);
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);
/* Allocates or exits with status 2 and a one-line error. */
void *bench_alloc(size_t bytes);
void bench_free(void *p, size_t bytes);

/* report.c */
void report_header(FILE *out);
void report_result(FILE *out, const struct result *r);
void report_csv_head(FILE *out);
void write_plot_data(const struct result *r);
/* bench/plot.gp, built into the tool (mk/bench.mk): written next to the
 * plot data as memlane-bench.gp. */
extern const char bench_plot_script[];
void format_size(char *buf, size_t len, size_t n);
/* A memset threshold: its size as format_size writes it, or "off". */
void format_threshold(char *buf, size_t len, size_t n);

/* workload.c: --workload replays, --dump-sequence.  workload_load reads
 * the profile (exit status 2 when it is bad) before anything is
 * measured or printed; run_workload replays it. */
struct profile;
struct profile *workload_load(const char *path);
int run_workload(FILE *out, struct profile *p);
int dump_sequence(FILE *out, const char *path, size_t count);
/* Set once a replay added memset columns at threshold settings; then
 * every memset batch first sets memlane's tunables for its column. */
extern int bench_tuned_impls;
void impl_tunables_apply(const struct bench_impl *im);

/* record.c: runs the command under libmemlane-trace.so; returns the
 * profile path its processes wrote PATH.<pid> to. */
const char *record_command(char **argv);
/* A chart of the recorded sizes with gnuplot, where installed
 * (--plot-dir, --record). */
void workload_chart(void);

/* calibrate.c */
int calibrate(void);

#endif /* MEMLANE_BENCH_H */
