// SPDX-License-Identifier: MIT
/*
 * test_lockref.c - struct hl_lockref, operation by operation, against the
 * kernel's lockref (v6.17; docs/sources.md, lockref; include/hotline/lockref.h).
 *
 * Each operation from each interesting count (0, 1, more, dead), with the
 * lock free, held, or merely waited for (pending or queued bits set by hand:
 * "unlocked" means the whole lock word is zero). Then the same operations
 * while another thread holds l->lock: they must wait for it and decide on
 * the count as the holder left it. Last, the retry limit: its default, its
 * setter, and HOTLINE_LOCKREF_RETRIES, read once at load time, so those
 * cases re-execute this program as a child with the environment they need.
 *
 * A few cases use one helper thread (a lock holder, or a trylock probe);
 * races between many threads are in test_lockref_threads.c.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/lockref_word.h"
#include "support/qspin_probe.h"
#include "support/run_tests.h"
#include "support/watchdog.h"

#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>

_Static_assert(sizeof(struct hl_lockref) == 8, "struct hl_lockref is one 64-bit word");
_Static_assert(sizeof(hl_qspinlock_t) == 4, "hl_qspinlock_t is 4 bytes");
_Static_assert(sizeof(hl_refcount_t) == 4, "hl_refcount_t is 4 bytes");

#define DEAD	  HL_LOCKREF_DEAD
#define SOME_TAIL ((0x0042u << 18) | (1u << 16))
#define N_OF(a)	  (sizeof(a) / sizeof((a)[0]))

#define assert_lock_word(l, want) assert_qspin_word(&(l)->lock, (want))

/* ---- The operations, by name ---- */

enum op { OP_GET, OP_GET_NOT_ZERO, OP_GET_NOT_DEAD, OP_PUT_OR_LOCK, OP_PUT_RETURN };

static const char *const op_names[] = {
	"get", "get_not_zero", "get_not_dead", "put_or_lock", "put_return",
};

/* Run op on l; its result: a bool, put_return's value, 0 for get. */
static int do_op(enum op op, struct hl_lockref *l)
{
	switch (op) {
	case OP_GET: hl_lockref_get(l); return 0;
	case OP_GET_NOT_ZERO: return hl_lockref_get_not_zero(l);
	case OP_GET_NOT_DEAD: return hl_lockref_get_not_dead(l);
	case OP_PUT_OR_LOCK: return hl_lockref_put_or_lock(l);
	case OP_PUT_RETURN: return hl_lockref_put_return(l);
	}
	return 0;
}

/*
 * From count `before`, lock free: op must return `result` (not checked for
 * get, which returns nothing) and leave count `after`. The lock is for the
 * caller to check.
 */
static void check_op(struct hl_lockref *l, enum op op, int before, int result, int after)
{
	int got;

	lockref_reset(l, before);
	got = do_op(op, l);
	if (op == OP_PUT_RETURN && got != result)
		fail_msg("put_return on count %d returned %d, expected %d", before, got, result);
	if (op != OP_GET && op != OP_PUT_RETURN && got != result)
		fail_msg("%s on count %d returned %s, expected %s", op_names[op], before,
			 got ? "true" : "false", result ? "true" : "false");
	if (hl_lockref_count(l) != after)
		fail_msg("%s on count %d: count is %d afterwards, expected %d", op_names[op],
			 before, hl_lockref_count(l), after);
}

/* check_op from each of counts[n], leaving count + delta and the lock free. */
static void check_op_from_each(enum op op, const int *counts, size_t n, int result, int delta)
{
	struct hl_lockref l;

	for (size_t i = 0; i < n; i++) {
		check_op(&l, op, counts[i], result, counts[i] + delta);
		assert_lock_word(&l, 0);
	}
}

/* ---- Layout and initialisation ---- */

