// SPDX-License-Identifier: MIT
/*
 * test_refcount_threads.c - hl_refcount_t under concurrent use.
 *
 * Racing operations on a saturated counter never bring it out of the
 * saturation zone; balanced get/put pairs never reach zero or report; the
 * reference that reaches zero is unique and sees everything the others did
 * (ASan and TSan check the free and the data); handlers can be swapped while
 * detections happen.
 *
 * cmocka's assertions are not thread-safe: workers only count and record,
 * and the main thread asserts after joining them. Thread counts and
 * iterations are small enough for ThreadSanitizer (make test-tsan).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/refcount_check.h"
#include "support/run_tests.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/refcount.h>

#define SAT	 HL_REFCOUNT_SATURATED
#define NTHREADS 4

/* Any report at all is a failure in the tests that install this. */
static atomic_int unexpected_reports;

static void unexpected_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	atomic_fetch_add_explicit(&unexpected_reports, 1, memory_order_relaxed);
}

/* ---- (a) Threads racing on a saturated counter ---- */

#define ZONE_OPS   200000
#define ZONE_KINDS 5
/* The largest step one operation takes before it resets the counter. */
#define ZONE_MAX_STEP 2

static struct {
	hl_refcount_t r;
	pthread_barrier_t start;
	atomic_bool stop;
	atomic_long handler_calls;
	atomic_long calls_by_type[ZONE_KINDS];
	atomic_long values_checked;
	atomic_long out_of_zone;
	atomic_int first_bad_value;
	atomic_int max_drift; /* largest |value - SATURATED| seen */
} zone;

struct zone_worker {
	unsigned int seed;
	long expected_by_type[ZONE_KINDS];
	long ops;
	long dec_and_test_true;
	long not_zero_false;
};

