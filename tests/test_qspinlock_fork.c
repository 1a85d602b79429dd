// SPDX-License-Identifier: MIT
/*
 * test_qspinlock_fork.c - hl_qspinlock_t across fork(), as a pthread mutex.
 *
 * The parent holds a lock while other threads wait for it, one spinning
 * with the pending bit and the rest queued, and forks. The waiters stay in
 * the parent; the lock word the child inherits still names them. The child
 * must be able to forget them: its forking thread unlocks, then four new
 * threads take the lock millions of times and the count must be exact, in
 * seconds, not hang on a queue that nobody in the child will ever advance.
 * Afterwards the word must be 0 again (no bit of the parent's waiters left
 * to cost the fast path). The same again one generation down (a grandchild),
 * and a lock held by a thread that stays in the parent stays held in the
 * child, as a mutex does.
 *
 * The children report by exit status and one line on stderr (cmocka's
 * assertions belong to the parent). Not in the ThreadSanitizer run: TSan
 * does not support starting threads in the child of a multi-threaded fork.
 * Skipped under emulation (HOTLINE_TARGET_RUN set, make test-arm64): qemu
 * 7.2's user mode aborts on its own assertions when the child of a
 * multi-threaded fork starts a thread, whatever the program does.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
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
#include "support/qspin_probe.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/qspinlock.h>

#define CHILD_THREADS 4
#define MAX_WAITERS   3

/* What a child found wrong: its exit status (0 = all held). */
enum {
	CHILD_OK,
	CHILD_COUNT_WRONG = 10,
	CHILD_WORD_NOT_CLEAN,
	CHILD_THREAD_FAILED,
	CHILD_GRANDCHILD_FAILED,
	CHILD_HELD_LOCK_TAKEN,
	CHILD_SETUP_FAILED,
};

static void *waiter_fn(void *arg)
{
	hl_qspinlock_t *l = arg;

	hl_qspin_lock(l);
	hl_qspin_unlock(l);
	return NULL;
}

