/* SPDX-License-Identifier: MIT */
/*
 * verify.h - what every GenMC client (tests/verify/) shares: the thread
 * helpers and the library's out-of-line report functions, which a client
 * reaches only on a bug, so reaching one fails the check.
 *
 * A client is one C file that GenMC compiles with -DHL_VERIFY and the
 * library's headers and sources on its include path (scripts/verify.sh).
 */
#ifndef HOTLINE_TESTS_VERIFY_H
#define HOTLINE_TESTS_VERIFY_H

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define NR_MAX 4

/* Run fn(0) .. fn(n - 1) in n threads and wait for all of them. */
static inline void verify_run(int n, void *(*fn)(void *))
{
	pthread_t t[NR_MAX];

	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn, (void *)(intptr_t)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

/* The thread's number, as verify_run passed it. */
#define VERIFY_ID(arg) ((int)(intptr_t)(arg))

#endif /* HOTLINE_TESTS_VERIFY_H */
