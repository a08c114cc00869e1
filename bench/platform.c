/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
/*
 * The benchmark's services to the rest of it: random numbers, progress
 * on stderr, buffers, the sizes of the caches as the kernel reports them
 * (the library's ml_cpu_llc_bytes reads CPUID, for its thresholds; the
 * footprints want L1 and L2 as well), and a warm-up.
 */
#include "bench.h"
#include "memlane.h"
#include "rng.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;

void rnd_seed(uint64_t seed) { rnd_state = seed ? seed : 0x9e3779b97f4a7c15u; }

uint64_t rnd64(void) { return ml_rng_next(&rnd_state); }

size_t rnd_below(size_t n) { return n ? (size_t)(rnd64() % n) : 0; }

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
/* The warm-up's results, so that its calls are not optimised away. */
static volatile uintptr_t warm_up_sink;

void warm_up_cpu(double seconds)
{
    enum { N = 64 * 1024 };
    static unsigned char buf[N];
    double end = wall_seconds() + seconds;
    while (wall_seconds() < end)
        for (int i = 0; i < 64; i++)
            warm_up_sink += (uintptr_t)memlane_memset(buf, i, N);
}
