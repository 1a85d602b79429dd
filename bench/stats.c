// SPDX-License-Identifier: MIT
/*
 * stats.c - statistics over repetitions: median, spread, and the series
 * of one subject's figures (ns/op, ops/s, GB/s, fairness) that results
 * are made from. See harness.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tool.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

void bench_stats(const double *v, size_t n, struct bench_stats *st)
{
	st->min = st->max = n ? v[0] : NAN;
	for (size_t i = 1; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (v[i] > st->max)
			st->max = v[i];
	}
	st->median = bench_median(v, n);
	st->rel_spread = st->median != 0 ? (st->max - st->min) / st->median : 0;
}

int bench_series_init(struct bench_series *s, unsigned int reps, unsigned int threads)
{
	*s = (struct bench_series){.cap = reps, .threads = threads};
	s->ns_per_op = calloc(reps, sizeof(double));
	s->ops_per_sec = calloc(reps, sizeof(double));
	s->gb_per_sec = calloc(reps, sizeof(double));
	s->fairness = calloc(reps, sizeof(double));
	s->cpus = calloc(threads, sizeof(int));
	s->thread_ops = calloc((size_t)reps * threads, sizeof(uint64_t));
	if (!s->ns_per_op || !s->ops_per_sec || !s->gb_per_sec || !s->fairness || !s->cpus ||
	    !s->thread_ops) {
		bench_series_free(s);
		bench_error("out of memory");
		return -1;
	}
	return 0;
}

void bench_series_add(struct bench_series *s, const struct bench_run *r, double bytes_per_op)
{
	unsigned int i = s->n;
	double secs = r->elapsed_ns / 1e9;

	if (i >= s->cap || r->threads != s->threads)
		return;
	s->ns_per_op[i] = r->total_ops ? r->elapsed_ns / (double)r->total_ops : NAN;
	s->ops_per_sec[i] = secs > 0 ? (double)r->total_ops / secs : NAN;
	s->gb_per_sec[i] = s->ops_per_sec[i] * bytes_per_op / 1e9;
	s->has_gb = bytes_per_op > 0;
	s->fairness[i] = tool_jain(r->ops, r->threads);
	memcpy(s->cpus, r->cpus, r->threads * sizeof(int));
	memcpy(&s->thread_ops[(size_t)i * s->threads], r->ops, r->threads * sizeof(uint64_t));
	bench_machine_add(&s->machine, &r->machine);
	s->n++;
}

void bench_series_add_sliced(struct bench_series *s, struct bench_run *r, double bytes_per_op,
			     const struct bench_machine_sample *start)
{
	struct bench_machine_sample end;

	bench_machine_sample(&end);
	bench_machine_interval(&r->machine, start, &end);
	bench_series_add(s, r, bytes_per_op);
}

void bench_series_free(struct bench_series *s)
{
	free(s->ns_per_op);
	free(s->ops_per_sec);
	free(s->gb_per_sec);
	free(s->fairness);
	free(s->cpus);
	free(s->thread_ops);
	*s = (struct bench_series){0};
}
