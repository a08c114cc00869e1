/*
 * Constant-time building blocks for the x86-64 timingsafe variants.
 *
 * Rules (on top of those in ct.h):
 * - A value derived from the bytes (a vector, a compare mask, a scalar
 *   mask) is only combined with vector logic/compare/min/max, mask-register
 *   moves and logic, and integer ALU ops.  It never reaches a branch, a
 *   memory address, a shift count, or one of the bit-scan family (tzcnt,
 *   bsf, lzcnt, popcnt, blsi, bzhi, ...).
 * - The lowest set bit of a mask is x & -x, with the negation behind a
 *   value barrier: with -mbmi compilers otherwise fuse the pair into blsi.
 * - "Differ" and "less than" bit-sets have bit i for byte i (the lowest bit
 *   is the lowest address), as pmovmskb and vpcmpub produce them.  The sign
 *   of memcmp is decided by whether "less than" owns the lowest "differ"
 *   bit; "less than" may also hold bits of equal bytes (a <= b), since only
 *   its bit at a differing byte is read.
 * - Selections between results are mask-and-or on barrier'ed masks, never
 *   the ?: operator, which compilers may compile to a branch.
 * Every variant using these is checked with objdump (no call, no forbidden
 * instruction, conditional branches on the length only).
 */
#ifndef MEMLANE_CT_X86_H
#define MEMLANE_CT_X86_H

#include <stdint.h>

#include "ct.h"

/* Every helper of the timingsafe variants is inlined at every -O level:
 * a call would be a call inside a timingsafe variant (check 1 fails it),
 * and at -Os gcc otherwise keeps small static functions out of line. */
#define ML_CT_INLINE static inline __attribute__((__always_inline__))

/*
 * Sign of memcmp over one (possibly composed) sequence of up to 64 bytes,
 * from its "differ" bit-set and a "less than or equal" bit-set: -1, 0 or 1.
 */
ML_CT_INLINE int64_t ml_ct_sign_of_masks(uint64_t differ, uint64_t le)
{
    /* opaque: clang otherwise turns "differ != 0" back into a vector
     * subtraction and vptest of the inputs (vpsubb, not on the list) */
    differ = ml_ct_barrier(differ);
    uint64_t first = differ & ml_ct_barrier(0 - differ); /* not blsi */
    uint64_t less = ml_ct_nonzero(first & le);
    return (int64_t)ml_ct_nonzero(differ) - 2 * (int64_t)less;
}

/*
 * Sign of memcmp from the "greater" (a > b) and "less" (a < b) bit-sets of
 * 64, 128 or 256 bytes (bit i: byte i; 128-bit halves, low half first).
 * The two sets are disjoint, so "greater" owns the first difference
 * exactly when it has a bit below the lowest bit of "less", that is when
 * g & (l - 1) != 0 with l - 1 taken over the whole width as one integer
 * (sub/sbb, no lowest-set-bit search).  Symmetrically for "less".  Both
 * sets empty: 0.
 */
typedef unsigned __int128 ml_u128;

ML_CT_INLINE uint64_t ml_ct_nonzero128(ml_u128 x)
{
    return ml_ct_nonzero((uint64_t)x | (uint64_t)(x >> 64));
}

ML_CT_INLINE int64_t ml_ct_sign_gl64(uint64_t g, uint64_t l)
{
    return (int64_t)ml_ct_nonzero(g & (l - 1)) - (int64_t)ml_ct_nonzero(l & (g - 1));
}

ML_CT_INLINE int64_t ml_ct_sign_gl128(ml_u128 g, ml_u128 l)
{
    return (int64_t)ml_ct_nonzero128(g & (l - 1)) - (int64_t)ml_ct_nonzero128(l & (g - 1));
}

ML_CT_INLINE int64_t ml_ct_sign_gl256(ml_u128 g_lo, ml_u128 g_hi, ml_u128 l_lo, ml_u128 l_hi)
{
    /* the borrow out of the low half of x - 1 is 1 exactly when it is 0 */
    ml_u128 l_hi_m1 = l_hi - (1 - ml_ct_nonzero128(l_lo));
    ml_u128 g_hi_m1 = g_hi - (1 - ml_ct_nonzero128(g_lo));
    ml_u128 g_wins = (g_lo & (l_lo - 1)) | (g_hi & l_hi_m1);
    ml_u128 l_wins = (l_lo & (g_lo - 1)) | (l_hi & g_hi_m1);
    return (int64_t)ml_ct_nonzero128(g_wins) - (int64_t)ml_ct_nonzero128(l_wins);
}

/* first if it is nonzero, else rest: the earlier of two ordered results. */
ML_CT_INLINE int64_t ml_ct_first_nonzero(int64_t first, int64_t rest)
{
    uint64_t m = ml_ct_mask_nonzero((uint64_t)first);
    return (int64_t)(((uint64_t)first & m) | ((uint64_t)rest & ~m));
}

/*
 * (*d, *l) = (d_new, l_new) if cond != 0, else unchanged: test + two
 * cmovnz.  Inline assembly because C gives no guarantee here: compilers
 * may compile ?: to a branch, and the and/andn/or form costs three times
 * the instructions in the loops that select once per 64 bytes.
 */
ML_CT_INLINE void ml_ct_cmov2_nz(uint64_t cond, uint64_t *d, uint64_t d_new,
                                  uint64_t *l, uint64_t l_new)
{
    __asm__("test %2, %2\n\tcmovnz %3, %0\n\tcmovnz %4, %1"
            : "+r"(*d), "+r"(*l)
            : "r"(cond), "r"(d_new), "r"(l_new)
            : "cc");
}

/* *d = d_new if cond != 0, else unchanged (test + cmovnz, as above). */
ML_CT_INLINE void ml_ct_cmov_nz(uint64_t cond, uint64_t *d, uint64_t d_new)
{
    __asm__("test %1, %1\n\tcmovnz %2, %0" : "+r"(*d) : "r"(cond), "r"(d_new) : "cc");
}

/* All ones if w != 0, else 0, as a 32-bit mask (for kmov). */
ML_CT_INLINE uint32_t ml_ct_mask32_nonzero(uint64_t w)
{
    return (uint32_t)ml_ct_mask_nonzero(w);
}

/* Value barriers on vectors: the compiler must assume the register was
 * changed, so it can neither constant-fold a select on it nor turn the
 * select back into a branch. */
#define ML_CT_VBARRIER(v) __asm__("" : "+x"(v))
#if defined(__AVX512F__)
#define ML_CT_ZBARRIER(v) __asm__("" : "+v"(v))
#endif

#endif /* MEMLANE_CT_X86_H */
