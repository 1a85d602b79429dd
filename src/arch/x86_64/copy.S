/* SPDX-License-Identifier: MIT */
/*
 * x86_64/copy.S - hl_try_copy's variants and hl_try_load64. Their entries
 * join hl_try_zero's in the one exception table (../asm.h), which the
 * same handler (../../fault.c) searches.
 *
 * Every variant is size_t fn(void *dst, const void *src, size_t n)
 * (System V: rdi, rsi, rdx) and returns in rax the bytes it did not copy.
 * The protocol that makes a fault byte-exact, on either side:
 *  - rdx holds dst_end = dst + n from the variant's start to its exit
 *    (except on the vector variants' small paths, whose exception-table
 *    entries say that rdx holds n there: CTN);
 *  - rdi and rsi are the progress pointers, always the same distance
 *    apart as dst and src: at any instruction that may fault, every byte
 *    of [dst, rdi) has been copied, so the first byte that can fault is
 *    at or after rdi (a store) or rsi (a load);
 *  - a fault continues at hl__copy_bytes, which copies from (rdi, rsi)
 *    until rdi reaches rdx, by rep movsb and then, from where that
 *    faulted, byte by byte; the first byte that faults is the exact first
 *    faulting address, and it returns rdx - rdi.
 * Loads run ahead of stores and stores may overlap what earlier ones
 * wrote, but every store lies inside [dst, dst_end), and every load
 * inside [src, src + n). A load or store that faults does nothing on x86,
 * even when it straddles into a good page. The entries' kind is 1 (copy):
 * the handler accepts a fault address in [rdi, rdx) or in
 * [rsi, rsi + (rdx - rdi)).
 *
 * The variants are leaf functions that touch no stack: a fixup may `ret`.
 */

#include "../asm.h"
#include "try_checks.h"
#include "vec.h"

/* clang-format off */

	.text

/*
 * The shared fixup: copy from (rdi, rsi) to rdx, first with one rep movsb
 * (a fault in a string instruction leaves rdi, rsi and rcx at the element
 * that faulted: copies that end in a hole stay fast), then, from where it
 * stopped, byte by byte: the first byte that faults is the exact first
 * faulting address. The entries cover the whole loop (valgrind unrolls
 * small loops: see zero.S).
 */
FUNC hl__copy_bytes
	movq	%rdx, %rcx
	subq	%rdi, %rcx
	jbe	2f
.Lcopy_rep:
	rep movsb
.Lcopy_rep_end:
2:	xorl	%eax, %eax
	ret
.Lcopy_byte_from_here:
	xorl	%eax, %eax
	cmpq	%rdx, %rdi
	jae	3f
.Lcopy_byte:
	movzbl	(%rsi), %r8d
	movb	%r8b, (%rdi)
	incq	%rsi
	incq	%rdi
	cmpq	%rdx, %rdi
	jb	.Lcopy_byte
.Lcopy_byte_end:
3:	ret
.Lcopy_byte_fault:
	movq	%rdx, %rax
	subq	%rdi, %rax
	ret
	EXTABLE .Lcopy_rep, .Lcopy_rep_end, .Lcopy_byte_from_here, 1
	EXTABLE .Lcopy_byte, .Lcopy_byte_end, .Lcopy_byte_fault, 1
ENDFUNC hl__copy_bytes

FUNC hl__copy_bytes_vzeroupper
	vzeroupper
	jmp	hl__copy_bytes
ENDFUNC hl__copy_bytes_vzeroupper

FUNC hl__copy_bytes_sfence
	sfence
	jmp	hl__copy_bytes
ENDFUNC hl__copy_bytes_sfence

/* CT from, to, fixup: an exception-table entry of kind copy. */
.macro CT from, to, fixup
	EXTABLE \from, \to, \fixup, 1
.endm

/*
 * CTN from, to, fixup: one of kind copy_n (3), for the small paths, which
 * keep n in rdx instead of dst_end (two instructions fewer per call,
 * where a hot loop of small copies is bound by their number): rdi and rsi
 * are dst and src, as the call came, and the handler bounds the fault by
 * [rdi, rdi + rdx) and [rsi, rsi + rdx). Their fixup turns rdx into
 * dst_end and goes on as the others do.
 */
.macro CTN from, to, fixup
	EXTABLE \from, \to, \fixup, 3
.endm

FUNC hl__copy_bytes_n
	addq	%rdi, %rdx
	jmp	hl__copy_bytes
ENDFUNC hl__copy_bytes_n

