// SPDX-License-Identifier: MIT
/*
 * test_harness.c - the parts of hotline-bench's harness that the scenarios
 * do not exercise on their own: statistics, fairness, placement wrapping,
 * several threads or processes run for a duration, a failed check, a
 * worker process that dies, interleaving order (the planned repetitions'
 * and --until-decided's extra ones), subject and self-test
 * selection, the common result fields, and the attempt and latency
 * histograms.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "hist.h"
#include "questions.h"
#include "tool.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-12;
}

static void stats_are_median_min_max_and_relative_range(void)
{
	const double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
	struct bench_stats st;

	bench_stats(odd, 3, &st);
	CHECK(near(st.median, 2) && near(st.min, 1) && near(st.max, 3) && near(st.rel_spread, 1),
	      "expected median 2, min 1, max 3, rel_spread 1; got %g %g %g %g", st.median, st.min,
	      st.max, st.rel_spread);
	bench_stats(even, 4, &st);
	CHECK(near(st.median, 2.5), "expected median 2.5 of 1..4, got %g", st.median);
}

static void jain_is_one_when_equal_and_one_over_n_when_one_thread_does_all(void)
{
	const uint64_t equal[] = {7, 7, 7, 7}, one[] = {10, 0, 0, 0}, single[] = {5};

	CHECK(near(tool_jain(equal, 4), 1.0), "equal counts: expected 1.0, got %g",
	      tool_jain(equal, 4));
	CHECK(near(tool_jain(one, 4), 0.25), "one thread of 4 does all: expected 0.25, got %g",
	      tool_jain(one, 4));
	CHECK(near(tool_jain(single, 1), 1.0), "one thread: expected 1.0, got %g",
	      tool_jain(single, 1));
}

static void placement_wraps_and_auto_starts_with_distinct_cpus(void)
{
	const int list[] = {1, 0};
	struct bench_pin pin = {.mode = BENCH_PIN_AUTO};
	int cpus[64];
	unsigned int n = 64, period = 1;

	bench_place(&pin, n, cpus);
	/* The first CPU repeats only after every available CPU was used once. */
	while (period < n && cpus[period] != cpus[0])
		period++;
	for (unsigned int i = 0; i < n; i++) {
		CHECK(bench_cpu_available(cpus[i]), "auto: thread %u on CPU %d, not available", i,
		      cpus[i]);
		CHECK(cpus[i] == cpus[i % period],
		      "auto: thread %u: expected CPU %d (wrapping), got %d", i, cpus[i % period],
		      cpus[i]);
		for (unsigned int j = 0; j < i && i < period; j++)
			CHECK(cpus[i] != cpus[j], "auto: CPU %d used twice before wrapping",
			      cpus[i]);
	}

	pin = (struct bench_pin){.mode = BENCH_PIN_LIST, .cpus = list, .nr_cpus = 2};
	bench_place(&pin, 5, cpus);
	CHECK(cpus[0] == 1 && cpus[1] == 0 && cpus[2] == 1 && cpus[4] == 1,
	      "list 1,0: expected 1 0 1 0 1, got %d %d %d %d %d", cpus[0], cpus[1], cpus[2],
	      cpus[3], cpus[4]);
	pin = (struct bench_pin){.mode = BENCH_PIN_NONE};
	bench_place(&pin, 3, cpus);
	CHECK(cpus[0] == -1 && cpus[2] == -1, "none: expected -1 (not pinned), got %d", cpus[0]);
}

/* A subject whose loop counts until told to stop, or fails on purpose. */
static void *spin_setup(const struct bench_params *p)
{
	return calloc(1, p->threads ? 64 : 1);
}

static void spin_teardown(void *state)
{
	free(state);
}

static void spin_run(struct bench_worker *w)
{
	uint64_t n = 0;

	if (!w->timed) {
		w->ops = 1;
		w->failed = w->index == 1;
		if (w->failed)
			snprintf(w->why, sizeof(w->why), "thread 1 fails on purpose");
		return;
	}
	/* At least one: on a loaded machine a thread may first run after the stop. */
	do
		n++;
	while (!atomic_load_explicit(w->stop, memory_order_relaxed));
	w->ops = n;
}

/* A worker process that exits with status 3 instead of returning. */
static void exit_run(struct bench_worker *w)
{
	w->ops = 1;
	if (w->index == 0)
		_exit(3);
}

