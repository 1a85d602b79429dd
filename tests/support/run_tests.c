// SPDX-License-Identifier: MIT
/*
 * support/run_tests.c - the main of a cmocka test program (support/run_tests.h).
 */
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/faults.h"
#include "support/run_tests.h"
#include "support/sanitizer.h"
#include "support/watchdog.h"

int run_test_table(int argc, char **argv, int (*child)(const char *scenario),
		   const struct CMUnitTest *tests, size_t n, int (*setup)(void **state),
		   const char *name, unsigned int seconds, unsigned int flags)
{
	if (child && argc == 3 && strcmp(argv[1], "--child") == 0)
		return child(argv[2]);
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	if (flags & RUN_CHILDREN_PLAIN)
		children_without_sanitizer_fault_handlers();
	if (flags & RUN_FAULT_HANDLERS)
		fault_handlers_setup();
	if (seconds)
		watchdog_start(seconds, name);
	/* "tests": the group name cmocka_run_group_tests(tests, ...) gives */
	return _cmocka_run_group_tests("tests", tests, n, setup, NULL);
}
