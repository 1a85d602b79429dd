// SPDX-License-Identifier: MIT
/*
 * scenarios/lockref_sweep.c - the 2019 experiment: how many compare-and-swap
 * attempts should a lockref make before it takes the lock?
 *
 * Will Deacon's series that bounded the kernel's lockref loop compared
 * limits of 15, 50, 100, 200 and 500 on a 28-core ThunderX2 and found them
 * "largely identical up to 100" and far better than no limit
 * (docs/sources.md, lockref). Here: the instrumented lockref (contend's loop
 * and subject, contend.h) at limits 1, 2, 4, 15, 50, 100, 200 and 500, and
 * with no limit (lockref_unbounded), at each thread count, with the
 * attempts per success and the fallback rate that explain the differences.
 *
 * One thread is left out by default: nothing contends, so every limit
 * gives the same figure (--threads 1 still runs it).
 *
 * On arm64 the lockref also runs with its atomics forced (contend_atomics.c):
 * lockref_llsc (exclusives) and lockref_lse (LSE, where the CPU has it), at
 * the same limits: a failed LDXR/STXR and a failed CAS are not the same
 * event, and the limit that suits one need not suit the other.
 */
#include "contend.h"
#include "scenarios.h"

#define LS_NAME "lockref-sweep"

static const unsigned int ls_limits[] = {1, 2, 4, 15, 50, 100, 200, 500};

#define LS_NR_LIMITS (sizeof(ls_limits) / sizeof(ls_limits[0]))

/*
 * The instrumented lockref (contend's): a subject that can fall back runs
 * at every limit, one that cannot (unbounded) once, without a limit.
 */
#define LS_SUBJECT(name_, setup_, run_, description_, ...)                                         \
	{                                                                                          \
		.name = name_, .description = description_, .setup = setup_, .run = run_,          \
		.teardown = contend_teardown, CT_USES(LOCKREF),                                    \
		.facts = {.kind = SUBJECT_LOCKREF, .counts_attempts = true, __VA_ARGS__},          \
	}

static const struct bench_subject ls_subjects[] = {
	LS_SUBJECT("lockref", contend_setup, contend_run_lockref,
		   "instrumented hl_lockref get + put_or_lock, at retry limits 1..500",
		   .fallback = true),
	LS_SUBJECT("lockref_unbounded", contend_setup, contend_run_lockref,
		   "the same with no retry limit (the kernel before 2019)", .fallback = false),
#if BENCH_ATOMICS_VARIANTS
	LS_SUBJECT("lockref_llsc", contend_setup_llsc, contend_run_lockref_llsc,
		   "lockref with exclusives (LDXR/STXR) inline, at the same limits",
		   .fallback = true, .variant_of = "lockref", .variant = SUBJECT_VARIANT_LLSC),
	LS_SUBJECT("lockref_lse", contend_setup_lse, contend_run_lockref_lse,
		   "lockref with LSE (CAS) inline, at the same limits; where the CPU has LSE",
		   .fallback = true, .variant_of = "lockref", .variant = SUBJECT_VARIANT_LSE),
#endif
};

#define LS_NR_SUBJECTS (sizeof(ls_subjects) / sizeof(ls_subjects[0]))

static const unsigned int ls_default_threads[] = {2, 4, 8};

#define LS_NR_DEFAULT_THREADS (sizeof(ls_default_threads) / sizeof(ls_default_threads[0]))

/* The cases: every selected subject at every limit, or once without one. */
static size_t ls_cases(const struct bench_scenario *sc, const struct bench_config *cfg,
		       struct contend_case *cases)
{
	const struct bench_subject *subjects[LS_NR_SUBJECTS];
	size_t n = 0, nr_subjects = bench_select_subjects(sc, cfg, subjects);

	for (size_t i = 0; i < nr_subjects; i++) {
		if (!subjects[i]->facts.fallback) {
			cases[n++] = (struct contend_case){subjects[i], 0};
			continue;
		}
		for (size_t l = 0; l < LS_NR_LIMITS; l++)
			cases[n++] = (struct contend_case){subjects[i], ls_limits[l]};
	}
	return n;
}

static int ls_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	struct contend_case cases[LS_NR_SUBJECTS * LS_NR_LIMITS];
	size_t n = ls_cases(sc, cfg, cases);

	return contend_run_cases(LS_NAME, cfg, cases, n, ls_default_threads, LS_NR_DEFAULT_THREADS,
				 results);
}

static void ls_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	struct contend_case cases[LS_NR_SUBJECTS * LS_NR_LIMITS];
	size_t n = ls_cases(sc, cfg, cases);

	contend_plan_cases(cfg, cases, n, LS_NR_DEFAULT_THREADS, plan);
}

static const struct bench_scenario bench_lockref_sweep = {
	.name = LS_NAME,
	.description = "lockref get+put at retry limits 1..500 and unbounded (threads 2,4,8)",
	.uses = BENCH_USES_THREADS | BENCH_USES_DURATION,
	.ignores_why = "it runs for a time, not to a count",
	.subjects = ls_subjects,
	.nr_subjects = LS_NR_SUBJECTS,
	.run = ls_run,
	.plan = ls_plan,
};

BENCH_SCENARIO(bench_lockref_sweep, 30);
