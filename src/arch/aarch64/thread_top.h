/* SPDX-License-Identifier: MIT */
/*
 * aarch64/thread_top.h - the load at the heart of hl_try_zero's (zero.S)
 * and hl_try_copy's (copy.S) entry checks, written once: an assembler
 * macro, included through the C preprocessor.
 *
 * THREAD_TOP top, tmp: top = this thread's hl__try_thread_tops.top (the
 * end of the user address space, or 0 until a call has found the thread
 * not blocking SIGSEGV and SIGBUS: ../../fault.c), initial-exec TLS: the
 * thread pointer plus the variable's offset from the GOT. tmp is
 * clobbered.
 */

/* Assembler, not C: clang-format must leave it alone. */
/* clang-format off */
.macro THREAD_TOP top, tmp
	mrs	\tmp, tpidr_el0
	adrp	\top, :gottprel:hl__try_thread_tops
	ldr	\top, [\top, #:gottprel_lo12:hl__try_thread_tops]
	ldr	\top, [\tmp, \top]
.endm
