// SPDX-License-Identifier: MIT
/*
 * test_plans.c - hl_zero's and hl_try_copy's automatic plans held against
 * every machine the project has measured (the *.json files of data/machines/, written
 * by scripts/record-machine.py from a make bench JSON).
 *
 *   test_plans DIR
 *
 * For each record, the plans are derived from that machine's recorded
 * facts (its plan_machine, through hl__zero_plan_for and
 * hl__copy_plan_for: the functions the library runs for its own machine),
 * not from this machine's CPUID. Then at every recorded size, hot and
 * cold, the variant the plan chooses there must be within 5% of glibc
 * (glibc_memset, glibc_memcpy): the median of its paired per-repetition
 * ratios to glibc has an order-statistic interval (bench/decide.c, the C
 * twin of the report's stats.py, held to it by decide_agrees.py), and
 * that interval must not lie wholly below 0.95. It fails only where another
 * variant would be a better plan: its interval reaches 0.95 with a median
 * above the plan's, and it ran faster than the plan's figures in the
 * paired repetitions (its ratio over the plan's, repetition by repetition,
 * has an interval wholly above 1: one noisy run reaching 0.95 is not a
 * better plan). Where no variant is both, no plan is shown to do better
 * there: the size is named, not failed. Where the record
 * ran exactly the plan derived now (measured.zero_plan, copy_plan) and
 * has the entry's rows (hl_zero, hl_try_copy), the plan's figures are the
 * entry's own: a forced variant pays for the redirect the entry skips, and
 * the plan's own variant forced is no other plan.
 *
 * Below 64 bytes a call's fixed cost outweighs its stores, and the record
 * measured each variant forced (hl_zero_use, hl_copy_use), through the
 * redirect the plan's own entry does not take: there, as the report's
 * criterion for hl_try_copy, a variant is within reach when it costs at
 * most ALLOW_NS more per call than glibc, that is, when its ratio is at
 * least t / (t + ALLOW_NS), t glibc's median time per call at that size
 * (or 0.95, if that is less).
 *
 * It prints one table per machine, plan and mode, then one line per
 * failure (machine, plan, mode, size, the chosen variant with its ratio
 * and interval, the best variant there) and the sizes it named; exit 1 if
 * any size failed, 2 if a record cannot be read.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../src/plan.h"
#include "decide.h"

#define THRESHOLD   0.95 /* within 5% of glibc */
#define SMALL_BELOW 64	 /* below this many bytes, ... */
#define ALLOW_NS    2.0	 /* ... at most 2 ns per call more than glibc */
#define MAX_LINES   4096

struct row {
	const char *scenario, *subject, *mode;
	size_t size;
	double *ratio_runs;
	size_t n;
	double gbps; /* the median GB/s, 0 if not recorded */
};

struct record {
	const char *path, *name;
	json_t *json;
	struct hl_zero_machine machine;
	struct row *rows;
	size_t n_rows;
};

/* The lines printed after the tables: failures first, then the sizes named. */
static char *failures[MAX_LINES], *named[MAX_LINES];
static size_t n_failures, n_named;

static void keep(char **list, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void keep(char **list, size_t *n, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (line && *n < MAX_LINES)
		list[(*n)++] = line;
	else
		free(line);
}

static void bad(const char *path, const char *what) __attribute__((noreturn));

static void bad(const char *path, const char *what)
{
	fprintf(stderr, "test_plans: %s: %s\n", path, what);
	exit(2);
}

/* "32 KiB", "1 GiB", "65537 B". */
static const char *size_words(size_t n, char *buf, size_t size)
{
	if (n >= ((size_t)1 << 30) && n % ((size_t)1 << 30) == 0)
		snprintf(buf, size, "%zu GiB", n >> 30);
	else if (n >= ((size_t)1 << 20) && n % ((size_t)1 << 20) == 0)
		snprintf(buf, size, "%zu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, size, "%zu KiB", n >> 10);
	else
		snprintf(buf, size, "%zu B", n);
	return buf;
}

static const char *text(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* The index of word in names[0..n), the enum value it names; bad(path, why) if none. */
static unsigned int one_of(const char *path, const char *word, const char *const *names, size_t n,
			   const char *why)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, names[i]) == 0)
			return (unsigned int)i;
	bad(path, why);
}