FUNC hl__copy_bytes_n_vzeroupper
	vzeroupper
	addq	%rdi, %rdx
	jmp	hl__copy_bytes
ENDFUNC hl__copy_bytes_n_vzeroupper

/*
 * Vector registers: register i of width w, ymm/xmm
 * 0-7 (VEX, evex = 0) or 16-23 (EVEX, which leave no dirty upper state);
 * CLD and CST load and store one unaligned (CSTA: aligned) vector (vec.h).
 */
.macro CLD evex, w, i, src:vararg
	VMOV	\evex, \w, u, \i, 1, \src
.endm
.macro CST evex, w, i, dst:vararg
	VMOV	\evex, \w, u, \i, 0, \dst
.endm
.macro CSTA evex, w, i, dst:vararg
	VMOV	\evex, \w, a, \i, 0, \dst
.endm

/*
 * CSMALL: n = rdx in 0..63 (the small paths' form: see CTN), eax = 0.
 * Both loads, then both stores (so a fault in either load has stored
 * nothing); at most two of each, overlapping in the middle. The compares
 * split the sizes in halves, not in a chain from the top as SMALL in
 * zero.S: n >= 16, then n >= 4, then 1-3 bytes as one class (the first
 * byte, and the last two when n > 1; one compare tells 0, 1 and more
 * apart), so that a call of 1-3 bytes runs three compares after the
 * entry's where the chain ran five or six, 4-7 bytes three where they ran
 * four, 8-31 bytes as many as before (three, two), and 32-63 bytes two
 * where they ran one. A loop of small copies
 * from memory not in the cache pays for every branch a call runs before
 * its loads (docs/copy.md, "Cold small copies: what the entry costs").
 * r0 and r1 are the vector registers' numbers. The 16-63 B paths start
 * on a 16-byte boundary: after the public entry's small check put 19
 * bytes before CSMALL, their compare with 32 straddled a 64-byte boundary
 * and hot copies of 32-63 B took 0.4-0.5 ns a call more on the Intel Xeon
 * (family 6 model 0xcf); tests/build/zero_layout.sh now fails on any
 * instruction of a path below 64 B that straddles one.
 */
/*
 * CPAIR size, ld, a, b, st, sa, sb: the first and the last size bytes of
 * n = rdx, both loaded (ld into a and b), then both stored (st from sa
 * and sb, the same registers' low size bytes), and return.
 */
.macro CPAIR size, ld, a, b, st, sa, sb
	\ld	(%rsi), \a
	\ld	-\size(%rsi,%rdx), \b
	\st	\sa, (%rdi)
	\st	\sb, -\size(%rdi,%rdx)
	ret
.endm

/*
 * CVPAIR evex, w, r0, r1: the same with two vectors of w bytes (CLD, CST),
 * without the return, which the VEX body's wider pairs follow with
 * vzeroupper (VZU_COPY).
 */
.macro CVPAIR evex, w, r0, r1
	CLD	\evex, \w, \r0, (%rsi)
	CLD	\evex, \w, \r1, -\w(%rsi,%rdx)
	CST	\evex, \w, \r0, (%rdi)
	CST	\evex, \w, \r1, -\w(%rdi,%rdx)
.endm

.macro CSMALL evex, r0, r1
	cmpl	$16, %edx
	jae	40f
	cmpl	$4, %edx
	jae	41f
	cmpl	$1, %edx
	jb	33f
	movzbl	(%rsi), %r8d
	je	36f
	movzwl	-2(%rsi,%rdx), %r9d
	movw	%r9w, -2(%rdi,%rdx)
36:	movb	%r8b, (%rdi)
33:	ret
41:	cmpl	$8, %edx
	jae	34f
	CPAIR	4, movl, %r8d, %r9d, movl, %r8d, %r9d
34:	CPAIR	8, movq, %r8, %r9, movq, %r8, %r9
	.p2align 4
40:	cmpl	$32, %edx
	jae	30f
	CVPAIR	\evex, 16, \r0, \r1
	ret
30:	CVPAIR	\evex, 32, \r0, \r1
	VZU_COPY \evex
	ret
.endm

