// SPDX-License-Identifier: MIT
/*
 * support/fault_threads.h - worker threads faulting at once, in every variant and while the
 * variant switches: the harness test_try_zero_threads and test_try_copy_threads share.
 *
 * Each worker struct starts with a struct worker_counts, which the worker
 * keeps with worker_count_call(&w->counts, api, i) after each call: how
 * many calls it made, and how many times (every 64th call) it read
 * api->variant() as a name api->supported() rejects, which it may not do
 * even while another thread switches the variant.
 *
 * struct fault_workers describes the n workers at w (size bytes each):
 * their thread function, setup (fills them: the barrier start, iters
 * calls, or until *stop if stop is not NULL) and check (the family's own
 * checks of each worker's results, naming what; then unmaps their
 * buffers).
 *
 * struct fault_workers_test is a cmocka test's case (its *state, as
 * UNIT_TEST_WITH in support/run_tests.h passes it): the family (api, and
 * its subjects: zeroing or copying, support/variants.h), the workers, a
 * note on what runs (fault_note, support/faults.h) and the calls per
 * worker per variant (before scaled(), support/scale.h). Both tests
 * restore the fault handlers (fault_handlers_restore) and leave the note
 * first:
 *  - fault_workers_each_variant(state): for each subject, the workers set
 *    up, started together, joined and checked; ends in "auto";
 *  - fault_workers_switching(state): the workers run while the main thread
 *    uses each subject in turn, 100 us apart, for half a second; then
 *    stopped, joined and checked; a failed use fails the test after the
 *    join; ends in "auto" (iters is not used).
 * Both end with fault_workers_check(api, fw, what): every worker made
 * calls and never read a bad variant, then fw->check.
 */
#ifndef HOTLINE_TESTS_SUPPORT_FAULT_THREADS_H
#define HOTLINE_TESTS_SUPPORT_FAULT_THREADS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "support/variants.h"

struct worker_counts {
	long done;	    /* calls made */
	long variant_wrong; /* api->variant() read as a name api->supported() rejects */
	atomic_bool called; /* done is not 0: for the switching thread to read */
};

static inline void worker_count_call(struct worker_counts *c, const struct variant_api *api, long i)
{
	if (c->done++ == 0)
		atomic_store_explicit(&c->called, true, memory_order_relaxed);
	if (i % 64 == 0 && !api->supported(api->variant()))
		c->variant_wrong++; /* read while another thread may switch it */
}

struct fault_workers {
	int n;
	void *w; /* n workers of size bytes, each starting with a struct worker_counts */
	size_t size;
	void *(*fn)(void *worker);
	void (*setup)(void *w, pthread_barrier_t *start, long iters, atomic_bool *stop);
	void (*check)(void *w, const char *what);
};

struct fault_workers_test {
	const struct variant_api *api;
	const struct subjects *subjects;
	const struct fault_workers *fw;
	const char *note;
	long iters;
};

void fault_workers_each_variant(void **state);
void fault_workers_switching(void **state);
void fault_workers_check(const struct variant_api *api, const struct fault_workers *fw,
			 const char *what);

#endif /* HOTLINE_TESTS_SUPPORT_FAULT_THREADS_H */
