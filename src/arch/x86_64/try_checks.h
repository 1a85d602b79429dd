/* SPDX-License-Identifier: MIT */
/*
 * x86_64/try_checks.h - the entry checks of hl_try_zero (zero.S) and
 * hl_try_copy (copy.S), written once: an assembler macro, included through
 * the C preprocessor; and the entry of the vector bodies that use it.
 *
 * TRY_CHECKS n, slow, p1[, p2]: every range [p, p + n) must end at or
 * below hl__try_zero_thread_top, a thread-local copy of the end of the
 * user address space that is 0 until a call has found this thread not
 * blocking SIGSEGV and SIGBUS (../../fault.c). n <= top (jb), then
 * p <= top - n for each pointer (ja): p + n <= top with no sum that could
 * wrap. A check that fails jumps to slow with every argument register as
 * it came; slow sorts the call out and comes back just after the checks,
 * or returns. Every instruction here is paid by every call, and a hot loop
 * of small calls is bound by their number: two loads, one subtraction and
 * one compare-and-branch pair per condition. The variable is
 * initial-exec: its offset from %fs comes from the GOT, or is an immediate
 * once linked into a program. rax is clobbered.
 */

/* Assembler, not C: clang-format must leave it alone. */
/* clang-format off */
.macro TRY_CHECKS n, slow, p1, p2=
	movq	hl__try_zero_thread_top@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rax
	subq	\n, %rax
	jb	\slow
	cmpq	%rax, \p1
	ja	\slow
.ifnb \p2
	cmpq	%rax, \p2
	ja	\slow
.endif
.endm

/*
 * VEC_ENTRY fn, checks, redirect, checked: start a vector body (zero.S's
 * VEC_ZERO, copy.S's VEC_COPY) on a 64-byte boundary. With a redirect it
 * is a public entry point; with checked too, the checks macro runs first
 * and the label checked (where the slow path comes back) follows it with
 * no padding.
 */
.macro VEC_ENTRY fn, checks, redirect=, checked=
.ifb \redirect
FUNC \fn
.else
FUNC \fn, public
.endif
.ifnb \checked
	\checks
	.globl	\checked
	.hidden	\checked
\checked:
.endif
.endm