/*
 * hl_try_copy's entry checks: hl_try_zero's (try_checks.h) on both ranges,
 * [dst, dst + n) and [src, src + n), each written as one compare and one
 * branch, since a loop of small copies from memory not in the cache pays
 * for every branch, load and instruction a call adds (docs/copy.md,
 * "Small copies from memory not in the cache" and "Cold small copies:
 * what the entry costs"). A failed COPY_CHECKS goes to
 * hl__try_copy_slow (../../copy.c) with rdi, rsi and rdx as they came,
 * which sorts the call out exactly (hl__user_range) and comes back to
 * hl__try_copy_checked, or returns n. rax = the offset of
 * hl__try_thread_tops (arch.h) from %fs.
 *
 * COPY_SMALL_CHECK, for n <= 8w (hl_arch_copy_direct_max: arch.h): dst | src
 * below the thread's small_top, top - 8w + 1. Each pointer is at most
 * their OR, so both ranges end at or below top, and none wraps. The small
 * top is 0 while the redirect is not NULL (a variant forced) and in a
 * thread not known yet: the call then goes on to COPY_CHECKS and the
 * redirect (label 20), as a larger one does. rcx is clobbered.
 *
 * COPY_CHECKS, for any n: dst | src | n | (dst + n) | (src + n) at most
 * top. Then no sum wrapped (dst and n are below 2^63: a wrapped sum would
 * need one of them above it) and both ends are at most top. rcx and r8 are
 * clobbered.
 *
 * Both may refuse a range that lies below top, when the OR has more bits
 * set than any of its terms (pointers and ends that together set every bit
 * from 12 up to the top's, e.g. a source in the last 4 GiB below the top
 * and a destination 4 GiB - 4 KiB into another): such a call takes the
 * slow path, which copies it.
 */
.macro COPY_SMALL_CHECK longer
	movq	%rdi, %rcx
	orq	%rsi, %rcx
	cmpq	%fs:8(%rax), %rcx
	jae	\longer
.endm

.macro COPY_CHECKS
	leaq	(%rdi, %rdx), %rcx
	leaq	(%rsi, %rdx), %r8
	orq	%rdi, %rcx
	orq	%rsi, %r8
	orq	%rdx, %rcx
	orq	%r8, %rcx
	cmpq	%fs:(%rax), %rcx
	ja	hl__try_copy_slow
.endm

/*
 * CTAIL64 aligned, r0, ...: the end of the 64-byte vector loop, for
 * n > 512 (rdx = dst_end, r8 = src - dst, the loop done up to at least
 * dst_end - 256), returning; to aligned when dst_end is on a line. As TAIL64
 * in zero.S: four aligned stores end at the last 64-byte boundary of the
 * destination before dst_end, then a byte-masked load and store
 * (AVX512BW) copy the partial line after it, if any; no store straddles a
 * line, so none straddles a page (four unaligned stores ending at dst_end
 * would split one across the page of every destination ending 1-255 bytes
 * past a page boundary, not on a multiple of 64). The masked load reads no
 * byte outside [src, src + n); masked-off bytes do not fault. A
 * destination ending on a line skips it: its four stores ending at
 * dst_end are aligned already. rdi, rsi and rax are untouched: the fixup
 * contract holds.
 */
.macro CTAIL64 aligned, r0, r4, r5, r6, r7
	testb	$63, %dl		/* dst_end on a line: the plain tail */
	jz	\aligned
	movq	%rdx, %r9
	andq	$-64, %r9
	vmovdqu64 -256(%r9,%r8), %zmm\r4
	vmovdqu64 -192(%r9,%r8), %zmm\r5
	vmovdqu64 -128(%r9,%r8), %zmm\r6
	vmovdqu64 -64(%r9,%r8), %zmm\r7
	movl	%edx, %ecx
	movq	$-1, %r10
	shlq	%cl, %r10		/* the count is taken mod 64: no and */
	notq	%r10			/* the low (dst_end mod 64) bits */
	kmovq	%r10, %k1
	vmovdqu8 (%r9,%r8), %zmm\r0{%k1}{z}
	vmovdqa64 %zmm\r4, -256(%r9)
	vmovdqa64 %zmm\r5, -192(%r9)
	vmovdqa64 %zmm\r6, -128(%r9)
	vmovdqa64 %zmm\r7, -64(%r9)
	vmovdqu8 %zmm\r0, (%r9){%k1}
	ret
.endm

