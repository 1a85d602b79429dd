/* SPDX-License-Identifier: MIT */
/*
 * tests/watchdog.h - turn a hung test program into a failed one.
 *
 * watchdog_start(seconds, what) arms SIGALRM; if the program is still
 * running when it fires, it writes "<what>: watchdog: still running after
 * N s" to stderr and exits 1, so CTest reports a failure with a reason
 * instead of a timeout.
 */
#ifndef HOTLINE_TESTS_WATCHDOG_H
#define HOTLINE_TESTS_WATCHDOG_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

#endif /* HOTLINE_TESTS_WATCHDOG_H */
