// SPDX-License-Identifier: MIT
/*
 * scenarios/refcount_timing.c - the kernel's LKDTM REFCOUNT_TIMING test.
 *
 * One thread takes a counter from 1 up to COUNT (COUNT-1 increments), then
 * drops it with decrement-and-test until that reports zero, which must be
 * exactly the COUNT-th decrement (otherwise the subject is "out of sync",
 * and the run fails). Nothing contends, so this is the price of the
 * operations themselves: what a saturating refcount costs over a plain
 * atomic (the kernel found 1.00x-1.05x for the add-based refcount_t and
 * about 1.7x for the old compare-and-swap one; docs/sources.md, refcount).
 *
 * The loop is written once (rt_loop) and inlined into one small run
 * function per subject, with that subject's operations inlined into it:
 * no indirect call in the timed loop, and no direct one except in
 * refcount_full, whose out-of-line functions are part of what it measures.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotline/refcount.h>

#include "../arch/arch.h"
#include "../baselines/refcount_full.h"
#include "../questions.h"
#include "scenarios.h"

#define RT_NAME	    "refcount-timing"
#define RT_BASELINE "atomic"
/*
 * COUNT: the kernel's test counts to INT_MAX (2^32 - 3 operations, about
 * 25 s per subject and repetition on a Zen 4). 2^26 keeps its shape (up
 * to COUNT, then down to zero) and still runs each subject for about 1 s
 * (1.6 s on an Intel Xeon, family 6 model 0xcf), enough for a stable
 * ns/op, so that `make bench` fits its time budget; --count 2147483647 is
 * the kernel's exact test.
 */
#define RT_DEFAULT_COUNT (1ull << 26)
#define RT_QUICK_COUNT	 (1ull << 24)

/* The counter under test, whichever kind, alone on its cache line. */
union rt_counter {
	atomic_int atomic;
	hl_refcount_t refcount;
	struct refcount_full full;
};

struct rt_state {
	_Alignas(64) union rt_counter ctr;
	_Alignas(64) uint64_t count;
};

/* ---- the subjects' operations ------------------------------------------- */

/*
 * atomic: what the kernel's ATOMIC_TIMING does with an atomic_t. (Named
 * plain_*: names starting with atomic_ belong to <stdatomic.h>.)
 */
static inline void plain_set_one(union rt_counter *c)
{
	atomic_store_explicit(&c->atomic, 1, memory_order_relaxed);
}

static inline void plain_inc(union rt_counter *c)
{
	atomic_fetch_add_explicit(&c->atomic, 1, memory_order_relaxed);
}

static inline bool plain_dec_and_test(union rt_counter *c)
{
	if (atomic_fetch_sub_explicit(&c->atomic, 1, memory_order_release) != 1)
		return false;
	hl_acquire_after_rmw(&c->atomic);
	return true;
}

/* refcount: hotline's hl_refcount_t. */
static inline void refcount_set_one(union rt_counter *c)
{
	hl_refcount_set(&c->refcount, 1);
}

static inline void refcount_inc(union rt_counter *c)
{
	hl_refcount_inc(&c->refcount);
}

static inline bool refcount_dec_and_test(union rt_counter *c)
{
	return hl_refcount_dec_and_test(&c->refcount);
}

/*
 * refcount_full: the pre-2019 compare-and-swap refcount (baselines/), called
 * out of line as the kernel's was; refcount_full_inline: the same loop
 * inlined, to tell the cost of the loop from the cost of the call.
 */
static inline void full_set_one(union rt_counter *c)
{
	refcount_full_set(&c->full, 1);
}

static inline void full_inc(union rt_counter *c)
{
	refcount_full_inc_call(&c->full);
}

static inline bool full_dec_and_test(union rt_counter *c)
{
	return refcount_full_dec_and_test_call(&c->full);
}

static inline void full_inline_inc(union rt_counter *c)
{
	refcount_full_inc(&c->full);
}

static inline bool full_inline_dec_and_test(union rt_counter *c)
{
	return refcount_full_dec_and_test(&c->full);
}

/* ---- the measurement loop, once ----------------------------------------- */

