/* SPDX-License-Identifier: MIT */
/*
 * aarch64/zero.S - the arm64 clearing variants, each usable by hl_zero and,
 * through the exception table at the end of this file, by hl_try_zero.
 *
 * Every variant is size_t fn(void *dst, size_t n) (AAPCS64: x0, x1) and
 * returns in x0 the number of bytes it did not clear: always 0 unless a
 * store faulted and the signal handler (../../fault.c, with zero.c beside
 * this file) redirected it to a fixup here.
 *
 * The protocol that makes a fault byte-exact, the same as on x86-64:
 *  - x2 holds end = dst + n from entry to exit;
 *  - x0 is the progress pointer: at any store that may fault, every byte
 *    in [dst, x0) has been written already, so the first byte that can
 *    fault is at or after x0;
 *  - a fault anywhere in a variant's stores continues at hl__zero_bytes,
 *    which clears byte by byte from x0 to end with single-byte stores; the
 *    first of those that faults is the exact first faulting address, and
 *    its fixup returns end - x0.
 * Stores may overlap (small sizes, tails), and repeat bytes the fixup then
 * writes again, but every store lies inside [dst, end): nothing outside the
 * range is ever written. On arm64 a store that straddles into a bad page
 * may have written its part in the good one; the byte loop writes it again.
 * No store starts below x0 (the tails move x0 back to where they start):
 * the kernel may report a straddling store's fault at the store's first
 * byte, which the fixup must find inside [x0, end).
 * DC ZVA clears one aligned block, always inside [x0, end) where it is used;
 * whatever address in that block the kernel reports, it lies in [x0, end).
 * The table ranges of the functions that use DC ZVA start at the function's
 * first instruction (for hl_try_zero, before its entry checks): qemu 7.2
 * (linux-user) reports a repeated DC ZVA fault at the pc of the function's
 * entry, not of the DC ZVA (with x0 and x2 as they were at the fault). On
 * hardware the pc is exact and lies inside the range anyway; no fault can
 * occur before the first store.
 *
 * Each variant is assembled twice: hl__zero_<name> for hl_zero, with no
 * exception-table entries, so that a fault in it is the crash it would be
 * in memset; and hl__try_zero_<name> for hl_try_zero, whose stores are in
 * the table. Being in the second copy is what "armed" means: it costs no
 * instruction. The variants are leaf functions that touch no stack and
 * only the caller-saved x0-x5 and v0, so a fixup may `ret`.
 */

#include "../asm.h"
#include "thread_top.h"

/* ZVA_BYTES reg, tmp: the DC ZVA block size in bytes, from DCZID_EL0 (4 << BS). */
.macro ZVA_BYTES reg, tmp
	mrs	\tmp, dczid_el0
	and	\tmp, \tmp, #15
	mov	\reg, #4
	lsl	\reg, \reg, \tmp
.endm


	.text

/*
 * The shared fixup: clear byte by byte from x0 to x2. Returns 0 when it
 * reaches the end, or the bytes left when a store faults. The table entry
 * covers the whole loop, not just its store (nothing else in it can
 * fault): an emulator that unrolls a loop this small may report a fault
 * of the unrolled store at another of its instructions (valgrind does).
 */
FUNC hl__zero_bytes
.Lbyte_store:
	cmp	x0, x2
	b.hs	2f
	strb	wzr, [x0]
	add	x0, x0, #1
	b	.Lbyte_store
.Lbyte_store_end:
2:	mov	x0, #0
	ret
.Lbyte_fault:
	sub	x0, x2, x0
	ret
	EXTABLE .Lbyte_store, .Lbyte_store_end, .Lbyte_fault
ENDFUNC hl__zero_bytes

/*
 * The mops fixup: the SET instructions advance their own registers (x3,
 * x4) in a form that depends on the CPU's algorithm (options A and B), so
 * x0 stays at dst while they run, and a fault redoes the range from dst.
 */
FUNC hl__zero_bytes_from_dst
	b	hl__zero_bytes
