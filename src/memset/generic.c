/* SPDX-License-Identifier: BSD-2-Clause */
/* memset, portable C: overlapping head/tail stores for short lengths,
 * then aligned 8-byte words, four per iteration. */
#include "internal.h"
#include "ops_scalar.h"

void *memlane_memset_generic(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t v = ml_splat8(c);

    if (n < 8) {
        if (n >= 4) {
            ml_store32(d, (uint32_t)v);
            ml_store32(d + n - 4, (uint32_t)v);
        } else if (n >= 2) {
            ml_store16(d, (uint16_t)v);
            ml_store16(d + n - 2, (uint16_t)v);
        } else if (n) {
            d[0] = (unsigned char)v;
        }
        return dst;
    }

    unsigned char *end = d + n;
    ml_store64(d, v);       /* head: covers the bytes before alignment */
    ml_store64(end - 8, v); /* tail: covers the bytes after the loop */
    if (n <= 16)
        return dst;

    unsigned char *p = (unsigned char *)(((uintptr_t)d + 8) & ~(uintptr_t)7);
    for (; end - p >= 32; p += 32) {
        ml_store64(p, v);
        ml_store64(p + 8, v);
        ml_store64(p + 16, v);
        ml_store64(p + 24, v);
    }
    for (; end - p >= 8; p += 8)
        ml_store64(p, v);
    return dst;
}
