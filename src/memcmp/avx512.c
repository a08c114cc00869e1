/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, AVX-512 (BW): 64-byte vectors, compares into mask registers.
 *
 * Size ladder (every load inside [a, a+n)):
 *     0..32    one masked 32-byte compare, the load mask made from n
 *    33..64    head + tail 32-byte vector
 *    65..      the first vector alone, right after the size tests that
 *              reach it, then
 *    65..128   the vector ending at n
 *   129..      the second vector alone, then
 *   129..256   the two ending at n
 *   257..      two per iteration on p aligned to 64 (a pair's two compare
 *              masks tested at once, the first nonzero one picked by
 *              cmov), to n or to about 1 KiB, then
 *   257..1024  the one or two ending at n
 *   1025..     four per iteration (read as eight 32-byte vectors from 32
 *              KiB on, except in the prefetch band of tunables.h, where
 *              the lines 2 KiB ahead are asked for), then the four ending
 *              at n (bcmp's long path);
 *              a group that differs is located by memcmp_locate256 (cold)
 * Upper register state: with gcc, mk/library.mk reserves xmm0-15 for this
 * file, so only zmm16-31 are used, which leave no dirty upper state and
 * need no vzeroupper (a cost on every call).  Other compilers use zmm0-15
 * and put a vzeroupper before each return.
 */
#include "internal.h"
#include "ops_x86_cmp.h"
#include "tunables.h"

#if ML_READ_AROUND
/* The AVX2 variant's assembly from its third vector on (avx2_entry.S):
 * 128 < n, the first 64 bytes equal. */
ML_ASM_PART int ml_memcmp_avx2_from129(const void *a, const void *b, size_t n);
#endif

/*
 * The first difference in [o, o+256), which holds one, the bytes before o
 * being equal; the byte read back.  Out of line and cold, so that the
 * equal path of the loops above 1 KiB only ORs XORs and tests once per
 * group.  The 128-byte half that differs, then its two 64-byte compares,
 * the first nonzero mask picked by cmov (no branch to mispredict on
 * random positions).
 */
static __attribute__((noinline, cold)) int
memcmp_locate256(const unsigned char *p, const unsigned char *q, size_t o)
{
    if (!ml_differ128(p, q, o))
        o += 128;
    size_t at =
        ml_first_of2(ml_ne64(p + o, q + o), o, ml_ne64(p + o + 64, q + o + 64), o + 64);
    return ml_diff_at(p, q, at);
}

/* n in the prefetch band (tunables.h), the bytes before i found equal,
 * p + i aligned: 256 bytes a test as above 1 KiB, the lines 2 KiB ahead
 * asked for while ml_cmp_prefetches confirms the band. */
static __attribute__((noinline)) int
memcmp_prefetching(const unsigned char *p, const unsigned char *q, size_t n, size_t i)
{
    int prefetch = ml_cmp_prefetches(n);
    for (; i < n - 256; i += 256) {
        if (prefetch)
            ml_prefetch256_ahead(p, q, i);
        if (ML_UNLIKELY(ml_differ256(p, q, i)))
            return memcmp_locate256(p, q, i);
    }
    return ML_LIKELY(!ml_differ256(p, q, n - 256)) ? 0 : memcmp_locate256(p, q, n - 256);
}

/* The 128 bytes at o: 0 if equal, else the difference at their first
 * differing byte.  Two compares into masks and one kortest (an XOR/OR
 * group test located out of line was slower: docs/memcmp.md). */
static inline ML_INLINE_CLANG int memcmp_pair(const unsigned char *p,
                                              const unsigned char *q, size_t o)
{
    uint64_t m0 = ml_ne64(p + o, q + o), m1 = ml_ne64(p + o + 64, q + o + 64);
    if (ML_LIKELY(_kortestz_mask64_u8(m0, m1)))
        return 0;
    return ml_diff_at(p, q, ml_first_of2(m0, o, m1, o + 64));
}

/* n > 256, the first 128 bytes found equal.  Above 1 KiB, after the pairs,
 * as bcmp_long (bcmp/avx512.c), a group that differs located by
 * memcmp_locate256. */
static int memcmp_long(const unsigned char *p, const unsigned char *q, size_t n)
{
    size_t i = 128 - ((uintptr_t)p & 63);
    if (n > 1024) {
        /* Pairs up to about 1 KiB first: a difference there is located in
         * place, not by memcmp_locate256.  A loop of its own: one loop for
         * both classes, its end a select, was slower at 257 B-1 KiB
         * (docs/memcmp.md). */
        do {
            int d = memcmp_pair(p, q, i);
            if (ML_UNLIKELY(d))
                return d;
            i += 128;
        } while (i < 1024 - 128);
        if (n >= ML_CMP_PREFETCH_MIN && ml_cmp_in_band(n))
            return memcmp_prefetching(p, q, n, i);
        if (n >= ML_BY32_MIN) {
            for (; i < n - 256; i += 256)
                if (ML_UNLIKELY(ml_differ256_by32(p, q, i)))
                    return memcmp_locate256(p, q, i);
            return ML_LIKELY(!ml_differ256_by32(p, q, n - 256))
                       ? 0
                       : memcmp_locate256(p, q, n - 256);
        }
        for (; i < n - 256; i += 256)
            if (ML_UNLIKELY(ml_differ256(p, q, i)))
                return memcmp_locate256(p, q, i);
        return ML_LIKELY(!ml_differ256(p, q, n - 256)) ? 0
                                                       : memcmp_locate256(p, q, n - 256);
    }
    do {
        int d = memcmp_pair(p, q, i);
        if (ML_UNLIKELY(d))
            return d;
        i += 128;
    } while (i < n - 128);
    /* The last 1..128 bytes: as few vectors as cover them, ending at n
     * (always two was slower at 257-320 B: docs/memcmp.md). */
    if (n - i <= 64) {
        uint64_t m = ml_ne64(p + n - 64, q + n - 64);
        if (ML_LIKELY(m == 0))
            return 0;
        return ml_diff_at(p + n - 64, q + n - 64, ml_ctz64(m));
    }
    return memcmp_pair(p, q, n - 128);
}

/* Both entries below: to 128 B the same code; above, the 64-byte code
 * above, or with ymm_above128 the AVX2 variant's. */
static inline __attribute__((always_inline)) int
memcmp_avx512(const void *a, const void *b, size_t n, int ymm_above128)
{
    const unsigned char *p = a, *q = b;
    uint64_t m;

    if (ML_LIKELY(n <= 32)) {
        m = ml_ne32_masked(p, q, n);
        /* Equal falls through to the return: one taken branch fewer. */
        if (ML_LIKELY(m == 0))
            return 0;
        return ml_diff_at(p, q, ml_ctz64(m));
    }
    if (ML_LIKELY(n <= 64)) {
        /* The masks joined in a general register before the test: a
         * kortest of the two, then the join, was 0.2-0.3 tick slower on
         * an input that differs (docs/memcmp.md). */
        uint64_t m0 = ml_ne32k(p, q), m1 = ml_ne32k(p + n - 32, q + n - 32);
        m = m0 | m1 << (n - 32);
        /* Equal returns here, not by a jump to the return above, which
         * was slower (docs/memcmp.md, "Every size warmed"). */
        if (ML_LIKELY(m == 0))
            return ml_equal_result();
        return ml_diff_at(p, q, ml_ctz64(m));
    }
    /* From 65 B the first vector, before any other size test: an early
     * difference (common where memcmp sorts or searches) reads one line of
     * each buffer and leaves, as in glibc's code.  Each class after it
     * reads the next lines in order (docs/memcmp.md, "Lines read before
     * the exit"). */
    m = ml_ne64(p, q);
    if (m)
        return ml_diff_at(p, q, ml_ctz64(m));
    if (ML_LIKELY(n <= 128)) {
        m = ml_ne64(p + n - 64, q + n - 64);
        if (ML_LIKELY(m == 0))
            return 0;
        return ml_diff_at(p + n - 64, q + n - 64, ml_ctz64(m));
    }
#if ML_READ_AROUND
    if (ymm_above128)
        return ml_memcmp_avx2_from129(p, q, n);
#else
    (void)ymm_above128;
#endif
    /* From 129 B the second vector alone: lines read in order, so that a
     * difference in the second line reads no third. */
    m = ml_ne64(p + 64, q + 64);
    if (m)
        return ml_diff_at(p + 64, q + 64, ml_ctz64(m));
    if (n <= 256)
        return memcmp_pair(p, q, n - 128);
    return memcmp_long(p, q, n);
}

/* Aligned to 2048 (the code is under 2 KiB with gcc and clang), so that
 * the hot path never straddles a 4 KiB page boundary, which was measured
 * to slow it (docs/memcmp.md); 64-byte alignment left that to the linker. */
__attribute__((aligned(2048))) int memlane_memcmp_avx512(const void *a, const void *b,
                                                         size_t n)
{
    return memcmp_avx512(a, b, n, 0);
}

/* For CPUs that run a 512-bit operation as two 256-bit halves (AMD Zen 4,
 * src/dispatch.c): above 128 B the 64-byte compares into mask registers
 * were slower there than 32-byte vectors, so those sizes go to the AVX2
 * variant's assembly (docs/memcmp.md).  Small: aligned to 256, so that it
 * too stays on one page. */
__attribute__((aligned(256))) int memlane_memcmp_avx512_ymm(const void *a, const void *b,
                                                            size_t n)
{
    return memcmp_avx512(a, b, n, 1);
}
