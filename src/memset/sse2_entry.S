/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memset, SSE2: the whole function below the special threshold (rep
 * stosb, non-temporal: sse2.c's ml_memset_sse2_large above it).
 *
 * Assembly because C cannot pin where the blocks and their branches go,
 * and here that decides the speed: with every size called before, gcc's
 * layout of the same ladder ran 8-15 B a cycle slower than glibc's code
 * (docs/memset.md, "The whole function in assembly").  Each class below
 * 129 B starts on a 64-byte line of its own (4..15 B, the entry's
 * fall-through, runs on into the next) and returns from it:
 *
 *   line  n         branches on the way (T: taken)    stores
 *   0, 1  4..15     > 64, >= 16, < 4                  4 dwords at 0, k,
 *                                                     n-4-k, n-4; k = 4
 *                                                     from 8 B on
 *   2     16..64    > 64, >= 16 T                     4 xmm at 0, k,
 *                                                     n-16-k, n-16; k = 16
 *                                                     from 33 B on
 *   3     0..3      > 64, >= 16, < 4 T, == 0          bytes at 0, n/2, n-1
 *   4     65..128   > 64 T, > 128                     4 xmm at each end
 *   5     129..192  > 64 T, > 128 T, the special      12 xmm: the lines at
 *                   threshold, > 192                  0, 64 and n - 64
 *         193..256  ... > 192 T, > 256                and at n - 128
 *   7, 8  257..512  ... > 256 T, > 320 T, > 384 T,    a line (4 xmm) more
 *                   > 448 T, > 512 (as far as n)      from the head, then
 *                                                     the tail, in turn
 *   10    513..     ... > 512 T                       the middle in
 *                                                     aligned lines
 * The test on 64 comes first, so that 65 B and up reach their class by
 * one taken branch, as in glibc's code.  From 129 B the classes form one
 * ladder: each rung's stores come before its test, so a random size
 * meets one unpredictable test, where a loop mispredicts its exit; each
 * size stores as many vectors as glibc's loop, or fewer.  The classes
 * below 65 B have no branch on 8 or 32 (two stores where four are made
 * now): each cost the random-size runs more than it won at fixed sizes
 * (docs/memset.md).  No store comes before the test on the special
 * threshold: rep stosb after stores ran slower (docs/memset.md).
 * Sanitizer builds compile sse2.c's C entry, which their checks see.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* offsetof(struct ml_memset_tunables, special_sse2), checked in sse2.c.
 * The struct is hidden here even where internal.h exports it (ab's
 * build), so the threshold is one rip-relative load, as glibc's: the
 * load through the GOT measured slower (docs/memset.md). */
#define SPECIAL_SSE2 32
	.hidden	ml_memset_tun

/* Store \v (\size bytes) at 0, k, n - \size - k and n - \size (k in r8),
 * and return: a class whose sizes run to 4 * \size. */
.macro STORE_ENDS_AND_K op, v, size
	mov	%rdx, %r9
	sub	%r8, %r9
	\op	\v, (%rdi)
	\op	\v, (%rdi,%r8)
	\op	\v, -\size(%rdi,%r9)
	\op	\v, -\size(%rdi,%rdx)
	ret
.endm

/* Store \v in the 64-byte line at \off(\base), as 4 unaligned vectors. */
.macro STORE_LINE base, off
	movups	%xmm0, \off(\base)
	movups	%xmm0, \off+16(\base)
	movups	%xmm0, \off+32(\base)
	movups	%xmm0, \off+48(\base)
.endm

	.text
	.globl	memlane_memset_sse2
	ML_ASM_HIDDEN(memlane_memset_sse2)
	.type	memlane_memset_sse2, @function
	.p2align 6
memlane_memset_sse2:			/* d = rdi, c = esi, n = rdx */
	_CET_ENDBR
	mov	%rdi, %rax
	movd	%esi, %xmm0
	punpcklbw %xmm0, %xmm0
	pshuflw	$0, %xmm0, %xmm0
	pshufd	$0, %xmm0, %xmm0	/* c in each byte */
	cmp	$64, %rdx
	ja	.Labove64
	cmp	$16, %rdx
	jae	.Lfrom16
	movd	%xmm0, %ecx		/* c in each byte */
	cmp	$4, %rdx
	jb	.Lbelow4
	/* 4..15: the dwords at 0 and n - 4, and at k and n - 4 - k */
	mov	%edx, %r8d
	and	$8, %r8d
	shr	%r8d			/* k: 4 if n >= 8, else 0 */
	STORE_ENDS_AND_K mov, %ecx, 4

	.p2align 6
.Lfrom16:
	/* 16..64: the vectors at 0 and n - 16, and at k and n - 16 - k */
	lea	-1(%rdx), %r8d
	shr	%r8d
	and	$16, %r8d		/* k: 16 if n >= 33, else 0 */
	STORE_ENDS_AND_K movups, %xmm0, 16

	.p2align 6
.Lbelow4:				/* 0..3: the bytes at 0, n / 2, n - 1 */
	SET_BELOW4_AND_RETURN %cl

	.p2align 6
.Labove64:
	cmp	$128, %rdx
	ja	.Labove128
	/* 65..128: 4 vectors at each end */
	lea	-64(%rdi,%rdx), %r9		/* d + n - 64 */
	STORE_LINE %rdi, 0
	STORE_LINE %r9, 0
	ret

	.p2align 6
.Labove128:				/* 129..256: 12 or 16 vectors */
	/* out of line from the special threshold on (0 until the tunables
	 * are read, so the first such call reads them there) */
	cmp	ml_memset_tun+SPECIAL_SSE2(%rip), %rdx
	jae	ml_memset_sse2_large
	lea	-64(%rdi,%rdx), %r9		/* d + n - 64 */
	STORE_LINE %rdi, 0
	STORE_LINE %rdi, 64
	STORE_LINE %r9, 0
	cmp	$192, %rdx
	ja	.Labove192
	ret
.Labove192:				/* 193..256: the line at n - 128 */
	STORE_LINE %r9, -64
	cmp	$256, %rdx
	ja	.Labove256
	ret

	.p2align 6
.Labove256:			/* 257..512: a line more at each end in turn */
	lea	128(%rdi), %r8			/* d + 128 */
	lea	-128(%r9), %r10			/* d + n - 192 */
	STORE_LINE %r8, 0			/* [d + 128, d + 192) */
	cmp	$320, %rdx
	ja	.Labove320
	ret
.Labove320:
	STORE_LINE %r10, 0			/* [d + n - 192, d + n - 128) */
	cmp	$384, %rdx
	ja	.Labove384
	ret
.Labove384:
	STORE_LINE %r8, 64			/* [d + 192, d + 256) */
	cmp	$448, %rdx
	ja	.Labove448
	ret
.Labove448:
	STORE_LINE %r10, -64			/* [d + n - 256, d + n - 192) */
	cmp	$512, %rdx
	ja	.Labove512
	ret

	.p2align 6
.Labove512:	/* 513..: the middle [d + 256, d + n - 256) in aligned lines,
		 * from the last 16-byte boundary at or below d + 256 */
	add	$128, %r8
	and	$-16, %r8
	sub	$64, %r10			/* d + n - 256 */
	.p2align 5
.Lloop:
	movaps	%xmm0, (%r8)
	movaps	%xmm0, 16(%r8)
	movaps	%xmm0, 32(%r8)
	movaps	%xmm0, 48(%r8)
	add	$64, %r8
	cmp	%r10, %r8
	jb	.Lloop
	ret
	.size	memlane_memset_sse2, .-memlane_memset_sse2

#endif

	.section .note.GNU-stack, "", @progbits
