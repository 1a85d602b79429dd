// SPDX-License-Identifier: MIT
/*
 * test_rcuref_threads.c - hl_rcuref_t under concurrent use.
 *
 *  - Getters racing the last put: in each round an owner drops the
 *    object's first reference while getters take and drop references as
 *    fast as they can. Exactly one put per round returns true; no get
 *    succeeds once a getter has seen the death announced; the count ends
 *    parked at HL_RCUREF_DEAD. The object's memory is type-stable (an array
 *    reused with hl_rcuref_init), as the header asks.
 *  - Balanced get/put pairs on a held object never make a put return true,
 *    never report, and leave the count where it was.
 *  - Many threads pushing a count over 2^31: exactly one GET_OVF report,
 *    and racing gets and puts on a saturated count keep it saturated.
 *
 * A watchdog turns a stuck round (no put returned true, so the getters
 * wait for a death that never comes) into a failure with a reason. cmocka's
 * assertions are not thread-safe: workers only count, the main thread
 * asserts after joining. Counts are scaled() (support/scale.h) for
 * ThreadSanitizer and qemu. The ordering test is in test_ordering_threads.c.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/rcuref.h>

#define NTHREADS 4 /* one owner and three getters; all of them take references */

static atomic_int reports;

static void count_report(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	atomic_fetch_add_explicit(&reports, 1, memory_order_relaxed);
}

static unsigned int stored(hl_rcuref_t *r)
{
	return atomic_load_explicit(&r->refcnt, memory_order_relaxed);
}

/* ---- Getters racing the last put ---- */

#define RACE_ROUNDS  scaled(2000)
#define RACE_OBJECTS 8

struct object {
	hl_rcuref_t ref;
	atomic_bool dead;    /* set (release) by the thread whose put returned true */
	long uses[NTHREADS]; /* plain: thread i's, written while it holds a reference */
	long total;	     /* plain: the sum of uses[], by the one whose put was last */
};

static struct {
	struct object objs[RACE_OBJECTS]; /* type-stable: reused, never freed */
	struct object *_Atomic current;
	pthread_barrier_t start, end;
} race;

struct racer {
	int id;
	unsigned int seed;
	long trues;	      /* puts that returned true */
	long gets, failed;    /* gets that succeeded, failed */
	long after_dead;      /* gets that succeeded after this thread saw dead */
	long getter_was_last; /* rounds in which this getter's put was the last */
};

static void put_ref(struct object *o, struct racer *w, bool getter)
{
	if (hl_rcuref_put(&o->ref)) {
		w->trues++;
		w->getter_was_last += getter;
		/* the last put's acquire: every holder's writes are visible (TSan checks) */
		o->total = 0;
		for (int i = 0; i < NTHREADS; i++)
			o->total += o->uses[i];
		atomic_store_explicit(&o->dead, true, memory_order_release);
	}
}

static void *racer_fn(void *arg)
{
	struct racer *w = arg;

	for (long round = 0; round < RACE_ROUNDS; round++) {
		pthread_barrier_wait(&race.start);
		struct object *o = atomic_load_explicit(&race.current, memory_order_relaxed);

		/* a varying number of gets and puts while holding our own reference */
		for (unsigned int n = next_rand(&w->seed) % 128; n; n--)
			if (hl_rcuref_get(&o->ref)) {
				o->uses[w->id]++;
				put_ref(o, w, false);
			}
		/* drop our own reference, then race the others' last put with gets */
		put_ref(o, w, false);
		for (unsigned int n = 0, held = 0;;) {
			bool seen_dead = atomic_load_explicit(&o->dead, memory_order_acquire);

			if (hl_rcuref_get(&o->ref)) {
				w->gets++;
				w->after_dead += seen_dead;
				/*
				 * hold it a varying while, the first time across a yield, so
				 * that the others' last put meets it even on one CPU
				 */
				for (unsigned int k = next_rand(&w->seed) % 64; k; k--) {
					o->uses[w->id]++;
					atomic_signal_fence(memory_order_seq_cst);
				}
				if (!held++)
					sched_yield();
				put_ref(o, w, true);
			} else {
				w->failed++;
				if (seen_dead)
					break;
			}
			/* on fewer CPUs than threads, let those that still hold one run */
			if (++n % 64 == 0)
				sched_yield();
		}
		pthread_barrier_wait(&race.end);
	}
	return NULL;
}