static const struct bench_subject spin_subjects[] = {
	{.name = "spin",
	 .description = "count until stopped",
	 .setup = spin_setup,
	 .run = spin_run,
	 .teardown = spin_teardown},
	{.name = "other",
	 .description = "same again",
	 .setup = spin_setup,
	 .run = spin_run,
	 .teardown = spin_teardown},
};

static const struct bench_subject exit_subject = {.name = "exit",
						  .description = "exits",
						  .setup = spin_setup,
						  .run = exit_run,
						  .teardown = spin_teardown};

/* bench_measure or bench_measure_processes: the same arguments, threads or processes. */
typedef int (*measure_fn)(const struct bench_subject *s, const struct bench_params *p,
			  unsigned int threads, const struct bench_pin *pin, double duration,
			  struct bench_run *out);

/*
 * A 0.1 s run of 3 pinned workers (WHO: "thread", "process") by MEASURE: about 0.1 s elapsed,
 * every worker did ops on a CPU of its own, total_ops their sum. False if the run has no
 * ops (then nothing more is checked); else the run is left for the caller to free.
 */
static bool three_workers_run_and_count(measure_fn measure, const char *who, struct bench_run *run)
{
	const struct bench_params p = {.threads = 3};
	const struct bench_pin pin = {.mode = BENCH_PIN_AUTO};

	CHECK(measure(&spin_subjects[0], &p, 3, &pin, 0.1, run) == 0, "expected the run to work");
	if (!run->ops)
		return false;
	CHECK(!run->failed, "expected no failure, got '%s'", run->why);
	CHECK(run->elapsed_ns >= 0.09e9 && run->elapsed_ns < 5e9,
	      "expected about 0.1 s elapsed, got %g ns", run->elapsed_ns);
	CHECK(run->ops[0] + run->ops[1] + run->ops[2] == run->total_ops,
	      "expected total_ops to be the sum of the %ss' ops", who);
	for (unsigned int i = 0; i < 3; i++) {
		CHECK(run->ops[i] > 0, "%s %u: expected its ops counted, got 0", who, i);
		CHECK(run->cpus[i] >= 0, "%s %u: expected to be pinned, got CPU %d", who, i,
		      run->cpus[i]);
	}
	return true;
}

/* A run by MEASURE of 2 unpinned workers whose check fails: failed, with the worker's reason. */
static void failed_check_reported(measure_fn measure, struct bench_run *run)
{
	const struct bench_params p = {.threads = 2};
	const struct bench_pin pin = {.mode = BENCH_PIN_NONE};

	CHECK(measure(&spin_subjects[0], &p, 2, &pin, 0, run) == 0,
	      "expected the run itself to work");
	CHECK(run->failed && strstr(run->why, "on purpose"),
	      "expected failed with the worker's reason, got failed=%d why='%s'", run->failed,
	      run->why);
}

static void threads_run_for_the_duration_and_all_count(void)
{
	struct bench_run run;
	json_t *placement;

	if (!three_workers_run_and_count(bench_measure, "thread", &run))
		return;
	CHECK(run.cycles > 0, "expected the cycle counter to advance");
	bench_run_free(&run);

	placement = bench_placement_json();

	CHECK(json_is_array(placement) && json_array_size(placement) == 3,
	      "env placement: expected the 3 CPUs of the last multi-thread run");
	json_decref(placement);
}

static void a_failed_check_is_reported_with_its_reason(void)
{
	struct bench_run run;

	failed_check_reported(bench_measure, &run);
	CHECK(run.cpus[0] == -1, "--pin none: expected CPU -1, got %d", run.cpus[0]);
	bench_run_free(&run);
}

static void processes_run_for_the_duration_and_all_count(void)
{
	struct bench_run run;

	if (three_workers_run_and_count(bench_measure_processes, "process", &run))
		bench_run_free(&run);
}

static void a_failed_or_dead_worker_process_fails_the_run(void)
{
	const struct bench_params p = {.threads = 2};
	const struct bench_pin pin = {.mode = BENCH_PIN_NONE};
	struct bench_run run;

	failed_check_reported(bench_measure_processes, &run);
	bench_run_free(&run);
	CHECK(bench_measure_processes(&exit_subject, &p, 2, &pin, 0, &run) == 0,
	      "expected the run itself to work");
	CHECK(run.failed && strstr(run.why, "exited with status 3"),
	      "expected 'worker process 0 ... exited with status 3', got failed=%d why='%s'",
	      run.failed, run.why);
	bench_run_free(&run);
}

