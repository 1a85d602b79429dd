// SPDX-License-Identifier: MIT
/*
 * test_qspinlock.c - hl_qspinlock_t in one thread: its word, its initial
 * state, trylock, is_locked, and an unlock that must clear the locked byte
 * and nothing else (include/hotline/qspinlock.h; docs/sources.md, qspinlock).
 *
 * The pending bit and the tail belong to waiters. With one thread there
 * are none, so several tests write those bits by hand, as a waiter would,
 * and check that the holder's operations leave them alone. Concurrency is
 * in test_qspinlock_threads.c.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/qspin_probe.h"
#include "support/run_tests.h"
#include "support/watchdog.h"

#include <hotline/qspinlock.h>

_Static_assert(sizeof(hl_qspinlock_t) == 4, "hl_qspinlock_t is one 32-bit word");

/* Waiter bits as a waiter would write them: pending, and a tail (slot 0x1234, node 2). */
#define SOME_TAIL   ((0x1234u << 18) | (2u << 16))
#define WAITER_BITS (HL_QSPIN_PENDING | SOME_TAIL)

static void qspinlock_is_4_bytes_and_its_bit_fields_are_the_kernels(void **state)
{
	(void)state;
	if (sizeof(hl_qspinlock_t) != 4)
		fail_msg("sizeof(hl_qspinlock_t) is %zu, expected 4", sizeof(hl_qspinlock_t));
	assert_int_equal(_Alignof(hl_qspinlock_t), 4);
	assert_int_equal(HL_QSPIN_LOCKED, 0x1u);
	assert_int_equal(HL_QSPIN_LOCKED_MASK, 0xffu);
	assert_int_equal(HL_QSPIN_PENDING, 0x100u);
	assert_int_equal(HL_QSPIN_TAIL_MASK, 0xffff0000u);
}

static void zeroed_memory_and_init_macro_are_unlocked(void **state)
{
	static hl_qspinlock_t file_scope; /* zeroed by the loader */
	hl_qspinlock_t init = HL_QSPINLOCK_INIT;
	hl_qspinlock_t *heap = calloc(4, sizeof(*heap));
	hl_qspinlock_t *locks[] = {&file_scope, &init, &heap[0], &heap[3]};

	(void)state;
	assert_non_null(heap);
	for (size_t i = 0; i < sizeof(locks) / sizeof(locks[0]); i++) {
		assert_qspin_word(locks[i], 0);
		if (hl_qspin_is_locked(locks[i]))
			fail_msg("lock %zu: a fresh lock reads as locked", i);
		if (!hl_qspin_trylock(locks[i]))
			fail_msg("lock %zu: trylock on a fresh lock failed, expected success", i);
		assert_qspin_word(locks[i], HL_QSPIN_LOCKED);
		hl_qspin_unlock(locks[i]);
		assert_qspin_word(locks[i], 0);
		hl_qspin_lock(locks[i]); /* the fast path: must not wait */
		assert_qspin_word(locks[i], HL_QSPIN_LOCKED);
		hl_qspin_unlock(locks[i]);
		assert_qspin_word(locks[i], 0);
	}
	free(heap);
}

static void trylock_succeeds_on_a_free_lock_then_fails_while_held(void **state)
{
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	assert_true(hl_qspin_trylock(&l));
	for (int i = 0; i < 3; i++)
		if (hl_qspin_trylock(&l))
			fail_msg("trylock succeeded on a lock this thread holds (attempt %d), "
				 "expected false",
				 i + 1);
	assert_qspin_word(&l, HL_QSPIN_LOCKED);
	hl_qspin_unlock(&l);
	assert_true(hl_qspin_trylock(&l));
	hl_qspin_unlock(&l);

	/* Held by hl_qspin_lock rather than trylock: same answer. */
	hl_qspin_lock(&l);
	assert_false(hl_qspin_trylock(&l));
	hl_qspin_unlock(&l);
	assert_qspin_word(&l, 0);
}

static void is_locked_reflects_held_pending_and_queued(void **state)
{
	static const unsigned int words[] = {
		HL_QSPIN_LOCKED,
		HL_QSPIN_PENDING,
		SOME_TAIL,
		HL_QSPIN_LOCKED | HL_QSPIN_PENDING,
		HL_QSPIN_LOCKED | SOME_TAIL,
		WAITER_BITS,
		HL_QSPIN_LOCKED | WAITER_BITS,
	};
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	assert_false(hl_qspin_is_locked(&l));
	hl_qspin_lock(&l);
	assert_true(hl_qspin_is_locked(&l));
	hl_qspin_unlock(&l);
	assert_false(hl_qspin_is_locked(&l));
	assert_true(hl_qspin_trylock(&l));
	assert_true(hl_qspin_is_locked(&l));
	hl_qspin_unlock(&l);
	assert_false(hl_qspin_is_locked(&l));

	/* Like the kernel's queued_spin_is_locked(): any non-zero word counts. */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		atomic_store(&l.val, words[i]);
		if (!hl_qspin_is_locked(&l))
			fail_msg("word 0x%08x: is_locked returned false, expected true", words[i]);
	}
	atomic_store(&l.val, 0);
}

