/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, SSE2: the whole function to 16 KiB; above, sse2.c's loop
 * (ml_memcmp_sse2_above16k).
 *
 * Assembly because C cannot pin where the blocks go, and here the layout
 * decides the speed: on Zen 3 each taken branch on the way costs even at
 * a fixed size (docs/memcmp.md, "sse2 on Zen 3"), and gcc's layout of the
 * C ladder sent 1..16 B through two of them.  0..16 B fall through from
 * the entry, 17..32 B from the line the entry's one taken branch leads
 * to; each class after returns from a line of its own.  The line of 33 B
 * and up tests 128 before 64, so that 129 B and up reach the loop by one
 * taken branch from it (by way of the 65 B line, one more, they ran
 * slower: docs/memcmp.md).
 *
 *     0..16    one whole vector when both stay on their page, a
 *              difference from n on not counted; else
 *              ml_memcmp_sse2_page_end (C)
 *    17..      the head vector alone, then
 *    17..32    the vector ending at n
 *    33..      the second vector, then
 *    33..64    the two ending at n
 *    65..128   the two after the first 32 bytes, then the two (65..96)
 *              or four (97..128) ending at n
 *   129..16K   64 bytes a test from p + 32, p aligned down to 16 (glibc's
 *              loop, so that the sizes where a step more begins agree
 *              with its), then the two or four ending at n, as many as
 *              the bytes left need
 * A group's pcmpeqb masks are ANDed and tested once; only a group that
 * differs builds the mask of its differing bytes, out of the line.
 * tzcnt runs as bsf on CPUs without BMI1: every input here is nonzero,
 * where the two agree.  Sanitizer builds compile the strictly in-bounds
 * C entry instead.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* \dst: bit i set where byte i of 64 bytes differs, from the eq masks
 * \e0-\e3 of their four vectors; \tmp clobbered. */
.macro NE64 e0, e1, e2, e3, dst, tmp
	pmovmskb \e0, \dst
	pmovmskb \e1, \tmp
	shl	$16, \tmp
	or	\tmp, \dst
	pmovmskb \e2, \tmp
	shl	$32, \tmp
	or	\tmp, \dst
	pmovmskb \e3, \tmp
	shl	$48, \tmp
	or	\tmp, \dst
	not	\dst
.endm

/* eax = 0 if the eq mask \v is all ones, else nonzero with its lowest
 * set bit at the first difference; jump to \differ then. */
.macro TEST16 v, differ
	pmovmskb \v, %eax
	sub	$0xffff, %eax
	jnz	\differ
.endm

/* Return p[\disp + rcx] - q[\disp + rcx], the first differing byte's
 * difference. */
.macro RETURN_DIFF disp=0
	movzbl	\disp(%rdi,%rcx), %eax
	movzbl	\disp(%rsi,%rcx), %ecx
	sub	%ecx, %eax
	ret
.endm

	.text
	.globl	memlane_memcmp_sse2
	ML_ASM_HIDDEN(memlane_memcmp_sse2)
	.type	memlane_memcmp_sse2, @function
	.p2align 6
memlane_memcmp_sse2:			/* p = rdi, q = rsi, n = rdx */
	_CET_ENDBR
	cmp	$16, %rdx
	ja	.Labove16
	test	%edx, %edx
	jz	.Lequal
	/* Both 16 bytes on their page; else the C path */
	JUMP_IF_PAGE_CROSS 16, ml_memcmp_sse2_page_end
	EQ16	0, %xmm0, %xmm1
	pmovmskb %xmm0, %ecx
	not	%ecx			/* bit i: byte i differs; bits 16.. set */
	tzcnt	%ecx, %ecx		/* the first difference, at most 16 */
	cmp	%edx, %ecx
	jb	.Ldiff_ecx		/* before n: it counts */
.Lequal:
	xor	%eax, %eax
	ret

	.p2align 6
.Labove16:
	/* The head vector alone: inputs that differ early leave after
	 * reading little. */
	EQ16	0, %xmm0, %xmm1
	TEST16	%xmm0, .Ldiff_at0
	cmp	$32, %rdx
	ja	.Labove32
	EQ16_END -16, %xmm0, %xmm1	/* 17..32: the vector ending at n */
	TEST16	%xmm0, .Ldiff_last1
	ret				/* eax = 0 */

	.p2align 6
