/* SPDX-License-Identifier: MIT */
/*
 * aarch64/copy.S - hl_try_copy's variants and hl_try_load64 on arm64.
 * Their entries join hl_try_zero's in the one exception table (../asm.h),
 * which the same handler (../../fault.c) searches.
 *
 * Every variant is size_t fn(void *dst, const void *src, size_t n)
 * (AAPCS64: x0, x1, x2) and returns in x0 the bytes it did not copy. The
 * protocol that makes a fault byte-exact on either side, as on x86-64
 * (../x86_64/copy.S):
 *  - x2 holds dst_end = dst + n from the variant's start to its exit;
 *  - x0 and x1 are the progress pointers, always the same distance apart
 *    as dst and src: at any instruction that may fault, every byte of
 *    [dst, x0) has been copied;
 *  - every load and store starts at or after x1 (a load) or x0 (a store),
 *    so whatever address of an access the CPU reports for its fault (the
 *    first byte of the access or of its faulting page, for one that
 *    straddles two pages), it lies in what is left: where a store would
 *    start below x0 (the last 64 bytes of the large path), x0 and x1 are
 *    first moved back to where it starts;
 *  - a fault continues at hl__copy_bytes, which copies byte by byte from
 *    (x0, x1) until x0 reaches x2; its first load or store that faults is
 *    the exact first faulting address, and it returns x2 - x0 (a fault in
 *    the mops body first goes through ldp_stp's, below).
 * Stores may overlap what earlier ones wrote, with the same source bytes,
 * and every store lies inside [dst, dst_end), every load inside
 * [src, src + n). On arm64 a store that straddles into a bad page may have
 * written its part in the good one; those are the right bytes, and the
 * byte loop writes them again. The entries' kind is 1 (copy): the handler
 * (zero.c beside this file) accepts a fault address in [x0, x2) or in
 * [x1, x1 + (x2 - x0)).
 *
 * The variants are leaf functions that touch no stack and only the
 * caller-saved x0-x9 and q0-q3: a fixup may `ret`.
 */

#include "../asm.h"
#include "thread_top.h"

/* clang-format off */

	.text
	/* the mops variant's CPYF* instructions: run only where the CPU has FEAT_MOPS (copy.c) */
	.arch_extension mops

/*
 * The shared fixup: copy byte by byte from (x0, x1) to x2. The entry covers
 * the whole loop (valgrind unrolls small loops: see zero.S).
 */
FUNC hl__copy_bytes
.Lcopy_byte:
	cmp	x0, x2
	b.hs	2f
	ldrb	w3, [x1]
	strb	w3, [x0]
	add	x0, x0, #1
	add	x1, x1, #1
	b	.Lcopy_byte
.Lcopy_byte_end:
2:	mov	x0, #0
	ret
.Lcopy_byte_fault:
	sub	x0, x2, x0
	ret
	EXTABLE .Lcopy_byte, .Lcopy_byte_end, .Lcopy_byte_fault, 1
ENDFUNC hl__copy_bytes

/*
 * The mops fixup: CPYFP/CPYFM/CPYFE advance their own registers (x5-x7)
 * in a form that depends on the CPU's algorithm (options A and B), so x0
 * and x1 stay at dst and src while they run, and a fault redoes the range
 * from the start with ldp_stp's body (at its own speed: a fault near the
 * end of a large copy does not cost a byte loop over all of it), whose
 * own entry sends its fault to the byte loop at its progress pointers.
 */
FUNC hl__copy_ldp_stp_from_progress
	sub	x3, x2, x0
	add	x4, x1, x3
	b	.Lldp_stp_body
ENDFUNC hl__copy_ldp_stp_from_progress

