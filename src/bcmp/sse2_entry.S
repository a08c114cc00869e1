/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, SSE2: the entry, 0..256 bytes; above, sse2.c's loop
 * (ml_bcmp_sse2_above256).  memcmp's entry (src/memcmp/sse2_entry.S)
 * with bcmp's result.
 *
 * Assembly for the reason memcmp's entry is: on Zen 3 each branch on the
 * way costs, and gcc's layout of the C ladder had more of them than
 * glibc's code (docs/memcmp.md, "bcmp sse2 on Zen 3").  The result is any
 * nonzero value where the bytes differ, so the last test of each class
 * returns the mask of equal bytes minus 0xffff (0 if all equal) as it is,
 * and the groups memcmp tests apart to locate a difference are tested
 * together where no early exit is lost:
 *
 *     0..16    one whole vector when both stay on their page, the bits
 *              from n on shifted out; else ml_bcmp_sse2_page_end (C)
 *    17..      the head vector alone, then
 *    17..32    the vector ending at n
 *    33..64    the second vector and the two ending at n
 *    65..      the first 64 bytes, then the two (65..96) or four
 *              (97..128) ending at n
 *   129..256   the next 64 bytes (and from 193 B the 64 after them),
 *              then the two or four ending at n, as many as the bytes
 *              left need
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
	/* The head alone, as memcmp: inputs that differ early leave after
	 * reading little */
	EQ16	0, %xmm0, %xmm1
	RETURN_IF_DIFFER %xmm0
	cmp	$32, %rdx
	ja	.Labove32
	EQ16_END -16, %xmm1, %xmm2	/* 17..32: the tail */
	RETURN_MASK %xmm1

	.p2align 6
.Labove32:
	EQ16	16, %xmm1, %xmm2
	cmp	$64, %rdx
	ja	.Labove64
	LAST2	%xmm2, %xmm3, %xmm4, %xmm5, drop	/* 33..64 */
	pand	%xmm1, %xmm4
	RETURN_MASK %xmm4

	.p2align 6
.Labove64:
	EQ16	32, %xmm2, %xmm4
	EQ16	48, %xmm3, %xmm5
	pand	%xmm2, %xmm1		/* bytes 16..63 (the head is tested) */
	pand	%xmm3, %xmm1
	RETURN_IF_DIFFER %xmm1
	cmp	$96, %rdx
	ja	.Labove96
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3, drop	/* 65..96 */
	RETURN_MASK %xmm2

	.p2align 6
.Labove96:
	cmp	$128, %rdx
	ja	.Labove128
	/* 97..128 */
	LAST4	drop
	RETURN_MASK %xmm4

	.p2align 6
.Labove128:
	EQ64	64
	RETURN_IF_DIFFER %xmm4
	cmp	$192, %rdx
	ja	.Labove192
	cmp	$160, %rdx
	ja	.Llast4
.Llast2:
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3, drop
	RETURN_MASK %xmm2

	.p2align 6
.Labove192:
	cmp	$256, %rdx
	ja	ml_bcmp_sse2_above256
	EQ64	128
	RETURN_IF_DIFFER %xmm4
	cmp	$224, %rdx
	jbe	.Llast2
.Llast4:
	LAST4	drop
	RETURN_MASK %xmm4

	.p2align 4
.Lreturn:				/* eax: nonzero */
	ret
	.size	memlane_bcmp_sse2, .-memlane_bcmp_sse2

#endif

	.section .note.GNU-stack, "", @progbits
