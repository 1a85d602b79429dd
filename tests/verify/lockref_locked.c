/* SPDX-License-Identifier: MIT */
/*
 * lockref_locked.c - GenMC client of hl_lockref's lock against its
 * lockless path (src/lockref.c as it ships; the lock half taken by
 * lockref_lock_verify.h), with a retry limit of 1, so that an operation
 * whose compare-and-swap loses a race also takes the locked path. A get
 * and a put race a holder of the lock that reads the count and adds 10 to
 * it: no change is lost (the holder sees a count nobody changes), and the
 * word ends unlocked. (get_not_dead against mark_dead under the lock is
 * lockref_last_ref's.)
 *
 * verify-flags: -check-liveness (a waiter that can never go on is an error)
 */
#include <hotline/lockref.h>

#include "../../src/lockref.c"
#include "env_stubs.h"
#include "verify.h"

static struct hl_lockref counted = HL_LOCKREF_INIT(2);

static void *worker(void *arg)
{
	int c;

	switch (VERIFY_ID(arg)) {
	case 0: hl_lockref_get(&counted); break;
	case 1: assert(hl_lockref_put_or_lock(&counted)); break;
	default:
		take_lock(&counted);
		c = hl_lockref_count(&counted);
		hl_lockref_set_count(&counted, c + 10);
		assert(hl_lockref_count(&counted) == c + 10);
		drop_lock(&counted);
		break;
	}
	return NULL;
}

int main(void)
{
	hl_lockref_set_retry_limit(1);
	verify_run(3, worker);
	assert(hl_lockref_count(&counted) == 12);
	assert(atomic_load_explicit(&counted.lock_count, memory_order_relaxed) ==
	       word_with_count(0, 12));
	return 0;
}