static bench_always_inline void rt_loop(struct bench_worker *w, void (*set_one)(union rt_counter *),
					void (*inc)(union rt_counter *),
					bool (*dec_and_test)(union rt_counter *))
{
	struct rt_state *st = w->state;
	union rt_counter *c = &st->ctr;
	const uint64_t count = st->count;
	uint64_t i;

	set_one(c);
	for (i = 1; i < count; i++)
		inc(c);
	for (i = 1; i <= count; i++) {
		if (dec_and_test(c))
			break;
	}

	w->ops = count - 1 + (i <= count ? i : count);
	if (i == count)
		return;
	w->failed = true;
	if (i < count)
		snprintf(w->why, sizeof(w->why),
			 "decrement-and-test reported zero at decrement %llu of %llu",
			 (unsigned long long)i, (unsigned long long)count);
	else
		snprintf(w->why, sizeof(w->why),
			 "decrement-and-test never reported zero in %llu decrements",
			 (unsigned long long)count);
}

/* One line per subject: the loop above with that subject's operations. */
static void run_atomic(struct bench_worker *w)
{
	rt_loop(w, plain_set_one, plain_inc, plain_dec_and_test);
}

static void run_refcount(struct bench_worker *w)
{
	rt_loop(w, refcount_set_one, refcount_inc, refcount_dec_and_test);
}

static void run_refcount_full(struct bench_worker *w)
{
	rt_loop(w, full_set_one, full_inc, full_dec_and_test);
}

static void run_refcount_full_inline(struct bench_worker *w)
{
	rt_loop(w, full_set_one, full_inline_inc, full_inline_dec_and_test);
}

static void *rt_setup(const struct bench_params *p)
{
	struct rt_state *st = aligned_alloc(_Alignof(struct rt_state), sizeof(*st));

	if (!st)
		return NULL;
	st->count = p->count;
	atomic_init(&st->ctr.atomic, 0);
	return st;
}

static void rt_teardown(void *state)
{
	free(state);
}

#define RT_SUBJECT(name_, run_, description_, ...)                                                 \
	{                                                                                          \
		.name = name_, .description = description_, .setup = rt_setup, .run = run_,        \
		.teardown = rt_teardown, .facts = {__VA_ARGS__},                                   \
	}

/* Every ratio is taken against RT_BASELINE (in the same repetition). */
static const struct bench_subject rt_subjects[] = {
	RT_SUBJECT(RT_BASELINE, run_atomic,
		   "C11 atomic_int: relaxed fetch_add; release fetch_sub, acquire at zero",
		   .kind = SUBJECT_ATOMIC),
	RT_SUBJECT("refcount", run_refcount,
		   "hotline hl_refcount_inc / hl_refcount_dec_and_test (atomic add + check)",
		   .kind = SUBJECT_ATOMIC, .baseline = RT_BASELINE, .library = true),
	RT_SUBJECT("refcount_full", run_refcount_full,
		   "pre-2019 REFCOUNT_FULL: saturating cmpxchg loop, out of line as in the kernel",
		   .kind = SUBJECT_CAS_LOOP, .baseline = RT_BASELINE),
	RT_SUBJECT("refcount_full_inline", run_refcount_full_inline,
		   "the same cmpxchg loop inlined: the loop's cost without the call",
		   .kind = SUBJECT_CAS_LOOP, .baseline = RT_BASELINE),
};

/* ---- the scenario ------------------------------------------------------- */

struct rt_ctx {
	const struct bench_config *cfg;
	const struct bench_subject **subjects;
	size_t n;
	unsigned int reps; /* planned */
	unsigned int cap;  /* room: bench_reps_cap(reps), more with --until-decided */
	struct bench_params params;
	struct bench_series *series; /* [n] */
	double *cycles_per_op;	     /* [n][cap] */
	double *seconds;	     /* [n][cap] */
	double *ratio;		     /* [n][cap], to the baseline of the same repetition */
	unsigned int *nr_ratio;	     /* [n]: how many (repetitions of both) */
	int *base;		     /* [n]: index of the subject's rt_ratio_to, -1 if not run */
	int cpu;		     /* where the thread ran, -1 if not pinned */
};

