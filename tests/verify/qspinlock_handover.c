/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_handover.c - GenMC client of hl_qspinlock_t's MCS queue with
 * four threads. The main thread takes the lock and holds it until three
 * others have lined up behind it: one pending on the word, and two queued,
 * the second linked behind the first (the only shape three waiters can
 * take behind a holder). From there every interleaving is explored: the
 * holder's unlock, the pending waiter and the queue head racing for the
 * locked byte, the head handing the turn over to its successor (spinning
 * or asleep), and the successor taking the word as the last in line. The
 * holding is the bound: interleavings in which the queue forms otherwise
 * (or never) are qspinlock_mutex's, with three threads. As there, the
 * critical sections count in plain memory, each reads what the previous
 * one wrote, and the word ends zero.
 *
 * verify-flags: -check-liveness (a waiter that can never go on is an error)
 */
#include <hotline/qspinlock.h>

#include "../../src/qspinlock.c"
#include "verify.h"

#define NR 3 /* waiters, behind the main thread */

static hl_qspinlock_t lock;
static int count, msg;

static void critical_section(void)
{
	assert(msg == count * 10);
	count++;
	msg = count * 10;
	hl_qspin_unlock(&lock);
}

static void *waiter(void *arg)
{
	(void)arg;
	hl_qspin_lock(&lock);
	critical_section();
	return NULL;
}

/* One waiter pending, and a queued one linked behind another. */
static bool queue_formed(void)
{
	if (!(atomic_load_explicit(&lock.val, memory_order_relaxed) & HL_QSPIN_PENDING))
		return false;
	for (int i = 1; i <= NR; i++)
		if (atomic_load_explicit(&verify_slots[i].node[0].next, memory_order_relaxed))
			return true;
	return false;
}

int main(void)
{
	pthread_t t[NR];

	hl_qspin_lock(&lock);
	for (int i = 0; i < NR; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	while (!queue_formed())
		;
	critical_section();
	for (int i = 0; i < NR; i++)
		pthread_join(t[i], NULL);
	assert(count == NR + 1 && msg == (NR + 1) * 10);
	assert(atomic_load_explicit(&lock.val, memory_order_relaxed) == 0);
	return 0;
}
