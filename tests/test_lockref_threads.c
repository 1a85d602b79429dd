// SPDX-License-Identifier: MIT
/*
 * test_lockref_threads.c - struct hl_lockref under concurrent use.
 *
 * Lockless and locked operations race on one lockref while other threads
 * take l->lock directly and change the count under it; the count must end
 * exactly where the operations say, never drop below the references held,
 * and never change while a thread holds the lock. That is run with the
 * default retry limit, with 1 (most operations fall back to the lock) and
 * with 0 (never give up). Then the last reference: N holders put_or_lock
 * at once, and exactly one of them gets false, with the lock, count 1, and
 * everything the others wrote before their puts; and death: once the count
 * is marked dead under the lock, no thread gets a reference again.
 *
 * cmocka's assertions are not thread-safe: workers only count, the main
 * thread asserts after joining them. Iterations are scaled(): divided by
 * HOTLINE_TEST_SCALE (emulation), and by 4 more under ThreadSanitizer
 * (HL_TSAN), which runs this program too (support/scale.h).
 */
#include <pthread.h>
#include <sched.h>
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

#include "support/lockref_word.h"
#include "support/qspin_probe.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/compiler.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>

#define DEAD HL_LOCKREF_DEAD

/*
 * With l->lock held: add d to the count, keeping the lock half (waiters may
 * be queueing on it meanwhile). Returns false if the count was not `seen`,
 * i.e. it changed under the lock.
 */
static bool locked_add(struct hl_lockref *l, int seen, int d)
{
	return lockref_swap_count(l, seen + d) == seen;
}

/* ---- Racing lockless and locked operations: the exact count ---- */

#define RC_WORKERS 4
#define RC_LOCKERS 2
#define RC_THREADS (RC_WORKERS + RC_LOCKERS)
#define RC_ITERS   scaled(1000000)
#define RC_EXTRA   500 /* references each thread keeps at the end */

static struct {
	struct hl_lockref l;
	pthread_barrier_t start;
} rc;

struct rc_worker {
	unsigned int seed;
	long gets, not_zero_failed;
	long lockless_puts, put_or_lock_puts, last_puts, locked_puts, locked_gets;
	long below_held; /* a snapshot showed fewer references than we held */
	long changed_under_lock;
	long bad_last;	     /* put_or_lock false, but count was not 1 */
	long bad_put_return; /* put_return gave a negative count other than -1 */
};

/* Drop one reference, trying the ways a user would. */
static void rc_put(struct rc_worker *w, unsigned int how)
{
	int c;

	if (how % 3 == 0) {
		c = hl_lockref_put_return(&rc.l);
		if (c >= 0) {
			w->lockless_puts++;
			return;
		}
		if (c != -1)
			w->bad_put_return++;
		/* -1: the lock was seen taken, or the attempts ran out; do it the slow way. */
	}
	if (how % 3 != 2) {
		if (hl_lockref_put_or_lock(&rc.l)) {
			w->put_or_lock_puts++;
			return;
		}
		/* The last reference (ours), with the lock held: drop it under the lock. */
		c = hl_lockref_count(&rc.l);
		w->bad_last += c != 1;
		w->changed_under_lock += !locked_add(&rc.l, c, -1);
		w->last_puts++;
		hl_qspin_unlock(&rc.l.lock);
		return;
	}
	hl_qspin_lock(&rc.l.lock);
	c = hl_lockref_count(&rc.l);
	w->below_held += c < 1;
	w->changed_under_lock += !locked_add(&rc.l, c, -1);
	w->locked_puts++;
	hl_qspin_unlock(&rc.l.lock);
}

/* Take one reference; false if get_not_zero found none to take. */
static bool rc_get(struct rc_worker *w, unsigned int how)
{
	int c;

	switch (how % 4) {
	case 0: hl_lockref_get(&rc.l); break;
	case 1:
		if (!hl_lockref_get_not_zero(&rc.l)) {
			w->not_zero_failed++;
			return false;
		}
		break;
	case 2:
		if (!hl_lockref_get_not_dead(&rc.l))
			w->below_held++; /* never dead here */
		break;
	case 3:
		hl_qspin_lock(&rc.l.lock);
		c = hl_lockref_count(&rc.l);
		w->changed_under_lock += !locked_add(&rc.l, c, +1);
		w->locked_gets++;
		hl_qspin_unlock(&rc.l.lock);
		break;
	}
	w->gets++;
	w->below_held += hl_lockref_count(&rc.l) < 1; /* we hold one now */
	return true;
}

static void *rc_worker_fn(void *arg)
{
	struct rc_worker *w = arg;

	pthread_barrier_wait(&rc.start);
	for (long i = 0; i < RC_ITERS; i++) {
		unsigned int r = next_rand(&w->seed);

		if (rc_get(w, r))
			rc_put(w, r >> 8);
	}
	for (int i = 0; i < RC_EXTRA; i++)
		while (!rc_get(w, next_rand(&w->seed)))
			;
	return NULL;
}

