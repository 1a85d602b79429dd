// SPDX-License-Identifier: MIT
/*
 * support/qspin_probe.h - a queued spinlock seen from another thread, and its word checked.
 *
 * trylock_from_another_thread(lock) runs hl_qspin_trylock on a fresh thread
 * (unlocking again at once): true if the lock was free, false if it is
 * really held. qspin_probe_fn(&probe) is that thread's body, for a test
 * that starts the thread itself (a forked child, where cmocka must not
 * assert): probe.got says whether it took the lock. qspin_wait_for_waiter(lock)
 * polls the lock word every 100 us, for up to 5 s, until another thread
 * shows up waiting on it (pending bit or a queue tail); false if none did.
 *
 * assert_qspin_word(l, want) compares a whole hl_qspinlock_t word, printed
 * in hex (locked byte, pending bit and tail are easier to read that way).
 * Include after <cmocka.h>.
 */
#ifndef HOTLINE_TESTS_SUPPORT_QSPIN_PROBE_H
#define HOTLINE_TESTS_SUPPORT_QSPIN_PROBE_H

#include <stdatomic.h>
#include <stdbool.h>

#include <hotline/qspinlock.h>

struct qspin_probe {
	hl_qspinlock_t *lock;
	bool got;
};

void *qspin_probe_fn(void *probe);
bool trylock_from_another_thread(hl_qspinlock_t *lock);
bool qspin_wait_for_waiter(hl_qspinlock_t *lock);

/* A macro: cmocka's failure then names the test's line. */
#define assert_qspin_word(l, want)                                                                 \
	do {                                                                                       \
		unsigned int got_ = atomic_load(&(l)->val), want_ = (want);                        \
		if (got_ != want_)                                                                 \
			fail_msg("lock word is 0x%08x, expected 0x%08x (%s)", got_, want_, #want); \
	} while (0)

#endif /* HOTLINE_TESTS_SUPPORT_QSPIN_PROBE_H */
