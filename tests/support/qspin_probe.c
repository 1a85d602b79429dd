// SPDX-License-Identifier: MIT
/*
 * support/qspin_probe.c - trylock from a fresh thread; wait for a waiter to show in the word.
 */
#include <pthread.h>
#include <time.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/qspin_probe.h"

void *qspin_probe_fn(void *probe)
{
	struct qspin_probe *p = probe;

	p->got = hl_qspin_trylock(p->lock);
	if (p->got)
		hl_qspin_unlock(p->lock);
	return NULL;
}

bool trylock_from_another_thread(hl_qspinlock_t *lock)
{
	struct qspin_probe p = {.lock = lock, .got = false};
	pthread_t tid;

	assert_int_equal(pthread_create(&tid, NULL, qspin_probe_fn, &p), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return p.got;
}

bool qspin_wait_for_waiter(hl_qspinlock_t *lock)
{
	struct timespec tick = {0, 100 * 1000};

	for (int i = 0; i < 50000; i++) {
		if (atomic_load(&lock->val) & ~HL_QSPIN_LOCKED_MASK)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}
