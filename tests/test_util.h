/* SPDX-License-Identifier: MIT */
/*
 * tests/test_util.h - what several test programs share. Include after
 * <cmocka.h>.
 *
 * watchdog_start(seconds, what) arms SIGALRM; if the program is still
 * running when it fires, it writes "<what>: watchdog: still running after
 * N s" to stderr and exits 1, so CTest reports a failure with a reason
 * instead of a timeout.
 *
 * assert_count(r, want) fails unless the refcount r reads exactly want,
 * printing both in decimal (cmocka would print negative ints as 64-bit hex).
 *
 * assert_lockref_count(l, want) does the same for a struct hl_lockref, and
 * assert_qspin_word(l, want) compares a whole hl_qspinlock_t word, printed
 * in hex (locked byte, pending bit and tail are easier to read that way).
 *
 * thread_state(tid) is the state letter of a thread of this process from
 * /proc/self/task/TID/stat ('R' running, 'S' sleeping, ...), '?' if it
 * cannot be read; gettid_() is the calling thread's kernel id.
 *
 * Threads. start_threads(tids, n, fn, args, size) starts n threads, the
 * i-th running fn((char *)args + i * size) (fn(NULL) if args is NULL), and
 * fails the test if one cannot be created; join_threads(tids, n) joins
 * them. Workers only count: cmocka's assertions are not thread-safe, so the
 * main thread asserts after joining. next_rand(&seed) is xorshift32, a cheap
 * per-thread sequence (seed not 0); now() is CLOCK_MONOTONIC in seconds.
 *
 * trylock_from_another_thread(lock) runs hl_qspin_trylock on a fresh
 * thread (unlocking again at once): true if the lock was free, false if it
 * is really held. qspin_wait_for_waiter(lock) polls the lock word every
 * 100 us, for up to 5 s, until another thread shows up waiting on it
 * (pending bit or a queue tail); false if none did.
 *
 * lockref_word(n) is the whole word of a lockref with count n and a free
 * lock; lockref_reset(l, n) stores it (nobody else may be using l).
 * lockref_swap_count(l, n) is for the holder of l->lock: it sets the count
 * to n, keeping the lock half as it is (waiters may queue on it meanwhile),
 * and returns the count it replaced.
 *
 * run_self_child(scenario, env_name, env_value, out, out_size, err,
 * err_size) re-executes this program as "PROGRAM --child SCENARIO", with
 * env_name set to env_value (unset if NULL) and no core dumps, and returns
 * its waitpid() status. The child's stderr is read into err and, if out is
 * not NULL, its stdout into out (else it is this program's); each is
 * NUL-terminated and cut to fit. stderr is read to its end first: for
 * children that write less than a pipe holds to stdout.
 *
 * restore_default_handler is a cmocka group teardown that puts back the
 * default refcount handler, hl_refcount_set_handler(NULL).
 */
#ifndef HOTLINE_TESTS_TEST_UTIL_H
#define HOTLINE_TESTS_TEST_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>

static char watchdog_msg[256];
static size_t watchdog_len;

static void watchdog_fire(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, watchdog_msg, watchdog_len) < 0)
		_exit(2);
	_exit(1);
}

static inline void watchdog_start(unsigned int seconds, const char *what)
{
	int n = snprintf(watchdog_msg, sizeof(watchdog_msg),
			 "%s: watchdog: still running after %u s; probably stuck\n", what, seconds);

	watchdog_len = n < 0 ? 0 : (size_t)n < sizeof(watchdog_msg) ? (size_t)n :
								     sizeof(watchdog_msg) - 1;
	signal(SIGALRM, watchdog_fire);
	alarm(seconds);
}

