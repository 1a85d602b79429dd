/* SPDX-License-Identifier: MIT */
/*
 * decide.h - the verdict rule of hotline-report's stats.py, in C: the
 * exact order-statistic interval for the median of paired per-repetition
 * values, the gap test for bimodal series, and the three-valued verdict of
 * such an interval against a threshold.
 *
 * decide.c mirrors tools/hotline_report/stats.py line for line (the same
 * levels, the same ranks, the same bimodality rule, the same minimum number
 * of repetitions, the same words); tests/bench/decide_agrees.py holds the
 * two together. Change one, change the other.
 */
#ifndef HOTLINE_BENCH_DECIDE_H
#define HOTLINE_BENCH_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#define BENCH_LEVEL	  0.95 /* stats.LEVEL: the level asked of every interval */
#define BENCH_MIN_LEVEL	  0.90 /* stats.MIN_LEVEL: below it (n <= 4), no verdict */
#define BENCH_GAP_K	  2.0  /* stats.GAP_K */
#define BENCH_GAP_MIN_REL 0.05 /* stats.GAP_MIN_REL */

enum bench_verdict {
	BENCH_NO_VERDICT, /* a figure with no claim (no threshold) */
	BENCH_HOLDS,
	BENCH_DOES_NOT_HOLD,
	BENCH_CANNOT_TELL,
};

/* stats.HOLDS, stats.DOES_NOT_HOLD, stats.CANNOT_TELL; NULL for BENCH_NO_VERDICT. */
const char *bench_verdict_text(enum bench_verdict v);

/*
 * stats.median_interval: the interval (x(k), x(n+1-k)) of the n values
 * sorted, for the narrowest k whose level 1 - 2 P(Bin(n, 1/2) <= k - 1)
 * reaches level, else k = 1 (min, max) with the level it achieves. Returns
 * k (1-based), 0 for fewer than two values (*lo, *hi NaN, *achieved 0).
 */
size_t bench_median_interval(const double *v, size_t n, double level, double *lo, double *hi,
			     double *achieved);

/*
 * stats.bimodal: whether the n values split into two clusters by the gap
 * test; *low_max and *high_min (when not NULL) get the largest value of the
 * low cluster and the smallest of the high one.
 */
bool bench_bimodal(const double *v, size_t n, double *low_max, double *high_min);

/* stats.Comparison: the paired values judged against a threshold. */
struct bench_judgement {
	size_t n;
	double median;
	double lo, hi, level; /* NaN, NaN, 0 for fewer than two values */
	bool bimodal;
	enum bench_verdict verdict;
	char why[96]; /* stats.Comparison.why: "" unless the verdict is cannot tell */
};

/*
 * Judge v[0..n) against threshold: the claim is value >= threshold when
 * higher, else value <= threshold. A NaN threshold: a figure, no verdict.
 */
void bench_judge(const double *v, size_t n, double threshold, bool higher,
		 struct bench_judgement *j);

#endif /* HOTLINE_BENCH_DECIDE_H */
