/* SPDX-License-Identifier: MIT */
/*
 * scenarios/contend.h - what contend.c lends to lockref_sweep.c: its
 * subjects' setup, teardown and lockref loop (and on arm64 those of
 * contend_atomics.c; and what contend_noprobes.c lends contend.c), and the runner that measures a
 * list of (subject, retry limit) cases across thread counts and writes their tables and results.
 * Private to the two scenarios.
 */
#ifndef HOTLINE_BENCH_CONTEND_H
#define HOTLINE_BENCH_CONTEND_H

#include <stddef.h>

#include "../harness.h"

#define CONTEND_DURATION       0.5  /* seconds per measurement */
#define CONTEND_QUICK_DURATION 0.05 /* with --quick */
/*
 * A repetition is cut into this many slices, taken by turns across the
 * subjects (bench_interleave_rounds), at most one per CONTEND_MIN_SLICE
 * seconds of the duration, and only where every thread has a CPU of its
 * own: oversubscribed, a run's start and end take scheduler time slices
 * of milliseconds, which short slices would multiply.
 */
#define CONTEND_SLICES	  10
#define CONTEND_MIN_SLICE 0.05

/*
 * Which member of the shared object (contend_loop.h's struct ct_object) a
 * subject uses: its table entry says so, CT_USES(ATOMIC) and the like, in
 * the subject's extra; setup initialises that member.
 */
enum ct_word {
	CT_WORD_ATOMIC, /* atomic_faa, cas_loop */
	CT_WORD_REFCOUNT,
	CT_WORD_RCUREF,
	CT_WORD_FULL,
	CT_WORD_LOCKREF, /* every lockref_*: count CT_BASE, unlocked */
	CT_WORD_QSPIN,
	CT_WORD_TICKET,
	CT_WORD_MUTEX,
	CT_WORD_UNLOCKED, /* selftest_nolock */
};
#define CT_USES(word_)                                                                             \
	.extra = &(const enum ct_word)                                                             \
	{                                                                                          \
		CT_WORD_##word_                                                                    \
	}

/* One line of a scenario's table: a subject at one retry limit. */
struct contend_case {
	const struct bench_subject *subject;
	/*
	 * Passed to setup as bench_params.retry_limit (the instrumented
	 * lockref's limit, 0 = none) and written as the result's retry_limit
	 * (null when 0).
	 */
	unsigned int retry_limit;
};

/*
 * What contend_run_cases will measure (bench_plan): the cases this CPU
 * can run, at every thread count, every repetition.
 */
void contend_plan_cases(const struct bench_config *cfg, const struct contend_case *cases,
			size_t nr_cases, size_t nr_default_threads, struct bench_plan *plan);

/*
 * Measure every case at every thread count (cfg->threads, else the
 * defaults), repetitions interleaved across the cases of one thread count;
 * print the table; append one result per case and thread count. Returns 0,
 * or 1 after bench_error (a run failed its check, or could not be done).
 */
int contend_run_cases(const char *scenario, const struct bench_config *cfg,
		      const struct contend_case *cases, size_t nr_cases,
		      const unsigned int *default_threads, size_t nr_default_threads,
		      json_t *results);

/* The shared object and its per-thread figures; sets the instrumented retry limit. */
void *contend_setup(const struct bench_params *p);
/* Adds the threads' figures to p->sink (if any) and frees the state. */
void contend_teardown(void *state);
/*
 * The instrumented lockref's get + put_or_lock, for every subject of it:
 * its relax policy and instruction are the subject's facts, its retry limit
 * the case's (contend: the subject's own).
 */
void contend_run_lockref(struct bench_worker *w);

/*
 * The library's subjects against the bench's copy of the library built
 * without its static probes (contend_noprobes.c), and that copy's retry
 * limit.
 */
void contend_run_lockref_lib_noprobes(struct bench_worker *w);
void contend_run_lockref_get_not_dead_noprobes(struct bench_worker *w);
void contend_run_lockref_spinlock_only_noprobes(struct bench_worker *w);
void contend_run_qspinlock_noprobes(struct bench_worker *w);
void contend_run_refcount_noprobes(struct bench_worker *w);
void contend_run_refcount_inc_not_zero_noprobes(struct bench_worker *w);
void contend_run_rcuref_noprobes(struct bench_worker *w);
unsigned int contend_noprobes_retry_limit(void);

/*
 * BENCH_ATOMICS_VARIANTS (arm64): contend_atomics.c compiled with the
 * atomics forced, once with exclusives (suffix _llsc) and once with LSE
 * (_lse; to be run only where hl_cpu()->lse). Setup is contend_setup's,
 * plus the retry limit of that kind's instrumented lockref.
 */
void *contend_setup_llsc(const struct bench_params *p);
void contend_run_atomic_faa_llsc(struct bench_worker *w);
void contend_run_cas_loop_llsc(struct bench_worker *w);
void contend_run_refcount_llsc(struct bench_worker *w);
void contend_run_lockref_llsc(struct bench_worker *w);
void *contend_setup_lse(const struct bench_params *p);
void contend_run_atomic_faa_lse(struct bench_worker *w);
void contend_run_cas_loop_lse(struct bench_worker *w);
void contend_run_refcount_lse(struct bench_worker *w);
void contend_run_lockref_lse(struct bench_worker *w);

#endif /* HOTLINE_BENCH_CONTEND_H */
