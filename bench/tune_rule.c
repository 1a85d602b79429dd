// SPDX-License-Identifier: MIT
/*
 * tune_rule.c - zero --tune's decision rule: vec_max and rep_max from
 * paired ratios per grid size, hot and cold, and the size grid
 * (tune_rule.h states the rule).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decide.h"
#include "harness.h"
#include "tune_rule.h"

void bench_tune_side(const double *v, size_t n, struct bench_tune_side *s)
{
	*s = (struct bench_tune_side){.n = v ? n : 0};
	if (!s->n)
		return;
	s->median = bench_median(v, n);
	if (n < 2) {
		s->lo = s->hi = s->median;
		return;
	}
	bench_median_interval(v, n, BENCH_LEVEL, &s->lo, &s->hi, &s->level);
}

bool bench_tune_not_below(const struct bench_tune_side *s, double t)
{
	return !s->n || s->median >= t || s->hi >= t;
}

bool bench_tune_above(const struct bench_tune_side *s, double t)
{
	return s->n && s->median > t && s->lo > t;
}

bool bench_tune_vec_keeps(const struct bench_tune_point *p)
{
	struct bench_tune_side hot, cold;

	bench_tune_side(p->hot, p->nr_hot, &hot);
	bench_tune_side(p->cold, p->nr_cold, &cold);
	return bench_tune_not_below(&hot, BENCH_TUNE_HOT_FLOOR) &&
	       bench_tune_not_below(&cold, BENCH_TUNE_COLD_FLOOR);
}

bool bench_tune_nt_beats(const struct bench_tune_point *p)
{
	struct bench_tune_side hot, cold;

	bench_tune_side(p->hot, p->nr_hot, &hot);
	bench_tune_side(p->cold, p->nr_cold, &cold);
	if (!hot.n && !cold.n)
		return false;
	return (!hot.n || bench_tune_above(&hot, BENCH_TUNE_NT_WINS)) &&
	       (!cold.n || bench_tune_above(&cold, BENCH_TUNE_NT_WINS));
}

void bench_tune_vec_max(const struct bench_tune_point *p, size_t n, const char *const names[2],
			struct bench_tune_result *r)
{
	size_t i = 0;

	*r = (struct bench_tune_result){.value = n ? p[n - 1].size : SIZE_MAX, .at = n};
	if (!n) {
		snprintf(r->why, sizeof(r->why), "no size measured");
		return;
	}
	while (i < n && bench_tune_vec_keeps(&p[i]))
		i++;
	r->at = i;
	if (i == n) {
		snprintf(
			r->why, sizeof(r->why),
			"%s holds against %s (hot >= 0.97x, cold >= 0.95x, or its interval reaches "
			"it) at every size measured, up to the largest, %zu",
			names[0], names[1], p[n - 1].size);
	} else if (i == 0) {
		r->value = p[0].size;
		snprintf(r->why, sizeof(r->why),
			 "note: %s loses to %s already at the smallest size measured, %zu: "
			 "vec_max is that size",
			 names[0], names[1], p[0].size);
	} else {
		r->value = p[i - 1].size;
		snprintf(
			r->why, sizeof(r->why),
			"%s holds against %s (hot >= 0.97x, cold >= 0.95x, or its interval reaches "
			"it) at every size up to %zu, not at %zu",
			names[0], names[1], p[i - 1].size, p[i].size);
	}
}

void bench_tune_rep_max(const struct bench_tune_point *p, size_t n, size_t below,
			const char *const names[2], struct bench_tune_result *r)
{
	size_t start = n;

	while (start > 0 && bench_tune_nt_beats(&p[start - 1]))
		start--;
	*r = (struct bench_tune_result){.value = SIZE_MAX, .at = start};
	if (start == n) {
		snprintf(r->why, sizeof(r->why),
			 "%s does not beat %s hot and cold at the largest size measured%s: no "
			 "streaming class",
			 names[0], names[1], n ? "" : " (none)");
	} else if (start == 0) {
		r->value = below;
		snprintf(r->why, sizeof(r->why),
			 "note: %s beats %s from the smallest size measured, %zu, on: rep_max is "
			 "the grid step below it, %zu, not measured",
			 names[0], names[1], p[0].size, below);
	} else {
		r->value = p[start - 1].size;
		snprintf(r->why, sizeof(r->why), "%s beats %s hot and cold from %zu on, not at %zu",
			 names[0], names[1], p[start].size, p[start - 1].size);
	}
}

size_t bench_tune_grid(size_t lo, size_t hi, size_t *out, size_t max)
{
	size_t n = 0;

	for (size_t p = 1; p && p <= hi && n < max; p <<= 1) {
		if (p >= lo)
			out[n++] = p;
		if (p >= 2 && p + p / 2 >= lo && p + p / 2 <= hi && n < max)
			out[n++] = p + p / 2;
		if (p > SIZE_MAX / 2)
			break;
	}
	return n;
}

size_t bench_tune_grid_below(size_t x)
{
	size_t best = 1;

	for (size_t p = 1; p && p < x; p <<= 1) {
		best = p;
		if (p >= 2 && p + p / 2 < x)
			best = p + p / 2;
		if (p > SIZE_MAX / 2)
			break;
	}
	return best;
}
