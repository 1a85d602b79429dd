// SPDX-License-Identifier: MIT
/*
 * test_ordering_threads.c - message passing: what one thread writes before a
 * release, another sees after the matching acquire (the orderings the
 * headers promise).
 *
 *  - hl_qspinlock: a writer fills a fresh slot (two words on two cache
 *    lines), then publishes its number under the lock; readers read the
 *    number under the lock and the slot after unlocking: never stale, and
 *    never going backwards.
 *  - hl_lockref: holders write their payload, then drop their references
 *    with hl_lockref_put_or_lock (a lockless release); the one that gets
 *    false (the last, with the lock: acquire) sees every payload.
 *  - hl_refcount: holders write, then hl_refcount_dec_and_test (release);
 *    the one that gets true (acquire at zero) sees every write.
 *  - hl_rcuref: holders write, then hl_rcuref_put (release); after its put
 *    each tries hl_rcuref_get, racing the last put, and one that gets a
 *    reference writes again and puts again. The one put that returns true
 *    (acquire) sees every write made before every put, the revivers' too.
 *
 * The data are plain variables, as in real code: ThreadSanitizer (which runs
 * this program) reports a race if the primitives do not order them.
 *
 * On arm64 hardware a missing acquire or release shows up here as stale
 * data within a few thousand rounds. Under qemu-user on an x86-64 host it
 * cannot fail for hardware reasons: qemu runs the guest's loads and stores
 * on x86, whose memory order is strong enough whatever barriers the guest
 * code has or lacks. There, tests/build/codegen.sh is what catches a lost
 * acquire or release, by reading the instructions.
 *
 * Rounds are scaled() (support/scale.h). cmocka's assertions are not thread-
 * safe: workers only count, the main thread asserts after joining them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/lockref_word.h"
#include "support/qspin_probe.h"
#include "support/refcount_check.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>

/* ---- hl_qspinlock: a writer publishes slot numbers under the lock ---- */

#define MP_READERS 2
#define MP_SLOTS   scaled(100000)

static struct {
	hl_qspinlock_t lock;
	long published;	      /* under lock: the last slot filled */
	long *first, *second; /* slot k: first[k] = 3k + 1, second[k] = ~k */
} mp;

struct mp_reader {
	long reads, stale, backwards;
	long first_stale; /* the first slot seen stale, for the message */
};

static void *mp_writer_fn(void *arg)
{
	(void)arg;
	for (long k = 1; k <= MP_SLOTS; k++) {
		mp.first[k] = 3 * k + 1;
		mp.second[k] = ~k;
		hl_qspin_lock(&mp.lock);
		mp.published = k;
		hl_qspin_unlock(&mp.lock);
	}
	return NULL;
}

static void *mp_reader_fn(void *arg)
{
	struct mp_reader *r = arg;
	long last = 0, k;

	do {
		hl_qspin_lock(&mp.lock);
		k = mp.published;
		hl_qspin_unlock(&mp.lock);
		r->reads++;
		if (k < last)
			r->backwards++;
		if (k > 0 && (mp.first[k] != 3 * k + 1 || mp.second[k] != ~k)) {
			if (!r->stale)
				r->first_stale = k;
			r->stale++;
		}
		last = k;
	} while (k < MP_SLOTS);
	return NULL;
}

static void qspinlock_unlock_publishes_what_was_written_before_it(void **state)
{
	struct mp_reader readers[MP_READERS];
	pthread_t writer, tids[MP_READERS];
	long reads = 0;

	(void)state;
	memset(readers, 0, sizeof(readers));
	memset(&mp.lock, 0, sizeof(mp.lock));
	mp.published = 0;
	/* Two arrays: a slot's two words lie far apart, on different cache lines. */
	mp.first = calloc((size_t)MP_SLOTS + 1, sizeof(long));
	mp.second = calloc((size_t)MP_SLOTS + 1, sizeof(long));
	assert_non_null(mp.first);
	assert_non_null(mp.second);
	start_threads(tids, MP_READERS, mp_reader_fn, readers, sizeof(readers[0]));
	start_threads(&writer, 1, mp_writer_fn, NULL, 0);
	join_threads(&writer, 1);
	join_threads(tids, MP_READERS);
	for (int i = 0; i < MP_READERS; i++) {
		reads += readers[i].reads;
		if (readers[i].stale)
			fail_msg("reader %d saw %ld published slots with stale contents (first: "
				 "slot "
				 "%ld): the unlock did not release or the lock did not acquire",
				 i, readers[i].stale, readers[i].first_stale);
		if (readers[i].backwards)
			fail_msg("reader %d saw the published slot number go backwards %ld times",
				 i, readers[i].backwards);
	}
	print_message("%ld slots published, %ld reads by %d readers\n", MP_SLOTS, reads,
		      MP_READERS);
	free(mp.first);
	free(mp.second);
}

