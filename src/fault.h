/* SPDX-License-Identifier: MIT */
/*
 * fault.h - the fault layer beneath hl_try_zero, hl_try_copy and
 * hl_try_load64 (fault.c): the SIGSEGV/SIGBUS handler and its
 * installation, the end of the user address space, and whether this
 * thread may fault now. It knows nothing of clearing or copying: the
 * choices above it (zero.c, copy.c) ask to hear when the handler is in.
 *
 * Internal to the library: hidden in libhotline.so.
 */
#ifndef HOTLINE_SRC_FAULT_H
#define HOTLINE_SRC_FAULT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Install the handler (once; hl_try_zero_prepare is its public name):
 * 0 once it is in, -1 with errno if it cannot be.
 */
int hl__fault_install(void);

/*
 * Call fn(arg) once the handler is in: at once if it is, else from the
 * installation, before hl__fault_install returns to anyone. Each user of
 * the handler registers once, from its constructor (at most
 * HL_FAULT_HOOKS in all); fn must not install the handler itself.
 */
#define HL_FAULT_HOOKS 4
void hl__fault_when_installed(void (*fn)(void *arg), void *arg);

/*
 * The fault signals for one call: the end of the user address space, and
 * whether this thread may fault now. hl__fault_open() returns 0 if the
 * thread does not block SIGSEGV/SIGBUS (and remembers that in
 * hl__try_thread_tops, arch.h), 1 if it unblocked them for this call
 * (the caller then calls hl__fault_close(old) after it), -1 if it could
 * not (the handler cannot be installed).
 */
uintptr_t hl__user_top(void);
bool hl__user_range(const void *p, size_t n); /* [p, p + n) does not wrap, ends by the top */
int hl__fault_open(sigset_t *old);
void hl__fault_close(const sigset_t *old);

/*
 * Open (true) or shut the entries' small calls (arch.h, small_top) in
 * every thread known not to block the fault signals, and in those known
 * later: copy.c opens them while the redirect of hl_try_copy is NULL, and
 * shuts them, after storing its redirect, while it is not.
 */
void hl__fault_small_calls(bool open);

/*
 * An armed entry whose check failed, for ranges the caller found inside
 * the user address space (hl__user_range): call(dst, src, n) with the
 * fault signals open for it (hl__fault_open, hl__fault_close); n, as if
 * nothing was done, if they cannot be.
 */
typedef size_t (*hl_fault_fn)(void *dst, const void *src, size_t n);
size_t hl__fault_call(hl_fault_fn call, void *dst, const void *src, size_t n);

/*
 * The same for ranges not checked yet: n (refused whole, nothing done)
 * if [dst, dst+n) or [src, src+n) wraps or ends beyond the user address
 * space (a call without a source passes src = dst).
 */
size_t hl__fault_slow(hl_fault_fn call, void *dst, const void *src, size_t n);

#endif /* HOTLINE_SRC_FAULT_H */
