/* SPDX-License-Identifier: MIT */
/*
 * generic/recovery.h - how hl_try_zero, hl_try_copy and hl_try_load64
 * recover from a fault without assembly (generic/zero.c, generic/copy.c):
 * each sets a recovery point with sigsetjmp and keeps the ranges it may
 * fault in here, where the fault layer's fixup (generic/fault.c) finds
 * them and siglongjmps back.
 */
#ifndef HOTLINE_SRC_ARCH_GENERIC_RECOVERY_H
#define HOTLINE_SRC_ARCH_GENERIC_RECOVERY_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hotline/cpu.h>

#include "../arch.h"

/*
 * This thread's recovery point and ranges while a try_* function runs:
 * one range ([lo, hi), for a clear or a load), or two (the destination,
 * then the source, for a copy).
 */
struct hl_recovery {
	sigjmp_buf *jump;
	uintptr_t lo, hi, lo2, hi2;
};
extern _Thread_local struct hl_recovery hl__recovery __attribute__((tls_model("initial-exec")));

/*
 * Between setting hl__recovery and the accesses it covers, and between
 * them and restoring it: the handler reads it, so the compiler must not
 * sink the first store past the accesses (or drop it as overwritten).
 */
static inline void hl__recovery_fence(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* The entry checks of arch.h, in C: no wrap, and below this thread's top. */
static inline bool hl__generic_range_checked(const void *p, size_t n)
{
	uintptr_t end = (uintptr_t)p + n;

	return end >= (uintptr_t)p && end <= hl__try_thread_tops.top;
}

/*
 * Write [dst, dst+n) byte by byte through volatile pointers under a
 * recovery point: zeros if clear, else the bytes of [src, src+n). Returns
 * the bytes not written, 0 or from the first that faulted.
 */
size_t hl__generic_bytes(void *dst, const void *src, size_t n, bool clear);

/* Every generic variant runs on every CPU. */
bool hl__generic_always(const struct hl_cpu *cpu);

#endif /* HOTLINE_SRC_ARCH_GENERIC_RECOVERY_H */
