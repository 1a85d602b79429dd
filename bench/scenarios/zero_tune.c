// SPDX-License-Identifier: MIT
/*
 * scenarios/zero_tune.c - `hotline-bench zero --tune`: measure where
 * hl_zero's automatic plan should switch on this machine, hot and cold,
 * and print the HOTLINE_ZERO_TUNABLES line that sets it.
 *
 * Two crossovers, each a pair of variants forced as the zero scenario's
 * variant subjects force them, measured with its loop, buffers and arena
 * (zero.c, through the sized engine ../sized.h), repetitions interleaved, at every size of a grid
 * derived from the caches the library reads (bench_zero_caches):
 *
 *  - vec_max: the plan's vector variant (hl_zero_variant() in automatic
 *    mode: avx512, avx2; stp on arm64) against the class above it
 *    (rep_stosb; dc_zva on arm64), at the powers of two and their 1.5x
 *    midpoints from L2/16 to 2 x L2 (arm64: from 2 DC ZVA blocks to L2/16);
 *  - rep_max: nontemporal against rep_stosb, from L3/4 to 8 x L3, at most
 *    1 GiB and half the memory available. Not on arm64 (no such variants).
 *
 * The rule that turns the paired ratios into thresholds is tune_rule.c's
 * (bench/README.md, "zero --tune"). The output: a table per crossover, the
 * plan in force and its sources, a sentence comparing, and last the line
 * HOTLINE_ZERO_TUNABLES=vec_max=N:rep_max=M. The results go into the
 * JSON's results as zero's, and the tables and the setting into "tune".
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotline/cpu.h>
#include <hotline/zero.h>

#include "../../src/plan.h"
#include "../tune_rule.h"
#include "zero_tune.h"

#define ZT_TUNE_MAX_SIZE    (1ull << 30) /* the largest size measured */
#define ZT_TUNE_L2_GUESS    (1u << 20)	 /* when the library knows no L2 ... */
#define ZT_TUNE_QUICK_SIZES 3		 /* --quick: the grid's ends and its middle */

enum { ZT_HOT, ZT_COLD, ZT_MODES };
static const char *const zt_mode_name[ZT_MODES] = {"hot", "cold"};

/* The plan's two thresholds, each measured by its own crossover and rule. */
enum zt_threshold { ZT_VEC_MAX, ZT_REP_MAX };

/*
 * The plans the tuner measures, by their second class (the variant table's
 * name for it): where vec_max's grid lies, and whether rep_max is measured.
 */
static const struct zt_shape {
	const char *mid;
	bool zva_grid;	    /* vec_max: from 2 DC ZVA blocks to L2/16; else L2/16 .. 2 x L2 */
	bool rep;	    /* rep_max: nontemporal against rep_stosb */
	const char *no_rep; /* else why not (%s: the architecture) */
} zt_shapes[] = {
	{"rep_stosb", false, true, NULL},
	{"dc_zva", true, false,
	 "rep_stosb and nontemporal do not exist on %s: rep_max not measured (this plan has no "
	 "rep stosb class)"},
};

/* One crossover: two forced variants (ratio first / second) over a grid. */
struct zt_cross {
	enum zt_threshold which;
	const char *threshold; /* "vec_max" or "rep_max" */
	const struct bench_subject *subject[2];
	char range[96]; /* the grid in words: "L2/16 (64K) .. 2 x L2 (2M)" */
	char skip[200]; /* not measured: why (one line); "" when measured */
	size_t grid[BENCH_TUNE_MAX_GRID], n;
	size_t below; /* rep_max: the grid step under grid[0] */
	/* Per size and mode: measured, both subjects' median GB/s, the paired ratios. */
	bool measured[BENCH_TUNE_MAX_GRID][ZT_MODES];
	double gb[BENCH_TUNE_MAX_GRID][ZT_MODES][2];
	double *ratio[BENCH_TUNE_MAX_GRID][ZT_MODES];
	size_t nr_ratio[BENCH_TUNE_MAX_GRID][ZT_MODES];
	struct bench_tune_result result;
	size_t value; /* the setting: result.value, or the plan's when not measured */
};

