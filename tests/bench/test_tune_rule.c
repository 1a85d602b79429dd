// SPDX-License-Identifier: MIT
/*
 * test_tune_rule.c - zero --tune's decision rule (bench/tune_rule.c) on
 * synthetic paired ratios: where vec_max and rep_max land when the vector
 * variant always wins, loses from the start or at one size, when
 * nontemporal never loses, never wins or wins hot only, with ties, noise,
 * one repetition and a mode not measured; and the size grid.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tune_rule.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define REPS	5
#define KIB	((size_t)1 << 10)
#define MIB	((size_t)1 << 20)

/* Ratios of five repetitions, all near a value: a clear case. */
static const double clear_win[REPS] = {1.30, 1.28, 1.33, 1.31, 1.29};
static const double clear_loss[REPS] = {0.70, 0.72, 0.69, 0.71, 0.73};
static const double cold_dip[REPS] = {0.90, 0.91, 0.89, 0.92, 0.90}; /* below 0.95 */
static const double cold_ok[REPS] = {0.96, 0.97, 0.93, 0.98, 0.96};  /* at 0.95, not below */
/* A noisy tie: the median under 1, the interval across it. */
static const double noisy_tie[REPS] = {0.97, 1.03, 0.99, 1.01, 0.98};
/* Just above 1 in the median, yet one repetition below: not a clear win. */
static const double tie_above[REPS] = {1.02, 1.04, 0.99, 1.03, 1.05};

static const char *const vec_names[2] = {"avx512", "rep_stosb"};
static const char *const rep_names[2] = {"nontemporal", "rep_stosb"};

static struct bench_tune_point pt(size_t size, const double *hot, const double *cold)
{
	return (struct bench_tune_point){
		.size = size,
		.hot = hot,
		.nr_hot = hot ? REPS : 0,
		.cold = cold,
		.nr_cold = cold ? REPS : 0,
	};
}

static size_t vec(const struct bench_tune_point *p, size_t n, size_t *at)
{
	struct bench_tune_result r;

	bench_tune_vec_max(p, n, vec_names, &r);
	if (at)
		*at = r.at;
	printf("vec_max %zu: %s\n", r.value, r.why);
	return r.value;
}

static size_t rep(const struct bench_tune_point *p, size_t n, size_t below)
{
	struct bench_tune_result r;

	bench_tune_rep_max(p, n, below, rep_names, &r);
	printf("rep_max %zu: %s\n", r.value, r.why);
	return r.value;
}

static void vector_always_wins_gives_the_largest_size(void)
{
	struct bench_tune_point p[] = {pt(64 * KIB, clear_win, clear_win),
				       pt(128 * KIB, clear_win, cold_ok),
				       pt(256 * KIB, clear_win, clear_win)};
	size_t at;

	CHECK(vec(p, N_OF(p), &at) == 256 * KIB, "expected the largest grid size");
	CHECK(at == N_OF(p), "at %zu, expected none (%zu)", at, N_OF(p));
}

static void vector_loses_hot_at_one_size(void)
{
	struct bench_tune_point p[] = {
		pt(64 * KIB, clear_win, clear_win), pt(96 * KIB, clear_win, clear_win),
		pt(128 * KIB, clear_loss, clear_win), pt(192 * KIB, clear_win, clear_win)};
	size_t at;

	/* every size up to s must be kept: a win after the loss does not count */
	CHECK(vec(p, N_OF(p), &at) == 96 * KIB, "expected the size before the loss");
	CHECK(at == 2, "at %zu, expected 2", at);
}

static void vector_cold_below_the_floor_loses(void)
{
	struct bench_tune_point p[] = {pt(64 * KIB, clear_win, cold_ok),
				       pt(128 * KIB, clear_win, cold_dip),
				       pt(256 * KIB, clear_win, clear_win)};

	CHECK(vec(p, N_OF(p), NULL) == 64 * KIB, "a cold ratio under 0.95 must end the class");
}

