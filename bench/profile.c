/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading profiles for --workload: memlane's own format (written by
 * libmemlane-trace.so, src/preload/profile-write.c; docs/workloads.md),
 * several of them added up, and LLVM libc's size distributions.
 *
 * A profile is checked as it is read, and against itself at the end: a
 * record the format does not have, a count given twice, sizes, alignments
 * or equal/differ counts that do not add up to the calls, a missing
 * "end" line.  Every problem is one line naming the file and the line,
 * and exit status 2.
 */
#define _GNU_SOURCE
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *cur_file;

static void fail(unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void fail(unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (line)
        fprintf(stderr, "memlane-bench: %s:%u: ", cur_file, line);
    else
        fprintf(stderr, "memlane-bench: %s: ", cur_file);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

int profile_fn_index(const char *name)
{
    for (int f = 0; f < MLT_COUNT; f++)
        if (!strcmp(ml_trace_fn_names[f], name))
            return f;
    return -1;
}

static int is_set(int f) { return f == MLT_MEMSET || f == MLT_MEMSET_EXPLICIT; }

/* Index of memcmp/bcmp in ml_trace_counters.data, -1 for the others. */
static int data_index(int f) { return f == MLT_MEMCMP ? 0 : f == MLT_BCMP ? 1 : -1; }

/* ---- numbers and ranges ---- */

static int parse_u64(const char *s, uint64_t *v)
{
    if (!*s)
        return -1;
    uint64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* "N" or "LO-HI" with LO < HI. */
static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
    const char *dash = strchr(s, '-');
    if (!dash)
        return parse_u64(s, lo) ? -1 : (*hi = *lo, 0);
    char a[32];
    size_t n = (size_t)(dash - s);
    if (n >= sizeof a)
        return -1;
    memcpy(a, s, n);
    a[n] = 0;
    if (parse_u64(a, lo) || parse_u64(dash + 1, hi) || *lo >= *hi)
        return -1;
    return 0;
}

void profile_class_range(unsigned k, uint64_t *lo, uint64_t *hi)
{
    *lo = k ? (uint64_t)1 << (k - 1) : 0;
    *hi = k == ML_TRACE_CLASSES - 1 ? UINT64_MAX : k ? 2 * *lo - 1 : 0;
}

/* The class whose range `s` is, or -1. */
static int parse_class(const char *s)
{
    uint64_t lo, hi;
    if (parse_range(s, &lo, &hi))
        return -1;
    unsigned k = ml_trace_class(lo);
    uint64_t l, h;
    profile_class_range(k, &l, &h);
    return l == lo && h == hi ? (int)k : -1;
}

/* ---- the memlane format ---- */

struct reader {
    struct profile *p;
    uint32_t *seen; /* per counter: the line that set it */
    unsigned fn_line[MLT_COUNT];
    uint64_t bytes[MLT_COUNT];
    unsigned meta_line[5];
    unsigned records;
};

enum { META_PROGRAM, META_PID, META_PROCESSES, META_THREADS, META_SCAN };
static const char *const meta_names[5] = {"program", "pid", "processes", "threads",
                                          "diff-scan"};

/* Sets a counter once; `what` names the record for a message. */
static void set_count(struct reader *r, unsigned line, uint64_t *counter,
                      const char *count, const char *what)
{
    uint64_t v;
    if (parse_u64(count, &v))
        fail(line, "'%s': the count '%s' is not a whole number", what, count);
    size_t i = (size_t)(counter - (uint64_t *)(void *)&r->p->c);
    if (r->seen[i])
        fail(line, "a second '%s' record (the first is on line %u)", what, r->seen[i]);
    r->seen[i] = line;
    *counter = v;
}

/* The function a record names; its "fn" line must have come first. */
static int record_fn(struct reader *r, unsigned line, const char *rec, const char *name)
{
    int f = profile_fn_index(name);
    if (f < 0)
        fail(line, "unknown function '%s'", name);
    if (strcmp(rec, "fn") && !r->fn_line[f])
        fail(line, "a '%s' record before the 'fn %s' line", rec, name);
    return f;
}

static void wrong_fields(unsigned line, const char *rec, const char *form)
    __attribute__((noreturn));
static void wrong_fields(unsigned line, const char *rec, const char *form)
{
    fail(line, "malformed '%s' record (the form is '%s')", rec, form);
}

static void read_record(struct reader *r, unsigned line, char **t, int nt,
                        const char *what)
{
    const char *rec = t[0];
    struct ml_trace_counters *c = &r->p->c;
    for (int m = 0; m < 5; m++) {
        if (strcmp(rec, meta_names[m]))
            continue;
        if (r->meta_line[m])
            fail(line, "a second '%s' record (the first is on line %u)", rec,
                 r->meta_line[m]);
        r->meta_line[m] = line;
        uint64_t v, w;
        if (m == META_PROGRAM) {
            if (nt != 2)
                wrong_fields(line, rec, "program NAME");
            snprintf(r->p->program, sizeof r->p->program, "%s", t[1]);
        } else if (m == META_SCAN) {
            if (nt != 3 || parse_u64(t[1], &v) || parse_u64(t[2], &w))
                wrong_fields(line, rec, "diff-scan BYTES ONE-IN");
        } else {
            if (nt != 2 || parse_u64(t[1], &v))
                wrong_fields(line, rec, "pid|processes|threads N");
            if (m == META_PID)
                r->p->pid = v;
            else if (m == META_PROCESSES)
                r->p->processes = v;
            else
                r->p->threads = v;
        }
        return;
    }
    if (!strcmp(rec, "fn")) {
        if (nt != 6 || strcmp(t[2], "calls") || strcmp(t[4], "bytes"))
            wrong_fields(line, rec, "fn NAME calls N bytes N");
        int f = record_fn(r, line, rec, t[1]);
        if (r->fn_line[f])
            fail(line, "a second 'fn %s' line (the first is line %u)", t[1],
                 r->fn_line[f]);
        r->fn_line[f] = line;
        if (parse_u64(t[3], &r->p->calls[f]) || parse_u64(t[5], &r->bytes[f]))
            wrong_fields(line, rec, "fn NAME calls N bytes N");
        c->fn[f].bytes = r->bytes[f];
        return;
    }
    if (!strcmp(rec, "size")) {
        if (nt != 4)
            wrong_fields(line, rec, "size NAME N|LO-HI COUNT");
        int f = record_fn(r, line, rec, t[1]);
        uint64_t lo, hi;
        if (parse_range(t[2], &lo, &hi))
            fail(line, "'%s': '%s' is not a size or a size range", what, t[2]);
        if (lo == hi && lo <= ML_TRACE_EXACT) {
            set_count(r, line, &c->fn[f].exact[lo], t[3], what);
            return;
        }
        unsigned k = 63 - (unsigned)__builtin_clzll(hi);
        uint64_t blo = (uint64_t)1 << k;
        if (blo < ML_TRACE_EXACT || hi != 2 * blo - 1 ||
            lo != (blo == ML_TRACE_EXACT ? ML_TRACE_EXACT + 1 : blo))
            fail(line,
                 "'%s': sizes above %d are counted in the ranges 4097-8191, "
                 "8192-16383, ...; '%s' is none",
                 what, ML_TRACE_EXACT, t[2]);
        set_count(r, line, &c->fn[f].pow2[k], t[3], what);
        return;
    }
    if (!strcmp(rec, "align")) {
        if (nt != 5)
            wrong_fields(line, rec, "align NAME dst|a|b|delta OFFSET COUNT");
        int f = record_fn(r, line, rec, t[1]);
        uint64_t a;
        if (parse_u64(t[3], &a) || a >= ML_TRACE_ALIGN)
            fail(line, "'%s': the offset must be 0 to 63", what);
        uint64_t *v = NULL;
        if (is_set(f) && !strcmp(t[2], "dst"))
            v = c->fn[f].align_a;
        else if (!is_set(f) && !strcmp(t[2], "a"))
            v = c->fn[f].align_a;
        else if (!is_set(f) && !strcmp(t[2], "b"))
            v = c->fn[f].align_b;
        else if (!is_set(f) && !strcmp(t[2], "delta"))
            v = c->fn[f].delta;
        else
            fail(line, "'%s': %s has no address '%s' (%s)", what, t[1], t[2],
                 is_set(f) ? "dst" : "a, b or delta");
        set_count(r, line, &v[a], t[4], what);
        return;
    }
    int eq = !strcmp(rec, "equal"), ne = !strcmp(rec, "differ"),
        un = !strcmp(rec, "unsampled"), at = !strcmp(rec, "diff-at"),
        rel = !strcmp(rec, "diff-rel");
    if (eq || ne || un || at || rel) {
        if (nt != (at || rel ? 5 : 4))
            wrong_fields(line, rec,
                         at    ? "diff-at NAME SIZE-CLASS OFFSET-CLASS COUNT"
                         : rel ? "diff-rel NAME SIZE-CLASS SIXTEENTH COUNT"
                               : "equal|differ|unsampled NAME SIZE-CLASS COUNT");
        int f = record_fn(r, line, rec, t[1]);
        int d = data_index(f);
        if (d < 0)
            fail(line, "'%s': only memcmp and bcmp have '%s' records", what, rec);
        struct ml_trace_data_counts *dc = &c->data[d];
        int k = parse_class(t[2]);
        if (k < 0)
            fail(line, "'%s': '%s' is not a size class (0, 1, 2-3, 4-7, ...)", what,
                 t[2]);
        if (eq || ne || un) {
            set_count(r, line,
                      eq   ? &dc->equal[k]
                      : ne ? &dc->differ[k]
                           : &dc->unsampled[k],
                      t[3], what);
            return;
        }
        if (at) {
            int j = parse_class(t[3]);
            if (j < 0 || j > k)
                fail(line, "'%s': '%s' is not an offset class below the size", what,
                     t[3]);
            set_count(r, line, &dc->at[k][j], t[4], what);
            return;
        }
        uint64_t s;
        if (parse_u64(t[3], &s) || s >= ML_TRACE_REL)
            fail(line, "'%s': the sixteenth must be 0 to 15", what);
        set_count(r, line, &dc->rel[k][s], t[4], what);
        return;
    }
    fail(line, "unknown record '%s'", rec);
}

static uint64_t sum(const uint64_t *v, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* The counts of one function against each other. */
static void check_fn(const struct reader *r, int f)
{
    const struct profile *p = r->p;
    const struct ml_trace_fn_counts *c = &p->c.fn[f];
    const char *name = ml_trace_fn_names[f];
    unsigned line = r->fn_line[f];
    uint64_t calls = p->calls[f];
    uint64_t sizes = sum(c->exact, ML_TRACE_EXACT + 1) + sum(c->pow2, ML_TRACE_POW2);
    if (sizes != calls)
        fail(line, "%s: the sizes add up to %llu calls, this line says %llu", name,
             (unsigned long long)sizes, (unsigned long long)calls);
    /* The bytes lie between the smallest and the largest sizes counted. */
    long double lo = 0, hi = 0;
    for (unsigned n = 0; n <= ML_TRACE_EXACT; n++)
        lo += (long double)n * c->exact[n];
    hi = lo;
    for (unsigned k = 12; k < ML_TRACE_POW2; k++) {
        long double b = (long double)((uint64_t)1 << k);
        lo += (k == 12 ? ML_TRACE_EXACT + 1 : b) * c->pow2[k];
        hi += (2 * b - 1) * c->pow2[k];
    }
    if ((long double)r->bytes[f] < lo || (long double)r->bytes[f] > hi)
        fail(line, "%s: %llu bytes cannot be the sum of the sizes counted", name,
             (unsigned long long)r->bytes[f]);
    const char *which[3] = {is_set(f) ? "dst" : "a", "b", "delta"};
    const uint64_t *align[3] = {c->align_a, c->align_b, c->delta};
    for (int i = 0; i < (is_set(f) ? 1 : 3); i++) {
        uint64_t s = sum(align[i], ML_TRACE_ALIGN);
        if (s != calls)
            fail(line,
                 "%s: the '%s' alignments add up to %llu calls, this line says %llu",
                 name, which[i], (unsigned long long)s, (unsigned long long)calls);
    }
    int d = data_index(f);
    if (d < 0)
        return;
    const struct ml_trace_data_counts *dc = &p->c.data[d];
    uint64_t per_class[ML_TRACE_CLASSES] = {0};
    for (unsigned n = 0; n <= ML_TRACE_EXACT; n++)
        per_class[ml_trace_class(n)] += c->exact[n];
    for (unsigned k = 12; k < ML_TRACE_POW2; k++)
        per_class[ml_trace_class((size_t)1 << k)] += c->pow2[k];
    for (unsigned k = 0; k < ML_TRACE_CLASSES; k++) {
        uint64_t lo_k, hi_k;
        profile_class_range(k, &lo_k, &hi_k);
        if (dc->equal[k] + dc->differ[k] != per_class[k])
            fail(line,
                 "%s: sizes %llu-%llu: %llu equal and %llu differing calls, but %llu "
                 "calls of those sizes",
                 name, (unsigned long long)lo_k, (unsigned long long)hi_k,
                 (unsigned long long)dc->equal[k], (unsigned long long)dc->differ[k],
                 (unsigned long long)per_class[k]);
        uint64_t at = sum(dc->at[k], ML_TRACE_CLASSES),
                 rel = sum(dc->rel[k], ML_TRACE_REL);
        if (at + dc->unsampled[k] != dc->differ[k] || rel != at)
            fail(line,
                 "%s: sizes %llu-%llu: %llu differing calls, but %llu 'diff-at', %llu "
                 "'diff-rel' and %llu 'unsampled'",
                 name, (unsigned long long)lo_k, (unsigned long long)hi_k,
                 (unsigned long long)dc->differ[k], (unsigned long long)at,
                 (unsigned long long)rel, (unsigned long long)dc->unsampled[k]);
    }
}

static void read_memlane(FILE *in, struct profile *p)
{
    struct reader r = {.p = p};
    r.seen = calloc(sizeof p->c / sizeof(uint64_t), sizeof *r.seen);
    if (!r.seen)
        abort();
    char *buf = NULL;
    size_t cap = 0;
    unsigned line = 0, end_line = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, in)) >= 0) {
        line++;
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = 0;
        if (line == 1) {
            unsigned long version;
            char extra;
            if (sscanf(buf, ML_TRACE_FORMAT " %lu%c", &version, &extra) != 1)
                fail(1, "the first line must be '" ML_TRACE_FORMAT " %d'",
                     ML_TRACE_VERSION);
            if (version != ML_TRACE_VERSION)
                fail(1,
                     "a profile of format version %lu; this memlane-bench reads version "
                     "%d",
                     version, ML_TRACE_VERSION);
            continue;
        }
        char *s = buf + strspn(buf, " \t");
        if (!*s || *s == '#')
            continue;
        if (end_line)
            fail(line, "a record after the 'end' line (line %u)", end_line);
        if (strlen(s) > 200)
            fail(line, "a line of %zu characters: no record is that long", strlen(s));
        char copy[256], *t[8] = {0}, *save;
        snprintf(copy, sizeof copy, "%s", s);
        int nt = 0;
        for (char *tok = strtok_r(copy, " \t", &save); tok;
             tok = strtok_r(NULL, " \t", &save))
            if (nt < 8)
                t[nt++] = tok;
            else
                fail(line, "too many fields");
        /* The record without its count, for messages. */
        char what[256];
        snprintf(what, sizeof what, "%s", s);
        char *last = strrchr(what, ' ');
        if (last && nt > 2)
            *last = 0;
        if (!strcmp(t[0], "end")) {
            uint64_t n;
            if (nt != 2 || parse_u64(t[1], &n))
                wrong_fields(line, "end", "end RECORDS");
            if (n != r.records)
                fail(
                    line,
                    "'end' counts %llu records, the file has %u before it (lines lost or "
                    "added?)",
                    (unsigned long long)n, r.records);
            end_line = line;
            continue;
        }
        read_record(&r, line, t, nt, what);
        r.records++;
    }
    free(buf);
    if (line == 0)
        fail(0, "empty");
    if (!end_line)
        fail(line, "truncated: no 'end' line after this one (profiles are written whole: "
                   "was this one cut short?)");
    for (int m = 0; m < 5; m++)
        if (!r.meta_line[m])
            fail(end_line, "no '%s' record", meta_names[m]);
    for (int f = 0; f < MLT_COUNT; f++)
        if (r.fn_line[f])
            check_fn(&r, f);
    p->has_data = 1;
    free(r.seen);
}

