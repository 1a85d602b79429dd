/* SPDX-License-Identifier: MIT */
/*
 * lockref_last_ref.c - GenMC client of hl_lockref's last reference, with
 * its lock (src/lockref.c as it ships; the lock half taken by
 * lockref_lock_verify.h). Two threads hold the two references and drop
 * them with hl_lockref_put_or_lock(); a third takes one more with
 * hl_lockref_get_not_dead() and drops it the same way. Every interleaving
 * is explored: puts and gets lockless, or under the lock when it is seen
 * taken (the get that meets the owner of the last reference waits for it).
 * Checked: exactly one put returns false, under the lock, with the count
 * at 1; it reads (plain memory, so a missing ordering is a data race)
 * what every other holder wrote before its put, and frees; no get
 * succeeds after the free, nor uses the object after it.
 *
 * verify-flags: -check-liveness (a waiter that can never go on is an error)
 */
#include <hotline/lockref.h>

#include "../../src/lockref.c"
#include "env_stubs.h"
#include "verify.h"

static struct hl_lockref ref = HL_LOCKREF_INIT(2);
static int data[3], freed, owners;

/* Drop a reference; the owner of the last one frees, under the lock. */
static void put(void)
{
	if (hl_lockref_put_or_lock(&ref))
		return;
	assert(locked_count(&ref) == 1);
	owners++;
	assert(data[0] == 1 && data[1] == 1 && data[2] >= 0); /* read: a race if unordered */
	freed = 1;
	hl_lockref_mark_dead(&ref);
	drop_lock(&ref);
}

static void *worker(void *arg)
{
	int id = VERIFY_ID(arg);

	if (id == 2) {
		if (!hl_lockref_get_not_dead(&ref))
			return NULL;
		assert(!freed);
		data[2] = 1;
	} else {
		data[id] = 1;
	}
	put();
	return NULL;
}

int main(void)
{
	verify_run(3, worker);
	assert(owners == 1 && freed == 1);
	assert(hl_lockref_count(&ref) == HL_LOCKREF_DEAD);
	assert(word_lock(atomic_load_explicit(&ref.lock_count, memory_order_relaxed)) == 0);
	return 0;
}
