/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * x86-64 building blocks for memcmp and bcmp, composed by the variants
 * into a size ladder (in the spirit of LLVM libc's memory_utils):
 *
 *   - "ne" masks: bit i set where p[i] != q[i], for one vector (16, 32 or
 *     64 bytes) or for a head/tail pair of vectors covering [0, n), where
 *     the tail mask is shifted by its offset so that bit i still stands
 *     for byte i (the overlap ORs equal bits, so nothing is lost);
 *   - a masked 0..64-byte compare (AVX-512): the load mask comes from n,
 *     so no byte outside [p, p+n) is touched, not even within the page;
 *   - scalar compares of 0..16 bytes from overlapping little-endian words:
 *     xor and a bit scan give the first differing byte and so the exact
 *     difference memcmp returns (a big-endian movbe/bswap compare would
 *     give only the sign, and the byte would still have to be found);
 *   - "first of": pick the first vector with a difference by conditional
 *     moves (cmov, in asm) rather than a chain of branches, since with a
 *     random mismatch position that chain is mispredicted half the time.
 *
 * Loads stay inside [p, p+n) except where ML_READ_AROUND allows whole
 * vectors on the buffers' pages.  memcmp returns the exact difference
 * p[i] - q[i] of the first differing bytes (read as unsigned char), found
 * from a mask by a bit scan and read back from memory.
 *
 * The file is included by variants built with different target flags;
 * each group below exists only when its instructions are enabled.  The
 * blocks that 16- and 32-byte vectors share (load, equality, "ne" masks,
 * head/tail pairs, groups of four) are written once, in the width
 * template ops_x86_cmp_width.h, included here once per width.
 */
#ifndef MEMLANE_OPS_X86_CMP_H
#define MEMLANE_OPS_X86_CMP_H

#include <stddef.h>
#include <stdint.h>
#include <immintrin.h>

#include "ops_scalar.h"

#define ML_LIKELY(x) __builtin_expect(!!(x), 1)
#define ML_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* always_inline under clang only, for a helper with an out parameter:
 * clang left such helpers out of line, so the variant's entry kept a
 * stack frame (pushes and pops on every call, the smallest sizes
 * included); gcc inlines them already, and forcing it there re-orders
 * gcc's blocks, which moves these timings by a cycle either way. */
#if defined(__clang__)
#define ML_INLINE_CLANG __attribute__((always_inline))
#else
#define ML_INLINE_CLANG
#endif

/*
 * Reading around the buffers.  A compare may read bytes outside [p, p+n)
 * that lie on a 4 KiB page holding some byte of the buffer, and its
 * result never depends on them (include/memlane.h): a whole vector can
 * then be loaded where n is smaller, as glibc does.  Sanitizer builds
 * compile the strictly in-bounds code instead, since their checks cannot
 * tell such reads from bugs; under valgrind the dispatcher passes these
 * variants over (src/dispatch.c).
 */
#if defined(ML_SANITIZED)
#define ML_READ_AROUND 0
#else
#define ML_READ_AROUND 1
#endif

/* Whether `bytes` bytes from p and `bytes` bytes from q each stay on one
 * 4 KiB page.  The OR of the two page offsets is at least the larger one,
 * so this is glibc's conservative one-test form. */
static inline int ml_in_page(const void *p, const void *q, size_t bytes)
{
    return (((uintptr_t)p | (uintptr_t)q) & 4095) <= 4096 - bytes;
}

/* ---- results ---- */

/* p[i] - q[i] as unsigned bytes: the memcmp result once i is known, made
 * in the return register (eax).  Left to itself gcc 12 made the exits'
 * differences in another register and sent every exit through one shared
 * `mov; ret` block, a taken jump more each (docs/memcmp.md). */
static inline int ml_diff_at(const unsigned char *p, const unsigned char *q, size_t i)
{
    int d = (int)p[i] - (int)q[i];
    __asm__("" : "+a"(d));
    return d;
}

/* 0, the result for equal inputs, made in the return register by the
 * exit that returns it (as ml_diff_at does for differences): else gcc 12
 * sends such exits through one shared `xor; ret` block, a taken jump
 * more each (docs/memcmp.md). */
static inline int ml_equal_result(void)
{
    int z = 0;
    __asm__("" : "+a"(z));
    return z;
}

/* Bit index of the lowest set bit; m != 0. */
static inline unsigned ml_ctz64(uint64_t m) { return (unsigned)__builtin_ctzll(m); }

/*
 * (m, o) = (mk, ok) if mk != 0, without a branch.  Assembly because C
 * cannot promise it: compilers turn such ternaries into branches when
 * they like, and with a random mismatch position that branch is
 * mispredicted about half the time.
 */
static inline void ml_take_if_nonzero(uint64_t *m, size_t *o, uint64_t mk, size_t ok)
{
    __asm__("test %[mk], %[mk]\n\t"
            "cmovnz %[mk], %[m]\n\t"
            "cmovnz %[ok], %[o]"
            : [m] "+r"(*m), [o] "+r"(*o)
            : [mk] "r"(mk), [ok] "rm"(ok)
            : "cc");
}

/*
 * First difference among vectors whose masks mk cover the bytes from
 * offset ok on, where each vector starts no later than the end of the
 * ones before it (true of consecutive vectors and of an overlapping
 * tail): the first vector with a nonzero mask holds the first difference,
 * and its offset plus the mask's lowest set bit is that position.  Some
 * mask is nonzero.
 */
static inline size_t ml_first_of2(uint64_t m0, size_t o0, uint64_t m1, size_t o1)
{
    ml_take_if_nonzero(&m1, &o1, m0, o0);
    return o1 + ml_ctz64(m1);
}

static inline size_t ml_first_of4(uint64_t m0, size_t o0, uint64_t m1, size_t o1,
                                  uint64_t m2, size_t o2, uint64_t m3, size_t o3)
{
    ml_take_if_nonzero(&m3, &o3, m2, o2);
    ml_take_if_nonzero(&m3, &o3, m1, o1);
    ml_take_if_nonzero(&m3, &o3, m0, o0);
    return o3 + ml_ctz64(m3);
}

/* ---- 0..16 bytes, scalar, overlapping little-endian words ---- */

/* memcmp of n <= 16 bytes: one or two word pairs (the second overlapping
 * the first), the first differing pair picked without a branch. */
static inline int ml_memcmp_upto16(const unsigned char *p, const unsigned char *q,
                                   size_t n)
{
    if (n >= 8) {
        uint64_t x0 = ml_load64le(p), y0 = ml_load64le(q);
        uint64_t x1 = ml_load64le(p + n - 8), y1 = ml_load64le(q + n - 8);
        if (((x0 ^ y0) | (x1 ^ y1)) == 0)
            return 0;
        /* The head pair if it differs, else the tail pair. */
        uint64_t d = x1 ^ y1, x = x1;
        ml_take_if_nonzero(&d, &x, x0 ^ y0, x0);
        return ml_diff_le64(x, x ^ d);
    }
    if (n == 0)
        return 0;
    /* 1..7 bytes: head and tail pieces composed into one word (see
     * ml_load_upto8le: the composition keeps the first difference first). */
    uint64_t x = ml_load_upto8le(p, n), y = ml_load_upto8le(q, n);
    return x == y ? 0 : ml_diff_le64(x, y);
}

/* bcmp of n <= 16 bytes: nonzero iff they differ. */
static inline int ml_bcmp_upto16(const unsigned char *p, const unsigned char *q, size_t n)
{
    if (n >= 8)
        return ((ml_load64(p) ^ ml_load64(q)) |
                (ml_load64(p + n - 8) ^ ml_load64(q + n - 8))) != 0;
    if (n >= 4)
        return ((ml_load32(p) ^ ml_load32(q)) |
                (ml_load32(p + n - 4) ^ ml_load32(q + n - 4))) != 0;
    if (n >= 2)
        return ((ml_load16(p) ^ ml_load16(q)) |
                (ml_load16(p + n - 2) ^ ml_load16(q + n - 2))) != 0;
    return n ? p[0] != q[0] : 0;
}

/* ---- prefetching, any level ---- */

/* How far ahead of a compare loop in the prefetch band (tunables.h) the
 * lines of both buffers are asked for. */
#define ML_CMP_PREFETCH_AHEAD 2048

/* prefetcht0 of the line holding byte o + ML_CMP_PREFETCH_AHEAD of each
 * buffer.  A prefetch never faults and yields no value, so an address
 * past a buffer (formed as an integer) is harmless.  Always inlined: gcc
 * 12 takes a function of prefetches alone for one without effects and
 * drops its calls. */
static inline __attribute__((__always_inline__)) void
ml_prefetch_ahead(const unsigned char *p, const unsigned char *q, size_t o)
{
    __builtin_prefetch((const void *)((uintptr_t)p + o + ML_CMP_PREFETCH_AHEAD), 0, 3);
    __builtin_prefetch((const void *)((uintptr_t)q + o + ML_CMP_PREFETCH_AHEAD), 0, 3);
}

/* The same for the four lines of the 256 bytes at o. */
static inline __attribute__((__always_inline__)) void
ml_prefetch256_ahead(const unsigned char *p, const unsigned char *q, size_t o)
{
    ml_prefetch_ahead(p, q, o);
    ml_prefetch_ahead(p, q, o + 64);
    ml_prefetch_ahead(p, q, o + 128);
    ml_prefetch_ahead(p, q, o + 192);
}

/* ---- 16-byte vectors (SSE2) ---- */
#if defined(__SSE2__)
#define MLC_W 16
#define MLC_VEC __m128i
#define MLC_MASK2 uint32_t
#define MLC_LOADU(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define MLC_LOADA(p) _mm_load_si128((const __m128i *)(const void *)(p))
#define MLC_CMPEQ(a, b) _mm_cmpeq_epi8(a, b)
#define MLC_AND(a, b) _mm_and_si128(a, b)
#define MLC_MOVEMASK(v) _mm_movemask_epi8(v)
#include "ops_x86_cmp_width.h"

#if ML_READ_AROUND
/*
 * 1 <= n <= 16 where a 16-byte vector from p or q would cross a page end
 * (ml_in_page failed): the mask of differing bytes, bit i = byte i, from
 * the 16 bytes ending at n when they stay on the page of byte n - 1 (a
 * buffer byte), else 0 with *in_bounds set: the caller compares the
 * bytes strictly inside the buffers.
 */
static inline uint32_t ml_ne_upto16_page_end(const unsigned char *p,
                                             const unsigned char *q, size_t n,
                                             int *in_bounds)
{
    *in_bounds = !ml_in_page(p + n - 16, q + n - 16, 16);
    return *in_bounds ? 0 : ml_ne16(p + n - 16, q + n - 16) >> (16 - n);
}
#endif

#endif

/* ---- 32-byte vectors (AVX2) ---- */
#if defined(__AVX2__)
#define MLC_W 32
#define MLC_VEC __m256i
#define MLC_MASK2 uint64_t
#define MLC_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define MLC_LOADA(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define MLC_CMPEQ(a, b) _mm256_cmpeq_epi8(a, b)
#define MLC_AND(a, b) _mm256_and_si256(a, b)
#define MLC_MOVEMASK(v) _mm256_movemask_epi8(v)
#include "ops_x86_cmp_width.h"

static inline __m256i ml_xor32(const unsigned char *p, const unsigned char *q)
{
    return _mm256_xor_si256(ml_ld32(p), ml_ld32(q));
}

static inline int ml_any32(__m256i v) { return !_mm256_testz_si256(v, v); }

/*
 * 1 <= n <= 32, split for a fast equal path (ml_upto32_*): the whole
 * dwords by one masked load per side (vpmaskmovd: masked-off dwords are
 * not accessed), the last 1-3 bytes by byte loads at j0 <= j1 <= last,
 * clamped to n - 1 (with no partial dword they repeat byte n - 1).
 * The lane mask is a 32-byte window into eight all-ones and eight zero
 * dwords, one load from n instead of a broadcast and a compare.
 */
static inline __m256i ml_whole_dword_lanes(size_t n)
{
    static const int32_t window[16] __attribute__((aligned(64))) = {
        -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    return _mm256_loadu_si256(
        (const __m256i *)(const void *)((const char *)window + 32 - (n & ~(size_t)3)));
}

/* The whole dwords of p and q, XORed (zero where equal). */
static inline __m256i ml_upto32_dword_xor(const unsigned char *p, const unsigned char *q,
                                          size_t n)
{
    __m256i lanes = ml_whole_dword_lanes(n);
    return _mm256_xor_si256(_mm256_maskload_epi32((const int *)(const void *)p, lanes),
                            _mm256_maskload_epi32((const int *)(const void *)q, lanes));
}

/* Positions of the last 1-3 bytes (see above). */
static inline void ml_upto32_tail_at(size_t n, size_t *j0, size_t *j1, size_t *last)
{
    size_t whole = n & ~(size_t)3;
    *last = n - 1;
    *j0 = whole < *last ? whole : *last;
    *j1 = whole + 1 < *last ? whole + 1 : *last;
}

/*
 * 0 <= n <= 32 with one branch (n == 0): the whole dwords by one masked
 * load (vpmaskmovd: masked-off dwords are not accessed and load as zero
 * on both sides), the last 1-3 bytes by byte loads at positions clamped
 * to n - 1 (with no partial dword they repeat byte n - 1, already
 * compared).  Returns the mask of differing bytes, bit i = byte i.  The
 * size ladder it replaces (0-3, 4-7, 8-16, 17-32) cost about one
 * mispredicted branch per call on random short sizes.  n >= 1.
 */
static inline uint32_t ml_ne_upto32_masked(const unsigned char *p, const unsigned char *q,
                                           size_t n)
{
    size_t whole = n & ~(size_t)3, last = n - 1;
    __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n >> 2)),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i a = _mm256_maskload_epi32((const int *)(const void *)p, lanes);
    __m256i b = _mm256_maskload_epi32((const int *)(const void *)q, lanes);
    uint32_t m = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, b));
    size_t j0 = whole < last ? whole : last, j1 = whole + 1 < last ? whole + 1 : last;
    m |= (uint32_t)(p[j0] != q[j0]) << j0;
    m |= (uint32_t)(p[j1] != q[j1]) << j1;
    m |= (uint32_t)(p[last] != q[last]) << last;
    return m;
}
#endif

