/* SPDX-License-Identifier: MIT */
/*
 * lockref_lockless.c - GenMC client of hl_lockref's lockless path as
 * src/lockref.c ships it, the lock never taken (lockref_last_ref and
 * lockref_locked take it). Checked: a lockless put_return and put_or_lock
 * are release, so the locked path's read of the count (acquire) that sees
 * the put sees what was written before it; and a get_not_dead racing mark_dead's
 * compare-and-swap neither loses the mark nor succeeds after it.
 */
#include <hotline/lockref.h>

#include "../../src/lockref.c"
#include "env_stubs.h"
#include "verify.h"

static struct hl_lockref a = HL_LOCKREF_INIT(2), b = HL_LOCKREF_INIT(2), c = HL_LOCKREF_INIT(1);
static int data_a, data_b;

static void *worker(void *arg)
{
	switch (VERIFY_ID(arg)) {
	case 0:
		data_a = 1;
		assert(hl_lockref_put_return(&a) == 1);
		if (!hl_lockref_get_not_dead(&c))
			assert(hl_lockref_is_dead(&c));
		break;
	case 1:
		data_b = 1;
		assert(hl_lockref_put_or_lock(&b));
		break;
	default:
		if (locked_count(&a) == 1)
			assert(data_a == 1);
		if (locked_count(&b) == 1)
			assert(data_b == 1);
		hl_lockref_mark_dead(&c);
		break;
	}
	return NULL;
}

int main(void)
{
	verify_run(3, worker);
	assert(hl_lockref_count(&c) == HL_LOCKREF_DEAD);
	assert(!hl_lockref_get_not_dead(&c));
	return 0;
}
