/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memlane-bench: compares memlane's variants with libc and the classic
 * alternatives on this CPU.  main.c parses the options and runs the
 * requested tables; measure.c measures, report.c prints, calibrate.c finds
 * the memset thresholds.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memlane.h"
#include "tunables.h"

#define MAX_SIZE ((size_t)1 << 30)
#define MAX_SIZES 4096

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: memlane-bench [options]\n"
        "Compares memlane's variants with libc and classic alternatives on this CPU.\n"
        "\n"
        "Tables (default: both):\n"
        "  Table 1: TSC cycles per call by size, each size called in a loop; by\n"
        "    default memset, sizes 0..1024 step 16.\n"
        "  Table 2: benchstat layout: sec/op and B/s against a base with the\n"
        "    Mann-Whitney U p-value, for rows <Function><Dist>, where a pass calls\n"
        "    the function over a 128 KiB buffer split into segments whose lengths\n"
        "    are drawn per call (Short: geometric mean 16 B, Mid: mean 64 B,\n"
        "    Uniform512: uniform 0..512 B, Long: the whole buffer in one call).\n"
        "\n"
        "Options:\n"
        "  -t, --tables=LIST      1, 2 or 1,2\n"
        "  -f, --functions=LIST   memset, memcmp, bcmp, timingsafe_bcmp (ts_bcmp),\n"
        "                         timingsafe_memcmp (ts_memcmp); default: memset for\n"
        "                         table 1, all five for table 2\n"
        "  -i, --impls=LIST       implementations to compare (see --list); 'all'\n"
        "                         adds those left out by default (nt-store-loop)\n"
        "  -b, --base=IMPL        base of table 2 and of --unit=ratio; default\n"
        "                         (also for functions without IMPL):\n"
        "                         memlane-generic, bytewise-ct for timingsafe_*\n"
        "  -s, --sizes=LIST       table 1 sizes: N, A-B:STEP (arithmetic),\n"
        "                         A-B*FACTOR (geometric), comma-separated; suffixes\n"
        "                         K, M, G (x1024); at most 1G each\n"
        "  -d, --dists=LIST       table 2 rows: Short, Mid, Long, Uniform512\n"
        "                         (default Short,Mid,Long)\n"
        "      --data=MODE        comparisons: equal (default), mismatch (one\n"
        "                         differing byte at a random position per call,\n"
        "                         re-drawn every sample; table 1 then spreads the\n"
        "                         calls over up to 1024 buffer pairs in 256 KiB,\n"
        "                         or the --footprint) or both\n"
        "      --mismatch-at=A[-B] with --data=mismatch: the differing byte at\n"
        "                         position A, or drawn in A..B (clamped to each\n"
        "                         call's length; default: anywhere)\n"
        "      --mismatch-share=P with --data=mismatch: a difference in P %% of\n"
        "                         the calls (drawn per call), the rest equal\n"
        "                         (default 100)\n"
        "      --caller=MODE      comparisons: sum (default: the timed loop adds\n"
        "                         up the results) or branch (it branches on each\n"
        "                         result, as callers do; use with\n"
        "                         --mismatch-share)\n"
        "      --footprint=F      table 1 buffer per operand: hot (default: the\n"
        "                         same bytes every call), L1, L2, LLC, DRAM, or a\n"
        "                         size; calls walk the footprint in random order\n"
        "      --align=A[,B]      offsets of dst/a and b from a 64-byte boundary\n"
        "                         (0..4095, default 0)\n"
        "  -n, --runs=N           samples per cell (default 20, --quick 5)\n"
        "      --batch=US         target time of one timed batch in microseconds\n"
        "                         (table 1: default 5, --quick 2); table 2: of one\n"
        "                         sample at the fastest implementation (default\n"
        "                         100, --quick 20), timed in chunks of 20 us\n"
        "      --cpu=N            pin to CPU N\n"
        "      --isolate          measure each implementation in a process of its\n"
        "                         own, one after the other (no interleaving): in\n"
        "                         one process the first one measured in a row can\n"
        "                         read faster at small sizes\n"
        "      --quick            fewer runs and shorter batches (under 30 s)\n"
        "      --format=FMT       table (default), gobench (Go benchmark lines for\n"
        "                         benchstat, named key=value: benchstat -col /impl\n"
        "                         compares implementations), csv (one summary\n"
        "                         line per cell)\n"
        "      --unit=U           table 1 in cycles (default), ns, or ratio (each\n"
        "                         median divided by the --base column's)\n"
        "      --columns=N        table 2: implementations per block (default 3)\n"
        "      --calibrate        measure and print MEMLANE_REP_STOSB_THRESHOLD and\n"
        "                         MEMLANE_NT_THRESHOLD for this CPU\n"
        "      --plot-dir=DIR     also write the medians as gnuplot data to DIR,\n"
        "                         and the script that charts them:\n"
        "                         cd DIR && gnuplot memlane-bench.gp\n"
        "      --plot-tag=TAG     suffix of the data file names\n"
        "      --seed=N           random seed (sizes, positions)\n"
        "      --workload=FILE    replay a recorded profile (libmemlane-trace.so's,\n"
        "                         MEMLANE_TRACE=FILE: FILE, or the FILE.<pid> of\n"
        "                         all processes, added up) or an LLVM libc size\n"
        "                         distribution (-f names its function, else its\n"
        "                         file name does): every implementation on the\n"
        "                         calls drawn from it (--seed), table 2's layout\n"
        "                         per function, then a verdict\n"
        "      --record -- CMD ARGS...  run CMD under libmemlane-trace.so, then\n"
        "                         replay its profile (kept in --plot-dir, or a new\n"
        "                         folder in TMPDIR, with a chart when gnuplot is\n"
        "                         installed)\n"
        "      --dump-sequence=N  with --workload: print the first N calls each\n"
        "                         function's replay draws, measure nothing\n"
        "      --list             list the implementations available here\n"
        "  -q, --quiet            no progress on stderr\n"
        "  -h, --help             this text\n"
        "      --version          print the version and exit\n"
        "\n"
        "Timing: ordered TSC reads (lfence;rdtsc ... rdtscp;lfence) around a batch\n"
        "of calls; the median cost of an empty measurement is subtracted.  Cells are\n"
        "medians of --runs samples, implementations interleaved round by round; an\n"
        "untimed batch precedes every sample, and a batch interrupted by a context\n"
        "switch is run again.  Table 1: difference positions where a sample\n"
        "revisits buffers are drawn anew for every sample.  Table 2: a row's sizes\n"
        "and differences are drawn once (many passes); every sample runs all of\n"
        "them in a new order, so samples do the same work and the branch predictor\n"
        "never sees a sequence twice; it is timed in 20 us chunks, and a chunk over\n"
        "1.25 times the sample's median chunk (a virtual CPU stopped by its host)\n"
        "counts at the median's rate.\n"
        "Run time: before measuring, the tool estimates a lower bound from the\n"
        "calls it will make (every sample is an untimed and a timed batch of at\n"
        "least one call, at no more than 64 bytes per nanosecond); above\n"
        "10 minutes it warns on stderr, even with --quiet, and carries on.\n"
        "\n"
        "Exit status:\n"
        "  0  success\n"
        "  1  an output could not be written (standard output, a --plot-dir\n"
        "     file), or a measuring child process (--isolate) failed\n"
        "  2  bad usage (an unknown option or value), a --plot-dir that cannot\n"
        "     be written to (checked before measuring), a bad or unreadable\n"
        "     profile, a buffer that cannot be allocated, or a CPU that cannot\n"
        "     be pinned\n");
}

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "memlane-bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (try 'memlane-bench --help')\n");
    va_end(ap);
    exit(2);
}