/* ---- 64-byte vectors (AVX-512 BW) ---- */
#if defined(__AVX512BW__)
static inline __m512i ml_ld64(const unsigned char *p) { return _mm512_loadu_si512(p); }

static inline __m512i ml_xor64(const unsigned char *p, const unsigned char *q)
{
    return _mm512_xor_si512(ml_ld64(p), ml_ld64(q));
}

static inline uint64_t ml_nz64(__m512i v) { return _mm512_test_epi8_mask(v, v); }

static inline uint64_t ml_ne64(const unsigned char *p, const unsigned char *q)
{
    return _mm512_cmpneq_epu8_mask(ml_ld64(p), ml_ld64(q));
}

/* 0 <= n <= 64 bytes in one masked compare: the mask from n keeps both
 * loads inside the buffers (masked-off bytes are not accessed and cannot
 * fault); masked-off lanes load as zero on both sides and compare equal. */
static inline uint64_t ml_ne64_masked(const unsigned char *p, const unsigned char *q,
                                      size_t n)
{
    __mmask64 k = _bzhi_u64(~(uint64_t)0, (unsigned)n);
    return _mm512_cmpneq_epu8_mask(_mm512_maskz_loadu_epi8(k, p),
                                   _mm512_maskz_loadu_epi8(k, q));
}

