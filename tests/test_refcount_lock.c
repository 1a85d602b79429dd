// SPDX-License-Identifier: MIT
/*
 * test_refcount_lock.c - hl_refcount_dec_and_lock(): drop a reference, and
 * take an hl_qspinlock_t only when that may leave zero (the kernel's
 * refcount_dec_and_lock, with the spinlock being ours).
 *
 * From each count alone, then between threads: of N holders dropping N
 * references at once exactly one gets true, holding the lock, with count 0;
 * a putter that found count 1 and waits for the lock while another thread
 * revives the object must return false and not keep the lock; and a
 * get/put/recreate loop, where a false that kept the lock would deadlock
 * the next lock (the watchdog reports it). Rounds and iterations are
 * scaled() (support/scale.h: HOTLINE_TEST_SCALE, and ThreadSanitizer).
 */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/qspin_probe.h"
#include "support/refcount_check.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/compiler.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>

#define SAT HL_REFCOUNT_SATURATED

/* Reports: counted by type. Most tests expect none. */
static atomic_int reports[5];

static void count_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	if ((unsigned int)t < 5)
		atomic_fetch_add(&reports[t], 1);
}

static int reports_total(void)
{
	int n = 0;

	for (int i = 0; i < 5; i++)
		n += atomic_load(&reports[i]);
	return n;
}

static int install_counter(void **state)
{
	(void)state;
	for (int i = 0; i < 5; i++)
		atomic_store(&reports[i], 0);
	hl_refcount_set_handler(count_report);
	return 0;
}

/* ---- One thread ---- */

static void from_2_returns_false_count_1_lock_not_held(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(2);
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	if (hl_refcount_dec_and_lock(&r, &l))
		fail_msg("dec_and_lock from 2 returned true, expected false");
	assert_count(&r, 1);
	assert_qspin_word(&l, 0);
	if (!trylock_from_another_thread(&l))
		fail_msg("dec_and_lock from 2 returned false, but the lock is held");
	assert_int_equal(reports_total(), 0);
}

static void from_many_returns_false_without_touching_a_held_lock(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(5);
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	/* Not the last: the lock is not even looked at, so holding it cannot block us. */
	hl_qspin_lock(&l);
	for (int want = 4; want >= 1; want--) {
		assert_false(hl_refcount_dec_and_lock(&r, &l));
		assert_count(&r, want);
	}
	assert_qspin_word(&l, HL_QSPIN_LOCKED);
	hl_qspin_unlock(&l);
	assert_int_equal(reports_total(), 0);
}

static void from_1_returns_true_count_0_lock_held(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	if (!hl_refcount_dec_and_lock(&r, &l))
		fail_msg("dec_and_lock from 1 returned false, expected true");
	assert_count(&r, 0);
	if (!hl_qspin_is_locked(&l))
		fail_msg("dec_and_lock from 1 returned true without the lock held");
	if (trylock_from_another_thread(&l))
		fail_msg("dec_and_lock from 1 returned true, but another thread's trylock "
			 "succeeded: the lock must be held");
	hl_qspin_unlock(&l);
	assert_qspin_word(&l, 0);
	assert_int_equal(reports_total(), 0);
}

static void saturated_returns_false_stays_saturated_lock_not_held(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	for (int i = 0; i < 3; i++) {
		if (hl_refcount_dec_and_lock(&r, &l))
			fail_msg("dec_and_lock on a saturated count returned true, expected false");
		assert_count(&r, SAT);
		assert_qspin_word(&l, 0);
	}
	assert_int_equal(reports_total(), 0);
}

static void zero_reports_sub_uaf_returns_false_lock_not_held(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);
	hl_qspinlock_t l = HL_QSPINLOCK_INIT;

	(void)state;
	/* As the kernel: dec_not_one reports the underflow and leaves 0. */
	assert_false(hl_refcount_dec_and_lock(&r, &l));
	assert_count(&r, 0);
	assert_qspin_word(&l, 0);
	if (atomic_load(&reports[HL_REFCOUNT_SUB_UAF]) != 1 || reports_total() != 1)
		fail_msg("dec_and_lock on 0: expected one HL_REFCOUNT_SUB_UAF report, got %d "
			 "(%d reports in all)",
			 atomic_load(&reports[HL_REFCOUNT_SUB_UAF]), reports_total());
	atomic_store(&reports[HL_REFCOUNT_SUB_UAF], 0);
}

/* ---- Threads: N holders drop N references ---- */

#define N_THREADS 4
#define N_ROUNDS  scaled(20000)