static void sizes_are_8_4_and_4_bytes(void **state)
{
	(void)state;
	if (sizeof(struct hl_lockref) != 8)
		fail_msg("sizeof(struct hl_lockref) is %zu, expected 8", sizeof(struct hl_lockref));
	if (sizeof(hl_qspinlock_t) != 4)
		fail_msg("sizeof(hl_qspinlock_t) is %zu, expected 4", sizeof(hl_qspinlock_t));
	if (sizeof(hl_refcount_t) != 4)
		fail_msg("sizeof(hl_refcount_t) is %zu, expected 4", sizeof(hl_refcount_t));
	if (_Alignof(struct hl_lockref) != 8)
		fail_msg("_Alignof(struct hl_lockref) is %zu, expected 8 (one aligned word)",
			 _Alignof(struct hl_lockref));
	/* The lock and the count are the two halves of the word. */
	assert_int_equal(offsetof(struct hl_lockref, lock), 0);
	assert_int_equal(offsetof(struct hl_lockref, count), 4);
	assert_int_equal(HL_LOCKREF_DEAD, -128);
	assert_int_equal(HL_LOCKREF_RETRIES_DEFAULT, 100);
}

static void init_gives_count_1_and_a_free_lock(void **state)
{
	struct hl_lockref l;

	(void)state;
	memset(&l, 0xa5, sizeof(l)); /* whatever was there before */
	hl_lockref_init(&l);
	assert_lockref_count(&l, 1);
	assert_lock_word(&l, 0);
	assert_false(hl_qspin_is_locked(&l.lock));
	assert_false(hl_lockref_is_dead(&l));
	assert_true(hl_qspin_trylock(&l.lock));
	hl_qspin_unlock(&l.lock);
}

static void init_macro_equals_init_for_1_and_sets_any_count(void **state)
{
	static struct hl_lockref file_scope = HL_LOCKREF_INIT(1);
	static const int counts[] = {0, 1, 2, 5, 1000, INT_MAX, -1, DEAD, INT_MIN};
	struct hl_lockref by_init;

	(void)state;
	hl_lockref_init(&by_init);
	if (atomic_load(&file_scope.lock_count) != atomic_load(&by_init.lock_count))
		fail_msg("HL_LOCKREF_INIT(1) gives the word 0x%016llx, hl_lockref_init 0x%016llx; "
			 "expected the same",
			 (unsigned long long)atomic_load(&file_scope.lock_count),
			 (unsigned long long)atomic_load(&by_init.lock_count));
	for (size_t i = 0; i < N_OF(counts); i++) {
		struct hl_lockref l = HL_LOCKREF_INIT(counts[i]);

		assert_lockref_count(&l, counts[i]);
		assert_lock_word(&l, 0);
		if (hl_lockref_is_dead(&l) != (counts[i] < 0))
			fail_msg("HL_LOCKREF_INIT(%d): is_dead is %d, expected %d", counts[i],
				 hl_lockref_is_dead(&l), counts[i] < 0);
	}
}

/* ---- get ---- */

static void get_increments_any_count_even_dead(void **state)
{
	static const int counts[] = {0, 1, 2, 41, INT_MAX - 1, -1, DEAD};

	(void)state;
	check_op_from_each(OP_GET, counts, N_OF(counts), 0, +1);
}

static void get_at_int_max_wraps_to_int_min_which_reads_dead(void **state)
{
	struct hl_lockref l;

	(void)state;
	lockref_reset(&l, INT_MAX);
	hl_lockref_get(&l);
	assert_lockref_count(&l, INT_MIN);
	assert_true(hl_lockref_is_dead(&l));

	lockref_reset(&l, INT_MAX);
	assert_true(hl_lockref_get_not_zero(&l));
	assert_lockref_count(&l, INT_MIN);
	assert_false(hl_lockref_get_not_zero(&l));
	assert_false(hl_lockref_get_not_dead(&l));
	assert_lockref_count(&l, INT_MIN);
}

/* ---- get_not_zero ---- */

static void get_not_zero_on_zero_or_dead_fails_unchanged(void **state)
{
	static const int counts[] = {0, -1, DEAD, INT_MIN};

	(void)state;
	check_op_from_each(OP_GET_NOT_ZERO, counts, N_OF(counts), false, 0);
}

static void get_not_zero_on_positive_count_increments(void **state)
{
	static const int counts[] = {1, 2, 99};

	(void)state;
	check_op_from_each(OP_GET_NOT_ZERO, counts, N_OF(counts), true, +1);
}

/* ---- get_not_dead ---- */

