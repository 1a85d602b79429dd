// SPDX-License-Identifier: MIT
/*
 * support/threads.c - start_threads, join_threads, the barriers of a round, and the clocks
 * and ids workers read.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/threads.h"

void start_threads(pthread_t *tids, int n, void *(*fn)(void *), void *args, size_t arg_size)
{
	for (int i = 0; i < n; i++) {
		void *arg = args ? (char *)args + (size_t)i * arg_size : NULL;
		int err = pthread_create(&tids[i], NULL, fn, arg);

		if (err)
			fail_msg("pthread_create of thread %d of %d: %s", i, n, strerror(err));
	}
}

void join_threads(pthread_t *tids, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_join(tids[i], NULL), 0);
}

void barriers_init(unsigned int count, pthread_barrier_t *start, pthread_barrier_t *end)
{
	assert_int_equal(pthread_barrier_init(start, NULL, count), 0);
	if (end)
		assert_int_equal(pthread_barrier_init(end, NULL, count), 0);
}

void barriers_destroy(pthread_barrier_t *start, pthread_barrier_t *end)
{
	pthread_barrier_destroy(start);
	pthread_barrier_destroy(end);
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

char thread_state(int tid)
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
