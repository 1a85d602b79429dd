// SPDX-License-Identifier: MIT
/*
 * test_try_copy_threads.c - hl_try_copy's and hl_try_load64's faults in
 * several threads at once (include/hotline/copy.h: one handler, shared
 * with hl_try_zero, thread-safe, acting only for a thread inside one of
 * them).
 *
 * In this process: three threads each copying across the edge of a
 * PROT_NONE page, on the source side or the destination side, and reading
 * words at the edge with hl_try_load64, at their own distances, all
 * faulting at the same time, while a fourth clears across an edge with
 * hl_try_zero; in every variant and auto; then the same while the main
 * thread switches hl_copy_use variants under them; and threads that come
 * and go while it switches them. Workers only count (cmocka's assertions
 * are not thread-safe); the main thread asserts after joining. Iterations
 * are scaled() (support/scale.h); a watchdog turns a hang into a failure
 * with a reason.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/fault_case.h"
#include "support/fault_threads.h"
#include "support/faults.h"
#include "support/guarded.h"
#include "support/pattern.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/variants.h"
#include "support/watchdog.h"

#include <hotline/copy.h>
#include <hotline/zero.h>

#define N_COPIERS 3
#define N_THREADS (N_COPIERS + 1) /* the last one clears with hl_try_zero */

struct worker {
	struct worker_counts counts; /* first: support/fault_threads.h */
	int id;
	size_t len;		    /* of each buffer below */
	unsigned char *gsrc, *gdst; /* len bytes, then a PROT_NONE page */
	unsigned char *psrc, *pdst; /* plain, len bytes */
	long iters;
	pthread_barrier_t *start;
	atomic_bool *stop; /* if set, run until it is true instead of `iters` times */
	/* results */
	long wrong;
	char first[320];
};

__attribute__((format(printf, 2, 3))) static void note_wrong(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->wrong++)
		return;
	va_start(ap, fmt);
	vsnprintf(w->first, sizeof(w->first), fmt, ap);
	va_end(ap);
}

/* One copy (kind 0: the source has the hole; 1: the destination) or hl_try_load64 (2). */
static void one_call(struct worker *w, unsigned int *seed)
{
	size_t len = w->len, d = (size_t)w->id * 41 + next_rand(seed) % 41;
	size_t n = next_rand(seed) % 300, off = 64 + next_rand(seed) % 64;
	unsigned int kind = next_rand(seed) % 3;
	struct fault_case c = {.n = n, .want = n > d ? n - d : 0};
	char why[256];

	if (kind == 0) {
		c.src = w->gsrc + len - d;
		c.dst = w->pdst + off;
		c.lo = w->pdst;
		c.hi = w->pdst + len;
	} else if (kind == 1) {
		c.src = w->psrc + off;
		c.dst = w->gdst + len - d;
		c.lo = w->gdst + len - 256;
		c.hi = w->gdst + len;
	} else {
		uint64_t out = 1, want;

		if (hl_try_load64(w->gsrc + len + 8 * (next_rand(seed) % 512), &out) || out != 1)
			note_wrong(w, "hl_try_load64 of the PROT_NONE page returned true or "
				      "changed *out");
		memcpy(&want, w->gsrc + len - 8, 8);
		if (!hl_try_load64(w->gsrc + len - 8, &out) || out != want)
			note_wrong(w, "hl_try_load64 before the PROT_NONE page returned false "
				      "or the wrong word");
		return;
	}
	if (!fault_run(hl_try_copy, &c, why, sizeof(why)))
		note_wrong(w, "hl_try_copy, the %s %zu bytes before a PROT_NONE page, n = %zu: %s",
			   kind == 0 ? "source" : "destination", d, n, why);
}

