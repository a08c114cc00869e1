/* SPDX-License-Identifier: BSD-2-Clause */
/* Checks of memlane-bench's statistics against values computed
 * independently (exact p-values by enumerating every split of the pooled
 * sample; the normal approximation by hand). */
#include <math.h>
#include <stdio.h>

#include "stats.h"

static int failures;

static void near(const char *what, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol)) {
        printf("FAIL: %s: got %.6f, want %.6f\n", what, got, want);
        failures++;
    }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    /* Exact, no ties. */
    double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    near("mw 3+3 separated", mann_whitney_p(a, 3, b, 3), 0.1, 1e-9);
    near("mw order of samples", mann_whitney_p(b, 3, a, 3), 0.1, 1e-9);
    double c[] = {1, 2, 3, 4, 5}, d[] = {6, 7, 8, 9, 10};
    near("mw 5+5 separated", mann_whitney_p(c, 5, d, 5), 0.0079365079, 1e-9);
    double e[] = {1, 3, 5, 7, 9}, f[] = {2, 4, 6, 8, 10};
    near("mw 5+5 interleaved", mann_whitney_p(e, 5, f, 5), 0.6904761905, 1e-9);
    double g[] = {1, 2, 4, 5, 9}, h[] = {3, 6, 7, 8, 10};
    near("mw 5+5 mixed", mann_whitney_p(g, 5, h, 5), 0.2222222222, 1e-9);
    /* Ties: normal approximation with tie and continuity correction. */
    double i[] = {1, 2, 2, 3}, j[] = {2, 3, 3, 4};
    near("mw ties 4+4", mann_whitney_p(i, 4, j, 4), 0.1720337089, 1e-6);
    double k[] = {1, 1, 1, 2, 2, 3, 5}, l[] = {2, 3, 3, 4, 4, 5, 6, 6};
    near("mw ties 7+8", mann_whitney_p(k, N(k), l, N(l)), 0.0258221312, 1e-6);
    double same[] = {7, 7, 7};
    near("mw all equal", mann_whitney_p(same, 3, same, 3), 1, 0);
    near("mw empty", mann_whitney_p(a, 0, b, 3), 1, 0);
    /* Larger samples stay within [0, 1] and are tiny when separated. */
    double x[20], y[20];
    for (int n = 0; n < 20; n++)
        x[n] = n, y[n] = 100 + n;
    double p = mann_whitney_p(x, 20, y, 20);
    if (!(p > 0 && p < 1e-9)) {
        printf("FAIL: mw 20+20 separated: %g\n", p);
        failures++;
    }

    struct summary s;
    double m[] = {4, 1, 100, 3, 2};
    summarize(m, 5, &s);
    near("median", s.median, 3, 0);
    near("q1", s.q1, 2, 0);
    near("q3", s.q3, 4, 0);
    /* 100 is beyond the upper fence (4 + 1.5 * 2); the farthest kept
     * sample is 1, 2 from the median. */
    near("spread", s.spread, 2.0 / 3, 1e-12);
    summarize(m, 0, &s);
    near("empty median", s.median, 0, 0);
    double even[] = {1, 2, 3, 10};
    summarize(even, 4, &s);
    near("even median", s.median, 2.5, 0);

    double gm[] = {1, 4, 16};
    near("geomean", geomean(gm, 3), 4, 1e-12);
    double gz[] = {0, 9, -1, 1};
    near("geomean skips non-positive", geomean(gz, 4), 3, 1e-12);

    printf("bench stats: %s\n", failures ? "FAILED" : "all passed");
    return failures != 0;
}
