/* SPDX-License-Identifier: MIT */
/*
 * x86_64/zero.S - the x86-64 clearing variants, each usable by hl_zero and,
 * through the exception table at the end of this file, by hl_try_zero.
 *
 * Every variant is size_t fn(void *dst, size_t n) (System V: rdi, rsi) and
 * returns in rax the number of bytes it did not clear: always 0 unless a
 * store faulted and the signal handler (../../fault.c) redirected it here.
 *
 * The protocol that makes a fault byte-exact, shared by every variant:
 *  - rdx holds end = dst + n from entry to exit;
 *  - rdi is the progress pointer: at any store that may fault, every byte
 *    in [dst, rdi) has been written already, so the first byte that can
 *    fault is at or after rdi;
 *  - a fault anywhere in a variant's stores continues at a fixup that
 *    clears byte by byte from rdi to end with single-byte stores; the first
 *    of those that faults is the exact first faulting address, and its
 *    fixup returns end - rdi.
 * Stores may overlap (small sizes, tails), and repeat bytes the fixup then
 * writes again, but every store lies inside [dst, end): nothing outside the
 * range is ever written. A store that faults writes nothing on x86, even
 * when it straddles into a good page.
 *
 * Each variant is assembled twice: hl__zero_<name> for hl_zero, with no
 * exception-table entries, so that a fault in it is the crash it would be
 * in memset; and hl__try_zero_<name> for hl_try_zero, whose stores are in
 * the table. Being in the second copy is what "armed" means: it costs no
 * instruction, and a signal handler that interrupts hl_try_zero and then
 * faults in hl_zero is not rescued. The variants are leaf functions that
 * touch no stack, so a fixup may `ret`.
 */

#include "../asm.h"
#include "try_checks.h"
#include "vec.h"

/*
 * The largest size SMALL clears: the entries run it without loading their
 * redirect while that is NULL (arch.h, hl_arch_zero_direct_max, defined
 * here from it).
 */
#define ZERO_DIRECT_MAX 63


	.text

/*
 * The shared fixup: clear byte by byte from rdi to rdx. Entered from a
 * variant's fixup with eax = 0; returns the bytes left when a store faults.
 * The table entry covers the whole loop, not just its store (nothing else
 * in it can fault): valgrind unrolls a loop this small and then reports a
 * fault in the unrolled store at the pc of the loop's branch.
 */
FUNC hl__zero_bytes
	xorl	%eax, %eax
	cmpq	%rdx, %rdi
	jae	2f
.Lbyte_store:
	movb	%al, (%rdi)
	incq	%rdi
	cmpq	%rdx, %rdi
	jb	.Lbyte_store
.Lbyte_store_end:
2:	ret
.Lbyte_fault:
	movq	%rdx, %rax
	subq	%rdi, %rax
	ret
	EXTABLE .Lbyte_store, .Lbyte_store_end, .Lbyte_fault
ENDFUNC hl__zero_bytes

/* Fixups for variants that leave vector or streaming state behind. */
FUNC hl__zero_bytes_vzeroupper
	vzeroupper
	jmp	hl__zero_bytes
ENDFUNC hl__zero_bytes_vzeroupper

FUNC hl__zero_bytes_sfence
	sfence
	jmp	hl__zero_bytes
ENDFUNC hl__zero_bytes_sfence

/*
 * Vector stores of w bytes (vec.h), a = u or a: ymm0 (VEX) when evex = 0;
 * ymm16 or zmm16 (EVEX) when evex = 1. VSTU unaligned, VSTA aligned.
 */
.macro ZST evex, w, a, dst
.if \evex
	VMOV	1, \w, \a, 16, 0, \dst
.else
	VMOV	0, \w, \a, 0, 0, \dst
.endif
.endm
.macro VSTU evex, w, dst
	ZST	\evex, \w, u, \dst
.endm
.macro VSTA evex, w, dst
	ZST	\evex, \w, a, \dst
.endm
/* Leaving the function: ymm0 dirtied the upper state, zmm16 does not. */
.macro VZU evex
.if !\evex
	vzeroupper
