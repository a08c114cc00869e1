/* SPDX-License-Identifier: BSD-2-Clause */
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
 * - Selections are masked register moves or and/andn/or with a mask that
 *   depends on the bytes, or cmov (inline assembly), never the ?:
 *   operator, which compilers may compile to a branch.  A masked *load*
 *   whose mask depends on the bytes is not allowed: keep selected vectors
 *   in registers (gcc re-loads them as masked loads unless a barrier pins
 *   them).
 * - Every instruction must be on tests/ct/doit-allowlist.txt; barriers stop
 *   compilers from rewriting listed operations into unlisted ones (clang:
 *   vpermq for a vshufi64x2, vpsubb+vptest for a "differ != 0").
 * Every variant using these is checked with objdump (make check-ct-insn:
 * no call, listed instructions only; conditional branches on n only).
 */
#ifndef MEMLANE_CT_X86_H
#define MEMLANE_CT_X86_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "ct.h"
#include "ops_scalar.h"

/* Every helper of the timingsafe variants is inlined at every -O level:
 * a call would be a call inside a timingsafe variant (check 1 fails it),
 * and at -Os gcc otherwise keeps small static functions out of line. */
#define ML_CT_INLINE static inline __attribute__((__always_inline__))

/* A variant's longest size classes, tail-called: out of line under clang,
 * which otherwise saved the registers they need on entry to the variant,
 * on every call; inlined under gcc, where out of line measured slower at
 * 2-16 KiB (docs/timingsafe.md).  Check 1 follows the jump into them. */
#if defined(__clang__)
#define ML_CT_OUTLINE_CLANG static __attribute__((__noinline__))
#else
#define ML_CT_OUTLINE_CLANG ML_CT_INLINE
#endif

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
 * Sign of memcmp from disjoint "greater" (a > b) and "less" (a < b)
 * bit-sets of one sequence, bit i before bit i + 1 (bytes, or 8-byte lanes
 * already ordered among themselves).  "Greater" owns the first difference
 * exactly when it has a bit below the lowest bit of "less", that is when
 * g & (l - 1) != 0 (for l == 0 too: then any bit of g is first).  No
 * lowest-set-bit search.  Both sets empty: 0.
 */
ML_CT_INLINE int64_t ml_ct_sign_gl64(uint64_t g, uint64_t l)
{
    return (int64_t)ml_ct_nonzero(g & (l - 1)) - (int64_t)ml_ct_nonzero(l & (g - 1));
}

/* Two cmov on one condition: %[x], %[y] = %[a], %[b] when `test` (an
 * instruction setting the flags) leaves condition `cc` true.  The cmp +
 * two cmov shape of every kept-pair update below. */
#define ML_CT_CMOV2_ASM(test, cc) \
    test "\n\t" \
         "cmov" cc " %[a], %[x]\n\t" \
         "cmov" cc " %[b], %[y]"

/*
 * (*eq, *le) = (eq_new, le_new) if *eq has all its bits set, else
 * unchanged.  With "equal" bit-sets of pieces taken in address order, the
 * pair kept is the first piece's that differs.  Inline assembly because C
 * gives no guarantee here: compilers may compile ?: to a branch, and the
 * and/andn/or form costs three times the instructions.
 */
ML_CT_INLINE void ml_ct_cmov2_all_ones(uint64_t *eq, uint64_t eq_new, uint64_t *le,
                                       uint64_t le_new)
{
    __asm__(ML_CT_CMOV2_ASM("cmp $-1, %[x]", "e")
            : [x] "+r"(*eq), [y] "+r"(*le)
            : [a] "r"(eq_new), [b] "r"(le_new)
            : "cc");
}

/* Value barriers on vectors: the compiler must assume the register was
 * changed, so it can neither constant-fold a select on it nor turn the
 * select back into a branch. */
#define ML_CT_VBARRIER(v) __asm__("" : "+x"(v))
#if defined(__AVX512F__)
#define ML_CT_ZBARRIER(v) __asm__("" : "+v"(v))
#endif

/* 1 if x != 0, else 0: neg sets the carry exactly when x != 0, sbb and neg
 * turn it into 0 or 1 (three instructions; the portable (x | -x) >> 63 of
 * ct.h takes four).  `tag` is an assembler comment: size classes that
 * return through different copies keep their own, else gcc merges the
 * identical tails and the jump between them cost a cycle. */