#define assert_count(r, want)								\
	do {										\
		int got_ = hl_refcount_read(r), want_ = (want);				\
		if (got_ != want_)							\
			fail_msg("count is %d, expected %d (%s)", got_, want_, #want);	\
	} while (0)

#define assert_lockref_count(l, want)							\
	do {										\
		int got_ = hl_lockref_count(l), want_ = (want);				\
		if (got_ != want_)							\
			fail_msg("lockref count is %d, expected %d (%s)", got_, want_,	\
				 #want);						\
	} while (0)

#define assert_qspin_word(l, want)							\
	do {										\
		unsigned int got_ = atomic_load(&(l)->val), want_ = (want);		\
		if (got_ != want_)							\
			fail_msg("lock word is 0x%08x, expected 0x%08x (%s)", got_, want_,	\
				 #want);						\
	} while (0)

static inline int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

static inline char thread_state(int tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "tid (comm) S ...": comm may hold spaces and parentheses; the last ')' ends it. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* ---- Threads ---- */

static inline void start_threads(pthread_t *tids, int n, void *(*fn)(void *), void *args,
				 size_t arg_size)
{
	for (int i = 0; i < n; i++) {
		void *arg = args ? (char *)args + (size_t)i * arg_size : NULL;
		int err = pthread_create(&tids[i], NULL, fn, arg);

		if (err)
			fail_msg("pthread_create of thread %d of %d: %s", i, n, strerror(err));
	}
}

static inline void join_threads(pthread_t *tids, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_join(tids[i], NULL), 0);
}

static inline unsigned int next_rand(unsigned int *s)
{
	unsigned int x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- A qspinlock seen from another thread ---- */

struct qspin_probe {
	hl_qspinlock_t *lock;
	bool got;
};

static inline void *qspin_probe_fn(void *arg)
{
	struct qspin_probe *p = arg;

	p->got = hl_qspin_trylock(p->lock);
	if (p->got)
		hl_qspin_unlock(p->lock);
	return NULL;
}

static inline bool trylock_from_another_thread(hl_qspinlock_t *lock)
{
	struct qspin_probe p = { .lock = lock, .got = false };
	pthread_t tid;

	assert_int_equal(pthread_create(&tid, NULL, qspin_probe_fn, &p), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return p.got;
}

static inline bool qspin_wait_for_waiter(hl_qspinlock_t *lock)
{
	struct timespec tick = { 0, 100 * 1000 };

	for (int i = 0; i < 50000; i++) {
		if (atomic_load(&lock->val) & ~HL_QSPIN_LOCKED_MASK)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

/* ---- Lockref words ---- */

static inline uint64_t lockref_word(int n)
{
	struct hl_lockref t = HL_LOCKREF_INIT(n);

	return atomic_load(&t.lock_count);
}

static inline void lockref_reset(struct hl_lockref *l, int n)
{
	atomic_store(&l->lock_count, lockref_word(n));
}

static inline int lockref_swap_count(struct hl_lockref *l, int n)
{
	uint64_t count_mask = lockref_word(-1);
	uint64_t old = atomic_load(&l->lock_count);
	struct hl_lockref was;

	while (!atomic_compare_exchange_weak(&l->lock_count, &old,
					     (old & ~count_mask) | lockref_word(n)))
		;
	atomic_init(&was.lock_count, old);
	return hl_lockref_count(&was);
}

/* ---- This program, re-executed as a child ---- */

static inline void read_to_end(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
}

static inline int run_self_child(const char *scenario, const char *env_name, const char *env_value,
				 char *out, size_t out_size, char *err, size_t err_size)
{
	int out_fds[2] = { -1, -1 }, err_fds[2];
	int status;
	pid_t pid;

	if (out)
		assert_int_equal(pipe(out_fds), 0);
	assert_int_equal(pipe(err_fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		char *argv[] = { program_invocation_short_name, "--child", (char *)scenario, NULL };

		setrlimit(RLIMIT_CORE, &no_core);	/* a child that aborts need not dump core */
		if (out) {
			dup2(out_fds[1], STDOUT_FILENO);
			close(out_fds[0]);
			close(out_fds[1]);
		}
		dup2(err_fds[1], STDERR_FILENO);
		close(err_fds[0]);
		close(err_fds[1]);
		if (env_value)
			setenv(env_name, env_value, 1);
		else
			unsetenv(env_name);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (out)
		close(out_fds[1]);
	close(err_fds[1]);
	read_to_end(err_fds[0], err, err_size);
	if (out)
		read_to_end(out_fds[0], out, out_size);
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	return status;
}

/* ---- cmocka group setup and teardown ---- */

static inline int restore_default_handler(void **state)
{
	(void)state;
	hl_refcount_set_handler(NULL);
	return 0;
}

#endif /* HOTLINE_TESTS_TEST_UTIL_H */