/* Everything the tuner decides before measuring: what zt_tune_plan estimates too. */
struct zt_tune {
	const struct sized_def *zero;
	const struct bench_config *cfg;
	unsigned int modes, reps;
	double duration;
	struct bench_zero_caches caches;
	size_t l2, l3; /* the caches the grids use (guessed when unknown) */
	size_t llc, arena;
	bool llc_guessed;
	char plan[256], sources[512];
	size_t plan_vec, plan_rep; /* the plan's thresholds, SIZE_MAX for max */
	char classes[3][32];	   /* the plan's classes, smallest sizes first */
	size_t nr_classes;
	char notes[4][240]; /* one line each, before the tables */
	size_t nr_notes;
	struct zt_cross cross[2];
	size_t nr_cross;
};

static json_t *zt_tune_doc;

json_t *zt_tune_json(const char **key)
{
	*key = "tune";
	return zt_tune_doc;
}

static void note(struct zt_tune *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct zt_tune *t, const char *fmt, ...)
{
	va_list ap;

	if (t->nr_notes >= ARRAY_SIZE(t->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(t->notes[t->nr_notes++], sizeof(t->notes[0]), fmt, ap);
	va_end(ap);
}

/* "262144", "max". */
static const char *value_text(size_t v, char *buf, size_t len)
{
	if (v == SIZE_MAX)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%zu", v);
	return buf;
}

/* The plan in force: its classes, smallest sizes first, and its thresholds. */
static void plan_in_force(struct zt_tune *t)
{
	struct hl_size_plan p;
	struct hl_zero_thresholds th;

	hl__zero_plan_in_force(&p, &th);
	t->nr_classes = 0;
	for (unsigned int i = 0; i < p.n && t->nr_classes < ARRAY_SIZE(t->classes); i++)
		snprintf(t->classes[t->nr_classes++], sizeof(t->classes[0]), "%s", p.c[i].variant);
	t->plan_vec = th.vec_max.value;
	t->plan_rep = th.rep_max.value;
}

/* A size for the grids' words: "64K", "1.5M", "100". */
static const char *size_words(size_t n, char *buf, size_t len)
{
	if (n >= (1u << 20) && n % (1u << 19) == 0 && n % (1u << 20))
		snprintf(buf, len, "%.1fM", (double)n / (1u << 20));
	else if (n >= (1u << 10) && n % (1u << 9) == 0 && n % (1u << 10))
		snprintf(buf, len, "%.1fK", (double)n / (1u << 10));
	else
		sized_size_text(n, buf, len);
	return buf;
}

/* The grid from lo to hi; --quick: its two ends and its middle. */
static void make_grid(const struct zt_tune *t, struct zt_cross *c, size_t lo, size_t hi)
{
	c->n = bench_tune_grid(lo, hi, c->grid, ARRAY_SIZE(c->grid));
	if (t->cfg->quick && c->n > ZT_TUNE_QUICK_SIZES) {
		size_t last = c->grid[c->n - 1], mid = c->grid[c->n / 2];

		c->grid[1] = mid;
		c->grid[2] = last;
		c->n = ZT_TUNE_QUICK_SIZES;
	}
	c->below = c->n ? bench_tune_grid_below(c->grid[0]) : 0;
	if (!c->n)
		snprintf(c->skip, sizeof(c->skip), "no grid size from %zu to %zu: not measured", lo,
			 hi);
}

/* Half of the memory available now: what the largest buffer may take. */
static size_t memory_cap(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return ZT_TUNE_MAX_SIZE;
	return (size_t)pages / 2 * (size_t)page;
}

static void vec_cross(struct zt_tune *t, const struct zt_shape *shape)
{
	struct zt_cross *c = &t->cross[t->nr_cross++];
	const char *vec = t->classes[0], *mid = shape->mid;
	char a[16], b[16];

	c->which = ZT_VEC_MAX;
	c->threshold = "vec_max";
	c->value = t->plan_vec; /* until measured */
	c->subject[0] = sized_variant_subject(t->zero, vec);
	c->subject[1] = sized_variant_subject(t->zero, mid);
	if (!c->subject[0] || !c->subject[1]) {
		snprintf(c->skip, sizeof(c->skip), "the library does not list %s as a variant",
			 c->subject[0] ? mid : vec);
		return;
	}
	if (!shape->zva_grid) {
		make_grid(t, c, t->l2 / 16, 2 * t->l2);
		snprintf(c->range, sizeof(c->range), "L2/16 (%s) .. 2 x L2 (%s)",
			 size_words(t->l2 / 16, a, sizeof(a)), size_words(2 * t->l2, b, sizeof(b)));
	} else { /* from the least vec_max the plan allows, 2 DC ZVA blocks, up */
		size_t block = hl_cpu()->dczva_block ? hl_cpu()->dczva_block : 64;

		make_grid(t, c, 2 * block, t->l2 / 16);
		snprintf(c->range, sizeof(c->range), "2 DC ZVA blocks (%s) .. L2/16 (%s)",
			 size_words(2 * block, a, sizeof(a)), size_words(t->l2 / 16, b, sizeof(b)));
	}
}

static void rep_cross(struct zt_tune *t)
{
	struct zt_cross *c = &t->cross[t->nr_cross++];
	size_t hi = 8 * t->l3, cap = memory_cap();
	char a[16], b[16];

	c->which = ZT_REP_MAX;
	c->threshold = "rep_max";
	c->value = t->plan_rep; /* until measured */
	c->subject[0] = sized_variant_subject(t->zero, "nontemporal");
	c->subject[1] = sized_variant_subject(t->zero, "rep_stosb");
	if (!c->subject[0] || !hl_zero_supported("nontemporal")) {
		snprintf(c->skip, sizeof(c->skip),
			 "this CPU cannot run nontemporal: rep_max not measured");
		return;
	}
	if (hi > ZT_TUNE_MAX_SIZE)
		hi = ZT_TUNE_MAX_SIZE;
	if (hi > cap) {
		note(t, "rep_max: the grid stops at %s, half the memory available, not 8 x L3",
		     size_words(cap, a, sizeof(a)));
		hi = cap;
	}
	make_grid(t, c, t->l3 / 4, hi);
	snprintf(c->range, sizeof(c->range), "L3/4 (%s) .. %s", size_words(t->l3 / 4, a, sizeof(a)),
		 size_words(hi, b, sizeof(b)));
}

/* What to measure: the plan's classes, the caches, the grids. */
static void zt_tune_setup(const struct sized_def *zero, const struct bench_config *cfg,
			  struct zt_tune *t)
{
	const struct zt_shape *shape = NULL;

	*t = (struct zt_tune){
		.zero = zero,
		.cfg = cfg,
		.modes = cfg->modes ? cfg->modes : BENCH_MODE_HOT | BENCH_MODE_COLD,
		.reps = cfg->repeat,
		.duration = sized_duration(zero, cfg),
	};
	hl_zero_use("auto");
	hl_zero_plan(t->plan, sizeof(t->plan));
	hl_zero_plan_sources(t->sources, sizeof(t->sources));
	plan_in_force(t);
	bench_zero_caches(&t->caches);
	t->llc = sized_llc_bytes(&t->llc_guessed);
	t->arena = sized_arena_bytes(t->llc);
	t->l2 = t->caches.l2;
	t->l3 = t->caches.l3 ? t->caches.l3 : t->llc;
	if (!t->l2) {
		t->l2 = ZT_TUNE_L2_GUESS;
		note(t, "the library reads no L2 size on this machine: the grid assumes 1 MiB");
	}
	if (t->nr_classes < 2) {
		note(t, "one variant, %s, clears every size on this CPU: no crossover to measure",
		     t->nr_classes ? t->classes[0] : "?");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(zt_shapes) && !shape; i++) {
		if (strcmp(zt_shapes[i].mid, t->classes[1]) == 0)
			shape = &zt_shapes[i];
	}
	if (!shape) {
		note(t,
		     "the tuner measures plans whose second class is rep_stosb or dc_zva; this "
		     "plan (%s) is kept",
		     t->plan);
		return;
	}
	vec_cross(t, shape);
	if (shape->rep)
		rep_cross(t);
	else
		note(t, shape->no_rep, hl_cpu()->arch);
}

/* Per sample: its duration, or about two calls at 10 GB/s where a call is longer. */
static double sample_seconds(const struct zt_tune *t, size_t size)
{
	double call = 2 * (double)size / 10e9;

	return call > t->duration ? call : t->duration;
}

void zt_tune_plan(const struct sized_def *zero, const struct bench_config *cfg,
		  struct bench_plan *plan)
{
	struct zt_tune t;
	double per_rep = 0;

	zt_tune_setup(zero, cfg, &t);
	*plan = (struct bench_plan){0};
	for (size_t k = 0; k < t.nr_cross; k++) {
		const struct zt_cross *c = &t.cross[k];

		for (size_t z = 0; !c->skip[0] && z < c->n; z++) {
			for (int m = 0; m < ZT_MODES; m++) {
				if (!(t.modes & (m == ZT_HOT ? BENCH_MODE_HOT : BENCH_MODE_COLD)))
					continue;
				if (m == ZT_COLD && c->grid[z] > t.arena / 2)
					continue;
				plan->items += 2;
				per_rep += 2 * sample_seconds(&t, c->grid[z]);
			}
		}
	}
	plan->items *= t.reps;
	plan->seconds = per_rep * t.reps;
}

/* ---- measuring ----------------------------------------------------------- */

/* zero's sweep for mode m: hot or cold. */
static const struct sized_sweep *tune_sweep(const struct sized_def *zero, int m)
{
	unsigned int want = m == ZT_HOT ? BENCH_MODE_HOT : BENCH_MODE_COLD;

	for (size_t k = 0; k < zero->nr_sweeps; k++) {
		if (zero->sweeps[k].mode == want)
			return &zero->sweeps[k];
	}
	return &zero->sweeps[0];
}

/* Size z of c in mode m, from the measured ctx: the medians and the paired ratios. 0 or 1. */
static int keep_point(struct zt_cross *c, size_t z, int m, const struct sized_ctx *ctx, int first)
{
	const struct bench_series *a = &ctx->series[first]; /* c->subject[0]'s */
	const struct bench_series *b = &ctx->series[!first];
	size_t n = a->n < b->n ? a->n : b->n;

	c->ratio[z][m] = calloc(n ? n : 1, sizeof(double));
	if (!c->ratio[z][m]) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t r = 0; r < n; r++)
		c->ratio[z][m][r] = a->gb_per_sec[r] / b->gb_per_sec[r];
	c->nr_ratio[z][m] = n;
	c->gb[z][m][0] = bench_median(a->gb_per_sec, a->n);
	c->gb[z][m][1] = bench_median(b->gb_per_sec, b->n);
	c->measured[z][m] = true;
	return 0;
}

/*
 * One crossover in one mode: every grid size, both subjects interleaved,
 * the repetitions in rounds over the grid (sized_sizes_measure).
 */
static int measure_cross(const struct sized_run *run, struct zt_cross *c, int m, json_t *results)
{
	/* In the subject table's order, as the JSON's "subjects" lists them (bench/README.md). */
	const int first = c->subject[0] < c->subject[1] ? 0 : 1;
	const struct bench_subject *subjects[2] = {c->subject[first], c->subject[!first]};
	struct sized_sizes w;
	size_t k = 0;
	int ret = 1;

	if (sized_sizes_init(&w, run, tune_sweep(run->def, m), subjects, 2, c->grid, c->n, NULL) ||
	    sized_sizes_measure(&w))
		goto out;
	/* w.ctx holds the grid's sizes in order, less those the arena cannot hold. */
	for (size_t z = 0; z < c->n && k < w.nr; z++) {
		if (w.ctx[k].sample.size != c->grid[z])
			continue;
		if (keep_point(c, z, m, &w.ctx[k], first))
			goto out;
		sized_results(&w.ctx[k], results);
		k++;
	}
	ret = 0;
out:
	sized_sizes_free(&w);
	return ret;
}

/* Size z of c, as the rule takes it. */
static struct bench_tune_point point(const struct zt_cross *c, size_t z)
{
	return (struct bench_tune_point){
		.size = c->grid[z],
		.hot = c->ratio[z][ZT_HOT],
		.nr_hot = c->nr_ratio[z][ZT_HOT],
		.cold = c->ratio[z][ZT_COLD],
		.nr_cold = c->nr_ratio[z][ZT_COLD],
	};
}

/* Whether the rule keeps c's first variant at size z (vec_max) or switches to it (rep_max). */
static bool first_wins(const struct zt_cross *c, size_t z)
{
	struct bench_tune_point p = point(c, z);

	if (c->which == ZT_VEC_MAX)
		return bench_tune_vec_keeps(&p);
	return bench_tune_nt_beats(&p);
}

static void decide(struct zt_cross *c)
{
	const char *const names[2] = {c->subject[0]->name, c->subject[1]->name};
	struct bench_tune_point p[BENCH_TUNE_MAX_GRID];

	for (size_t z = 0; z < c->n; z++)
		p[z] = point(c, z);
	if (c->which == ZT_VEC_MAX)
		bench_tune_vec_max(p, c->n, names, &c->result);
	else
		bench_tune_rep_max(p, c->n, c->below, names, &c->result);
	c->value = c->result.value;
}

/* ---- output --------------------------------------------------------------- */

static void print_side(const struct zt_cross *c, size_t z, int m)
{
	struct bench_tune_side s;
	char text[48];

	if (!c->measured[z][m]) {
		printf("  %-24s", "-");
		return;
	}
	bench_tune_side(c->ratio[z][m], c->nr_ratio[z][m], &s);
	if (s.n >= 2)
		snprintf(text, sizeof(text), "%.3g [%.3g, %.3g]", s.median, s.lo, s.hi);
	else
		snprintf(text, sizeof(text), "%.3g", s.median);
	printf("  %-24s", text);
}

static void print_gb(const struct zt_cross *c, size_t z, int m, int who)
{
	if (c->measured[z][m])
		printf(" %7.3g", c->gb[z][m][who]);
	else
		printf(" %7s", "-");
}

static void print_cross(const struct zt_cross *c)
{
	const char *a = c->subject[0]->name, *b = c->subject[1]->name;
	char size[32], ratio[64], value[32];

	printf("\n%s: %s against %s, %s\n", c->threshold, a, b, c->range);
	snprintf(ratio, sizeof(ratio), "%s / %s, median [interval]", a, b);
	printf("%-9s %-15.15s %-15.15s  %s\n", "GB/s", a, b, ratio);
	printf("%-9s %7s %7s %7s %7s  %-24s  %-24s  %s\n", "size", "hot", "cold", "hot", "cold",
	       "hot", "cold", "by the rule");
	for (size_t z = 0; z < c->n; z++) {
		bool first = first_wins(c, z);

		printf("%-9s", size_words(c->grid[z], size, sizeof(size)));
		print_gb(c, z, ZT_HOT, 0);
		print_gb(c, z, ZT_COLD, 0);
		print_gb(c, z, ZT_HOT, 1);
		print_gb(c, z, ZT_COLD, 1);
		print_side(c, z, ZT_HOT);
		print_side(c, z, ZT_COLD);
		printf("  %s\n", first ? a : b);
	}
	printf("%s = %s%s%s%s: %s\n", c->threshold, value_text(c->value, value, sizeof(value)),
	       c->value == SIZE_MAX ? "" : " (",
	       c->value == SIZE_MAX ? "" : size_words(c->value, size, sizeof(size)),
	       c->value == SIZE_MAX ? "" : ")", c->result.why);
}

/* "the same as", "2x", "0.5x" the plan's. */
static void compare(size_t got, size_t plan, char *buf, size_t len)
{
	char g[32], p[32];

	value_text(got, g, sizeof(g));
	value_text(plan, p, sizeof(p));
	if (got == plan)
		snprintf(buf, len, "%s, the same", g);
	else if (got == SIZE_MAX || plan == SIZE_MAX)
		snprintf(buf, len, "%s against %s", g, p);
	else
		snprintf(buf, len, "%s against %s (%.3gx)", g, p, (double)got / (double)plan);
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *value_json(size_t v)
{
	return v == SIZE_MAX ? json_string("max") : json_integer((json_int_t)v);
}

static json_t *side_json(const struct zt_cross *c, size_t z, int m)
{
	struct bench_tune_side s;

	if (!c->measured[z][m])
		return json_null();
	bench_tune_side(c->ratio[z][m], c->nr_ratio[z][m], &s);
	return json_pack("{s:[f,f], s:f, s:o, s:o, s:f, s:o}", "gb_per_sec", c->gb[z][m][0],
			 c->gb[z][m][1], "ratio", s.median, "ratio_lo",
			 s.n >= 2 ? json_real(s.lo) : json_null(), "ratio_hi",
			 s.n >= 2 ? json_real(s.hi) : json_null(), "level", s.level, "ratio_runs",
			 bench_json_reals(c->ratio[z][m], c->nr_ratio[z][m]));
}

static json_t *cross_json(const struct zt_cross *c)
{
	json_t *o = json_object(), *points = json_array();

	json_object_set_new(o, "measured", json_boolean(!c->skip[0]));
	json_object_set_new(o, "value", value_json(c->value));
	if (c->skip[0]) {
		json_object_set_new(o, "why", json_string(c->skip));
		json_decref(points);
		return o;
	}
	json_object_set_new(o, "why", json_string(c->result.why));
	json_object_set_new(o, "subjects",
			    json_pack("[s,s]", c->subject[0]->name, c->subject[1]->name));
	json_object_set_new(o, "grid", json_string(c->range));
	for (size_t z = 0; z < c->n; z++) {
		bool first = first_wins(c, z);

		json_array_append_new(
			points,
			json_pack("{s:I, s:o, s:o, s:s}", "size", (json_int_t)c->grid[z], "hot",
				  side_json(c, z, ZT_HOT), "cold", side_json(c, z, ZT_COLD), "wins",
				  first ? c->subject[0]->name : c->subject[1]->name));
	}
	json_object_set_new(o, "points", points);
	return o;
}

static void tune_json(const struct zt_tune *t, const char *setting, const char *compared)
{
	json_t *cross = json_object(), *modes = json_array();

	for (size_t k = 0; k < t->nr_cross; k++)
		json_object_set_new(cross, t->cross[k].threshold, cross_json(&t->cross[k]));
	for (int m = 0; m < ZT_MODES; m++) {
		if (t->modes & (m == ZT_HOT ? BENCH_MODE_HOT : BENCH_MODE_COLD))
			json_array_append_new(modes, json_string(zt_mode_name[m]));
	}
	json_decref(zt_tune_doc);
	zt_tune_doc = json_pack(
		"{s:o, s:i, s:f, s:{s:I, s:I, s:I, s:i, s:s}, s:I, s:I, s:s, s:s, s:o, s:s, s:s}",
		"modes", modes, "repeat", (int)t->reps, "duration", t->duration, "caches", "l1d",
		(json_int_t)t->caches.l1d, "l2", (json_int_t)t->caches.l2, "l3",
		(json_int_t)t->caches.l3, "l3_sharing", (int)t->caches.l3_sharing, "from",
		t->caches.from, "llc_bytes", (json_int_t)t->llc, "arena_bytes",
		(json_int_t)t->arena, "plan", t->plan, "plan_sources", t->sources, "crossovers",
		cross, "setting", setting, "compared", compared);
}

/* ---- the run --------------------------------------------------------------- */

/* The memory the crossovers need: the largest hot buffer, the cold arena. */
static size_t tune_need(const struct zt_tune *t)
{
	size_t need = SIZED_PAGE;

	for (size_t k = 0; k < t->nr_cross; k++) {
		const struct zt_cross *c = &t->cross[k];

		if (c->skip[0] || !c->n)
			continue;
		if ((t->modes & BENCH_MODE_HOT) && c->grid[c->n - 1] + SIZED_ALIGN > need)
			need = c->grid[c->n - 1] + SIZED_ALIGN;
		if ((t->modes & BENCH_MODE_COLD) && t->arena > need)
			need = t->arena;
	}
	return need;
}

/* The lines before the tables; false when the setting is from one mode only. */
static bool print_intro(struct zt_tune *t)
{
	const struct hl_cpu *cpu = hl_cpu();
	char v[32], r[32], l2[16], l3[16];
	bool both = true;

	printf("%s --tune: where hl_zero's automatic plan should switch on this machine, hot "
	       "and cold\n",
	       t->zero->name);
	printf("CPU: %s, %s family 0x%x model 0x%x; caches as the library reads them: L2 %s, L3 "
	       "%s (%s)\n",
	       cpu->model, cpu->arch, cpu->family, cpu->model_id,
	       t->caches.l2 ? sized_size_text(t->caches.l2, l2, sizeof(l2)) : "unknown",
	       t->caches.l3 ? sized_size_text(t->caches.l3, l3, sizeof(l3)) : "unknown",
	       t->caches.from[0] ? t->caches.from : "no source");
	printf("plan in force: %s\n", t->plan);
	printf("each crossover: two variants forced with hl_zero_use, %u repetition%s "
	       "interleaved, %.3f s per sample, placement %s; cold: a new place per call in a "
	       "%s arena (%d x the last-level cache), sizes over %s hot only\n",
	       t->reps, t->reps == 1 ? "" : "s", t->duration, t->cfg->pin.text,
	       sized_size_text(t->arena, v, sizeof(v)), SIZED_ARENA_LLCS,
	       sized_size_text(t->arena / 2, r, sizeof(r)));
	if (t->modes != (BENCH_MODE_HOT | BENCH_MODE_COLD)) {
		both = false;
		note(t, "--mode %s: the rule wants hot and cold; this setting is from %s alone",
		     t->modes & BENCH_MODE_HOT ? "hot" : "cold",
		     t->modes & BENCH_MODE_HOT ? "hot" : "cold");
	}
	for (size_t k = 0; k < t->nr_cross; k++) {
		if (t->cross[k].skip[0])
			note(t, "%s: %s", t->cross[k].threshold, t->cross[k].skip);
	}
	for (size_t i = 0; i < t->nr_notes; i++)
		printf("note: %s\n", t->notes[i]);
	fflush(stdout);
	return both;
}

/* Every crossover in every mode asked: measure, decide, print its table. 0 or 1. */
static int measure_all(struct zt_tune *t, const struct sized_run *run, json_t *results)
{
	for (size_t k = 0; k < t->nr_cross; k++) {
		struct zt_cross *c = &t->cross[k];

		if (c->skip[0])
			continue;
		for (int m = 0; m < ZT_MODES; m++) {
			if (!(t->modes & (m == ZT_HOT ? BENCH_MODE_HOT : BENCH_MODE_COLD)))
				continue;
			if (measure_cross(run, c, m, results))
				return 1;
		}
		decide(c);
		print_cross(c);
		fflush(stdout);
	}
	return 0;
}

/* The setting: what was measured, the plan's thresholds for what was not; printed. */
static void print_setting(struct zt_tune *t, bool both)
{
	char setting[128], compared[400], vec_cmp[96], rep_cmp[96], v[32], r[32];
	size_t vec_max = t->plan_vec, rep_max = t->plan_rep;

	for (size_t k = 0; k < t->nr_cross; k++) {
		const struct zt_cross *c = &t->cross[k];

		if (c->skip[0])
			continue;
		if (c->which == ZT_VEC_MAX)
			vec_max = c->value;
		else
			rep_max = c->value;
	}
	if (rep_max < vec_max) {
		printf("rep_max %zu is below vec_max %zu: raised to it (no rep stosb class)\n",
		       rep_max, vec_max);
		rep_max = vec_max;
	}
	snprintf(setting, sizeof(setting), "vec_max=%s:rep_max=%s",
		 value_text(vec_max, v, sizeof(v)), value_text(rep_max, r, sizeof(r)));
	compare(vec_max, t->plan_vec, vec_cmp, sizeof(vec_cmp));
	compare(rep_max, t->plan_rep, rep_cmp, sizeof(rep_cmp));
	snprintf(compared, sizeof(compared),
		 vec_max == t->plan_vec && rep_max == t->plan_rep
			 ? "The measured setting is the plan in force: vec_max %s, rep_max %s."
			 : "The measured setting differs from the plan in force: vec_max %s; "
			   "rep_max %s.",
		 vec_cmp, rep_cmp);
	printf("plan in force: %s\n", t->plan);
	printf("its thresholds: %s\n", t->sources);
	printf("%s%s\n", compared,
	       both ? "" : " The rule wants hot and cold: this is from one mode only.");
	printf("HOTLINE_ZERO_TUNABLES=%s\n", setting);
	fflush(stdout);
	tune_json(t, setting, compared);
}

static void free_ratios(struct zt_tune *t)
{
	for (size_t k = 0; k < t->nr_cross; k++) {
		for (size_t z = 0; z < BENCH_TUNE_MAX_GRID; z++) {
			for (int m = 0; m < ZT_MODES; m++) {
				free(t->cross[k].ratio[z][m]);
				t->cross[k].ratio[z][m] = NULL;
			}
		}
	}
}

int zt_tune(const struct sized_def *zero, const struct bench_config *cfg, json_t *results)
{
	static struct zt_tune t; /* large: the grids' figures */
	static struct sized_run run;
	uint64_t t0 = bench_now_ns();
	bool both;
	int ret = 1;

	zt_tune_setup(zero, cfg, &t);
	sized_run_init(&run, zero, cfg);
	snprintf(run.plan, sizeof(run.plan), "%s", t.plan);
	if (sized_map(&run, tune_need(&t)))
		goto out;
	both = print_intro(&t);
	if (measure_all(&t, &run, results))
		goto out;
	hl_zero_use("auto");
	printf("\nmeasured in %.1f s\n", (double)(bench_now_ns() - t0) / 1e9);
	print_setting(&t, both);
	ret = 0;
out:
	hl_zero_use("auto");
	free_ratios(&t);
	sized_unmap(&run);
	return ret;
}