static void get_not_dead_from_zero_succeeds(void **state)
{
	struct hl_lockref l = HL_LOCKREF_INIT(0);

	(void)state;
	if (!hl_lockref_get_not_dead(&l))
		fail_msg("get_not_dead on count 0 returned false, expected true (0 is not dead)");
	assert_lockref_count(&l, 1);
	assert_true(hl_lockref_get_not_dead(&l));
	assert_lockref_count(&l, 2);
	assert_lock_word(&l, 0);
}

static void get_not_dead_on_dead_fails_unchanged(void **state)
{
	static const int counts[] = {DEAD, -1, INT_MIN};

	(void)state;
	check_op_from_each(OP_GET_NOT_DEAD, counts, N_OF(counts), false, 0);
}

/* ---- put_return ---- */

static void put_return_returns_the_new_count(void **state)
{
	static const int counts[] = {1, 2, 5, INT_MAX};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(counts); i++) {
		check_op(&l, OP_PUT_RETURN, counts[i], counts[i] - 1, counts[i] - 1);
		assert_lock_word(&l, 0);
	}
}

static void put_return_on_zero_or_dead_returns_minus_1_unchanged(void **state)
{
	static const int counts[] = {0, -1, DEAD};

	(void)state;
	check_op_from_each(OP_PUT_RETURN, counts, N_OF(counts), -1, 0);
}

static void put_return_with_the_lock_held_returns_minus_1_unchanged(void **state)
{
	struct hl_lockref l = HL_LOCKREF_INIT(5);
	int got;

	(void)state;
	hl_qspin_lock(&l.lock);
	got = hl_lockref_put_return(&l);
	if (got != -1)
		fail_msg("put_return with l->lock held returned %d, expected -1", got);
	assert_lockref_count(&l, 5);
	assert_lock_word(&l, HL_QSPIN_LOCKED); /* and it did not touch the lock */
	hl_qspin_unlock(&l.lock);
	assert_int_equal(hl_lockref_put_return(&l), 4);
}

static void put_return_with_only_waiter_bits_set_returns_minus_1(void **state)
{
	static const unsigned int words[] = {HL_QSPIN_PENDING, SOME_TAIL,
					     HL_QSPIN_PENDING | SOME_TAIL};
	struct hl_lockref l = HL_LOCKREF_INIT(5);

	(void)state;
	/* Locked, pending or queued: any non-zero lock word means "do not go lockless". */
	for (size_t i = 0; i < N_OF(words); i++) {
		int got;

		atomic_store(&l.lock.val, words[i]);
		got = hl_lockref_put_return(&l);
		if (got != -1)
			fail_msg("put_return with lock word 0x%08x (not held, but waited for) "
				 "returned %d, expected -1",
				 words[i], got);
		assert_lockref_count(&l, 5);
		assert_lock_word(&l, words[i]);
	}
	atomic_store(&l.lock.val, 0);
	assert_int_equal(hl_lockref_put_return(&l), 4);
}

static void ops_with_only_waiter_bits_set_take_the_locked_path(void **state)
{
	struct hl_lockref l = HL_LOCKREF_INIT(5);
	const unsigned int bits = HL_QSPIN_PENDING | SOME_TAIL;

	(void)state;
	/*
	 * The lockless path must not run (the lock word is not zero), so these
	 * go through hl_qspin_lock, which takes a free locked byte even with
	 * waiter bits set, and leave those bits as they found them.
	 */
	atomic_store(&l.lock.val, bits);
	hl_lockref_get(&l);
	assert_lockref_count(&l, 6);
	assert_true(hl_lockref_get_not_zero(&l));
	assert_true(hl_lockref_get_not_dead(&l));
	assert_lockref_count(&l, 8);
	assert_true(hl_lockref_put_or_lock(&l));
	assert_lockref_count(&l, 7);
	assert_lock_word(&l, bits);
	atomic_store(&l.lock.val, 0);
}

/* ---- put_or_lock ---- */

static void put_or_lock_above_1_decrements_and_leaves_the_lock_free(void **state)
{
	static const int counts[] = {2, 3, 100, INT_MAX};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(counts); i++) {
		check_op(&l, OP_PUT_OR_LOCK, counts[i], true, counts[i] - 1);
		assert_lock_word(&l, 0);
		if (!trylock_from_another_thread(&l.lock))
			fail_msg("after put_or_lock returned true on count %d, the lock is held; "
				 "expected free",
				 counts[i]);
	}
}