static int rt_measure(void *arg, size_t i, unsigned int rep)
{
	struct rt_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	struct bench_run run;

	if (bench_measure(s, &ctx->params, 1, &ctx->cfg->pin, 0, &run))
		return 1;
	if (run.failed) {
		bench_error("%s: %s out of sync: %s", RT_NAME, s->name, run.why);
		bench_run_free(&run);
		return 1;
	}
	bench_series_add(&ctx->series[i], &run, 0);
	ctx->cycles_per_op[i * ctx->cap + rep] = (double)run.cycles / (double)run.total_ops;
	ctx->seconds[i * ctx->cap + rep] = run.elapsed_ns / 1e9;
	ctx->cpu = run.cpus[0];
	bench_run_free(&run);
	return 0;
}

/* What a subject's ratio is taken against: its baseline; the baseline itself, its own name. */
static const char *rt_ratio_to(const struct bench_subject *s)
{
	return s->facts.baseline ? s->facts.baseline : s->name;
}

static void rt_print(const struct rt_ctx *ctx)
{
	const uint64_t count = ctx->params.count;

	printf("%s: 1 -> %llu -> 0 on one thread (", RT_NAME, (unsigned long long)count);
	if (ctx->cpu >= 0)
		printf("CPU %d", ctx->cpu);
	else
		printf("not pinned");
	printf("), %llu ops per run, %u repetition%s\n", (unsigned long long)(2 * count - 1),
	       ctx->reps, ctx->reps == 1 ? "" : "s");
	if (bench_until_decided_on())
		printf("(--until-decided: more repetitions where a question cannot tell; "
		       "config.until_decided in the JSON says which)\n");
	printf("%-20s %8s %19s %9s %8s %9s %10s %7s\n", "subject", "ns/op", "min..max ns/op",
	       "Mops/s", BENCH_CYCLES_LABEL "/op", "s/run", "vs " RT_BASELINE, "spread");
	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_series *s = &ctx->series[i];
		struct bench_stats st;
		char range[40], ratio[16];

		bench_stats(s->ns_per_op, s->n, &st);
		snprintf(range, sizeof(range), "%.3f..%.3f", st.min, st.max);
		if (ctx->base[i] >= 0)
			snprintf(ratio, sizeof(ratio), "%.3fx",
				 bench_median(&ctx->ratio[i * ctx->cap], ctx->nr_ratio[i]));
		else
			snprintf(ratio, sizeof(ratio), "-");
		printf("%-20s %8.3f %19s %9.1f %8.2f %9.2f %10s %6.1f%%\n", ctx->subjects[i]->name,
		       st.median, range, bench_median(s->ops_per_sec, s->n) / 1e6,
		       bench_median(&ctx->cycles_per_op[i * ctx->cap], s->n),
		       bench_median(&ctx->seconds[i * ctx->cap], s->n), ratio, 100 * st.rel_spread);
	}
	fflush(stdout);
}

static void rt_results(const struct rt_ctx *ctx, json_t *results)
{
	const uint64_t count = ctx->params.count;

	for (size_t i = 0; i < ctx->n; i++) {
		const double *ratio = &ctx->ratio[i * ctx->cap];
		unsigned int nr = ctx->nr_ratio[i];
		json_t *r = bench_result_json(RT_NAME, ctx->subjects[i]->name, &ctx->series[i],
					      BENCH_HEADLINE_NS_PER_OP, 0, 0);

		json_object_set_new(r, "count", json_integer((json_int_t)count));
		json_object_set_new(r, "ops", json_integer((json_int_t)(2 * count - 1)));
		json_object_set_new(r, "cycles_per_op",
				    json_real(bench_median(&ctx->cycles_per_op[i * ctx->cap],
							   ctx->series[i].n)));
		json_object_set_new(r, "in_sync", json_true());
		json_object_set_new(r, "ratio_to", json_string(rt_ratio_to(ctx->subjects[i])));
		json_object_set_new(r, "ratio",
				    ctx->base[i] >= 0 ? json_real(bench_median(ratio, nr))
						      : json_null());
		json_object_set_new(r, "ratio_runs",
				    ctx->base[i] >= 0 ? bench_json_reals(ratio, nr) : json_null());
		json_array_append_new(results, r);
	}
}