static char order[256];

static int record_order(void *ctx, size_t subject, unsigned int rep, unsigned int slice)
{
	size_t len = strlen(order);

	(void)ctx;
	(void)slice;
	snprintf(order + len, sizeof(order) - len, "%zu%u ", subject, rep);
	return 0;
}

/* Point (ctx: its letter), subject, repetition and slice of each call, in call order. */
static int record_slice(void *ctx, size_t subject, unsigned int rep, unsigned int slice)
{
	size_t len = strlen(order);

	snprintf(order + len, sizeof(order) - len, "%c%zu%u%u ", *(const char *)ctx, subject, rep,
		 slice);
	return 0;
}

/* Every subject in each repetition, in table order and in reverse by turns. */
static void repetitions_interleave_subjects(void)
{
	const struct bench_subject *s[] = {&spin_subjects[0], &spin_subjects[1]};

	order[0] = '\0';
	CHECK(bench_interleave("test", s, NULL, 2, 3, record_order, NULL) == 0, "expected 0");
	CHECK(strcmp(order, "00 10 11 01 02 12 ") == 0,
	      "expected subject,rep order '00 10 11 01 02 12 ', got '%s'", order);
}

/*
 * Repetitions cut into slices, each point its own number: at each point of
 * a round, every subject's slice s before any subject's slice s + 1, the
 * order alternating from slice to slice and on into the next repetition
 * (3 slices: repetition 1 starts in reverse; 2: in table order); the
 * rounds still go over the points.
 */
static void slices_alternate_within_a_repetition(void)
{
	const struct bench_subject *s[] = {&spin_subjects[0], &spin_subjects[1]};
	const struct bench_round_point points[] = {{"a", "a", 3}, {"b", "b", 2}};
	const char *want = "a000 a100 a101 a001 a002 a102 "
			   "b000 b100 b101 b001 "
			   "a110 a010 a011 a111 a112 a012 "
			   "b010 b110 b111 b011 ";

	order[0] = '\0';
	CHECK(bench_interleave_rounds(points, 2, s, NULL, 2, 2, record_slice) == 0, "expected 0");
	CHECK(strcmp(order, want) == 0, "expected point,subject,rep,slice order '%s', got '%s'",
	      want, order);
}

static const struct bench_subject timing_subjects[] = {
	{.name = "atomic"}, {.name = "refcount"}, {.name = "alone"}};

/* A series of refcount-timing's point: refcount's time over atomic's 0.9, 1.2, 0.9, ... */
static int timing_rep(void *ctx, size_t subject, unsigned int rep, unsigned int slice)
{
	struct bench_series *s = &((struct bench_series *)ctx)[subject];

	s->ns_per_op[s->n] = subject == 1 && rep % 2 ? 1.2 : subject == 1 ? 0.9 : 1.0;
	s->n++;
	return record_order(NULL, subject, rep, slice);
}

/* As timing_rep, a repetition in two slices: the series grows at the second. */
static int timing_slice(void *ctx, size_t subject, unsigned int rep, unsigned int slice)
{
	size_t len = strlen(order);

	snprintf(order + len, sizeof(order) - len, "%zu%u%u ", subject, rep, slice);
	if (slice == 1) {
		struct bench_series *s = &((struct bench_series *)ctx)[subject];

		s->ns_per_op[s->n] = subject == 1 && rep % 2 ? 1.2 : subject == 1 ? 0.9 : 1.0;
		s->n++;
	}
	return 0;
}

/*
 * refcount-timing's point of three subjects, two repetitions of slices
 * slices each already measured, through --until-decided with measure: the
 * order of its calls must be want, the pair must reach the cap (10), and
 * the third subject, which no question names, must stay at 2.
 */