static void put_or_lock_at_1_0_or_dead_returns_false_with_the_lock_held(void **state)
{
	static const int counts[] = {1, 0, -1, DEAD};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(counts); i++) {
		check_op(&l, OP_PUT_OR_LOCK, counts[i], false, counts[i]);
		if (!hl_qspin_is_locked(&l.lock))
			fail_msg("put_or_lock on count %d returned false without the lock held",
				 counts[i]);
		if (trylock_from_another_thread(&l.lock))
			fail_msg("put_or_lock on count %d returned false, but another thread's "
				 "trylock succeeded: the lock must be held",
				 counts[i]);
		hl_qspin_unlock(&l.lock);
		assert_lock_word(&l, 0);
		assert_lockref_count(&l, counts[i]);
	}
}

/* ---- mark_dead, is_dead, count ---- */

static void mark_dead_under_the_lock_gives_dead_count(void **state)
{
	static const int counts[] = {0, 1, 7};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(counts); i++) {
		lockref_reset(&l, counts[i]);
		hl_qspin_lock(&l.lock);
		hl_lockref_mark_dead(&l);
		assert_lock_word(&l, HL_QSPIN_LOCKED); /* still held: the caller unlocks */
		hl_qspin_unlock(&l.lock);
		if (hl_lockref_count(&l) != HL_LOCKREF_DEAD)
			fail_msg("after mark_dead from count %d, count is %d, expected "
				 "HL_LOCKREF_DEAD (%d)",
				 counts[i], hl_lockref_count(&l), HL_LOCKREF_DEAD);
		assert_true(hl_lockref_is_dead(&l));
		assert_lock_word(&l, 0);
	}
	/* Dead stays dead for everything but get. */
	assert_false(hl_lockref_get_not_zero(&l));
	assert_false(hl_lockref_get_not_dead(&l));
	assert_int_equal(hl_lockref_put_return(&l), -1);
	assert_lockref_count(&l, DEAD);
	assert_lock_word(&l, 0);
}

static void set_count_under_the_lock_keeps_the_lock_half(void **state)
{
	static const int counts[] = {0, 1, 7, INT_MAX, DEAD};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(counts); i++) {
		lockref_reset(&l, 1);
		hl_qspin_lock(&l.lock);
		/* A waiter has set pending meanwhile: set_count must leave it. */
		atomic_fetch_or(&l.lock.val, HL_QSPIN_PENDING);
		hl_lockref_set_count(&l, counts[i]);
		assert_lock_word(&l, HL_QSPIN_LOCKED | HL_QSPIN_PENDING);
		assert_lockref_count(&l, counts[i]);
		atomic_fetch_and(&l.lock.val, ~HL_QSPIN_PENDING);
		hl_qspin_unlock(&l.lock);
		assert_lock_word(&l, 0);
		assert_lockref_count(&l, counts[i]);
	}
}

static void is_dead_means_negative(void **state)
{
	static const struct {
		int count;
		bool dead;
	} cases[] = {{0, false}, {1, false},   {INT_MAX, false},
		     {-1, true}, {DEAD, true}, {INT_MIN, true}};
	struct hl_lockref l;

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		lockref_reset(&l, cases[i].count);
		if (hl_lockref_is_dead(&l) != cases[i].dead)
			fail_msg("is_dead on count %d returned %d, expected %d", cases[i].count,
				 hl_lockref_is_dead(&l), cases[i].dead);
		assert_lockref_count(&l, cases[i].count);
	}
}

/* ---- The same operations while another thread holds l->lock ---- */

static struct {
	struct hl_lockref l;
	int count_while_held;	/* what the holder sets while we wait */
	atomic_bool held;	/* the holder has the lock */
	atomic_bool released;	/* the holder is about to unlock */
	atomic_bool saw_waiter; /* the holder saw us waiting on the lock word */
	atomic_bool returned;	/* an operation that must not wait has returned */
} hold;

