// SPDX-License-Identifier: MIT
/*
 * check.h - the checks of tests/bench's C programs (test_harness.c, test_tune_rule.c): no
 * cmocka, a count.
 *
 * CHECK(cond, fmt, ...) prints "FAIL function:line: " and the message when cond is false,
 * and counts it in check_failures; check_end(ok_line) ends main: the count of failed checks
 * and 1, or ok_line and 0.
 */
#ifndef HOTLINE_TESTS_BENCH_CHECK_H
#define HOTLINE_TESTS_BENCH_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAIL %s:%d: ", __func__, __LINE__);                                \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

static inline int check_end(const char *ok_line)
{
	if (check_failures) {
		printf("%d check%s failed\n", check_failures, check_failures == 1 ? "" : "s");
		return 1;
	}
	printf("%s\n", ok_line);
	return 0;
}

#endif /* HOTLINE_TESTS_BENCH_CHECK_H */