/* The fourth thread: hl_try_zero across its own edge, at the same time. */
static void one_clear(struct worker *w, unsigned int *seed)
{
	size_t d = next_rand(seed) % 130, n = next_rand(seed) % 300;
	unsigned char *dst = w->gdst + w->len - d;
	size_t want = n > d ? n - d : 0, r;

	memset(dst - 64, 0x5a, 64 + d);
	r = hl_try_zero(dst, n);
	if (r != want || first_nonzero(dst, n - r) != n - r || dst[-1] != 0x5a)
		note_wrong(w, "hl_try_zero(edge - %zu, %zu) returned %zu (or wrong bytes)", d, n,
			   r);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = 0x9e3779b9u * (unsigned int)(w->id + 1);

	pthread_barrier_wait(w->start);
	for (long i = 0; w->stop ? !atomic_load(w->stop) : i < w->iters; i++) {
		if (w->id < N_COPIERS)
			one_call(w, &seed);
		else
			one_clear(w, &seed);
		worker_count_call(&w->counts, &copy_variants, i);
	}
	return NULL;
}

static void setup_workers(void *workers, pthread_barrier_t *start, long iters, atomic_bool *stop)
{
	struct worker *w = workers;

	for (int i = 0; i < N_THREADS; i++) {
		size_t len = page_size();

		w[i] = (struct worker){
			.id = i, .len = len, .iters = iters, .start = start, .stop = stop};
		w[i].gsrc = map_guarded(len, PROT_NONE);
		w[i].gdst = map_guarded(len, PROT_NONE);
		w[i].psrc = map_guarded(len, PROT_READ);
		w[i].pdst = map_guarded(len, PROT_READ);
	}
}

/* Each worker's own results (support/fault_threads.h checks its counts); its buffers unmapped. */
static void check_workers(void *workers, const char *what)
{
	struct worker *w = workers;

	for (int i = 0; i < N_THREADS; i++) {
		if (w[i].wrong)
			fail_msg("%s: thread %d got %ld of %ld calls wrong; the first: %s", what, i,
				 w[i].wrong, w[i].counts.done, w[i].first);
		unmap_guarded(w[i].gsrc, w[i].len);
		unmap_guarded(w[i].gdst, w[i].len);
		unmap_guarded(w[i].psrc, w[i].len);
		unmap_guarded(w[i].pdst, w[i].len);
	}
}

static struct worker workers[N_THREADS];
static const struct fault_workers copiers = {
	N_THREADS, workers, sizeof(workers[0]), worker_fn, setup_workers, check_workers,
};

/* The two tests' cases (support/fault_threads.h): at once in each variant, and switching. */
static struct fault_workers_test at_once = {
	&copy_variants, &copying, &copiers,
	"three threads copying and one clearing across PROT_NONE edges at once", 3000};
static struct fault_workers_test switching = {
	&copy_variants, &copying, &copiers,
	"threads copying across PROT_NONE edges while copy variants switch", 0};

/*
 * Threads that come and go while the variants switch. A new thread's
 * first call makes the library know it: it joins a list whose every
 * member's small top (in the member's own stack) a switch rewrites, and
 * leaves it when it exits. Two spawners start short-lived threads, one
 * after another, each on a stack the spawner maps and unmaps once it has
 * joined the thread: a list that kept an exited thread, or lost one,
 * would have a later switch write to an unmapped page (and die), or
 * leave a thread's small calls running the plan under a forced variant.
 * Every copy, of every size from 0 to 64 bytes, must be exact.
 */
#define N_SPAWNERS  2
#define SHORT_STACK (1 << 20)

struct spawner {
	atomic_bool *stop;
	long threads, wrong;
	atomic_bool spawned; /* threads is not 0: for the main thread to read */
	char first[160];
};

/* A short-lived thread: its first calls, then it exits. wrong counts the bad copies. */
static void *short_lived(void *arg)
{
	long *wrong = arg;
	unsigned char src[64], dst[64];

	for (size_t n = 0; n <= 64; n++) {
		memset(src, (int)n + 1, sizeof(src));
		memset(dst, 0, sizeof(dst));
		if (hl_try_copy(dst, src, n) != 0 || memcmp(dst, src, n) != 0 ||
		    (n < sizeof(dst) && dst[n] != 0))
			++*wrong;
	}
	return NULL;
}

