/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The recorder of libmemlane-trace.so: per-thread counters behind the
 * drop-in's entry points (src/preload/preload.c built with
 * -DMEMLANE_TRACE, hooks in trace.h), merged and written when the
 * process exits.  docs/workloads.md describes the file.
 *
 * - MEMLANE_TRACE=FILE (read at start-up or on the first call): each
 *   process writes FILE.<pid>, through FILE.<pid>.tmp and rename(2), so
 *   a file by that name is always complete.  Written from a destructor:
 *   after exit() or a return from main, once the program's own
 *   destructors ran.  _exit, a fatal signal or exec write nothing.
 * - Counters: a block per thread, mapped with mmap (no malloc: the
 *   program's malloc may call memset), found through an initial-exec TLS
 *   pointer; only its owner writes it.  When a thread exits its counts are
 *   added to `retired` and the block is kept for the next new thread.
 * - fork: the child starts from zero (its parent writes what came
 *   before), with the forking thread's block; the other threads' blocks
 *   are free for its new threads.
 * Nothing here calls a name the drop-in exports (memset, memcmp, ...):
 * the install tests check the object code for such calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h> /* rename; no stdio stream is used */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "memlane.h"
#include "trace.h"

__thread struct ml_trace_counters *ml_trace_mine
    __attribute__((tls_model("initial-exec")));

/* A thread's block: this header, then the counters on the next page. */
struct block {
    struct block *next_all, *next_free;
    struct ml_trace_counters *counters;
};

enum { TRACE_UNKNOWN, TRACE_STARTING, TRACE_ON, TRACE_OFF };
static int state;
static char path[PATH_MAX];
static size_t page, counters_len;
static pthread_key_t key;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Under `lock`: */
static struct block *all, *free_list;
static struct ml_trace_counters *retired; /* counts of exited threads */
static uint64_t threads;                  /* threads that made a call */

static __thread int in_slow, exited;

int ml_trace_off;

/* Offset of the first difference of a and b in [from, to), or `to`. */
static size_t first_difference(const unsigned char *a, const unsigned char *b,
                               size_t from, size_t to)
{
    size_t i = from;
#if defined(__SSE2__)
#define ML_TRACE_EQ16(k) \
    _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + (k))), \
                   _mm_loadu_si128((const __m128i *)(const void *)(b + (k))))
    /* 64 bytes a step, one test for the four compares (from <= to). */
    for (; to - i >= 64; i += 64) {
        __m128i e0 = ML_TRACE_EQ16(i), e1 = ML_TRACE_EQ16(i + 16);
        __m128i e2 = ML_TRACE_EQ16(i + 32), e3 = ML_TRACE_EQ16(i + 48);
        __m128i eq4 = _mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3));
        if (_mm_movemask_epi8(eq4) != 0xffff) {
            uint64_t eq = (uint64_t)(unsigned)_mm_movemask_epi8(e0) |
                          (uint64_t)(unsigned)_mm_movemask_epi8(e1) << 16 |
                          (uint64_t)(unsigned)_mm_movemask_epi8(e2) << 32 |
                          (uint64_t)(unsigned)_mm_movemask_epi8(e3) << 48;
            return i + (unsigned)__builtin_ctzll(~eq);
        }
    }
    for (; to - i >= 16; i += 16) {
        unsigned ne = (unsigned)_mm_movemask_epi8(ML_TRACE_EQ16(i)) ^ 0xffffu;
        if (ne)
            return i + (unsigned)__builtin_ctz(ne);
    }
    /* The last bytes: the 16 that end at `to`, those before i known equal. */
    if (i < to && to - from >= 16) {
        unsigned ne = (unsigned)_mm_movemask_epi8(ML_TRACE_EQ16(to - 16)) ^ 0xffffu;
        return ne ? to - 16 + (unsigned)__builtin_ctz(ne) : to;
    }
#undef ML_TRACE_EQ16
#endif
    for (; i < to; i++)
        if (a[i] != b[i])
            return i;
    return to;
}