/*
 * VEC_COPY: the vector variants, one body for each width and encoding.
 *  avx2:   w = 32, ymm0-7 (VEX); vzeroupper before returning.
 *  avx512: w = 64, zmm16-23 (EVEX; AVX512VL for ymm/xmm16 forms); no
 *          vzeroupper needed.
 * n < 64: CSMALL; n <= 2w: two loads then two stores, the second pair
 * ending at the end, reached with no taken branch (the smallest size of a
 * copy that has to keep up with memcpy's speed; CSMALL, below 64 bytes,
 * must only keep within 2 ns of it, and pays one taken branch for it and
 * up to two more inside);
 * n <= 4w: four; n <= 8w: eight, all loads before the first store. Up to
 * 8w the paths keep n in rdx (CTN: two instructions fewer); above, rcx = n
 * and rdx = dst_end, as the file's protocol says. The compare with 8w
 * comes first at the entry (the public entry's second, after n < 64), so
 * that larger sizes reach the loop by one taken branch where they took two
 * (on the Intel Xeon, family 6 model 0xcf, in one process by turns with
 * the other order: 1.02x-1.11x its speed from 600 B to 2 KiB, 0.97x-1.01x
 * from 200 B to 512 B, which run one more compare or moved). Larger: the
 * last four vectors and the first are loaded, the first stored, then a
 * loop of four unaligned loads and four aligned stores from the first
 * w-aligned destination after it, then the last four stored at the end.
 * (Four head vectors instead of one measured 0.86x glibc memcpy at 1024 B
 * on a Zen 4: the loop started later and ran an iteration the tail wrote
 * again.)
 * auto = 1: the automatic plan. Where the plan has no alias window (Intel),
 * sizes up to hl__copy_plain_max (then vec_max) go straight to the loop,
 * one compare instead of the eight below. When the destination lies 1 to
 * hl__copy_alias_window bytes (the plan's: 8w on AMD, 0 on Intel, where
 * this measured no loss) past the source modulo 4 KiB, the loop's loads
 * would wait on its own
 * recent stores to the same page offset (4K aliasing: 0.45x glibc at 8 KiB
 * on a Zen 4), so it takes rep movsb, which does not; otherwise, above
 * hl__copy_vec_max it stores one
 * vector and runs rep movsb from the w-aligned destination after it (from
 * an unaligned one it measured 0.83-0.87x glibc at 2112 B on a Zen 4); a
 * destination aligned already skips the head (with it, two page-aligned
 * buffers ran 0.78-0.92x glibc from 6 to 24 KiB on an Intel Xeon), and above
 * hl__copy_rep_max jumps to the streaming variant. redirect and
 * checked: the public entry (hl_try_copy), as VEC_ZERO's; sizes up to 8w
 * (hl_arch_copy_direct_max) that pass COPY_SMALL_CHECK, in line, run the
 * small paths without loading the redirect: the small top is 0 in every
 * thread while the redirect is not NULL (arch.h). Two branches and one
 * load before the small paths, where the checks first and the compare
 * after them took four branches, and a variable limit two loads. The
 * public entry tells n < 64 apart first and checks those calls at the
 * start of CSMALL, so they run no compare with 8w: one compare and branch
 * fewer, which a loop of copies from memory not in the cache pays for
 * (docs/copy.md, "Sizes below 64 bytes first"); 64-8w B run the same
 * compares as before, and larger sizes one more, not taken. Larger
 * sizes, and small ones the small top turns away, go to COPY_CHECKS, on
 * the next 64-byte boundary after the small paths, reached by the one
 * taken branch those sizes took before too, and then to the redirect;
 * the slow path comes back to \checked, after COPY_CHECKS. (The limit
 * was 2w, and 129-512 B went through COPY_CHECKS and the redirect: 22
 * instructions before the first load where there are now 12, and
 * 0.91x-0.93x glibc memcpy hot at 384 and 512 B on the Intel Xeon above,
 * where hot loops of such copies are bound by how many instructions a
 * call issues; 1.00x-1.01x with 8w. The 64-128 B pair runs one compare
 * more, n > 2w, after n < 64: the same ratio to glibc as before within
 * the runs' spread.)
 */
.macro VEC_COPY fn, w, evex, auto, redirect=, checked=, v0=16, v1=17, v2=18, v3=19, v4=20, v5=21, v6=22, v7=23
.ifnb \checked
FUNC \fn, public
	movq	hl__try_thread_tops@gottpoff(%rip), %rax
	cmpq	$64, %rdx
	jb	19f
	cmpq	$(8*\w), %rdx
	ja	20f
	COPY_SMALL_CHECK 20f
	xorl	%eax, %eax
.L\fn\()_from_n:
.else
	VEC_ENTRY \fn
	xorl	%eax, %eax
	cmpq	$(8*\w), %rdx
	ja	21f
.L\fn\()_from_n:
	cmpq	$64, %rdx
	jb	19f
.endif
18:	cmpq	$(2*\w), %rdx
	ja	17f
	CVPAIR	\evex, \w, \v0, \v1
	VZU_COPY \evex
	ret
