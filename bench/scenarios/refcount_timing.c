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
 * Slices: a repetition takes every subject through its whole test, but in
 * RT_SLICES pieces per direction (up, then down), one thread running them
 * by turns: the subjects in table order for one slice, in reverse for the
 * next. A subject's time is the sum of its slices'. So the subjects of a
 * repetition ran within milliseconds of each other all along, and what
 * the host does over the repetition's seconds (other tenants, the clock)
 * falls on each of them alike and cancels in the ratio taken within the
 * repetition. Run one after the other for a second each, the same
 * subjects' per-repetition ratios moved by ±10% on a shared 2-vCPU VM;
 * in slices, by under ±1% (Intel Xeon, family 6 model 0xcf).
 *
 * The loops are written once (rt_up, rt_down) and inlined into two small
 * functions per subject, with that subject's operations inlined into them:
 * no indirect call in a timed loop, and no direct one except in
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
/*
 * Slices per direction: at the default count, 2^20 operations (about
 * 10 ms) each, so that two subjects' slices are close in time; timing one
 * (two clock reads and a call) costs under 0.01% of it.
 */
#define RT_SLICES 64
/* Fewer where a slice would be shorter than this (a small --count): 1 at most. */
#define RT_SLICE_MIN (1ull << 14)

/* The counter under test, whichever kind, alone on its cache line. */
union rt_counter {
	atomic_int atomic;
	hl_refcount_t refcount;
	struct refcount_full full;
};

/*
 * One subject in a repetition: its counter, alone on its cache line (the
 * line after it holds the sums, which change between slices only), and
 * its slices summed.
 */
