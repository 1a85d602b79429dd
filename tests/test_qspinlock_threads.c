// SPDX-License-Identifier: MIT
/*
 * test_qspinlock_threads.c - hl_qspinlock_t between threads.
 *
 * Mutual exclusion, checked two ways: a plain (non-atomic) counter that
 * loses increments if two threads are ever inside together, and an atomic
 * "inside" flag that says so directly. Then what user space adds to the
 * kernel's design (qspinlock.h): more threads than CPUs, with holders that
 * sleep, so that queued waiters park on their futex and must be woken (a
 * lost wake-up hangs, and the watchdog turns that into a failure); queue
 * nodes given back when a thread exits, so that far more threads than the
 * tail field can name may use a lock over the life of the process; trylock
 * racing lock; a lock packed among other hot data; several locks at once.
 *
 * cmocka's assertions are not thread-safe: workers only count, the main
 * thread asserts after joining them. Iteration and thread counts are
 * scaled(): divided by HOTLINE_TEST_SCALE (emulation), and by 4 more under
 * ThreadSanitizer (HL_TSAN), which runs this program too (support/scale.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/qspin_probe.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/compiler.h>
#include <hotline/qspinlock.h>

#define TAIL_SLOT_SHIFT 18

/*
 * The critical section every test uses: note that we are inside (and
 * whether someone else already was), bump a plain counter with a read and
 * a separate write, leave.
 */
struct guarded {
	hl_qspinlock_t lock;
	long counter;	    /* plain: only touched with lock held */
	atomic_long passes; /* the counter's value, for join_threads_within to watch */
	atomic_int inside;
	atomic_long overlaps; /* entries that found someone else inside */
};

static inline void enter(struct guarded *g)
{
	if (atomic_exchange_explicit(&g->inside, 1, memory_order_relaxed))
		atomic_fetch_add_explicit(&g->overlaps, 1, memory_order_relaxed);
}

static inline void leave(struct guarded *g)
{
	atomic_store_explicit(&g->inside, 0, memory_order_relaxed);
}

static inline void bump(struct guarded *g)
{
	long c = g->counter;

	__asm__ __volatile__("" ::: "memory"); /* a separate load and store */
	g->counter = c + 1;
	atomic_store_explicit(&g->passes, c + 1, memory_order_relaxed);
}

static void guarded_init(struct guarded *g)
{
	memset(g, 0, sizeof(*g));
	atomic_init(&g->lock.val, 0);
	atomic_init(&g->inside, 0);
	atomic_init(&g->overlaps, 0);
	atomic_init(&g->passes, 0);
}

/*
 * Join, but fail (rather than hang until the watchdog) once no thread has
 * taken the lock for `seconds` while some are still running: a waiter that
 * is never woken never returns, and the queue behind it stops. Progress,
 * not a deadline from the start: a loaded machine, or ThreadSanitizer, may
 * take many times as long as an idle one without anything being wrong.
 */
static void join_threads_within(pthread_t *tids, int n, int seconds, struct guarded *g)
{
	long last = atomic_load_explicit(&g->passes, memory_order_relaxed), passes;
	double still_since = now();

	for (int i = 0; i < n; i++) {
		for (;;) {
			struct timespec deadline;
			int err;

			clock_gettime(CLOCK_REALTIME, &deadline);
			deadline.tv_sec += 1;
			err = pthread_timedjoin_np(tids[i], NULL, &deadline);
			if (err == 0)
				break;
			if (err != ETIMEDOUT)
				fail_msg("pthread_timedjoin_np: %s", strerror(err));
			passes = atomic_load_explicit(&g->passes, memory_order_relaxed);
			if (passes != last) {
				last = passes;
				still_since = now();
			} else if (now() - still_since >= seconds) {
				fail_msg(
					"%d of %d threads still running, and none took the lock in "
					"%d s (lock word 0x%08x, %ld passes); expected all done: "
					"a waiter was never woken",
					n - i, n, seconds, atomic_load(&g->lock.val), passes);
			}
		}
	}
}