.endif
.endm

/*
 * HEAD_TAIL evex, w, k: for 2(k-1)w < n <= 2kw (k = 1, 2 or 4), k
 * unaligned stores from dst and k ending at end, overlapping in the
 * middle; then return.
 */
.macro HEAD_TAIL evex, w, k
	VSTU	\evex, \w, (%rdi)
.if \k >= 2
	VSTU	\evex, \w, \w(%rdi)
.endif
.if \k >= 4
	VSTU	\evex, \w, (2*\w)(%rdi)
	VSTU	\evex, \w, (3*\w)(%rdi)
	VSTU	\evex, \w, -(4*\w)(%rdx)
	VSTU	\evex, \w, -(3*\w)(%rdx)
.endif
.if \k >= 2
	VSTU	\evex, \w, -(2*\w)(%rdx)
.endif
	VSTU	\evex, \w, -\w(%rdx)
	VZU	\evex
	ret
.endm

/* Zero the vector register: xmm0 (VEX), or xmm16 (EVEX), and so its ymm/zmm. */
.macro VZERO evex
.if \evex
	vpxord	%xmm16, %xmm16, %xmm16
.else
	vpxor	%xmm0, %xmm0, %xmm0
.endif
.endm

/* 16-byte stores: xmm0 (VEX) when evex = 0, xmm16 (EVEX) when evex = 1. */
.macro VST16 evex, dst
	ZST	\evex, 16, u, \dst
.endm

/*
 * SMALL: sizes 0..63, the sizes most calls have (docs/zero.md, "Small
 * sizes"). At most two stores per call: in a cold buffer each store holds
 * a store-queue entry until its line arrives, and four overlapping stores
 * per call measured 0.7-0.8x glibc there. A chain of compares from the
 * largest class down, each taken only to its own class, so that no size
 * takes more than two taken branches, and the smallest, where a call's
 * whole cost is its branches, the fewest (a hot loop can take about one
 * taken branch a cycle, and a call, its ret and the loop's own take three
 * already):
 *   16..63: one jump, then 32..63 two 32-byte stores, falling through;
 *           16..31 two 16-byte stores, one more jump;
 *    8..15: two 8-byte stores, one jump;
 *    4..7:  two 4-byte stores, one jump;
 *    2..3:  two 2-byte stores, one jump;
 *    1:     one byte, no jump (0: one, no store).
 * The cascade this replaces took three taken branches at 1 byte and
 * measured 0.79x glibc there on an Intel Xeon (family 6 model 0xcf).
 * All of it lies in the function's first 128 bytes
 * (tests/build/zero_layout.sh). rdi stays at dst and every store lies in
 * [dst, end), so the fixup contract holds unchanged.
 * Expects eax = 0, rdx = end, n < 64.
 */
.macro SMALL evex
	cmpl	$32, %esi
	jae	30f
	cmpl	$16, %esi
	jae	31f
	cmpl	$8, %esi
	jae	34f
	cmpl	$4, %esi
	jae	35f
	cmpl	$2, %esi
	jae	32f
	testl	%esi, %esi
	je	33f
	movb	%al, (%rdi)
33:	ret
	.p2align 5
30:	VZERO	\evex
	VSTU	\evex, 32, (%rdi)
	VSTU	\evex, 32, -32(%rdx)
	VZU	\evex
	ret
31:	VZERO	\evex
	VST16	\evex, (%rdi)
	VST16	\evex, -16(%rdx)
	ret
34:	movq	%rax, (%rdi)
	movq	%rax, -8(%rdx)
	ret
35:	movl	%eax, (%rdi)
	movl	%eax, -4(%rdx)
	ret
32:	movw	%ax, (%rdi)
	movw	%ax, -2(%rdx)
	ret
.endm

/*
 * PARTLINE line: clear [line, end) with one byte-masked store (AVX512BW),
 * line the last 64-byte boundary before end = rdx, which is not on one;
 * zmm16 zero. Masked-off bytes are not written and do not fault. Clobbers
 * rcx, r8 and k1.
 */
