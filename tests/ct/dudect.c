/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Check 4: statistical timing test, the method of "Dude, is my code
 * constant time?" (Reparaz, Balasch, Verbauwhede, DATE 2017), implemented
 * here from the paper's description.
 *
 * For each function, length and pair of input classes, measurements are
 * taken with the class of each one drawn at random (so drifts of the
 * machine hit both classes alike).  One measurement is the cycle count of
 * one call (lfence; rdtsc ... rdtscp; lfence).  The classes differ only
 * in the values of bytes (see measure()).  Welch's t statistic is computed on
 * the raw measurements and on crops that keep only those below a
 * percentile (fixed from a first batch), which removes the long tail of
 * interrupts.  max |t| > 10 flags a leak.
 *
 * Class pairs: "equal vs first"   (b == a, or b[0] differs)
 *              "first vs last"    (b[0] differs, or b[n-1] differs)
 *              "equal vs equal"   (a null test of the harness: a flag
 *                                  here means the measurement is broken)
 *
 * Positive controls in the same run: libc memcmp and the early-exit
 * control must both reach |t| > 10, else the run is not sensitive enough
 * and fails.
 *
 *   ct-dudect [--long] [measurements-per-class]
 *     default: 100000 per class and class pair, at lengths
 *              1 15 16 31 32 33 64 96 256 1000 4096
 *     --long:  10^7 per class, at lengths
 *              15 16 31 32 33 64 96 256 1000 4096
 *   CT_LENGTHS=L,L,... replaces the lengths (at most MAX_LEN, 64 KiB: a
 *   length above is an error).  Anything else on the command
 *   line is an error (exit status 2), not a run with no measurements.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "ct_check.h"

#define T_THRESHOLD 10.0
#define MAX_LEN 65536 /* the longest length CT_LENGTHS may ask for */
#define NCROPS 10
#define BATCH 10000

/* Welch's t-test accumulators, Welford's online mean and variance. */
struct welch {
    double n[2], mean[2], m2[2];
};

static void welch_add(struct welch *w, int cls, double x)
{
    w->n[cls] += 1;
    double d = x - w->mean[cls];
    w->mean[cls] += d / w->n[cls];
    w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const struct welch *w)
{
    if (w->n[0] < 2 || w->n[1] < 2)
        return 0;
    double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
    double den = sqrt(v0 / w->n[0] + v1 / w->n[1]);
    if (den == 0)
        return w->mean[0] == w->mean[1] ? 0 : 1e9;
    return (w->mean[0] - w->mean[1]) / den;
}

static inline uint64_t tsc_begin(void)
{
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
}

