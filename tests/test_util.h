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
 */
#ifndef HOTLINE_TESTS_TEST_UTIL_H
#define HOTLINE_TESTS_TEST_UTIL_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

#endif /* HOTLINE_TESTS_TEST_UTIL_H */
