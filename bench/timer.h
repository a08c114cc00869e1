/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ordered time-stamp counter reads.
 *
 * tsc_start: lfence waits for every earlier instruction to finish before
 * rdtsc reads the counter, so the timed code cannot start early.
 * tsc_stop: rdtscp waits for the timed code to finish before it reads the
 * counter; the lfence after it keeps later code from starting before the
 * read.  The "memory" clobbers stop the compiler from moving loads and
 * stores of the timed code across the reads.  Inline asm because C has no
 * ordered counter read (the __rdtsc intrinsic is unordered).
 */
#ifndef MEMLANE_BENCH_TIMER_H
#define MEMLANE_BENCH_TIMER_H

#include <stdint.h>

#if defined(__x86_64__)
static inline uint64_t tsc_start(void)
{
    unsigned lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_stop(void)
{
    unsigned lo, hi, aux;
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#define BENCH_HAVE_TSC 1
#else
/* Elsewhere: nanoseconds from the monotonic clock stand in for cycles. */
#include <time.h>
static inline uint64_t tsc_start(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define tsc_stop tsc_start
#define BENCH_HAVE_TSC 0
#endif

/* Measured once at start-up (timer.c). */
struct timer_info {
    double tsc_ghz;  /* TSC ticks per nanosecond */
    double overhead; /* median ticks of an empty tsc_start..tsc_stop */
};
void timer_init(struct timer_info *t, int quick);

/* Monotonic wall clock in seconds, for progress and time budgets. */
double wall_seconds(void);

#endif /* MEMLANE_BENCH_TIMER_H */