/* A size in [s, end) (ml_parse_size_span's grammar: digits, an optional
 * K, M or G, an optional "B" or "iB"), at most MAX_SIZE.  Returns 0 and
 * sets *out, -1 for no size, -2 for one too large. */
static int parse_size(const char *s, const char *end, size_t *out)
{
    size_t v;
    int rc = ml_parse_size_span(s, end, &v);
    if (rc)
        return rc;
    if (v > MAX_SIZE)
        return -2;
    *out = v;
    return 0;
}

static void add_size(struct options *o, size_t n)
{
    if (o->nsizes == MAX_SIZES)
        bad("more than %d sizes", MAX_SIZES);
    o->sizes[o->nsizes++] = n;
}

static void parse_sizes(struct options *o, const char *arg)
{
    o->nsizes = 0;
    const char *p = arg;
    if (!*p)
        bad("empty size list");
    while (*p) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        const char *dash = memchr(p, '-', (size_t)(e - p));
        size_t a, b, step;
        int rc;
        if (!dash) {
            if ((rc = parse_size(p, e, &a)))
                bad("%s size '%.*s' in --sizes", rc == -2 ? "too large a" : "malformed",
                    (int)(e - p), p);
            add_size(o, a);
        } else {
            const char *colon = memchr(dash, ':', (size_t)(e - dash));
            const char *star = memchr(dash, '*', (size_t)(e - dash));
            const char *sep = colon ? colon : star;
            if (!sep)
                bad("range '%.*s' needs :STEP or *FACTOR", (int)(e - p), p);
            if ((rc = parse_size(p, dash, &a)) || (rc = parse_size(dash + 1, sep, &b)) ||
                (rc = parse_size(sep + 1, e, &step)))
                bad("%s range '%.*s' in --sizes", rc == -2 ? "too large a" : "malformed",
                    (int)(e - p), p);
            if (a > b)
                bad("range '%.*s' runs backwards", (int)(e - p), p);
            if (colon) {
                if (step == 0)
                    bad("zero step in '%.*s'", (int)(e - p), p);
                for (size_t n = a;; n += step) {
                    add_size(o, n);
                    if (b - n < step)
                        break;
                }
            } else {
                if (step < 2 || a == 0)
                    bad("geometric range '%.*s' needs a start above 0 and a factor of 2 "
                        "or more",
                        (int)(e - p), p);
                for (size_t n = a; n <= b; n *= step) {
                    add_size(o, n);
                    if (n > b / step)
                        break;
                }
            }
        }
        p = *e ? e + 1 : e;
        if (*e && !*p)
            bad("trailing comma in --sizes");
    }
}