static void assert_guarded(struct guarded *g, long want, const char *what)
{
	long overlaps = atomic_load(&g->overlaps);

	if (overlaps)
		fail_msg("%s: %ld times a thread entered the critical section while another was "
			 "inside, expected never",
			 what, overlaps);
	if (g->counter != want)
		fail_msg("%s: the plain counter is %ld, expected %ld (%ld increments lost)", what,
			 g->counter, want, want - g->counter);
	if (atomic_load(&g->lock.val) != 0)
		fail_msg("%s: the lock word is 0x%08x after every thread left, expected 0", what,
			 atomic_load(&g->lock.val));
}

/* ---- Mutual exclusion for 2..16 threads ---- */

#define MX_TOTAL scaled(1600000) /* lock/unlock pairs per thread count, shared out */

static struct {
	struct guarded g;
	pthread_barrier_t start;
	long iters;
} mx;

static void *mx_worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&mx.start);
	for (long i = 0; i < mx.iters; i++) {
		hl_qspin_lock(&mx.g.lock);
		enter(&mx.g);
		bump(&mx.g);
		leave(&mx.g);
		hl_qspin_unlock(&mx.g.lock);
	}
	return NULL;
}

/* n threads, n = (intptr_t)*state (the table's rows: 2 to 16), each taking the lock in turn. */
static void mutual_exclusion_with(void **state)
{
	int n = (int)(intptr_t)*state;
	pthread_t tids[16];
	char what[64];
	double t0;

	assert_true(n <= 16);
	guarded_init(&mx.g);
	mx.iters = MX_TOTAL / n;
	barriers_init((unsigned int)n, &mx.start, NULL);
	t0 = now();
	start_threads(tids, n, mx_worker, NULL, 0);
	join_threads_within(tids, n, 30, &mx.g);
	pthread_barrier_destroy(&mx.start);
	snprintf(what, sizeof(what), "%d threads x %ld lock/unlock", n, mx.iters);
	print_message("%s: %.3f s\n", what, now() - t0);
	assert_guarded(&mx.g, n * mx.iters, what);
}

/* ---- Oversubscription: holders that sleep, waiters that park ---- */

#define OS_THREADS 32
#define OS_ITERS   scaled(3000)
/* Parks grow with the iterations, so the bound is scaled too (here, 2 cores: about 4000 at 3000).
 */
#define OS_MIN_PARKED scaled(200)

static struct {
	struct guarded g;
	pthread_barrier_t start;
} os;

struct os_worker {
	unsigned int seed;
	long sleeps, yields;
	long vcsw; /* voluntary context switches of this thread */
};

static void *os_worker_fn(void *arg)
{
	struct os_worker *w = arg;
	struct rusage ru;

	pthread_barrier_wait(&os.start);
	for (long i = 0; i < OS_ITERS; i++) {
		unsigned int r = next_rand(&w->seed);

		hl_qspin_lock(&os.g.lock);
		enter(&os.g);
		bump(&os.g);
		/* Hold it long enough, now and then, that the queue behind us goes to sleep. */
		if (r % 256 == 0) {
			usleep(1000 + r % 1000);
			w->sleeps++;
		} else if (r % 8 == 1) {
			sched_yield();
			w->yields++;
		}
		leave(&os.g);
		hl_qspin_unlock(&os.g.lock);
		/*
		 * Now and then step aside after unlocking: running threads may take
		 * the lock ahead of the queue, and without a gap the queue head
		 * rarely gets it, so few sleeping waiters would ever be woken.
		 */
		if ((r >> 8) % 4 == 0)
			sched_yield();
	}
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		w->vcsw = ru.ru_nvcsw;
	return NULL;
}

static void oversubscribed_sleeping_holders_lose_no_wakeups(void **state)
{
	struct os_worker workers[OS_THREADS];
	pthread_t tids[OS_THREADS];
	long sleeps = 0, yields = 0, vcsw = 0, parked;
	double t0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < OS_THREADS; i++)
		workers[i].seed = 0x9e3779b9u * (unsigned int)(i + 1);
	guarded_init(&os.g);
	barriers_init(OS_THREADS, &os.start, NULL);
	t0 = now();
	start_threads(tids, OS_THREADS, os_worker_fn, workers, sizeof(workers[0]));
	join_threads_within(tids, OS_THREADS, 30, &os.g); /* a lost wake-up hangs */
	pthread_barrier_destroy(&os.start);
	for (int i = 0; i < OS_THREADS; i++) {
		sleeps += workers[i].sleeps;
		yields += workers[i].yields;
		vcsw += workers[i].vcsw;
	}
	/*
	 * Voluntary switches are sleeps: usleep, the start barrier (at most one
	 * each) and futex waits in the lock. sched_yield() does not count.
	 */
	parked = vcsw - sleeps - OS_THREADS;
	print_message("%d threads x %ld: %.3f s; %ld sleeps and %ld yields while holding; "
		      "about %ld waits on a futex (voluntary context switches less the sleeps)\n",
		      OS_THREADS, OS_ITERS, now() - t0, sleeps, yields, parked);
	assert_guarded(&os.g, (long)OS_THREADS * OS_ITERS, "oversubscribed");