.macro PARTLINE line
	movl	%edx, %ecx
	movq	$-1, %r8
	shlq	%cl, %r8		/* the count is taken mod 64: no and */
	notq	%r8			/* the low (end mod 64) bits */
	kmovq	%r8, %k1
	vmovdqu8 %zmm16, (\line){%k1}
.endm

/*
 * TAIL64 aligned: the end of a 64-byte vector loop, for n > 512 (zmm16
 * zero, rdx = end, the loop done up to at least end - 256), returning; to
 * aligned when end is on a line. Four aligned stores end at
 * the last 64-byte boundary before end, then one byte-masked store
 * (AVX512BW) clears the partial line after it, if any. No store straddles a
 * line, so none straddles a page: four unaligned stores ending at end would
 * put one across the page boundary of every buffer ending 1-255 bytes past
 * it, not on a multiple of 64, and a store split across pages measured
 * 1.25-1.33x glibc's time for a clear of 4128-4320 B on an Intel Xeon
 * (family 6 model 0xcf), against 0.89-0.97x for ends on 64-byte
 * boundaries. A buffer ending on a line skips it: its four stores ending
 * at end are aligned already (the mask's set-up measured 0.885x glibc at
 * 1 KiB hot where it ran for every size, 1.01-1.06x without it); ending
 * elsewhere, even with no page near, aligned stores and the mask beat four
 * stores split across lines (1.12x against 1.00x at 1000 B hot).
 * rdi and rax are untouched: the fixup contract holds.
 */
.macro TAIL64 aligned
	testb	$63, %dl		/* end on a line: the plain tail */
	jz	\aligned
	movq	%rdx, %r9
	andq	$-64, %r9
	vmovdqa64 %zmm16, -256(%r9)
	vmovdqa64 %zmm16, -192(%r9)
	vmovdqa64 %zmm16, -128(%r9)
	vmovdqa64 %zmm16, -64(%r9)
	PARTLINE %r9
	ret
.endm

/*
 * MID64: 128 < n <= 256 with zmm16 zero and rdx = end, returning: each
 * line written once, in ascending order, none by a store that straddles
 * two lines when dst is on a line. One unaligned store at dst; three
 * aligned stores that cover every whole line from the first boundary
 * after dst up to the last boundary before end, the middle one clamped so
 * that where there are only one or two such lines it repeats the one
 * before it rather than go back to the head's; then one byte-masked store
 * (AVX512BW) for the part line after the last boundary, if any. Four
 * overlapping stores, two from dst and two ending at end, cross a line
 * twice and come back to a line already written (the second store from
 * end starts in the line the first from dst wrote), and in a buffer not
 * in the cache that costs: 0.92x-0.97x glibc at 136-176 B cold, against
 * 1.05x-1.12x for eight 32-byte stores, on an Intel Xeon (family 6 model
 * 0xcf). rdi and rax are untouched: the fixup contract holds.
 */
.macro MID64
	vmovdqu64 %zmm16, (%rdi)
	leaq	64(%rdi), %r9
	andq	$-64, %r9		/* the first boundary after dst */
	movq	%rdx, %r10
	andq	$-64, %r10		/* the last at or before end */
	leaq	-128(%r10), %r8
	cmpq	%r9, %r8
	cmovbq	%r9, %r8
	vmovdqa64 %zmm16, (%r9)
	vmovdqa64 %zmm16, (%r8)
	vmovdqa64 %zmm16, -64(%r10)
	testb	$63, %dl		/* end on a line: done */
	jz	1f
	PARTLINE %r10
1:	ret
.endm