static struct {
	hl_refcount_t ref;
	hl_qspinlock_t lock;
	pthread_barrier_t start, end;
	long payload[N_THREADS]; /* plain: each holder's last write before its put */
	int inside;		 /* plain: under lock */
} nd;

struct nd_worker {
	int id;
	long wins, bad_count, overlap, stale, not_locked;
};

static void *nd_worker_fn(void *arg)
{
	struct nd_worker *w = arg;

	for (long round = 1; round <= N_ROUNDS; round++) {
		pthread_barrier_wait(&nd.start);
		nd.payload[w->id] = round;
		if (hl_refcount_dec_and_lock(&nd.ref, &nd.lock)) {
			w->not_locked += !hl_qspin_is_locked(&nd.lock);
			w->overlap += nd.inside++ != 0;
			w->bad_count += hl_refcount_read(&nd.ref) != 0;
			for (int i = 0; i < N_THREADS; i++)
				w->stale += nd.payload[i] != round;
			w->wins++;
			nd.inside--;
			hl_qspin_unlock(&nd.lock);
		}
		pthread_barrier_wait(&nd.end);
	}
	return NULL;
}

static void n_holders_dropping_n_references_exactly_one_gets_the_lock(void **state)
{
	struct nd_worker workers[N_THREADS];
	pthread_t tids[N_THREADS];
	long wins = 0, bad_count = 0, overlap = 0, stale = 0, not_locked = 0, left_locked = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	memset(nd.payload, 0, sizeof(nd.payload));
	nd.inside = 0;
	atomic_store(&nd.lock.val, 0);
	for (int i = 0; i < N_THREADS; i++)
		workers[i].id = i;
	barriers_init(N_THREADS + 1, &nd.start, &nd.end);
	start_threads(tids, N_THREADS, nd_worker_fn, workers, sizeof(workers[0]));
	for (long round = 1; round <= N_ROUNDS; round++) {
		hl_refcount_set(&nd.ref, N_THREADS);
		pthread_barrier_wait(&nd.start);
		pthread_barrier_wait(&nd.end);
		left_locked += atomic_load(&nd.lock.val) != 0;
	}
	join_threads(tids, N_THREADS);
	barriers_destroy(&nd.start, &nd.end);

	for (int i = 0; i < N_THREADS; i++) {
		wins += workers[i].wins;
		bad_count += workers[i].bad_count;
		overlap += workers[i].overlap;
		stale += workers[i].stale;
		not_locked += workers[i].not_locked;
	}
	if (wins != N_ROUNDS)
		fail_msg("%ld rounds of %d holders: dec_and_lock returned true %ld times, expected "
			 "once per round",
			 N_ROUNDS, N_THREADS, wins);
	if (not_locked)
		fail_msg("dec_and_lock returned true %ld times without the lock held", not_locked);
	if (bad_count)
		fail_msg("dec_and_lock returned true %ld times with a count other than 0",
			 bad_count);
	if (overlap)
		fail_msg("%ld times two winners were inside the lock at once", overlap);
	if (stale)
		fail_msg("the winner missed %ld writes the others made before their puts", stale);
	if (left_locked)
		fail_msg("%ld rounds ended with the lock still held (a false kept it)",
			 left_locked);
	assert_int_equal(reports_total(), 0);
}

/* ---- A putter that found count 1 waits for the lock; we revive the object ---- */

static struct {
	hl_refcount_t ref;
	hl_qspinlock_t lock;
	atomic_bool calling;
	bool result;
} blocked;

static void *blocked_putter_fn(void *arg)
{
	(void)arg;
	atomic_store(&blocked.calling, true);
	blocked.result = hl_refcount_dec_and_lock(&blocked.ref, &blocked.lock);
	return NULL;
}

static void revived_while_waiting_for_the_lock_returns_false_unlocked(void **state)
{
	pthread_t tid;

	(void)state;
	hl_refcount_set(&blocked.ref, 1);
	atomic_store(&blocked.lock.val, 0);
	atomic_store(&blocked.calling, false);

	hl_qspin_lock(&blocked.lock);
	assert_int_equal(pthread_create(&tid, NULL, blocked_putter_fn, NULL), 0);
	/* It found count 1 and now waits on our lock: the pending bit (or a tail) says so. */
	if (!qspin_wait_for_waiter(&blocked.lock))
		fail_msg("after 5 s the putter was still not waiting for the lock (word 0x%08x); "
			 "count %d",
			 atomic_load(&blocked.lock.val), hl_refcount_read(&blocked.ref));
	assert_count(&blocked.ref, 1); /* dec_not_one saw 1 and did not write */
	hl_refcount_inc(&blocked.ref); /* a lookup revives it */
	hl_qspin_unlock(&blocked.lock);
	assert_int_equal(pthread_join(tid, NULL), 0);

	if (blocked.result)
		fail_msg("dec_and_lock returned true although the count was revived to 2");
	assert_count(&blocked.ref, 1);
	if (atomic_load(&blocked.lock.val) != 0)
		fail_msg("after dec_and_lock returned false the lock word is 0x%08x, expected 0: "
			 "the putter kept the lock",
			 atomic_load(&blocked.lock.val));
	assert_int_equal(reports_total(), 0);
}