17:	cmpq	$(4*\w), %rdx
	jbe	16f
	CLD	\evex, \w, \v0, (%rsi)
	CLD	\evex, \w, \v1, \w(%rsi)
	CLD	\evex, \w, \v2, (2*\w)(%rsi)
	CLD	\evex, \w, \v3, (3*\w)(%rsi)
	CLD	\evex, \w, \v4, -(4*\w)(%rsi,%rdx)
	CLD	\evex, \w, \v5, -(3*\w)(%rsi,%rdx)
	CLD	\evex, \w, \v6, -(2*\w)(%rsi,%rdx)
	CLD	\evex, \w, \v7, -\w(%rsi,%rdx)
	CST	\evex, \w, \v0, (%rdi)
	CST	\evex, \w, \v1, \w(%rdi)
	CST	\evex, \w, \v2, (2*\w)(%rdi)
	CST	\evex, \w, \v3, (3*\w)(%rdi)
	CST	\evex, \w, \v4, -(4*\w)(%rdi,%rdx)
	CST	\evex, \w, \v5, -(3*\w)(%rdi,%rdx)
	CST	\evex, \w, \v6, -(2*\w)(%rdi,%rdx)
	CST	\evex, \w, \v7, -\w(%rdi,%rdx)
	VZU_COPY \evex
	ret
16:	CLD	\evex, \w, \v0, (%rsi)
	CLD	\evex, \w, \v1, \w(%rsi)
	CLD	\evex, \w, \v2, -(2*\w)(%rsi,%rdx)
	CLD	\evex, \w, \v3, -\w(%rsi,%rdx)
	CST	\evex, \w, \v0, (%rdi)
	CST	\evex, \w, \v1, \w(%rdi)
	CST	\evex, \w, \v2, -(2*\w)(%rdi,%rdx)
	CST	\evex, \w, \v3, -\w(%rdi,%rdx)
	VZU_COPY \evex
	ret
	.p2align 5
19:
.ifnb \checked
	COPY_SMALL_CHECK 20f
	xorl	%eax, %eax
.endif
15:	CSMALL	\evex, \v0, \v1
.L\fn\()_end_n:
.ifnb \checked
	.p2align 6
20:	COPY_CHECKS
	/* Where the slow path comes back: the checks passed, whatever n. */
	.globl	\checked
	.hidden	\checked
\checked:
.endif
21:
.ifnb \redirect
	movq	\redirect(%rip), %rax
	testq	%rax, %rax
	jnz	29f
	cmpq	$(8*\w), %rdx		/* the small top shut when read, the redirect NULL */
	jbe	14f
	CONST8	hl_arch_copy_direct_max, 8*\w	/* the public entry's, for arch.h */
.endif
	movq	%rdx, %rcx
	addq	%rdi, %rdx
.L\fn\()_from:
.if \auto
	cmpq	hl__copy_plain_max(%rip), %rcx	/* no window to test, at most vec_max */
	jbe	27f
	movl	%edi, %r8d		/* (dst - src) mod 4096 in 1..window: 4K aliasing */
	subl	%esi, %r8d
	andl	$4095, %r8d
	decl	%r8d
	cmpl	hl__copy_alias_window(%rip), %r8d
	jb	28f
	cmpq	hl__copy_vec_max(%rip), %rcx
	ja	25f
.endif
27:
.if !(\evex && \w == 64)
	CLD	\evex, \w, \v4, -(4*\w)(%rsi,%rcx)
	CLD	\evex, \w, \v5, -(3*\w)(%rsi,%rcx)
	CLD	\evex, \w, \v6, -(2*\w)(%rsi,%rcx)
	CLD	\evex, \w, \v7, -\w(%rsi,%rcx)
.endif
	CLD	\evex, \w, \v0, (%rsi)
	CST	\evex, \w, \v0, (%rdi)
	movq	%rsi, %r8
	subq	%rdi, %r8		/* r8 = src - dst, for the whole loop */
	leaq	-(4*\w)(%rdx), %r9	/* r9: where the last four vectors go */
	addq	$\w, %rdi
	andq	$-\w, %rdi
	leaq	(%rdi,%r8), %rsi
	cmpq	%r9, %rdi
	jae	24f
23:	CLD	\evex, \w, \v0, (%rsi)
	CLD	\evex, \w, \v1, \w(%rsi)
	CLD	\evex, \w, \v2, (2*\w)(%rsi)
	CLD	\evex, \w, \v3, (3*\w)(%rsi)
	CSTA	\evex, \w, \v0, (%rdi)
	CSTA	\evex, \w, \v1, \w(%rdi)
	CSTA	\evex, \w, \v2, (2*\w)(%rdi)
	CSTA	\evex, \w, \v3, (3*\w)(%rdi)
	addq	$(4*\w), %rdi
	addq	$(4*\w), %rsi
	cmpq	%r9, %rdi
	jb	23b
