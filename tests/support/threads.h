// SPDX-License-Identifier: MIT
/*
 * support/threads.h - starting and joining worker threads, and what workers use.
 *
 * start_threads(tids, n, fn, args, size) starts n threads, the i-th running
 * fn((char *)args + i * size) (fn(NULL) if args is NULL), and fails the test
 * if one cannot be created; join_threads(tids, n) joins them. Workers only
 * count: cmocka's assertions are not thread-safe, so the main thread asserts
 * after joining.
 *
 * barriers_init(count, start, end) makes the barriers a round's threads
 * meet at, each for count threads, failing the test if one cannot be made;
 * end may be NULL (start alone). barriers_destroy(start, end) destroys both.
 *
 * next_rand(&seed) is xorshift32, a cheap per-thread sequence (seed not 0);
 * now() is CLOCK_MONOTONIC in seconds; gettid_() is the calling thread's
 * kernel id; thread_state(tid) is the state letter of a thread of this
 * process from /proc/self/task/TID/stat ('R' running, 'S' sleeping, ...),
 * '?' if it cannot be read.
 */
#ifndef HOTLINE_TESTS_SUPPORT_THREADS_H
#define HOTLINE_TESTS_SUPPORT_THREADS_H

#include <pthread.h>
#include <stddef.h>

void start_threads(pthread_t *tids, int n, void *(*fn)(void *), void *args, size_t arg_size);
void join_threads(pthread_t *tids, int n);
void barriers_init(unsigned int count, pthread_barrier_t *start, pthread_barrier_t *end);
void barriers_destroy(pthread_barrier_t *start, pthread_barrier_t *end);

double now(void);
int gettid_(void);
char thread_state(int tid);

/* Inline: workers call it in their innermost loops. */
static inline unsigned int next_rand(unsigned int *s)
{
	unsigned int x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

#endif /* HOTLINE_TESTS_SUPPORT_THREADS_H */