static void getters_racing_the_last_put_exactly_one_true(void **state)
{
	struct racer racers[NTHREADS];
	pthread_t tids[NTHREADS];
	long trues = 0, gets = 0, failed = 0, after_dead = 0, getter_last = 0;
	long bad_rounds = 0, not_parked = 0, uses = 0, total_before = 0, lost_uses = 0;

	(void)state;
	memset(&race, 0, sizeof(race));
	memset(racers, 0, sizeof(racers));
	for (int i = 0; i < NTHREADS; i++) {
		racers[i].id = i;
		racers[i].seed = 0x9e3779b9u * (unsigned int)(i + 1);
	}
	atomic_store(&reports, 0);
	hl_rcuref_set_handler(count_report);
	barriers_init(NTHREADS + 1, &race.start, &race.end);
	start_threads(tids, NTHREADS, racer_fn, racers, sizeof(racers[0]));
	for (long round = 0; round < RACE_ROUNDS; round++) {
		struct object *o = &race.objs[round % RACE_OBJECTS];
		long before = 0, after = 0;

		/* reuse the memory of a dead object, as type-stable memory would */
		hl_rcuref_init(&o->ref, NTHREADS);
		atomic_store_explicit(&o->dead, false, memory_order_relaxed);
		memset(o->uses, 0, sizeof(o->uses));
		o->total = -1;
		atomic_store_explicit(&race.current, o, memory_order_relaxed);
		for (int i = 0; i < NTHREADS; i++)
			before += racers[i].trues;
		pthread_barrier_wait(&race.start);
		pthread_barrier_wait(&race.end);
		for (int i = 0; i < NTHREADS; i++)
			after += racers[i].trues;
		bad_rounds += after - before != 1;
		for (int i = 0; i < NTHREADS; i++)
			uses += o->uses[i];
		lost_uses += o->total != uses - total_before;
		total_before = uses;
		not_parked += stored(&o->ref) != HL_RCUREF_DEAD;
	}
	join_threads(tids, NTHREADS);
	barriers_destroy(&race.start, &race.end);
	hl_rcuref_set_handler(NULL);

	for (int i = 0; i < NTHREADS; i++) {
		trues += racers[i].trues;
		gets += racers[i].gets;
		failed += racers[i].failed;
		after_dead += racers[i].after_dead;
		getter_last += racers[i].getter_was_last;
	}
	print_message("rcuref race: %ld rounds, %d threads: %ld gets succeeded, %ld failed; "
		      "the last put was a getter's in %ld rounds\n",
		      RACE_ROUNDS, NTHREADS, gets, failed, getter_last);
	if (bad_rounds)
		fail_msg("%ld of %ld rounds did not have exactly one put returning true (%ld in "
			 "all)",
			 bad_rounds, RACE_ROUNDS, trues);
	if (after_dead)
		fail_msg("%ld gets succeeded after their thread had seen the object dead",
			 after_dead);
	if (not_parked)
		fail_msg("%ld rounds ended with the count not parked at HL_RCUREF_DEAD",
			 not_parked);
	if (lost_uses)
		fail_msg("%ld rounds: the last put did not see every holder's writes", lost_uses);
	if (atomic_load(&reports))
		fail_msg("%d reports, expected none", atomic_load(&reports));
	assert_int_equal(trues, RACE_ROUNDS);
}

/* ---- Balanced pairs on a held object ---- */