/* The record's plan_machine as the library's struct: every field, with its type. */
static void read_machine(const char *path, json_t *pm, struct hl_zero_machine *m)
{
	static const char *const bools[] = {"erms", "fsrm", "avx2", "avx512", "mops"};
	static const char *const sizes[] = {"dczva_block", "l1d", "l2", "l3", "l3_sharing"};
	/* In the order of enum hl_zero_isa and enum hl_zero_vendor (src/zero_plan.h). */
	static const char *const isas[] = {"other", "x86_64", "aarch64"};
	static const char *const vendors[] = {"other", "intel", "amd"};
	const char *isa = text(pm, "isa"), *vendor = text(pm, "vendor");
	const char *family = text(pm, "family"), *model = text(pm, "model");
	json_t *from = json_object_get(pm, "caches_from");
	bool b[5];
	size_t s[5];

	if (!json_is_object(pm))
		bad(path, "no plan_machine object");
	if (!isa || !vendor || !family || !model)
		bad(path, "plan_machine: isa, vendor, family and model must be strings");
	for (size_t i = 0; i < 5; i++) {
		json_t *v = json_object_get(pm, bools[i]);

		if (!json_is_boolean(v))
			bad(path, "plan_machine: erms, fsrm, avx2, avx512 and mops must be true or "
				  "false");
		b[i] = json_is_true(v);
	}
	for (size_t i = 0; i < 5; i++) {
		json_t *v = json_object_get(pm, sizes[i]);

		if (!json_is_integer(v) || json_integer_value(v) < 0)
			bad(path, "plan_machine: dczva_block, l1d, l2, l3 and l3_sharing must be "
				  "integers of 0 or more");
		s[i] = (size_t)json_integer_value(v);
	}
	memset(m, 0, sizeof(*m));
	m->isa = (enum hl_zero_isa)one_of(path, isa, isas, sizeof(isas) / sizeof(isas[0]),
					  "plan_machine.isa: not x86_64, aarch64 or other");
	m->vendor = (enum hl_zero_vendor)one_of(path, vendor, vendors,
						sizeof(vendors) / sizeof(vendors[0]),
						"plan_machine.vendor: not intel, amd or other");
	m->family = (unsigned)strtoul(family, NULL, 0);
	m->model = (unsigned)strtoul(model, NULL, 0);
	m->erms = b[0], m->fsrm = b[1], m->avx2 = b[2], m->avx512 = b[3], m->mops = b[4];
	m->dczva_block = (unsigned)s[0];
	m->l1d = s[1], m->l2 = s[2], m->l3 = s[3], m->l3_sharing = (unsigned)s[4];
	if (json_is_string(from))
		snprintf(m->caches_from, sizeof(m->caches_from), "%s", json_string_value(from));
	else if (!json_is_null(from))
		bad(path, "plan_machine.caches_from: not a string or null");
}

static void read_record(const char *path, struct record *r)
{
	json_error_t err;
	json_t *results, *row;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->json = json_load_file(path, 0, &err);
	if (!r->json) {
		char what[256];

		snprintf(what, sizeof(what), "not JSON: %s (line %d)", err.text, err.line);
		bad(path, what);
	}
	r->name = text(json_object_get(r->json, "machine"), "name");
	if (!r->name)
		bad(path, "no machine.name");
	read_machine(path, json_object_get(r->json, "plan_machine"), &r->machine);
	results = json_object_get(r->json, "results");
	if (!json_is_array(results) || !json_array_size(results))
		bad(path, "no results");
	r->rows = calloc(json_array_size(results), sizeof(*r->rows));
	if (!r->rows)
		bad(path, "out of memory");
	json_array_foreach(results, i, row)
	{
		struct row *w = &r->rows[r->n_rows];
		json_t *rr = json_object_get(row, "ratio_runs"), *v;
		size_t k;

		w->scenario = text(row, "scenario");
		w->subject = text(row, "subject");
		w->mode = text(row, "mode");
		if (!w->scenario || !w->subject || !w->mode ||
		    !json_is_integer(json_object_get(row, "size")))
			bad(path, "a result without scenario, subject, mode or size");
		w->size = (size_t)json_integer_value(json_object_get(row, "size"));
		w->gbps = json_number_value(json_object_get(row, "gb_per_sec"));
		if (!json_is_array(rr))
			continue; /* glibc's ratio to itself may be null when not paired */
		w->ratio_runs = calloc(json_array_size(rr) + 1, sizeof(double));
		if (!w->ratio_runs)
			bad(path, "out of memory");
		json_array_foreach(rr, k, v)
		{
			if (!json_is_number(v))
				bad(path, "ratio_runs: not a list of numbers");
			w->ratio_runs[w->n++] = json_number_value(v);
		}
		r->n_rows++;
	}
}