/*
 * Ratios within each repetition, so that drift between them cancels: as
 * many as both ran (--until-decided may give one more than the other).
 */
static void rt_ratios(struct rt_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n; i++) {
		const int b = ctx->base[i];

		ctx->nr_ratio[i] = 0;
		if (b < 0)
			continue;
		ctx->nr_ratio[i] =
			ctx->series[i].n < ctx->series[b].n ? ctx->series[i].n : ctx->series[b].n;
		for (unsigned int rep = 0; rep < ctx->nr_ratio[i]; rep++)
			ctx->ratio[i * ctx->cap + rep] =
				ctx->series[i].ns_per_op[rep] / ctx->series[b].ns_per_op[rep];
	}
}

static int rt_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	const struct bench_subject *subjects[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	struct rt_ctx ctx = {
		.cfg = cfg,
		.subjects = subjects,
		.reps = cfg->repeat,
		.params = {.threads = 1},
		.cpu = -1,
	};
	int base[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	unsigned int nr_ratio[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	int ret = 1;
	size_t slots;

	ctx.n = bench_select_subjects(sc, cfg, subjects);
	if (!ctx.n)
		return 0;
	ctx.params.count = cfg->count ? cfg->count : cfg->quick ? RT_QUICK_COUNT : RT_DEFAULT_COUNT;
	ctx.cap = bench_reps_cap(ctx.reps);
	slots = ctx.n * ctx.cap;
	ctx.series = calloc(ctx.n, sizeof(*ctx.series));
	ctx.cycles_per_op = calloc(slots, sizeof(double));
	ctx.seconds = calloc(slots, sizeof(double));
	ctx.ratio = calloc(slots, sizeof(double));
	if (!ctx.series || !ctx.cycles_per_op || !ctx.seconds || !ctx.ratio) {
		bench_error("out of memory");
		goto out;
	}
	ctx.base = base;
	ctx.nr_ratio = nr_ratio;
	for (size_t i = 0; i < ctx.n; i++) {
		if (bench_series_init(&ctx.series[i], ctx.cap, 1))
			goto out;
		base[i] = -1;
		for (size_t j = 0; j < ctx.n; j++) {
			if (strcmp(subjects[j]->name, rt_ratio_to(subjects[i])) == 0)
				base[i] = (int)j;
		}
	}

	if (bench_interleave(RT_NAME, subjects, NULL, ctx.n, ctx.reps, rt_measure, &ctx))
		goto out;
	if (bench_until_decided(&(struct bench_point){
		    .scenario = RT_NAME,
		    .label = RT_NAME,
		    .threads = 1,
		    .whole_time = true,
		    .n = ctx.n,
		    .subjects = subjects,
		    .series = ctx.series,
		    .measure = rt_measure,
		    .ctx = &ctx,
	    }))
		goto out;

	rt_ratios(&ctx);
	rt_print(&ctx);
	rt_results(&ctx, results);
	ret = 0;
out:
	for (size_t i = 0; ctx.series && i < ctx.n; i++)
		bench_series_free(&ctx.series[i]);
	free(ctx.series);
	free(ctx.cycles_per_op);
	free(ctx.seconds);
	free(ctx.ratio);
	return ret;
}

/* About 11 ns per count (a get and a put) on the development machine. */
static void rt_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	const struct bench_subject *subjects[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	unsigned long long count = cfg->count	? cfg->count
				   : cfg->quick ? RT_QUICK_COUNT
						: RT_DEFAULT_COUNT;

	plan->items = (unsigned long)(bench_select_subjects(sc, cfg, subjects) * cfg->repeat);
	plan->seconds = (double)plan->items * (double)count * 11e-9;
}

static const struct bench_scenario bench_refcount_timing = {
	.name = RT_NAME,
	.description = "one thread: 1 -> COUNT -> 0 by inc and dec_and_test (LKDTM "
		       "REFCOUNT_TIMING)",
	.uses = BENCH_USES_COUNT,
	.ignores_why = "it runs one thread to a fixed count",
	.subjects = rt_subjects,
	.nr_subjects = sizeof(rt_subjects) / sizeof(rt_subjects[0]),
	.run = rt_run,
	.plan = rt_plan,
};

BENCH_SCENARIO(bench_refcount_timing, 10);
