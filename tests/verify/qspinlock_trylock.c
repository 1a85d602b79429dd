/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_trylock.c - GenMC client of hl_qspin_trylock against
 * hl_qspin_lock: two threads lock, one tries; a successful trylock
 * excludes the others and reads what the previous holder wrote, a failed
 * one leaves the lock alone.
 *
 * verify-flags: -check-liveness (a waiter that can never go on is an error)
 */
#include <hotline/qspinlock.h>

#include "../../src/qspinlock.c"
#include "verify.h"

static hl_qspinlock_t lock;
static int count, msg;

static void critical(void)
{
	assert(msg == count * 10);
	count++;
	msg = count * 10;
}

static void *worker(void *arg)
{
	if (VERIFY_ID(arg) == 0) {
		if (!hl_qspin_trylock(&lock))
			return NULL;
	} else {
		hl_qspin_lock(&lock);
	}
	critical();
	hl_qspin_unlock(&lock);
	return NULL;
}

int main(void)
{
	verify_run(3, worker);
	assert(count >= 2 && msg == count * 10);
	assert(atomic_load_explicit(&lock.val, memory_order_relaxed) == 0);
	return 0;
}