/* Poll until pred(word, ref) holds; false after 10 s. */
static bool wait_word(hl_qspinlock_t *l, bool (*pred)(unsigned int, unsigned int), unsigned int ref)
{
	struct timespec tick = {0, 100 * 1000};

	for (int i = 0; i < 100000; i++) {
		if (pred(atomic_load(&l->val), ref))
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

static bool has_pending(unsigned int val, unsigned int ref)
{
	(void)ref;
	return val & HL_QSPIN_PENDING;
}

static bool has_new_tail(unsigned int val, unsigned int old_tail)
{
	return (val & HL_QSPIN_TAIL_MASK) && (val & HL_QSPIN_TAIL_MASK) != old_tail;
}

/*
 * The lock is held by the caller (or another thread); start nw waiters on
 * it, one at a time, until each shows in the word: the first as the pending
 * bit, the others as a new queue tail each. Returns false if one did not.
 */
static bool start_waiters(hl_qspinlock_t *l, pthread_t *tids, int nw)
{
	unsigned int tail = 0;

	for (int i = 0; i < nw; i++) {
		if (pthread_create(&tids[i], NULL, waiter_fn, l) != 0)
			return false;
		if (i == 0 ? !wait_word(l, has_pending, 0) : !wait_word(l, has_new_tail, tail))
			return false;
		tail = atomic_load(&l->val) & HL_QSPIN_TAIL_MASK;
	}
	return true;
}

struct counter {
	hl_qspinlock_t *lock;
	long iterations;
	long count; /* plain: only changed with the lock held */
};

static void *count_fn(void *arg)
{
	struct counter *c = arg;

	for (long i = 0; i < c->iterations; i++) {
		hl_qspin_lock(c->lock);
		c->count++;
		hl_qspin_unlock(c->lock);
	}
	return NULL;
}

/* Wait for pid; SIGKILL it and say so if it is not done within seconds. */
static int wait_child(pid_t pid, int seconds, bool *hung)
{
	struct timespec tick = {0, 10 * 1000 * 1000};
	int status = 0;

	*hung = false;
	for (long i = 0; i < seconds * 100L; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		nanosleep(&tick, NULL);
	}
	*hung = true;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return status;
}

__attribute__((format(printf, 2, 3))) static int child_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int fork_with_waiters(int generations);

/*
 * In the child: the forking thread still holds l; unlock, run the counting
 * threads, check the count and the word; then, if asked, the same one
 * generation further down.
 */
static int child_after_fork(hl_qspinlock_t *l, int generations)
{
	pthread_t tids[CHILD_THREADS];
	struct counter c = {.lock = l, .iterations = scaled(2000000), .count = 0};
	unsigned int word;

	hl_qspin_unlock(l);
	for (int i = 0; i < CHILD_THREADS; i++)
		if (pthread_create(&tids[i], NULL, count_fn, &c) != 0)
			return child_fail(CHILD_THREAD_FAILED, "child: pthread_create failed");
	for (int i = 0; i < CHILD_THREADS; i++)
		pthread_join(tids[i], NULL);
	if (c.count != CHILD_THREADS * c.iterations)
		return child_fail(CHILD_COUNT_WRONG, "child: count %ld, expected %ld", c.count,
				  CHILD_THREADS * c.iterations);
	/* One more acquisition, so that the slow path has seen the word at least once. */
	hl_qspin_lock(l);
	hl_qspin_unlock(l);
	word = atomic_load(&l->val);
	if (word != 0)
		return child_fail(CHILD_WORD_NOT_CLEAN,
				  "child: lock word 0x%x after the run, expected 0", word);
	if (generations > 1)
		return fork_with_waiters(generations - 1) == 0 ? CHILD_OK : CHILD_GRANDCHILD_FAILED;
	return CHILD_OK;
}

/*
 * Hold a lock, queue MAX_WAITERS waiters on it (pending, queue head, one
 * behind it), fork; the child runs child_after_fork. The parent then lets
 * its own waiters through. Returns the child's exit status, or -1 (setup
 * failed or the child hung or died), after printing why.
 */
static int fork_with_waiters(int generations)
{
	static hl_qspinlock_t lock = HL_QSPINLOCK_INIT;
	pthread_t waiters[MAX_WAITERS];
	int status;
	bool hung;
	pid_t pid;

	hl_qspin_lock(&lock);
	if (!start_waiters(&lock, waiters, MAX_WAITERS)) {
		fprintf(stderr, "waiters did not show in the lock word (0x%x)\n",
			atomic_load(&lock.val));
		_exit(CHILD_SETUP_FAILED); /* the lock is held: the waiters cannot be joined */
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(child_after_fork(&lock, generations));

	status = wait_child(pid, 120, &hung);
	hl_qspin_unlock(&lock);
	for (int i = 0; i < MAX_WAITERS; i++)
		pthread_join(waiters[i], NULL);
	if (hung) {
		fprintf(stderr, "fork child still running after 120 s (a queue it cannot leave)\n");
		return -1;
	}
	if (!WIFEXITED(status)) {
		char what[64];

		fprintf(stderr, "fork child %s\n", describe_status(status, what, sizeof(what)));
		return -1;
	}
	return WEXITSTATUS(status);
}

static void skip_under_emulation(void)
{
	if (emulated())
		skip();
}

static void child_forgets_the_parents_waiters_and_counts_exactly(void **state)
{
	(void)state;
	skip_under_emulation();
	assert_int_equal(fork_with_waiters(1), CHILD_OK);
}

static void grandchild_forgets_both_generations_of_waiters(void **state)
{
	(void)state;
	skip_under_emulation();
	assert_int_equal(fork_with_waiters(2), CHILD_OK);
}

/* The parent's lock, held by a thread that does not fork, with waiters queued behind it. */
static hl_qspinlock_t held_lock = HL_QSPINLOCK_INIT;
static atomic_int holder_state; /* 1: holding; 2: may let go */

static void *holder_fn(void *arg)
{
	struct timespec tick = {0, 100 * 1000};

	(void)arg;
	hl_qspin_lock(&held_lock);
	atomic_store(&holder_state, 1);
	while (atomic_load(&holder_state) != 2)
		nanosleep(&tick, NULL);
	hl_qspin_unlock(&held_lock);
	return NULL;
}

static int child_sees_lock_held(void)
{
	if (hl_qspin_trylock(&held_lock))
		return child_fail(CHILD_HELD_LOCK_TAKEN,
				  "child: trylock took a lock held in the parent");
	if (!hl_qspin_is_locked(&held_lock))
		return child_fail(CHILD_HELD_LOCK_TAKEN, "child: is_locked false for a held lock");
	/* Let the slow path forget the parent's waiters: the lock is still held. */
	for (int i = 0; i < 3; i++) {
		pthread_t t;
		struct qspin_probe p = {.lock = &held_lock, .got = false};

		if (pthread_create(&t, NULL, qspin_probe_fn, &p) != 0)
			return CHILD_THREAD_FAILED;
		pthread_join(t, NULL);
		if (p.got)
			return child_fail(CHILD_HELD_LOCK_TAKEN,
					  "child: another thread's trylock took it (try %d)", i);
	}
	return CHILD_OK;
}

static void lock_held_by_another_thread_stays_held_in_child(void **state)
{
	pthread_t holder, waiters[2];
	struct timespec tick = {0, 100 * 1000};
	int status;
	bool hung;
	pid_t pid;

	(void)state;
	skip_under_emulation();
	atomic_store(&holder_state, 0);
	start_threads(&holder, 1, holder_fn, NULL, 0);
	while (atomic_load(&holder_state) != 1)
		nanosleep(&tick, NULL);
	assert_true(start_waiters(&held_lock, waiters, 2));

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_sees_lock_held());
	status = wait_child(pid, 60, &hung);

	atomic_store(&holder_state, 2);
	join_threads(&holder, 1);
	join_threads(waiters, 2);
	assert_false(hung);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), CHILD_OK);
	/* In the parent, which did not fork, everything is as before. */
	assert_qspin_word(&held_lock, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(child_forgets_the_parents_waiters_and_counts_exactly),
		cmocka_unit_test(grandchild_forgets_both_generations_of_waiters),
		cmocka_unit_test(lock_held_by_another_thread_stays_held_in_child),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_qspinlock_fork", 280, 0);
}