#ifndef HL_TSAN
	/* Without waiters that went to sleep, this test proves nothing about wake-ups. */
	if (parked < OS_MIN_PARKED)
		fail_msg("about %ld waits on a futex, expected at least %ld: the waiters did not "
			 "park, so wake-ups were not tested",
			 parked, OS_MIN_PARKED);
#endif
}

/* ---- Thousands of short-lived threads: queue nodes are given back ---- */

/*
 * At scale 1, more than the 16383 slots the tail field can name; scaled (2500
 * at 8, 5000 under TSan) still far more than SL_SLOT_BOUND, which a slot that
 * is not given back would exceed after a few waves.
 */
#define SL_THREADS scaled(20000)
#define SL_WAVE	   32
#define SL_TAKES   3
/*
 * No more than OS_THREADS (earlier test) or SL_WAVE workers plus the main
 * thread are ever alive at once in this program, so slot numbers that are
 * reused stay below this; a slot per thread ever created would not.
 */
#define SL_SLOT_BOUND (2 * (OS_THREADS > SL_WAVE ? OS_THREADS : SL_WAVE) + 2)

static struct {
	struct guarded g;
	atomic_int arrived;
	atomic_uint max_tail; /* largest tail field (slot + 1) seen */
} sl;

struct sl_worker {
	atomic_int tid;
};