static void free_record(struct record *r)
{
	for (size_t i = 0; i < r->n_rows; i++)
		free(r->rows[i].ratio_runs);
	free(r->rows);
	json_decref(r->json);
}

static const struct row *find(const struct record *r, const char *scenario, const char *mode,
			      size_t size, const char *subject)
{
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct row *w = &r->rows[i];

		if (w->size == size && strcmp(w->scenario, scenario) == 0 &&
		    strcmp(w->mode, mode) == 0 && strcmp(w->subject, subject) == 0)
			return w;
	}
	return NULL;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* "0.69x [0.56, 0.73]" of a judgement. */
static const char *figure(const struct bench_judgement *j, char *buf, size_t size)
{
	if (j->n < 2)
		snprintf(buf, size, "%.2fx [no interval]", j->median);
	else
		snprintf(buf, size, "%.2fx [%.2f, %.2f]", j->median, j->lo, j->hi);
	return buf;
}

/* "a <= N < b <= M < c", as hl_zero_plan() and hl_copy_plan() print a plan. */
static const char *plan_text(const struct hl_size_plan *p, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, i + 1 < p->n ? "%s <= %zu < " : "%s",
					p->c[i].variant, p->c[i].max);
	return buf;
}

/*
 * Whether the record's figures of the entry fn (hl_zero, hl_try_copy) are
 * this plan's: the record ran exactly this plan (measured.zero_plan or
 * copy_plan), and has fn's rows. Then they are what the plan costs, the
 * entry's own small paths included, where a variant forced through the
 * redirect pays for it.
 */
static bool entry_is_the_plan(const struct record *r, const char *scenario, const char *fn,
			      const struct hl_size_plan *plan)
{
	const char *ran = text(json_object_get(r->json, "measured"),
			       strcmp(scenario, "zero") == 0 ? "zero_plan" : "copy_plan");
	char derived[512];

	if (!ran || strcmp(ran, plan_text(plan, derived, sizeof(derived))) != 0)
		return false;
	for (size_t i = 0; i < r->n_rows; i++)
		if (strcmp(r->rows[i].scenario, scenario) == 0 &&
		    strcmp(r->rows[i].subject, fn) == 0)
			return true;
	return false;
}

/* One plan (scenario: "zero" or "copy") and one mode of one record, as check_size reads it. */
struct mode_check {
	const struct record *r;
	const char *scenario, *fn, *base, *mode;
	const struct hl_size_plan *plan;
	bool entry; /* the plan's figures are the entry's own (entry_is_the_plan) */
};

/* The other variants at one size: the best of them, and those that could do better. */
struct others {
	const struct row *best;
	struct bench_judgement jb;
	bool reachable; /* one is within reach of thr and better than the plan's */
	char reach[512];
};

/* The sizes the record measured base at, in this scenario and mode, in order; their count. */
static size_t *mode_sizes(const struct mode_check *m, size_t *n_sizes)
{
	const struct record *r = m->r;
	size_t *sizes = calloc(r->n_rows, sizeof(*sizes));

	if (!sizes)
		bad(r->path, "out of memory");
	*n_sizes = 0;
	for (size_t i = 0; i < r->n_rows; i++)
		if (strcmp(r->rows[i].scenario, m->scenario) == 0 &&
		    strcmp(r->rows[i].mode, m->mode) == 0 &&
		    strcmp(r->rows[i].subject, m->base) == 0)
			sizes[(*n_sizes)++] = r->rows[i].size;
	qsort(sizes, *n_sizes, sizeof(*sizes), cmp_size);
	return sizes;
}

/*
 * The ratio a variant must reach at size: THRESHOLD, or below SMALL_BELOW, if
 * less, t / (t + ALLOW_NS), t glibc's (g's) time per call.
 */
static double size_threshold(size_t size, const struct row *g)
{
	double thr = THRESHOLD;

	if (size < SMALL_BELOW && g && g->gbps > 0) {
		double t = (double)size / g->gbps; /* ns per call */

		if (t / (t + ALLOW_NS) < thr)
			thr = t / (t + ALLOW_NS);
	}
	return thr;
}

/*
 * Whether v ran faster than the plan's row w in every pair the interval
 * needs: the median of v's ratio over w's, repetition by repetition (the
 * same round: glibc's time cancels), with its interval wholly above 1.
 */