static void *spawner_fn(void *arg)
{
	struct spawner *s = arg;

	while (!atomic_load(s->stop)) {
		void *stack = mmap(NULL, SHORT_STACK, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pthread_attr_t attr;
		long wrong = 0;
		pthread_t t;
		int err;

		if (stack == MAP_FAILED) {
			snprintf(s->first, sizeof(s->first), "mmap of a stack: %s",
				 strerror(errno));
			s->wrong++;
			break;
		}
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, stack, SHORT_STACK);
		err = pthread_create(&t, &attr, short_lived, &wrong);
		pthread_attr_destroy(&attr);
		if (err == 0)
			pthread_join(t, NULL);
		munmap(stack, SHORT_STACK);
		if (err != 0) {
			snprintf(s->first, sizeof(s->first), "pthread_create: %s", strerror(err));
			s->wrong++;
			break;
		}
		if (wrong && !s->wrong)
			snprintf(s->first, sizeof(s->first), "thread %ld: %ld copies wrong",
				 s->threads, wrong);
		s->wrong += wrong;
		s->threads++;
		atomic_store_explicit(&s->spawned, true, memory_order_relaxed);
	}
	return NULL;
}

static bool each_spawned(struct spawner *s)
{
	for (int i = 0; i < N_SPAWNERS; i++)
		if (!atomic_load_explicit(&s[i].spawned, memory_order_relaxed))
			return false;
	return true;
}

static void threads_that_come_and_go_while_variants_switch_copy_exactly(void **state)
{
	const char *subjects[64];
	int n = variant_subjects(&copy_variants, subjects, 64);
	struct spawner s[N_SPAWNERS];
	pthread_t tids[N_SPAWNERS];
	atomic_bool stop = false;
	long switches = 0;
	double end, cap;

	(void)state;
	fault_handlers_restore();
	assert_true(n > 1); /* at least one variant, then "auto" */
	for (int i = 0; i < N_SPAWNERS; i++)
		s[i] = (struct spawner){.stop = &stop};
	start_threads(tids, N_SPAWNERS, spawner_fn, s, sizeof(s[0]));
	/* 0.5 s, and on until each spawner has had a thread (at most 30 s): a loaded machine. */
	end = now() + 0.5;
	cap = end + 29.5;
	while (now() < end || (!each_spawned(s) && now() < cap)) {
		variant_use(&copy_variants, subjects[switches % n]);
		switches++;
		usleep(50);
	}
	atomic_store(&stop, true);
	join_threads(tids, N_SPAWNERS);
	variant_use(&copy_variants, "auto");
	print_message("%ld switches; threads started", switches);
	for (int i = 0; i < N_SPAWNERS; i++)
		print_message("%s %ld", i ? "," : "", s[i].threads);
	print_message("\n");
	for (int i = 0; i < N_SPAWNERS; i++) {
		if (s[i].wrong)
			fail_msg("spawner %d: %ld wrong; the first: %s", i, s[i].wrong, s[i].first);
		if (!s[i].threads)
			fail_msg("spawner %d started no thread in 30 s", i);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		UNIT_TEST_WITH(three_copiers_and_a_clearer_faulting_at_once_exact_in_every_variant,
			       fault_workers_each_variant, &at_once),
		UNIT_TEST_WITH(copy_variant_switches_under_faulting_threads_leave_results_exact,
			       fault_workers_switching, &switching),
		cmocka_unit_test(threads_that_come_and_go_while_variants_switch_copy_exactly),
	};

	return RUN_TESTS(argc, argv, NULL, tests, subjects_setup, "test_try_copy_threads", 240,
			 RUN_FAULT_HANDLERS);
}