static void note_tail(unsigned int val)
{
	unsigned int tail = val >> TAIL_SLOT_SHIFT;
	unsigned int max = atomic_load_explicit(&sl.max_tail, memory_order_relaxed);

	while (tail > max &&
	       !atomic_compare_exchange_weak_explicit(&sl.max_tail, &max, tail,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

static void *sl_worker_fn(void *arg)
{
	struct sl_worker *w = arg;

	atomic_store(&w->tid, gettid_());
	atomic_fetch_add(&sl.arrived, 1);
	for (int k = 0; k < SL_TAKES; k++) {
		hl_qspin_lock(&sl.g.lock);
		enter(&sl.g);
		bump(&sl.g);
		note_tail(atomic_load_explicit(&sl.g.lock.val, memory_order_relaxed));
		if (k == 0)
			sched_yield(); /* let the others pile up behind us again */
		leave(&sl.g);
		hl_qspin_unlock(&sl.g.lock);
	}
	return NULL;
}

/* How many of the wave's threads sleep (in the queue: the main thread holds the lock). */
static int sleeping(struct sl_worker *w, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += thread_state(atomic_load(&w[i].tid)) == 'S';
	return s;
}

static void thousands_of_short_lived_threads_each_queue_and_reuse_nodes(void **state)
{
	struct sl_worker workers[SL_WAVE];
	pthread_t tids[SL_WAVE];
	long confirmed = 0, unconfirmed_waves = 0, waves = 0;
	struct timespec tick = {0, 200 * 1000};
	double t0 = now();

	(void)state;
	guarded_init(&sl.g);
	atomic_store(&sl.max_tail, 0);
	for (long done = 0; done < SL_THREADS; done += SL_WAVE, waves++) {
		int seen = 0, stable = 0;
		double deadline;

		memset(workers, 0, sizeof(workers));
		atomic_store(&sl.arrived, 0);
		/*
		 * Hold the lock and set pending by hand: every thread of the wave
		 * finds the lock held with a waiter already on the word, so it must
		 * queue (take a queue node) rather than become the pending waiter.
		 */
		hl_qspin_lock(&sl.g.lock);
		atomic_fetch_or(&sl.g.lock.val, HL_QSPIN_PENDING);
		start_threads(tids, SL_WAVE, sl_worker_fn, workers, sizeof(workers[0]));
		while (atomic_load(&sl.arrived) < SL_WAVE)
			nanosleep(&tick, NULL);
		/*
		 * All but the queue head (which spins) asleep on their nodes, twice in
		 * a row, within 10 s of the last arrival: a few ms on an idle machine,
		 * but a loaded one may leave a thread that has arrived unscheduled.
		 */
		deadline = now() + 10.0;
		while (now() < deadline && stable < 2) {
			seen = sleeping(workers, SL_WAVE);
			stable = seen >= SL_WAVE - 1 ? stable + 1 : 0;
			nanosleep(&tick, NULL);
		}
		confirmed += seen;
		unconfirmed_waves += stable < 2;
		note_tail(atomic_load(&sl.g.lock.val));
		hl_qspin_unlock(&sl.g.lock);
		join_threads(tids, SL_WAVE);
		atomic_fetch_and(&sl.g.lock.val, ~HL_QSPIN_PENDING);
		/* Stop at the first sign of trouble (checked below), not after 20000 threads. */
		if (atomic_load(&sl.max_tail) > SL_SLOT_BOUND || unconfirmed_waves > 5) {
			waves++;
			break;
		}
	}
	print_message("%ld threads in %ld waves of %d: %.3f s; %ld seen asleep in the queue "
		      "(%ld waves not confirmed); largest tail slot number %u\n",
		      waves * SL_WAVE, waves, SL_WAVE, now() - t0, confirmed, unconfirmed_waves,
		      atomic_load(&sl.max_tail) - 1);
	assert_guarded(&sl.g, waves * SL_WAVE * SL_TAKES, "short-lived threads");
	if (atomic_load(&sl.max_tail) > SL_SLOT_BOUND)
		fail_msg("a queue tail named slot %u after %ld threads, although at most %d were "
			 "alive at once: expected slots below %d, reused after each thread exits",
			 atomic_load(&sl.max_tail) - 1, waves * SL_WAVE, SL_SLOT_BOUND - 1,
			 SL_SLOT_BOUND);
	/* Without the evidence that they queued, this test would prove nothing. */
	if (confirmed < waves * (SL_WAVE - 1) * 9 / 10 || unconfirmed_waves > 5)
		fail_msg("only %ld of %ld threads were seen asleep in the queue (%ld waves where "
			 "not all were), expected at least 90%%: the threads did not queue",
			 confirmed, waves * (SL_WAVE - 1), unconfirmed_waves);
	if (atomic_load(&sl.max_tail) == 0)
		fail_msg("no queue tail was ever seen in the lock word: nobody queued");
	if (waves * SL_WAVE < SL_THREADS)
		fail_msg("stopped after %ld of %ld threads", waves * SL_WAVE, SL_THREADS);
}

/* ---- trylock racing lock ---- */

#define TR_LOCKERS 2
#define TR_TRIERS  2
#define TR_ITERS   scaled(200000)

static struct {
	struct guarded g;
	pthread_barrier_t start;
	atomic_int lockers_left;
} tr;

struct tr_worker {
	long successes, failures;
};

static void *tr_locker_fn(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&tr.start);
	for (long i = 0; i < TR_ITERS; i++) {
		hl_qspin_lock(&tr.g.lock);
		enter(&tr.g);
		bump(&tr.g);
		leave(&tr.g);
		hl_qspin_unlock(&tr.g.lock);
	}
	atomic_fetch_sub(&tr.lockers_left, 1);
	return NULL;
}

static void *tr_trier_fn(void *arg)
{
	struct tr_worker *w = arg;

	pthread_barrier_wait(&tr.start);
	/* Keep trying while the lockers run, and until a few tries have worked. */
	while (atomic_load_explicit(&tr.lockers_left, memory_order_relaxed) > 0 ||
	       w->successes < 1000) {
		if (!hl_qspin_trylock(&tr.g.lock)) {
			w->failures++;
			continue;
		}
		enter(&tr.g);
		bump(&tr.g);
		leave(&tr.g);
		hl_qspin_unlock(&tr.g.lock);
		w->successes++;
	}
	return NULL;
}

static void trylock_racing_lock_keeps_mutual_exclusion(void **state)
{
	struct tr_worker workers[TR_TRIERS];
	pthread_t lockers[TR_LOCKERS], triers[TR_TRIERS];
	long successes = 0, failures = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	guarded_init(&tr.g);
	atomic_store(&tr.lockers_left, TR_LOCKERS);
	barriers_init(TR_LOCKERS + TR_TRIERS, &tr.start, NULL);
	start_threads(lockers, TR_LOCKERS, tr_locker_fn, NULL, 0);
	start_threads(triers, TR_TRIERS, tr_trier_fn, workers, sizeof(workers[0]));
	join_threads(lockers, TR_LOCKERS);
	join_threads(triers, TR_TRIERS);
	pthread_barrier_destroy(&tr.start);
	for (int i = 0; i < TR_TRIERS; i++) {
		successes += workers[i].successes;
		failures += workers[i].failures;
	}
	print_message("trylock: %ld successes, %ld failures against %d lockers x %ld\n", successes,
		      failures, TR_LOCKERS, TR_ITERS);
	assert_guarded(&tr.g, (long)TR_LOCKERS * TR_ITERS + successes, "trylock vs lock");
}

/* ---- A lock packed among hot data ---- */

#define HOT_LOCKERS 3
#define HOT_HAMMERS 2
#define HOT_ITERS   scaled(300000)

static struct {
	_Alignas(64) atomic_int before; /* hammered without the lock */
	hl_qspinlock_t lock;
	unsigned short small; /* the next bytes after the lock: under the lock */
	unsigned char tiny;
	long counter;	   /* under the lock */
	atomic_long after; /* hammered without the lock */
	atomic_int inside;
	atomic_long overlaps;
	pthread_barrier_t start;
} hot;

static void *hot_locker_fn(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&hot.start);
	for (long i = 0; i < HOT_ITERS; i++) {
		hl_qspin_lock(&hot.lock);
		if (atomic_exchange_explicit(&hot.inside, 1, memory_order_relaxed))
			atomic_fetch_add_explicit(&hot.overlaps, 1, memory_order_relaxed);
		hot.small++;
		hot.tiny++;
		hot.counter++;
		atomic_store_explicit(&hot.inside, 0, memory_order_relaxed);
		hl_qspin_unlock(&hot.lock);
	}
	return NULL;
}

static void *hot_hammer_fn(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&hot.start);
	for (long i = 0; i < HOT_ITERS; i++) {
		atomic_fetch_add_explicit(&hot.before, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&hot.after, 1, memory_order_relaxed);
	}
	return NULL;
}

