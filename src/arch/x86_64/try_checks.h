/* SPDX-License-Identifier: MIT */
/*
 * x86_64/try_checks.h - the checks of hl_try_zero (zero.S: those behind
 * its gate), written as an assembler macro, included through the C
 * preprocessor; and the entry of the vector bodies. copy.S
 * writes hl_try_copy's checks itself, one branch each (COPY_CHECKS).
 *
 * TRY_CHECKS n, slow, p: the range [p, p + n) must end at or below
 * hl__try_thread_tops.top, a thread-local copy of the end of the user
 * address space that is 0 until a call has found this thread not blocking
 * SIGSEGV and SIGBUS (../../fault.c). n <= top (jb), then p <= top - n
 * (ja): p + n <= top with no sum that could wrap. A check that fails
 * jumps to slow with every argument register as it came; slow sorts the
 * call out and comes back just after the checks, or returns. Every
 * instruction here is paid by every call that comes this way, and a hot
 * loop of small calls is bound by their number: two loads, one
 * subtraction and two compare-and-branch pairs. The variable is
 * initial-exec: its offset from %fs comes from the GOT, or is an
 * immediate once linked into a program. rax is clobbered.
 */

/* Assembler, not C: clang-format must leave it alone. */
/* clang-format off */
.macro TRY_CHECKS n, slow, p
	movq	hl__try_thread_tops@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rax
	subq	\n, %rax
	jb	\slow
	cmpq	%rax, \p
	ja	\slow
.endm

/*
 * VEC_ENTRY fn, redirect: start a vector body (zero.S's VEC_ZERO,
 * copy.S's VEC_COPY) on a 64-byte boundary; with a redirect it is a
 * public entry point.
 */
.macro VEC_ENTRY fn, redirect=
.ifb \redirect
FUNC \fn
.else
FUNC \fn, public
.endif
.endm