ENDFUNC hl__zero_bytes_from_dst

/*
 * STP_BODY: clear [x0, x2), x1 = x2 - x0 bytes, with plain stores, and
 * return 0. Sizes below 16 by overlapping 8-, 4-, 2- and 1-byte stores
 * from both ends; 16..64 by two or four overlapping 16-byte stores; larger
 * by 64 bytes at dst, a loop of 64-byte steps (two q-register pairs) from
 * the next 64-byte boundary, and 64 bytes ending at end. Uses x3 and v0.
 * Each small case returns where it stores, with no jump to a shared
 * return: taken branches per call, 16..64 bytes at most one, 8..15 one,
 * 4..7 two, 2..3 three, 0 and 1 four (the x86-64 entry's figures are in
 * its SMALL macro). Not timed: this machine's arm64 is qemu.
 */
/*
 * ZWORDS bit, next, zr, size: unless bit of n (x1) is clear (then to
 * next), clear the first and the last size bytes (zr: xzr or wzr) and
 * return 0.
 */
.macro ZWORDS bit, next, zr, size
	tbz	x1, #\bit, \next
	str	\zr, [x0]
	str	\zr, [x2, #-\size]
	mov	x0, #0
	ret
.endm

/* ZLINE64: the 64 bytes at x0 cleared from q0 (zero). */
.macro ZLINE64
	stp	q0, q0, [x0]
	stp	q0, q0, [x0, #32]
.endm

.macro STP_BODY
	cmp	x1, #16
	b.lo	20f
	cmp	x1, #64
	b.hi	24f
	stp	xzr, xzr, [x0]
	stp	xzr, xzr, [x2, #-16]
	cmp	x1, #32
	b.ls	29f
	stp	xzr, xzr, [x0, #16]
	stp	xzr, xzr, [x2, #-32]
	mov	x0, #0
	ret
20:	ZWORDS	3, 21f, xzr, 8
21:	ZWORDS	2, 22f, wzr, 4
22:	cbz	x1, 29f
	strb	wzr, [x0]
	tbz	x1, #1, 29f
	strh	wzr, [x2, #-2]
	mov	x0, #0
	ret
24:	movi	v0.16b, #0
	ZLINE64
	add	x0, x0, #64
	and	x0, x0, #-64
	sub	x3, x2, #64
	cmp	x0, x3
	b.hs	26f
25:	ZLINE64
	add	x0, x0, #64
	cmp	x0, x3
	b.lo	25b
26:	mov	x0, x3		/* the tail's stores start at the progress pointer */
	ZLINE64
29:	mov	x0, #0
	ret
.endm

/*
 * ZVA_BODY: clear [x0, x2) with DC ZVA for the whole blocks, plain stores
 * for the rest; x1 = x2 - x0 must be at least twice the block, and the
 * block at least 64 bytes (the plan and dc_zva's support check see to
 * both). Uses x3-x5 and v0.
 */
.macro ZVA_BODY
	ZVA_BYTES x4, x5
	sub	x5, x4, #1
	movi	v0.16b, #0
	/* Head: 64-byte steps up to the first block boundary. */
	add	x3, x0, x5
	bic	x3, x3, x5
30:	cmp	x0, x3
	b.hs	31f
	ZLINE64
	add	x0, x0, #64
	and	x0, x0, #-64
	b	30b
31:	mov	x0, x3
	/* Whole blocks. */
	bic	x3, x2, x5
32:	cmp	x0, x3
	b.hs	33f
	dc	zva, x0
	add	x0, x0, x4
	b	32b
	/* Tail: 64-byte steps, then 64 bytes ending at end. */
33:	sub	x3, x2, #64
34:	cmp	x0, x3
	b.hs	35f
	ZLINE64
	add	x0, x0, #64
	b	34b
35:	cmp	x0, x2
	b.hs	36f
	mov	x0, x3		/* as above: no store starts below x0 */
	ZLINE64
36:	mov	x0, #0
	ret
.endm

/*
 * TRY_ZERO_CHECKS slow: what hl_try_zero checks before it stores anything;
 * a check that fails branches to slow, a jump to hl__try_zero_slow
 * (../../zero.c), which sorts the call out and comes back to
 * hl__try_zero_checked, just after these checks, or returns n. One
 * comparison does both checks: the range must not wrap (b.cs) and must end
 * at or below hl__try_thread_tops.top, a thread-local copy of the end of
 * the user address space that is 0 until a call has found this thread not
 * blocking SIGSEGV and SIGBUS (b.hi). Initial-exec TLS. Only x2-x4 are
 * touched, which the entry sets again.
 */
.macro TRY_ZERO_CHECKS slow
	adds	x2, x0, x1
	b.cs	\slow
	THREAD_TOP x3, x4
	cmp	x2, x3
	b.hi	\slow
.endm

/*
 * VARIANTS pfx, entry, redirect[, checked]: every variant, named
 * \pfx<variant>, and the public entry point (hl_zero or hl_try_zero; for
 * hl_try_zero, TRY_ZERO_CHECKS first, and checked names the point after
 * them).
 *
 * The entry point is the automatic plan behind the redirect (arch.h): a
 * load-acquire of the redirect, which orders the plan's threshold after
 * it (zero.c publishes the threshold, then the redirect with release);
 * when it is not NULL, a tail call there; otherwise stp up to
 * hl__zero_vec_max bytes and dc_zva beyond (the plan sets the threshold to
 * SIZE_MAX when DC ZVA is not to be used).
 */
.macro VARIANTS pfx, entry, redirect, checked=
FUNC \entry, public
.L\entry\()_start:
.ifnb \checked
	TRY_ZERO_CHECKS .L\entry\()_slow
	.globl	\checked
	.hidden	\checked
\checked:
.endif
0:	add	x2, x0, x1
	adrp	x3, \redirect
	add	x3, x3, :lo12:\redirect
	ldar	x3, [x3]
	cbnz	x3, 3f
	adrp	x3, hl__zero_vec_max
	ldr	x3, [x3, :lo12:hl__zero_vec_max]
	cmp	x1, x3
	b.hi	2f
1:	STP_BODY
2:	ZVA_BODY
3:	br	x3
4:
.ifnb \checked
.L\entry\()_slow:
	b	hl__try_zero_slow
.endif
	XT	.L\entry\()_start, 4b, hl__zero_bytes
ENDFUNC \entry

FUNC \pfx\()stp
	add	x2, x0, x1
1:	STP_BODY
2:
	XT	1b, 2b, hl__zero_bytes
ENDFUNC \pfx\()stp

/* dc_zva forced on a size below two blocks clears it with stp's stores. */
FUNC \pfx\()dc_zva
0:	add	x2, x0, x1
	ZVA_BYTES x4, x5
	cmp	x1, x4, lsl #1
	b.hs	2f
1:	STP_BODY
2:	ZVA_BODY
3:
	XT	0b, 3b, hl__zero_bytes
ENDFUNC \pfx\()dc_zva

/*
 * FEAT_MOPS: SETP/SETM/SETE clear the whole range, the CPU choosing how.
 * Run only when HWCAP2_MOPS says the CPU and kernel support it.
 */
FUNC \pfx\()mops
	add	x2, x0, x1
	mov	x3, x0
	mov	x4, x1
1:	setp	[x3]!, x4!, xzr
	setm	[x3]!, x4!, xzr
	sete	[x3]!, x4!, xzr
2:	mov	x0, #0
	ret
	XT	1b, 2b, hl__zero_bytes_from_dst
ENDFUNC \pfx\()mops
.endm

	.arch_extension mops

	.set	.Ltry_copy, 0
	VARIANTS hl__zero_, hl_zero, hl__zero_redirect
	.set	.Ltry_copy, 1
	VARIANTS hl__try_zero_, hl_try_zero, hl__try_zero_redirect, hl__try_zero_checked

	ASM_FILE_END