/* A thread that takes l->lock itself, holds it a while, and checks the count stays put. */
static void *rc_locker_fn(void *arg)
{
	struct rc_worker *w = arg;

	pthread_barrier_wait(&rc.start);
	for (long i = 0; i < RC_ITERS / 4; i++) {
		unsigned int r = next_rand(&w->seed);
		int c1, c2;

		hl_qspin_lock(&rc.l.lock);
		c1 = hl_lockref_count(&rc.l);
		for (unsigned int k = 0; k < r % 64; k++)
			__asm__ __volatile__("" ::: "memory");
		if (r % 128 == 0)
			sched_yield(); /* held across a reschedule */
		c2 = hl_lockref_count(&rc.l);
		w->changed_under_lock += c1 != c2;
		w->changed_under_lock += !locked_add(&rc.l, c2, +1);
		w->locked_gets++;
		w->gets++;
		hl_qspin_unlock(&rc.l.lock);
		rc_put(w, r >> 8);
	}
	for (int i = 0; i < RC_EXTRA; i++)
		while (!rc_get(w, next_rand(&w->seed)))
			;
	return NULL;
}

/* One race at this retry limit, its invariants asserted; returns the last puts it saw. */
static long race_once(unsigned int limit)
{
	struct rc_worker workers[RC_THREADS];
	struct rc_worker sum = {0};
	pthread_t tids[RC_THREADS];
	unsigned int saved = hl_lockref_retry_limit();
	double t0, t1;

	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < RC_THREADS; i++)
		workers[i].seed = 0x2545f491u * (unsigned int)(i + 1);
	lockref_reset(&rc.l, 0);
	hl_lockref_set_retry_limit(limit);
	barriers_init(RC_THREADS, &rc.start, NULL);
	t0 = now();
	start_threads(tids, RC_WORKERS, rc_worker_fn, workers, sizeof(workers[0]));
	start_threads(tids + RC_WORKERS, RC_LOCKERS, rc_locker_fn, workers + RC_WORKERS,
		      sizeof(workers[0]));
	join_threads(tids, RC_THREADS);
	t1 = now();
	pthread_barrier_destroy(&rc.start);
	hl_lockref_set_retry_limit(saved);

	for (int i = 0; i < RC_THREADS; i++) {
		sum.gets += workers[i].gets;
		sum.not_zero_failed += workers[i].not_zero_failed;
		sum.lockless_puts += workers[i].lockless_puts;
		sum.put_or_lock_puts += workers[i].put_or_lock_puts;
		sum.last_puts += workers[i].last_puts;
		sum.locked_puts += workers[i].locked_puts;
		sum.locked_gets += workers[i].locked_gets;
		sum.below_held += workers[i].below_held;
		sum.changed_under_lock += workers[i].changed_under_lock;
		sum.bad_last += workers[i].bad_last;
		sum.bad_put_return += workers[i].bad_put_return;
	}
	print_message("limit %u: %.3f s; %ld gets (%ld under l->lock), %ld get_not_zero "
		      "failed; puts: %ld put_return, %ld put_or_lock, %ld last under the lock, "
		      "%ld under l->lock\n",
		      limit, t1 - t0, sum.gets, sum.locked_gets, sum.not_zero_failed,
		      sum.lockless_puts, sum.put_or_lock_puts, sum.last_puts, sum.locked_puts);

	if (sum.changed_under_lock)
		fail_msg("limit %u: the count changed %ld times while a thread held l->lock, "
			 "expected never",
			 limit, sum.changed_under_lock);
	if (sum.below_held)
		fail_msg("limit %u: %ld times the count read lower than the references held "
			 "(or get_not_dead failed), expected never",
			 limit, sum.below_held);
	if (sum.bad_last)
		fail_msg("limit %u: put_or_lock returned false %ld times while the count was not "
			 "1 (the caller held a reference)",
			 limit, sum.bad_last);
	if (sum.bad_put_return)
		fail_msg("limit %u: put_return returned a negative value other than -1 %ld times",
			 limit, sum.bad_put_return);
	if (hl_lockref_count(&rc.l) != RC_THREADS * RC_EXTRA)
		fail_msg("limit %u: final count %d, expected %d (%d threads each keeping %d)",
			 limit, hl_lockref_count(&rc.l), RC_THREADS * RC_EXTRA, RC_THREADS,
			 RC_EXTRA);
	if (sum.gets -
		    (sum.lockless_puts + sum.put_or_lock_puts + sum.last_puts + sum.locked_puts) !=
	    RC_THREADS * RC_EXTRA)
		fail_msg("limit %u: the threads' own tally is off: %ld gets, %ld puts", limit,
			 sum.gets,
			 sum.lockless_puts + sum.put_or_lock_puts + sum.last_puts +
				 sum.locked_puts);
	assert_qspin_word(&rc.l.lock, 0);
	return sum.last_puts;
}

