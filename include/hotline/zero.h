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
 *  - It acts only on a fault raised by the kernel for a memory access
 *    (SEGV_MAPERR, SEGV_ACCERR, SEGV_PKUERR; BUS_ADRERR, BUS_OBJERR,
 *    BUS_MCEERR_AR) inside hl_try_zero's own store instructions, in a
 *    thread that is inside hl_try_zero, at an address inside the range
 *    being cleared; or on a general-protection fault (SIGSEGV with
 *    SI_KERNEL, which carries no address) at one of those instructions.
 *    Every other signal goes to the handler installed before it (SA_SIGINFO
 *    or plain, with that handler's mask); if there was none, the default
 *    action happens (a stray write still dumps core with the right address).
 *  - It needs little stack (HL_TRY_ZERO_HANDLER_STACK below) and calls no
 *    lazily bound function: the C library functions its paths use are
 *    bound when the library is loaded, so it runs on a small alternate
 *    signal stack even before the program has called them itself.
 *  - The kernel kills a thread whose store faults while it blocks SIGSEGV
 *    or SIGBUS (it resets the handler to the default action). hl_try_zero
 *    therefore checks the calling thread's mask: on a thread's first call
 *    with one system call, and while it finds either signal blocked, it
 *    unblocks both for the duration of each call and restores the mask
 *    before returning (two system calls per call: threads created with
 *    every signal blocked, for sigwait or signalfd, work, at that price).
 *    Once a call finds them unblocked, the thread's later calls trust that
 *    and make no system call. So a thread that blocks SIGSEGV or SIGBUS
 *    after such a call, which includes a signal handler whose sa_mask
 *    blocks them (sigfillset), must unblock them before calling
 *    hl_try_zero; if it does not and a store faults, the process is killed
 *    by that signal, exactly as a stray fault there would kill it.
 *  - A range that wraps around the end of the address space, or does not
 *    lie wholly below the end of the user address space (the kernel's
 *    TASK_SIZE, found once by asking mmap), is refused as the kernel's
 *    clear_user refuses it: nothing is written and n is returned. That
 *    includes non-canonical addresses, and tagged pointers on arm64.
 *  - Under valgrind every variant works; its memcheck reports each store
 *    that faults as an invalid write unless given the suppressions hotline
 *    installs (share/hotline/hotline.supp; docs/zero.md).
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
 * HL_TRY_ZERO_HANDLER_STACK - the most stack, in bytes, that hl_try_zero's
 * fault handler uses beyond the frame the kernel pushes for the signal
 * (getauxval(AT_MINSIGSTKSZ) on Linux, about 3.3 KiB on an x86-64 with
 * AVX-512; MINSIGSTKSZ where the kernel does not say, 5 KiB on arm64). An
 * alternate signal stack of that plus this many
 * bytes is enough for a fault of hl_try_zero; a handler that calls
 * hl_try_zero on its own alternate stack needs room for two kernel
 * frames, its own and the fault's. Passing on a fault that is not
 * hl_try_zero's adds what the previous handler needs.
 */
#define HL_TRY_ZERO_HANDLER_STACK 512

/*
 * hl_try_zero - clear [dst, dst+n) as far as memory allows.
 *
 * Returns 0 when every byte was cleared, otherwise the number of bytes not
 * cleared: bytes [dst, dst+n-r) are zero and dst+n-r is the first address
 * whose store faulted. Never writes outside [dst, dst+n). Returns n,
 * clearing nothing, if the range wraps or leaves the user address space,
 * or if the fault handler cannot be installed (errno is then set by
 * sigaction). Thread-safe; uses the same variant as hl_zero, behind a few
 * instructions of checks (see the top of this file for the signal mask),
 * and a few more while a variant is forced (hl_zero_use, HOTLINE_ZERO) or
 * on an x86-64 CPU without AVX-512VL.
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
 * hl_zero_plan_sources - the automatic plan's thresholds and where each
 * came from, for logs and reports.
 *
 * Writes, e.g., "vec_max=262144 (derived: L2 1 MiB (CPUID 0x8000001D) / 4);
 * rep_max=max (derived: AMD family 0x19: ...)" into buf (at most size
 * bytes, NUL-terminated when size > 0) and returns the length the full
 * string needs, like snprintf. Each threshold is "NAME=BYTES (SOURCE...)"
 * ("max" for never), SOURCE one of: "derived: " and the rule and figures
 * it used (cache sizes and where they were read: CPUID, sysfs, sysconf);
 * "default: " and why nothing could be derived; "tunable" (set by
 * HOTLINE_ZERO_TUNABLES); "unused: " and why the plan does not switch
 * there. vec_max is the largest size cleared by vector (arm64: plain)
 * stores, rep_max the largest cleared by rep stosb, streaming stores
 * beyond. It describes the automatic plan even while hl_zero_use() or
 * HOTLINE_ZERO forces a variant. docs/zero.md gives the rules.
 *
 * HOTLINE_ZERO_TUNABLES="vec_max=SIZE:rep_max=SIZE" (either or both;
 * SIZE is decimal digits with an optional K, M or G suffix, powers of
 * 1024, at least 1; or "max", never switch: rep_max=max is a plan with no
 * streaming class) sets thresholds, read once when the library is loaded;
 * `hotline-bench zero --tune` measures them on the machine and prints the
 * value. A value not understood (an unknown name, a name given twice, a
 * bad or zero size, vec_max above rep_max) is reported in one line on
 * stderr and none of it is used.
 */
HL_API int hl_zero_plan_sources(char *buf, size_t size);

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
