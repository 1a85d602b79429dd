/* SPDX-License-Identifier: MIT */
/*
 * hotline/copy.h - reading memory that may not be there: hl_try_copy and
 * hl_try_load64, the user-space copy_from_user().
 *
 * Profilers walking stacks, crash reporters, in-process debuggers and
 * garbage collectors read memory they cannot be sure is mapped. The usual
 * ways cost a system call per read (process_vm_readv, or write() to a pipe
 * and read it back) or a sigsetjmp per word. hl_try_copy copies like
 * memcpy, at memcpy's speed when nothing faults, and when a load or a
 * store faults it stops there, byte-exact, and says how far it got.
 *
 * It shares hl_try_zero's machinery (hotline/zero.h): the copy variants'
 * loads and stores are in the same exception table, resolved by the same
 * SIGSEGV/SIGBUS handler, installed on first use or by
 * hl_try_zero_prepare(). Everything zero.h says of that handler holds
 * here: what it acts on and what it passes on, its stack
 * (HL_TRY_ZERO_HANDLER_STACK), threads that block SIGSEGV or SIGBUS, the
 * refused ranges, valgrind, async-signal safety.
 *
 * The variant is chosen once per process from the CPU, as for hl_zero:
 * vector loads and stores for small and medium sizes, rep movsb (x86-64,
 * where the CPU says it is fast) or the memory-copy instructions (arm64
 * FEAT_MOPS) for large ones. HOTLINE_COPY=<variant> forces one for every
 * size; hl_copy_variant_name() lists them. docs/copy.md has the plan and
 * the measurements behind it.
 *
 * On x86-64 each thread that has called hl_try_copy (or hl_try_zero) with
 * the fault signals unblocked is on a list the library keeps, so that
 * hl_copy_use() can reach the small calls of every thread: it costs one
 * thread-specific key, whose destructor takes an exiting thread off the
 * list, and an atfork handler, which leaves the child only the thread
 * that forked. The shared library is marked never to be unloaded
 * (dlclose leaves it in place): its fault handler and that destructor
 * point into it.
 */
#ifndef HOTLINE_COPY_H
#define HOTLINE_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hotline/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hl_try_copy - copy [src, src+n) to [dst, dst+n) as far as memory allows.
 *
 * The ranges must not overlap (as for memcpy). Returns 0 when every byte
 * was copied, otherwise r, the number of bytes NOT copied: bytes
 * [dst, dst+n-r) equal [src, src+n-r), and either src+n-r (a load) or
 * dst+n-r (a store) is the first address that faulted. Bytes from dst+n-r
 * on may or may not have been written; no byte outside [dst, dst+n) ever
 * is. Returns n, copying nothing, if either range wraps or leaves the user
 * address space, or if the fault handler cannot be installed (errno is
 * then set by sigaction). When nothing faults it makes no system call and
 * no sigsetjmp. Thread-safe; async-signal-safe once the handler is
 * installed.
 */
HL_API size_t hl_try_copy(void *dst, const void *src, size_t n);

/*
 * hl_try_load64 - read the 8-byte word at p, if it can be read.
 *
 * p must be 8-byte aligned: one load, which cannot straddle two pages.
 * Returns true and stores the word in *out; or returns false, leaving
 * *out alone, if the load faulted, if p is not aligned, or if p is outside
 * the user address space. out must be valid memory: a fault storing to it
 * is not caught. The load is a plain (relaxed, single-copy atomic) load.
 */
HL_API bool hl_try_load64(const void *p, uint64_t *out);

/*
 * hl_copy_variant_name, hl_copy_supported - the copy variants, as
 * hl_zero_variant_name and hl_zero_supported (hotline/zero.h) are the
 * zeroing ones. hl_copy_variant_name(i) is the i-th copy variant this
 * architecture has, or NULL past the last one, supported by this CPU or
 * not; hl_copy_supported(name) is whether this CPU can run the named copy
 * variant, false for NULL, "auto" and unknown names. The list is copy's
 * own, not zero's: a name may stand in both (avx2 on x86-64), but the copy
 * variant of that name is the one meant here, forced by HOTLINE_COPY or
 * hl_copy_use() and never by HOTLINE_ZERO.
 */
HL_API const char *hl_copy_variant_name(unsigned i);
HL_API bool hl_copy_supported(const char *name);

/*
 * hl_copy_variant - the name of the variant hl_try_copy uses: a forced
 * one (HOTLINE_COPY or hl_copy_use()), or, in automatic mode, the one
 * that copies small and medium sizes.
 */
HL_API const char *hl_copy_variant(void);

/*
 * hl_copy_use - force one variant for every size, or "auto". Returns 0;
 * or -1, changing nothing, if name is NULL, unknown, or a variant this CPU
 * cannot run. Takes effect for calls that start after it returns, in
 * every thread.
 */
HL_API int hl_copy_use(const char *name);

/*
 * hl_copy_plan - describe the size classes in force, e.g.
 * "avx512 <= 262144 < rep_movsb", into buf (at most size bytes,
 * NUL-terminated when size > 0); returns the length the full string
 * needs, like snprintf.
 */
HL_API int hl_copy_plan(char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_COPY_H */