/*
 * VEC_ZERO: the vector variants, one body for both widths.
 *  avx2:   w = 32, ymm0 and VEX stores; vzeroupper after any ymm store.
 *  avx512: w = 64, zmm16 and EVEX stores (AVX512VL for the xmm16/ymm16
 *          forms). Registers 16-31 leave no dirty upper state behind, so
 *          no vzeroupper is needed, as in glibc's evex string functions.
 * n < 64: SMALL, straight after the entry; n <= 2w: two overlapping
 * stores of width w; n <= 4w: four (avx512: MID64, each line once, in
 * address order); n <= 8w: eight; larger: four
 * unaligned stores from dst, an aligned loop of four w-byte stores from the
 * first boundary after them, then four stores that end at end. The head's
 * stores depend on nothing but dst, so they issue while the loop's start
 * is computed: with one head store instead, hl_zero measured 0.91-0.95x
 * glibc at 1000-1024 B hot on a Zen 4 (docs/zero.md, "Mid sizes").
 * auto = 1 makes it the automatic plan that zero.c (beside this file)
 * sets: above hl__zero_vec_max rep_stosb, above hl__zero_rep_max the
 * streaming stores. A non-empty redirect names a function pointer: when
 * it is not NULL the call goes there instead (how hl_zero and hl_try_zero,
 * which are this body, run a forced variant, or a resolver). Only sizes
 * above \redirect_direct_max load it (arch.h): 63 while the redirect is
 * NULL, so that SMALL, the sizes most calls have, pays one compare for
 * both; 0 while it is not, so that every size but 0 (nothing to clear)
 * goes to the redirect. A call that read 0 there and then NULL in the
 * redirect (it raced zero.c's change back to the automatic plan) returns
 * to SMALL below 64 bytes.
 * A non-empty checked makes it hl_try_zero, whose entry is one gate
 * (TRY_ZERO_GATE) and then the body straight away, at the label
 * hl__try_zero_body, with no load of the redirect: the gate stays shut
 * while the redirect is not NULL (zero.c, fault.c), so what passes it runs
 * this body's automatic plan. SMALL is taken up to its fixed limit, and
 * the redirect's check after it (three instructions and a load) is not
 * there at all: with it, hl_try_zero ran 0.77-0.85x hl_zero at 64-128 B
 * and 0.83-0.91x at 256 B hot on an Intel Xeon (family 6 model 0xcf);
 * with the gate, 0.96-1.02x and 0.98-1.01x (docs/zero.md, "The gate"). A
 * call the gate stops goes out of line, after the body, to the checks of
 * the thread's own end of user space (TRY_ZERO_CHECKS, which send a
 * failing call to the slow path), then to \checked: the redirect, or
 * this body if it is NULL. The slow path comes back to \checked too. The
 * entry, where a call lands, is on a 64-byte boundary, as hl_zero's is.
 */
.macro VEC_ZERO fn, pfx, w, evex, auto, redirect=, checked=
.ifb \checked
	VEC_ENTRY \fn, \redirect
	leaq	(%rdi, %rsi), %rdx
.else
	FUNC \fn, public
	TRY_ZERO_GATE 28f
	.globl	hl__try_zero_body
	.hidden	hl__try_zero_body
hl__try_zero_body:
.endif
	xorl	%eax, %eax
.L\fn\()_from:
.ifb \redirect
	cmpq	$ZERO_DIRECT_MAX, %rsi
.else
.ifnb \checked
	cmpq	$ZERO_DIRECT_MAX, %rsi	/* the gate was open: the redirect is NULL */
.else
	cmpq	\redirect\()_direct_max(%rip), %rsi
.endif
.endif
	ja	20f
18:	SMALL	\evex
	.balign	64	/* n >= 64: from the next 64-byte block */
20:
.ifnb \redirect
.ifb \checked
	movq	\redirect(%rip), %rax
	testq	%rax, %rax
	jnz	29f
	cmpq	$ZERO_DIRECT_MAX, %rsi	/* direct_max was 0 when read, the redirect NULL */
	jbe	18b
.endif
.endif
	VZERO	\evex
	cmpq	$(2*\w), %rsi
	ja	21f
	HEAD_TAIL \evex, \w, 1
21:	cmpq	$(4*\w), %rsi
	ja	26f
.if \evex && \w == 64
	MID64
.else
	HEAD_TAIL \evex, \w, 2
.endif
26:	cmpq	$(8*\w), %rsi
	ja	22f
	HEAD_TAIL \evex, \w, 4
22:
.if \auto
	cmpq	hl__zero_vec_max(%rip), %rsi
	ja	25f