static void run_extra_repetitions(bench_measure_fn measure, unsigned int slices, const char *want)
{
	const char *const scenarios[] = {"refcount-timing"};
	const double planned_s[] = {1};
	const struct bench_subject *subjects[] = {&timing_subjects[0], &timing_subjects[1],
						  &timing_subjects[2]};
	struct bench_series series[3];
	struct bench_point p = {.scenario = "refcount-timing",
				.label = "refcount-timing",
				.whole_time = true,
				.n = 3,
				.subjects = subjects,
				.series = series,
				.measure = measure,
				.ctx = series,
				.slices = slices};

	for (size_t i = 0; i < 3; i++) {
		CHECK(bench_series_init(&series[i], 10, 1) == 0, "expected series of 10");
		for (unsigned int rep = 0; rep < 2; rep++)
			measure(series, i, rep, slices - 1);
	}
	bench_until_decided_init(600, 2, scenarios, planned_s, 1);
	bench_until_decided_scenario("refcount-timing");
	order[0] = '\0';
	CHECK(bench_until_decided(&p) == 0, "expected 0");
	CHECK(strcmp(order, want) == 0, "expected the calls in order '%s', got '%s'", want, order);
	CHECK(series[0].n == 10 && series[1].n == 10,
	      "expected the pair at the cap of 10 repetitions, got %u and %u", series[0].n,
	      series[1].n);
	CHECK(series[2].n == 2, "expected the subject no question names at 2 repetitions, got %u",
	      series[2].n);
	for (size_t i = 0; i < 3; i++)
		bench_series_free(&series[i]);
	bench_until_decided_init(0, 2, NULL, NULL, 0);
}

/*
 * --until-decided's extra repetitions go on alternating the order from the
 * planned ones: a question that stays "cannot tell" (refcount / atomic
 * going 0.9, 1.2, 0.9, ... about its 1.05) runs its pair to the cap (10
 * here), repetition r in table order when r is even and reversed when odd
 * (the calls as subject and repetition); the subject no question names
 * never runs.
 */
static void extra_repetitions_alternate_as_the_planned(void)
{
	run_extra_repetitions(timing_rep, 1, "02 12 13 03 04 14 15 05 06 16 17 07 08 18 19 09 ");
}

/*
 * The same where the point's repetitions are cut into two slices: each
 * extra repetition takes the pair's slices by turns (slice 0 in table
 * order, slice 1 reversed, as bench_interleave_rounds does: the calls as
 * subject, repetition and slice), and a repetition counts once, at its
 * last slice.
 */
static void extra_repetitions_take_their_slices_by_turns(void)
{
	char want[160] = "";

	for (unsigned int rep = 2; rep < 10; rep++) {
		size_t len = strlen(want);

		snprintf(want + len, sizeof(want) - len, "0%u0 1%u0 1%u1 0%u1 ", rep, rep, rep,
			 rep);
	}
	run_extra_repetitions(timing_slice, 2, want);
}

static void subjects_option_selects_by_name(void)
{
	const struct bench_scenario sc = {
		.name = "test", .subjects = spin_subjects, .nr_subjects = 2};
	const char *only[] = {"other"};
	struct bench_config cfg = {.repeat = 1};
	const struct bench_subject *out[2];

	CHECK(bench_select_subjects(&sc, &cfg, out) == 2, "no --subjects: expected both");
	cfg.subjects = only;
	cfg.nr_subjects = 1;
	CHECK(bench_select_subjects(&sc, &cfg, out) == 1 && out[0] == &spin_subjects[1],
	      "--subjects other: expected only 'other'");
}

static void selftests_run_only_when_named(void)
{
	const struct bench_scenario sc = {.name = "test",
					  .subjects = spin_subjects,
					  .nr_subjects = 1,
					  .selftests = &spin_subjects[1],
					  .nr_selftests = 1};
	const char *named[] = {"other", "spin"};
	struct bench_config cfg = {.repeat = 1};
	const struct bench_subject *out[2];

	CHECK(bench_select_subjects(&sc, &cfg, out) == 1 && out[0] == &spin_subjects[0],
	      "no --subjects: expected the subject, not the self-test");
	cfg.subjects = named;
	cfg.nr_subjects = 2;
	CHECK(bench_select_subjects(&sc, &cfg, out) == 2 && out[0] == &spin_subjects[0] &&
		      out[1] == &spin_subjects[1],
	      "--subjects other,spin: expected the subject, then the self-test");
}