static unsigned long parse_uint(const char *what, const char *s, unsigned long lo,
                                unsigned long hi)
{
    char *end;
    errno = 0;
    /* Digits only: strtoul would take leading blanks, '+' and '-' (and
     * turn " -1" into ULONG_MAX). */
    unsigned long v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
    if (*s < '0' || *s > '9' || *end || errno || v < lo || v > hi)
        bad("%s must be a whole number from %lu to %lu, not '%s'", what, lo, hi, s);
    return v;
}

/* Splits a comma-separated list into a NULL-terminated array whose
 * strings share one block (kept at v[-1]); split_free releases both. */
static void split_free(char **v)
{
    if (v) {
        free(v[-1]);
        free(v - 1);
    }
}

static char **split(const char *arg, size_t *count, const char *what)
{
    /* strtok would skip empty items: "a,,b" must be an error, as in --sizes. */
    const char *item = arg;
    for (const char *p = arg;; p++)
        if (*p == ',' || !*p) {
            if (p == item && *arg)
                bad("empty item in %s '%s'", what, arg);
            if (!*p)
                break;
            item = p + 1;
        }
    char *copy = strdup(arg);
    size_t n = 1;
    for (const char *p = arg; *p; p++)
        n += *p == ',';
    char **v = calloc(n + 2, sizeof *v);
    if (!copy || !v)
        abort();
    v[0] = copy; /* the block, for split_free */
    v++;
    size_t k = 0;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
        v[k++] = tok;
    *count = k;
    return v;
}

enum {
    OPT_DATA = 256,
    OPT_FOOTPRINT,
    OPT_ALIGN,
    OPT_BATCH,
    OPT_CPU,
    OPT_QUICK,
    OPT_FORMAT,
    OPT_UNIT,
    OPT_COLUMNS,
    OPT_CALIBRATE,
    OPT_PLOT_DIR,
    OPT_PLOT_TAG,
    OPT_SEED,
    OPT_LIST,
    OPT_ISOLATE,
    OPT_MISMATCH_AT,
    OPT_MISMATCH_SHARE,
    OPT_CALLER,
    OPT_WORKLOAD,
    OPT_RECORD,
    OPT_DUMP_SEQUENCE,
    OPT_VERSION
};

/* What getopt_long rejected: arg is the word it stopped at, optopt the
 * short option or a long option's code.  "--list=yes" comes back as the
 * code of --list (above 255: not a character to print). */
static void bad_option(const char *arg, int optopt_code, const struct option *longs)
    __attribute__((noreturn));