.endif
	VSTU	\evex, \w, (%rdi)
	VSTU	\evex, \w, \w(%rdi)
	VSTU	\evex, \w, (2*\w)(%rdi)
	VSTU	\evex, \w, (3*\w)(%rdi)
	leaq	-(4*\w)(%rdx), %rcx
	addq	$(4*\w), %rdi
	andq	$-\w, %rdi
	cmpq	%rcx, %rdi
	jae	24f
23:	VSTA	\evex, \w, (%rdi)
	VSTA	\evex, \w, \w(%rdi)
	VSTA	\evex, \w, (2*\w)(%rdi)
	VSTA	\evex, \w, (3*\w)(%rdi)
	addq	$(4*\w), %rdi
	cmpq	%rcx, %rdi
	jb	23b
24:
.if \evex && \w == 64
	TAIL64	27f
27:
.endif
	VSTU	\evex, \w, (%rcx)
	VSTU	\evex, \w, \w(%rcx)
	VSTU	\evex, \w, (2*\w)(%rcx)
	VSTU	\evex, \w, (3*\w)(%rcx)
	VZU	\evex
	ret
.L\fn\()_end:
.if \auto
25:	VZU	\evex
	cmpq	hl__zero_rep_max(%rip), %rsi
	ja	\pfx\()nontemporal
	jmp	\pfx\()rep_stosb
.endif
.ifnb \checked
28:	TRY_ZERO_CHECKS
	.globl	\checked
	.hidden	\checked
\checked:
	movq	\redirect(%rip), %rax
	testq	%rax, %rax
	jnz	29f
	leaq	(%rdi, %rsi), %rdx
	jmp	hl__try_zero_body
.endif
.ifnb \redirect
29:	jmp	*%rax
.endif
.if \evex
	XT	.L\fn\()_from, .L\fn\()_end, hl__zero_bytes
.else
	XT	.L\fn\()_from, .L\fn\()_end, hl__zero_bytes_vzeroupper
.endif
ENDFUNC \fn
.endm

/*
 * TRY_ZERO_CHECKS: what hl_try_zero checks before it stores anything
 * when its gate is shut (try_checks.h): [dst, dst + n) must end at or
 * below this thread's end of user space; else hl__try_zero_slow
 * (../../zero.c) sorts the call out and comes back to
 * hl__try_zero_checked, just after these checks, or returns n.
 */
.macro TRY_ZERO_CHECKS
	TRY_CHECKS %rsi, hl__try_zero_slow, %rdi
.endm

/*
 * TRY_ZERO_GATE shut: hl_try_zero's entry (arch.h, hl__try_zero_gate).
 * rdx = end = dst + n; a sum that wraps goes to the slow path, which
 * refuses it; an end above what this thread's gate reads (the end of user
 * space while the entry's automatic plan is in force and the thread is
 * known, else 0) goes to shut with rdi and rsi as they came. rax is
 * clobbered. Five instructions: the offset of the thread's pointer, the
 * pointer, the sum (a move and an add) and one compare with memory.
 */
.macro TRY_ZERO_GATE shut
	movq	hl__try_zero_gate@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rax
	movq	%rdi, %rdx
	addq	%rsi, %rdx
	jc	hl__try_zero_slow
	cmpq	(%rax), %rdx
	ja	\shut
.endm

/*
 * VARIANTS pfx, entry, redirect: every variant, named \pfx<variant>, and
 * the public entry point (hl_zero or hl_try_zero), which is the automatic
 * plan for AVX-512VL CPUs (avx512 for small sizes) behind the redirect
 * check.
 */
.macro VARIANTS pfx, entry, redirect, checked=

/* rep_stosb: one instruction (ERMS/FSRM/FSRS make it fast). */
FUNC \pfx\()rep_stosb
	leaq	(%rdi, %rsi), %rdx
	movq	%rsi, %rcx
	xorl	%eax, %eax
1:	rep stosb
2:	ret
	XT	1b, 2b, hl__zero_bytes
ENDFUNC \pfx\()rep_stosb

