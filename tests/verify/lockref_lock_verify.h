/* SPDX-License-Identifier: MIT */
/*
 * lockref_lock_verify.h - hl_lockref's lock for the GenMC model checker:
 * take_lock() and drop_lock(), which src/lockref.c includes from here when
 * built with HL_VERIFY instead of calling hl_qspin_lock() and
 * hl_qspin_unlock() on l->lock.
 *
 * GenMC has no mixed-size accesses, and the lock is the low half of the
 * 64-bit word that the lockless path swaps whole. So this is the queued
 * lock's own word protocol with every access of the lock half made an
 * access of the whole word that leaves the count half as it finds it:
 * hl_qspin_lock()'s fast path (take the locked byte when the lock half is
 * 0, acquire), hl__qspin_lock_slow()'s (take the locked byte whenever it
 * is clear, else become the pending waiter with a relaxed
 * compare-and-swap and wait on the locked byte, clearing pending as it
 * takes it), and, for a waiter that finds someone pending already,
 * lock_on_word(l, 0): what src/qspinlock.c does for a thread that cannot
 * queue, in place of the MCS queue (whose only mark in the word is another
 * non-zero lock half). The unlock is the portable hl_qspin_unlock(): a
 * release read-modify-write clearing the locked byte.
 *
 * What lockref.c relies on of its lock is what this has: lock and unlock
 * are acquire and release and exclude each other; the lock half is not 0
 * while the lock is held, and may be not 0 while it is free (a waiter's
 * mark); the lock changes the word only by read-modify-writes of its lock
 * half (docs/verification.md, "hl_lockref's lock").
 *
 * Included by src/lockref.c after word_lock() and LOCK_SHIFT.
 */
#ifndef HOTLINE_TESTS_VERIFY_LOCKREF_LOCK_VERIFY_H
#define HOTLINE_TESTS_VERIFY_LOCKREF_LOCK_VERIFY_H

#include <stdatomic.h>
#include <stdint.h>

#include <hotline/qspinlock.h>

/* The word w with lock-half bits set, or cleared. */
static inline uint64_t word_lock_set(uint64_t w, unsigned int bits)
{
	return w | (uint64_t)bits << LOCK_SHIFT;
}

static inline uint64_t word_lock_clear(uint64_t w, unsigned int bits)
{
	return w & ~((uint64_t)bits << LOCK_SHIFT);
}

/* qspinlock.c's wait_unlocked(): the word, once its locked byte is clear. */
static uint64_t word_wait_unlocked(struct hl_lockref *l)
{
	for (;;) {
		uint64_t w = atomic_load_explicit(&l->lock_count, memory_order_relaxed);

		if (!(word_lock(w) & HL_QSPIN_LOCKED_MASK))
			return w;
	}
}

/* qspinlock.c's lock_on_word(): take the locked byte, clearing clear. */
static void word_lock_on_word(struct hl_lockref *l, unsigned int clear)
{
	for (;;) {
		uint64_t w = word_wait_unlocked(l);

		if (atomic_compare_exchange_weak_explicit(
			    &l->lock_count, &w,
			    word_lock_set(word_lock_clear(w, clear), HL_QSPIN_LOCKED),
			    memory_order_acquire, memory_order_relaxed))
			return;
	}
}

/* hl_qspin_lock() and hl__qspin_lock_slow() on the lock half. */
static void take_lock(struct hl_lockref *l)
{
	uint64_t w = atomic_load_explicit(&l->lock_count, memory_order_relaxed);

	if (word_lock(w) == 0 && atomic_compare_exchange_strong_explicit(
					 &l->lock_count, &w, word_lock_set(w, HL_QSPIN_LOCKED),
					 memory_order_acquire, memory_order_relaxed))
		return;
	for (;;) {
		if (!(word_lock(w) & HL_QSPIN_LOCKED_MASK)) {
			if (atomic_compare_exchange_weak_explicit(
				    &l->lock_count, &w, word_lock_set(w, HL_QSPIN_LOCKED),
				    memory_order_acquire, memory_order_relaxed))
				return;
			continue;
		}
		if (word_lock(w) != HL_QSPIN_LOCKED)
			break; /* someone is pending: wait on the word */
		if (atomic_compare_exchange_weak_explicit(
			    &l->lock_count, &w, word_lock_set(w, HL_QSPIN_PENDING),
			    memory_order_relaxed, memory_order_relaxed)) {
			word_lock_on_word(l, HL_QSPIN_PENDING);
			return;
		}
	}
	word_lock_on_word(l, 0);
}

/* hl_qspin_unlock()'s portable form on the lock half. */
static void drop_lock(struct hl_lockref *l)
{
	atomic_fetch_and_explicit(&l->lock_count, ~((uint64_t)HL_QSPIN_LOCKED_MASK << LOCK_SHIFT),
				  memory_order_release);
}

#endif /* HOTLINE_TESTS_VERIFY_LOCKREF_LOCK_VERIFY_H */