#define PAIRS scaled(200000)

static hl_rcuref_t held;

static void *pairs_fn(void *arg)
{
	long *trues = arg;

	for (long i = 0; i < PAIRS; i++) {
		if (!hl_rcuref_get(&held))
			(*trues) += 1000000; /* a failed get on a held object: worse */
		*trues += hl_rcuref_put(&held);
	}
	return NULL;
}

static void balanced_pairs_on_a_held_object_never_release_it(void **state)
{
	pthread_t tids[NTHREADS];
	long trues[NTHREADS] = {0}, all = 0;

	(void)state;
	atomic_store(&reports, 0);
	hl_rcuref_set_handler(count_report);
	hl_rcuref_init(&held, 1);
	start_threads(tids, NTHREADS, pairs_fn, trues, sizeof(trues[0]));
	join_threads(tids, NTHREADS);
	hl_rcuref_set_handler(NULL);
	for (int i = 0; i < NTHREADS; i++)
		all += trues[i];
	assert_int_equal(all, 0);
	assert_int_equal(atomic_load(&reports), 0);
	assert_int_equal(hl_rcuref_read(&held), 1);
	assert_true(hl_rcuref_put(&held));
}

/* ---- Saturation ---- */

#define SAT_GETS scaled(100000)

static hl_rcuref_t sat;

static void *sat_gets_fn(void *arg)
{
	long *failed = arg;

	for (long i = 0; i < SAT_GETS; i++)
		*failed += !hl_rcuref_get(&sat);
	return NULL;
}

static void *sat_mixed_fn(void *arg)
{
	struct {
		unsigned int seed;
		long bad;
	} *w = arg;

	for (long i = 0; i < SAT_GETS; i++) {
		if (next_rand(&w->seed) & 1)
			w->bad += !hl_rcuref_get(&sat);
		else
			w->bad += hl_rcuref_put(&sat);
	}
	return NULL;
}

static void threads_crossing_into_saturation_report_once_and_stay(void **state)
{
	pthread_t tids[NTHREADS];
	long failed[NTHREADS] = {0}, all = 0;
	struct {
		unsigned int seed;
		long bad;
	} mixed[NTHREADS];

	(void)state;
	atomic_store(&reports, 0);
	hl_rcuref_set_handler(count_report);
	/* below the top of the valid zone by half the gets: the threads cross it together */
	atomic_store(&sat.refcnt, HL_RCUREF_MAXREF - (unsigned int)(NTHREADS * SAT_GETS / 2));
	start_threads(tids, NTHREADS, sat_gets_fn, failed, sizeof(failed[0]));
	join_threads(tids, NTHREADS);
	for (int i = 0; i < NTHREADS; i++)
		all += failed[i];
	assert_int_equal(all, 0);
	assert_int_equal(atomic_load(&reports), 1);
	assert_int_equal(stored(&sat), HL_RCUREF_SATURATED);

	/* gets and puts on the saturated count: true gets, false puts, no report */
	for (int i = 0; i < NTHREADS; i++)
		mixed[i].seed = 0x85ebca6bu * (unsigned int)(i + 1), mixed[i].bad = 0;
	start_threads(tids, NTHREADS, sat_mixed_fn, mixed, sizeof(mixed[0]));
	join_threads(tids, NTHREADS);
	hl_rcuref_set_handler(NULL);
	all = 0;
	for (int i = 0; i < NTHREADS; i++)
		all += mixed[i].bad;
	assert_int_equal(all, 0);
	assert_int_equal(atomic_load(&reports), 1);
	assert_int_equal(stored(&sat), HL_RCUREF_SATURATED);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(getters_racing_the_last_put_exactly_one_true),
		cmocka_unit_test(balanced_pairs_on_a_held_object_never_release_it),
		cmocka_unit_test(threads_crossing_into_saturation_report_once_and_stay),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_rcuref_threads", 200, 0);
}
