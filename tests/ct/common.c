/* SPDX-License-Identifier: BSD-2-Clause */
/* Target list, input pairs and PRNG shared by the constant-time checks. */
#include <stdlib.h>
#include <string.h>

#include "ct_check.h"
#include "rng.h"

unsigned long ct_passed, ct_failed;

static int wanted(const char *variant)
{
    const char *list = getenv("CT_VARIANTS");
    if (!list || !*list)
        return 1;
    size_t len = strlen(variant);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && !strncmp(p, variant, len))
            return 1;
        p += l + (end != NULL);
    }
    return 0;
}

size_t ct_targets(struct ct_target *out, size_t max)
{
    unsigned nf;
    const struct ml_function *fs = ml_functions(&nf);
    size_t k = 0;
    for (unsigned f = 0; f < nf; f++) {
        if (strncmp(fs[f].name, "timingsafe_", 11))
            continue;
        for (unsigned v = 0; v < fs[f].nvariants && k < max; v++) {
            if (!wanted(fs[f].variants[v].name))
                continue;
            out[k].function = fs[f].name;
            out[k].variant = fs[f].variants[v].name;
            out[k].fn = fs[f].variants[v].fn.cmp;
            out[k].runnable = ml_level_supported(fs[f].variants[v].level);
            out[k].control = 0;
            k++;
        }
    }
    static const struct {
        const char *name;
        ml_cmp_fn fn;
    } controls[] = {
        {"leaky_early_exit", ct_leaky_early_exit},
        {"leaky_tzcnt", ct_leaky_tzcnt},
        {"leaky_libcall", ct_leaky_libcall},
        {"leaky_tailjump", ct_leaky_tailjump},
    };
    for (size_t c = 0; c < sizeof controls / sizeof controls[0] && k < max; c++) {
        out[k].function = "control";
        out[k].variant = controls[c].name;
        out[k].fn = controls[c].fn;
        out[k].runnable = 1;
        out[k].control = 1;
        k++;
    }
    return k;
}

const char *const ct_pair_name[CT_NPAIRS] = {
    [CT_EQUAL] = "equal",
    [CT_FIRST_UP] = "first byte +",
    [CT_FIRST_DOWN] = "first byte -",
    [CT_LAST_UP] = "last byte +",
    [CT_LAST_DOWN] = "last byte -",
    [CT_RANDOM_POS] = "random position",
    [CT_RANDOM_POS2] = "random position 2",
    [CT_MANY] = "all bytes random",
    [CT_ZERO_FF] = "all 0x00 vs all 0xff",
    [CT_FF_ZERO] = "all 0xff vs all 0x00",
    [CT_ZERO_ZERO] = "all 0x00 vs all 0x00",
};

static uint64_t rnd_state = 0x2545f4914f6cdd1du;

void ct_rnd_seed(uint64_t s) { rnd_state = s ? s : 1; }

uint64_t ct_rnd(void) { return ml_rng_next(&rnd_state); }

static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(ct_rnd() >> 56);
}

/* Change byte i so that b[i] is above (up) or below a[i]; a[i] moves
 * off 0xff / 0x00 first when it has to. */
static void bump(unsigned char *a, unsigned char *b, size_t i, int up)
{
    if (up) {
        if (a[i] == 0xff)
            a[i] = 0xfe;
        b[i] = (unsigned char)(a[i] + 1 + ct_rnd() % (unsigned)(0xff - a[i]));
    } else {
        if (a[i] == 0)
            a[i] = 1;
        b[i] = (unsigned char)(ct_rnd() % a[i]);
    }
}

void ct_make_pair(enum ct_pair k, unsigned char *a, unsigned char *b, size_t n)
{
    switch (k) {
    case CT_ZERO_FF:
    case CT_FF_ZERO:
    case CT_ZERO_ZERO:
        memset(a, k == CT_FF_ZERO ? 0xff : 0, n);
        memset(b, k == CT_ZERO_FF ? 0xff : 0, n);
        return;
    case CT_MANY:
        fill(a, n);
        fill(b, n);
        return;
    default:
        break;
    }
    fill(a, n);
    memcpy(b, a, n);
    if (n == 0)
        return;
    switch (k) {
    case CT_FIRST_UP:
        bump(a, b, 0, 1);
        break;
    case CT_FIRST_DOWN:
        bump(a, b, 0, 0);
        break;
    case CT_LAST_UP:
        bump(a, b, n - 1, 1);
        break;
    case CT_LAST_DOWN:
        bump(a, b, n - 1, 0);
        break;
    case CT_RANDOM_POS:
    case CT_RANDOM_POS2:
        bump(a, b, (size_t)(ct_rnd() % n), (int)(ct_rnd() & 1));
        break;
    default:
        break;
    }
}
