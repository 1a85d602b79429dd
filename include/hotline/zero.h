/* SPDX-License-Identifier: MIT */
/*
 * hotline/zero.h - clearing memory: hl_zero and the fault-tolerant hl_try_zero.
 *
 * hl_zero(dst, n) is memset(dst, 0, n) done by the variant that is fastest on
 * this CPU. The kernel argued for a year over which one that is (rep stosb,
 * rep stosq, an unrolled movq loop); the answer depends on the CPU and on
 * the size, so hotline picks once per process from the CPU's features and,
 * in automatic mode, a variant per size class: vector stores for small
 * sizes, rep stosb in the middle, streaming (non-temporal) stores beyond the
 * cache. HOTLINE_ZERO=<variant> in the environment, or hl_zero_use(), forces
 * one variant for every size; hl_zero_use("auto") returns to the automatic
 * plan. docs/zero.md says why the plan is what it is on the machines
 * measured. HOTLINE_ZERO is read once and must be a variant's exact name
 * or "auto"; any other value, or a variant this CPU cannot run, is reported
 * in one line on stderr and the automatic plan is kept (README.md,
 * Environment).
 *
 * hl_try_zero(dst, n) is the user-space clear_user(): it clears what it can
 * and returns the number of bytes it could NOT clear because a store faulted
 * (SIGSEGV: unmapped or read-only; SIGBUS: beyond the end of a file mapping).
 * On return r, bytes [dst, dst+n-r) are zero, dst+n-r is the first address
 * that faulted, and no byte outside [dst, dst+n) was written. When nothing
 * faults it costs what hl_zero costs: no system call, no sigsetjmp. A fault
 * is resolved through an exception table (which store instructions may
 * fault, and where to continue) consulted by a signal handler.
 *
 * What an application must know about that handler:
 *  - It is installed for SIGSEGV and SIGBUS on the first hl_try_zero() (or
 *    by hl_try_zero_prepare()), with SA_SIGINFO | SA_ONSTACK, so it also
 *    runs on a thread's alternate signal stack.
 *  - It acts only on a fault raised by the kernel (si_code > 0) inside
 *    hl_try_zero's own store instructions, in a thread that is inside
 *    hl_try_zero, at an address inside the range being cleared. Every other
 *    signal goes to the handler installed before it (SA_SIGINFO or plain, with
 *    that handler's mask); if there was none, the default action happens (a
 *    stray write still dumps core with the right address).
 *  - An application that installs its own SIGSEGV/SIGBUS handler after
 *    hotline's must call the previous one for faults it does not handle, as
 *    sanitizers, JVMs and Go do; otherwise hl_try_zero turns a fault into a
 *    crash. hl_zero never relies on the handler: a fault in it is a crash.
 *  - hl_try_zero is async-signal-safe once the handler is installed.
 */
#ifndef HOTLINE_ZERO_H
#define HOTLINE_ZERO_H

#include <stdbool.h>
#include <stddef.h>

#include <hotline/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hl_zero - set n bytes at dst to zero, like memset(dst, 0, n).
 *
 * dst may be NULL only when n is 0. Any alignment. Uses the variant (or, in
 * automatic mode, the per-size plan) in force when it is called.
 */
HL_API void hl_zero(void *dst, size_t n);

/*
 * hl_try_zero - clear [dst, dst+n) as far as memory allows.
 *
 * Returns 0 when every byte was cleared, otherwise the number of bytes not
 * cleared: bytes [dst, dst+n-r) are zero and dst+n-r is the first address
 * whose store faulted. Never writes outside [dst, dst+n). Returns n,
 * clearing nothing, if the fault handler cannot be installed (errno is then
 * set by sigaction). Thread-safe; uses the same variant as hl_zero.
 */
HL_API size_t hl_try_zero(void *dst, size_t n);

/*
 * hl_try_zero_prepare - install hl_try_zero's SIGSEGV/SIGBUS handler now.
 *
 * hl_try_zero installs it on first use; call this to fix the order of
 * installation against the application's own handlers (hotline chains to
 * whatever was installed before it). Idempotent and thread-safe. Returns 0,
 * or -1 with errno set if sigaction failed.
 */
HL_API int hl_try_zero_prepare(void);

/*
 * hl_zero_variant - the name of the variant hl_zero uses.
 *
 * After hl_zero_use(name) or HOTLINE_ZERO=name, that name. In automatic
 * mode, the variant that clears small and medium sizes (the calls most
 * programs make); hl_zero_plan() describes every size class.
 */
HL_API const char *hl_zero_variant(void);

/*
 * hl_zero_use - force one variant for every size, or "auto".
 *
 * Returns 0 on success; -1, changing nothing, if name is NULL, unknown, or
 * a variant this CPU cannot run. Takes effect for calls that start after it
 * returns, in every thread.
 */
HL_API int hl_zero_use(const char *name);

/*
 * hl_zero_plan - describe the size classes in force, for logs and reports.
 *
 * Writes, e.g., "avx512 <= 2048 < rep_stosb <= 25165824 < nontemporal" or,
 * when one variant is forced, just its name, into buf (at most size bytes,
 * NUL-terminated when size > 0). Returns the length the full string needs,
 * like snprintf.
 */
HL_API int hl_zero_plan(char *buf, size_t size);

/*
 * hl_zero_variant_name - the i-th variant this architecture has, or NULL
 * past the last one. Lists every variant, supported by this CPU or not.
 */
HL_API const char *hl_zero_variant_name(unsigned i);

/*
 * hl_zero_supported - whether this CPU can run the named variant.
 * False for NULL, "auto" and unknown names.
 */
HL_API bool hl_zero_supported(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_ZERO_H */
