/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Check 3: secret poisoning under valgrind memcheck.
 *
 * The input bytes are marked undefined before each call and the result
 * defined after it; memcheck then reports every conditional branch,
 * conditional move it cannot see through, and memory address that
 * depends on the bytes.  New reports are counted per call with
 * VALGRIND_COUNT_ERRORS, so a failure names the variant, length and
 * alignment (memcheck's own report, with the stack, is on stderr).
 *
 * Variants whose level valgrind cannot run are skipped and named: valgrind
 * does not emulate AVX-512, and under it ml_level_supported(ML_AVX512)
 * is false.  Those are covered by checks 1, 2 and 4.
 *
 *   ct-taint            the variants: must give zero reports
 *   ct-taint --control  the early-exit control: must give reports
 * Both must run under valgrind; alone they refuse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "ct_check.h"

static const size_t aligns[][2] = {{0, 0}, {1, 3}, {7, 33}, {63, 16}};
#define NALIGNS (sizeof aligns / sizeof aligns[0])

static unsigned char *buf_a, *buf_b;

/* Returns the number of new memcheck reports over all pairs of one case. */
static unsigned run_case(const struct ct_target *t, size_t n, size_t al, int *wrong)
{
    unsigned char *a = buf_a + aligns[al][0], *b = buf_b + aligns[al][1];
    unsigned errs = 0;
    for (int p = 0; p < CT_NPAIRS; p++) {
        ct_make_pair((enum ct_pair)p, a, b, n);
        int want = memcmp(a, b, n);
        unsigned before = VALGRIND_COUNT_ERRORS;
        VALGRIND_MAKE_MEM_UNDEFINED(a, n);
        VALGRIND_MAKE_MEM_UNDEFINED(b, n);
        int r = t->fn(a, b, n);
        VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r);
        VALGRIND_MAKE_MEM_DEFINED(a, n);
        VALGRIND_MAKE_MEM_DEFINED(b, n);
        errs += VALGRIND_COUNT_ERRORS - before;
        /* A sanity check that the call really compared: the value. */
        int ok = !strcmp(t->function, "timingsafe_bcmp") ? r == (want != 0)
                 : !strcmp(t->function, "timingsafe_memcmp")
                     ? r == (want > 0) - (want < 0)
                     : (r > 0) - (r < 0) == (want > 0) - (want < 0);
        if (!ok && !*wrong) {
            *wrong = 1;
            printf("FAIL taint %s/%s n=%zu: wrong result %d for '%s'\n", t->function,
                   t->variant, n, r, ct_pair_name[p]);
        }
    }
    return errs;
}

int main(int argc, char **argv)
{
    int control = argc > 1 && !strcmp(argv[1], "--control");
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr,
                "ct-taint: must run under valgrind (valgrind --tool=memcheck %s)\n",
                argv[0]);
        return 2;
    }
    buf_a = malloc(4096 + 128);
    buf_b = malloc(4096 + 128);
    if (!buf_a || !buf_b)
        return 2;

    size_t lengths[400], nlengths = 0;
    for (size_t n = 0; n <= 300; n++)
        lengths[nlengths++] = n;
    static const size_t big[] = {511, 512, 1000, 4096};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        lengths[nlengths++] = big[i];

    struct ct_target targets[64];
    size_t nt = ct_targets(targets, 64);
    for (size_t i = 0; i < nt; i++) {
        const struct ct_target *t = &targets[i];
        if (control != t->control)
            continue;
        if (control && strcmp(t->variant, "leaky_early_exit"))
            continue; /* the others are the allow-list's controls */
        if (!t->runnable) {
            printf("skip %s/%s: valgrind cannot run this level (no AVX-512 in "
                   "valgrind); covered by the allow-list, trace and t-test\n",
                   t->function, t->variant);
            continue;
        }
        unsigned long reports = 0, cases = 0, bad = 0;
        int wrong = 0;
        for (size_t l = 0; l < nlengths; l++)
            for (size_t al = 0; al < (lengths[l] <= 300 ? NALIGNS : 1); al++) {
                /* The control needs only a few lengths to show. */
                if (control && lengths[l] > 64)
                    continue;
                unsigned e = run_case(t, lengths[l], al, &wrong);
                cases++;
                if (e) {
                    reports += e;
                    if (!control && bad++ < 5)
                        printf("FAIL taint %s/%s n=%zu align a=%zu b=%zu: %u memcheck "
                               "report(s) (see valgrind's output above)\n",
                               t->function, t->variant, lengths[l], aligns[al][0],
                               aligns[al][1], e);
                }
            }
        if (control) {
            printf("control %s: %lu memcheck reports in %lu cases (%s)\n", t->variant,
                   reports, cases, reports ? "flagged, as it must be" : "NOT flagged");
            if (reports)
                ct_passed++;
            else {
                ct_failed++;
                printf("FAIL taint: the early-exit control was not flagged; the check "
                       "is not sensitive\n");
            }
        } else {
            printf(
                "%s %s/%s: %lu cases (length x alignment, %d pairs each), %lu memcheck "
                "reports\n",
                reports || wrong ? "FAIL" : "ok", t->function, t->variant, cases,
                CT_NPAIRS, reports);
            if (reports || wrong)
                ct_failed++;
            else
                ct_passed++;
        }
    }
    printf("%lu passed, %lu failed\n", ct_passed, ct_failed);
    return ct_failed ? 1 : 0;
}