/*
 * Whether the count comes down to the last reference during a race is up to
 * the scheduler (under ThreadSanitizer, at the default limit, one race in
 * many never does): the race runs again, every invariant asserted each
 * time, until that path has been taken, at most RC_RACES times.
 */
#define RC_RACES 10

/* The race at the retry limit (intptr_t)*state (the table's rows: the default, 1, 0 unbounded). */
static void racing_ops_end_at_exact_count_with_limit(void **state)
{
	unsigned int limit = (unsigned int)(intptr_t)*state;

	for (int race = 1; race <= RC_RACES; race++) {
		if (race_once(limit))
			return;
		print_message("limit %u: race %d never came down to the last reference; again\n",
			      limit, race);
	}
	fail_msg("limit %u: in %d races put_or_lock never returned false: the count never "
		 "came down to the last reference, so that path went untested",
		 limit, RC_RACES);
}

/* ---- The last reference: exactly one put_or_lock gets false ---- */

#define LAST_THREADS 4
#define LAST_ROUNDS  scaled(20000)

static struct {
	struct hl_lockref l;
	pthread_barrier_t start, end;
	long payload[LAST_THREADS]; /* plain: each holder writes its own before its put */
	int inside;		    /* plain: under l->lock */
} last;

struct last_worker {
	int id;
	long frees;
	long bad_count; /* got false, count was not 1 */
	long stale;	/* got false, but missed a write made before another put */
	long overlap;
	long not_locked; /* got false without the lock held */
};

static void *last_worker_fn(void *arg)
{
	struct last_worker *w = arg;

	for (long round = 1; round <= LAST_ROUNDS; round++) {
		pthread_barrier_wait(&last.start);
		last.payload[w->id] = round;
		if (!hl_lockref_put_or_lock(&last.l)) {
			w->not_locked += !hl_qspin_is_locked(&last.l.lock);
			w->overlap += last.inside++ != 0;
			w->bad_count += hl_lockref_count(&last.l) != 1;
			for (int i = 0; i < LAST_THREADS; i++)
				w->stale += last.payload[i] != round;
			w->frees++;
			hl_lockref_mark_dead(&last.l); /* "free" it */
			last.inside--;
			hl_qspin_unlock(&last.l.lock);
		}
		pthread_barrier_wait(&last.end);
	}
	return NULL;
}

static void last_put_or_lock_returns_false_to_exactly_one_holder(void **state)
{
	struct last_worker workers[LAST_THREADS];
	pthread_t tids[LAST_THREADS];
	long frees = 0, bad_count = 0, stale = 0, overlap = 0, not_locked = 0, not_dead = 0;
	int first_bad = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	memset(last.payload, 0, sizeof(last.payload));
	last.inside = 0;
	for (int i = 0; i < LAST_THREADS; i++)
		workers[i].id = i;
	barriers_init(LAST_THREADS + 1, &last.start, &last.end);
	start_threads(tids, LAST_THREADS, last_worker_fn, workers, sizeof(workers[0]));
	for (long round = 1; round <= LAST_ROUNDS; round++) {
		lockref_reset(&last.l, LAST_THREADS); /* one reference per holder */
		pthread_barrier_wait(&last.start);
		pthread_barrier_wait(&last.end);
		if (hl_lockref_count(&last.l) != DEAD && !not_dead++)
			first_bad = hl_lockref_count(&last.l);
	}
	join_threads(tids, LAST_THREADS);
	barriers_destroy(&last.start, &last.end);

	for (int i = 0; i < LAST_THREADS; i++) {
		frees += workers[i].frees;
		bad_count += workers[i].bad_count;
		stale += workers[i].stale;
		overlap += workers[i].overlap;
		not_locked += workers[i].not_locked;
	}
	if (frees != LAST_ROUNDS)
		fail_msg("%ld rounds of %d holders dropping their references: put_or_lock returned "
			 "false %ld times, expected once per round",
			 LAST_ROUNDS, LAST_THREADS, frees);
	if (not_locked)
		fail_msg("put_or_lock returned false %ld times without the lock held", not_locked);
	if (bad_count)
		fail_msg("put_or_lock returned false %ld times with a count other than 1",
			 bad_count);
	if (overlap)
		fail_msg("%ld times two last holders were inside the lock at once", overlap);
	if (stale)
		fail_msg("the last holder missed %ld writes the others made before their puts "
			 "(release/acquire ordering)",
			 stale);
	if (not_dead)
		fail_msg("%ld rounds did not end dead (first: count %d, expected %d)", not_dead,
			 first_bad, DEAD);
	assert_qspin_word(&last.l.lock, 0);
}