/* ---- LLVM libc's distributions ---- */

/* libc/benchmarks/distributions/<Function><Workload>.csv: one line of
 * comma-separated probabilities, of the sizes 0, 1, 2, ... (up to 4096;
 * trailing zeros left out).  Sizes only: the calls count at offset 0,
 * with equal inputs. */
static int read_llvm(FILE *in, struct profile *p, const int *funcs, const char *path)
{
    double prob[ML_TRACE_EXACT + 1];
    unsigned n = 0, line = 1;
    int c, in_value = 0;
    char num[64];
    size_t len = 0;
    double total = 0;
    for (;;) {
        c = getc(in);
        if (c == EOF || c == ',' || c == '\n' || c == ' ' || c == '\t' || c == '\r') {
            if (len) {
                num[len] = 0;
                char *end;
                double v = strtod(num, &end);
                if (*end || !isfinite(v) || v < 0)
                    fail(line, "'%s' (value %u) is not a probability", num, n + 1);
                if (n > ML_TRACE_EXACT)
                    fail(line, "more than %d values (sizes 0 to %d)", ML_TRACE_EXACT + 1,
                         ML_TRACE_EXACT);
                prob[n++] = v;
                total += v;
                len = 0;
            }
            in_value = 0;
            if (c == '\n')
                line++;
            if (c == EOF)
                break;
            continue;
        }
        if (!strchr("0123456789.eE+-", c))
            return -1; /* not this format */
        if (len + 1 >= sizeof num)
            fail(line, "a number of more than %zu characters", sizeof num - 1);
        num[len++] = (char)c;
        in_value = 1;
    }
    (void)in_value;
    if (!n)
        return -1;
    if (!(total > 0))
        fail(0, "the probabilities add up to 0");

    /* The functions: given, or from the file name. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int want[MLT_COUNT] = {0}, any = 0;
    if (funcs) {
        for (int f = 0; f < MLT_COUNT; f++)
            any |= want[f] = funcs[f];
    } else {
        static const struct {
            const char *prefix;
            int fn;
        } names[] = {{"memset", MLT_MEMSET},
                     {"bzero", MLT_MEMSET},
                     {"memcmp", MLT_MEMCMP},
                     {"bcmp", MLT_BCMP}};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (!strncasecmp(base, names[i].prefix, strlen(names[i].prefix)))
                any = want[names[i].fn] = 1;
        if (!any && (!strncasecmp(base, "memcpy", 6) || !strncasecmp(base, "memmove", 7)))
            fail(0,
                 "a %.7s distribution: memlane has no such function (--functions "
                 "applies it to one it has)",
                 base);
        if (!any)
            fail(0, "cannot tell from the name which function this distribution is for: "
                    "name it with --functions");
    }
    if (!any)
        fail(0, "--functions names no function memlane records");
    /* Probabilities as counts out of 2^32. */
    for (int f = 0; f < MLT_COUNT; f++) {
        if (!want[f])
            continue;
        struct ml_trace_fn_counts *fc = &p->c.fn[f];
        for (unsigned i = 0; i < n; i++) {
            uint64_t k = (uint64_t)llround(prob[i] / total * 4294967296.0);
            fc->exact[i] = k;
            p->calls[f] += k;
            fc->bytes += k * i;
        }
        fc->align_a[0] = fc->align_b[0] = fc->delta[0] = p->calls[f];
        int d = data_index(f);
        if (d >= 0)
            for (unsigned i = 0; i < n; i++)
                p->c.data[d].equal[ml_trace_class(i)] += fc->exact[i];
    }
    size_t blen = strcspn(base, ".");
    snprintf(p->program, sizeof p->program, "%.*s", (int)(blen < 63 ? blen : 63), base);
    p->llvm = 1;
    p->processes = p->threads = 0;
    return 0;
}

