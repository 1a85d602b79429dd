// SPDX-License-Identifier: MIT
/*
 * test_cpu_threads.c - the first calls to hl_cpu() race from many threads.
 *
 * Nothing in this process calls hl_cpu() before the threads start, so they
 * race the one-time probe; all must get the same pointer to the same, fully
 * filled description. Workers only record; the main thread asserts.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/run_tests.h"
#include "support/threads.h"
#include "support/watchdog.h"

#include <hotline/cpu.h>

#define NTHREADS 8

static pthread_barrier_t start;

struct cpu_caller {
	const struct hl_cpu *ptr;
	struct hl_cpu copy;
	char flags[256];
	int flags_len;
};

static void *cpu_caller_fn(void *arg)
{
	struct cpu_caller *c = arg;

	pthread_barrier_wait(&start);
	c->ptr = hl_cpu();
	if (c->ptr)
		c->copy = *c->ptr;
	c->flags_len = hl_cpu_flags(c->flags, sizeof(c->flags));
	return NULL;
}

static void first_calls_from_many_threads_get_one_description(void **state)
{
	static struct cpu_caller callers[NTHREADS];
	pthread_t tids[NTHREADS];

	(void)state;
	memset(callers, 0, sizeof(callers));
	barriers_init(NTHREADS, &start, NULL);
	start_threads(tids, NTHREADS, cpu_caller_fn, callers, sizeof(callers[0]));
	join_threads(tids, NTHREADS);
	pthread_barrier_destroy(&start);

	assert_non_null(callers[0].ptr);
	assert_ptr_equal(callers[0].ptr, hl_cpu());
	assert_non_null(callers[0].copy.arch);
	assert_non_null(callers[0].copy.model);
	assert_true(callers[0].copy.cacheline != 0);
	for (int i = 1; i < NTHREADS; i++) {
		if (callers[i].ptr != callers[0].ptr)
			fail_msg("thread %d got %p, thread 0 got %p", i,
				 (const void *)callers[i].ptr, (const void *)callers[0].ptr);
		if (memcmp(&callers[i].copy, &callers[0].copy, sizeof(callers[0].copy)) != 0)
			fail_msg("thread %d saw a different description than thread 0 (a "
				 "half-filled struct?)",
				 i);
		assert_string_equal(callers[i].flags, callers[0].flags);
		assert_int_equal(callers[i].flags_len, callers[0].flags_len);
	}
	/* What the threads saw is what the description is now. */
	assert_memory_equal(&callers[0].copy, hl_cpu(), sizeof(callers[0].copy));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_calls_from_many_threads_get_one_description),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_cpu_threads", 30, 0);
}
