// SPDX-License-Identifier: MIT
/*
 * known_counts.c - a program whose slow-path events are known exactly, for
 * tests/trace/known_counts.py to trace with hotline-trace.
 *
 * It waits for a line on stdin (the tracer is attached then), does the
 * following, prints the addresses of its objects and the counts it caused
 * as one JSON line on stdout, and waits for a second line before exiting:
 *
 *  - lockref, retry limit 1, N operations whose compare-and-swap is made to
 *    fail once each: N failures, N limit firings, N fallbacks to the lock.
 *    The word lives in a page mapped twice; before each operation the page
 *    is made read-only, so the compare-and-swap (a write even when it
 *    fails) faults; this program's SIGSEGV handler changes the count
 *    through the other mapping and makes the page writable again, and the
 *    retried instruction then fails on the changed word.
 *  - the same lockref, unbounded, M operations failing once each: M
 *    successes on the second attempt; and P operations undisturbed.
 *  - a qspinlock that another thread holds when this one takes it, K times:
 *    K slow-path entries and K acquisitions.
 *  - a refcount incremented at INT_MAX, and an rcuref got at its largest
 *    count: each saturated once, one report each.
 *  - hl_try_load64 of an unmapped address, F times: F faults; and
 *    hl_try_zero of 64 bytes there, Z times.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hotline/copy.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#include "support/qspin_probe.h"

enum { N_LIMIT = 7, M_RETRY = 5, P_PLAIN = 11, K_CONTEND = 3, F_FAULTS = 4, Z_FAULTS = 6 };

static char *view;  /* the lockref's page, made read-only before each disturbed op */
static char *alias; /* the same page, always writable */
static long page;
static volatile sig_atomic_t armed;

static void on_segv(int sig, siginfo_t *info, void *uc)
{
	char *a = info->si_addr;
	struct hl_lockref *other = (struct hl_lockref *)alias;

	(void)uc;
	if (!armed || a < view || a >= view + page) {
		signal(sig, SIG_DFL);
		return;
	}
	armed = 0;
	/* The count changes under the operation: its compare-and-swap fails. */
	__atomic_fetch_add(&other->lock_count, (uint64_t)1000 << HL__LOCKREF_COUNT_SHIFT,
			   __ATOMIC_RELAXED);
	mprotect(view, page, PROT_READ | PROT_WRITE);
}

static void disturbed_get(struct hl_lockref *l)
{
	mprotect(view, page, PROT_READ);
	armed = 1;
	hl_lockref_get(l);
	if (armed) {
		fprintf(stderr, "known_counts: the operation did not fault\n");
		exit(1);
	}
}

static hl_qspinlock_t lock;
static sem_t held, go;

static void *holder(void *unused)
{
	(void)unused;
	for (int i = 0; i < K_CONTEND; i++) {
		sem_wait(&go);
		hl_qspin_lock(&lock);
		sem_post(&held);
		/* Unlock once the other thread waits: it set pending or queued. */
		if (!qspin_wait_for_waiter(&lock)) {
			fprintf(stderr, "known_counts: no waiter on the lock in 5 s\n");
			exit(1);
		}
		hl_qspin_unlock(&lock);
	}
	return NULL;
}

static void quiet(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
}

static void quiet_rcuref(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
}

static void setup_pages(void)
{
	FILE *tmp = tmpfile();

	page = sysconf(_SC_PAGESIZE);
	if (!tmp || ftruncate(fileno(tmp), page) != 0)
		exit(1);
	view = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(tmp), 0);
	alias = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(tmp), 0);
	if (view == MAP_FAILED || alias == MAP_FAILED)
		exit(1);
}

static void wait_line(void)
{
	char buf[64];

	if (!fgets(buf, sizeof(buf), stdin))
		exit(1);
}

int main(void)
{
	struct sigaction sa;
	struct hl_lockref *l;
	hl_refcount_t ref;
	hl_rcuref_t rref;
	pthread_t t;
	uint64_t word;
	void *hole;

	setup_pages();
	l = (struct hl_lockref *)view;
	hl_lockref_init(l);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	hole = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hl_try_zero_prepare(); /* hotline's handler chains to the one above */
	sem_init(&held, 0, 0);
	sem_init(&go, 0, 0);
	pthread_create(&t, NULL, holder, NULL);
	hl_refcount_set_handler(quiet);
	hl_rcuref_set_handler(quiet_rcuref);
	printf("ready\n");
	fflush(stdout);
	wait_line();

	hl_lockref_set_retry_limit(1);
	for (int i = 0; i < N_LIMIT; i++)
		disturbed_get(l);
	hl_lockref_set_retry_limit(0);
	for (int i = 0; i < M_RETRY; i++)
		disturbed_get(l);
	for (int i = 0; i < P_PLAIN; i++)
		hl_lockref_get(l);

	for (int i = 0; i < K_CONTEND; i++) {
		sem_post(&go);
		sem_wait(&held);
		hl_qspin_lock(&lock);
		hl_qspin_unlock(&lock);
	}
	pthread_join(t, NULL);

	hl_refcount_set(&ref, INT_MAX);
	hl_refcount_inc(&ref);
	hl_rcuref_init(&rref, HL_RCUREF_MAXREF + 1u); /* the next get crosses into saturation */
	if (!hl_rcuref_get(&rref))
		return 1;

	for (int i = 0; i < F_FAULTS; i++)
		if (hl_try_load64(hole, &word)) {
			fprintf(stderr, "known_counts: hl_try_load64 of a hole succeeded\n");
			return 1;
		}

	for (int i = 0; i < Z_FAULTS; i++)
		if (hl_try_zero(hole, 64) != 64) {
			fprintf(stderr, "known_counts: hl_try_zero of a hole cleared something\n");
			return 1;
		}

	printf("{\"lockref\": \"%p\", \"qspinlock\": \"%p\", \"refcount\": \"%p\", \"rcuref\": "
	       "\"%p\", "
	       "\"limit\": %d, \"retry\": %d, \"plain\": %d, \"contend\": %d, "
	       "\"saturate\": 1, \"faults\": %d, \"zero_calls\": %d}\n",
	       (void *)l, (void *)&lock, (void *)&ref, (void *)&rref, N_LIMIT, M_RETRY, P_PLAIN,
	       K_CONTEND, F_FAULTS, Z_FAULTS);
	fflush(stdout);
	wait_line();
	return 0;
}
