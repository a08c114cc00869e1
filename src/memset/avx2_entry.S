/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memset, AVX2: the whole function below the special threshold (rep
 * stosb, non-temporal stores: avx2.c's ml_memset_avx2_large above it).
 *
 * Assembly because C cannot pin where the blocks and their branches go,
 * and on Zen 3 that decides the speed: there a branch on the way costs,
 * taken or not, and gcc's layout of the same classes took a branch more
 * than glibc's code at 33-64 B and moved blocks across 64-byte lines
 * with changes elsewhere in the function (docs/memset.md, "avx2 on Zen
 * 3", with the numbers).  Each class returns from the 64-byte
 * line it starts on:
 *
 *   line  n         branches on the way (T: taken)   stores
 *   0     32..64    < 32, > 64                       2 ymm: 0, n-32
 *   1     0..3      < 32 T, >= 16, >= 4, == 0        bytes at 0, n/2, n-1
 *   2     16..31    < 32 T, >= 16 T                  2 xmm: 0, n-16
 *   3     4..15     < 32 T, >= 16, >= 4 T            4 dwords: 0, k,
 *                                                    n-4-k, n-4 (k = 4
 *                                                    from 8 B on)
 *   4     65..128   > 64 T, > 256, > 128             2 ymm at each end
 *   5     129..256  > 64 T, > 256, > 128 T           4 ymm at each end
 *   6     257..512  > 64 T, > 256 T, > 512, > 384    lines of 4 ymm at 0,
 *                                                    128, 256 (from 385
 *                                                    B), ending at n
 *   9     513..     > 64 T, > 256 T, > 512 T,        4 ymm at 0, the
 *                   the special threshold            aligned loop of 4,
 *                                                    4 ending at n
 * 0..3 B fall through below 32 B, so that 0 and 1 B take one taken
 * branch, n = 0 two, as in glibc's code (4..15 B take two, as there).
 * From the special threshold on (rep stosb, non-temporal stores), avx2.c.
 * From 16 B as many stores as glibc's code makes at each size.  Below
 * 32 B only xmm registers are written, so those classes need no
 * vzeroupper.  Sanitizer builds compile avx2.c's C entry, which their
 * checks see.
 */
#include "ops_x86_asm.h"

#if ML_ASM_ENTRIES

/* offsetof(struct ml_memset_tunables, special), checked in avx2.c.  The
 * struct is hidden here even where internal.h exports it (ab's build),
 * so the threshold is one rip-relative load, as in the library and in
 * glibc's code (sse2_entry.S says why). */
#define SPECIAL 24
	.hidden	ml_memset_tun

/* Store ymm0 in the 128 bytes at \off(\base), as 4 unaligned vectors. */
.macro STORE_LINE4 base, off
	vmovdqu	%ymm0, \off(\base)
	vmovdqu	%ymm0, \off+32(\base)
	vmovdqu	%ymm0, \off+64(\base)
	vmovdqu	%ymm0, \off+96(\base)
.endm

	.text
	.globl	memlane_memset_avx2
	ML_ASM_HIDDEN(memlane_memset_avx2)
	.type	memlane_memset_avx2, @function
	.p2align 6
memlane_memset_avx2:			/* d = rdi, c = esi, n = rdx */
	_CET_ENDBR
	mov	%rdi, %rax
	vmovd	%esi, %xmm0
	cmp	$32, %rdx
	jb	.Lbelow32
	vpbroadcastb %xmm0, %ymm0	/* c in each byte */
	cmp	$64, %rdx
	ja	.Labove64
	/* 32..64: the vectors at 0 and n - 32 */
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 6
.Lbelow32:
	vpbroadcastb %xmm0, %xmm0	/* c in each byte; the upper half zeroed */
	cmp	$16, %rdx
	jae	.Lfrom16
	cmp	$4, %rdx
	jae	.Lfrom4
	/* 0..3: the bytes at 0, n / 2, n - 1 */
	SET_BELOW4_AND_RETURN %sil

	.p2align 6
.Lfrom16:				/* 16..31: the vectors at 0 and n - 16 */
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm0, -16(%rdi,%rdx)
	ret

	.p2align 6
.Lfrom4:
	vmovd	%xmm0, %ecx
	/* 4..15: the dwords at 0 and n - 4, and at k and n - 4 - k */
	mov	%edx, %r8d
	and	$8, %r8d
	shr	%r8d			/* k: 4 if n >= 8, else 0 */
	mov	%rdx, %r9
	sub	%r8, %r9
	mov	%ecx, (%rdi)
	mov	%ecx, (%rdi,%r8)
	mov	%ecx, -4(%rdi,%r9)
	mov	%ecx, -4(%rdi,%rdx)
	ret

	.p2align 6
.Labove64:
	cmp	$256, %rdx
	ja	.Labove256
	cmp	$128, %rdx
	ja	.Labove128
	/* 65..128: 2 vectors at each end */
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, 32(%rdi)
	vmovdqu	%ymm0, -64(%rdi,%rdx)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 6
.Labove128:				/* 129..256: 4 vectors at each end */
	lea	-128(%rdi,%rdx), %rcx	/* d + n - 128 */
	STORE_LINE4 %rdi, 0
	STORE_LINE4 %rcx, 0
	vzeroupper
	ret

	.p2align 6
.Labove256:
	cmp	$512, %rdx
	ja	.Labove512
	/* 257..512: lines of 4 vectors at 0 and 128, at 256 from 385 B,
	 * and ending at n */
	lea	-128(%rdi,%rdx), %rcx	/* d + n - 128 */
	lea	256(%rdi), %r8		/* d + 256: every store below with an
					 * 8-bit displacement (shorter code) */
	STORE_LINE4 %rdi, 0
	STORE_LINE4 %r8, -128
	cmp	$384, %rdx
	ja	.Labove384
	STORE_LINE4 %rcx, 0
	vzeroupper
	ret
.Labove384:
	STORE_LINE4 %r8, 0
	STORE_LINE4 %rcx, 0
	vzeroupper
	ret

	.p2align 6
.Labove512:
	/* out of line from the special threshold on (0 until the tunables
	 * are read, so the first such call reads them there) */
	cmp	ml_memset_tun+SPECIAL(%rip), %rdx
	jae	ml_memset_avx2_large
	/* 4 vectors at 0, aligned vectors 4 an iteration from the 32-byte
	 * boundary at or below d + 128 while they start below d + n - 128,
	 * then 4 vectors ending at n (glibc's shape: no remainder branch) */
	lea	-128(%rdi,%rdx), %rcx	/* d + n - 128 */
	lea	128(%rdi), %r8
	and	$-32, %r8
	STORE_LINE4 %rdi, 0
	.p2align 5
.Lloop:
	vmovdqa	%ymm0, (%r8)
	vmovdqa	%ymm0, 32(%r8)
	vmovdqa	%ymm0, 64(%r8)
	vmovdqa	%ymm0, 96(%r8)
	sub	$-128, %r8
	cmp	%rcx, %r8
	jb	.Lloop
	STORE_LINE4 %rcx, 0
	vzeroupper
	ret
	.size	memlane_memset_avx2, .-memlane_memset_avx2

#endif

	.section .note.GNU-stack, "", @progbits