24:
.if \evex && \w == 64
	CTAIL64	30f, \v0, \v4, \v5, \v6, \v7
30:	CLD	\evex, \w, \v4, (%r9,%r8)
	CLD	\evex, \w, \v5, \w(%r9,%r8)
	CLD	\evex, \w, \v6, (2*\w)(%r9,%r8)
	CLD	\evex, \w, \v7, (3*\w)(%r9,%r8)
	CST	\evex, \w, \v4, (%r9)
	CST	\evex, \w, \v5, \w(%r9)
	CST	\evex, \w, \v6, (2*\w)(%r9)
	CST	\evex, \w, \v7, (3*\w)(%r9)
.else
	CST	\evex, \w, \v4, (%r9)
	CST	\evex, \w, \v5, \w(%r9)
	CST	\evex, \w, \v6, (2*\w)(%r9)
	CST	\evex, \w, \v7, (3*\w)(%r9)
	VZU_COPY \evex
.endif
	ret
.if \auto
25:	cmpq	hl__copy_rep_max(%rip), %rcx
	jbe	28f
	VZU_COPY \evex
	movq	%rcx, %rdx		/* nontemporal(dst, src, n) */
	jmp	hl__try_copy_nontemporal
28:	testb	$(\w-1), %dil		/* rep movsb from a w-aligned destination */
	jz	.L\fn\()_rep		/* rcx = n: aligned already, no head */
	CLD	\evex, \w, \v0, (%rsi)
	CST	\evex, \w, \v0, (%rdi)
	VZU_COPY \evex
	movq	%rdi, %r8
	addq	$\w, %rdi
	andq	$-\w, %rdi
	subq	%rdi, %r8		/* minus the head's length */
	subq	%r8, %rsi
	movq	%rdx, %rcx
	subq	%rdi, %rcx
.L\fn\()_rep:
	rep movsb
.L\fn\()_rep_end:
	ret
	CT	.L\fn\()_rep, .L\fn\()_rep_end, hl__copy_bytes
.endif
.L\fn\()_end:
.ifnb \redirect
29:	jmp	*%rax
	/* n <= 8w, checked, the redirect NULL: out of the larger sizes' way */
14:	cmpq	$64, %rdx
	jb	15b
	jmp	18b
.endif
.if \evex
	CTN	.L\fn\()_from_n, .L\fn\()_end_n, hl__copy_bytes_n
	CT	.L\fn\()_from, .L\fn\()_end, hl__copy_bytes
.else
	CTN	.L\fn\()_from_n, .L\fn\()_end_n, hl__copy_bytes_n_vzeroupper
	CT	.L\fn\()_from, .L\fn\()_end, hl__copy_bytes_vzeroupper
.endif
ENDFUNC \fn
.endm

.macro VZU_COPY evex
.if !\evex
	vzeroupper
.endif
.endm

/* rep_movsb: one instruction (ERMS/FSRM make it fast). */
FUNC hl__try_copy_rep_movsb
	movq	%rdx, %rcx
	addq	%rdi, %rdx
	xorl	%eax, %eax
1:	rep movsb
2:	ret
	CT	1b, 2b, hl__copy_bytes
ENDFUNC hl__try_copy_rep_movsb

/*
 * movq: 8-byte loads and stores for CPUs with neither AVX2 nor a fast
 * rep movsb: a 32-byte loop, then an 8-byte one, then bytes.
 */
FUNC hl__try_copy_movq
	movq	%rdx, %rcx
	addq	%rdi, %rdx
	xorl	%eax, %eax
	cmpq	$32, %rcx
	jb	3f
	leaq	-32(%rdx), %rcx
1:	movq	(%rsi), %r8
	movq	8(%rsi), %r9
	movq	16(%rsi), %r10
	movq	24(%rsi), %r11
	movq	%r8, (%rdi)
	movq	%r9, 8(%rdi)
	movq	%r10, 16(%rdi)
	movq	%r11, 24(%rdi)
	addq	$32, %rsi
	addq	$32, %rdi
	cmpq	%rcx, %rdi
	jbe	1b
3:	leaq	-8(%rdx), %rcx
	cmpq	%rdx, %rcx		/* fewer than 8 bytes in all: no 8-byte loop */
	ja	5f