/* Until the main thread's operation has returned, or 5 s (one that waits never does). */
static void wait_for_return(void)
{
	struct timespec tick = {0, 100 * 1000};

	for (int i = 0; i < 50000 && !atomic_load(&hold.returned); i++)
		nanosleep(&tick, NULL);
}

static void *holder_fn(void *arg)
{
	struct timespec settle = {0, 20 * 1000 * 1000};
	bool expect_waiter = *(bool *)arg;

	hl_qspin_lock(&hold.l.lock);
	atomic_store(&hold.held, true);
	if (expect_waiter) /* wait (up to 5 s) for the main thread to show up on the lock word */
		atomic_store(&hold.saw_waiter, qspin_wait_for_waiter(&hold.l.lock));
	else /* hold the lock across the whole call, however late the main thread runs */
		wait_for_return();
	/* Change the count under the lock: the waiter must decide on this value. */
	lockref_swap_count(&hold.l, hold.count_while_held);
	nanosleep(&settle, NULL);
	atomic_store(&hold.released, true);
	hl_qspin_unlock(&hold.l.lock);
	return NULL;
}

struct held_case {
	enum op op;
	int before, while_held; /* count when we start, count the holder leaves */
	int result;		/* bool result, or put_return's value */
	int after;		/* count when we are done */
	bool waits;		/* must wait for the holder (put_return never does) */
	bool lock_held_after;	/* put_or_lock false: we hold the lock */
};

static void run_held_case(const struct held_case *c)
{
	bool waits = c->waits;
	pthread_t tid;
	int got;
	bool released_at_return;

	lockref_reset(&hold.l, c->before);
	hold.count_while_held = c->while_held;
	atomic_store(&hold.held, false);
	atomic_store(&hold.released, false);
	atomic_store(&hold.saw_waiter, false);
	atomic_store(&hold.returned, false);
	assert_int_equal(pthread_create(&tid, NULL, holder_fn, &waits), 0);
	while (!atomic_load(&hold.held))
		sched_yield();

	got = do_op(c->op, &hold.l);
	released_at_return = atomic_load(&hold.released);
	atomic_store(&hold.returned, true);
	assert_int_equal(pthread_join(tid, NULL), 0);
	if (c->lock_held_after && !got) {
		/* We hold it: the holder is gone, and nobody else can take it. */
		if (!hl_qspin_is_locked(&hold.l.lock) || trylock_from_another_thread(&hold.l.lock))
			fail_msg("%s from %d returned false without holding the lock",
				 op_names[c->op], c->before);
		hl_qspin_unlock(&hold.l.lock);
	}

	if (waits && !released_at_return)
		fail_msg("%s returned while another thread still held l->lock; expected it to "
			 "wait for the unlock",
			 op_names[c->op]);
	if (waits && !atomic_load(&hold.saw_waiter))
		fail_msg("%s: the holder never saw it waiting on the lock word", op_names[c->op]);
	if (!waits && released_at_return)
		fail_msg("%s waited for the lock holder; expected it to return at once",
			 op_names[c->op]);
	if (c->op != OP_GET && got != c->result)
		fail_msg("%s with the lock held by another thread (count %d, set to %d by the "
			 "holder) returned %d, expected %d",
			 op_names[c->op], c->before, c->while_held, got, c->result);
	if (hl_lockref_count(&hold.l) != c->after)
		fail_msg("%s with the lock held by another thread (count %d, set to %d by the "
			 "holder): count is %d afterwards, expected %d",
			 op_names[c->op], c->before, c->while_held, hl_lockref_count(&hold.l),
			 c->after);
	assert_lock_word(&hold.l, 0);
}

