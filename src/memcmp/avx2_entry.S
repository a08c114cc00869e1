/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memcmp, AVX2: the whole function to 16 KiB; above, avx2.c's loops
 * (ml_memcmp_avx2_above16k).
 *
 * Assembly because C cannot pin where the blocks go, and here the
 * layout decides the speed: gcc and clang laid the same C ladder out
 * differently, each with some class returning from the next 64-byte
 * line or through a shared return block.  From 32 B the sizes run
 * straight down from the entry, as in glibc's code: on Zen 3 each
 * taken branch on the way costs (docs/memcmp.md, "avx2 on Zen 3");
 * 0..31, 32..64 and 65..128 B leave it by one taken branch each, to a
 * line of their own.
 *
 *     0..31    one whole vector when both stay on their page, the bits
 *              from n on cleared; else ml_memcmp_avx2_page_end (C)
 *    32..      the head vector alone, then
 *    32..64    the vector ending at n
 *    65..      the second vector, then
 *    65..128   the two ending at n
 *   129..256   the two after the first 64 bytes, then the four ending
 *              at n (no branch on n)
 *   257..16K   the two after the first 64 bytes, then 128 bytes a test
 *              on p aligned to 32, then the two ending at n (up to 64
 *              bytes left) or the four
 * A group's vpcmpeqb masks are ANDed and tested once; only a group that
 * differs builds the mask of its differing bytes, out of the line, and
 * finds the first one without a branch on which vector holds it.
 * Sanitizer builds compile the strictly in-bounds C entry instead.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* \dst: bit i set where byte i of 64 bytes differs, from the eq masks
 * \lo and \hi of their two halves; \tmp clobbered. */
.macro NE64 lo, hi, dst, tmp
	vpmovmskb \lo, \dst
	vpmovmskb \hi, \tmp
	shl	$32, \tmp
	or	\tmp, \dst
	not	\dst
.endm

/* Return 0 if the eq masks \a and \b are all ones (those bytes equal),
 * else jump to \differ. */
.macro RETURN_IF_EQUAL2 a, b, differ
	vpand	\a, \b, %ymm5
	vpmovmskb %ymm5, %eax
	inc	%eax			/* 0: equal */
	jnz	\differ
	vzeroupper
	ret
.endm

/* The four vectors ending at n (the bytes before n - 128 equal): return
 * 0 if they are equal, else find the first difference. */
.macro LAST4_RETURN
	LAST4_32 %ymm7
	vpmovmskb %ymm7, %eax
	inc	%eax
	jnz	.Ldiff_last4
	vzeroupper
	ret
.endm

/* Return p[\disp + rcx] - q[\disp + rcx], the first differing byte's
 * difference. */
.macro RETURN_DIFF disp=0
	movzbl	\disp(%rdi,%rcx), %eax
	movzbl	\disp(%rsi,%rcx), %ecx
	sub	%ecx, %eax
	vzeroupper
	ret
.endm

/* ymm1-4: the eq masks of the 128 bytes from p + \base + \disp, some
 * byte differing: return the difference at the first such byte, found
 * without a branch on which half holds it.  r8, r9 clobbered. */
.macro RETURN_DIFF128 base, disp
	NE64	%ymm1, %ymm2, %r9, %rax		/* bytes 0 .. 63 of the 128 */
	NE64	%ymm3, %ymm4, %r8, %rax		/* bytes 64 .. 127 */
	tzcnt	%r8, %r8
	lea	\disp+64(\base,%r8), %r8
	tzcnt	%r9, %r9		/* CF: none in the first 64 */
	lea	\disp(\base,%r9), %rcx
	cmovc	%r8, %rcx
	RETURN_DIFF
.endm

	.text
	.globl	memlane_memcmp_avx2
	ML_ASM_HIDDEN(memlane_memcmp_avx2)
	.type	memlane_memcmp_avx2, @function
	.p2align 6
memlane_memcmp_avx2:			/* p = rdi, q = rsi, n = rdx */
	_CET_ENDBR
	cmp	$32, %rdx
	jb	.Lbelow32
	/* The first two vectors one by one: inputs that differ early
	 * leave after reading little. */
	EQ32	0, %ymm1
	vpmovmskb %ymm1, %eax
	inc	%eax			/* eq mask + 1: lowest set bit = first difference */
	jnz	.Ldiff_at0
	cmp	$64, %rdx
	jbe	.Lupto64
	EQ32	32, %ymm2
	vpmovmskb %ymm2, %eax
	inc	%eax
	jnz	.Ldiff_at32
	cmp	$128, %rdx
	jbe	.Lupto128
	/* The next two vectors under one test, then up to 256 bytes the
	 * four ending at n (the bytes before them are equal): no branch on
	 * n, as glibc's code.  memcmp's avx512_ymm (avx512.c) joins here
	 * above 128 B, its first 64 bytes found equal. */
	.globl	ml_memcmp_avx2_from129
	ML_ASM_PART_SYM(ml_memcmp_avx2_from129)
