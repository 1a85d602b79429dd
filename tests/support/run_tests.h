// SPDX-License-Identifier: MIT
/*
 * support/run_tests.h - the main of a cmocka test program: a child scenario, or the table.
 *
 * RUN_TESTS(argc, argv, child, tests, setup, name, seconds, flags) is
 * what such a main returns. "PROGRAM --child SCENARIO" (support/child.h)
 * returns child(SCENARIO), where child is not NULL; otherwise a first
 * argument is cmocka's test filter, the flags ask for
 * children_without_sanitizer_fault_handlers() (RUN_CHILDREN_PLAIN,
 * support/sanitizer.h) and fault_handlers_setup() (RUN_FAULT_HANDLERS,
 * support/faults.h), watchdog_start(seconds, name) arms the deadline
 * (support/watchdog.h) unless seconds is 0, and the table tests runs as one group with setup
 * (or NULL) as its group setup. tests must be an array (its size is taken
 * here).
 *
 * UNIT_TEST_WITH(name, fn, state) is an entry of such a table: the test
 * called name (in cmocka's output and its filter) that runs fn with
 * *state == (void *)(state). For one check run on several parameters (a
 * thread count, a retry limit, a variant family): one function, and a
 * named row per parameter instead of a wrapper function per parameter.
 * An integer parameter is passed as (intptr_t)N and read back as
 * (intptr_t)*state.
 */
#ifndef HOTLINE_TESTS_SUPPORT_RUN_TESTS_H
#define HOTLINE_TESTS_SUPPORT_RUN_TESTS_H

#include <stddef.h>

struct CMUnitTest;

enum {
	RUN_CHILDREN_PLAIN = 1, /* children_without_sanitizer_fault_handlers() */
	RUN_FAULT_HANDLERS = 2, /* fault_handlers_setup() */
};

int run_test_table(int argc, char **argv, int (*child)(const char *scenario),
		   const struct CMUnitTest *tests, size_t n, int (*setup)(void **state),
		   const char *name, unsigned int seconds, unsigned int flags);

#define UNIT_TEST_WITH(test, fn, state)                                                            \
	{                                                                                          \
		.name = #test, .test_func = fn, .initial_state = (void *)(state)                   \
	}

#define RUN_TESTS(argc, argv, child, tests, setup, name, seconds, flags)                           \
	run_test_table(argc, argv, child, tests, sizeof(tests) / sizeof((tests)[0]), setup, name,  \
		       seconds, flags)

#endif /* HOTLINE_TESTS_SUPPORT_RUN_TESTS_H */