static void bad_option(const char *arg, int optopt_code, const struct option *longs)
{
    if (arg[0] == '-' && arg[1] == '-') {
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
        for (const struct option *l = longs; l->name; l++)
            if (strlen(l->name) == len && !strncmp(l->name, arg + 2, len) && eq &&
                l->has_arg == no_argument)
                bad("option '--%s' takes no value", l->name);
        /* An abbreviation: name the option it stands for. */
        for (const struct option *l = longs; eq && l->name; l++)
            if (l->val == optopt_code && l->has_arg == no_argument &&
                !strncmp(l->name, arg + 2, len))
                bad("option '--%s' takes no value", l->name);
        bad("unknown option '%.*s'", (int)(eq ? (size_t)(eq - arg) : strlen(arg)), arg);
    }
    if (optopt_code > 0 && optopt_code < 256)
        bad("unknown option '-%c'", optopt_code);
    bad("unknown option '%s'", arg);
}

static void parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longs[] = {
        {"tables", required_argument, 0, 't'},
        {"functions", required_argument, 0, 'f'},
        {"impls", required_argument, 0, 'i'},
        {"base", required_argument, 0, 'b'},
        {"sizes", required_argument, 0, 's'},
        {"dists", required_argument, 0, 'd'},
        {"runs", required_argument, 0, 'n'},
        {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},
        {"data", required_argument, 0, OPT_DATA},
        {"footprint", required_argument, 0, OPT_FOOTPRINT},
        {"align", required_argument, 0, OPT_ALIGN},
        {"mismatch-at", required_argument, 0, OPT_MISMATCH_AT},
        {"mismatch-share", required_argument, 0, OPT_MISMATCH_SHARE},
        {"caller", required_argument, 0, OPT_CALLER},
        {"batch", required_argument, 0, OPT_BATCH},
        {"cpu", required_argument, 0, OPT_CPU},
        {"quick", no_argument, 0, OPT_QUICK},
        {"format", required_argument, 0, OPT_FORMAT},
        {"unit", required_argument, 0, OPT_UNIT},
        {"columns", required_argument, 0, OPT_COLUMNS},
        {"calibrate", no_argument, 0, OPT_CALIBRATE},
        {"plot-dir", required_argument, 0, OPT_PLOT_DIR},
        {"plot-tag", required_argument, 0, OPT_PLOT_TAG},
        {"seed", required_argument, 0, OPT_SEED},
        {"list", no_argument, 0, OPT_LIST},
        {"isolate", no_argument, 0, OPT_ISOLATE},
        {"workload", required_argument, 0, OPT_WORKLOAD},
        {"record", no_argument, 0, OPT_RECORD},
        {"dump-sequence", required_argument, 0, OPT_DUMP_SEQUENCE},
        {"version", no_argument, 0, OPT_VERSION},
        {0, 0, 0, 0},
    };
    int runs_given = 0, batch_given = 0;

    memset(o, 0, sizeof *o);
    o->tables = 3;
    o->dists = 1 << DIST_SHORT | 1 << DIST_MID | 1 << DIST_LONG;
    o->data = 1 << DATA_EQUAL;
    o->footprint_name = "hot";
    o->mismatch_hi = SIZE_MAX;
    o->mismatch_share = 100;
    o->runs = 20;
    o->batch_us = 5;
    o->pass_batch_us = 100;
    o->cpu = -1;
    o->seed = 1;
    o->columns = 3;
    o->sizes = calloc(MAX_SIZES, sizeof *o->sizes);
    if (!o->sizes)
        abort();

    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":t:f:i:b:s:d:n:qh", longs, NULL)) != -1) {
        size_t cnt;
        char **v;
        switch (c) {
        case 't':
            o->tables = 0;
            v = split(optarg, &cnt, "--tables");
            for (size_t i = 0; i < cnt; i++) {
                if (!strcmp(v[i], "1"))
                    o->tables |= 1;
                else if (!strcmp(v[i], "2"))
                    o->tables |= 2;
                else
                    bad("unknown table '%s' (1 or 2)", v[i]);
            }
            split_free(v);
            if (!o->tables)
                bad("empty --tables");
            break;
        case 'f':
            v = split(optarg, &cnt, "--functions");
            if (!cnt)
                bad("empty --functions");
            for (size_t i = 0; i < cnt; i++) {
                struct bench_function *f = bench_function_find(v[i]);
                if (!f)
                    bad("unknown function '%s'", v[i]);
                o->funcs[f - bench_function_get(0)] = 1;
            }
            split_free(v);
            o->funcs_given = 1;
            break;
        case 'i':
            split_free(o->impls);
            o->impls = split(optarg, &o->nimpls, "--impls");
            if (!o->nimpls)
                bad("empty --impls");
            break;
        case 'b':
            o->base = optarg;
            break;
        case 's':
            parse_sizes(o, optarg);
            break;
        case 'd':
            o->dists = 0;
            v = split(optarg, &cnt, "--dists");
            for (size_t i = 0; i < cnt; i++) {
                int found = 0;
                for (int d = 0; d < DIST_COUNT; d++)
                    if (!strcasecmp(v[i], dist_name((enum dist)d))) {
                        o->dists |= 1 << d;
                        found = 1;
                    }
                if (!found)
                    bad("unknown distribution '%s' (Short, Mid, Long, Uniform512)", v[i]);
            }
            split_free(v);
            if (!o->dists)
                bad("empty --dists");
            break;
        case 'n':
            o->runs = (unsigned)parse_uint("--runs", optarg, 1, 10000);
            runs_given = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        case OPT_DATA:
            if (!strcmp(optarg, "equal"))
                o->data = 1 << DATA_EQUAL;
            else if (!strcmp(optarg, "mismatch"))
                o->data = 1 << DATA_MISMATCH;
            else if (!strcmp(optarg, "both"))
                o->data = 1 << DATA_EQUAL | 1 << DATA_MISMATCH;
            else
                bad("--data must be equal, mismatch or both, not '%s'", optarg);
            break;
        case OPT_FOOTPRINT:
            if (!strcasecmp(optarg, "hot")) {
                o->footprint = 0;
                o->footprint_name = "hot";
            } else if ((o->footprint = footprint_bytes(optarg))) {
                o->footprint_name = optarg;
            } else {
                int rc = parse_size(optarg, optarg + strlen(optarg), &o->footprint);
                if (rc || !o->footprint)
                    bad("--footprint must be hot, L1, L2, LLC, DRAM or a size "
                        "from 1 to 1G, not '%s'",
                        optarg);
                o->footprint_name = optarg;
            }
            break;
        case OPT_MISMATCH_AT: {
            const char *dash = strchr(optarg, '-');
            const char *end = optarg + strlen(optarg);
            size_t a, b;
            if (parse_size(optarg, dash ? dash : end, &a) ||
                (dash && parse_size(dash + 1, end, &b)))
                bad("malformed --mismatch-at '%s' (A or A-B)", optarg);
            if (!dash)
                b = a;
            if (b < a)
                bad("--mismatch-at range '%s' is empty", optarg);
            o->mismatch_lo = a;
            o->mismatch_hi = b;
            o->mismatch_at_given = 1;
            break;
        }
        case OPT_MISMATCH_SHARE: {
            size_t share;
            if (parse_size(optarg, optarg + strlen(optarg), &share) || share > 100)
                bad("--mismatch-share must be a percentage 0..100, not '%s'", optarg);
            o->mismatch_share = (unsigned)share;
            break;
        }
        case OPT_CALLER:
            if (!strcmp(optarg, "branch"))
                o->caller_branches = 1;
            else if (strcmp(optarg, "sum"))
                bad("--caller must be sum or branch, not '%s'", optarg);
            break;
        case OPT_ALIGN: {
            const char *comma = strchr(optarg, ',');
            const char *end = optarg + strlen(optarg);
            size_t a, b;
            if (parse_size(optarg, comma ? comma : end, &a) ||
                (comma && parse_size(comma + 1, end, &b)))
                bad("malformed --align '%s' (A or A,B)", optarg);
            if (!comma)
                b = a;
            if (a > 4095 || b > 4095)
                bad("--align offsets must be 0..4095, not '%s'", optarg);
            o->align_a = a;
            o->align_b = b;
            break;
        }
        case OPT_BATCH: {
            char *end;
            /* A plain decimal: strtod would take blanks, signs and hex. */
            double us = strtod(optarg, &end);
            if (!*optarg || strspn(optarg, "0123456789.") != strlen(optarg) || *end ||
                !(us >= 0.1 && us <= 100000))
                bad("--batch must be 0.1 to 100000 microseconds, not '%s'", optarg);
            o->batch_us = o->pass_batch_us = us;
            batch_given = 1;
            break;
        }
        case OPT_CPU:
            o->cpu = (int)parse_uint("--cpu", optarg, 0, CPU_SETSIZE - 1);
            break;
        case OPT_QUICK:
            o->quick = 1;
            break;
        case OPT_FORMAT:
            if (!strcmp(optarg, "table"))
                o->format = FMT_TABLE;
            else if (!strcmp(optarg, "gobench"))
                o->format = FMT_GOBENCH;
            else if (!strcmp(optarg, "csv"))
                o->format = FMT_CSV;
            else
                bad("--format must be table, gobench or csv, not '%s'", optarg);
            break;
        case OPT_UNIT:
            if (!strcmp(optarg, "cycles"))
                o->unit_ns = 0;
            else if (!strcmp(optarg, "ns"))
                o->unit_ns = 1;
            else if (!strcmp(optarg, "ratio"))
                o->unit_ns = 2;
            else
                bad("--unit must be cycles, ns or ratio, not '%s'", optarg);
            break;
        case OPT_COLUMNS:
            o->columns = (unsigned)parse_uint("--columns", optarg, 1, BENCH_MAX_IMPLS);
            break;
        case OPT_CALIBRATE:
            o->calibrate = 1;
            break;
        case OPT_PLOT_DIR:
            o->plot_dir = optarg;
            break;
        case OPT_PLOT_TAG:
            o->plot_tag = optarg;
            break;
        case OPT_SEED:
            o->seed = parse_uint("--seed", optarg, 0, (unsigned long)-1);
            break;
        case OPT_LIST:
            o->list = 1;
            break;
        case OPT_ISOLATE:
            o->isolate = 1;
            break;
        case OPT_WORKLOAD:
            o->workload = optarg;
            break;
        case OPT_RECORD:
            o->record = 1;
            break;
        case OPT_DUMP_SEQUENCE:
            o->dump_sequence = parse_uint("--dump-sequence", optarg, 1, 1u << 24);
            o->dump_given = 1;
            break;
        case OPT_VERSION: /* the tool is linked with the library it measures */
            printf("memlane-bench (memlane) %s\n", memlane_version());
            exit(0);
        case ':':
            bad("option '%s' needs a value", argv[optind - 1]);
        default:
            bad_option(argv[optind - 1], optopt, longs);
        }
    }
    if (o->record && optind == argc)
        bad("--record needs a command: --record -- CMD ARGS...");
    if (o->record && o->workload)
        bad("--record replays what it records: no --workload with it");
    if (o->dump_given && !o->workload)
        bad("--dump-sequence needs --workload=FILE");
    if (optind < argc && !o->record)
        bad("unexpected argument '%s'", argv[optind]);
    if (o->quick) {
        if (!runs_given)
            o->runs = 5;
        if (!batch_given) {
            o->batch_us = 2;
            o->pass_batch_us = 20;
        }
    }
    if (!o->nsizes)
        parse_sizes(o, "0-1024:16");
}

