// SPDX-License-Identifier: MIT
/*
 * support/copy_check.h - one hl_try_copy run and checked against its contract, in any thread.
 *
 * The contract (include/hotline/copy.h): r = hl_try_copy(dst, src, n) is
 * the number of bytes not copied; [dst, dst+n-r) equals [src, src+n-r);
 * src+n-r (a load) or dst+n-r (a store) is the first address that faulted;
 * nothing outside [dst, dst+n) is written.
 *
 * A destination is filled with the canary (fill_canary: bytes the pattern
 * of support/pattern.h never has, so a copied byte of the pattern is always
 * told from one left alone). copy_run(c, why, size) fills
 * [c->lo, c->hi) with it (the writable memory around dst the caller wants
 * checked), calls hl_try_copy(c->dst, c->src, c->n) and checks that it
 * returned c->want (the caller's count, from where the hole is), that
 * [dst, dst+n-r) equals the source, and that [lo, dst) and [dst+n, hi)
 * still hold the canary. It returns true, or false with one line saying
 * what was wrong in why (size bytes); c->got is what hl_try_copy returned.
 * It uses no cmocka, so workers and children may call it.
 *
 * copy_expected(start, n, hole, hole_end) is the bytes of [start,
 * start+n) at or after the first byte of [hole, hole_end) that the range
 * meets: n - (hole - start) when the range runs into the hole, n when it
 * starts inside it, 0 when it misses it. The reference model the tests
 * compute r from, with nothing of the library in it.
 */
#ifndef HOTLINE_TESTS_SUPPORT_COPY_CHECK_H
#define HOTLINE_TESTS_SUPPORT_COPY_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct copy_case {
	unsigned char *lo, *hi; /* checked around dst: the canary before and after */
	unsigned char *dst;
	const unsigned char *src;
	size_t n, want;
	size_t got; /* set by copy_run */
};

bool copy_run(struct copy_case *c, char *why, size_t size);
size_t copy_expected(uintptr_t start, size_t n, uintptr_t hole, uintptr_t hole_end);

#endif /* HOTLINE_TESTS_SUPPORT_COPY_CHECK_H */