static bool surely_faster(const struct row *v, const struct row *w)
{
	size_t n = v->n < w->n ? v->n : w->n;
	double paired[256];
	struct bench_judgement j;

	if (n > sizeof(paired) / sizeof(paired[0]))
		n = sizeof(paired) / sizeof(paired[0]);
	for (size_t i = 0; i < n; i++)
		paired[i] = v->ratio_runs[i] / w->ratio_runs[i];
	bench_judge(paired, n, 1.0, true, &j);
	return n >= 2 && j.lo > 1.0;
}

/*
 * Every other variant's judgement at size, against the plan's row w (its
 * judgement jc). The plan's own variant is no other plan: when w is the
 * entry's row, the same variant forced through the redirect differs from
 * it only by the redirect and the noise.
 */
static void judge_others(const struct mode_check *m, size_t size, double thr, const struct row *w,
			 const struct bench_judgement *jc, struct others *o)
{
	const struct record *r = m->r;
	const char *chosen = hl__plan_variant(m->plan, size);
	struct bench_judgement j;
	size_t reach_len = 0;
	char a[64];

	for (size_t i = 0; i < r->n_rows; i++) {
		const struct row *v = &r->rows[i];

		if (v->size != size || strcmp(v->scenario, m->scenario) != 0 ||
		    strcmp(v->mode, m->mode) != 0 || strcmp(v->subject, m->base) == 0 ||
		    strcmp(v->subject, m->fn) == 0 || !v->n)
			continue;
		bench_judge(v->ratio_runs, v->n, thr, true, &j);
		/* Within reach, and faster than the plan pair by pair: a better plan. */
		if (v->n >= 2 && j.hi >= thr && j.median > jc->median &&
		    strcmp(v->subject, chosen) != 0 && surely_faster(v, w)) {
			o->reachable = true;
			if (reach_len < sizeof(o->reach))
				reach_len += (size_t)snprintf(o->reach + reach_len,
							      sizeof(o->reach) - reach_len,
							      "%s%s %s", reach_len ? ", " : "",
							      v->subject, figure(&j, a, sizeof(a)));
		}
		if (!o->best || j.median > o->jb.median)
			o->best = v, o->jb = j;
	}
}

/* One size of one plan and mode: ok, named (no variant within reach) or a failure, printed. */
static void check_size(const struct mode_check *m, size_t size)
{
	const struct record *r = m->r;
	const char *chosen = hl__plan_variant(m->plan, size);
	const struct row *w = find(r, m->scenario, m->mode, size, m->entry ? m->fn : chosen);
	const double thr = size_threshold(size, find(r, m->scenario, m->mode, size, m->base));
	struct others o = {0};
	struct bench_judgement jc;
	char sz[32], a[64], b[64];
	const char *status;

	size_words(size, sz, sizeof(sz));
	if (!w || w->n < 2) {
		printf("    %-10s %-14s %-22s FAIL\n", sz, chosen,
		       w ? "one repetition" : "not measured");
		keep(failures, &n_failures, "%s: %s, %s, %s: the plan's %s has %s in the record",
		     r->name, m->fn, m->mode, sz, chosen,
		     w ? "fewer than two repetitions" : "no figures");
		return;
	}
	bench_judge(w->ratio_runs, w->n, thr, true, &jc);
	judge_others(m, size, thr, w, &jc, &o);
	if (jc.hi >= thr) {
		status = "ok";
	} else if (!o.reachable) {
		status = "named: no better variant";
		keep(named, &n_named, "%s: %s, %s, %s: the plan's %s %s; best %s %s", r->name,
		     m->fn, m->mode, sz, chosen, figure(&jc, a, sizeof(a)), o.best->subject,
		     figure(&o.jb, b, sizeof(b)));
	} else {
		status = "FAIL";
		keep(failures, &n_failures,
		     "%s: %s, %s, %s: the plan's %s is %s of %s, wholly below %.2fx; "
		     "best there: %s %s; reaching %.2fx: %s",
		     r->name, m->fn, m->mode, sz, chosen, figure(&jc, a, sizeof(a)), m->base, thr,
		     o.best->subject, figure(&o.jb, b, sizeof(b)), thr, o.reach);
	}
	printf("    %-10s %-14s %-22s %-14s %-22s %s\n", sz, chosen, figure(&jc, a, sizeof(a)),
	       o.best->subject, figure(&o.jb, b, sizeof(b)), status);
}

