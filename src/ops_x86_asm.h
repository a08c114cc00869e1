/* SPDX-License-Identifier: BSD-2-Clause */
/* clang-format off */
/*
 * The assembly entries' shared part (src/<function>/<level>_entry.S):
 * the preamble every entry needs, the compare blocks the memcmp and
 * bcmp entries of one level share, and memset's 0..3-byte block.
 * Assembly only (gas macros); the C building blocks are ops_x86_cmp.h
 * and ops_x86_store.h.
 *
 * Register use of the compare blocks: p = rdi, q = rsi, n = rdx.
 */
#ifndef MEMLANE_OPS_X86_ASM_H
#define MEMLANE_OPS_X86_ASM_H

#if !defined(__ASSEMBLER__)
#error "ops_x86_asm.h is for the assembly entries"
#endif

#include "sanitized.h"

/* -fcf-protection: endbr64 at the entry, and the IBT/SHSTK property note
 * (also on the empty object of sanitizer builds, which would otherwise
 * take the property off the library). */
#if defined(__CET__)
#include <cet.h>
#else
#define _CET_ENDBR
#endif

/* Whether the entries are assembled: sanitizer builds, whose checks must
 * see every access and which may not read around the buffers, compile
 * the variants' C entries instead. */
#if defined(__x86_64__) && !defined(ML_SANITIZED)
#define ML_ASM_ENTRIES 1
#else
#define ML_ASM_ENTRIES 0
#endif

/* ab (bench/ab/run.sh) exports the variants; the library keeps them
 * hidden as the C ones (-fvisibility=hidden). */
#if defined(ML_EXPORT_VARIANTS)
#define ML_ASM_HIDDEN(sym)
#else
#define ML_ASM_HIDDEN(sym) .hidden sym
#endif

/* An entry point of one variant's assembly that another variant jumps
 * to: hidden also in ab's build, as ML_ASM_PART in C (internal.h). */
#define ML_ASM_PART_SYM(sym) .hidden sym

#if ML_ASM_ENTRIES

/* Jump to \target unless \bytes bytes from p and from q each stay on
 * their 4 KiB page: the OR of the two page offsets at most 4096 - \bytes
 * (glibc's one-test form), the offsets shifted to the top (shorter than
 * and + cmp).  eax clobbered. */
.macro JUMP_IF_PAGE_CROSS bytes, target
	mov	%edi, %eax
	or	%esi, %eax
	shl	$20, %eax
	cmp	$((4096 - \bytes) << 20), %eax
	ja	\target
.endm

/* ---- 16-byte vectors (sse2) ---- */

/* xmm \v: the pcmpeqb mask of the 16 bytes at p + \off and q + \off
 * (EQ16), or at p + n + \off and q + n + \off (EQ16_END).  Two loads:
 * pcmpeqb's memory operand would have to be aligned. */
.macro EQ16 off, v, tmp
	movdqu	\off(%rsi), \tmp
	movdqu	\off(%rdi), \v
	pcmpeqb	\tmp, \v
.endm
.macro EQ16_END off, v, tmp
	movdqu	\off(%rsi,%rdx), \tmp
	movdqu	\off(%rdi,%rdx), \v
	pcmpeqb	\tmp, \v
.endm

/* \dst = \a & \b & \c & \d; \tmp clobbered, the four kept. */
.macro AND4 a, b, c, d, dst, tmp
	movdqa	\a, \dst
	pand	\b, \dst
	movdqa	\c, \tmp
	pand	\d, \tmp
	pand	\tmp, \dst
.endm

/* xmm4 = the AND of the eq masks of a group of four: of xmm0-3, kept,
 * xmm5 clobbered (masks=keep); or of xmm4 and xmm1-3, xmm2 clobbered
 * (masks=drop: three pand and no copies, for a caller that never
 * locates the difference). */
.macro AND_GROUP4 masks
.ifc \masks, keep
	AND4	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5
.else
	pand	%xmm1, %xmm4
	pand	%xmm3, %xmm2
	pand	%xmm2, %xmm4
.endif
.endm

/* \e0, \e1: the eq masks of the two vectors ending at n; \all their
 * AND; \t1 clobbered.  masks=drop: only \all is kept, \e0 clobbered. */
.macro LAST2 e0, e1, all, t1, masks=keep
.ifc \masks, keep
	EQ16_END -32, \e0, \all
.else
	EQ16_END -32, \all, \e0
.endif
	EQ16_END -16, \e1, \t1
.ifc \masks, keep
	movdqa	\e0, \all
.endif
	pand	\e1, \all
.endm

/* xmm0-3: the eq masks of the four vectors ending at n; xmm4 their AND;
 * xmm5-7 clobbered.  masks=drop: the first mask is made in xmm4 and only
 * the AND is kept (AND_GROUP4). */
.macro LAST4 masks=keep
.ifc \masks, keep
	EQ16_END -64, %xmm0, %xmm4
.else
	EQ16_END -64, %xmm4, %xmm0
.endif
	EQ16_END -48, %xmm1, %xmm5
	EQ16_END -32, %xmm2, %xmm6
	EQ16_END -16, %xmm3, %xmm7
	AND_GROUP4 \masks
.endm

