// SPDX-License-Identifier: MIT
/*
 * baselines/refcount_full.c - REFCOUNT_FULL as the kernel shipped it: out
 * of line. Kept in its own file so that no compiler inlines it into the
 * measurement loop (the bench is not built with LTO).
 */
#include "refcount_full.h"

__attribute__((noinline)) void refcount_full_inc_call(struct refcount_full *r)
{
	refcount_full_inc(r);
}

__attribute__((noinline)) bool refcount_full_dec_and_test_call(struct refcount_full *r)
{
	return refcount_full_dec_and_test(r);
}
