// SPDX-License-Identifier: MIT
/*
 * sized_run.c - a sized scenario's run (sized.h), from the options to the
 * last table: the sizes of each sweep (--sizes, --quick, the default
 * list), the selected subjects each sweep measures (less the variants
 * this CPU cannot run and what the system refuses), the memory they need,
 * the lines before the tables, every sweep asked for, and the estimate of
 * all that for the progress.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "questions.h"
#include "sized.h"

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static size_t *copy_sizes(const size_t *from, size_t n, size_t *nr)
{
	size_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (v && n)
		memcpy(v, from, n * sizeof(*v));
	*nr = n;
	return v;
}

/* The sizes of a sweep with its own list: those of --sizes it allows, else its list. */
static size_t *own_sizes(const struct sized_sweep *sw, const struct bench_config *cfg, size_t *nr)
{
	size_t *v = malloc((cfg->sizes ? cfg->nr_sizes : sw->nr_sizes) * sizeof(*v) + 1), n = 0;

	if (!v)
		return NULL;
	if (cfg->sizes) {
		for (size_t i = 0; i < cfg->nr_sizes; i++) {
			if (cfg->sizes[i] >= sw->min && cfg->sizes[i] <= sw->max)
				v[n++] = cfg->sizes[i];
		}
	} else {
		for (size_t i = 0; i < sw->nr_sizes; i += cfg->quick ? 2 : 1)
			v[n++] = sw->sizes[i];
	}
	*nr = n;
	return v;
}

/* The sizes sweep runs: its fixed or own list, or the scenario's. Caller frees. */
static size_t *sweep_sizes(const struct sized_def *def, const struct sized_sweep *sw,
			   const struct bench_config *cfg, size_t *nr)
{
	size_t *v, n = 0;

	if (sw->fixed_size)
		return copy_sizes(sw->sizes, 1, nr);
	if (sw->sizes)
		return own_sizes(sw, cfg, nr);
	if (cfg->sizes)
		return copy_sizes(cfg->sizes, cfg->nr_sizes, nr);
	if (cfg->quick)
		return copy_sizes(def->quick_sizes, def->nr_quick, nr);
	v = malloc((64 + def->nr_odd) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t p = 1; p <= def->max_size; p <<= 1)
		v[n++] = p;
	for (size_t i = 0; i < def->nr_odd; i++)
		v[n++] = def->odd_sizes[i];
	qsort(v, n, sizeof(*v), cmp_size);
	*nr = n;
	return v;
}

void sized_run_init(struct sized_run *run, const struct sized_def *def,
		    const struct bench_config *cfg)
{
	*run = (struct sized_run){
		.def = def,
		.cfg = cfg,
		.reps = cfg->repeat,
		.modes = (cfg->modes ? cfg->modes : BENCH_MODE_HOT | BENCH_MODE_COLD) & def->modes,
		.duration = sized_duration(def, cfg),
	};
	run->llc = sized_llc_bytes(&run->llc_guessed);
	run->arena = sized_arena_bytes(run->llc);
	run->slices = bench_slices_in(run->duration, SIZED_MIN_SLICE, SIZED_SLICES);
}

/* Whether s is one the scenario cannot run here; says so unless quiet. */
static bool left_out(struct sized_run *run, const struct bench_subject *s, unsigned int unusable,
		     const char *why, bool quiet)
{
	const struct sized_def *def = run->def;
	const struct sized_facts *f = sized_facts(s);
	unsigned int asked = 0;

	if (def->variants && sized_is_variant(s) && !def->variants->supported(s->name)) {
		size_t len = strlen(run->unsupported);

		snprintf(run->unsupported + len, sizeof(run->unsupported) - len, "%s%s",
			 len ? ", " : "", s->name);
		if (!quiet && run->cfg->subjects)
			bench_note("%s: %s is not supported by this CPU; skipped", def->name,
				   s->name);
		return true;
	}
	if (!(f->flags & unusable))
		return false;
	for (size_t k = 0; k < def->nr_sweeps; k++) {
		if ((f->sweeps >> k & 1) && (run->modes & def->sweeps[k].mode))
			asked = 1;
	}
	if (!quiet && asked)
		bench_note("%s: %s: %s skipped", def->name, why, s->name);
	return true;
}

/*
 * The selected subjects into each sweep that measures them (as --mode
 * asks) and into run->rest (no sweep's); a sweep that runs only for a
 * subject of its own keeps none without one. Their number.
 */
static size_t pick(struct sized_run *run, bool quiet)
{
	const struct sized_def *def = run->def;
	const struct bench_subject *picked[SIZED_MAX_SUBJECTS + 16];
	size_t n = bench_select_subjects(def->scenario, run->cfg, picked), total = 0;
	char why[160] = "";
	unsigned int unusable = def->unusable ? def->unusable(why, sizeof(why)) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct bench_subject *s = picked[i];
		unsigned int sweeps = sized_facts(s)->sweeps;

		if (left_out(run, s, unusable, why, quiet))
			continue;
		if (!sweeps)
			run->rest[run->nr_rest++] = s;
		for (size_t k = 0; k < def->nr_sweeps; k++) {
			if ((sweeps >> k & 1) && (run->modes & def->sweeps[k].mode))
				run->swept[k][run->nr_swept[k]++] = s;
		}
	}
	for (size_t k = 0; k < def->nr_sweeps; k++) {
		bool own = !def->sweeps[k].only_if_own;

		for (size_t i = 0; i < run->nr_swept[k]; i++)
			own |= (sized_facts(run->swept[k][i])->sweeps & ~(1u << k)) == 0;
		if (!own)
			run->nr_swept[k] = 0;
		total += run->nr_swept[k];
	}
	return total + run->nr_rest;
}