static inline uint64_t tsc_end(void)
{
    unsigned aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

struct result {
    double max_t;
    const char *where; /* "raw" or "crop p.." */
    double mean0, mean1;
    unsigned long n;
};

/* The class pairs. */
enum test { EQ_VS_FIRST, FIRST_VS_LAST, A_VS_A, NTESTS };
static const char *const test_name[NTESTS] = {"equal vs first", "first vs last",
                                              "equal vs equal (null test)"};

/*
 * One test: about `per_class` measurements per class, the class of each
 * drawn at random.  Both classes use the same buffers; before each call
 * the bytes at 0 and n-1 of b are written with the class's values, each
 * first with a scrambled value and then with the real one (so every final
 * store changes memory, whatever the class), and an mfence lets the stores
 * reach the cache before the clock starts.  The classes then differ in
 * nothing but byte values, and the harness does not branch on the class:
 * harnesses that did either were flagged on every function, generic
 * included (docs/constant-time.md, check 4).  The null test (both classes
 * equal, same harness) guards against a new artifact: if it is flagged,
 * the run is void.
 */
static struct result measure(ml_cmp_fn volatile fn, size_t n, enum test test,
                             unsigned long per_class, unsigned char *a, unsigned char *b)
{
    static uint64_t cyc[BATCH];
    static unsigned char cls[BATCH], dlt[BATCH];
    struct welch raw = {{0}, {0}, {0}}, crop[NCROPS];
    uint64_t thresh[NCROPS];
    memset(crop, 0, sizeof crop);
    for (size_t i = 0; i < n; i++)
        a[i] = (unsigned char)ct_rnd();
    memcpy(b, a, n);
    size_t last = n ? n - 1 : 0;
    unsigned char a0 = n ? a[0] : 0, al = n ? a[last] : 0;
    unsigned long total = 2 * per_class, done = 0;
    int warm = 1;
    volatile int sink = 0;
    /* Which bytes differ in each class, as masks (see the test names). */
    const unsigned char sel_first1 = test == EQ_VS_FIRST ? 0xff : 0,
                        sel_first0 = test == FIRST_VS_LAST ? 0xff : 0,
                        sel_last1 = test == FIRST_VS_LAST ? 0xff : 0;

    while (done < total) {
        unsigned long m = total - done < BATCH ? total - done : BATCH;
        for (unsigned long i = 0; i < m; i++) {
            uint64_t r = ct_rnd();
            cls[i] = (unsigned char)(r >> 63);
            dlt[i] = (unsigned char)(1 + (r & 0xffff) % 255);
        }
        for (unsigned long i = 0; i < m; i++) {
            /* What to xor into b[0] and b[n-1], with masks: a branch on
             * the class here would itself show in the timing. */
            unsigned char m1 = (unsigned char)(0 - cls[i]), m0 = (unsigned char)~m1;
            unsigned char x0 =
                (unsigned char)(dlt[i] & ((m1 & sel_first1) | (m0 & sel_first0)));
            unsigned char xl = (unsigned char)(dlt[i] & (m1 & sel_last1));
            if (n) {
                volatile unsigned char *vb = b;
                vb[0] = (unsigned char)(a0 ^ x0 ^ 0xa5);
                vb[0] = (unsigned char)(a0 ^ x0);
                if (n > 1) {
                    vb[last] = (unsigned char)(al ^ xl ^ 0xa5);
                    vb[last] = (unsigned char)(al ^ xl);
                }
            }
            _mm_mfence();
            uint64_t t0 = tsc_begin();
            int res = fn(a, b, n);
            uint64_t t1 = tsc_end();
            sink += res;
            cyc[i] = t1 - t0;
        }
        if (warm) {
            /* The first batch only warms up and sets the crop
             * thresholds: the percentiles 1 - 0.5^(10 (k+1) / NCROPS),
             * as in the paper's reference code, tails trimmed harder
             * and harder. */
            static uint64_t sorted[BATCH];
            memcpy(sorted, cyc, m * sizeof *cyc);
            qsort(sorted, m, sizeof *sorted, cmp_u64);
            for (int k = 0; k < NCROPS; k++) {
                double p = 1 - pow(0.5, 10.0 * (k + 1) / NCROPS);
                thresh[k] = sorted[(size_t)(p * (double)(m - 1))];
            }
            warm = 0;
            continue;
        }
        for (unsigned long i = 0; i < m; i++) {
            double x = (double)cyc[i];
            welch_add(&raw, cls[i], x);
            for (int k = 0; k < NCROPS; k++)
                if (cyc[i] <= thresh[k])
                    welch_add(&crop[k], cls[i], x);
        }
        done += m;
    }
    (void)sink;
    struct result res = {fabs(welch_t(&raw)), "raw", raw.mean[0], raw.mean[1],
                         (unsigned long)(raw.n[0] + raw.n[1])};
    static char names[NCROPS][24];
    for (int k = 0; k < NCROPS; k++) {
        double t = fabs(welch_t(&crop[k]));
        if (t > res.max_t) {
            snprintf(names[k], sizeof names[k], "crop<=p%.4f",
                     1 - pow(0.5, 10.0 * (k + 1) / NCROPS));
            res.max_t = t;
            res.where = names[k];
            res.mean0 = crop[k].mean[0];
            res.mean1 = crop[k].mean[1];
        }
    }
    return res;
}

int main(int argc, char **argv)
{
    int lng = 0;
    unsigned long per_class = 100000;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--long")) {
            lng = 1, per_class = 10000000;
            continue;
        }
        per_class = strtoul(argv[i], &end, 10);
        if (argv[i][0] < '1' || argv[i][0] > '9' || *end) {
            fprintf(stderr, "usage: ct-dudect [--long] [measurements-per-class]\n");
            return 2;
        }
    }
    /* A length in every size class of the variants, and its edges. */
    static const size_t len_ci[] = {1, 15, 16, 31, 32, 33, 64, 96, 256, 1000, 4096};
    static const size_t len_long[] = {15, 16, 31, 32, 33, 64, 96, 256, 1000, 4096};
    const size_t *lens = lng ? len_long : len_ci;
    size_t nlens = lng ? sizeof len_long / sizeof *lens : sizeof len_ci / sizeof *lens;

    static size_t len_env[32];
    const char *le = getenv("CT_LENGTHS"); /* e.g. CT_LENGTHS=1000,4096 */
    if (le && *le) {
        nlens = 0;
        for (char *end; *le && nlens < 32; le = *end ? end + 1 : end) {
            len_env[nlens] = strtoul(le, &end, 10);
            if (end == le)
                break;
            if (len_env[nlens] > MAX_LEN) {
                fprintf(stderr, "ct-dudect: CT_LENGTHS: %zu is above %d\n",
                        len_env[nlens], MAX_LEN);
                return 2;
            }
            nlens++;
        }
        lens = len_env;
    }
    unsigned char *a = aligned_alloc(4096, MAX_LEN), *b = aligned_alloc(4096, MAX_LEN);
    if (!a || !b)
        return 2;
    ct_rnd_seed((uint64_t)time(NULL) * 0x9e3779b97f4a7c15u);

    struct ct_target targets[64];
    size_t nt = ct_targets(targets, 64);
    /* The positive control from libc, first, so a blunt run stops early. */
    struct ct_target libc = {"libc", "memcmp", memcmp, 1, 1};
    struct ct_target list[66];
    size_t nl = 0;
    list[nl++] = libc;
    for (size_t i = 0; i < nt; i++)
        if (!targets[i].control || !strcmp(targets[i].variant, "leaky_early_exit"))
            list[nl++] = targets[i];

    printf("dudect: %lu measurements per class and test, |t| > %.0f flags a leak\n",
           per_class, T_THRESHOLD);
    for (size_t i = 0; i < nl; i++) {
        const struct ct_target *t = &list[i];
        if (!t->runnable) {
            printf("skip %s/%s: not supported by this CPU\n", t->function, t->variant);
            continue;
        }
        double worst = 0, worst_null = 0;
        char worst_at[320] = "";
        int flagged = 0, null_flagged = 0;
        for (size_t l = 0; l < nlens; l++)
            for (int tst = 0; tst < NTESTS; tst++) {
                size_t n = lens[l];
                if (tst == FIRST_VS_LAST && n < 2)
                    continue;
                struct result r = measure(t->fn, n, (enum test)tst, per_class, a, b);
                const char *test = test_name[tst];
                int bad = r.max_t > T_THRESHOLD;
                if (getenv("CT_VERBOSE"))
                    printf("  %s/%s n=%zu %s: |t| = %.1f (%s) means %.1f %.1f\n",
                           t->function, t->variant, n, test, r.max_t, r.where, r.mean0,
                           r.mean1);
                if (tst == A_VS_A) {
                    if (r.max_t > worst_null)
                        worst_null = r.max_t;
                    if (bad) {
                        null_flagged = 1;
                        printf("FAIL dudect harness: null test flagged for %s/%s n=%zu: "
                               "|t| = %.1f on %s (mean cycles %.1f vs %.1f): the "
                               "measurement itself is biased, no verdict is valid\n",
                               t->function, t->variant, n, r.max_t, r.where, r.mean0,
                               r.mean1);
                    }
                    fflush(stdout);
                    continue;
                }
                flagged |= bad;
                if (r.max_t > worst) {
                    worst = r.max_t;
                    snprintf(worst_at, sizeof worst_at, "n=%zu %s (%s)", n, test,
                             r.where);
                }
                if (bad && !t->control)
                    printf("FAIL dudect %s/%s n=%zu %s: |t| = %.1f on %s "
                           "(mean cycles %.1f vs %.1f, %lu measurements)\n",
                           t->function, t->variant, n, test, r.max_t, r.where, r.mean0,
                           r.mean1, r.n);
                fflush(stdout);
            }
        if (t->control) {
            printf("control %s/%s: max |t| = %.1f at %s (%s); null test max |t| = %.2f\n",
                   t->function, t->variant, worst, worst_at,
                   flagged ? "flagged, as it must be" : "NOT flagged", worst_null);
            if (flagged && !null_flagged)
                ct_passed++;
            else {
                ct_failed++;
                if (!flagged)
                    printf("FAIL dudect: control %s/%s not flagged: this run is not "
                           "sensitive enough to show a leak\n",
                           t->function, t->variant);
            }
        } else {
            int fail = flagged || null_flagged;
            printf("%s %s/%s: max |t| = %.2f at %s; null test max |t| = %.2f\n",
                   fail ? "FAIL" : "ok", t->function, t->variant, worst, worst_at,
                   worst_null);
            if (fail)
                ct_failed++;
            else
                ct_passed++;
        }
    }
    printf("%lu passed, %lu failed\n", ct_passed, ct_failed);
    return ct_failed ? 1 : 0;
}
