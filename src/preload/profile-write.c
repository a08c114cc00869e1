/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writes a profile in the "memlane-profile 1" format (docs/workloads.md):
 * the recorder's (src/preload/trace.c) at a process's exit, and
 * memlane-bench's merge of several.  One record per line, every count
 * above zero, in a fixed order, then "end N" (the number of records
 * before it).  Only write(2): the recorder runs this at exit, where
 * stdio may call the functions it records.
 */
#include <errno.h>
#include <unistd.h>

#include "trace.h"

struct out {
    int fd, err;
    size_t len;
    unsigned lines;
    char buf[1 << 16];
};

static void out_flush(struct out *o)
{
    for (size_t done = 0; done < o->len && !o->err;) {
        ssize_t w = write(o->fd, o->buf + done, o->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->err = w < 0 ? errno : EIO;
        else
            done += (size_t)w;
    }
    o->len = 0;
}

static void put(struct out *o, const char *s)
{
    for (; *s; s++) {
        if (o->len == sizeof o->buf)
            out_flush(o);
        o->buf[o->len++] = *s;
    }
}

static void put_u64(struct out *o, uint64_t v)
{
    char d[24];
    int i = 23;
    d[i] = 0;
    do
        d[--i] = (char)('0' + v % 10);
    while (v /= 10);
    put(o, d + i);
}

/* " LO-HI" (or " N" where LO == HI). */
static void put_range(struct out *o, uint64_t lo, uint64_t hi)
{
    put(o, " ");
    put_u64(o, lo);
    if (hi != lo) {
        put(o, "-");
        put_u64(o, hi);
    }
}

static void put_class(struct out *o, unsigned k)
{
    uint64_t lo = k ? (uint64_t)1 << (k - 1) : 0;
    uint64_t hi = k == ML_TRACE_CLASSES - 1 ? UINT64_MAX : k ? 2 * lo - 1 : 0;
    put_range(o, lo, hi);
}

/* "<record> <function>" */
static void put_head(struct out *o, const char *record, const char *fn)
{
    put(o, record);
    put(o, " ");
    put(o, fn);
}

static void put_end(struct out *o, uint64_t count)
{
    put(o, " ");
    put_u64(o, count);
    put(o, "\n");
    o->lines++;
}

const char *const ml_trace_fn_names[MLT_COUNT] = {
    [MLT_MEMSET] = "memset",           [MLT_MEMSET_EXPLICIT] = "memset_explicit",
    [MLT_MEMCMP] = "memcmp",           [MLT_BCMP] = "bcmp",
    [MLT_TS_BCMP] = "timingsafe_bcmp", [MLT_TS_MEMCMP] = "timingsafe_memcmp",
};

static void put_align(struct out *o, const char *fn, const char *which, const uint64_t *v)
{
    for (unsigned i = 0; i < ML_TRACE_ALIGN; i++)
        if (v[i]) {
            put_head(o, "align", fn);
            put(o, " ");
            put(o, which);
            put_range(o, i, i);
            put_end(o, v[i]);
        }
}

static void put_per_class(struct out *o, const char *record, const char *fn,
                          const uint64_t *v)
{
    for (unsigned k = 0; k < ML_TRACE_CLASSES; k++)
        if (v[k]) {
            put_head(o, record, fn);
            put_class(o, k);
            put_end(o, v[k]);
        }
}

static void put_function(struct out *o, const struct ml_trace_counters *t, unsigned f)
{
    const struct ml_trace_fn_counts *c = &t->fn[f];
    const char *fn = ml_trace_fn_names[f];
    uint64_t calls = 0;
    for (unsigned n = 0; n <= ML_TRACE_EXACT; n++)
        calls += c->exact[n];
    for (unsigned k = 0; k < ML_TRACE_POW2; k++)
        calls += c->pow2[k];
    if (!calls)
        return;
    put_head(o, "fn", fn);
    put(o, " calls ");
    put_u64(o, calls);
    put(o, " bytes");
    put_end(o, c->bytes);
    for (unsigned n = 0; n <= ML_TRACE_EXACT; n++)
        if (c->exact[n]) {
            put_head(o, "size", fn);
            put_range(o, n, n);
            put_end(o, c->exact[n]);
        }
    for (unsigned k = 0; k < ML_TRACE_POW2; k++)
        if (c->pow2[k]) {
            uint64_t lo = (uint64_t)1 << k, hi = lo - 1 + lo;
            put_head(o, "size", fn);
            put_range(o, lo > ML_TRACE_EXACT ? lo : ML_TRACE_EXACT + 1, hi);
            put_end(o, c->pow2[k]);
        }
    int set = f == MLT_MEMSET || f == MLT_MEMSET_EXPLICIT;
    put_align(o, fn, set ? "dst" : "a", c->align_a);
    if (!set) {
        put_align(o, fn, "b", c->align_b);
        put_align(o, fn, "delta", c->delta);
    }
    int data = f == MLT_MEMCMP ? 0 : f == MLT_BCMP ? 1 : -1;
    if (data < 0)
        return;
    const struct ml_trace_data_counts *d = &t->data[data];
    put_per_class(o, "equal", fn, d->equal);
    put_per_class(o, "differ", fn, d->differ);
    put_per_class(o, "unsampled", fn, d->unsampled);
    for (unsigned k = 0; k < ML_TRACE_CLASSES; k++)
        for (unsigned j = 0; j < ML_TRACE_CLASSES; j++)
            if (d->at[k][j]) {
                put_head(o, "diff-at", fn);
                put_class(o, k);
                put_class(o, j);
                put_end(o, d->at[k][j]);
            }
    for (unsigned k = 0; k < ML_TRACE_CLASSES; k++)
        for (unsigned j = 0; j < ML_TRACE_REL; j++)
            if (d->rel[k][j]) {
                put_head(o, "diff-rel", fn);
                put_class(o, k);
                put_range(o, j, j);
                put_end(o, d->rel[k][j]);
            }
}

int ml_profile_write(int fd, const struct ml_trace_counters *t,
                     const struct ml_profile_meta *m)
{
    static struct out o;
    o.fd = fd;
    o.err = 0;
    o.len = 0;
    put(&o, ML_TRACE_FORMAT " ");
    put_u64(&o, ML_TRACE_VERSION);
    put(&o, "\nprogram ");
    /* The name on one line, whatever it holds. */
    char name[64];
    const char *p = m->program;
    size_t i = 0;
    for (; p && p[i] && i + 1 < sizeof name; i++) {
        name[i] = p[i];
        if ((unsigned char)p[i] < 0x21 || p[i] == 0x7f)
            name[i] = '?';
    }
    name[i] = 0;
    put(&o, i ? name : "?");
    put(&o, "\n");
    o.lines = 1;
    put(&o, "pid");
    put_end(&o, m->pid);
    put(&o, "processes");
    put_end(&o, m->processes);
    put(&o, "threads");
    put_end(&o, m->threads);
    put(&o, "diff-scan ");
    put_u64(&o, ML_TRACE_SCAN);
    put_end(&o, ML_TRACE_SAMPLE);
    for (unsigned f = 0; f < MLT_COUNT; f++)
        put_function(&o, t, f);
    put(&o, "end");
    put_end(&o, o.lines);
    out_flush(&o);
    return o.err;
}