static void unlock_clears_only_the_locked_byte(void **state)
{
	static const unsigned int others[] = {
		0,	     HL_QSPIN_PENDING,	 SOME_TAIL,
		WAITER_BITS, HL_QSPIN_TAIL_MASK, HL_QSPIN_TAIL_MASK | HL_QSPIN_PENDING,
		1u << 18,    1u << 16,
	};
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		hl_qspin_lock(&l);
		/* A waiter arrives while we hold it: sets pending and/or publishes a tail. */
		atomic_fetch_or(&l.val, others[i]);
		hl_qspin_unlock(&l);
		if (atomic_load(&l.val) != others[i])
			fail_msg("unlock with waiter bits 0x%08x: word is 0x%08x after unlock, "
				 "expected 0x%08x (only the locked byte cleared)",
				 others[i], atomic_load(&l.val), others[i]);
		atomic_store(&l.val, 0);
	}
}

static void unlock_does_not_touch_the_bytes_around_the_lock(void **state)
{
	struct {
		unsigned char before[8];
		hl_qspinlock_t l;
		unsigned char after[8];
	} s;

	(void)state;
	memset(&s, 0xa5, sizeof(s));
	atomic_store(&s.l.val, 0);
	for (int i = 0; i < 1000; i++) {
		hl_qspin_lock(&s.l);
		hl_qspin_unlock(&s.l);
		assert_true(hl_qspin_trylock(&s.l));
		hl_qspin_unlock(&s.l);
	}
	assert_qspin_word(&s.l, 0);
	for (int i = 0; i < 8; i++) {
		if (s.before[i] != 0xa5 || s.after[i] != 0xa5)
			fail_msg("byte %d around the lock changed: before 0x%02x, after 0x%02x; "
				 "expected 0xa5",
				 i, s.before[i], s.after[i]);
	}
}

static void a_free_locked_byte_is_taken_even_with_waiter_bits_set(void **state)
{
	static const unsigned int others[] = {HL_QSPIN_PENDING, SOME_TAIL, WAITER_BITS};
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	/*
	 * "When the locked byte is clear a running thread may take it, even ahead
	 * of queued waiters" (qspinlock.h). Here the waiters are make-believe: a
	 * lock that waited for them would never return (the watchdog says so).
	 */
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		atomic_store(&l.val, others[i]);
		if (!hl_qspin_trylock(&l))
			fail_msg("trylock with the locked byte clear (word 0x%08x) failed",
				 others[i]);
		assert_qspin_word(&l, others[i] | HL_QSPIN_LOCKED);
		assert_false(hl_qspin_trylock(&l));
		hl_qspin_unlock(&l);
		assert_qspin_word(&l, others[i]);

		hl_qspin_lock(&l);
		assert_qspin_word(&l, others[i] | HL_QSPIN_LOCKED);
		hl_qspin_unlock(&l);
		assert_qspin_word(&l, others[i]);
	}
	atomic_store(&l.val, 0);
}

static void lock_and_unlock_many_times_leaves_it_free(void **state)
{
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;
	long held = 0;

	(void)state;
	for (long i = 0; i < 1000000; i++) {
		if (i & 1) {
			hl_qspin_lock(&l);
		} else if (!hl_qspin_trylock(&l)) {
			fail_msg("iteration %ld: trylock on a free lock failed (word 0x%08x)", i,
				 atomic_load(&l.val));
		}
		held += hl_qspin_is_locked(&l);
		hl_qspin_unlock(&l);
		if (atomic_load_explicit(&l.val, memory_order_relaxed) != 0)
			fail_msg("iteration %ld: word is 0x%08x after unlock, expected 0", i,
				 atomic_load(&l.val));
	}
	assert_int_equal(held, 1000000);
}

#define NLOCKS 64

static void one_thread_holds_several_locks_at_once(void **state)
{
	hl_qspinlock_t locks[NLOCKS];

	(void)state;
	memset(locks, 0, sizeof(locks));
	for (int i = 0; i < NLOCKS; i++) {
		if (i % 2)
			hl_qspin_lock(&locks[i]);
		else
			assert_true(hl_qspin_trylock(&locks[i]));
		for (int j = 0; j < NLOCKS; j++)
			if (hl_qspin_is_locked(&locks[j]) != (j <= i))
				fail_msg("after taking locks 0..%d, lock %d reads %s", i, j,
					 j <= i ? "free" : "held");
	}
	for (int i = 0; i < NLOCKS; i++)
		assert_false(hl_qspin_trylock(&locks[i]));
	/* Release in an order unrelated to the taking order: odd ones, then even ones. */
	for (int i = 1; i < NLOCKS; i += 2)
		hl_qspin_unlock(&locks[i]);
	for (int i = 0; i < NLOCKS; i++)
		if (hl_qspin_is_locked(&locks[i]) != (i % 2 == 0))
			fail_msg("after releasing the odd locks, lock %d reads %s", i,
				 i % 2 == 0 ? "free" : "held");
	for (int i = NLOCKS - 2; i >= 0; i -= 2)
		hl_qspin_unlock(&locks[i]);
	for (int i = 0; i < NLOCKS; i++)
		assert_qspin_word(&locks[i], 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qspinlock_is_4_bytes_and_its_bit_fields_are_the_kernels),
		cmocka_unit_test(zeroed_memory_and_init_macro_are_unlocked),
		cmocka_unit_test(trylock_succeeds_on_a_free_lock_then_fails_while_held),
		cmocka_unit_test(is_locked_reflects_held_pending_and_queued),
		cmocka_unit_test(unlock_clears_only_the_locked_byte),
		cmocka_unit_test(unlock_does_not_touch_the_bytes_around_the_lock),
		cmocka_unit_test(a_free_locked_byte_is_taken_even_with_waiter_bits_set),
		cmocka_unit_test(lock_and_unlock_many_times_leaves_it_free),
		cmocka_unit_test(one_thread_holds_several_locks_at_once),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_qspinlock", 60, 0);
}