static void vector_never_wins_gives_the_smallest_size_with_a_note(void)
{
	struct bench_tune_point p[] = {pt(64 * KIB, clear_loss, clear_loss),
				       pt(128 * KIB, clear_loss, clear_loss)};
	struct bench_tune_result r;

	bench_tune_vec_max(p, N_OF(p), vec_names, &r);
	CHECK(r.value == 64 * KIB, "vec_max %zu, expected the smallest size", r.value);
	CHECK(r.at == 0 && strstr(r.why, "note:"), "expected a note: '%s'", r.why);
}

static void vector_noisy_tie_keeps_the_vector(void)
{
	struct bench_tune_point p[] = {pt(64 * KIB, clear_win, clear_win),
				       pt(128 * KIB, noisy_tie, noisy_tie),
				       pt(256 * KIB, clear_loss, noisy_tie)};

	CHECK(vec(p, N_OF(p), NULL) == 128 * KIB, "a tie must keep the vector variant");
}

/*
 * A margin of 3% both ways: a tight 0.98 (every repetition under 1) keeps
 * the vector variant, a tight 1.02 does not start streaming; 0.96 and
 * 1.04 do switch.
 */
static void small_differences_do_not_switch(void)
{
	static const double tight_098[REPS] = {0.979, 0.981, 0.98, 0.978, 0.982};
	static const double tight_096[REPS] = {0.959, 0.961, 0.96, 0.958, 0.962};
	static const double tight_102[REPS] = {1.019, 1.021, 1.02, 1.018, 1.022};
	static const double tight_104[REPS] = {1.039, 1.041, 1.04, 1.038, 1.042};
	struct bench_tune_point v[] = {pt(64 * KIB, clear_win, clear_win),
				       pt(128 * KIB, tight_098, tight_098),
				       pt(256 * KIB, tight_096, clear_win)};
	struct bench_tune_point r[] = {pt(16 * MIB, tight_102, tight_104),
				       pt(32 * MIB, tight_104, tight_104)};

	CHECK(vec(v, N_OF(v), NULL) == 128 * KIB, "0.98x hot is within the margin, 0.96x not");
	CHECK(rep(r, N_OF(r), 12 * MIB) == 16 * MIB,
	      "1.02x hot is within the margin: streaming from 32M, not 16M");
}

static void rep_never_loses_gives_max(void)
{
	struct bench_tune_point p[] = {pt(8 * MIB, clear_loss, clear_loss),
				       pt(32 * MIB, clear_loss, clear_loss),
				       pt(256 * MIB, noisy_tie, clear_loss)};

	CHECK(rep(p, N_OF(p), 6 * MIB) == SIZE_MAX, "expected max (no streaming class)");
}

static void rep_streaming_from_where_it_wins_hot_and_cold_to_the_end(void)
{
	struct bench_tune_point p[] = {
		pt(8 * MIB, clear_loss, clear_win),  /* cold only: below the cache */
		pt(16 * MIB, clear_win, clear_win),  /* wins both, but ... */
		pt(24 * MIB, clear_loss, clear_win), /* ... not at every larger size */
		pt(32 * MIB, clear_win, clear_win),  pt(64 * MIB, clear_win, clear_win),
		pt(128 * MIB, clear_win, NULL), /* cold not measured: hot stands alone */
	};

	CHECK(rep(p, N_OF(p), 6 * MIB) == 24 * MIB, "expected the size below 32M");
}

static void rep_wins_everywhere_gives_the_step_below(void)
{
	struct bench_tune_point p[] = {pt(8 * MIB, clear_win, clear_win),
				       pt(16 * MIB, clear_win, clear_win)};
	struct bench_tune_result r;

	bench_tune_rep_max(p, N_OF(p), 6 * MIB, rep_names, &r);
	CHECK(r.value == 6 * MIB && r.at == 0, "rep_max %zu at %zu, expected 6M at 0", r.value,
	      r.at);
	CHECK(strstr(r.why, "note:") != NULL, "expected a note: '%s'", r.why);
}

static void rep_tie_keeps_rep_stosb(void)
{
	struct bench_tune_point p[] = {pt(8 * MIB, clear_win, clear_win),
				       pt(16 * MIB, tie_above, clear_win),
				       pt(32 * MIB, clear_win, noisy_tie)};

	CHECK(rep(p, N_OF(p), 6 * MIB) == SIZE_MAX,
	      "nontemporal must win clearly at the largest size");
	p[2] = pt(32 * MIB, clear_win, clear_win);
	CHECK(rep(p, N_OF(p), 6 * MIB) == 16 * MIB, "a tie at 16M keeps rep_stosb there");
}