/* ---- get / put / recreate between threads ---- */

#define RV_THREADS 3
#define RV_ITERS   scaled(200000)

static struct {
	hl_refcount_t ref;
	hl_qspinlock_t lock;
	pthread_barrier_t start;
	int inside; /* plain: under lock */
} rv;

struct rv_worker {
	long wins, creates, bad_count, overlap;
};

static void rv_get(struct rv_worker *w)
{
	while (!hl_refcount_inc_not_zero(&rv.ref)) {
		hl_qspin_lock(&rv.lock);
		if (hl_refcount_read(&rv.ref) == 0) { /* dead: recreate, under the lock */
			hl_refcount_set(&rv.ref, 1);
			w->creates++;
			hl_qspin_unlock(&rv.lock);
			return;
		}
		hl_qspin_unlock(&rv.lock);
	}
}

static void *rv_worker_fn(void *arg)
{
	struct rv_worker *w = arg;

	pthread_barrier_wait(&rv.start);
	for (long i = 0; i < RV_ITERS; i++) {
		rv_get(w);
		if (hl_refcount_dec_and_lock(&rv.ref, &rv.lock)) {
			w->overlap += rv.inside++ != 0;
			w->bad_count += hl_refcount_read(&rv.ref) != 0;
			w->wins++;
			rv.inside--;
			hl_qspin_unlock(&rv.lock);
		}
		/* A false that kept the lock: the next hl_qspin_lock here never returns. */
	}
	return NULL;
}

static void get_put_recreate_race_frees_once_per_recreation(void **state)
{
	struct rv_worker workers[RV_THREADS];
	pthread_t tids[RV_THREADS];
	struct rv_worker sum = {0};

	(void)state;
	memset(workers, 0, sizeof(workers));
	hl_refcount_set(&rv.ref, 0);
	atomic_store(&rv.lock.val, 0);
	rv.inside = 0;
	barriers_init(RV_THREADS, &rv.start, NULL);
	start_threads(tids, RV_THREADS, rv_worker_fn, workers, sizeof(workers[0]));
	join_threads(tids, RV_THREADS);
	pthread_barrier_destroy(&rv.start);

	for (int i = 0; i < RV_THREADS; i++) {
		sum.wins += workers[i].wins;
		sum.creates += workers[i].creates;
		sum.bad_count += workers[i].bad_count;
		sum.overlap += workers[i].overlap;
	}
	print_message("%ld puts: %ld dropped the last reference, %ld recreations\n",
		      (long)RV_THREADS * RV_ITERS, sum.wins, sum.creates);
	if (sum.creates != sum.wins)
		fail_msg("%ld recreations but %ld last puts: every drop to zero must be followed "
			 "by exactly one recreation",
			 sum.creates, sum.wins);
	assert_int_equal(sum.bad_count, 0);
	assert_int_equal(sum.overlap, 0);
	assert_count(&rv.ref, 0);
	assert_qspin_word(&rv.lock, 0);
	assert_int_equal(reports_total(), 0);
}

/* test_refcount_lock [PATTERN]: run only the tests whose names match PATTERN. */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(from_2_returns_false_count_1_lock_not_held),
		cmocka_unit_test(from_many_returns_false_without_touching_a_held_lock),
		cmocka_unit_test(from_1_returns_true_count_0_lock_held),
		cmocka_unit_test(saturated_returns_false_stays_saturated_lock_not_held),
		cmocka_unit_test(zero_reports_sub_uaf_returns_false_lock_not_held),
		cmocka_unit_test(n_holders_dropping_n_references_exactly_one_gets_the_lock),
		cmocka_unit_test(revived_while_waiting_for_the_lock_returns_false_unlocked),
		cmocka_unit_test(get_put_recreate_race_frees_once_per_recreation),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	watchdog_start(120, "test_refcount_lock");
	return cmocka_run_group_tests(tests, install_counter, restore_default_handler);
}