static void lock_inside_a_struct_with_hot_neighbours(void **state)
{
	pthread_t lockers[HOT_LOCKERS], hammers[HOT_HAMMERS];
	long want = (long)HOT_LOCKERS * HOT_ITERS;

	(void)state;
	memset(&hot, 0, sizeof(hot));
	barriers_init(HOT_LOCKERS + HOT_HAMMERS, &hot.start, NULL);
	start_threads(lockers, HOT_LOCKERS, hot_locker_fn, NULL, 0);
	start_threads(hammers, HOT_HAMMERS, hot_hammer_fn, NULL, 0);
	join_threads(lockers, HOT_LOCKERS);
	join_threads(hammers, HOT_HAMMERS);
	pthread_barrier_destroy(&hot.start);

	if (atomic_load(&hot.overlaps))
		fail_msg("%ld overlapping critical sections, expected none",
			 atomic_load(&hot.overlaps));
	if (hot.counter != want)
		fail_msg("counter after the lock is %ld, expected %ld", hot.counter, want);
	if (hot.small != (unsigned short)want || hot.tiny != (unsigned char)want)
		fail_msg("the bytes right after the lock are small=%u tiny=%u, expected %u and %u",
			 hot.small, hot.tiny, (unsigned short)want, (unsigned char)want);
	if (atomic_load(&hot.before) != HOT_HAMMERS * HOT_ITERS ||
	    atomic_load(&hot.after) != (long)HOT_HAMMERS * HOT_ITERS)
		fail_msg("neighbours hammered atomically read %d and %ld, expected %ld each",
			 atomic_load(&hot.before), atomic_load(&hot.after),
			 HOT_HAMMERS * HOT_ITERS);
	assert_qspin_word(&hot.lock, 0);
}