ml_memcmp_avx2_from129:
	EQ32	64, %ymm1
	EQ32	96, %ymm2
	vpand	%ymm1, %ymm2, %ymm3
	vpmovmskb %ymm3, %eax
	inc	%eax
	jnz	.Ldiff_pair64
	cmp	$256, %rdx
	ja	.Labove256
	LAST4_RETURN

	.p2align 6
.Lbelow32:
	test	%edx, %edx
	jz	.Lzero
	/* Both 32 bytes on their page; else the C path */
	JUMP_IF_PAGE_CROSS 32, ml_memcmp_avx2_page_end
	EQ32	0, %ymm1
	vpmovmskb %ymm1, %ecx
	not	%ecx			/* bit i: byte i differs */
	bzhi	%edx, %ecx, %ecx	/* the bytes from n on never count */
	jnz	.Ldiff_ecx
	xor	%eax, %eax
	vzeroupper
	ret
.Lzero:
	xor	%eax, %eax
	ret

	.p2align 6
.Lupto64:				/* 32..64: the vector ending at n (the
					 * head is equal) */
	EQ32_END -32, %ymm2
	vpmovmskb %ymm2, %eax
	inc	%eax
	jnz	.Ldiff_last1
	vzeroupper
	ret

	.p2align 6
.Lupto128:				/* 65..128: the two vectors ending at n
					 * (the bytes before n - 64 are equal) */
	EQ32_END -64, %ymm3
	EQ32_END -32, %ymm4
	RETURN_IF_EQUAL2 %ymm3, %ymm4, .Ldiff_last2

	.p2align 6
.Labove256:
	/* Above 16 KiB, avx2.c's loop (the buffers outgrow L1 there) */
	cmp	$16384, %rdx
	ja	ml_memcmp_avx2_above16k
	/* 128 bytes a test, then the two or four vectors ending at n */
	LOOP128_32 .Ldiff_loop, .Lupto128
	LAST4_RETURN

	/* The differing exits, out of the lines above.  A group's first
	 * differing byte is found without a branch on which vector holds
	 * it: random positions would mispredict one. */
	.p2align 5
.Ldiff_pair64:				/* ymm1, ymm2: eq at 64, 96 */
	NE64	%ymm1, %ymm2, %rcx, %rax
	tzcnt	%rcx, %rcx
	RETURN_DIFF 64

	.p2align 5
.Ldiff_last4:				/* ymm1-4: eq at n - 128, n - 96, n - 64, n - 32 */
	RETURN_DIFF128 %rdx, -128

	.p2align 5
.Ldiff_loop:				/* ymm1-4: eq at rcx .. rcx + 96 */
	sub	%rdi, %rcx			/* the group's offset from p */
	RETURN_DIFF128 %rcx, 0

	.p2align 5
.Ldiff_last2:				/* ymm3, ymm4: eq at n - 64, n - 32 */
	NE64	%ymm3, %ymm4, %rcx, %rax
	tzcnt	%rcx, %rcx
	lea	-64(%rdx,%rcx), %rcx
	RETURN_DIFF

	.p2align 5
.Ldiff_last1:				/* eax: eq mask + 1 of the vector at n - 32 */
	tzcnt	%eax, %ecx
	add	%rdx, %rcx
	RETURN_DIFF -32

	.p2align 5
.Ldiff_ecx:				/* ecx: the differing bytes from 0 */
	tzcnt	%ecx, %ecx
	RETURN_DIFF

	.p2align 5
.Ldiff_at0:				/* eax: the head's eq mask + 1 */
	tzcnt	%eax, %ecx
	RETURN_DIFF

	.p2align 5
.Ldiff_at32:				/* eax: the second vector's eq mask + 1 */
	tzcnt	%eax, %ecx
	RETURN_DIFF 32

	.size	memlane_memcmp_avx2, .-memlane_memcmp_avx2

#endif

	.section .note.GNU-stack, "", @progbits