/* ---- hl_lockref and hl_refcount: the last holder sees every holder's writes ---- */

#define LH_HOLDERS 4
#define LH_ROUNDS  scaled(20000)

static struct {
	struct hl_lockref l;
	hl_refcount_t r;
	pthread_barrier_t start, end;
	bool use_lockref;
	/* plain, one cache line each: holder i writes payload[i].v before its put */
	struct {
		_Alignas(64) long v;
	} payload[LH_HOLDERS];
} lh;

struct lh_holder {
	int id;
	long lasts;	/* rounds in which this holder was the last */
	long stale;	/* payloads it then found not written this round */
	long bad_state; /* the last put's state was wrong (lock not held, count not 1) */
};

static void lh_check_payloads(struct lh_holder *h, long round)
{
	for (int i = 0; i < LH_HOLDERS; i++)
		h->stale += lh.payload[i].v != round;
}

static void *lh_holder_fn(void *arg)
{
	struct lh_holder *h = arg;

	for (long round = 1; round <= LH_ROUNDS; round++) {
		pthread_barrier_wait(&lh.start);
		lh.payload[h->id].v = round;
		if (lh.use_lockref) {
			if (!hl_lockref_put_or_lock(&lh.l)) {
				h->lasts++;
				h->bad_state += !hl_qspin_is_locked(&lh.l.lock) ||
						hl_lockref_count(&lh.l) != 1;
				lh_check_payloads(h, round);
				hl_lockref_set_count(&lh.l, LH_HOLDERS); /* the next round's */
				hl_qspin_unlock(&lh.l.lock);
			}
		} else if (hl_refcount_dec_and_test(&lh.r)) {
			h->lasts++;
			lh_check_payloads(h, round);
			hl_refcount_set(&lh.r, LH_HOLDERS); /* the next round's */
		}
		/* The next round's writes wait for the last holder to have read. */
		pthread_barrier_wait(&lh.end);
	}
	return NULL;
}

static void last_holder_sees_every_write(bool use_lockref)
{
	const char *what = use_lockref ? "hl_lockref_put_or_lock" : "hl_refcount_dec_and_test";
	struct lh_holder holders[LH_HOLDERS];
	pthread_t tids[LH_HOLDERS];
	long lasts = 0, stale = 0, bad_state = 0;

	memset(holders, 0, sizeof(holders));
	memset(lh.payload, 0, sizeof(lh.payload));
	for (int i = 0; i < LH_HOLDERS; i++)
		holders[i].id = i;
	lh.use_lockref = use_lockref;
	lockref_reset(&lh.l, LH_HOLDERS);
	hl_refcount_set(&lh.r, LH_HOLDERS);
	barriers_init(LH_HOLDERS, &lh.start, &lh.end);
	start_threads(tids, LH_HOLDERS, lh_holder_fn, holders, sizeof(holders[0]));
	join_threads(tids, LH_HOLDERS);
	barriers_destroy(&lh.start, &lh.end);
	for (int i = 0; i < LH_HOLDERS; i++) {
		lasts += holders[i].lasts;
		stale += holders[i].stale;
		bad_state += holders[i].bad_state;
	}
	print_message("%s: %ld rounds of %d holders; last holder per thread: %ld %ld %ld %ld\n",
		      what, LH_ROUNDS, LH_HOLDERS, holders[0].lasts, holders[1].lasts,
		      holders[2].lasts, holders[3].lasts);
	if (lasts != LH_ROUNDS)
		fail_msg("%s: %ld last holders in %ld rounds, expected exactly one per round", what,
			 lasts, LH_ROUNDS);
	if (bad_state)
		fail_msg("%s: %ld times the last holder had no lock or a count other than 1", what,
			 bad_state);
	if (stale)
		fail_msg("%s: the last holder missed %ld writes made before the other holders' "
			 "puts (release) or read them before its own (acquire)",
			 what, stale);
}

static void lockref_last_put_or_lock_sees_every_holders_writes(void **state)
{
	(void)state;
	last_holder_sees_every_write(true);
	assert_qspin_word(&lh.l.lock, 0);
	assert_lockref_count(&lh.l, LH_HOLDERS);
}

static void refcount_dec_and_test_at_zero_sees_every_holders_writes(void **state)
{
	(void)state;
	last_holder_sees_every_write(false);
	assert_count(&lh.r, LH_HOLDERS);
}

/* ---- hl_rcuref: the put that returns true sees every write, revivers' included ---- */

#define RL_HOLDERS LH_HOLDERS
#define RL_ROUNDS  scaled(20000)

static struct {
	hl_rcuref_t r;
	pthread_barrier_t start, end;
	/* plain, one cache line each: holder i's writes, made before each of its puts */
	struct {
		_Alignas(64) long v;
		long again; /* written after a get that succeeded after its put */
	} payload[RL_HOLDERS];
	long seen_again[RL_HOLDERS]; /* plain: what the last put read of again */
} rl;