/* Where a differing call first differed. */
static void count_differ(struct ml_trace_data_counts *d, uint64_t *tick,
                         const unsigned char *a, const unsigned char *b, size_t n)
{
    unsigned k = ml_trace_class(n);
    ML_TRACE_ADD(d->differ[k], 1);
    /* Every call up to ML_TRACE_SCAN bytes in; beyond, one call in
     * ML_TRACE_SAMPLE searches on to the end (the search costs about
     * what the comparison did). */
    size_t scan = n < ML_TRACE_SCAN ? n : ML_TRACE_SCAN;
    size_t at = first_difference(a, b, 0, scan);
    if (at == scan && scan < n) {
        uint64_t tk = *tick;
        ML_TRACE_ADD(*tick, 1);
        if (tk % ML_TRACE_SAMPLE) {
            ML_TRACE_ADD(d->unsampled[k], 1);
            return;
        }
        at = first_difference(a, b, scan, n);
    }
    if (at >= n) { /* the inputs changed under the call */
        ML_TRACE_ADD(d->unsampled[k], 1);
        return;
    }
    size_t sixteenth =
        at < (SIZE_MAX >> 4) ? at * ML_TRACE_REL / n : at / (n / ML_TRACE_REL);
    ML_TRACE_ADD(d->at[k][ml_trace_class(at)], 1);
    ML_TRACE_ADD(d->rel[k][sixteenth], 1);
}

/* memcmp, bcmp (data: their index in ml_trace_counters.data): equal
 * inputs (result 0), or where they first differ. */
static void count_data(struct ml_trace_counters *t, int data, const void *a,
                       const void *b, size_t n, int result)
{
    struct ml_trace_data_counts *d = &t->data[data];
    if (result == 0)
        ML_TRACE_ADD(d->equal[ml_trace_class(n)], 1);
    else
        count_differ(d, &t->sample_tick, a, b, n);
}

int ml_trace_memcmp(struct ml_trace_counters *t, const void *a, const void *b, size_t n)
{
    ml_trace_pair(t, MLT_MEMCMP, a, b, n);
    int r = memlane_memcmp(a, b, n);
    count_data(t, 0, a, b, n, r);
    return r;
}

int ml_trace_bcmp(struct ml_trace_counters *t, const void *a, const void *b, size_t n)
{
    ml_trace_pair(t, MLT_BCMP, a, b, n);
    int r = memlane_bcmp(a, b, n);
    count_data(t, 1, a, b, n, r);
    return r;
}

