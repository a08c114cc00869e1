/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tests' and the benchmark's pseudo-random numbers: xorshift64*
 * (Vigna), deterministic from its seed, so that a failing case or a
 * benchmark's sequence of sizes can be drawn again.  The library itself
 * draws none.
 */
#ifndef MEMLANE_RNG_H
#define MEMLANE_RNG_H

#include <stdint.h>

/* The next number from *state, which must not be 0. */
static inline uint64_t ml_rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1du;
}

#endif
