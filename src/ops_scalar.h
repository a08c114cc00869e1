/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Portable scalar building blocks: unaligned loads and stores of 2, 4 and
 * 8 bytes that the compiler turns into single moves, little-endian
 * ordered loads (so byte i of memory is bits 8i..8i+7 on every target),
 * the "compose" loads that cover 1..8 bytes without a byte loop by
 * overlapping a head and a tail piece, and the memcmp result of two
 * differing little-endian words.
 */
#ifndef MEMLANE_OPS_SCALAR_H
#define MEMLANE_OPS_SCALAR_H

#include <stddef.h>
#include <stdint.h>

typedef uint16_t ml_u16u __attribute__((__may_alias__, __aligned__(1)));
typedef uint32_t ml_u32u __attribute__((__may_alias__, __aligned__(1)));
typedef uint64_t ml_u64u __attribute__((__may_alias__, __aligned__(1)));

static inline __attribute__((__always_inline__)) uint16_t ml_load16(const void *p)
{
    return *(const ml_u16u *)p;
}
static inline __attribute__((__always_inline__)) uint32_t ml_load32(const void *p)
{
    return *(const ml_u32u *)p;
}
static inline __attribute__((__always_inline__)) uint64_t ml_load64(const void *p)
{
    return *(const ml_u64u *)p;
}
static inline __attribute__((__always_inline__)) void ml_store16(void *p, uint16_t v)
{
    *(ml_u16u *)p = v;
}
static inline __attribute__((__always_inline__)) void ml_store32(void *p, uint32_t v)
{
    *(ml_u32u *)p = v;
}
static inline __attribute__((__always_inline__)) void ml_store64(void *p, uint64_t v)
{
    *(ml_u64u *)p = v;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline __attribute__((__always_inline__)) uint16_t ml_load16le(const void *p)
{
    return __builtin_bswap16(ml_load16(p));
}
static inline __attribute__((__always_inline__)) uint32_t ml_load32le(const void *p)
{
    return __builtin_bswap32(ml_load32(p));
}
static inline __attribute__((__always_inline__)) uint64_t ml_load64le(const void *p)
{
    return __builtin_bswap64(ml_load64(p));
}
#else
static inline __attribute__((__always_inline__)) uint16_t ml_load16le(const void *p)
{
    return ml_load16(p);
}
static inline __attribute__((__always_inline__)) uint32_t ml_load32le(const void *p)
{
    return ml_load32(p);
}
static inline __attribute__((__always_inline__)) uint64_t ml_load64le(const void *p)
{
    return ml_load64(p);
}
#endif

/* A word loaded from memory, as the big-endian integer of its bytes. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline __attribute__((__always_inline__)) uint64_t ml_be64(uint64_t v)
{
    return v;
}
#else
static inline __attribute__((__always_inline__)) uint64_t ml_be64(uint64_t v)
{
    return __builtin_bswap64(v);
}
#endif

/* The byte c repeated in every byte of a word. */
static inline __attribute__((__always_inline__)) uint64_t ml_splat8(int c)
{
    return (uint64_t)(unsigned char)c * 0x0101010101010101u;
}

/*
 * Bytes p[0..n), 1 <= n <= 8, gathered little-endian into one word as the
 * sequence p[0..k) ++ p[n-k..n) with k = 4, 2 or 1 (n < 8) or the word
 * itself (n == 8).  Repeated bytes of the overlap do not change which
 * position of two such words differs first, nor the order of the bytes
 * there, so comparisons on composed words give memcmp's answer.  Control
 * flow depends on n only.
 */
static inline __attribute__((__always_inline__)) uint64_t
ml_load_upto8le(const unsigned char *p, size_t n)
{
    if (n >= 8)
        return ml_load64le(p);
    if (n >= 4)
        return ml_load32le(p) | (uint64_t)ml_load32le(p + n - 4) << 32;
    if (n >= 2)
        return ml_load16le(p) | (uint64_t)ml_load16le(p + n - 2) << 16;
    return p[0];
}

/* x != y, little-endian words: the difference of their first differing
 * bytes (the lowest differing byte of the words), as memcmp returns it. */
static inline __attribute__((__always_inline__)) int ml_diff_le64(uint64_t x, uint64_t y)
{
    unsigned shift = (unsigned)__builtin_ctzll(x ^ y) & ~7u;
    return (int)((x >> shift) & 0xff) - (int)((y >> shift) & 0xff);
}

#endif /* MEMLANE_OPS_SCALAR_H */