#define ML_CT_NONZERO_CF(x, tag) \
    __extension__({ \
        uint64_t nz_x_ = (x), nz_r_; \
        __asm__("neg %1\n\tsbb %0, %0\n\tneg %0  # " tag \
                : "=r"(nz_r_), "+r"(nz_x_) \
                : \
                : "cc"); \
        (int)nz_r_; \
    })

/* 0 if m has all its low `bits` bits set (a pmovmskb of "equal" bytes
 * with every byte equal), else 1: m + 1 carries into bit `bits` exactly
 * then.  Three ALU instructions, no flags. */
ML_CT_INLINE int ml_ct_not_all_ones(uint64_t m, unsigned bits)
{
    return (int)(((ml_ct_barrier(m) + 1) >> bits) ^ 1);
}
/* The same in inline assembly with an assembler comment `tag` (bits a
 * literal), for size classes that return through copies of their own
 * (see ML_CT_NONZERO_CF). */
#define ML_CT_NOT_ALL_ONES_TAG(m, bits, tag) \
    __extension__({ \
        uint64_t na_m_ = (m); \
        __asm__("add $1, %0\n\tshr $" #bits ", %0\n\txor $1, %0  # " tag \
                : "+r"(na_m_) \
                : \
                : "cc"); \
        (int)na_m_; \
    })

/* ---- vector blocks of the timingsafe variants, one group per width ---- */

ML_CT_INLINE __m128i ml_ct_ld16(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

ML_CT_INLINE __m128i ml_ct_xor16(const unsigned char *p, const unsigned char *q)
{
    return _mm_xor_si128(ml_ct_ld16(p), ml_ct_ld16(q));
}

/* All ones in the bytes where p and q are equal, 0 where they differ. */
ML_CT_INLINE __m128i ml_ct_eq16(const unsigned char *p, const unsigned char *q)
{
    return _mm_cmpeq_epi8(ml_ct_ld16(p), ml_ct_ld16(q));
}

/* 0 if v is all zero, else 1 (SSE2 has no ptest). */
ML_CT_INLINE int ml_ct_nonzero16(__m128i v)
{
    ML_CT_VBARRIER(v);
    return ml_ct_not_all_ones(
        (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())), 16);
}

#if defined(__AVX2__)
ML_CT_INLINE __m256i ml_ct_ld32(const unsigned char *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

ML_CT_INLINE __m256i ml_ct_xor32(const unsigned char *p, const unsigned char *q)
{
    return _mm256_xor_si256(ml_ct_ld32(p), ml_ct_ld32(q));
}

ML_CT_INLINE __m256i ml_ct_eq32(const unsigned char *p, const unsigned char *q)
{
    return _mm256_cmpeq_epi8(ml_ct_ld32(p), ml_ct_ld32(q));
}

/* 0 if v is all zero, else 1.  vpcmpeqb/vpmovmskb rather than vptest:
 * with only domain-neutral consumers clang picks the floating-point forms
 * (vxorps, vorps) for the whole chain, which are not on the list. */
ML_CT_INLINE int ml_ct_nonzero32(__m256i v)
{
    return ml_ct_not_all_ones(
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())), 32);
}
#endif

#if defined(__AVX512F__) && defined(__AVX512VL__)
ML_CT_INLINE __m512i ml_ct_ld64(const unsigned char *p)
{
    return _mm512_loadu_si512((const void *)p);
}

/* acc | (a ^ b) in one vpternlogq. */
ML_CT_INLINE __m256i ml_ct_or_xor32(__m256i acc, __m256i a, __m256i b)
{
    return _mm256_ternarylogic_epi64(acc, a, b, 0xf6);
}

ML_CT_INLINE __m512i ml_ct_or_xor64(__m512i acc, __m512i a, __m512i b)
{
    return _mm512_ternarylogic_epi64(acc, a, b, 0xf6);
}

/* 0 if v is all zero, else 1. */
ML_CT_INLINE int ml_ct_nonzero64(__m512i v)
{
    ML_CT_ZBARRIER(v);
    return (int)ml_ct_nonzero((uint64_t)_mm512_test_epi64_mask(v, v));
}
#endif

/* timingsafe_bcmp for n <= 16, shared by the x86 variants: the or of the
 * xors of the first and last 8 bytes from 9, of the first and last 4
 * from 4, of p[0], p[n/2] and p[n-1] below; 0 or 1.  Size classes in
 * FreeBSD's order (two branches from 9 bytes with the caller's n <= 16,
 * three from 4, four below). */