struct rt_state {
	_Alignas(64) union rt_counter ctr;
	_Alignas(64) uint64_t ns, cycles; /* over its slices */
	uint64_t downs; /* decrement-and-tests done (after count - 1 increments) */
	bool zero;	/* the last of them reported zero */
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

/* ---- the measurement loops, once ------------------------------------- */

/* n increments. */
static bench_always_inline void rt_up(union rt_counter *c, uint64_t n,
				      void (*inc)(union rt_counter *))
{
	for (uint64_t i = 0; i < n; i++)
		inc(c);
}

/* Up to n decrement-and-tests; stops at the first that reports zero (*zero). */
static bench_always_inline uint64_t rt_down(union rt_counter *c, uint64_t n, bool *zero,
					    bool (*dec_and_test)(union rt_counter *))
{
	for (uint64_t i = 1; i <= n; i++) {
		if (dec_and_test(c)) {
			*zero = true;
			return i;
		}
	}
	return n;
}

/* A subject's three steps, with its operations inlined: the subject's .extra. */
struct rt_ops {
	void (*set_one)(union rt_counter *c);
	void (*up)(union rt_counter *c, uint64_t n);
	uint64_t (*down)(union rt_counter *c, uint64_t n, bool *zero);
};

#define RT_OPS(name, set_one_, inc_, dec_and_test_)                                                \
	static void name##_up(union rt_counter *c, uint64_t n)                                     \
	{                                                                                          \
		rt_up(c, n, inc_);                                                                 \
	}                                                                                          \
	static uint64_t name##_down(union rt_counter *c, uint64_t n, bool *zero)                   \
	{                                                                                          \
		return rt_down(c, n, zero, dec_and_test_);                                         \
	}                                                                                          \
	static const struct rt_ops name = {set_one_, name##_up, name##_down}

RT_OPS(rt_atomic, plain_set_one, plain_inc, plain_dec_and_test);
RT_OPS(rt_refcount, refcount_set_one, refcount_inc, refcount_dec_and_test);
RT_OPS(rt_refcount_full, full_set_one, full_inc, full_dec_and_test);
RT_OPS(rt_refcount_full_inline, full_set_one, full_inline_inc, full_inline_dec_and_test);

/*
 * The subjects run together, in one thread (rt_run_all): each has its
 * steps (.extra) and no run function of its own.
 */
#define RT_SUBJECT(name_, ops_, description_, ...)                                                 \
	{                                                                                          \
		.name = name_, .description = description_, .extra = &(ops_),                      \
		.facts = {__VA_ARGS__},                                                            \
	}

/* Every ratio is taken against RT_BASELINE (in the same repetition). */
static const struct bench_subject rt_subjects[] = {
	RT_SUBJECT(RT_BASELINE, rt_atomic,
		   "C11 atomic_int: relaxed fetch_add; release fetch_sub, acquire at zero",
		   .kind = SUBJECT_ATOMIC),
	RT_SUBJECT("refcount", rt_refcount,
		   "hotline hl_refcount_inc / hl_refcount_dec_and_test (atomic add + check)",
		   .kind = SUBJECT_ATOMIC, .baseline = RT_BASELINE, .library = true),
	RT_SUBJECT("refcount_full", rt_refcount_full,
		   "pre-2019 REFCOUNT_FULL: saturating cmpxchg loop, out of line as in the kernel",
		   .kind = SUBJECT_CAS_LOOP, .baseline = RT_BASELINE),
	RT_SUBJECT("refcount_full_inline", rt_refcount_full_inline,
		   "the same cmpxchg loop inlined: the loop's cost without the call",
		   .kind = SUBJECT_CAS_LOOP, .baseline = RT_BASELINE),
};

/* ---- the scenario ------------------------------------------------------- */

struct rt_ctx {
	const struct bench_config *cfg;
	const struct bench_subject **subjects;
	size_t n;
	unsigned int reps;	     /* planned */
	unsigned int cap;	     /* room: bench_reps_cap(reps), more with --until-decided */
	struct bench_params params;  /* .sink: this context, for rt_run_all */
	unsigned int slices;	     /* per direction: rt_slices(params.count) */
	struct rt_state *st;	     /* [n]: the last repetition run */
	bool *fresh;		     /* [n]: st[i] not yet added to subject i's series */
	struct bench_run all;	     /* that repetition's run: placement, machine */
	struct bench_series *series; /* [n] */
	double *cycles_per_op;	     /* [n][cap] */
	double *seconds;	     /* [n][cap] */
	double *ratio;		     /* [n][cap], to the baseline of the same repetition */
	unsigned int *nr_ratio;	     /* [n]: how many (repetitions of both) */
	int *base;		     /* [n]: index of the subject's rt_ratio_to, -1 if not run */
	int cpu;		     /* where the thread ran, -1 if not pinned */
};

/* Slices per direction for count: RT_SLICES, fewer where they would be short. */
static unsigned int rt_slices(uint64_t count)
{
	const uint64_t most = count / RT_SLICE_MIN;

	return most >= RT_SLICES ? RT_SLICES : most ? (unsigned int)most : 1;
}

/* Slice j's share of total among slices: the remainder spread over the first ones. */
static uint64_t rt_slice(uint64_t total, unsigned int slices, unsigned int j)
{
	return total / slices + (j < total % slices);
}

/*
 * One repetition of every subject, in slices by turns (see the top): up,
 * 1 -> COUNT in ctx->slices slices, then down, COUNT -> 0 in as many. A
 * subject whose decrement-and-test reported zero early sits out the rest.
 */
static void rt_run_all(struct bench_worker *w)
{
	struct rt_ctx *ctx = w->state;
	const uint64_t count = ctx->params.count;

	w->ops = 0;
	for (size_t i = 0; i < ctx->n; i++) {
		const struct rt_ops *o = ctx->subjects[i]->extra;
		struct rt_state *t = &ctx->st[i];

		t->ns = t->cycles = t->downs = 0;
		t->zero = false;
		o->set_one(&t->ctr);
	}
	for (unsigned int s = 0; s < 2 * ctx->slices; s++) {
		const bool down = s >= ctx->slices;
		const uint64_t n = rt_slice(down ? count : count - 1, ctx->slices, s % ctx->slices);

		for (size_t k = 0; k < ctx->n; k++) {
			const size_t i = s % 2 ? ctx->n - 1 - k : k;
			const struct rt_ops *o = ctx->subjects[i]->extra;
			struct rt_state *t = &ctx->st[i];
			uint64_t t0, c0;

			if (down && t->zero)
				continue;
			t0 = bench_now_ns();
			c0 = bench_cycles();
			if (down)
				t->downs += o->down(&t->ctr, n, &t->zero);
			else
				o->up(&t->ctr, n);
			t->cycles += bench_cycles() - c0;
			t->ns += bench_now_ns() - t0;
		}
	}
	for (size_t i = 0; i < ctx->n; i++)
		w->ops += count - 1 + ctx->st[i].downs;
}

static void *rt_all_setup(const struct bench_params *p)
{
	return p->sink;
}

static void rt_all_teardown(void *state)
{
	(void)state;
}

/* What bench_measure runs for one repetition: every subject, by turns. */
static const struct bench_subject rt_all = {
	.name = RT_NAME,
	.setup = rt_all_setup,
	.run = rt_run_all,
	.teardown = rt_all_teardown,
};

/* Run a repetition of every subject; each is fresh until rt_measure takes it. */
static int rt_measure_all(struct rt_ctx *ctx)
{
	bench_run_free(&ctx->all);
	if (bench_measure(&rt_all, &ctx->params, 1, &ctx->cfg->pin, 0, &ctx->all))
		return 1;
	if (ctx->all.failed) {
		bench_error("%s: %s", RT_NAME, ctx->all.why);
		return 1;
	}
	ctx->cpu = ctx->all.cpus[0];
	for (size_t i = 0; i < ctx->n; i++)
		ctx->fresh[i] = true;
	return 0;
}

/*
 * Subject i's next repetition: from the last one run, unless i has taken
 * that already (then a new one, for all). bench_interleave asks for every
 * subject of a repetition in turn, --until-decided for a group's, so the
 * subjects it pairs always come from one run.
 */
static int rt_measure(void *arg, size_t i, unsigned int rep, unsigned int slice)
{
	struct rt_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	const uint64_t count = ctx->params.count;
	const struct rt_state *t = &ctx->st[i];
	struct bench_run run;

	(void)slice; /* bench_interleave: one slice */
	if (!ctx->fresh[i] && rt_measure_all(ctx))
		return 1;
	ctx->fresh[i] = false;
	if (!t->zero || t->downs != count) {
		if (t->zero)
			bench_error("%s: %s out of sync: decrement-and-test reported zero at "
				    "decrement %llu of %llu",
				    RT_NAME, s->name, (unsigned long long)t->downs,
				    (unsigned long long)count);
		else
			bench_error("%s: %s out of sync: decrement-and-test never reported zero "
				    "in %llu decrements",
				    RT_NAME, s->name, (unsigned long long)count);
		return 1;
	}
	/* In sync: count - 1 increments and count decrements. */
	run = (struct bench_run){
		.threads = 1,
		.cpus = ctx->all.cpus,
		.ops = (uint64_t[]){2 * count - 1},
		.total_ops = 2 * count - 1,
		.elapsed_ns = (double)t->ns,
		.cycles = t->cycles,
		.machine = ctx->all.machine,
	};
	bench_series_add(&ctx->series[i], &run, 0);
	ctx->cycles_per_op[i * ctx->cap + rep] = (double)run.cycles / (double)run.total_ops;
	ctx->seconds[i * ctx->cap + rep] = run.elapsed_ns / 1e9;
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
	printf("), %llu ops per run, %u repetition%s, the subjects by turns in %u slice%s each "
	       "way\n",
	       (unsigned long long)(2 * count - 1), ctx->reps, ctx->reps == 1 ? "" : "s",
	       ctx->slices, ctx->slices == 1 ? "" : "s");
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
		json_object_set_new(r, "slices", json_integer(ctx->slices));
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
	struct rt_state *st = NULL;
	bool fresh[sizeof(rt_subjects) / sizeof(rt_subjects[0])] = {false};
	int base[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	unsigned int nr_ratio[sizeof(rt_subjects) / sizeof(rt_subjects[0])];
	int ret = 1;
	size_t slots;

	ctx.n = bench_select_subjects(sc, cfg, subjects);
	if (!ctx.n)
		return 0;
	ctx.params.count = cfg->count ? cfg->count : cfg->quick ? RT_QUICK_COUNT : RT_DEFAULT_COUNT;
	ctx.slices = rt_slices(ctx.params.count);
	ctx.cap = bench_reps_cap(ctx.reps);
	slots = ctx.n * ctx.cap;
	ctx.series = calloc(ctx.n, sizeof(*ctx.series));
	ctx.cycles_per_op = calloc(slots, sizeof(double));
	ctx.seconds = calloc(slots, sizeof(double));
	ctx.ratio = calloc(slots, sizeof(double));
	st = aligned_alloc(_Alignof(struct rt_state), ctx.n * sizeof(*st));
	if (!ctx.series || !ctx.cycles_per_op || !ctx.seconds || !ctx.ratio || !st) {
		bench_error("out of memory");
		goto out;
	}
	ctx.base = base;
	ctx.nr_ratio = nr_ratio;
	ctx.st = st;
	ctx.fresh = fresh;
	ctx.params.sink = &ctx;
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
	free(st);
	bench_run_free(&ctx.all);
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
