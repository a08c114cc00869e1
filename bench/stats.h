/* SPDX-License-Identifier: BSD-2-Clause */
/* Statistics for the reports: medians, spread, Mann-Whitney U test,
 * geometric mean. */
#ifndef MEMLANE_BENCH_STATS_H
#define MEMLANE_BENCH_STATS_H

#include <stddef.h>

struct summary {
    size_t n;
    double median;
    double q1, q3; /* quartiles */
    double spread; /* ± as a fraction of the median (see stats.c) */
};

/* Summary of x[0..n) (x is not modified; n may be 0). */
void summarize(const double *x, size_t n, struct summary *s);

/* Median of x[0..n); sorts x. */
double median_inplace(double *x, size_t n);

/* Two-sided p-value of the Mann-Whitney U test that x and y come from the
 * same distribution: exact when there are no ties and both samples have at
 * most 50 values, otherwise the normal approximation with tie and
 * continuity correction.  1 when either sample is empty. */
double mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny);

/* Geometric mean of the positive values of x[0..n); 0 if none. */
double geomean(const double *x, size_t n);

#endif /* MEMLANE_BENCH_STATS_H */