static void attempts_quantiles_are_exact_below_256_and_the_max_beyond(void)
{
	struct bench_attempts a = {0}, b = {0};

	for (int i = 0; i < 90; i++)
		bench_attempts_add(&a, 1);
	for (int i = 0; i < 9; i++)
		bench_attempts_add(&a, 2);
	bench_attempts_add(&a, 300);
	CHECK(bench_attempts_count(&a) == 100, "expected 100 successes, got %llu",
	      (unsigned long long)bench_attempts_count(&a));
	CHECK(a.sum == 408 && a.max == 300, "expected sum 408, max 300; got %llu, %llu",
	      (unsigned long long)a.sum, (unsigned long long)a.max);
	CHECK(bench_attempts_quantile(&a, 0.5) == 1, "p50: expected 1, got %g",
	      bench_attempts_quantile(&a, 0.5));
	CHECK(bench_attempts_quantile(&a, 0.99) == 2, "p99: expected 2, got %g",
	      bench_attempts_quantile(&a, 0.99));
	CHECK(bench_attempts_quantile(&a, 1.0) == 300,
	      "p100 beyond 255: expected the max 300, got %g", bench_attempts_quantile(&a, 1.0));
	bench_attempts_add(&b, 7);
	bench_attempts_merge(&b, &a);
	CHECK(bench_attempts_count(&b) == 101 && b.sum == 415 && b.max == 300,
	      "merge: expected 101 successes, sum 415, max 300");
	CHECK(bench_attempts_quantile(&(struct bench_attempts){0}, 0.5) == 0, "empty: expected 0");
}

static void latency_quantiles_are_within_3_percent_and_never_above_the_max(void)
{
	struct bench_latency h = {0};
	static const double qs[] = {0.5, 0.9, 0.99, 0.999};
	unsigned int prev = 0;

	/* Buckets grow with the value, and the exact range is exact. */
	for (uint64_t v = 0; v < 1u << 20; v++) {
		unsigned int b = bench_latency_bucket(v);

		CHECK(b >= prev && b < BENCH_LATENCY_BUCKETS, "bucket of %llu: %u after %u",
		      (unsigned long long)v, b, prev);
		prev = b;
	}
	CHECK(bench_latency_bucket(31) == 31 &&
		      bench_latency_bucket(UINT64_MAX) == BENCH_LATENCY_BUCKETS - 1,
	      "expected 31 -> 31 and UINT64_MAX -> the last bucket");
	/* Values 1..100000: the q-quantile is q * 100000. */
	for (uint64_t v = 1; v <= 100000; v++)
		bench_latency_add(&h, v);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double got = bench_latency_quantile(&h, qs[i]), want = qs[i] * 100000;

		CHECK(fabs(got - want) <= 0.032 * want, "q %g: expected about %g, got %g", qs[i],
		      want, got);
	}
	CHECK(bench_latency_quantile(&h, 1.0) <= 100000 && h.max == 100000 && h.n == 100000,
	      "expected the top quantile at most the max 100000");
	bench_latency_add(&h, 5);
	CHECK(h.n == 100001, "expected n to count every value");
}

static void result_has_every_common_field(void)
{
	static const char *const keys[] = {"scenario",	  "subject",	 "threads",   "size",
					   "retry_limit", "ops_per_sec", "ns_per_op", "gb_per_sec",
					   "headline",	  "runs",	 "spread",    "per_thread",
					   "fairness"};
	uint64_t ops[2] = {100, 300};
	int cpus[2] = {0, -1};
	struct bench_run run = {
		.threads = 2, .cpus = cpus, .ops = ops, .total_ops = 400, .elapsed_ns = 1000};
	struct bench_series s;
	json_t *r;

	if (bench_series_init(&s, 2, 2))
		return;
	bench_series_add(&s, &run, 0);
	run.elapsed_ns = 2000;
	bench_series_add(&s, &run, 0);
	r = bench_result_json("test", "spin", &s, BENCH_HEADLINE_OPS_PER_SEC, 4096, 100);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK(json_object_get(r, keys[i]), "expected key '%s' in the result", keys[i]);
	CHECK(near(json_real_value(json_object_get(r, "ns_per_op")), 3.75),
	      "ns_per_op: expected median of 2.5 and 5 = 3.75, got %g",
	      json_real_value(json_object_get(r, "ns_per_op")));
	CHECK(json_array_size(json_object_get(r, "runs")) == 2, "runs: expected 2");
	CHECK(near(json_real_value(json_object_get(r, "fairness")), 0.8),
	      "fairness of 100/300: expected 0.8, got %g",
	      json_real_value(json_object_get(r, "fairness")));
	CHECK(json_integer_value(json_object_get(r, "size")) == 4096, "size: expected 4096");
	CHECK(json_is_null(
		      json_object_get(json_array_get(json_object_get(r, "per_thread"), 1), "cpu")),
	      "per_thread[1].cpu: expected null for an unpinned thread");
	json_decref(r);
	bench_series_free(&s);
}

