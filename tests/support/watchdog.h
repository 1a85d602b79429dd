// SPDX-License-Identifier: MIT
/*
 * support/watchdog.h - a deadline for a test program: a failure with a reason, not a timeout.
 *
 * watchdog_start(seconds, what) arms SIGALRM; if the program is still
 * running when it fires, it writes "<what>: watchdog: still running after
 * N s; probably stuck" to stderr and exits 1, so CTest reports a failure
 * with a reason instead of a timeout.
 */
#ifndef HOTLINE_TESTS_SUPPORT_WATCHDOG_H
#define HOTLINE_TESTS_SUPPORT_WATCHDOG_H

void watchdog_start(unsigned int seconds, const char *what);

#endif /* HOTLINE_TESTS_SUPPORT_WATCHDOG_H */
