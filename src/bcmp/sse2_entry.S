/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, SSE2: the whole function to 16 KiB; above, sse2.c's loop
 * (ml_bcmp_sse2_above16k).  memcmp's entry (src/memcmp/sse2_entry.S),
 * test for test, with bcmp's result.
 *
 * Assembly for the reason memcmp's entry is: on Zen 3 each branch on the
 * way costs, and gcc's layout of the C ladder had more of them than
 * glibc's code (docs/memcmp.md, "bcmp sse2 on Zen 3").  The result is any
 * nonzero value where the bytes differ, so the last test of each class
 * returns the mask of equal bytes minus 0xffff (0 if all equal) as it
 * is.  Each group is tested where memcmp tests it: bytes 16..31 tested
 * with the next group instead ran slower from 97 B on (docs/memcmp.md,
 * "bcmp sse2: memcmp's tests").
 *
 *     0..16    one whole vector when both stay on their page, the bits
 *              from n on shifted out; else ml_bcmp_sse2_page_end (C)
 *    17..      the head vector alone, then
 *    17..32    the vector ending at n
 *    33..      the second vector alone, then
 *    33..64    the two ending at n
 *    65..128   the two after the first 32 bytes, then the two (65..96)
 *              or four (97..128) ending at n
 *   129..16K   64 bytes a test from p + 32, p aligned down to 16
 *              (glibc's loop, LOOP64), then the two or four ending at n,
 *              as many as the bytes left need
 * Sanitizer builds compile the strictly in-bounds C entry instead.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* eax = the mask of xmm \v minus 0xffff (0: every byte equal); return it. */
.macro RETURN_MASK v
	pmovmskb \v, %eax
	sub	$0xffff, %eax
	ret
.endm

/* The same, but return only where some byte differs. */
.macro RETURN_IF_DIFFER v
	pmovmskb \v, %eax
	sub	$0xffff, %eax
	jnz	.Lreturn
.endm

	.text
	.globl	memlane_bcmp_sse2
	ML_ASM_HIDDEN(memlane_bcmp_sse2)
	.type	memlane_bcmp_sse2, @function
	.p2align 6
memlane_bcmp_sse2:			/* p = rdi, q = rsi, n = rdx */
	_CET_ENDBR
	cmp	$16, %rdx
	ja	.Labove16
	test	%edx, %edx
	jz	.Lzero
	/* Both 16 bytes on their page; else the C path */
	JUMP_IF_PAGE_CROSS 16, ml_bcmp_sse2_page_end
	EQ16	0, %xmm0, %xmm1
	pmovmskb %xmm0, %eax
	not	%eax			/* bit i: byte i differs */
	mov	%edx, %ecx
	neg	%ecx
	shl	%cl, %eax		/* by 32 - n: the bytes from n on drop out */
	ret
.Lzero:
	xor	%eax, %eax
	ret

	.p2align 6
.Labove16:
	/* The head alone: inputs that differ early leave after reading
	 * little */
	EQ16	0, %xmm0, %xmm1
	RETURN_IF_DIFFER %xmm0
	cmp	$32, %rdx
	ja	.Labove32
	EQ16_END -16, %xmm1, %xmm2	/* 17..32: the tail */
	RETURN_MASK %xmm1

	.p2align 6
.Labove32:
	EQ16	16, %xmm0, %xmm1
	RETURN_IF_DIFFER %xmm0
	cmp	$128, %rdx		/* to the loop's line, as memcmp */
	ja	.Labove128
	cmp	$64, %rdx
	ja	.Labove64
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3, drop	/* 33..64 */
	RETURN_MASK %xmm2

	.p2align 6
.Labove64:
	EQ16	32, %xmm0, %xmm2
	EQ16	48, %xmm1, %xmm3
	pand	%xmm0, %xmm1
	pmovmskb %xmm1, %eax
	inc	%ax			/* 0: equal (as memcmp's) */
	jnz	.Lreturn
	cmp	$96, %rdx
	ja	.Labove96
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3, drop	/* 65..96 */
	RETURN_MASK %xmm2

	.p2align 6
.Labove96:
	LAST4	drop			/* 97..128 */
	RETURN_MASK %xmm4

	.p2align 6
.Labove128:
	/* Above 16 KiB, sse2.c's loop (the buffers outgrow L1 there) */
	cmp	$16384, %rdx
	ja	ml_bcmp_sse2_above16k
	LOOP64	.Lreturn, .Llast2
	LAST4	drop
	RETURN_MASK %xmm4
.Llast2:
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3, drop
	RETURN_MASK %xmm2

	.p2align 4
.Lreturn:				/* eax: nonzero */
	ret
	.size	memlane_bcmp_sse2, .-memlane_bcmp_sse2

#endif

	.section .note.GNU-stack, "", @progbits
