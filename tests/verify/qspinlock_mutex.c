/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_mutex.c - GenMC client of hl_qspinlock_t with three threads,
 * the first of which takes the lock twice: every interleaving is explored,
 * so the lock is taken by its fast path, by the pending waiter, by a queue
 * head, and handed over to a waiter queued behind the head (the first
 * thread, queueing again behind the head while the pending waiter holds
 * the lock). The critical sections count in plain
 * memory, and each reads what the previous one wrote (message passing
 * through the lock): a lock that is not acquire, an unlock that is not
 * release, or two holders at once is a data race or a failed assertion.
 *
 * verify-flags: -check-liveness (a waiter that can never go on is an error)
 */
#include <hotline/qspinlock.h>

#include "../../src/qspinlock.c"
#include "verify.h"

#define NR 3 /* threads; NR + 1 critical sections */

static hl_qspinlock_t lock;
static int count, msg;

static void critical(void)
{
	hl_qspin_lock(&lock);
	assert(msg == count * 10);
	count++;
	msg = count * 10;
	hl_qspin_unlock(&lock);
}

static void *worker(void *arg)
{
	critical();
	if (VERIFY_ID(arg) == 0)
		critical();
	return NULL;
}

int main(void)
{
	verify_run(NR, worker);
	assert(count == NR + 1 && msg == (NR + 1) * 10);
	assert(atomic_load_explicit(&lock.val, memory_order_relaxed) == 0);
	return 0;
}