/* Zeroed counters: fresh pages, no memset. */
static struct ml_trace_counters *counters_map(void)
{
    void *p = mmap(NULL, counters_len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* The mapping is the caller's to keep (cppcheck sees a leak). */
    // cppcheck-suppress memleak
    return p == MAP_FAILED ? NULL : p;
}

static void counters_zero(struct ml_trace_counters *c)
{
    madvise(c, counters_len, MADV_DONTNEED); /* private anonymous: reads 0 */
}

static void counters_add(struct ml_trace_counters *to, struct ml_trace_counters *from)
{
    uint64_t *t = (uint64_t *)(void *)to, *f = (uint64_t *)(void *)from;
    for (size_t i = 0; i < sizeof *to / sizeof *t; i++)
        t[i] += __atomic_load_n(&f[i], __ATOMIC_RELAXED);
}

static struct block *block_new(void)
{
    void *p = mmap(NULL, page + counters_len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    struct block *b = p;
    b->counters = (struct ml_trace_counters *)(void *)((char *)p + page);
    return b;
}

/* Thread exit (the key's destructor): its counts to `retired`, its block
 * to the free list.  Calls the thread makes after this are not counted. */
static void thread_exit(void *arg)
{
    struct block *b = arg;
    ml_trace_mine = NULL;
    exited = 1;
    pthread_mutex_lock(&lock);
    counters_add(retired, b->counters);
    counters_zero(b->counters);
    b->next_free = free_list;
    free_list = b;
    pthread_mutex_unlock(&lock);
}

static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }

/* The child: only the forking thread lives on, from zero. */
static void fork_child(void)
{
    free_list = NULL;
    threads = 0;
    for (struct block *b = all; b; b = b->next_all) {
        counters_zero(b->counters);
        if (b->counters == ml_trace_mine) {
            threads = 1;
            continue;
        }
        b->next_free = free_list;
        free_list = b;
    }
    counters_zero(retired);
    pthread_mutex_unlock(&lock);
}

static void warn_path(const char *what, const char *file, int err)
{
    const char *parts[] = {"memlane-trace: ", what, " ", file, ": ", strerror(err), "\n"};
    ml_warn_line(parts, sizeof parts / sizeof parts[0], 3); /* the name is the user's */
}

static int start(void)
{
    int s = TRACE_UNKNOWN;
    if (!__atomic_compare_exchange_n(&state, &s, TRACE_STARTING, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return s;
    /* ml_environ applies the secure-execution rule (no MEMLANE_* variable
     * in a set-user-ID program); NULL: not known yet (a call before libc
     * is set up), so decide on a later call or in the constructor. */
    char **env = ml_environ();
    if (!env) {
        __atomic_store_n(&state, TRACE_UNKNOWN, __ATOMIC_RELEASE);
        return TRACE_UNKNOWN;
    }
    s = TRACE_OFF;
    const char *file = ml_env_get(env, "MEMLANE_TRACE");
    if (file && *file) {
        /* A relative name is taken from the working directory at start. */
        size_t len = 0, flen = strlen(file);
        if (file[0] != '/') {
            if (!getcwd(path, sizeof path - 1))
                path[0] = 0;
            len = strlen(path);
            path[len++] = '/';
        }
        page = (size_t)sysconf(_SC_PAGESIZE);
        counters_len = (sizeof(struct ml_trace_counters) + page - 1) & ~(page - 1);
        /* Room for ".<pid>.tmp". */
        if (len + flen + 32 > sizeof path) {
            warn_path("name too long, not recording:", file, ENAMETOOLONG);
        } else {
            for (size_t i = 0; i <= flen; i++)
                path[len + i] = file[i];
            retired = counters_map();
            if (retired && !pthread_key_create(&key, thread_exit) &&
                !pthread_atfork(fork_prepare, fork_parent, fork_child))
                s = TRACE_ON;
            else
                warn_path("cannot set up, not recording:", file, errno);
        }
    }
    if (s == TRACE_OFF)
        __atomic_store_n(&ml_trace_off, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&state, s, __ATOMIC_RELEASE);
    return s;
}

struct ml_trace_counters *ml_trace_counters_slow(void)
{
    int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (s == TRACE_UNKNOWN)
        s = start();
    /* in_slow: pthread_setspecific may allocate, and a malloc of the
     * program's may call memset. */
    if (s != TRACE_ON || in_slow || exited)
        return NULL;
    in_slow = 1;
    pthread_mutex_lock(&lock);
    struct block *b = free_list;
    if (b) {
        free_list = b->next_free;
    } else if ((b = block_new())) {
        b->next_all = all;
        all = b;
    }
    if (b)
        threads++;
    pthread_mutex_unlock(&lock);
    if (b) {
        ml_trace_mine = b->counters;
        pthread_setspecific(key, b);
    }
    in_slow = 0;
    return b ? b->counters : NULL;
}

/* "<path>.<pid><suffix>" into buf. */
static void file_name(char *buf, size_t len, const char *suffix)
{
    size_t i = 0;
    for (const char *s = path; *s && i + 1 < len; s++)
        buf[i++] = *s;
    buf[i++] = '.';
    char d[24];
    int k = 23;
    d[k] = 0;
    for (unsigned long v = (unsigned long)getpid(); v || k == 23; v /= 10)
        d[--k] = (char)('0' + v % 10);
    for (const char *s = d + k; *s && i + 1 < len; s++)
        buf[i++] = *s;
    for (const char *s = suffix; *s && i + 1 < len; s++)
        buf[i++] = *s;
    buf[i] = 0;
}

static void write_profile(const struct ml_trace_counters *t, uint64_t nthreads)
{
    char final[PATH_MAX + 32], tmp[PATH_MAX + 32];
    file_name(final, sizeof final, "");
    file_name(tmp, sizeof tmp, ".tmp");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        warn_path("cannot write", tmp, errno);
        return;
    }
    struct ml_profile_meta m = {program_invocation_short_name, (uint64_t)getpid(), 1,
                                nthreads};
    int err = ml_profile_write(fd, t, &m);
    if (close(fd) && !err)
        err = errno;
    if (!err && rename(tmp, final))
        err = errno;
    if (err) {
        warn_path("cannot write", final, err);
        unlink(tmp);
    }
}

/* At start-up (a program that never calls us writes an empty profile),
 * and at exit, after the program's destructors. */
__attribute__((constructor)) static void trace_init(void)
{
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == TRACE_UNKNOWN)
        start();
}

__attribute__((destructor)) static void trace_fini(void)
{
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TRACE_ON)
        return;
    struct ml_trace_counters *sum = counters_map();
    if (!sum) {
        warn_path("cannot write", path, ENOMEM);
        return;
    }
    pthread_mutex_lock(&lock);
    counters_add(sum, retired);
    for (struct block *b = all; b; b = b->next_all)
        counters_add(sum, b->counters);
    uint64_t n = threads;
    pthread_mutex_unlock(&lock);
    write_profile(sum, n);
    munmap(sum, counters_len);
}
