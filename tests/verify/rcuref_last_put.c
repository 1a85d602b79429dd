/* SPDX-License-Identifier: MIT */
/*
 * rcuref_last_put.c - GenMC client of hl_rcuref_get and hl_rcuref_put as
 * src/rcuref.c ships them: two holders each write their datum (plain
 * memory) and put; a third thread, holding nothing (the memory is kept
 * valid, as RCU would), gets, and if that worked writes its datum and
 * puts. A get may land in the released window and revive the count.
 * Exactly one put returns true, and it reads every datum written before a
 * put (put release, the last put acquire); a get after that put fails.
 */
#include <hotline/rcuref.h>

#include "rcuref_stubs.h"
#include "verify.h"

static hl_rcuref_t r = HL_RCUREF_INIT(2);
static int data[3];
static atomic_int trues;

static void *worker(void *arg)
{
	int me = VERIFY_ID(arg);

	if (me == 2 && !hl_rcuref_get(&r))
		return NULL;
	data[me] = 1;
	if (hl_rcuref_put(&r)) {
		assert(data[0] == 1 && data[1] == 1);
		(void)data[2]; /* written before its put, if at all: a race otherwise */
		atomic_fetch_add_explicit(&trues, 1, memory_order_relaxed);
	}
	return NULL;
}

int main(void)
{
	verify_run(3, worker);
	assert(atomic_load_explicit(&trues, memory_order_relaxed) == 1);
	assert(!hl_rcuref_get(&r));
	assert(atomic_load_explicit(&r.refcnt, memory_order_relaxed) == HL_RCUREF_DEAD);
	return 0;
}