static void one_repetition_is_its_own_interval(void)
{
	const double up = 1.01, down = 0.96, floor_ok = 0.951;
	struct bench_tune_point p[] = {
		{.size = 64 * KIB, .hot = &up, .nr_hot = 1, .cold = &floor_ok, .nr_cold = 1},
		{.size = 128 * KIB, .hot = &down, .nr_hot = 1, .cold = &up, .nr_cold = 1},
	};
	struct bench_tune_side s;

	bench_tune_side(&down, 1, &s);
	CHECK(s.n == 1 && s.lo == down && s.hi == down && s.median == down,
	      "one value: lo %g hi %g median %g", s.lo, s.hi, s.median);
	CHECK(vec(p, N_OF(p), NULL) == 64 * KIB, "0.96 hot with one repetition is a loss");
	CHECK(rep(p, N_OF(p), 48 * KIB) == SIZE_MAX, "0.96 hot: nontemporal does not win");
}

static void modes_not_measured_set_no_condition(void)
{
	struct bench_tune_point hot_only[] = {pt(64 * KIB, clear_win, NULL),
					      pt(128 * KIB, clear_win, NULL)};
	struct bench_tune_point none[] = {pt(8 * MIB, NULL, NULL)};

	CHECK(vec(hot_only, N_OF(hot_only), NULL) == 128 * KIB, "hot alone decides");
	CHECK(rep(hot_only, N_OF(hot_only), 48 * KIB) == 48 * KIB, "hot alone decides");
	CHECK(rep(none, N_OF(none), 6 * MIB) == SIZE_MAX, "nothing measured: no streaming");
	CHECK(vec(NULL, 0, NULL) == SIZE_MAX, "no size: max");
}

static void grid_is_powers_of_two_and_midpoints(void)
{
	size_t g[BENCH_TUNE_MAX_GRID], n;
	const size_t l2[] = {64 * KIB,	96 * KIB,  128 * KIB, 192 * KIB,   256 * KIB, 384 * KIB,
			     512 * KIB, 768 * KIB, 1 * MIB,   3 * MIB / 2, 2 * MIB};

	n = bench_tune_grid(64 * KIB, 2 * MIB, g, N_OF(g));
	CHECK(n == N_OF(l2) && memcmp(g, l2, sizeof(l2)) == 0, "L2 1M grid: %zu sizes", n);
	/* an L2 of 1.25 MiB: from 80K (not on the grid) to 2.5M */
	n = bench_tune_grid(80 * KIB, 5 * MIB / 2, g, N_OF(g));
	CHECK(n == 10 && g[0] == 96 * KIB && g[n - 1] == 2 * MIB, "1.25M: %zu, %zu..%zu", n, g[0],
	      g[n ? n - 1 : 0]);
	n = bench_tune_grid(64 * KIB, 2 * MIB, g, 3);
	CHECK(n == 3, "room for 3: %zu", n);
	CHECK(bench_tune_grid_below(8 * MIB) == 6 * MIB, "below 8M: %zu",
	      bench_tune_grid_below(8 * MIB));
	CHECK(bench_tune_grid_below(24 * MIB) == 16 * MIB, "below 24M: %zu",
	      bench_tune_grid_below(24 * MIB));
	CHECK(bench_tune_grid_below(2) == 1, "below 2");
}

int main(void)
{
	vector_always_wins_gives_the_largest_size();
	vector_loses_hot_at_one_size();
	vector_cold_below_the_floor_loses();
	vector_never_wins_gives_the_smallest_size_with_a_note();
	vector_noisy_tie_keeps_the_vector();
	small_differences_do_not_switch();
	rep_never_loses_gives_max();
	rep_streaming_from_where_it_wins_hot_and_cold_to_the_end();
	rep_wins_everywhere_gives_the_step_below();
	rep_tie_keeps_rep_stosb();
	one_repetition_is_its_own_interval();
	modes_not_measured_set_no_condition();
	grid_is_powers_of_two_and_midpoints();
	return check_end("ok: zero --tune's rule");
}