/* Each sweep's sizes, into sizes[k] (NULL where it measures nothing). 0, or 1 after bench_error. */
static int all_sizes(const struct sized_run *run, size_t **sizes, size_t *nr)
{
	for (size_t k = 0; k < run->def->nr_sweeps; k++) {
		if (!run->nr_swept[k])
			continue;
		sizes[k] = sweep_sizes(run->def, &run->def->sweeps[k], run->cfg, &nr[k]);
		if (!sizes[k]) {
			bench_error("out of memory");
			return 1;
		}
	}
	return 0;
}

void sized_scenario_plan(const struct sized_def *def, const struct bench_config *cfg,
			 struct bench_plan *plan)
{
	struct sized_run run;
	size_t *sizes[SIZED_MAX_SWEEPS] = {0}, nr[SIZED_MAX_SWEEPS] = {0};
	double per_rep = 0;

	sized_run_init(&run, def, cfg);
	pick(&run, true);
	*plan = (struct bench_plan){0};
	all_sizes(&run, sizes, nr);
	for (size_t k = 0; k < def->nr_sweeps; k++) {
		/* A sample lasts its duration, or about two calls where a call is longer. */
		for (size_t z = 0; sizes[k] && z < nr[k]; z++) {
			double t = 2 * (double)sizes[k][z] / def->rate;

			if (def->sweeps[k].cold && sizes[k][z] > run.arena / (2 * def->buffers))
				continue;
			plan->items += run.nr_swept[k];
			per_rep += (double)run.nr_swept[k] * (t > run.duration ? t : run.duration);
		}
		free(sizes[k]);
	}
	plan->items += run.nr_rest;
	if (def->rest_seconds)
		per_rep += def->rest_seconds(&run);
	plan->items *= cfg->repeat;
	plan->seconds = per_rep * cfg->repeat;
}

/* The memory the sweeps need: the largest hot buffers, the cold arena, the scenario's own. */
static size_t need_bytes(const struct sized_run *run, size_t *const *sizes, const size_t *nr)
{
	const struct sized_def *def = run->def;
	size_t need = def->need ? def->need(run) : 0;

	for (size_t k = 0; k < def->nr_sweeps; k++) {
		size_t want;

		if (!run->nr_swept[k] || !nr[k])
			continue;
		want = def->sweeps[k].cold ? run->arena : sized_hot_bytes(def, sizes[k][nr[k] - 1]);
		if (want > need)
			need = want;
	}
	return need;
}

static void intro(const struct sized_run *run)
{
	run->def->intro(run);
	if (bench_until_decided_on())
		printf("(--until-decided: more repetitions where a question cannot tell; "
		       "config.until_decided in the JSON says which)\n");
	if (run->unsupported[0])
		printf("variants this CPU cannot run (not measured): %s\n", run->unsupported);
	fflush(stdout);
}

static int run_sweeps(struct sized_run *run, size_t *const *sizes, const size_t *nr,
		      json_t *results)
{
	const struct sized_def *def = run->def;

	for (size_t k = 0; k < def->nr_sweeps; k++) {
		const struct sized_sweep *sw = &def->sweeps[k];

		if (!run->nr_swept[k])
			continue;
		if (sw->before)
			sw->before(run);
		if (sized_run_sweep(run, sw, run->swept[k], run->nr_swept[k], sizes[k], nr[k],
				    results))
			return 1;
	}
	return def->after ? def->after(run, results) : 0;
}

int sized_scenario_run(const struct sized_def *def, const struct bench_config *cfg, json_t *results)
{
	static struct sized_run run; /* large: the subjects of each sweep */
	size_t *sizes[SIZED_MAX_SWEEPS] = {0}, nr[SIZED_MAX_SWEEPS] = {0};
	int ret = 1;

	sized_run_init(&run, def, cfg);
	if (cfg->modes & ~def->modes)
		bench_note("%s: %s; %s", def->name, def->modes_note,
			   run.modes ? "hot and cold as asked" : "nothing to run");
	if (!pick(&run, false))
		return 0;
	if (all_sizes(&run, sizes, nr))
		goto out;
	if (sized_map(&run, need_bytes(&run, sizes, nr)))
		goto out;
	if (def->prepare && def->prepare(&run))
		goto out;
	if (def->variants) {
		def->variants->use("auto");
		def->variants->plan(run.plan, sizeof(run.plan));
	}
	intro(&run);
	ret = run_sweeps(&run, sizes, nr, results);
out:
	if (def->variants)
		def->variants->use("auto");
	if (def->finish)
		def->finish(&run);
	sized_unmap(&run);
	for (size_t k = 0; k < SIZED_MAX_SWEEPS; k++)
		free(sizes[k]);
	return ret;
}