static void ops_wait_for_another_threads_lock_and_use_the_count_it_leaves(void **state)
{
	static const struct held_case cases[] = {
		/* op                before  held  result after waits  lock_after */
		{OP_GET, 5, 5, 0, 6, true, false},
		{OP_GET, 5, DEAD, 0, DEAD + 1, true, false},
		{OP_GET_NOT_ZERO, 5, 0, false, 0, true, false},
		{OP_GET_NOT_ZERO, 5, DEAD, false, DEAD, true, false},
		{OP_GET_NOT_ZERO, 0, 3, true, 4, true, false},
		{OP_GET_NOT_DEAD, 5, DEAD, false, DEAD, true, false},
		{OP_GET_NOT_DEAD, 5, 0, true, 1, true, false},
		{OP_GET_NOT_DEAD, DEAD, 2, true, 3, true, false},
		{OP_PUT_OR_LOCK, 5, 1, false, 1, true, true},
		{OP_PUT_OR_LOCK, 1, 3, true, 2, true, false},
		{OP_PUT_OR_LOCK, 5, DEAD, false, DEAD, true, true},
		/* put_return never takes the lock: -1 at once, nothing changed by it. */
		{OP_PUT_RETURN, 5, 5, -1, 5, false, false},
	};

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++)
		run_held_case(&cases[i]);
}

/* ---- Retry limit ---- */

static void retry_limit_set_and_get_round_trip(void **state)
{
	static const unsigned int limits[] = {1, 7, 100, 0, 1000000, UINT_MAX};
	unsigned int saved = hl_lockref_retry_limit();
	struct hl_lockref l = HL_LOCKREF_INIT(1);

	(void)state;
	for (size_t i = 0; i < N_OF(limits); i++) {
		hl_lockref_set_retry_limit(limits[i]);
		if (hl_lockref_retry_limit() != limits[i])
			fail_msg("set_retry_limit(%u), then retry_limit() returned %u", limits[i],
				 hl_lockref_retry_limit());
		/* Any limit, 0 (unbounded) included: uncontended ops still work. */
		hl_lockref_get(&l);
		assert_true(hl_lockref_get_not_zero(&l));
		assert_int_equal(hl_lockref_put_return(&l), 2);
		assert_true(hl_lockref_put_or_lock(&l));
		assert_lockref_count(&l, 1);
	}
	hl_lockref_set_retry_limit(saved);
}

/* The child: print the limit it started with, and one after a set, on stdout. */
static int child_main(const char *scenario)
{
	alarm(20);
	printf("limit %u\n", hl_lockref_retry_limit());
	if (strcmp(scenario, "set3") == 0) {
		hl_lockref_set_retry_limit(3);
		printf("after set %u\n", hl_lockref_retry_limit());
	}
	fflush(stdout);
	return 0;
}

/* Run this program as "--child SCENARIO" with HOTLINE_LOCKREF_RETRIES=env (unset if NULL). */
static void run_child(const char *scenario, const char *env, struct child_output *res)
{
	run_child_output(scenario, "HOTLINE_LOCKREF_RETRIES", env, res);
	print_message("child (HOTLINE_LOCKREF_RETRIES=%s%s%s): stdout '%.*s', stderr '%.*s'\n",
		      env ? "'" : "", env ? env : "(unset)", env ? "'" : "",
		      (int)strcspn(res->out, "\n"), res->out, (int)strcspn(res->err, "\n"),
		      res->err);
	if (!WIFEXITED(res->status) || WEXITSTATUS(res->status) != 0)
		fail_msg("child exited with status 0x%x, expected 0 (127: exec failed)",
			 res->status);
}

static unsigned int child_limit(const struct child_output *res)
{
	unsigned int v;

	if (sscanf(res->out, "limit %u", &v) != 1)
		fail_msg("child printed '%s', expected 'limit N'", res->out);
	return v;
}

static void env_unset_gives_the_default_limit(void **state)
{
	struct child_output res;

	(void)state;
	run_child("print", NULL, &res);
	if (child_limit(&res) != HL_LOCKREF_RETRIES_DEFAULT)
		fail_msg("without HOTLINE_LOCKREF_RETRIES the limit is %u, expected %u",
			 child_limit(&res), HL_LOCKREF_RETRIES_DEFAULT);
	if (res.err_lines)
		fail_msg("without HOTLINE_LOCKREF_RETRIES, stderr has %d lines, expected none",
			 res.err_lines);
}