/* Record v; every value of a saturated counter must stay in its zone. */
static void zone_check_value(int v)
{
	long long d = (long long)v - SAT; /* no int overflow, whatever v is */
	int drift, max;

	atomic_fetch_add_explicit(&zone.values_checked, 1, memory_order_relaxed);
	if (v >= 0 || v == INT_MIN) {
		if (atomic_fetch_add_explicit(&zone.out_of_zone, 1, memory_order_relaxed) == 0)
			atomic_store_explicit(&zone.first_bad_value, v, memory_order_relaxed);
		return;
	}
	drift = (int)(d < 0 ? -d : d); /* < 2^30 inside the zone */
	max = atomic_load_explicit(&zone.max_drift, memory_order_relaxed);
	while (drift > max &&
	       !atomic_compare_exchange_weak_explicit(&zone.max_drift, &max, drift,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

static void zone_handler(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	atomic_fetch_add_explicit(&zone.handler_calls, 1, memory_order_relaxed);
	if ((unsigned int)t < ZONE_KINDS)
		atomic_fetch_add_explicit(&zone.calls_by_type[t], 1, memory_order_relaxed);
	zone_check_value(hl_refcount_read(r));
}

static void *zone_worker_fn(void *arg)
{
	struct zone_worker *w = arg;

	pthread_barrier_wait(&zone.start);
	for (long i = 0; i < ZONE_OPS; i++) {
		switch (next_rand(&w->seed) % 7) {
		case 0:
			hl_refcount_inc(&zone.r);
			w->expected_by_type[HL_REFCOUNT_ADD_OVF]++;
			break;
		case 1:
			hl_refcount_add(ZONE_MAX_STEP, &zone.r);
			w->expected_by_type[HL_REFCOUNT_ADD_OVF]++;
			break;
		case 2:
			hl_refcount_dec(&zone.r);
			w->expected_by_type[HL_REFCOUNT_DEC_LEAK]++;
			break;
		case 3:
			w->dec_and_test_true += hl_refcount_dec_and_test(&zone.r);
			w->expected_by_type[HL_REFCOUNT_SUB_UAF]++;
			break;
		case 4:
			w->dec_and_test_true += hl_refcount_sub_and_test(ZONE_MAX_STEP, &zone.r);
			w->expected_by_type[HL_REFCOUNT_SUB_UAF]++;
			break;
		case 5:
			w->not_zero_false += !hl_refcount_inc_not_zero(&zone.r);
			w->expected_by_type[HL_REFCOUNT_ADD_NOT_ZERO_OVF]++;
			break;
		case 6:
			w->not_zero_false += !hl_refcount_add_not_zero(ZONE_MAX_STEP, &zone.r);
			w->expected_by_type[HL_REFCOUNT_ADD_NOT_ZERO_OVF]++;
			break;
		}
		w->ops++;
	}
	return NULL;
}

static void *zone_observer_fn(void *arg)
{
	long *samples = arg;

	pthread_barrier_wait(&zone.start);
	while (!atomic_load_explicit(&zone.stop, memory_order_relaxed)) {
		zone_check_value(hl_refcount_read(&zone.r));
		(*samples)++;
	}
	return NULL;
}

static const char *const kind_names[ZONE_KINDS] = {
	"ADD_NOT_ZERO_OVF", "ADD_OVF", "ADD_UAF", "SUB_UAF", "DEC_LEAK",
};

static void racing_ops_on_saturated_counter_stay_in_saturation_zone(void **state)
{
	struct zone_worker workers[NTHREADS];
	pthread_t tids[NTHREADS], observer;
	long samples = 0, total_ops = 0, expected[ZONE_KINDS] = {0};
	long dec_and_test_true = 0, not_zero_false = 0;
	/*
	 * Every operation here sees a negative count and resets it to SAT after
	 * its own step, so at any moment at most one unreset step per thread is
	 * in the counter.
	 */
	const int drift_bound = NTHREADS * ZONE_MAX_STEP;

	(void)state;
	memset(&zone, 0, sizeof(zone));
	memset(workers, 0, sizeof(workers));
	hl_refcount_set(&zone.r, SAT);
	barriers_init(NTHREADS + 1, &zone.start, NULL);
	hl_refcount_set_handler(zone_handler);

	for (int i = 0; i < NTHREADS; i++)
		workers[i].seed = 0x9e3779b9u * (unsigned int)(i + 1);
	assert_int_equal(pthread_create(&observer, NULL, zone_observer_fn, &samples), 0);
	start_threads(tids, NTHREADS, zone_worker_fn, workers, sizeof(workers[0]));
	join_threads(tids, NTHREADS);
	atomic_store_explicit(&zone.stop, true, memory_order_relaxed);
	assert_int_equal(pthread_join(observer, NULL), 0);
	hl_refcount_set_handler(NULL);
	pthread_barrier_destroy(&zone.start);

	for (int i = 0; i < NTHREADS; i++) {
		total_ops += workers[i].ops;
		dec_and_test_true += workers[i].dec_and_test_true;
		not_zero_false += workers[i].not_zero_false;
		for (int k = 0; k < ZONE_KINDS; k++)
			expected[k] += workers[i].expected_by_type[k];
	}
	print_message("%ld operations, %ld handler calls, %ld observer samples, "
		      "largest distance from SATURATED %d (bound %d)\n",
		      total_ops, atomic_load(&zone.handler_calls), samples,
		      atomic_load(&zone.max_drift), drift_bound);

	if (atomic_load(&zone.out_of_zone))
		fail_msg("%ld values outside the saturation zone (negative, not INT_MIN); "
			 "first: %d",
			 atomic_load(&zone.out_of_zone), atomic_load(&zone.first_bad_value));
	if (atomic_load(&zone.max_drift) > drift_bound)
		fail_msg("a value %d away from SATURATED was seen; at most %d threads x %d "
			 "(one unreset step each) is possible",
			 atomic_load(&zone.max_drift), NTHREADS, ZONE_MAX_STEP);
	assert_int_equal(dec_and_test_true, 0);
	assert_int_equal(not_zero_false, 0);
	/* Every operation saw a negative count: each reported exactly once. */
	assert_int_equal(atomic_load(&zone.handler_calls), total_ops);
	for (int k = 0; k < ZONE_KINDS; k++)
		if (atomic_load(&zone.calls_by_type[k]) != expected[k])
			fail_msg("%s reported %ld times, expected %ld", kind_names[k],
				 atomic_load(&zone.calls_by_type[k]), expected[k]);
	assert_count(&zone.r, SAT);
}

/* ---- (b) Balanced get/put pairs on a live counter ---- */

#define PAIR_ITERS 100000

static struct {
	hl_refcount_t r;
	pthread_barrier_t start;
} pairs;

struct pair_worker {
	long reached_zero;    /* a put returned true: the main thread's reference was lost */
	long not_zero_failed; /* add_not_zero returned false on a live object */
};

static void *pair_worker_fn(void *arg)
{
	struct pair_worker *w = arg;

	pthread_barrier_wait(&pairs.start);
	for (long i = 0; i < PAIR_ITERS; i++) {
		hl_refcount_inc(&pairs.r);
		w->reached_zero += hl_refcount_dec_and_test(&pairs.r);

		if (hl_refcount_add_not_zero(3, &pairs.r))
			w->reached_zero += hl_refcount_sub_and_test(3, &pairs.r);
		else
			w->not_zero_failed++;

		if (hl_refcount_inc_not_zero(&pairs.r))
			hl_refcount_dec(&pairs.r);
		else
			w->not_zero_failed++;

		hl_refcount_add(2, &pairs.r);
		if (!hl_refcount_dec_not_one(&pairs.r))
			w->not_zero_failed++; /* we hold 2 more: it cannot be 1 */
		w->reached_zero += hl_refcount_dec_and_test(&pairs.r);
	}
	return NULL;
}

static void balanced_gets_and_puts_never_reach_zero_and_leave_one(void **state)
{
	struct pair_worker workers[NTHREADS];
	pthread_t tids[NTHREADS];
	long reached_zero = 0, not_zero_failed = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	hl_refcount_set(&pairs.r, 1); /* the main thread's reference */
	atomic_store(&unexpected_reports, 0);
	hl_refcount_set_handler(unexpected_report);
	barriers_init(NTHREADS, &pairs.start, NULL);
	start_threads(tids, NTHREADS, pair_worker_fn, workers, sizeof(workers[0]));
	join_threads(tids, NTHREADS);
	pthread_barrier_destroy(&pairs.start);

	for (int i = 0; i < NTHREADS; i++) {
		reached_zero += workers[i].reached_zero;
		not_zero_failed += workers[i].not_zero_failed;
	}
	if (reached_zero)
		fail_msg("a worker's put returned true %ld times while the main thread still "
			 "held a reference",
			 reached_zero);
	assert_int_equal(not_zero_failed, 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
	assert_count(&pairs.r, 1);
	assert_true(hl_refcount_dec_and_test(&pairs.r));
	assert_count(&pairs.r, 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
	hl_refcount_set_handler(NULL);
}

/* ---- (c) The last reference frees, and sees everything ---- */

#define FREE_ROUNDS 10000

struct shared_obj {
	hl_refcount_t ref;
	long written[NTHREADS]; /* plain data: each holder writes its own slot */
};

static struct {
	pthread_barrier_t start, end;
	struct shared_obj *obj; /* published before the start barrier */
	long rounds;
} last_ref;

struct free_worker {
	int id;
	long frees;	 /* rounds in which this thread dropped the last reference */
	long stale_seen; /* the freeing thread did not see another holder's write */
};

static void *free_worker_fn(void *arg)
{
	struct free_worker *w = arg;

	for (long round = 0; round < last_ref.rounds; round++) {
		struct shared_obj *o;

		pthread_barrier_wait(&last_ref.start);
		o = last_ref.obj;
		o->written[w->id] = round + 1;
		if (hl_refcount_dec_and_test(&o->ref)) {
			for (int i = 0; i < NTHREADS; i++)
				w->stale_seen += o->written[i] != round + 1;
			w->frees++;
			free(o);
		}
		pthread_barrier_wait(&last_ref.end);
	}
	return NULL;
}

static void last_reference_is_dropped_exactly_once_and_sees_all_writes(void **state)
{
	struct free_worker workers[NTHREADS];
	pthread_t tids[NTHREADS];
	long frees = 0, stale = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < NTHREADS; i++)
		workers[i].id = i;
	last_ref.rounds = FREE_ROUNDS;
	atomic_store(&unexpected_reports, 0);
	hl_refcount_set_handler(unexpected_report);
	barriers_init(NTHREADS + 1, &last_ref.start, &last_ref.end);
	start_threads(tids, NTHREADS, free_worker_fn, workers, sizeof(workers[0]));

	for (long round = 0; round < last_ref.rounds; round++) {
		struct shared_obj *o = calloc(1, sizeof(*o));

		assert_non_null(o);
		hl_refcount_set(&o->ref, NTHREADS); /* one reference per worker */
		last_ref.obj = o;
		pthread_barrier_wait(&last_ref.start);
		/* o belongs to the workers now; whoever drops the last reference frees it. */
		pthread_barrier_wait(&last_ref.end);
	}
	join_threads(tids, NTHREADS);
	barriers_destroy(&last_ref.start, &last_ref.end);
	hl_refcount_set_handler(NULL);

	for (int i = 0; i < NTHREADS; i++) {
		frees += workers[i].frees;
		stale += workers[i].stale_seen;
	}
	if (frees != last_ref.rounds)
		fail_msg("%ld rounds, but dec_and_test returned true %ld times (expected exactly "
			 "once per round)",
			 last_ref.rounds, frees);
	assert_int_equal(stale, 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
}

/* ---- dec_and_mutex_lock: the last reference is dropped under the lock ---- */

#define MUTEX_ROUNDS 5000

static struct {
	pthread_barrier_t start, end;
	pthread_mutex_t lock;
	hl_refcount_t ref;
	long rounds;
	int lock_holders; /* protected by lock */
} ml;

struct mutex_worker {
	long wins;
	long bad_count; /* won, but the count was not 0 */
	long overlap;	/* won while another thread was inside the lock */
};

static void *mutex_worker_fn(void *arg)
{
	struct mutex_worker *w = arg;

	for (long round = 0; round < ml.rounds; round++) {
		pthread_barrier_wait(&ml.start);
		if (hl_refcount_dec_and_mutex_lock(&ml.ref, &ml.lock)) {
			/* We hold the lock: nobody else may be in here. */
			w->overlap += ml.lock_holders != 0;
			ml.lock_holders++;
			w->bad_count += hl_refcount_read(&ml.ref) != 0;
			w->wins++;
			ml.lock_holders--;
			pthread_mutex_unlock(&ml.lock);
		}
		pthread_barrier_wait(&ml.end);
	}
	return NULL;
}

static void dec_and_mutex_lock_gives_the_lock_to_exactly_one_last_holder(void **state)
{
	struct mutex_worker workers[NTHREADS];
	pthread_t tids[NTHREADS];
	long wins = 0, bad_count = 0, overlap = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	ml.rounds = MUTEX_ROUNDS;
	ml.lock_holders = 0;
	assert_int_equal(pthread_mutex_init(&ml.lock, NULL), 0);
	atomic_store(&unexpected_reports, 0);
	hl_refcount_set_handler(unexpected_report);
	barriers_init(NTHREADS + 1, &ml.start, &ml.end);
	start_threads(tids, NTHREADS, mutex_worker_fn, workers, sizeof(workers[0]));
	for (long round = 0; round < ml.rounds; round++) {
		hl_refcount_set(&ml.ref, NTHREADS);
		pthread_barrier_wait(&ml.start);
		pthread_barrier_wait(&ml.end);
	}
	join_threads(tids, NTHREADS);
	barriers_destroy(&ml.start, &ml.end);
	hl_refcount_set_handler(NULL);

	for (int i = 0; i < NTHREADS; i++) {
		wins += workers[i].wins;
		bad_count += workers[i].bad_count;
		overlap += workers[i].overlap;
	}
	if (wins != ml.rounds)
		fail_msg("%ld rounds, dec_and_mutex_lock returned true %ld times (expected once "
			 "per round)",
			 ml.rounds, wins);
	assert_int_equal(bad_count, 0);
	assert_int_equal(overlap, 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
	pthread_mutex_destroy(&ml.lock);
}

/*
 * A put that finds the count at 1 takes the mutex, but a lockless get
 * (inc_not_zero) may revive the object before its dec_and_test: the put must
 * then return false AND release the mutex. Threads get and put one object;
 * whoever drops it to zero "recreates" it under the mutex, as a lookup-or-
 * create would.
 */
#define REVIVE_THREADS 3
#define REVIVE_ITERS   100000

static struct {
	pthread_barrier_t start;
	pthread_mutex_t lock; /* errorcheck: relocking by the owner fails with EDEADLK */
	hl_refcount_t ref;
	int lock_holders; /* protected by lock */
} rv;

struct revive_worker {
	long wins;	       /* dec_and_mutex_lock returned true */
	long creates;	       /* found the object dead and recreated it */
	long held_after_false; /* returned false but this thread still held the mutex */
	long bad_count;	       /* returned true but the count was not 0 */
	long overlap;	       /* two threads inside the mutex at once */
	long lock_errors;      /* any other pthread error */
};

static void revive_get(struct revive_worker *w)
{
	while (!hl_refcount_inc_not_zero(&rv.ref)) {
		if (pthread_mutex_lock(&rv.lock)) {
			w->lock_errors++;
			return;
		}
		/* Dead objects are only recreated under the lock, so this is stable. */
		if (hl_refcount_read(&rv.ref) == 0) {
			hl_refcount_set(&rv.ref, 1);
			w->creates++;
			pthread_mutex_unlock(&rv.lock);
			return;
		}
		pthread_mutex_unlock(&rv.lock);
	}
}

static void *revive_worker_fn(void *arg)
{
	struct revive_worker *w = arg;
	int err;

	pthread_barrier_wait(&rv.start);
	for (long i = 0; i < REVIVE_ITERS; i++) {
		revive_get(w);
		if (hl_refcount_dec_and_mutex_lock(&rv.ref, &rv.lock)) {
			w->overlap += rv.lock_holders != 0;
			rv.lock_holders++;
			w->bad_count += hl_refcount_read(&rv.ref) != 0;
			w->wins++;
			rv.lock_holders--;
			pthread_mutex_unlock(&rv.lock);
			continue;
		}
		/* Not the last: we must not hold the mutex. Locking it tells. */
		err = pthread_mutex_lock(&rv.lock);
		if (err == EDEADLK) {
			w->held_after_false++;
		} else if (err) {
			w->lock_errors++;
			continue;
		}
		pthread_mutex_unlock(&rv.lock);
	}
	return NULL;
}

static void revived_by_racing_get_dec_and_mutex_lock_returns_false_unlocked(void **state)
{
	struct revive_worker workers[REVIVE_THREADS];
	pthread_t tids[REVIVE_THREADS];
	pthread_mutexattr_t attr;
	struct revive_worker sum = {0};

	(void)state;
	memset(workers, 0, sizeof(workers));
	assert_int_equal(pthread_mutexattr_init(&attr), 0);
	assert_int_equal(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK), 0);
	assert_int_equal(pthread_mutex_init(&rv.lock, &attr), 0);
	pthread_mutexattr_destroy(&attr);
	hl_refcount_set(&rv.ref, 0);
	rv.lock_holders = 0;
	atomic_store(&unexpected_reports, 0);
	hl_refcount_set_handler(unexpected_report);
	barriers_init(REVIVE_THREADS, &rv.start, NULL);
	start_threads(tids, REVIVE_THREADS, revive_worker_fn, workers, sizeof(workers[0]));
	join_threads(tids, REVIVE_THREADS);
	pthread_barrier_destroy(&rv.start);
	hl_refcount_set_handler(NULL);
	pthread_mutex_destroy(&rv.lock);

	for (int i = 0; i < REVIVE_THREADS; i++) {
		sum.wins += workers[i].wins;
		sum.creates += workers[i].creates;
		sum.held_after_false += workers[i].held_after_false;
		sum.bad_count += workers[i].bad_count;
		sum.overlap += workers[i].overlap;
		sum.lock_errors += workers[i].lock_errors;
	}
	print_message("%ld puts: %ld dropped the last reference, %ld recreations\n",
		      (long)REVIVE_THREADS * REVIVE_ITERS, sum.wins, sum.creates);
	if (sum.held_after_false)
		fail_msg("dec_and_mutex_lock returned false %ld times with the mutex still held "
			 "by the caller",
			 sum.held_after_false);
	assert_int_equal(sum.lock_errors, 0);
	assert_int_equal(sum.bad_count, 0);
	assert_int_equal(sum.overlap, 0);
	/* Every drop to zero was followed by exactly one recreation (plus the first). */
	assert_int_equal(sum.creates, sum.wins);
	assert_int_equal(hl_refcount_read(&rv.ref), 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
}

/*
 * The same race made certain: the putter finds the count at 1 and blocks on
 * the mutex, which we hold; we take a reference (count 2) and release the
 * mutex. Its dec_and_test then leaves 1, so it must return false and must
 * not keep the mutex.
 */
static struct {
	pthread_mutex_t lock;
	hl_refcount_t ref;
	atomic_bool calling;
	bool result;
} blocked;

static void *blocked_putter_fn(void *arg)
{
	(void)arg;
	atomic_store(&blocked.calling, true);
	blocked.result = hl_refcount_dec_and_mutex_lock(&blocked.ref, &blocked.lock);
	return NULL;
}

static void revived_while_locking_dec_and_mutex_lock_returns_false_unlocked(void **state)
{
	struct timespec pause = {0, 20 * 1000 * 1000};
	pthread_t tid;
	int err;

	(void)state;
	assert_int_equal(pthread_mutex_init(&blocked.lock, NULL), 0);
	hl_refcount_set(&blocked.ref, 1);
	atomic_store(&blocked.calling, false);
	atomic_store(&unexpected_reports, 0);
	hl_refcount_set_handler(unexpected_report);

	assert_int_equal(pthread_mutex_lock(&blocked.lock), 0);
	assert_int_equal(pthread_create(&tid, NULL, blocked_putter_fn, NULL), 0);
	while (!atomic_load(&blocked.calling))
		sched_yield();
	nanosleep(&pause, NULL);       /* long enough to reach pthread_mutex_lock */
	assert_count(&blocked.ref, 1); /* dec_not_one saw 1 and did not write */
	hl_refcount_inc(&blocked.ref);
	assert_int_equal(pthread_mutex_unlock(&blocked.lock), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);

	if (blocked.result)
		fail_msg("dec_and_mutex_lock returned true although the count was revived to 2");
	assert_count(&blocked.ref, 1);
	err = pthread_mutex_trylock(&blocked.lock);
	if (err != 0)
		fail_msg("after dec_and_mutex_lock returned false, trylock returned %d (%s): the "
			 "putter kept the mutex",
			 err, strerror(err));
	assert_int_equal(pthread_mutex_unlock(&blocked.lock), 0);
	assert_int_equal(atomic_load(&unexpected_reports), 0);
	hl_refcount_set_handler(NULL);
	pthread_mutex_destroy(&blocked.lock);
}

/* pthread_mutex_trylock's result on a fresh thread (which unlocks again at once). */
struct mutex_probe {
	pthread_mutex_t *m;
	int err;
};

static void *mutex_probe_fn(void *arg)
{
	struct mutex_probe *p = arg;

	p->err = pthread_mutex_trylock(p->m);
	if (p->err == 0)
		pthread_mutex_unlock(p->m);
	return NULL;
}

static int mutex_trylock_from_another_thread(pthread_mutex_t *m)
{
	struct mutex_probe p = {.m = m, .err = -1};
	pthread_t tid;

	assert_int_equal(pthread_create(&tid, NULL, mutex_probe_fn, &p), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return p.err;
}

static void dec_and_mutex_lock_last_reference_holds_mutex_against_others(void **state)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	hl_refcount_t r = HL_REFCOUNT_INIT(3);
	int err;

	(void)state;
	assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 2);
	err = mutex_trylock_from_another_thread(&m);
	if (err != 0)
		fail_msg("after dec_and_mutex_lock returned false, another thread's trylock "
			 "returned %d (%s); expected 0: the mutex must not be held",
			 err, strerror(err));

	hl_refcount_set(&r, 1);
	assert_true(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 0);
	err = mutex_trylock_from_another_thread(&m);
	if (err != EBUSY)
		fail_msg("after dec_and_mutex_lock returned true, another thread's trylock "
			 "returned %d (%s); expected EBUSY: the mutex must be held",
			 err, strerror(err));
	assert_int_equal(pthread_mutex_unlock(&m), 0);
	assert_int_equal(mutex_trylock_from_another_thread(&m), 0);
}

/* ---- (d) Swapping handlers while other threads detect bugs ---- */

#define SWAP_DETECTORS	3
#define SWAP_DETECTIONS 20000
#define SWAP_MIN_SWAPS	700 /* detectors keep going until this many swaps overlapped them */

static struct {
	pthread_barrier_t start;
	atomic_int detectors_left;
	atomic_long calls_a, calls_b;
	atomic_long swaps;
	atomic_long detections; /* finished in all detectors */
} swap;

static _Thread_local long handled_here; /* handler calls made in this thread */

static void swap_handler_a(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	handled_here++;
	atomic_fetch_add_explicit(&swap.calls_a, 1, memory_order_relaxed);
}

static void swap_handler_b(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	handled_here++;
	atomic_fetch_add_explicit(&swap.calls_b, 1, memory_order_relaxed);
}

static long swaps_so_far(void)
{
	return atomic_load_explicit(&swap.swaps, memory_order_relaxed);
}

struct swap_detector {
	long detections;
	long handled;	    /* handler calls that ran in this thread */
	long not_saturated; /* the count was not SATURATED after the operation */
};

static void *swap_detector_fn(void *arg)
{
	struct swap_detector *d = arg;
	hl_refcount_t r;

	long first_swap;

	pthread_barrier_wait(&swap.start);
	while ((first_swap = swaps_so_far()) == 0) /* start once the setter runs */
		sched_yield();
	for (long i = 0; i < SWAP_DETECTIONS || swaps_so_far() - first_swap < SWAP_MIN_SWAPS; i++) {
		if (i & 1) {
			hl_refcount_set(&r, 0);
			hl_refcount_inc(&r);
		} else {
			hl_refcount_set(&r, 1);
			hl_refcount_dec(&r);
		}
		d->detections++;
		d->not_saturated += hl_refcount_read(&r) != SAT;
		atomic_fetch_add_explicit(&swap.detections, 1, memory_order_acq_rel);
		if (i >= SWAP_DETECTIONS && i % 1024 == 0)
			sched_yield(); /* waiting for the setter: let it run */
	}
	d->handled = handled_here;
	atomic_fetch_sub_explicit(&swap.detectors_left, 1, memory_order_release);
	return NULL;
}

struct swap_setter {
	long swaps;
	long wrong_previous; /* set_handler returned something we did not install */
};

static void wait_for_detections_after_swap(void)
{
	/*
	 * A read-modify-write, not a load: a detector's count that comes after it
	 * reads from it (or from a later count), so synchronizes with it, and the
	 * detector's next handler call sees the swap made before it.
	 */
	long from = atomic_fetch_add_explicit(&swap.detections, 0, memory_order_acq_rel);

	while (atomic_load_explicit(&swap.detections, memory_order_relaxed) - from <=
		       SWAP_DETECTORS &&
	       atomic_load_explicit(&swap.detectors_left, memory_order_acquire) > 0)
		sched_yield();
}

static void *swap_setter_fn(void *arg)
{
	struct swap_setter *s = arg;
	hl_refcount_handler_t cur = swap_handler_a, next, prev;

	pthread_barrier_wait(&swap.start);
	while (atomic_load_explicit(&swap.detectors_left, memory_order_acquire) > 0) {
		next = cur == swap_handler_a ? swap_handler_b : swap_handler_a;
		prev = hl_refcount_set_handler(next);
		s->wrong_previous += prev != cur;
		cur = next;
		s->swaps++;
		atomic_fetch_add_explicit(&swap.swaps, 1, memory_order_relaxed);
		/*
		 * Every seventh swap (alternating a and b) waits until one detection
		 * more than there are detectors has finished since it. Each detector
		 * has at most one detection in flight across the swap, so at least one
		 * of those started after it and must call the handler just installed.
		 * Both handlers then run however the scheduler places the threads;
		 * the other swaps race the detections freely.
		 */
		if (s->swaps % 7 == 0)
			wait_for_detections_after_swap();
	}
	return NULL;
}

static void swapping_handlers_during_detections_runs_a_handler_for_each(void **state)
{
	struct swap_detector detectors[SWAP_DETECTORS];
	struct swap_setter setter = {0};
	pthread_t tids[SWAP_DETECTORS], setter_tid;
	long detections = 0, handled = 0, not_saturated = 0, calls;

	(void)state;
	memset(detectors, 0, sizeof(detectors));
	atomic_store(&swap.calls_a, 0);
	atomic_store(&swap.calls_b, 0);
	atomic_store(&swap.swaps, 0);
	atomic_store(&swap.detections, 0);
	atomic_store(&swap.detectors_left, SWAP_DETECTORS);
	barriers_init(SWAP_DETECTORS + 1, &swap.start, NULL);
	hl_refcount_set_handler(swap_handler_a);
	assert_int_equal(pthread_create(&setter_tid, NULL, swap_setter_fn, &setter), 0);
	start_threads(tids, SWAP_DETECTORS, swap_detector_fn, detectors, sizeof(detectors[0]));
	join_threads(tids, SWAP_DETECTORS);
	assert_int_equal(pthread_join(setter_tid, NULL), 0);
	pthread_barrier_destroy(&swap.start);
	hl_refcount_set_handler(NULL);

	for (int i = 0; i < SWAP_DETECTORS; i++) {
		detections += detectors[i].detections;
		handled += detectors[i].handled;
		not_saturated += detectors[i].not_saturated;
		if (detectors[i].handled != detectors[i].detections)
			fail_msg("detector %d: %ld detections but %ld handler calls in its own "
				 "thread",
				 i, detectors[i].detections, detectors[i].handled);
	}
	calls = atomic_load(&swap.calls_a) + atomic_load(&swap.calls_b);
	print_message("%ld detections, %ld handler swaps; handler a ran %ld times, b %ld\n",
		      detections, setter.swaps, atomic_load(&swap.calls_a),
		      atomic_load(&swap.calls_b));
	assert_int_equal(calls, detections);
	assert_int_equal(handled, detections);
	assert_int_equal(not_saturated, 0);
	assert_int_equal(setter.wrong_previous, 0);
	assert_true(setter.swaps >= SWAP_MIN_SWAPS);
	if (!atomic_load(&swap.calls_a) || !atomic_load(&swap.calls_b))
		fail_msg("one of the two handlers never ran (a %ld, b %ld): the swaps did not "
			 "overlap the detections",
			 atomic_load(&swap.calls_a), atomic_load(&swap.calls_b));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(racing_ops_on_saturated_counter_stay_in_saturation_zone),
		cmocka_unit_test(balanced_gets_and_puts_never_reach_zero_and_leave_one),
		cmocka_unit_test(last_reference_is_dropped_exactly_once_and_sees_all_writes),
		cmocka_unit_test(dec_and_mutex_lock_gives_the_lock_to_exactly_one_last_holder),
		cmocka_unit_test(revived_by_racing_get_dec_and_mutex_lock_returns_false_unlocked),
		cmocka_unit_test(revived_while_locking_dec_and_mutex_lock_returns_false_unlocked),
		cmocka_unit_test(dec_and_mutex_lock_last_reference_holds_mutex_against_others),
		cmocka_unit_test(swapping_handlers_during_detections_runs_a_handler_for_each),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_refcount_threads", 200, 0);
}
