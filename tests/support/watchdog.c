// SPDX-License-Identifier: MIT
/*
 * support/watchdog.c - SIGALRM after a deadline: one line on stderr, then exit 1.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "support/watchdog.h"

/* Written before the alarm is armed; the handler only reads them. */
static char watchdog_msg[256];
static size_t watchdog_len;

static void watchdog_fire(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, watchdog_msg, watchdog_len) < 0)
		_exit(2);
	_exit(1);
}

void watchdog_start(unsigned int seconds, const char *what)
{
	int n = snprintf(watchdog_msg, sizeof(watchdog_msg),
			 "%s: watchdog: still running after %u s; probably stuck\n", what, seconds);

	if (n < 0)
		n = 0;
	watchdog_len = (size_t)n < sizeof(watchdog_msg) ? (size_t)n : sizeof(watchdog_msg) - 1;
	signal(SIGALRM, watchdog_fire);
	alarm(seconds);
}
