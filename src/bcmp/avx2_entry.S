/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bcmp, AVX2: the whole function below 256 KiB; above, avx2.c's loop
 * (ml_bcmp_avx2_above256), which can prefetch.  memcmp's entry
 * (src/memcmp/avx2_entry.S) with bcmp's result.
 *
 * Assembly for the reason memcmp's entry is (src/memcmp/avx2_entry.S):
 * on Zen 3 each branch on the way costs, and gcc's layout of the C
 * ladder had more of them than glibc's code (docs/memcmp.md, "bcmp avx2
 * on Zen 3", with the numbers).  The result is any nonzero
 * value where the bytes differ, so each class is one test without a
 * branch on it: the mask of equal bytes plus one (0 if all equal) is
 * returned as it is.
 *
 *     0..32    one whole vector when both stay on their page, the bits
 *              from n on cleared; else ml_bcmp_avx2_page_end (C)
 *    33..64    head and tail vector
 *    65..128   the vectors at 0, 32, n - 64 and n - 32
 *   129..256   the first four and the four ending at n, one test
 *   257..      the first four, then 128 bytes a test on p aligned to
 *              32, then the two ending at n (up to 64 bytes left) or
 *              the four; from 256 KiB (the prefetch band's floor)
 *              avx2.c's loop
 * Sizes above 128 B run straight down from the entry; 0..32, 33..64 and
 * 65..128 B each leave it by one taken branch.  Sanitizer builds compile
 * the strictly in-bounds C entry instead.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* ML_CMP_PREFETCH_MIN (tunables.h), checked in avx2.c. */
#define PREFETCH_MIN 0x40000

/* eax = the mask of ymm \v plus one (0: every byte equal); return it. */
.macro RETURN_MASK v
	vpmovmskb \v, %eax
	inc	%eax
	vzeroupper
	ret
.endm

	.text
	.globl	memlane_bcmp_avx2
	ML_ASM_HIDDEN(memlane_bcmp_avx2)
	.type	memlane_bcmp_avx2, @function
	.p2align 6
memlane_bcmp_avx2:			/* p = rdi, q = rsi, n = rdx */
	_CET_ENDBR
	cmp	$32, %rdx
	jbe	.Lupto32
	/* The first two vectors one by one, as memcmp: inputs that differ
	 * early leave after reading little */
	EQ32	0, %ymm1
	vpmovmskb %ymm1, %eax
	inc	%eax			/* 0: equal */
	jnz	.Lreturn
	cmp	$64, %rdx
	jbe	.Lupto64
	EQ32	32, %ymm2
	vpmovmskb %ymm2, %eax
	inc	%eax
	jnz	.Lreturn
	cmp	$128, %rdx
	jbe	.Lupto128
	/* The next two under one test, then up to 256 B the four ending
	 * at n; above, avx2.c's loop */
	EQ32	64, %ymm3
	EQ32	96, %ymm4
	vpand	%ymm3, %ymm4, %ymm5
	vpmovmskb %ymm5, %eax
	inc	%eax
	jnz	.Lreturn
	cmp	$256, %rdx
	ja	.Labove256
	LAST4_32 %ymm5
	RETURN_MASK %ymm5

	.p2align 6
.Lupto32:
	test	%edx, %edx
	jz	.Lzero
	/* Both 32 bytes on their page; else the C path */
	JUMP_IF_PAGE_CROSS 32, ml_bcmp_avx2_page_end
	EQ32	0, %ymm1
	vpmovmskb %ymm1, %eax
	not	%eax			/* bit i: byte i differs */
	bzhi	%edx, %eax, %eax	/* the bytes from n on never count */
	vzeroupper
	ret
.Lzero:
	xor	%eax, %eax
	ret

	.p2align 6
.Lupto64:				/* 33..64: the vector ending at n */
	EQ32_END -32, %ymm2
	RETURN_MASK %ymm2

	.p2align 6
.Lupto128:				/* 65..128: the two ending at n */
	EQ32_END -64, %ymm3
	EQ32_END -32, %ymm4
	vpand	%ymm3, %ymm4, %ymm5
	RETURN_MASK %ymm5

	.p2align 6
.Labove256:
	/* From the prefetch band's lowest size on, avx2.c's loop */
	cmp	$PREFETCH_MIN, %rdx
	jae	ml_bcmp_avx2_above256
	/* 128 bytes a test, then the two or four vectors ending at n */
	LOOP128_32 .Lreturn, .Lupto128
	LAST4_32 %ymm5
	RETURN_MASK %ymm5

	.p2align 5
.Lreturn:				/* eax: nonzero */
	vzeroupper
	ret
	.size	memlane_bcmp_avx2, .-memlane_bcmp_avx2

#endif

	.section .note.GNU-stack, "", @progbits