ML_CT_INLINE int ml_ct_bcmp_upto16(const unsigned char *p, const unsigned char *q,
                                   size_t n)
{
    if (n > 8)
        return ML_CT_NONZERO_CF((ml_load64(p) ^ ml_load64(q)) |
                                    (ml_load64(p + n - 8) ^ ml_load64(q + n - 8)),
                                "9-16");
    if (n >= 4)
        return ML_CT_NONZERO_CF((ml_load32(p) ^ ml_load32(q)) |
                                    (ml_load32(p + n - 4) ^ ml_load32(q + n - 4)),
                                "4-8");
    if (n == 0)
        return 0;
    return ML_CT_NONZERO_CF((uint64_t)(p[0] ^ q[0]) | (uint64_t)(p[n / 2] ^ q[n / 2]) |
                                (uint64_t)(p[n - 1] ^ q[n - 1]),
                            "1-3");
}

/* timingsafe_bcmp for 16 <= n <= 32 with SSE2: the first and last 16
 * bytes, pcmpeqb, pand and one pmovmskb. */
ML_CT_INLINE int ml_ct_bcmp16_32(const unsigned char *p, const unsigned char *q, size_t n)
{
    __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p),
                                _mm_loadu_si128((const __m128i *)(const void *)q));
    __m128i e1 =
        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n - 16)),
                       _mm_loadu_si128((const __m128i *)(const void *)(q + n - 16)));
    return ml_ct_not_all_ones((uint32_t)_mm_movemask_epi8(_mm_and_si128(e0, e1)), 16);
}

/*
 * Scalar memcmp signs, as FreeBSD's amd64 timingsafe_memcmp computes them:
 * the bytes as big-endian words (ml_ct_load64be, ct.h), whose unsigned
 * order is memcmp's.  -1, 0, 1 as x <, ==, > y for unsigned integers of
 * 64, 128 and 256 bits (x0 most significant): x - y by sub/sbb; "sbb r, r"
 * makes r = -less from the final borrow; the or of the differences is
 * "differ", which neg moves into the carry; "adc r, r" then gives
 * 2r + differ = differ - 2 * less.
 */
#define ML_CT_CMP64(x, y, tag) \
    __extension__({ \
        uint64_t c_x_ = (x), c_y_ = (y), c_r_; \
        __asm__("sub %2, %1\n\t" \
                "sbb %0, %0\n\t" \
                "neg %1\n\t" \
                "adc %0, %0" tag \
                : "=&r"(c_r_), "+r"(c_x_) \
                : "r"(c_y_) \
                : "cc"); \
        (int)c_r_; \
    })
ML_CT_INLINE int ml_ct_cmp64(uint64_t x, uint64_t y) { return ML_CT_CMP64(x, y, ""); }
/* The same for the sizes below 4, as its own code (an assembler comment
 * apart): gcc otherwise merges the two identical tails, and the jump
 * between them cost a cycle. */
ML_CT_INLINE int ml_ct_cmp64_upto3(uint64_t x, uint64_t y)
{
    return ML_CT_CMP64(x, y, "  # n < 4");
}
ML_CT_INLINE int ml_ct_cmp128(uint64_t x0, uint64_t x1, uint64_t y0, uint64_t y1)
{
    uint64_t r;
    __asm__("sub %4, %2\n\t"
            "sbb %3, %1\n\t"
            "sbb %0, %0\n\t"
            "or %2, %1\n\t"
            "neg %1\n\t"
            "adc %0, %0"
            : "=&r"(r), "+r"(x0), "+r"(x1)
            : "r"(y0), "r"(y1)
            : "cc");
    return (int)r;
}

/* The 16-byte blocks at p and q as memory operands, two words each. */
#define ML_CT_BLOCK16_OPERANDS(p, q) \
    [p0] "m"(*(const uint64_t *)(const void *)(p)), \
        [q0] "m"(*(const uint64_t *)(const void *)(q)), \
        [p1] "m"(*(const uint64_t *)(const void *)((p) + 8)), \
        [q1] "m"(*(const uint64_t *)(const void *)((q) + 8))
/* %[a], %[b] = the blocks' first word pair, or their second if the first
 * is equal. */
#define ML_CT_FIRST16_ASM \
    "mov %[p0], %[a]\n\t" \
    "mov %[q0], %[b]\n\t" \
    "cmp %[a], %[b]\n\t" \
    "cmove %[p1], %[a]\n\t" \
    "cmove %[q1], %[b]"