4:	cmpq	%rcx, %rdi
	ja	5f
	movq	(%rsi), %r8
	movq	%r8, (%rdi)
	addq	$8, %rsi
	addq	$8, %rdi
	jmp	4b
5:	cmpq	%rdx, %rdi
	jae	7f
6:	movzbl	(%rsi), %r8d
	movb	%r8b, (%rdi)
	incq	%rsi
	incq	%rdi
	cmpq	%rdx, %rdi
	jb	6b
7:	ret
	CT	1b, 7b, hl__copy_bytes
ENDFUNC hl__try_copy_movq

/*
 * nontemporal: streaming stores (movntdq) for copies far larger than the
 * last-level cache: no read for ownership of the destination, no
 * eviction of useful lines. A 64-byte head and tail with ordinary stores
 * keep the stream line-aligned; below 128 bytes it is movq. sfence
 * before returning.
 *
 * Copies of at least NT_PAGES pages and more run in blocks of NT_PAGES
 * pages copied side by side: each step loads one 64-byte line from each
 * page of the block, then streams them out, so NT_PAGES streams of loads
 * and of stores run at once, each 4 KiB apart. One stream at a time ran at
 * 0.4-0.57x glibc memcpy beyond the last-level cache on an Intel Xeon
 * (family 6 model 0xcf), whose large copies interleave pages this way.
 * Within a block rdi and rsi stay at its start (r10 is the offset), so a
 * fault continues at the block's start, sequentially, and stops exactly.
 * Where AVX-512 runs (hl__copy_nt_zmm, set by x86_64/copy.c), each line
 * is one zmm load and one 64-byte streaming store, which fills a
 * write-combining buffer at once; four 16-byte stores per line ran
 * 0.89x glibc at 256 MiB on the Intel Xeon where whole-line stores ran
 * 1.2x, both in one run. zmm16-19 leave no dirty upper state.
 */
#define NT_PAGES 4
/*
 * NT_BLOCKS wide: copy blocks of NT_PAGES pages while r11 (the bytes left
 * before the tail) holds one, advancing rdi and rsi a block at a time
 * (r10 is the offset inside it). Each step prefetches ahead in every page,
 * loads one line from each, then streams them out: from xmm0-15 in
 * 16-byte stores (wide = 0), or from zmm16-19 in whole-line stores
 * (wide = 1, AVX-512).
 */
.macro NT_BLOCKS wide
.Lnt_block\@:
	xorl	%r10d, %r10d
.Lnt_step\@:
	prefetcht0 256(%rsi,%r10)
	prefetcht0 (4096 + 256)(%rsi,%r10)
	prefetcht0 (2 * 4096 + 256)(%rsi,%r10)
	prefetcht0 (3 * 4096 + 256)(%rsi,%r10)
.if \wide
	leaq	(%rsi,%r10), %rcx
	vmovdqu64 (%rcx), %zmm16
	vmovdqu64 4096(%rcx), %zmm17
	vmovdqu64 (2 * 4096)(%rcx), %zmm18
	vmovdqu64 (3 * 4096)(%rcx), %zmm19
	leaq	(%rdi,%r10), %rcx
	vmovntdq %zmm16, (%rcx)
	vmovntdq %zmm17, 4096(%rcx)
	vmovntdq %zmm18, (2 * 4096)(%rcx)
	vmovntdq %zmm19, (3 * 4096)(%rcx)
.else
	leaq	(%rsi,%r10), %rcx
	movdqu	(%rcx), %xmm0
	movdqu	16(%rcx), %xmm1
	movdqu	32(%rcx), %xmm2
	movdqu	48(%rcx), %xmm3
	movdqu	4096(%rcx), %xmm4
	movdqu	(4096 + 16)(%rcx), %xmm5
	movdqu	(4096 + 32)(%rcx), %xmm6
	movdqu	(4096 + 48)(%rcx), %xmm7
	movdqu	(2 * 4096)(%rcx), %xmm8
	movdqu	(2 * 4096 + 16)(%rcx), %xmm9
	movdqu	(2 * 4096 + 32)(%rcx), %xmm10
	movdqu	(2 * 4096 + 48)(%rcx), %xmm11
	movdqu	(3 * 4096)(%rcx), %xmm12
	movdqu	(3 * 4096 + 16)(%rcx), %xmm13
	movdqu	(3 * 4096 + 32)(%rcx), %xmm14
	movdqu	(3 * 4096 + 48)(%rcx), %xmm15
	leaq	(%rdi,%r10), %rcx
	movntdq	%xmm0, (%rcx)
	movntdq	%xmm1, 16(%rcx)
	movntdq	%xmm2, 32(%rcx)
	movntdq	%xmm3, 48(%rcx)
	movntdq	%xmm4, 4096(%rcx)
	movntdq	%xmm5, (4096 + 16)(%rcx)
	movntdq	%xmm6, (4096 + 32)(%rcx)
	movntdq	%xmm7, (4096 + 48)(%rcx)
	movntdq	%xmm8, (2 * 4096)(%rcx)
	movntdq	%xmm9, (2 * 4096 + 16)(%rcx)
	movntdq	%xmm10, (2 * 4096 + 32)(%rcx)
	movntdq	%xmm11, (2 * 4096 + 48)(%rcx)
	movntdq	%xmm12, (3 * 4096)(%rcx)
	movntdq	%xmm13, (3 * 4096 + 16)(%rcx)
	movntdq	%xmm14, (3 * 4096 + 32)(%rcx)
	movntdq	%xmm15, (3 * 4096 + 48)(%rcx)
