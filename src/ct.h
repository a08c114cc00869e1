/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Constant-time helpers, in the style of BearSSL's.
 *
 * Rules: a value that depends on secret bytes is only ever combined with
 * integer ALU operations (and, or, xor, add, sub, neg, shifts by public
 * amounts).  Never branch on it, index memory with it, or compare it with
 * a C relational operator, which compilers may turn into a branch; use
 * the functions below instead.  ml_ct_barrier hides a value from the
 * optimiser so it cannot prove a mask is 0 or all-ones and bring a branch
 * back; put it on masks before they select.
 */
#ifndef MEMLANE_CT_H
#define MEMLANE_CT_H

#include <stddef.h>
#include <stdint.h>

#include "ops_scalar.h"

/* Opaque copy of x: an empty asm the compiler must assume changes it. */
static inline __attribute__((__always_inline__)) uint64_t ml_ct_barrier(uint64_t x)
{
    __asm__("" : "+r"(x));
    return x;
}

/* 1 if x != 0, else 0. */
static inline __attribute__((__always_inline__)) uint64_t ml_ct_nonzero(uint64_t x)
{
    return (x | (0 - x)) >> 63;
}

/* All ones if x != 0, else 0. */
static inline __attribute__((__always_inline__)) uint64_t ml_ct_mask_nonzero(uint64_t x)
{
    return 0 - ml_ct_barrier(ml_ct_nonzero(x));
}

/* 1 if x < y (unsigned), else 0: the borrow out of x - y
 * (Hacker's Delight, 2-13). */
static inline __attribute__((__always_inline__)) uint64_t ml_ct_lt(uint64_t x, uint64_t y)
{
    return ((~x & y) | (~(x ^ y) & (x - y))) >> 63;
}

/* mask ? a : b, for mask all ones or zero. */
static inline __attribute__((__always_inline__)) uint64_t
ml_ct_select(uint64_t mask, uint64_t a, uint64_t b)
{
    return (a & mask) | (b & ~mask);
}

/* Bit 8k+7 set for each byte k of x that is nonzero, other bits clear. */
static inline __attribute__((__always_inline__)) uint64_t ml_ct_nonzero_bytes(uint64_t x)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fu;
    return (((x & low7) + low7) | x) & ~low7;
}

/*
 * Words in memcmp's order: the bytes as a big-endian integer, so that the
 * unsigned order of two words is memcmp's order of their bytes.  The
 * barrier keeps the loads apart from the byte swap: with -mmovbe compilers
 * fuse the two into movbe, which is not on the allow-list.
 */
static inline __attribute__((__always_inline__)) uint64_t
ml_ct_load64be(const unsigned char *p)
{
    return ml_be64(ml_ct_barrier(ml_load64(p)));
}

/* The big-endian word of p[0..n), 1 <= n <= 8, composed of its first and
 * last 4 bytes from 4, else of p[0], p[n / 2] and p[n - 1] (all of them
 * for n = 3, p[1] twice for 2, p[0] three times for 1): repeated bytes
 * keep the first difference first, as in ml_load_upto8le.  Control flow
 * depends on n only. */
static inline __attribute__((__always_inline__)) uint64_t
ml_ct_load_upto8be(const unsigned char *p, size_t n)
{
    if (n >= 4) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        return (uint64_t)ml_load32(p) << 32 | ml_load32(p + n - 4);
#else
        return ml_be64(
            ml_ct_barrier(ml_load32(p) | (uint64_t)ml_load32(p + n - 4) << 32));
#endif
    }
    return (uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 | p[n - 1];
}

/* -1, 0, 1 as x <, ==, > y (unsigned), in portable C. */
static inline __attribute__((__always_inline__)) int ml_ct_cmp64_c(uint64_t x, uint64_t y)
{
    return (int)((int64_t)ml_ct_nonzero(x ^ y) - 2 * (int64_t)ml_ct_lt(x, y));
}

#endif /* MEMLANE_CT_H */