/* The columns of one result: the chosen implementations of f, in the
 * table's order; the base first for table 2. */
static void pick_columns(struct result *r, int table)
{
    const struct options *o = &ctx.opt;
    struct bench_function *f = r->f;
    r->cols = calloc(BENCH_MAX_IMPLS, sizeof *r->cols);
    r->ncols = 0;
    for (unsigned i = 0; i < f->nimpls; i++) {
        int want = f->impls[i].in_default;
        if (o->impls) {
            want = 0;
            for (size_t k = 0; k < o->nimpls; k++)
                if (!strcmp(o->impls[k], "all") || !strcmp(o->impls[k], f->impls[i].name))
                    want = 1;
        }
        if (want)
            r->cols[r->ncols++] = (int)i;
    }
    r->base_col = -1;
    if (table != 2 && o->unit_ns != 2)
        return;
    /* A --base this function lacks (libc for the timingsafe rows, say)
     * falls back to the function's default; the table names its base. */
    int bi = o->base ? bench_impl_index(f, o->base) : -1;
    if (bi < 0)
        bi = bench_impl_index(f, f->default_base);
    if (bi < 0)
        bi = r->ncols ? r->cols[0] : -1;
    if (bi < 0)
        return;
    for (unsigned c = 0; c < r->ncols; c++)
        if (r->cols[c] == bi)
            r->base_col = (int)c;
    if (r->base_col < 0) { /* the base is not a chosen column: add it */
        memmove(r->cols + 1, r->cols, r->ncols * sizeof *r->cols);
        r->cols[0] = bi;
        r->ncols++;
        r->base_col = 0;
    }
}