/* One plan (scenario: "zero" or "copy"), one mode, of one record. */
static void check_mode(const struct record *r, const char *scenario, const char *fn,
		       const char *base, const struct hl_size_plan *plan, const char *mode)
{
	const struct mode_check m = {
		r, scenario, fn, base, mode, plan, entry_is_the_plan(r, scenario, fn, plan)};
	size_t n_sizes;
	size_t *sizes = mode_sizes(&m, &n_sizes);

	if (!n_sizes) {
		free(sizes);
		return;
	}
	printf("\n  %s, %s: ratio to %s, median [%.0f%% interval] of the paired repetitions%s\n",
	       fn, mode, base, 100 * BENCH_LEVEL,
	       m.entry ? "; the plan's figures are the entry's own (the record ran this plan)"
		       : "");
	printf("    %-10s %-14s %-22s %-14s %-22s %s\n", "size", "plan's", "ratio", "best", "ratio",
	       "");
	for (size_t s = 0; s < n_sizes; s++)
		check_size(&m, sizes[s]);
	free(sizes);
}

/* A size plan as hl_zero_plan() and hl_copy_plan() print one (plan_text). */
static void print_plan(const char *fn, const struct hl_size_plan *p)
{
	char buf[512];

	printf("  %s's plan: %s\n", fn, plan_text(p, buf, sizeof(buf)));
}

static void check_record(const struct record *r)
{
	static const char *const modes[] = {"hot", "cold"};
	struct hl_size_plan zero, copy;
	const char *cpu = text(json_object_get(r->json, "machine"), "cpu");

	hl__zero_plan_for(&r->machine, &zero);
	hl__copy_plan_for(&r->machine, &copy);
	printf("\n%s (%s): %s\n", r->name, r->path, cpu ? cpu : "cpu not recorded");
	print_plan("hl_zero", &zero);
	print_plan("hl_try_copy", &copy);
	for (size_t m = 0; m < 2; m++)
		check_mode(r, "zero", "hl_zero", "glibc_memset", &zero, modes[m]);
	for (size_t m = 0; m < 2; m++)
		check_mode(r, "copy", "hl_try_copy", "glibc_memcpy", &copy, modes[m]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* If n: a blank line, "HEADING (N):", then each line indented, after prefix; frees them. */
static void print_list(const char *heading, char **lines, size_t n, const char *prefix)
{
	if (!n)
		return;
	printf("\n%s (%zu):\n", heading, n);
	for (size_t i = 0; i < n; i++)
		printf("  %s%s\n", prefix, lines[i]), free(lines[i]);
}

int main(int argc, char **argv)
{
	char *paths[256];
	size_t n_paths = 0;
	struct dirent *e;
	DIR *d;

	if (argc != 2) {
		fprintf(stderr, "usage: test_plans DIR (data/machines)\n");
		return 2;
	}
	d = opendir(argv[1]);
	if (!d)
		bad(argv[1], strerror(errno));
	while ((e = readdir(d)) && n_paths < 256) {
		size_t len = strlen(e->d_name);

		if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0 &&
		    asprintf(&paths[n_paths], "%s/%s", argv[1], e->d_name) >= 0)
			n_paths++;
	}
	closedir(d);
	if (!n_paths)
		bad(argv[1], "no machine records (*.json)");
	qsort(paths, n_paths, sizeof(*paths), cmp_str);
	printf("The automatic plans on %zu recorded machine%s: at each size the plan's variant "
	       "must not lie wholly below %.2fx glibc (below %d B: more than %.0f ns per call "
	       "over it), unless no other variant both reaches that there and runs faster than "
	       "the plan's, paired repetition by repetition.\n",
	       n_paths, n_paths > 1 ? "s" : "", THRESHOLD, SMALL_BELOW, ALLOW_NS);
	for (size_t i = 0; i < n_paths; i++) {
		struct record r;

		read_record(paths[i], &r);
		check_record(&r);
		free_record(&r);
		free(paths[i]);
	}
	print_list("Named, not failed: no other variant is both within reach of glibc there and "
		   "faster than the plan's in every paired repetition, so no plan is shown to do "
		   "better",
		   named, n_named, "");
	print_list("FAILED: the plan's variant is out of reach of glibc where another variant is "
		   "within it and faster in every paired repetition",
		   failures, n_failures, "FAIL ");
	if (n_failures)
		return 1;
	printf("\nEvery recorded size holds.\n");
	return 0;
}