/*
 * LDP_STP_BODY: copy [x1, x1 + x3) to [x0, x2), x3 = n, x4 = x1 + n (the
 * source's end), and return 0. Every size up to 64 bytes loads everything
 * first and then stores it (at most four of each, overlapping in the
 * middle): 0..3 bytes by three byte loads (first, middle, last), 4..7 and
 * 8..15 by two words from both ends, 16..32 by two q registers from both
 * ends, 33..64 by two q-register pairs. Larger: 64 bytes at dst, then a
 * loop of 64 bytes per step (two q-register pairs) from the next 64-byte
 * boundary of the destination, then the 64 bytes that end at the end,
 * loaded after the loop (a source that faults near its end costs the byte
 * loop at most 128 bytes). Uses x3-x9 and q0-q3. Not timed: this
 * machine's arm64 is qemu.
 */
/* LINE64: the 64 bytes at x1 loaded (q0-q3), then stored at x0. */
.macro LINE64
	ldp	q0, q1, [x1]
	ldp	q2, q3, [x1, #32]
	stp	q0, q1, [x0]
	stp	q2, q3, [x0, #32]
.endm

/*
 * WORDS bit, next, a, b, size: unless bit of n (x3) is clear (then to
 * next), copy the first and the last size bytes (registers a and b, x or
 * w), both loaded before either is stored, and return 0.
 */
.macro WORDS bit, next, a, b, size
	tbz	x3, #\bit, \next
	ldr	\a, [x1]
	ldr	\b, [x4, #-\size]
	str	\a, [x0]
	str	\b, [x2, #-\size]
	mov	x0, #0
	ret
.endm

.macro LDP_STP_BODY
	cmp	x3, #16
	b.lo	20f
	cmp	x3, #64
	b.hi	24f
	ldr	q0, [x1]
	ldr	q1, [x4, #-16]
	cmp	x3, #32
	b.hi	23f
	str	q0, [x0]
	str	q1, [x2, #-16]
	mov	x0, #0
	ret
23:	ldr	q2, [x1, #16]
	ldr	q3, [x4, #-32]
	stp	q0, q2, [x0]
	stp	q3, q1, [x2, #-32]
	mov	x0, #0
	ret
20:	WORDS	3, 21f, x5, x6, 8
21:	WORDS	2, 22f, w5, w6, 4
22:	cbz	x3, 29f
	lsr	x7, x3, #1
	ldrb	w5, [x1]
	ldrb	w6, [x1, x7]
	ldrb	w8, [x4, #-1]
	strb	w5, [x0]
	strb	w6, [x0, x7]
	strb	w8, [x2, #-1]
	mov	x0, #0
	ret
24:	LINE64
	sub	x9, x1, x0		/* x9 = src - dst, for the whole loop */
	sub	x3, x2, #64		/* x3: where the last 64 bytes go */
	add	x0, x0, #64
	and	x0, x0, #-64
	add	x1, x0, x9
	cmp	x0, x3
	b.hs	26f
25:	LINE64
	add	x0, x0, #64
	add	x1, x1, #64
	cmp	x0, x3
	b.lo	25b
26:	mov	x0, x3			/* back to where the last 64 bytes start */
	add	x1, x3, x9
	LINE64
29:	mov	x0, #0
	ret
.endm

/*
 * MOPS_BODY: FEAT_MOPS's forward copy, CPYFP/CPYFM/CPYFE, of x3 bytes
 * from x1 to x0 (no overlap, as memcpy), the CPU choosing how; the
 * instructions work on x5-x7, leaving x0-x2 for the fixup. Returns 0.
 */
.macro MOPS_BODY
	mov	x5, x0
	mov	x6, x1
	mov	x7, x3
	cpyfp	[x5]!, [x6]!, x7!
	cpyfm	[x5]!, [x6]!, x7!
	cpyfe	[x5]!, [x6]!, x7!
	mov	x0, #0
	ret
.endm

/*
 * TRY_COPY_CHECKS slow: hl_try_zero's entry checks (TRY_ZERO_CHECKS in
 * zero.S) on both ranges: neither may wrap (b.cs), both must end at or
 * below this thread's hl__try_thread_tops.top (0 until the thread is
 * known not to block SIGSEGV and SIGBUS; b.hi). A failed check branches
 * to slow, a jump to hl__try_copy_slow (../../copy.c), with x0-x2 as they
 * came. Only x3-x6 are touched.
 */
.macro TRY_COPY_CHECKS slow
	adds	x3, x0, x2
	b.cs	\slow
	adds	x4, x1, x2
	b.cs	\slow
	THREAD_TOP x5, x6
	cmp	x3, x5
	b.hi	\slow
	cmp	x4, x5
	b.hi	\slow
.endm

/* ldp_stp: plain loads and stores, every size, on every arm64. */
FUNC hl__try_copy_ldp_stp
	mov	x3, x2
	add	x4, x1, x2
	add	x2, x0, x2
.Lldp_stp_body:
	LDP_STP_BODY
2:
	EXTABLE .Lldp_stp_body, 2b, hl__copy_bytes, 1
ENDFUNC hl__try_copy_ldp_stp

/* mops: CPYFP/CPYFM/CPYFE for every size; only where HWCAP2_MOPS is set. */
FUNC hl__try_copy_mops
	mov	x3, x2
	add	x2, x0, x2
1:	MOPS_BODY
2:
	EXTABLE 1b, 2b, hl__copy_ldp_stp_from_progress, 1
ENDFUNC hl__try_copy_mops

/*
 * hl_try_copy: the checks, then the automatic plan behind the redirect
 * (arch.h), as hl_try_zero's entry: a load-acquire of the redirect, which
 * orders the plan's threshold after it (copy.c publishes the threshold,
 * then the redirect with release); when it is not NULL, a tail call there
 * with x0-x2 as they came; otherwise ldp_stp up to hl__copy_vec_max bytes
 * and mops beyond (copy.c's plan leaves the threshold at SIZE_MAX when the
 * CPU has no MOPS, so the mops body never runs there).
 */
FUNC hl_try_copy, public
	TRY_COPY_CHECKS .Lhl_try_copy_slow
	.globl	hl__try_copy_checked
	.hidden	hl__try_copy_checked
hl__try_copy_checked:
	adrp	x3, hl__try_copy_redirect
	add	x3, x3, :lo12:hl__try_copy_redirect
	ldar	x3, [x3]
	cbnz	x3, 3f
	adrp	x5, hl__copy_vec_max
	ldr	x5, [x5, :lo12:hl__copy_vec_max]
	mov	x3, x2
	add	x4, x1, x2
	add	x2, x0, x2
	cmp	x3, x5
	b.hi	2f
1:	LDP_STP_BODY
2:	MOPS_BODY
3:	br	x3
.Lhl_try_copy_slow:
	b	hl__try_copy_slow
	EXTABLE 1b, 2b, hl__copy_bytes, 1
	EXTABLE 2b, 3b, hl__copy_ldp_stp_from_progress, 1
ENDFUNC hl_try_copy

/*
 * hl_try_load64(p, out): x0 = p, x1 = out. p must be 8-byte aligned and
 * [p, p + 8) must pass the checks of hl_try_copy (a misaligned or
 * wrapping p returns false at once; one past this thread's top goes to
 * hl__try_load64_slow); then one load, whose fault (kind 2: the address
 * must lie in [x0, x0 + 8)) continues at 3, returning false. The store to
 * *out is not in the table.
 */
FUNC hl_try_load64, public
	tst	x0, #7
	b.ne	3f
	adds	x2, x0, #8
	b.cs	3f
	mrs	x4, tpidr_el0
	adrp	x3, :gottprel:hl__try_thread_tops
	ldr	x3, [x3, #:gottprel_lo12:hl__try_thread_tops]
	ldr	x3, [x4, x3]
	cmp	x2, x3
	b.hi	4f
	.globl	hl__try_load64_checked
	.hidden	hl__try_load64_checked
hl__try_load64_checked:
1:	ldr	x2, [x0]
2:	str	x2, [x1]
	mov	w0, #1
	ret
3:	mov	w0, #0
	ret
4:	b	hl__try_load64_slow
	EXTABLE 1b, 2b, 3b, 2
ENDFUNC hl_try_load64
	ASM_FILE_END
/* clang-format on */
