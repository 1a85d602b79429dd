// SPDX-License-Identifier: MIT
/*
 * support/fault_threads.c - worker threads faulting at once, in every variant and while the
 * variant switches (support/fault_threads.h).
 */
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/fault_threads.h"
#include "support/faults.h"
#include "support/scale.h"
#include "support/threads.h"

#define MAX_WORKERS 16

static struct worker_counts *counts(const struct fault_workers *fw, int i)
{
	return (struct worker_counts *)((char *)fw->w + (size_t)i * fw->size);
}

void fault_workers_check(const struct variant_api *api, const struct fault_workers *fw,
			 const char *what)
{
	for (int i = 0; i < fw->n; i++) {
		if (counts(fw, i)->done == 0)
			fail_msg("%s: thread %d did no calls", what, i);
		if (counts(fw, i)->variant_wrong)
			fail_msg("%s: thread %d read hl_%s_variant() %ld times as a name "
				 "hl_%s_supported() rejects",
				 what, i, api->family, counts(fw, i)->variant_wrong, api->family);
	}
	fw->check(fw->w, what);
}

void fault_workers_each_variant(void **state)
{
	const struct fault_workers_test *t = *state;
	const struct variant_api *api = t->api;
	const struct fault_workers *fw = t->fw;
	pthread_barrier_t start;
	pthread_t tids[MAX_WORKERS];

	fault_handlers_restore();
	fault_note("%s", t->note);
	assert_true(fw->n <= MAX_WORKERS);
	barriers_init((unsigned int)fw->n + 1, &start, NULL);
	for (int s = 0; s < t->subjects->n; s++) {
		variant_use(api, t->subjects->name[s]);
		fw->setup(fw->w, &start, scaled(t->iters), NULL);
		start_threads(tids, fw->n, fw->fn, fw->w, fw->size);
		pthread_barrier_wait(&start);
		join_threads(tids, fw->n);
		fault_workers_check(api, fw, t->subjects->name[s]);
	}
	pthread_barrier_destroy(&start);
	variant_use(api, "auto");
}

static bool all_called(const struct fault_workers *fw)
{
	for (int i = 0; i < fw->n; i++)
		if (!atomic_load_explicit(&counts(fw, i)->called, memory_order_relaxed))
			return false;
	return true;
}

void fault_workers_switching(void **state)
{
	const struct fault_workers_test *t = *state;
	const struct variant_api *api = t->api;
	const struct fault_workers *fw = t->fw;
	const char *const *subjects = t->subjects->name;
	int n = t->subjects->n;
	pthread_barrier_t start;
	pthread_t tids[MAX_WORKERS];
	atomic_bool stop = false;
	long switches = 0;
	double end, cap;
	int err = 0;

	fault_handlers_restore();
	fault_note("%s", t->note);
	assert_true(fw->n <= MAX_WORKERS);
	barriers_init((unsigned int)fw->n + 1, &start, NULL);
	fw->setup(fw->w, &start, 0, &stop);
	start_threads(tids, fw->n, fw->fn, fw->w, fw->size);
	pthread_barrier_wait(&start);
	/*
	 * 0.5 s of switches, and on until every thread has made a call (a loaded
	 * machine can keep one from running for longer), at most 30 s.
	 */
	end = now() + 0.5;
	cap = end + 29.5;
	while (now() < end || (!all_called(fw) && now() < cap)) {
		err = api->use(subjects[switches % n]);
		if (err)
			break;
		switches++;
		usleep(100);
	}
	atomic_store(&stop, true);
	join_threads(tids, fw->n);
	pthread_barrier_destroy(&start);
	if (err)
		fail_msg("hl_%s_use(\"%s\") returned %d while the threads ran, expected 0",
			 api->family, subjects[switches % n], err);
	print_message("%ld switches; calls per thread", switches);
	for (int i = 0; i < fw->n; i++)
		print_message("%s %ld", i ? "," : "", counts(fw, i)->done);
	print_message("\n");
	fault_workers_check(api, fw, "variants switching");
	variant_use(api, "auto");
}
