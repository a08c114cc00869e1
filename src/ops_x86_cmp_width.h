/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The compare blocks of one vector width: a template that ops_x86_cmp.h
 * includes once per width (no include guard on purpose).  Before each
 * inclusion it defines:
 *   MLC_W              the width in bytes (16, 32)
 *   MLC_VEC            the vector type (__m128i, __m256i)
 *   MLC_MASK2          an unsigned type of at least 2W bits
 *   MLC_LOADU(p)       unaligned load of one vector
 *   MLC_LOADA(p)       aligned load of one vector
 *   MLC_CMPEQ(a, b)    byte equality: 0xff where equal, else 0
 *   MLC_AND(a, b)      bitwise and
 *   MLC_MOVEMASK(v)    the top bit of each byte, bit i = byte i
 * and gets, for W = MLC_W ("ne" masks: bit i set where p[i] != q[i]):
 *   ml_ldW(p)                  one vector
 *   ml_eqW(p, q)               equality vector of W bytes
 *   ml_eqW_aligned_p(p, q)     the same with p aligned to W (its load
 *                              folds into the compare)
 *   ml_and4_W(e0, e1, e2, e3)  AND of four equality vectors, so that a
 *                              group is tested with one movemask
 *   ml_eqWx4(p, q)             the same ANDed over 4W consecutive bytes
 *   ml_eqWx4_aligned_p(p, q)   the same with p aligned to W
 *   ml_ne_ofW(e)               the "ne" mask of an equality vector
 *   ml_neW(p, q)               the "ne" mask of W bytes
 *   ml_neW_head_tail(p, q, n)  W <= n <= 2W: head and tail vector, the
 *                              tail's mask shifted to its offset (the
 *                              overlap ORs equal bits)
 *   ml_neWx2(p, q)             2W consecutive bytes as one mask
 */
#if !defined(MLC_W)
#error "define MLC_W and the rest before including ops_x86_cmp_width.h"
#endif

#define MLC_CAT_(a, b, c) a##b##c
#define MLC_CAT(a, b, c) MLC_CAT_(a, b, c)
/* MLC_FN(ne, _head_tail) is ml_ne16_head_tail where MLC_W is 16. */
#define MLC_FN(pre, post) MLC_CAT(ml_##pre, MLC_W, post)
/* The low W bits set: the "ne" mask of W equal bytes inverted. */
#define MLC_ONES ((uint32_t)(((uint64_t)1 << MLC_W) - 1))

static inline MLC_VEC MLC_FN(ld, )(const unsigned char *p) { return MLC_LOADU(p); }

static inline MLC_VEC MLC_FN(eq, )(const unsigned char *p, const unsigned char *q)
{
    return MLC_CMPEQ(MLC_FN(ld, )(p), MLC_FN(ld, )(q));
}

static inline MLC_VEC MLC_FN(eq, _aligned_p)(const unsigned char *p,
                                             const unsigned char *q)
{
    return MLC_CMPEQ(MLC_LOADA(p), MLC_FN(ld, )(q));
}

static inline MLC_VEC MLC_FN(and4_, )(MLC_VEC e0, MLC_VEC e1, MLC_VEC e2, MLC_VEC e3)
{
    return MLC_AND(MLC_AND(e0, e1), MLC_AND(e2, e3));
}

static inline MLC_VEC MLC_FN(eq, x4)(const unsigned char *p, const unsigned char *q)
{
    return MLC_FN(and4_, )(MLC_FN(eq, )(p, q), MLC_FN(eq, )(p + MLC_W, q + MLC_W),
                           MLC_FN(eq, )(p + 2 * MLC_W, q + 2 * MLC_W),
                           MLC_FN(eq, )(p + 3 * MLC_W, q + 3 * MLC_W));
}

static inline MLC_VEC MLC_FN(eq, x4_aligned_p)(const unsigned char *p,
                                               const unsigned char *q)
{
    return MLC_FN(and4_, )(MLC_FN(eq, _aligned_p)(p, q),
                           MLC_FN(eq, _aligned_p)(p + MLC_W, q + MLC_W),
                           MLC_FN(eq, _aligned_p)(p + 2 * MLC_W, q + 2 * MLC_W),
                           MLC_FN(eq, _aligned_p)(p + 3 * MLC_W, q + 3 * MLC_W));
}

static inline uint32_t MLC_FN(ne_of, )(MLC_VEC e)
{
    return (uint32_t)MLC_MOVEMASK(e) ^ MLC_ONES;
}

static inline uint32_t MLC_FN(ne, )(const unsigned char *p, const unsigned char *q)
{
    return MLC_FN(ne_of, )(MLC_FN(eq, )(p, q));
}

static inline MLC_MASK2 MLC_FN(ne, _head_tail)(const unsigned char *p,
                                               const unsigned char *q, size_t n)
{
    return (MLC_MASK2)MLC_FN(ne, )(p, q) |
           (MLC_MASK2)MLC_FN(ne, )(p + n - MLC_W, q + n - MLC_W) << (n - MLC_W);
}

static inline MLC_MASK2 MLC_FN(ne, x2)(const unsigned char *p, const unsigned char *q)
{
    return (MLC_MASK2)MLC_FN(ne, )(p, q) | (MLC_MASK2)MLC_FN(ne, )(p + MLC_W, q + MLC_W)
                                               << MLC_W;
}

#undef MLC_ONES
#undef MLC_FN
#undef MLC_CAT
#undef MLC_CAT_
#undef MLC_W
#undef MLC_VEC
#undef MLC_MASK2
#undef MLC_LOADU
#undef MLC_LOADA
#undef MLC_CMPEQ
#undef MLC_AND
#undef MLC_MOVEMASK