static void env_number_sets_the_limit_silently(void **state)
{
	static const struct {
		const char *env;
		unsigned int limit;
	} cases[] = {{"7", 7}, {"0", 0}, {"1", 1}, {"100", 100}, {"4294967295", UINT_MAX}};
	struct child_output res;

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		run_child("print", cases[i].env, &res);
		if (child_limit(&res) != cases[i].limit)
			fail_msg("HOTLINE_LOCKREF_RETRIES='%s': limit is %u, expected %u",
				 cases[i].env, child_limit(&res), cases[i].limit);
		if (res.err_lines)
			fail_msg("HOTLINE_LOCKREF_RETRIES='%s': stderr has %d lines, expected "
				 "none",
				 cases[i].env, res.err_lines);
	}
}

static void env_not_a_number_prints_one_line_and_keeps_the_default(void **state)
{
	static const char *const envs[] = {"abc", "-1",		"",
					   "12x", "4294967296", "99999999999999999999"};
	struct child_output res;

	(void)state;
	for (size_t i = 0; i < N_OF(envs); i++) {
		run_child("print", envs[i], &res);
		if (child_limit(&res) != HL_LOCKREF_RETRIES_DEFAULT)
			fail_msg("HOTLINE_LOCKREF_RETRIES='%s': limit is %u, expected the default "
				 "%u",
				 envs[i], child_limit(&res), HL_LOCKREF_RETRIES_DEFAULT);
		if (res.err_lines != 1 || !strstr(res.err, "HOTLINE_LOCKREF_RETRIES"))
			fail_msg("HOTLINE_LOCKREF_RETRIES='%s': expected one stderr line naming "
				 "HOTLINE_LOCKREF_RETRIES, got %d lines: '%s'",
				 envs[i], res.err_lines, res.err);
	}
}

static void set_retry_limit_overrides_the_env(void **state)
{
	struct child_output res;
	unsigned int v;

	(void)state;
	run_child("set3", "7", &res);
	assert_int_equal(child_limit(&res), 7);
	if (!strstr(res.out, "after set ") ||
	    sscanf(strstr(res.out, "after set "), "after set %u", &v) != 1 || v != 3)
		fail_msg("HOTLINE_LOCKREF_RETRIES=7 then set_retry_limit(3): child printed '%s', "
			 "expected 'after set 3'",
			 res.out);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_are_8_4_and_4_bytes),
		cmocka_unit_test(init_gives_count_1_and_a_free_lock),
		cmocka_unit_test(init_macro_equals_init_for_1_and_sets_any_count),
		cmocka_unit_test(get_increments_any_count_even_dead),
		cmocka_unit_test(get_at_int_max_wraps_to_int_min_which_reads_dead),
		cmocka_unit_test(get_not_zero_on_zero_or_dead_fails_unchanged),
		cmocka_unit_test(get_not_zero_on_positive_count_increments),
		cmocka_unit_test(get_not_dead_from_zero_succeeds),
		cmocka_unit_test(get_not_dead_on_dead_fails_unchanged),
		cmocka_unit_test(put_return_returns_the_new_count),
		cmocka_unit_test(put_return_on_zero_or_dead_returns_minus_1_unchanged),
		cmocka_unit_test(put_return_with_the_lock_held_returns_minus_1_unchanged),
		cmocka_unit_test(put_return_with_only_waiter_bits_set_returns_minus_1),
		cmocka_unit_test(ops_with_only_waiter_bits_set_take_the_locked_path),
		cmocka_unit_test(put_or_lock_above_1_decrements_and_leaves_the_lock_free),
		cmocka_unit_test(put_or_lock_at_1_0_or_dead_returns_false_with_the_lock_held),
		cmocka_unit_test(mark_dead_under_the_lock_gives_dead_count),
		cmocka_unit_test(set_count_under_the_lock_keeps_the_lock_half),
		cmocka_unit_test(is_dead_means_negative),
		cmocka_unit_test(ops_wait_for_another_threads_lock_and_use_the_count_it_leaves),
		cmocka_unit_test(retry_limit_set_and_get_round_trip),
		cmocka_unit_test(env_unset_gives_the_default_limit),
		cmocka_unit_test(env_number_sets_the_limit_silently),
		cmocka_unit_test(env_not_a_number_prints_one_line_and_keeps_the_default),
		cmocka_unit_test(set_retry_limit_overrides_the_env),
	};

	return RUN_TESTS(argc, argv, child_main, tests, NULL, "test_lockref", 60, 0);
}
