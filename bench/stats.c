/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics.  The ± spread follows the old benchstat: drop outliers
 * outside the Tukey fences (1.5 interquartile ranges beyond the
 * quartiles), then report the largest distance of a remaining value from
 * the centre, here the median, relative to the median.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted x[0..n) by linear interpolation. */
static double quantile_sorted(const double *x, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double frac = pos - (double)i;
    if (i + 1 >= n)
        return x[n - 1];
    return x[i] + frac * (x[i + 1] - x[i]);
}

double median_inplace(double *x, size_t n)
{
    if (n == 0)
        return 0;
    qsort(x, n, sizeof *x, cmp_double);
    return quantile_sorted(x, n, 0.5);
}

void summarize(const double *x, size_t n, struct summary *s)
{
    s->n = n;
    s->median = s->q1 = s->q3 = s->spread = 0;
    if (n == 0)
        return;
    double *v = malloc(n * sizeof *v);
    if (!v)
        abort();
    memcpy(v, x, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    s->median = quantile_sorted(v, n, 0.5);
    s->q1 = quantile_sorted(v, n, 0.25);
    s->q3 = quantile_sorted(v, n, 0.75);
    double iqr = s->q3 - s->q1;
    double lo = s->q1 - 1.5 * iqr, hi = s->q3 + 1.5 * iqr, dev = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < lo || v[i] > hi)
            continue;
        double d = fabs(v[i] - s->median);
        if (d > dev)
            dev = d;
    }
    s->spread = s->median != 0 ? dev / fabs(s->median) : 0;
    free(v);
}

struct ranked {
    double v;
    int group;
};

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* P(U <= u) for samples of sizes m and n without ties, by counting the
 * orderings: c_m[k][u] = c_{m-1}[k][u-k] + c_m[k-1][u] (the largest value
 * belongs to the first sample, which then beats all k of the second, or
 * to the second). */
static double mw_exact_cdf(size_t m, size_t n, size_t u)
{
    size_t umax = m * n, w = umax + 1;
    double *prev = calloc((n + 1) * w, sizeof *prev);
    double *cur = calloc((n + 1) * w, sizeof *cur);
    if (!prev || !cur)
        abort();
    for (size_t k = 0; k <= n; k++)
        prev[k * w] = 1; /* m = 0: one ordering, U = 0 */
    for (size_t i = 1; i <= m; i++) {
        memset(cur, 0, (n + 1) * w * sizeof *cur);
        cur[0] = 1; /* k = 0 */
        for (size_t k = 1; k <= n; k++)
            for (size_t v = 0; v <= i * k; v++)
                cur[k * w + v] =
                    (v >= k ? prev[k * w + v - k] : 0) + cur[(k - 1) * w + v];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double below = 0, total = 0;
    for (size_t v = 0; v <= umax; v++) {
        total += prev[n * w + v];
        if (v <= u)
            below += prev[n * w + v];
    }
    free(prev);
    free(cur);
    return below / total;
}

double mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny)
{
    if (nx == 0 || ny == 0)
        return 1;
    size_t n = nx + ny;
    struct ranked *r = malloc(n * sizeof *r);
    if (!r)
        abort();
    for (size_t i = 0; i < nx; i++)
        r[i] = (struct ranked){x[i], 0};
    for (size_t i = 0; i < ny; i++)
        r[nx + i] = (struct ranked){y[i], 1};
    qsort(r, n, sizeof *r, cmp_ranked);

    double rank_x = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && r[j].v == r[i].v)
            j++;
        double t = (double)(j - i), avg = (double)(i + j + 1) / 2;
        for (size_t k = i; k < j; k++)
            if (r[k].group == 0)
                rank_x += avg;
        ties += t * t * t - t;
        i = j;
    }
    free(r);

    double m1 = (double)nx, m2 = (double)ny;
    double u1 = rank_x - m1 * (m1 + 1) / 2;
    double u = fmin(u1, m1 * m2 - u1);
    if (ties == 0 && nx <= 50 && ny <= 50) {
        double p = 2 * mw_exact_cdf(nx, ny, (size_t)(u + 0.5));
        return p > 1 ? 1 : p;
    }
    double nn = (double)n;
    double var = m1 * m2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
    if (var <= 0)
        return 1;
    double z = (fabs(u1 - m1 * m2 / 2) - 0.5) / sqrt(var);
    if (z < 0)
        z = 0;
    double p = erfc(z / sqrt(2.0));
    return p > 1 ? 1 : p;
}

double geomean(const double *x, size_t n)
{
    double sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0) {
            sum += log(x[i]);
            k++;
        }
    return k ? exp(sum / (double)k) : 0;
}