static void check_names(void)
{
    const struct options *o = &ctx.opt;
    for (size_t k = 0; k < o->nimpls; k++) {
        if (!strcmp(o->impls[k], "all"))
            continue;
        int found = 0;
        for (int f = 0; f < BF_COUNT; f++)
            found |= bench_impl_index(bench_function_get(f), o->impls[k]) >= 0;
        if (!found)
            bad("unknown implementation '%s' (--list shows those available here)",
                o->impls[k]);
    }
    if (o->base) {
        int found = 0;
        for (int f = 0; f < BF_COUNT; f++)
            found |= bench_impl_index(bench_function_get(f), o->base) >= 0;
        if (!found)
            bad("unknown base implementation '%s' (--list shows those available here)",
                o->base);
    }
}

static void list_impls(void)
{
    for (int f = 0; f < BF_COUNT; f++) {
        struct bench_function *fn = bench_function_get(f);
        printf("%s (rows %s..., table 2 base %s):\n", fn->name, fn->title,
               fn->default_base);
        for (unsigned i = 0; i < fn->nimpls; i++)
            printf("  %-18s %s%s\n", fn->impls[i].name, fn->impls[i].what,
                   fn->impls[i].in_default ? "" : " [not in the default set]");
    }
}

/* A table that could not be written (a full disk, a closed pipe) ends
 * the run at once, with exit status 1: measuring on is pointless. */