/* ---- files ---- */

static void load_file(const char *path, struct profile *p, const int *llvm_funcs)
{
    cur_file = path;
    FILE *in = fopen(path, "r");
    if (!in)
        fail(0, "cannot read: %s", strerror(errno));
    char head[sizeof ML_TRACE_FORMAT];
    size_t got = fread(head, 1, sizeof head - 1, in);
    head[got] = 0;
    rewind(in);
    if (!got)
        fail(0, "empty");
    if (!strcmp(head, ML_TRACE_FORMAT))
        read_memlane(in, p);
    else if (read_llvm(in, p, llvm_funcs, path))
        fail(1,
             "neither a memlane profile (its first line is '" ML_TRACE_FORMAT " %d') "
             "nor an LLVM libc distribution (one line of probabilities)",
             ML_TRACE_VERSION);
    fclose(in);
}

static void add(struct profile *to, const struct profile *from)
{
    uint64_t *t = (uint64_t *)(void *)&to->c;
    const uint64_t *f = (const uint64_t *)(const void *)&from->c;
    for (size_t i = 0; i < sizeof to->c / sizeof *t; i++)
        t[i] += f[i];
    for (int i = 0; i < MLT_COUNT; i++)
        to->calls[i] += from->calls[i];
    to->processes += from->processes;
    to->threads += from->threads;
}

