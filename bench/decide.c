// SPDX-License-Identifier: MIT
/*
 * decide.c - the verdict rule of tools/hotline_report/stats.py, in C, so
 * that hotline-bench --until-decided stops exactly when the report would
 * give a verdict. See decide.h.
 *
 * This file mirrors stats.py; tests/bench/decide_agrees.py runs both on the
 * same values (every n from 1 to 60 and beyond, and the series of
 * tests/report/fixtures/verdicts.json against many thresholds) and fails on
 * any difference of ranks, levels or verdicts. Change one, change the other.
 *
 * The interval: for n values sorted x(1) <= ... <= x(n), the pair
 * (x(k), x(n+1-k)) covers the true median with probability
 * 1 - 2 P(Bin(n, 1/2) <= k - 1), whatever the distribution (the values
 * being independent draws of the same thing). stats.py takes that
 * probability from scipy's binomial CDF; here it is summed directly:
 * P(Bin(n, 1/2) <= m) = sum over i <= m of C(n, i) / 2^n, each term
 * exp(log C(n, i) - n log 2) with log C(n, i) built up term by term, so
 * that nothing overflows at any n. The sum is good to about 1e-13; the
 * exact levels never come within 1e-6 of 95% for n up to 2000 (checked
 * with exact fractions when this was written), so the rank chosen is the
 * exact one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "harness.h"

const char *bench_verdict_text(enum bench_verdict v)
{
	switch (v) {
	case BENCH_HOLDS: return "holds";
	case BENCH_DOES_NOT_HOLD: return "does not hold";
	case BENCH_CANNOT_TELL: return "cannot tell at this noise";
	default: return NULL;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of v[0..n), or NULL (out of memory; n == 0 gives a 1-element buffer). */
static double *sorted_copy(const double *v, size_t n)
{
	double *x = malloc((n ? n : 1) * sizeof(*x));

	if (!x)
		return NULL;
	memcpy(x, v, n * sizeof(*x));
	qsort(x, n, sizeof(*x), cmp_double);
	return x;
}

size_t bench_median_interval(const double *v, size_t n, double level, double *lo, double *hi,
			     double *achieved)
{
	double *x, log_c = 0, cdf = 0, best_lo = NAN, best_hi = NAN, best_level = 0;
	const double log_half_n = (double)n * log(2.0);
	size_t best = 0;

	*lo = *hi = NAN;
	*achieved = 0;
	if (n < 2)
		return 0;
	x = sorted_copy(v, n);
	if (!x)
		return 0;
	/* k = 1 is (min, max), the widest; cdf is P(Bin(n, 1/2) <= k - 1). */
	for (size_t k = 1; k <= n / 2; k++) {
		double a;

		if (k > 1)
			log_c += log((double)(n - k + 2)) - log((double)(k - 1));
		cdf += exp(log_c - log_half_n);
		a = 1.0 - 2.0 * cdf;
		if (k == 1 || a >= level) {
			best = k;
			best_lo = x[k - 1];
			best_hi = x[n - k];
			best_level = a;
		}
		if (a < level)
			break;
	}
	free(x);
	*lo = best_lo;
	*hi = best_hi;
	*achieved = best_level;
	return best;
}

bool bench_bimodal(const double *v, size_t n, double *low_max, double *high_min)
{
	double *x, gap = -INFINITY, spread, med;
	size_t at = 0;
	bool split;

	if (n < 4)
		return false;
	x = sorted_copy(v, n);
	if (!x)
		return false;
	/* The largest gap, the first of equals (numpy's argmax): between x[at] and x[at + 1]. */
	for (size_t i = 0; i + 1 < n; i++) {
		if (x[i + 1] - x[i] > gap) {
			gap = x[i + 1] - x[i];
			at = i;
		}
	}
	if (at + 1 < 2 || n - (at + 1) < 2) {
		free(x);
		return false;
	}
	spread = fmax(x[at] - x[0], x[n - 1] - x[at + 1]);
	med = fabs(n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2);
	split = gap > BENCH_GAP_K * spread && gap > BENCH_GAP_MIN_REL * med;
	if (split && low_max)
		*low_max = x[at];
	if (split && high_min)
		*high_min = x[at + 1];
	free(x);
	return split;
}

static bool claim_holds(double v, double threshold, bool higher)
{
	return higher ? v >= threshold : v <= threshold;
}

void bench_judge(const double *v, size_t n, double threshold, bool higher,
		 struct bench_judgement *j)
{
	double low_max = NAN, high_min = NAN;
	bool lo_ok, hi_ok;

	*j = (struct bench_judgement){.n = n, .median = bench_median(v, n)};
	bench_median_interval(v, n, BENCH_LEVEL, &j->lo, &j->hi, &j->level);
	j->bimodal = bench_bimodal(v, n, &low_max, &high_min);
	if (isnan(threshold)) {
		j->verdict = BENCH_NO_VERDICT;
		return;
	}
	j->verdict = BENCH_CANNOT_TELL;
	if (n < 2) {
		snprintf(j->why, sizeof(j->why), "one repetition: no interval");
		return;
	}
	if (j->level < BENCH_MIN_LEVEL) {
		snprintf(j->why, sizeof(j->why),
			 "%zu repetitions: the interval reaches only %.1f%%", n, 100 * j->level);
		return;
	}
	if (j->bimodal &&
	    claim_holds(low_max, threshold, higher) != claim_holds(high_min, threshold, higher)) {
		snprintf(j->why, sizeof(j->why),
			 "its two clusters lie on both sides of the threshold");
		return;
	}
	lo_ok = claim_holds(j->lo, threshold, higher);
	hi_ok = claim_holds(j->hi, threshold, higher);
	if (lo_ok && hi_ok)
		j->verdict = BENCH_HOLDS;
	else if (!lo_ok && !hi_ok)
		j->verdict = BENCH_DOES_NOT_HOLD;
	else
		snprintf(j->why, sizeof(j->why), "the interval straddles the threshold");
}