struct rl_holder {
	int id;
	long lasts;	/* rounds in which this holder's put returned true */
	long stale;	/* payloads the last put found not written this round */
	long revived;	/* rounds in which its get after its put succeeded */
	long missed;	/* of those, rounds in which the last put read an old again */
	long late_gets; /* gets that succeeded after the round's true put */
	long not_dead;	/* holder 0: rounds that ended with the count not parked dead */
};

static atomic_bool rl_dead;

static void rl_put(struct rl_holder *h, long round)
{
	if (!hl_rcuref_put(&rl.r))
		return;
	h->lasts++;
	for (int i = 0; i < RL_HOLDERS; i++) {
		h->stale += rl.payload[i].v != round;
		rl.seen_again[i] = rl.payload[i].again;
	}
	atomic_store_explicit(&rl_dead, true, memory_order_relaxed);
}

static void *rl_holder_fn(void *arg)
{
	struct rl_holder *h = arg;

	for (long round = 1; round <= RL_ROUNDS; round++) {
		bool revived;

		pthread_barrier_wait(&rl.start);
		rl.payload[h->id].v = round;
		rl_put(h, round);
		/* race the last put: a get now may revive the object, or find it dead */
		revived = hl_rcuref_get(&rl.r);
		if (revived) {
			h->late_gets += atomic_load_explicit(&rl_dead, memory_order_relaxed);
			h->revived++;
			rl.payload[h->id].again = round;
			rl_put(h, round);
		}
		pthread_barrier_wait(&rl.end);
		/* the last put must have read what a reviver wrote before its put */
		h->missed += revived && rl.seen_again[h->id] != round;
		/* the next round's count, once everyone is past the check */
		pthread_barrier_wait(&rl.start);
		if (h->id == 0) {
			h->not_dead += atomic_load_explicit(&rl.r.refcnt, memory_order_relaxed) !=
				       HL_RCUREF_DEAD;
			hl_rcuref_init(&rl.r, RL_HOLDERS);
			atomic_store_explicit(&rl_dead, false, memory_order_relaxed);
		}
	}
	return NULL;
}

static void rcuref_put_returning_true_sees_every_holders_writes(void **state)
{
	struct rl_holder holders[RL_HOLDERS];
	pthread_t tids[RL_HOLDERS];
	long lasts = 0, stale = 0, revived = 0, missed = 0, late_gets = 0;

	(void)state;
	memset(holders, 0, sizeof(holders));
	memset(rl.payload, 0, sizeof(rl.payload));
	for (int i = 0; i < RL_HOLDERS; i++)
		holders[i].id = i;
	hl_rcuref_init(&rl.r, RL_HOLDERS);
	atomic_store(&rl_dead, false);
	/* start is passed twice per round: once to write, once after the check */
	barriers_init(RL_HOLDERS, &rl.start, &rl.end);
	start_threads(tids, RL_HOLDERS, rl_holder_fn, holders, sizeof(holders[0]));
	join_threads(tids, RL_HOLDERS);
	barriers_destroy(&rl.start, &rl.end);
	for (int i = 0; i < RL_HOLDERS; i++) {
		lasts += holders[i].lasts;
		stale += holders[i].stale;
		revived += holders[i].revived;
		missed += holders[i].missed;
		late_gets += holders[i].late_gets;
	}
	print_message("hl_rcuref_put: %ld rounds of %d holders; %ld gets after a put succeeded "
		      "(revived or before the last put)\n",
		      RL_ROUNDS, RL_HOLDERS, revived);
	if (lasts != RL_ROUNDS)
		fail_msg(
			"hl_rcuref_put: %ld puts returned true in %ld rounds, expected exactly one "
			"per round",
			lasts, RL_ROUNDS);
	if (late_gets)
		fail_msg(
			"hl_rcuref_get: %ld gets succeeded after the round's put had returned true",
			late_gets);
	if (stale)
		fail_msg("hl_rcuref_put: the put returning true missed %ld writes made before the "
			 "other holders' puts (release) or read them before its own (acquire)",
			 stale);
	if (missed)
		fail_msg("hl_rcuref_put: the put returning true missed %ld writes made by holders "
			 "whose get after their put succeeded",
			 missed);
	if (holders[0].not_dead)
		fail_msg("hl_rcuref: %ld rounds ended with the count not parked at HL_RCUREF_DEAD",
			 holders[0].not_dead);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qspinlock_unlock_publishes_what_was_written_before_it),
		cmocka_unit_test(lockref_last_put_or_lock_sees_every_holders_writes),
		cmocka_unit_test(refcount_dec_and_test_at_zero_sees_every_holders_writes),
		cmocka_unit_test(rcuref_put_returning_true_sees_every_holders_writes),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_ordering_threads", 150, 0);
}
