/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * store-forward: memset followed by a load of 8 of the bytes it wrote,
 * each memset's fill byte taken from the previous load, so that every
 * call waits for the one before it.  The time per pair is then the
 * latency from the fill byte to the loaded value, which includes
 * forwarding the stored bytes to the load: a load inside a plain vector
 * store gets its bytes forwarded, a load from byte-masked AVX-512 stores
 * took 2-4 ticks longer on Zen 5 (docs/memset.md, "Store-to-load
 * forwarding").  memlane-bench and `make ab` time independent calls,
 * where this does not show.
 *
 * Table: TSC ticks per memset + load (best of 20 batches of 2000 pairs;
 * pin with taskset), by size n and the loaded bytes' offset k (0, the
 * first bytes; n - 8, the last), libc next to each memlane variant the
 * CPU runs and the dispatched entry point.
 *
 *   store-forward       (make store-forward)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "memlane.h"
#include "timer.h"

enum { PAIRS = 2000, BATCHES = 20, MAX_IMPLS = 8 };

static unsigned char buf[8192] __attribute__((aligned(4096)));

/* The best of BATCHES batches, in TSC ticks per memset + dependent load. */
static __attribute__((noinline)) double time_pairs(ml_set_fn f, size_t n, size_t k)
{
    ml_set_fn volatile vf = f; /* called, never inlined */
    unsigned char *d = buf + 64;
    uint64_t x = 0;
    double best = 1e30;
    f = vf;
    for (int r = 0; r < BATCHES; r++) {
        uint64_t t0 = tsc_start();
        for (int i = 0; i < PAIRS; i++) {
            f(d, (int)(x & 0x7f), n);
            x = *(volatile uint64_t *)(void *)(d + k);
        }
        double t = (double)(tsc_stop() - t0) / PAIRS;
        best = t < best ? t : best;
    }
    if (x == 1) /* never (all eight bytes are the fill byte): keeps x live */
        puts("");
    return best;
}

int main(void)
{
    static const size_t sizes[] = {8,  16,  24,  32,  48,  64, 65,
                                   96, 128, 129, 200, 256, 512};
    const char *names[MAX_IMPLS];
    ml_set_fn fns[MAX_IMPLS];
    int nimpl = 0;

    names[nimpl] = "libc";
    fns[nimpl++] = memset;
    const struct ml_function *mf = ml_function_find("memset");
    for (unsigned i = 0; mf && i < mf->nvariants && nimpl < MAX_IMPLS - 1; i++)
        if (ml_level_supported(mf->variants[i].level)) {
            names[nimpl] = mf->variants[i].name;
            fns[nimpl++] = mf->variants[i].fn.set;
        }
    names[nimpl] = "memlane";
    fns[nimpl++] = memlane_memset;

    printf("store-forward: TSC ticks per memset(d, c, n) + 8-byte load at d + k, "
           "each fill byte from the load before\n%5s %5s",
           "n", "k");
    for (int j = 0; j < nimpl; j++)
        printf(" %8s", names[j]);
    printf("\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], ks[2] = {0, n - 8};
        for (int kk = 0; kk < (n > 8 ? 2 : 1); kk++) {
            printf("%5zu %5zu", n, ks[kk]);
            for (int j = 0; j < nimpl; j++)
                printf(" %8.1f", time_pairs(fns[j], n, ks[kk]));
            printf("\n");
        }
    }
    return 0;
}