/* 0 <= n <= 32 bytes in one masked 32-byte compare, as ml_ne64_masked:
 * on Zen 5 a masked 64-byte load costs more than a 32-byte one, most
 * where its whole vector spans two cache lines (docs/memcmp.md). */
static inline uint32_t ml_ne32_masked(const unsigned char *p, const unsigned char *q,
                                      size_t n)
{
    __mmask32 k = _bzhi_u32(~0u, (unsigned)n);
    return _mm256_cmpneq_epu8_mask(_mm256_maskz_loadu_epi8(k, p),
                                   _mm256_maskz_loadu_epi8(k, q));
}

/* Whether the 128 bytes at o differ: two 64-byte vectors, their XORs
 * ORed (vpternlog), one test. */
static inline int ml_differ128(const unsigned char *p, const unsigned char *q, size_t o)
{
    return ml_nz64(_mm512_or_si512(ml_xor64(p + o, q + o),
                                   ml_xor64(p + o + 64, q + o + 64))) != 0;
}

/* Whether the 256 bytes at o differ: four 64-byte vectors, one test. */
static inline int ml_differ256(const unsigned char *p, const unsigned char *q, size_t o)
{
    return ml_nz64(_mm512_or_si512(
               _mm512_or_si512(ml_xor64(p + o, q + o), ml_xor64(p + o + 64, q + o + 64)),
               _mm512_or_si512(ml_xor64(p + o + 128, q + o + 128),
                               ml_xor64(p + o + 192, q + o + 192)))) != 0;
}

