/* SPDX-License-Identifier: MIT */
/*
 * rcuref_reinit.c - GenMC client of the promise rcuref.h makes for
 * type-stable memory: reinitialising a dead count with hl_rcuref_init()
 * while a straggler's get is still in flight is safe. The owner puts the
 * only reference; whoever's put returns true (the owner, or the straggler
 * if its get revived the count) starts the next life: hl_rcuref_init()
 * with one reference, then the put of that life. The straggler gets
 * (add, re-read, repair: its whole path, against the reinit and the next
 * life's put, in every interleaving) and puts if it got. Every life has
 * exactly one true put, and the count ends dead.
 */
#include <hotline/rcuref.h>

#include "rcuref_stubs.h"
#include "verify.h"

static hl_rcuref_t r = HL_RCUREF_INIT(1);
static atomic_int lives = 1, trues;

static void last_put(void)
{
	atomic_fetch_add_explicit(&trues, 1, memory_order_relaxed);
	if (atomic_load_explicit(&lives, memory_order_relaxed) > 1)
		return;
	atomic_store_explicit(&lives, 2, memory_order_relaxed);
	hl_rcuref_init(&r, 1);
	if (hl_rcuref_put(&r))
		atomic_fetch_add_explicit(&trues, 1, memory_order_relaxed);
}

static void *worker(void *arg)
{
	if (VERIFY_ID(arg) == 1 && !hl_rcuref_get(&r))
		return NULL;
	if (hl_rcuref_put(&r))
		last_put();
	return NULL;
}

int main(void)
{
	verify_run(2, worker);
	assert(atomic_load_explicit(&trues, memory_order_relaxed) ==
	       atomic_load_explicit(&lives, memory_order_relaxed));
	assert(atomic_load_explicit(&r.refcnt, memory_order_relaxed) == HL_RCUREF_DEAD);
	return 0;
}