.endif
	addq	$64, %r10
	cmpq	$4096, %r10
	jb	.Lnt_step\@
	addq	$(NT_PAGES * 4096), %rdi
	addq	$(NT_PAGES * 4096), %rsi
	subq	$(NT_PAGES * 4096), %r11
	cmpq	$(NT_PAGES * 4096), %r11
	jae	.Lnt_block\@
.endm

FUNC hl__try_copy_nontemporal
	cmpq	$128, %rdx
	jb	hl__try_copy_movq
	movq	%rdx, %rcx
	addq	%rdi, %rdx
	xorl	%eax, %eax
1:	LINE_LD	%rsi, 0, 1, 2, 3
	LINE_ST	movdqu, %rdi, 0, 1, 2, 3
	movq	%rsi, %r8
	subq	%rdi, %r8
	addq	$64, %rdi
	andq	$-64, %rdi
	leaq	(%rdi,%r8), %rsi
	leaq	-64(%rdx), %r9
	movq	%r9, %r11
	subq	%rdi, %r11
	cmpq	$(NT_PAGES * 4096), %r11
	jb	5f
	cmpb	$0, hl__copy_nt_zmm(%rip)
	jne	16f
	NT_BLOCKS 0
	jmp	5f
16:	NT_BLOCKS 1
5:	cmpq	%r9, %rdi
	jae	3f
2:	prefetchnta 512(%rsi)
	LINE_LD	%rsi, 0, 1, 2, 3
	LINE_ST	movntdq, %rdi, 0, 1, 2, 3
	addq	$64, %rsi
	addq	$64, %rdi
	cmpq	%r9, %rdi
	jb	2b
3:	sfence
	leaq	(%r9,%r8), %r10
	LINE_LD	%r10, 0, 1, 2, 3
	LINE_ST	movdqu, %r9, 0, 1, 2, 3
4:	ret
	CT	1b, 4b, hl__copy_bytes_sfence
ENDFUNC hl__try_copy_nontemporal

	VEC_COPY hl__try_copy_avx2, 32, 0, 0, , , 0, 1, 2, 3, 4, 5, 6, 7
	VEC_COPY hl__try_copy_auto_avx2, 32, 0, 1, , , 0, 1, 2, 3, 4, 5, 6, 7
	VEC_COPY hl__try_copy_avx512, 64, 1, 0
	VEC_COPY hl_try_copy, 64, 1, 1, hl__try_copy_redirect, hl__try_copy_checked

/*
 * hl_try_load64(p, out): rdi = p, rsi = out. The same checks as
 * hl_try_copy's, on [p, p + 8), and p must be 8-byte aligned (both
 * failures that need no system call return false at once); then one
 * load, whose fault (kind 2: the address must lie in [rdi, rdi + 8))
 * continues at 3, returning false. The store to *out is not in the table.
 */
FUNC hl_try_load64, public
	testb	$7, %dil
	jnz	3f
	movq	hl__try_thread_tops@gottpoff(%rip), %rax
	movq	%rdi, %rcx
	addq	$8, %rcx
	jc	3f
	cmpq	%fs:(%rax), %rcx
	ja	hl__try_load64_slow
	.globl	hl__try_load64_checked
	.hidden	hl__try_load64_checked
hl__try_load64_checked:
1:	movq	(%rdi), %rax
2:	movq	%rax, (%rsi)
	movl	$1, %eax
	ret
3:	xorl	%eax, %eax
	ret
	EXTABLE 1b, 2b, 3b, 2
ENDFUNC hl_try_load64
	ASM_FILE_END
/* clang-format on */