/*
 * Scalar timingsafe_memcmp over 16-byte blocks, walked from the end of
 * the buffers to the start (the selection FreeBSD's amd64
 * timingsafe_memcmp makes walking forwards, without its loop-carried
 * compare).  A block's first differing word pair is its first word pair if
 * that differs, else its second (cmp, then two cmove with memory
 * operands).  ml_ct_first16 starts the kept pair (*ka, *kb) there;
 * ml_ct_pick16 replaces it when that pair differs.  Walking backwards, the
 * block picked last that differs is the first that does, so the kept pair
 * ends as the first differing word pair, or an equal pair.  cmov is inline
 * assembly: C does not promise that ?: stays branch-free.
 */
ML_CT_INLINE void ml_ct_first16(const unsigned char *p, const unsigned char *q,
                                uint64_t *ka, uint64_t *kb)
{
    __asm__(ML_CT_FIRST16_ASM
            : [a] "=&r"(*ka), [b] "=&r"(*kb)
            : ML_CT_BLOCK16_OPERANDS(p, q)
            : "cc");
}
/* The block's first differing word pair (a, b) replaces the kept pair
 * when `test` leaves condition `cc` true: one asm statement, so that the
 * compilers schedule it as one piece. */
#define ML_CT_PICK16(p, q, ka, kb, test, cc) \
    do { \
        uint64_t a_, b_; \
        __asm__(ML_CT_FIRST16_ASM "\n\t" ML_CT_CMOV2_ASM(test, cc) \
                : [x] "+r"(*(ka)), [y] "+r"(*(kb)), [a] "=&r"(a_), [b] "=&r"(b_) \
                : ML_CT_BLOCK16_OPERANDS(p, q) \
                : "cc"); \
    } while (0)
ML_CT_INLINE void ml_ct_pick16(const unsigned char *p, const unsigned char *q,
                               uint64_t *ka, uint64_t *kb)
{
    ML_CT_PICK16(p, q, ka, kb, "cmp %[a], %[b]", "ne");
}
/* The same selection walking forwards, as FreeBSD's loop does:
 * ml_ct_first16 starts the kept pair at the lowest block and
 * ml_ct_pick16_fwd replaces it while it is equal, so it ends as the pair of
 * the first block that differs.  Its chain is two instructions a block
 * (cmp of the kept pair, cmove) instead of one. */
ML_CT_INLINE void ml_ct_pick16_fwd(const unsigned char *p, const unsigned char *q,
                                   uint64_t *ka, uint64_t *kb)
{
    ML_CT_PICK16(p, q, ka, kb, "cmp %[x], %[y]", "e");
}

/* The first differing word pair of the 64 bytes at p and q (an equal pair
 * if there is none): the four blocks, from the last. */
ML_CT_INLINE void ml_ct_first64(const unsigned char *p, const unsigned char *q,
                                uint64_t *ka, uint64_t *kb)
{
    ml_ct_first16(p + 48, q + 48, ka, kb);
    ml_ct_pick16(p + 32, q + 32, ka, kb);
    ml_ct_pick16(p + 16, q + 16, ka, kb);
    ml_ct_pick16(p, q, ka, kb);
}

/* (*ka, *kb) = (a, b) if *ka == *kb, else unchanged. */
ML_CT_INLINE void ml_ct_cmov2_if_equal(uint64_t *ka, uint64_t *kb, uint64_t a, uint64_t b)
{
    __asm__(ML_CT_CMOV2_ASM("cmp %[x], %[y]", "e")
            : [x] "+r"(*ka), [y] "+r"(*kb)
            : [a] "r"(a), [b] "r"(b)
            : "cc");
}

/* Sign of memcmp for n <= 16 in general-purpose registers: the first and
 * last 8 bytes from 9, the first and last 4 from 4 (composed sequences:
 * when the head is equal, the repeated bytes of the tail are equal too, so
 * the first difference of the composition is the true one), p[0], p[n/2]
 * and p[n-1] below.  Branches on n only, as few as FreeBSD's: two from 9
 * bytes (with the caller's n <= 16), three from 4, four below. */