.Labove32:
	EQ16	16, %xmm0, %xmm1
	TEST16	%xmm0, .Ldiff_at16
	cmp	$128, %rdx		/* to the loop's line */
	ja	.Labove128
	cmp	$64, %rdx
	ja	.Labove64
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3	/* 33..64 */
	TEST16	%xmm2, .Ldiff_last2
	ret

	.p2align 6
.Labove64:
	EQ16	32, %xmm0, %xmm2
	EQ16	48, %xmm1, %xmm3
	pand	%xmm0, %xmm1		/* in place: with xmm0 it still
					 * locates the first difference */
	pmovmskb %xmm1, %eax
	inc	%ax			/* 0: equal (3 bytes; sub takes 5) */
	jnz	.Ldiff_pair32
	cmp	$96, %rdx
	ja	.Labove96
	/* 65..96: the two vectors ending at n (the bytes before n - 32 are
	 * equal) */
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3
	TEST16	%xmm2, .Ldiff_last2
	ret

	.p2align 6
.Labove96:
	/* 97..128: the four ending at n (the bytes before n - 64 are equal) */
	LAST4
	TEST16	%xmm4, .Ldiff_last4
	ret

	.p2align 6
.Labove128:
	/* Above 16 KiB, sse2.c's loop (the buffers outgrow L1 there) */
	cmp	$16384, %rdx
	ja	ml_memcmp_sse2_above16k
	/* 64 bytes a test from 32, then the two or four vectors ending
	 * at n, as many as the bytes left need */
	LOOP64	.Ldiff_loop, .Llast2
	LAST4
	TEST16	%xmm4, .Ldiff_last4
	ret
.Llast2:
	LAST2	%xmm0, %xmm1, %xmm2, %xmm3
	TEST16	%xmm2, .Ldiff_last2
	ret

	/* The differing exits, out of the lines above. */
	.p2align 4
.Ldiff_ecx:				/* rcx: the first differing byte */
	RETURN_DIFF

	.p2align 4
.Ldiff_at0:				/* eax: the head's eq mask - 0xffff */
	tzcnt	%eax, %ecx
	RETURN_DIFF

	.p2align 4
.Ldiff_at16:
	tzcnt	%eax, %ecx
	RETURN_DIFF 16

	.p2align 4
.Ldiff_last1:				/* eax: of the vector at n - 16 */
	tzcnt	%eax, %ecx
	add	%rdx, %rcx
	RETURN_DIFF -16

	.p2align 4
.Ldiff_last2:				/* xmm0, xmm1: eq at n - 32, n - 16 */
	pmovmskb %xmm0, %ecx
	pmovmskb %xmm1, %eax
	shl	$16, %eax
	or	%eax, %ecx
	not	%ecx			/* bit i: byte n - 32 + i differs */
	tzcnt	%ecx, %ecx
	add	%rdx, %rcx
	RETURN_DIFF -32

	.p2align 4
.Ldiff_pair32:				/* xmm0, xmm0 & xmm1: eq at 32, 48 */
	pmovmskb %xmm0, %ecx
	pmovmskb %xmm1, %eax
	shl	$16, %eax
	or	%eax, %ecx
	not	%ecx
	tzcnt	%ecx, %ecx
	RETURN_DIFF 32

	.p2align 4
.Ldiff_last4:				/* xmm0-3: eq at n - 64 .. n - 16 */
	NE64	%xmm0, %xmm1, %xmm2, %xmm3, %rcx, %rax
	tzcnt	%rcx, %rcx
	add	%rdx, %rcx
	RETURN_DIFF -64

	.p2align 4
.Ldiff_loop:				/* xmm0-3: eq at rdi .. rdi + 48, ANDed running */
	NE64	%xmm0, %xmm1, %xmm2, %xmm3, %rcx, %rax
	tzcnt	%rcx, %rcx
	RETURN_DIFF

	.size	memlane_memcmp_sse2, .-memlane_memcmp_sse2

#endif

	.section .note.GNU-stack, "", @progbits
