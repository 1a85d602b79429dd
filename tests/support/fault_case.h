// SPDX-License-Identifier: MIT
/*
 * support/fault_case.h - one call of hl_try_zero or hl_try_copy (a call pointer) run and
 * checked against its contract, in any thread.
 *
 * The contract (include/hotline/zero.h, copy.h): r = call(dst, src, n) is
 * the number of bytes not written; [dst, dst+n-r) equals [src, src+n-r)
 * (for hl_try_zero, whose call ignores src, the caller gives a src of
 * zeros); src+n-r (a load) or dst+n-r (a store) is the first address that
 * faulted; nothing outside [dst, dst+n) is written. hl_try_copy is such a
 * call as it is; hl_try_zero takes a wrapper.
 *
 * A destination is filled with the canary (fill_canary: bytes the pattern
 * of support/pattern.h never has, and never 0, so a written byte is always
 * told from one left alone). fault_run(call, c, why, size) fills
 * [c->lo, c->hi) with it (the writable memory around dst the caller wants
 * checked), calls call(c->dst, c->src, c->n) and checks that it returned
 * c->want (the caller's count, from where the hole is), that
 * [dst, dst+n-r) equals the source, and that [lo, dst) and [dst+n, hi)
 * still hold the canary. It returns true, or false with one line saying
 * what was wrong in why (size bytes); c->got is what the call returned.
 * It uses no cmocka, so workers and children may call it.
 *
 * fault_expected(start, n, hole, hole_end) is the bytes of [start,
 * start+n) at or after the first byte of [hole, hole_end) that the range
 * meets: n - (hole - start) when the range runs into the hole, n when it
 * starts inside it, 0 when it misses it. The reference model the tests
 * compute r from, with nothing of the library in it.
 */
#ifndef HOTLINE_TESTS_SUPPORT_FAULT_CASE_H
#define HOTLINE_TESTS_SUPPORT_FAULT_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* hl_try_copy's signature: hl_try_zero through a wrapper that ignores src. */
typedef size_t (*fault_call)(void *dst, const void *src, size_t n);

struct fault_case {
	unsigned char *lo, *hi; /* checked around dst: the canary before and after */
	unsigned char *dst;
	const unsigned char *src;
	size_t n, want;
	size_t got; /* set by fault_run */
};

bool fault_run(fault_call call, struct fault_case *c, char *why, size_t size);
size_t fault_expected(uintptr_t start, size_t n, uintptr_t hole, uintptr_t hole_end);

#endif /* HOTLINE_TESTS_SUPPORT_FAULT_CASE_H */