/*
 * Whether the 256 bytes at o differ, read as eight 32-byte vectors.
 * Where the two buffers outgrow L1 this beat the 64-byte loads of
 * ml_differ256 (as glibc's evex loop of 32-byte vectors does), but for
 * calls back to back at 256-512 KiB; in L1 the 64-byte loads win
 * (docs/memcmp.md).
 */
static inline int ml_differ256_by32(const unsigned char *p, const unsigned char *q,
                                    size_t o)
{
    __m256i a = _mm256_ternarylogic_epi64(ml_xor32(p + o, q + o),
                                          ml_xor32(p + o + 32, q + o + 32),
                                          ml_xor32(p + o + 64, q + o + 64), 0xfe);
    __m256i b = _mm256_ternarylogic_epi64(ml_xor32(p + o + 96, q + o + 96),
                                          ml_xor32(p + o + 128, q + o + 128),
                                          ml_xor32(p + o + 160, q + o + 160), 0xfe);
    __m256i c =
        _mm256_ternarylogic_epi64(a, b,
                                  _mm256_or_si256(ml_xor32(p + o + 192, q + o + 192),
                                                  ml_xor32(p + o + 224, q + o + 224)),
                                  0xfe);
    return _mm256_test_epi8_mask(c, c) != 0;
}
/* The sizes n that take it, n >= ML_BY32_MIN (measured on Zen 5, L1d
 * 48 KiB: at 28 KiB the 64-byte loads were still faster).  From L3 the
 * 64-byte loads lost where a call comes after a pause in 512-bit work
 * (docs/memcmp.md). */
#define ML_BY32_MIN ((size_t)32 << 10)

/* 32-byte vectors with EVEX encodings (AVX-512 VL), which can use
 * ymm16-31. */
static inline uint32_t ml_ne32k(const unsigned char *p, const unsigned char *q)
{
    return _mm256_cmpneq_epu8_mask(ml_ld32(p), ml_ld32(q));
}
#endif

#endif /* MEMLANE_OPS_X86_CMP_H */