static double member(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/*
 * machine_state: two intervals summed, the others' share derived; a run's own
 * interval sampled around it; without /proc the /proc figures null.
 */
static void machine_state_sums_intervals_and_nulls_without_proc(void)
{
	struct bench_machine a = {.intervals = 1,
				  .proc_ok = true,
				  .cpus = 2,
				  .load_start = 1.5,
				  .load_end = 2,
				  .wall_s = 1,
				  .busy_s = 1.2,
				  .steal_s = 0.1,
				  .own_cpu_s = 0.6};
	struct bench_machine b = a, sum = {0};
	const struct bench_params p = {.threads = 2};
	const struct bench_pin pin = {.mode = BENCH_PIN_AUTO};
	struct bench_run run;
	json_t *o;

	b.load_start = 3;
	b.load_end = 4;
	bench_machine_add(&sum, &a);
	bench_machine_add(&sum, &b);
	o = bench_machine_json(&sum);
	/* others: (2.4 - 1.2) busy + 0.2 steal over 2 s x 2 CPUs = 0.35 */
	CHECK(near(member(o, "others_busy_fraction"), 0.35),
	      "others_busy_fraction: expected 0.35, got %g", member(o, "others_busy_fraction"));
	CHECK(json_integer_value(json_object_get(o, "intervals")) == 2 &&
		      near(member(o, "wall_s"), 2) && near(member(o, "bench_cpu_s"), 1.2),
	      "expected 2 intervals, wall 2 s, bench CPU 1.2 s");
	CHECK(near(member(json_object_get(o, "loadavg"), "start"), 1.5) &&
		      near(member(json_object_get(o, "loadavg"), "end"), 4),
	      "loadavg: expected the first start (1.5) and the last end (4)");
	json_decref(o);

	sum.proc_ok = false;
	o = bench_machine_json(&sum);
	CHECK(json_is_null(json_object_get(o, "busy_s")) &&
		      json_is_null(json_object_get(o, "others_busy_fraction")) &&
		      json_is_null(json_object_get(json_object_get(o, "loadavg"), "start")),
	      "without /proc: expected busy_s, others_busy_fraction, loadavg null");
	CHECK(near(member(o, "bench_cpu_s"), 1.2), "without /proc: expected bench_cpu_s still");
	json_decref(o);

	CHECK(bench_measure(&spin_subjects[0], &p, 2, &pin, 0.05, &run) == 0,
	      "expected the run to work");
	if (!run.ops)
		return;
	CHECK(run.machine.intervals == 1 && run.machine.wall_s * 1e9 >= run.elapsed_ns &&
		      run.machine.wall_s < 5,
	      "the run's interval: expected one, at least the run's %g ns, got %u, %g s",
	      run.elapsed_ns, run.machine.intervals, run.machine.wall_s);
	CHECK(run.machine.own_cpu_s > 0 && run.machine.own_cpu_s <= run.machine.wall_s * 2 + 0.02,
	      "the run's CPU time: expected (0, 2 x %g s], got %g s", run.machine.wall_s,
	      run.machine.own_cpu_s);
	bench_run_free(&run);
	CHECK(bench_timer_resolution_ns() > 0 && bench_timer_resolution_ns() < 1e7,
	      "timer resolution: expected (0, 10 ms), got %g ns", bench_timer_resolution_ns());
}

int main(void)
{
	if (bench_topology_init())
		return 1;
	stats_are_median_min_max_and_relative_range();
	jain_is_one_when_equal_and_one_over_n_when_one_thread_does_all();
	placement_wraps_and_auto_starts_with_distinct_cpus();
	threads_run_for_the_duration_and_all_count();
	a_failed_check_is_reported_with_its_reason();
	processes_run_for_the_duration_and_all_count();
	a_failed_or_dead_worker_process_fails_the_run();
	repetitions_interleave_subjects();
	slices_alternate_within_a_repetition();
	extra_repetitions_alternate_as_the_planned();
	extra_repetitions_take_their_slices_by_turns();
	subjects_option_selects_by_name();
	selftests_run_only_when_named();
	attempts_quantiles_are_exact_below_256_and_the_max_beyond();
	latency_quantiles_are_within_3_percent_and_never_above_the_max();
	result_has_every_common_field();
	machine_state_sums_intervals_and_nulls_without_proc();
	bench_topology_fini();
	return check_end("all harness checks passed");
}