/* n > 128, the first 32 bytes equal: 64 bytes a test from the 16-byte
 * boundary at or below p + 32 while it lies below p + n - 64, rdi and
 * rsi walked along (pcmpeqb takes the aligned p as its memory operand;
 * glibc's loop, so that the sizes where a step more begins agree with
 * its).  The masks are ANDed running, in place: xmm0, xmm0&1, xmm2,
 * xmm0&1&2&3, whose first zero bit is the group's first difference as
 * well.  A group that differs jumps to \differ, rdi and rsi at it, eax
 * nonzero.  At the end rdi + rdx = p + n, 1..64 bytes left: up to 32
 * jump to \last2, more run on. */
.macro LOOP64 differ, last2
	lea	-64(%rdi,%rdx), %rdx	/* the loop's end: p + n - 64 */
	sub	%rdi, %rsi		/* q - p */
	add	$32, %rdi
	and	$-16, %rdi
	add	%rdi, %rsi
	.p2align 4
.Lloop64_\@:
	movdqu	(%rsi), %xmm0
	pcmpeqb	(%rdi), %xmm0
	movdqu	16(%rsi), %xmm1
	pcmpeqb	16(%rdi), %xmm1
	movdqu	32(%rsi), %xmm2
	pcmpeqb	32(%rdi), %xmm2
	movdqu	48(%rsi), %xmm3
	pcmpeqb	48(%rdi), %xmm3
	pand	%xmm0, %xmm1
	pand	%xmm2, %xmm3
	pand	%xmm1, %xmm3
	pmovmskb %xmm3, %eax
	sub	$0xffff, %eax
	jnz	\differ
	add	$64, %rdi
	add	$64, %rsi
	cmp	%rdx, %rdi
	jb	.Lloop64_\@
	sub	%rdi, %rdx
	add	$64, %rdx
	cmp	$32, %rdx
	jbe	\last2
.endm

/* ---- 32-byte vectors (avx2) ---- */

/* ymm \v: the vpcmpeqb mask of the 32 bytes at p + \off and q + \off
 * (EQ32), or at p + n + \off and q + n + \off (EQ32_END). */
.macro EQ32 off, v
	vmovdqu	\off(%rsi), \v
	vpcmpeqb \off(%rdi), \v, \v
.endm
.macro EQ32_END off, v
	vmovdqu	\off(%rsi,%rdx), \v
	vpcmpeqb \off(%rdi,%rdx), \v, \v
.endm

/* ymm1-4: the eq masks of the four vectors ending at n; \all their AND;
 * ymm5, ymm6 clobbered. */
.macro LAST4_32 all
	EQ32_END -128, %ymm1
	EQ32_END -96, %ymm2
	EQ32_END -64, %ymm3
	EQ32_END -32, %ymm4
	vpand	%ymm1, %ymm2, %ymm5
	vpand	%ymm3, %ymm4, %ymm6
	vpand	%ymm5, %ymm6, \all
.endm

/* n > 256, the first 128 bytes equal: 128 bytes a test from the 32-byte
 * boundary at or below p + 128 (rcx; r8 = q - p) while it lies below
 * p + n - 128 (r9).  A group that differs jumps to \differ, ymm1-4 its
 * eq masks, eax nonzero; at the end, up to 64 bytes left jump to \last2
 * (the two vectors ending at n are left), else it runs on (the four).
 * ymm5, ymm6 clobbered. */
.macro LOOP128_32 differ, last2
	mov	%rsi, %r8
	sub	%rdi, %r8
	lea	-128(%rdi,%rdx), %r9
	lea	128(%rdi), %rcx
	and	$-32, %rcx
.Lloop128_\@:
	vmovdqu	(%r8,%rcx), %ymm1
	vpcmpeqb (%rcx), %ymm1, %ymm1
	vmovdqu	32(%r8,%rcx), %ymm2
	vpcmpeqb 32(%rcx), %ymm2, %ymm2
	vmovdqu	64(%r8,%rcx), %ymm3
	vpcmpeqb 64(%rcx), %ymm3, %ymm3
	vmovdqu	96(%r8,%rcx), %ymm4
	vpcmpeqb 96(%rcx), %ymm4, %ymm4
	vpand	%ymm1, %ymm2, %ymm5
	vpand	%ymm3, %ymm4, %ymm6
	vpand	%ymm5, %ymm6, %ymm5
	vpmovmskb %ymm5, %eax
	inc	%eax
	jnz	\differ
	sub	$-128, %rcx
	cmp	%r9, %rcx
	jb	.Lloop128_\@
	sub	%r9, %rcx		/* 128 - the bytes left */
	cmp	$64, %rcx
	jae	\last2
.endm

/* ---- memset (d = rdi, n = rdx) ---- */

/* 0..3 bytes: the byte \b at 0, n / 2 and n - 1 (none for n = 0), and
 * return; r8 clobbered. */
.macro SET_BELOW4_AND_RETURN b
	test	%rdx, %rdx
	jz	.Lset_below4_ret\@
	mov	\b, (%rdi)
	mov	%rdx, %r8
	shr	%r8
	mov	\b, (%rdi,%r8)
	mov	\b, -1(%rdi,%rdx)
.Lset_below4_ret\@:
	ret
.endm

#endif /* ML_ASM_ENTRIES */

#endif