/* rep_stosq: 8-byte string stores, then the 0-7 byte tail (the kernel's REP_GOOD path). */
FUNC \pfx\()rep_stosq
	leaq	(%rdi, %rsi), %rdx
	movq	%rsi, %rcx
	shrq	$3, %rcx
	xorl	%eax, %eax
1:	rep stosq
	movl	%esi, %ecx
	andl	$7, %ecx
	rep stosb
2:	ret
	XT	1b, 2b, hl__zero_bytes
ENDFUNC \pfx\()rep_stosq

/*
 * movq_unrolled: the kernel's clear_user without string instructions: a
 * 64-byte loop of eight movq, then 8-byte stores, then a byte tail.
 */
FUNC \pfx\()movq_unrolled
	leaq	(%rdi, %rsi), %rdx
	xorl	%eax, %eax
	cmpq	$64, %rsi
	jb	3f
	leaq	-64(%rdx), %rcx
1:	movq	%rax, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	movq	%rax, 24(%rdi)
	movq	%rax, 32(%rdi)
	movq	%rax, 40(%rdi)
	movq	%rax, 48(%rdi)
	movq	%rax, 56(%rdi)
	addq	$64, %rdi
	cmpq	%rcx, %rdi
	jbe	1b
3:	movq	%rdx, %rcx
	subq	%rdi, %rcx
	cmpq	$8, %rcx
	jb	5f
	leaq	-8(%rdx), %rcx	/* no wrap: at least 8 bytes are left */
4:	movq	%rax, (%rdi)
	addq	$8, %rdi
	cmpq	%rcx, %rdi
	jbe	4b
5:	cmpq	%rdx, %rdi
	jae	7f
6:	movb	%al, (%rdi)
	incq	%rdi
	cmpq	%rdx, %rdi
	jb	6b
7:	ret
	XT	1b, 7b, hl__zero_bytes
ENDFUNC \pfx\()movq_unrolled

	VEC_ZERO \pfx\()avx2, \pfx, 32, 0, 0
	VEC_ZERO \pfx\()auto_avx2, \pfx, 32, 0, 1
	VEC_ZERO \pfx\()avx512, \pfx, 64, 1, 0
	VEC_ZERO \pfx\()evex256, \pfx, 32, 1, 0
	VEC_ZERO \entry, \pfx, 64, 1, 1, \redirect, \checked

/*
 * nontemporal: streaming stores (movntdq, SSE2, so every x86-64 has it)
 * that bypass the cache, for buffers larger than it: no read for
 * ownership, no eviction of useful lines. A 64-byte head and tail with
 * ordinary stores keep the stream line-aligned; sizes below 128 bytes are
 * not worth a stream and go to movq_unrolled. sfence before returning, so
 * the stores are ordered like ordinary ones for whoever reads them next.
 */
FUNC \pfx\()nontemporal
	cmpq	$128, %rsi
	jb	\pfx\()movq_unrolled
	leaq	(%rdi, %rsi), %rdx
	xorl	%eax, %eax
	pxor	%xmm0, %xmm0
1:	LINE_ST	movdqu, %rdi, 0, 0, 0, 0
	addq	$64, %rdi
	andq	$-64, %rdi
	leaq	-64(%rdx), %rcx
	cmpq	%rcx, %rdi
	jae	3f
2:	LINE_ST	movntdq, %rdi, 0, 0, 0, 0
	addq	$64, %rdi
	cmpq	%rcx, %rdi
	jb	2b
3:	sfence
	LINE_ST	movdqu, %rcx, 0, 0, 0, 0
4:	ret
	XT	1b, 4b, hl__zero_bytes_sfence
ENDFUNC \pfx\()nontemporal
.endm

	.set	.Ltry_copy, 0
	VARIANTS hl__zero_, hl_zero, hl__zero_redirect
	.set	.Ltry_copy, 1
	VARIANTS hl__try_zero_, hl_try_zero, hl__try_zero_redirect, hl__try_zero_checked

	CONST8	hl_arch_zero_direct_max, ZERO_DIRECT_MAX

	ASM_FILE_END
