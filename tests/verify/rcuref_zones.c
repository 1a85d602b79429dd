/* SPDX-License-Identifier: MIT */
/*
 * rcuref_zones.c - GenMC client of hl_rcuref_t at its zone boundaries,
 * with the real constants (hl_rcuref_init reaches them): racing gets and
 * a put across the top of the valid zone (2^31 references), where the get
 * that crosses reports saturation once and the count stays parked in the
 * saturation zone; then racing gets against the last put, at the bottom,
 * where a get that lands in the dead zone fails and parks the count back
 * at HL_RCUREF_DEAD, and exactly one put returns true.
 */
#include <hotline/rcuref.h>

#include "rcuref_stubs.h"
#include "verify.h"

static hl_rcuref_t r;
static atomic_int reports, trues;

static void on_report(hl_rcuref_t *c, enum hl_refcount_saturation t)
{
	assert(c == &r && t == HL_RCUREF_GET_OVF);
	atomic_fetch_add_explicit(&reports, 1, memory_order_relaxed);
}

/* At the top: two gets and one put on a count of 2^31 references. */
static void *top(void *arg)
{
	if (VERIFY_ID(arg) < 2)
		assert(hl_rcuref_get(&r));
	else
		assert(!hl_rcuref_put(&r));
	return NULL;
}

/* At the bottom: the last reference's put against two gets. */
static void *bottom(void *arg)
{
	if (VERIFY_ID(arg) > 0 && !hl_rcuref_get(&r))
		return NULL;
	if (hl_rcuref_put(&r))
		atomic_fetch_add_explicit(&trues, 1, memory_order_relaxed);
	return NULL;
}

int main(void)
{
	unsigned int v;

	hl_rcuref_set_handler(on_report);
	hl_rcuref_init(&r, HL_RCUREF_MAXREF + 1u);
	verify_run(3, top);
	v = atomic_load_explicit(&r.refcnt, memory_order_relaxed);
	assert(v > HL_RCUREF_MAXREF && v < HL_RCUREF_RELEASED);
	assert(atomic_load_explicit(&reports, memory_order_relaxed) >=
	       1); /* each crossing reports */

	hl_rcuref_init(&r, 1);
	verify_run(3, bottom);
	assert(atomic_load_explicit(&trues, memory_order_relaxed) == 1);
	assert(atomic_load_explicit(&r.refcnt, memory_order_relaxed) == HL_RCUREF_DEAD);
	return 0;
}
