/* SPDX-License-Identifier: MIT */
/*
 * tune_rule.h - the decision rule of `hotline-bench zero --tune`: from
 * paired per-repetition ratios at each size of a grid, hot and cold, where
 * hl_zero's automatic plan should switch (vec_max, rep_max). Pure
 * functions of the figures, so tests/bench/test_tune_rule.c can hand them
 * synthetic ratios; scenarios/zero_tune.c measures and calls them.
 *
 * The statistics are the report's (decide.h: the median of the paired
 * ratios and its order-statistic interval at 95%, or the widest there is
 * with fewer repetitions; one repetition: the value itself). The rule, as
 * bench/README.md ("zero --tune") states it:
 *
 *  - vec_max: the largest grid size s such that, at every grid size up to
 *    s, the vector variant is not 3% slower than rep_stosb hot (median
 *    ratio >= 0.97, or its interval reaches 0.97) and not below 0.95x cold
 *    (the same with 0.95). If it loses at the smallest size, that size
 *    (and a note).
 *  - rep_max: streaming stores start at the smallest grid size from which
 *    nontemporal beats rep_stosb by more than 3% (median ratio and the
 *    whole interval above 1.03) hot and cold, at that size and every larger one; rep_max is the
 *    grid size just below it; if nontemporal does not beat rep_stosb at the
 *    largest size, SIZE_MAX (max: no streaming class).
 *
 * A tie keeps the class already in force at the smaller sizes: a class
 * gives way only to one that is clearly better, by more than 3%. A mode not measured at a
 * size (--mode, or cold beyond half the arena) sets no condition there.
 */
#ifndef HOTLINE_BENCH_TUNE_RULE_H
#define HOTLINE_BENCH_TUNE_RULE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How much better a class must be to take sizes from the one in force: 3%.
 * Below that the choice costs nothing either way, and a tight interval
 * just under 1 (avx512 against rep_stosb from 64 KiB to 2 MiB on a Zen 4,
 * 0.98x [0.97, 0.99]) would otherwise move vec_max by 16x from one run to
 * the next.
 */
#define BENCH_TUNE_HOT_FLOOR  0.97 /* vec_max: the vector variant's least ratio hot */
#define BENCH_TUNE_COLD_FLOOR 0.95 /* vec_max: the vector variant's least ratio cold */
#define BENCH_TUNE_NT_WINS    1.03 /* rep_max: nontemporal's least clear win, hot and cold */
#define BENCH_TUNE_MAX_GRID   64   /* sizes in one grid, at most */

/* One grid size: the ratios first/second of GB/s, one per repetition both ran. */
struct bench_tune_point {
	size_t size;
	const double *hot, *cold; /* NULL or nr 0: that mode was not measured */
	size_t nr_hot, nr_cold;
};

/* A mode's ratios summed up (n 0: not measured). */
struct bench_tune_side {
	size_t n;
	double median, lo, hi, level; /* one value: lo = hi = median, level 0 */
};

void bench_tune_side(const double *v, size_t n, struct bench_tune_side *s);
/* Not below t: the median is at least t or the interval reaches t. True if not measured. */
bool bench_tune_not_below(const struct bench_tune_side *s, double t);
/* Clearly above t: the median and the whole interval above t. False if not measured. */
bool bench_tune_above(const struct bench_tune_side *s, double t);

/* Whether the vector variant keeps size p (vec_max's rule at one size). */
bool bench_tune_vec_keeps(const struct bench_tune_point *p);
/* Whether nontemporal beats rep_stosb at p (rep_max's rule at one size). */
bool bench_tune_nt_beats(const struct bench_tune_point *p);

struct bench_tune_result {
	size_t value; /* bytes; SIZE_MAX: max */
	size_t at;    /* the grid index that decided (the first loss, the streaming start), */
		      /* or the number of points when none did */
	char why[200];
};

/*
 * vec_max from p[0..n) (ascending sizes; ratios: the vector variant /
 * rep_stosb). names[0], names[1]: the two variants, for the why.
 */
void bench_tune_vec_max(const struct bench_tune_point *p, size_t n, const char *const names[2],
			struct bench_tune_result *r);

/*
 * rep_max from p[0..n) (ratios: nontemporal / rep_stosb). When nontemporal
 * wins from p[0] on, rep_max is below, the grid step under p[0] (not
 * measured: the why says so). names as for vec_max (nontemporal, rep_stosb).
 */
void bench_tune_rep_max(const struct bench_tune_point *p, size_t n, size_t below,
			const char *const names[2], struct bench_tune_result *r);

/*
 * The grid: every power of two and every 1.5 x a power of two from lo to
 * hi (both included when on it), ascending, into out (room for max);
 * returns how many. And the grid step just below x (x > 1).
 */
size_t bench_tune_grid(size_t lo, size_t hi, size_t *out, size_t max);
size_t bench_tune_grid_below(size_t x);

#endif /* HOTLINE_BENCH_TUNE_RULE_H */
