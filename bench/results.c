// SPDX-License-Identifier: MIT
/*
 * results.c - the JSON of one result: the fields every scenario's results
 * share, made from a subject's series. See harness.h.
 */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

json_t *bench_json_reals(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, isfinite(v[i]) ? json_real(v[i]) : json_null());
	return a;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *per_thread_json(const struct bench_series *s)
{
	json_t *a = json_array();
	double *ops = calloc(s->n ? s->n : 1, sizeof(*ops));
	double median;
	json_t *cpu;

	for (unsigned int t = 0; t < s->threads; t++) {
		for (unsigned int i = 0; ops && i < s->n; i++)
			ops[i] = (double)s->thread_ops[(size_t)i * s->threads + t];
		median = ops ? bench_median(ops, s->n) : 0;
		cpu = s->cpus[t] >= 0 ? json_integer(s->cpus[t]) : json_null();
		json_array_append_new(
			a, json_pack("{s:o, s:I}", "cpu", cpu, "ops", (json_int_t)llround(median)));
	}
	free(ops);
	return a;
}

json_t *bench_result_json(const char *scenario, const char *subject, const struct bench_series *s,
			  enum bench_headline headline, size_t size, unsigned int retry_limit)
{
	static const char *const headline_name[] = {
		[BENCH_HEADLINE_NS_PER_OP] = "ns_per_op",
		[BENCH_HEADLINE_OPS_PER_SEC] = "ops_per_sec",
		[BENCH_HEADLINE_GB_PER_SEC] = "gb_per_sec",
	};
	const double *runs = headline == BENCH_HEADLINE_NS_PER_OP     ? s->ns_per_op
			     : headline == BENCH_HEADLINE_OPS_PER_SEC ? s->ops_per_sec
								      : s->gb_per_sec;
	struct bench_stats st;
	json_t *r = json_object();

	bench_stats(runs, s->n, &st);
	json_object_set_new(r, "scenario", json_string(scenario));
	json_object_set_new(r, "subject", json_string(subject));
	json_object_set_new(r, "threads", json_integer(s->threads));
	json_object_set_new(r, "size", size ? json_integer((json_int_t)size) : json_null());
	json_object_set_new(r, "retry_limit",
			    retry_limit ? json_integer(retry_limit) : json_null());
	json_object_set_new(r, "ops_per_sec", real_or_null(bench_median(s->ops_per_sec, s->n)));
	json_object_set_new(r, "ns_per_op", real_or_null(bench_median(s->ns_per_op, s->n)));
	json_object_set_new(r, "gb_per_sec",
			    s->has_gb ? real_or_null(bench_median(s->gb_per_sec, s->n))
				      : json_null());
	json_object_set_new(r, "headline", json_string(headline_name[headline]));
	json_object_set_new(r, "runs", bench_json_reals(runs, s->n));
	json_object_set_new(r, "spread",
			    json_pack("{s:o, s:o, s:o, s:o}", "min", real_or_null(st.min), "max",
				      real_or_null(st.max), "median", real_or_null(st.median),
				      "rel_spread", real_or_null(st.rel_spread)));
	json_object_set_new(r, "per_thread", per_thread_json(s));
	json_object_set_new(r, "fairness", real_or_null(bench_median(s->fairness, s->n)));
	json_object_set_new(r, "machine_state", bench_machine_json(&s->machine));
	json_object_set_new(r, "timer_resolution_ns", json_real(bench_timer_resolution_ns()));
	return r;
}