/* ---- Several locks held at once by several threads ---- */

#define ML_LOCKS   3
#define ML_THREADS 4
#define ML_ITERS   scaled(100000)

static struct {
	struct guarded g[ML_LOCKS];
	long all_three; /* under all three locks */
	pthread_barrier_t start;
} ml;

struct ml_worker {
	unsigned int seed;
	long taken[ML_LOCKS];
	long all;
};

static void *ml_worker_fn(void *arg)
{
	struct ml_worker *w = arg;

	pthread_barrier_wait(&ml.start);
	for (long i = 0; i < ML_ITERS; i++) {
		unsigned int set = next_rand(&w->seed) % 7 + 1; /* a non-empty subset */

		/* Always in index order, so that nobody deadlocks. */
		for (int k = 0; k < ML_LOCKS; k++)
			if (set & (1u << k)) {
				hl_qspin_lock(&ml.g[k].lock);
				enter(&ml.g[k]);
			}
		for (int k = 0; k < ML_LOCKS; k++)
			if (set & (1u << k)) {
				bump(&ml.g[k]);
				w->taken[k]++;
			}
		if (set == 7) {
			ml.all_three++;
			w->all++;
		}
		for (int k = ML_LOCKS - 1; k >= 0; k--)
			if (set & (1u << k)) {
				leave(&ml.g[k]);
				hl_qspin_unlock(&ml.g[k].lock);
			}
	}
	return NULL;
}

static void threads_holding_several_locks_at_once_keep_each_exclusive(void **state)
{
	struct ml_worker workers[ML_THREADS];
	pthread_t tids[ML_THREADS];
	long want[ML_LOCKS] = {0}, all = 0;

	(void)state;
	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < ML_THREADS; i++)
		workers[i].seed = 12345u + 777u * (unsigned int)i;
	for (int k = 0; k < ML_LOCKS; k++)
		guarded_init(&ml.g[k]);
	ml.all_three = 0;
	barriers_init(ML_THREADS, &ml.start, NULL);
	start_threads(tids, ML_THREADS, ml_worker_fn, workers, sizeof(workers[0]));
	join_threads(tids, ML_THREADS);
	pthread_barrier_destroy(&ml.start);
	for (int i = 0; i < ML_THREADS; i++) {
		for (int k = 0; k < ML_LOCKS; k++)
			want[k] += workers[i].taken[k];
		all += workers[i].all;
	}
	for (int k = 0; k < ML_LOCKS; k++) {
		char what[32];

		snprintf(what, sizeof(what), "lock %d of %d", k, ML_LOCKS);
		assert_guarded(&ml.g[k], want[k], what);
	}
	if (ml.all_three != all)
		fail_msg("counter under all three locks is %ld, expected %ld", ml.all_three, all);
}

/* test_qspinlock_threads [PATTERN]: run only the tests whose names match PATTERN. */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		UNIT_TEST_WITH(mutual_exclusion_2_threads_exact_count, mutual_exclusion_with,
			       (intptr_t)2),
		UNIT_TEST_WITH(mutual_exclusion_3_threads_exact_count, mutual_exclusion_with,
			       (intptr_t)3),
		UNIT_TEST_WITH(mutual_exclusion_4_threads_exact_count, mutual_exclusion_with,
			       (intptr_t)4),
		UNIT_TEST_WITH(mutual_exclusion_8_threads_exact_count, mutual_exclusion_with,
			       (intptr_t)8),
		UNIT_TEST_WITH(mutual_exclusion_16_threads_exact_count, mutual_exclusion_with,
			       (intptr_t)16),
		cmocka_unit_test(oversubscribed_sleeping_holders_lose_no_wakeups),
		cmocka_unit_test(thousands_of_short_lived_threads_each_queue_and_reuse_nodes),
		cmocka_unit_test(trylock_racing_lock_keeps_mutual_exclusion),
		cmocka_unit_test(lock_inside_a_struct_with_hot_neighbours),
		cmocka_unit_test(threads_holding_several_locks_at_once_keep_each_exclusive),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_qspinlock_threads", 220, 0);
}
