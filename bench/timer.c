/* SPDX-License-Identifier: BSD-2-Clause */
/* Start-up measurements of the timer: TSC frequency against the
 * monotonic clock, and the cost of an empty timed region. */
#include "timer.h"

#include <stdlib.h>
#include <time.h>

#include "stats.h"

double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double raw_ns(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC_RAW
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

void timer_init(struct timer_info *t, int quick)
{
    /* Frequency: median of a few short spans, each bracketed by clock
     * reads, so one preemption does not skew it. */
    enum { SPANS = 5 };
    double ghz[SPANS], span_ns = quick ? 4e6 : 1e7;
    for (int s = 0; s < SPANS; s++) {
        double n0 = raw_ns();
        uint64_t c0 = tsc_start();
        double n1;
        while ((n1 = raw_ns()) - n0 < span_ns)
            ;
        uint64_t c1 = tsc_stop();
        ghz[s] = (double)(c1 - c0) / (n1 - n0);
    }
    t->tsc_ghz = BENCH_HAVE_TSC ? median_inplace(ghz, SPANS) : 1.0;

    /* Overhead: median of many empty regions, after a warm-up. */
    enum { EMPTY = 2001 };
    static double d[EMPTY];
    for (int i = 0; i < 200; i++) {
        uint64_t a = tsc_start();
        uint64_t b = tsc_stop();
        (void)a, (void)b;
    }
    for (int i = 0; i < EMPTY; i++) {
        uint64_t a = tsc_start();
        uint64_t b = tsc_stop();
        d[i] = (double)(b - a);
    }
    t->overhead = median_inplace(d, EMPTY);
}