static uint64_t total_calls(const struct profile *p)
{
    uint64_t s = 0;
    for (int f = 0; f < MLT_COUNT; f++)
        s += p->calls[f];
    return s;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* PATH.<digits> files, sorted; NULL if none. */
static char **pid_files(const char *path, size_t *count)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    const char *base = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
             slash ? path : ".");
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **v = NULL;
    size_t n = 0, blen = strlen(base);
    for (struct dirent *e; (e = readdir(d));) {
        const char *s = e->d_name;
        if (strncmp(s, base, blen) || s[blen] != '.' || !s[blen + 1] ||
            strspn(s + blen + 1, "0123456789") != strlen(s + blen + 1))
            continue;
        v = realloc(v, (n + 1) * sizeof *v);
        if (!v || asprintf(&v[n], "%s/%s", dir, s) < 0)
            abort();
        n++;
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, by_name);
    *count = n;
    return v;
}

struct profile *profile_load(const char *path, const int *llvm_funcs)
{
    struct profile *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    FILE *probe = fopen(path, "r");
    if (probe || errno != ENOENT) {
        if (probe)
            fclose(probe);
        load_file(path, p, llvm_funcs);
        p->files = 1;
        snprintf(p->source, sizeof p->source, "%s", path);
        return p;
    }
    size_t n = 0;
    char **files = pid_files(path, &n);
    if (!n) {
        cur_file = path;
        fail(0, "no such profile (nor %s.<pid> files of one)", path);
    }
    struct profile *one = malloc(sizeof *one);
    uint64_t most = 0;
    if (!one)
        abort();
    for (size_t i = 0; i < n; i++) {
        memset(one, 0, sizeof *one);
        load_file(files[i], one, NULL);
        if (one->llvm)
            fail(0, "an LLVM distribution among the profiles of %s", path);
        if (!i || total_calls(one) > most) {
            most = total_calls(one);
            snprintf(p->program, sizeof p->program, "%s", one->program);
        }
        add(p, one);
        free(files[i]);
    }
    free(files);
    free(one);
    p->has_data = 1;
    p->files = (unsigned)n;
    p->pid = 0;
    snprintf(p->source, sizeof p->source, "%s.<pid> (%zu files)", path, n);
    return p;
}

void profile_free(struct profile *p) { free(p); }

int profile_save(const char *path, const struct profile *p)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (!out)
        return errno;
    struct ml_profile_meta m = {p->program, p->pid, p->processes, p->threads};
    fflush(out);
    int err = ml_profile_write(fileno(out), &p->c, &m);
    if (fclose(out) && !err)
        err = errno;
    if (!err && rename(tmp, path))
        err = errno;
    if (err)
        remove(tmp);
    return err;
}