static void check_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "memlane-bench: cannot write standard output: %s\n",
                errno ? strerror(errno) : "write error");
        _exit(1);
    }
}

/* At exit: the last buffered output too, and the close itself. */
static void close_stdout(void)
{
    check_stdout();
    if (fclose(stdout) != 0) {
        fprintf(stderr, "memlane-bench: cannot write standard output: %s\n",
                strerror(errno));
        _exit(1);
    }
}

/* --plot-dir must take files before anything is measured: create it if
 * need be, then create and remove a file in it. */
static void check_plot_dir(const char *dir)
{
    if (mkdir(dir, 0777) && errno != EEXIST)
        bad("cannot create --plot-dir '%s': %s", dir, strerror(errno));
    char path[4096];
    if (snprintf(path, sizeof path, "%s/.memlane-bench-XXXXXX", dir) >= (int)sizeof path)
        bad("--plot-dir '%s' is too long", dir);
    int fd = mkstemp(path);
    if (fd < 0)
        bad("cannot write to --plot-dir '%s': %s", dir, strerror(errno));
    close(fd);
    unlink(path);
}

/* Whether table `table` measures f in data mode d (main's loop). */
static int result_wanted(const struct options *o, int table, int f, int d)
{
    if (!(o->tables & (1 << (table - 1))))
        return 0;
    if (!(o->funcs_given ? o->funcs[f] : (table == 2 || f == BF_MEMSET)))
        return 0;
    if (!(o->data & (1 << d)))
        return 0;
    /* memset has no data mode: measured once. */
    return !(bench_function_get(f)->kind == ML_KIND_SET && d != DATA_EQUAL &&
             (o->data & (1 << DATA_EQUAL)));
}

static void pick_columns(struct result *r, int table);

/* A lower bound of the measuring time in seconds: every cell takes two
 * batches to size its batch and then an untimed and a timed batch per
 * run; a batch lasts --batch microseconds, or one call if that is longer,
 * and no call moves more than ESTIMATE_BYTES_PER_NS. */
#define ESTIMATE_BYTES_PER_NS 64.0
#define ESTIMATE_WARN_SECONDS 600.0
static double estimate_seconds(const struct options *o)
{
    double total = 0, batch = o->batch_us * 1e-6;
    for (int table = 1; table <= 2; table++)
        for (int f = 0; f < BF_COUNT; f++)
            for (int d = 0; d < DATA_COUNT; d++) {
                if (!result_wanted(o, table, f, d))
                    continue;
                struct result r;
                memset(&r, 0, sizeof r);
                r.table = table;
                r.f = bench_function_get(f);
                pick_columns(&r, table);
                double per_cell = 0;
                if (table == 1) {
                    for (size_t i = 0; i < o->nsizes; i++) {
                        double call = (double)o->sizes[i] / ESTIMATE_BYTES_PER_NS * 1e-9;
                        per_cell += call > batch ? call : batch;
                    }
                } else {
                    for (int k = 0; k < DIST_COUNT; k++)
                        per_cell += (o->dists & (1 << k)) ? batch : 0;
                }
                total += per_cell * (2.0 * o->runs + 2) * r.ncols;
                free(r.cols);
            }
    return total;
}