/* ---- Death: once marked dead, nobody gets a reference again ---- */

#define DD_THREADS 4
#define DD_AFTER   scaled(20000) /* attempts each thread makes after seeing it dead */

static struct {
	struct hl_lockref l;
	pthread_barrier_t start;
	atomic_long successes;
} dd;

struct dd_worker {
	unsigned int seed;
	long before, after; /* successful gets before seeing it dead; after (bad) */
	long failed_attempts;
	long bad_put; /* a put found the count at the last reference */
	bool saw_dead;
};

static void dd_put(struct dd_worker *w)
{
	int c;

	if (hl_lockref_put_return(&dd.l) >= 0)
		return;
	if (hl_lockref_put_or_lock(&dd.l))
		return;
	/* Dead (our reference died with it), or the last one: the main thread holds one. */
	c = hl_lockref_count(&dd.l);
	w->bad_put += c != DEAD;
	hl_qspin_unlock(&dd.l.lock);
}

static void *dd_worker_fn(void *arg)
{
	struct dd_worker *w = arg;

	pthread_barrier_wait(&dd.start);
	while (w->failed_attempts < DD_AFTER) {
		unsigned int r = next_rand(&w->seed);
		bool got = r % 2 ? hl_lockref_get_not_dead(&dd.l) : hl_lockref_get_not_zero(&dd.l);

		if (got) {
			if (w->saw_dead)
				w->after++;
			else
				w->before++;
			atomic_fetch_add_explicit(&dd.successes, 1, memory_order_relaxed);
			dd_put(w);
		} else {
			w->saw_dead = true;
			w->failed_attempts++;
		}
	}
	return NULL;
}

static void after_mark_dead_no_thread_gets_a_reference(void **state)
{
	struct dd_worker workers[DD_THREADS];
	pthread_t tids[DD_THREADS];
	struct timespec tick = {0, 100 * 1000};
	long before = 0, after = 0, bad_put = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < DD_THREADS; i++)
		workers[i].seed = 0x1234567u * (unsigned int)(i + 1);
	lockref_reset(&dd.l, 1); /* the main thread's reference */
	atomic_store(&dd.successes, 0);
	barriers_init(DD_THREADS + 1, &dd.start, NULL);
	start_threads(tids, DD_THREADS, dd_worker_fn, workers, sizeof(workers[0]));
	pthread_barrier_wait(&dd.start);
	/* Wait for references taken before death: a quarter of DD_AFTER, scaled like it. */
	for (int i = 0; i < 20000 && atomic_load(&dd.successes) < scaled(5000); i++)
		nanosleep(&tick, NULL);
	hl_qspin_lock(&dd.l.lock);
	hl_lockref_mark_dead(&dd.l);
	hl_qspin_unlock(&dd.l.lock);
	join_threads(tids, DD_THREADS);
	pthread_barrier_destroy(&dd.start);

	for (int i = 0; i < DD_THREADS; i++) {
		before += workers[i].before;
		after += workers[i].after;
		bad_put += workers[i].bad_put;
		if (!workers[i].saw_dead)
			fail_msg("thread %d never saw the lockref dead", i);
	}
	print_message("%ld references taken before death, %ld after (expected 0)\n", before, after);
	if (after)
		fail_msg("%ld get_not_dead/get_not_zero calls succeeded after the same thread had "
			 "seen the lockref dead, expected none",
			 after);
	if (bad_put)
		fail_msg("%ld puts found a count other than dead at the last reference", bad_put);
	if (before == 0)
		fail_msg("no reference was taken before death: the race went untested");
	if (hl_lockref_count(&dd.l) != DEAD)
		fail_msg("final count %d, expected %d (dead; no put may revive it)",
			 hl_lockref_count(&dd.l), DEAD);
	assert_true(hl_lockref_is_dead(&dd.l));
	assert_qspin_word(&dd.l.lock, 0);
}

/* test_lockref_threads [PATTERN]: run only the tests whose names match PATTERN. */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		UNIT_TEST_WITH(racing_ops_end_at_exact_count_default_limit,
			       racing_ops_end_at_exact_count_with_limit,
			       (intptr_t)HL_LOCKREF_RETRIES_DEFAULT),
		UNIT_TEST_WITH(racing_ops_end_at_exact_count_limit_1,
			       racing_ops_end_at_exact_count_with_limit, (intptr_t)1),
		UNIT_TEST_WITH(racing_ops_end_at_exact_count_unbounded,
			       racing_ops_end_at_exact_count_with_limit, (intptr_t)0),
		cmocka_unit_test(last_put_or_lock_returns_false_to_exactly_one_holder),
		cmocka_unit_test(after_mark_dead_no_thread_gets_a_reference),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_lockref_threads", 150, 0);
}