ML_CT_INLINE int ml_ct_memcmp_upto16(const unsigned char *p, const unsigned char *q,
                                     size_t n)
{
    if (n > 8)
        return ml_ct_cmp128(ml_ct_load64be(p), ml_ct_load64be(p + n - 8),
                            ml_ct_load64be(q), ml_ct_load64be(q + n - 8));
    if (n >= 4)
        return ml_ct_cmp64(ml_ct_load_upto8be(p, n), ml_ct_load_upto8be(q, n));
    if (n == 0)
        return 0;
    return ml_ct_cmp64_upto3(ml_ct_load_upto8be(p, n), ml_ct_load_upto8be(q, n));
}

/*
 * Sign of memcmp for 16 < n <= 64 over 16-byte blocks, as few as cover n:
 * the last block, then the blocks before it, the lowest at 0.  Every block
 * picked after one that holds the first difference holds it too or ends
 * before it, so the last differing pick has it as its first difference.
 * Control flow and addresses depend on n only.
 */
ML_CT_INLINE int ml_ct_memcmp_blocks(const unsigned char *p, const unsigned char *q,
                                     size_t n)
{
    uint64_t ka, kb;
    ml_ct_first16(p + n - 16, q + n - 16, &ka, &kb);
    if (n > 32)
        ml_ct_pick16(p + n - 32, q + n - 32, &ka, &kb);
    if (n > 48)
        ml_ct_pick16(p + n - 48, q + n - 48, &ka, &kb);
    ml_ct_pick16(p, q, &ka, &kb);
    return ml_ct_cmp64(ml_be64(ka), ml_be64(kb));
}

/*
 * Sign of memcmp for n > 64: the 64-byte groups below the last multiple
 * of 64 under n, from the start (each group's first differing pair by
 * ml_ct_first64), then the 1-64 bytes above as one more group of 16-byte
 * blocks ending at n; a group's pair replaces the kept one while the kept
 * pair is equal, so the pair kept is the first differing group's.
 * Forwards, because the same groups walked backwards measured slower at
 * 32-64 KiB (docs/timingsafe-results.md).
 */
ML_CT_INLINE int ml_ct_memcmp_groups(const unsigned char *p, const unsigned char *q,
                                     size_t n)
{
    uint64_t ka, kb, ga, gb;
    size_t top = 64 * ((n - 1) / 64); /* the last multiple of 64 below n */
    ml_ct_first64(p, q, &ka, &kb);
    for (size_t off = 64; off < top; off += 64) {
        ml_ct_first64(p + off, q + off, &ga, &gb);
        ml_ct_cmov2_if_equal(&ka, &kb, ga, gb);
    }
    size_t rest = n - top;
    ml_ct_first16(p + n - 16, q + n - 16, &ga, &gb);
    if (rest > 16)
        ml_ct_pick16(p + n - 32, q + n - 32, &ga, &gb);
    if (rest > 32)
        ml_ct_pick16(p + n - 48, q + n - 48, &ga, &gb);
    if (rest > 48)
        ml_ct_pick16(p + n - 64, q + n - 64, &ga, &gb);
    ml_ct_cmov2_if_equal(&ka, &kb, ga, gb);
    return ml_ct_cmp64(ml_be64(ka), ml_be64(kb));
}

/*
 * Sign of memcmp for n > 16 as FreeBSD's amd64 timingsafe_memcmp walks it:
 * the 16-byte blocks at 0, 16, 32, ... below n - 16, then the one at
 * n - 16, forwards with ml_ct_pick16_fwd.  One loop, so random lengths cost
 * one mispredicted branch (its exit) where ml_ct_memcmp_groups' size
 * classes cost about two; at fixed lengths above 512 bytes its unrolled
 * groups are faster (docs/timingsafe-results.md).
 */
ML_CT_INLINE int ml_ct_memcmp_fwd16(const unsigned char *p, const unsigned char *q,
                                    size_t n)
{
    uint64_t ka, kb;
    ml_ct_first16(p, q, &ka, &kb);
    if (n > 32) {
        /* the loop's first block out of it: 33-48 bytes run no loop */
        ml_ct_pick16_fwd(p + 16, q + 16, &ka, &kb);
        for (size_t end = 48; end < n; end += 16) {
            /* opaque: gcc otherwise walks two pointers instead of one
             * index, which measured slower (docs/timingsafe-results.md) */
            __asm__("" : "+r"(end));
            ml_ct_pick16_fwd(p + end - 16, q + end - 16, &ka, &kb);
        }
    }
    ml_ct_pick16_fwd(p + n - 16, q + n - 16, &ka, &kb);
    return ml_ct_cmp64(ml_be64(ka), ml_be64(kb));
}

#endif /* MEMLANE_CT_X86_H */