static void format_duration(char *buf, size_t len, double s)
{
    if (s < 120)
        snprintf(buf, len, "%.0f seconds", s);
    else if (s < 7200)
        snprintf(buf, len, "%.0f minutes", s / 60);
    else
        snprintf(buf, len, "%.1f hours", s / 3600);
}

static void run_result(FILE *out, int table, struct bench_function *f,
                       enum data_mode data)
{
    struct result r;
    memset(&r, 0, sizeof r);
    r.table = table;
    r.f = f;
    r.data = data;
    pick_columns(&r, table);
    if (!r.ncols)
        return; /* none of the chosen implementations exists for f */
    if (table == 1) {
        r.nrows = (unsigned)ctx.opt.nsizes;
        r.sizes = ctx.opt.sizes;
    } else {
        r.dists = calloc(DIST_COUNT, sizeof *r.dists);
        for (int d = 0; d < DIST_COUNT; d++)
            if (ctx.opt.dists & (1 << d))
                r.dists[r.nrows++] = (enum dist)d;
    }
    r.cells = calloc((size_t)r.nrows * r.ncols, sizeof *r.cells);
    if (!r.cells)
        abort();
    if (table == 1)
        measure_table1(&r);
    else
        measure_table2(&r);
    report_result(out, &r);
    check_stdout();
    write_plot_data(&r);
    for (unsigned i = 0; i < r.nrows * r.ncols; i++)
        free(r.cells[i].v);
    free(r.cells);
    free(r.cols);
    free(r.dists);
}

int main(int argc, char **argv)
{
    atexit(close_stdout);
    impls_init();
    parse_options(argc, argv, &ctx.opt);
    struct options *o = &ctx.opt;
    if (o->list) {
        list_impls();
        return 0;
    }
    check_names();
    if (o->dump_given)
        return dump_sequence(stdout, o->workload, o->dump_sequence);
    if (o->plot_dir)
        check_plot_dir(o->plot_dir);
    if (o->record)
        o->workload = record_command(argv + optind);
    struct profile *workload = o->workload ? workload_load(o->workload) : NULL;
    if (!o->workload && !o->calibrate && !getenv("MEMLANE_BENCH_CALIBRATING")) {
        double est = estimate_seconds(o);
        char when[64];
        format_duration(when, sizeof when, est);
        if (est > ESTIMATE_WARN_SECONDS)
            fprintf(stderr,
                    "memlane-bench: warning: this run takes at least %s; fewer --runs "
                    "or smaller --sizes make it shorter\n",
                    when);
        else if (!o->quiet && est > 60)
            fprintf(stderr, "memlane-bench: this run takes at least %s\n", when);
    }

    if (o->calibrate && !getenv("MEMLANE_BENCH_CALIBRATING")) {
        /* memlane reads its tunables once at start-up: restart with them
         * off, so memlane's memset is its plain vector code. */
        setenv("MEMLANE_REP_STOSB_THRESHOLD", "off", 1);
        setenv("MEMLANE_NT_THRESHOLD", "off", 1);
        setenv("MEMLANE_BENCH_CALIBRATING", "1", 1);
        execv("/proc/self/exe", argv);
        /* No /proc: carry on; the tunables may then be in effect. */
    }

    if (o->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(o->cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set))
            bad("cannot pin to CPU %d: %s", o->cpu, strerror(errno));
    }
    rnd_seed(o->seed);
    ctx.start_time = wall_seconds();
    ctx.selected_level = ml_level_name(ml_selected_level());
    timer_init(&ctx.timer, o->quick);

    FILE *out = stdout;
    report_header(out);
    if (o->format == FMT_CSV && !o->calibrate)
        report_csv_head(out);
    warm_up_cpu(o->quick ? 0.05 : 0.2);

    if (o->calibrate)
        return calibrate();
    if (o->workload) {
        int rc = run_workload(out, workload);
        workload_chart();
        return rc;
    }

    for (int table = 1; table <= 2; table++) {
        for (int f = 0; f < BF_COUNT; f++)
            for (int d = 0; d < DATA_COUNT; d++)
                if (result_wanted(o, table, f, d))
                    run_result(out, table, bench_function_get(f), (enum data_mode)d);
    }
    if (!o->quiet)
        fprintf(stderr, "memlane-bench: done in %.1f s\n",
                wall_seconds() - ctx.start_time);
    return 0;
}
