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
 */
#ifndef HOTLINE_TESTS_TEST_UTIL_H
#define HOTLINE_TESTS_TEST_UTIL_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/syscall.h>

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

#endif /* HOTLINE_TESTS_TEST_UTIL_H */
