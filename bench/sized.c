// SPDX-License-Identifier: MIT
/*
 * sized.c - the sized-scenario engine (sized.h): the subjects a scenario
 * declares and the library's variants, the memory (last-level cache, cold
 * arena and its walk, the mapping), the measurement of each sweep at each
 * size with repetitions interleaved across the subjects and taken in
 * rounds over the sizes (and --until-decided), the checks of
 * the loop's buffers, the tables and the JSON rows with their paired
 * ratios. The run itself, from the command line's options to the last
 * table, is sized_run.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "questions.h"
#include "sized.h"
#include "sized_loop.h"

#define SIZED_MIN_ARENA (64ull << 20)
#define SIZED_MAX_ARENA (2ull << 30)
#define SIZED_LLC_GUESS (32ull << 20) /* when the machine does not say */
#define SIZED_SENTINEL	0x5a	      /* just past the hot destination: must survive */

/* ---- subjects ------------------------------------------------------------ */

static const struct sized_facts sized_no_facts;

const struct sized_facts *sized_facts(const struct bench_subject *s)
{
	return s->extra ? s->extra : &sized_no_facts;
}

bool sized_is_variant(const struct bench_subject *s)
{
	return s->facts.variant_of != NULL;
}

const char *sized_variant(const struct bench_subject *s)
{
	return sized_is_variant(s) ? s->name : sized_facts(s)->automatic ? "auto" : NULL;
}

const struct bench_subject *sized_variant_subject(const struct sized_def *def, const char *name)
{
	for (size_t i = 0; name && i < def->scenario->nr_subjects; i++) {
		if (sized_is_variant(&def->subjects[i]) && strcmp(def->subjects[i].name, name) == 0)
			return &def->subjects[i];
	}
	return NULL;
}

void *sized_setup_variant(const struct bench_params *p)
{
	struct sized_sample *s = p->sink;

	if (s->def->variants->use(s->subject) != 0) {
		errno = ENOTSUP;
		return NULL;
	}
	return s;
}

void *sized_setup_auto(const struct bench_params *p)
{
	struct sized_sample *s = p->sink;

	s->def->variants->use("auto");
	return s;
}

void *sized_setup_plain(const struct bench_params *p)
{
	return p->sink;
}

void sized_teardown(void *state)
{
	(void)state;
}

/* The description of variant name: the scenario's text for it, or the generic line. */
static const char *variant_text(const struct sized_variants *v, const char *name)
{
	for (size_t j = 0; j < v->nr_text; j++) {
		if (strcmp(v->text[j][0], name) == 0)
			return v->text[j][1];
	}
	return v->generic;
}

void sized_init_subjects(const struct sized_def *def)
{
	const struct sized_variants *v = def->variants;
	size_t n = 0;
	const char *name;

	for (unsigned int i = 0; v && (name = v->name(i)) && n < SIZED_MAX_VARIANTS; i++) {
		/* The function with this variant forced: its facts are the function's. */
		def->subjects[n++] = (struct bench_subject){
			.name = name,
			.description = variant_text(v, name),
			.setup = sized_setup_variant,
			.run = v->run,
			.teardown = sized_teardown,
			.facts = v->facts,
			.extra = v->extra,
		};
	}
	for (size_t i = 0; i < def->nr_fixed && n < SIZED_MAX_SUBJECTS; i++)
		def->subjects[n++] = def->fixed[i];
	def->scenario->subjects = def->subjects;
	def->scenario->nr_subjects = n;
}

/* ---- memory -------------------------------------------------------------- */

size_t sized_round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

size_t sized_llc_bytes(bool *guessed)
{
	size_t llc = bench_llc_bytes();
	long v;

	*guessed = false;
	if (llc)
		return llc;
	v = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (v > 0)
		return (size_t)v;
	*guessed = true;
	return SIZED_LLC_GUESS;
}

size_t sized_arena_bytes(size_t llc)
{
	size_t arena = sized_round_up(llc * SIZED_ARENA_LLCS, SIZED_HUGE_PAGE);

	if (arena < SIZED_MIN_ARENA)
		arena = SIZED_MIN_ARENA;
	if (arena > SIZED_MAX_ARENA)
		arena = SIZED_MAX_ARENA;
	return arena;
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The cold walk at size n: slots of n bytes rounded up to a cache line, and
 * a step near 0.618 of their number that is coprime with it, so that the
 * walk visits every slot once before it comes back (the whole arena, four
 * times the cache, is written between two visits of one slot) and two
 * consecutive calls are far apart.
 */
void sized_cold_walk(struct sized_sample *s, size_t arena)
{
	s->slot_bytes = sized_round_up(s->size, SIZED_ALIGN);
	s->nr_slots = arena / s->slot_bytes;
	s->step = 1;
	if (s->nr_slots > 3) {
		s->step = (size_t)((double)s->nr_slots * 0.6180339887);
		while (gcd(s->step, s->nr_slots) != 1)
			s->step++;
	}
}

/*
 * The memory every sample uses (need bytes: the largest hot buffers and
 * the byte after them, the cold arena, the scenario's own), every page
 * faulted in (the scenario's fill, or a byte per page); huge pages where
 * the kernel gives them.
 */
int sized_map(struct sized_run *run, size_t need)
{
	run->region_bytes = sized_round_up(need, SIZED_HUGE_PAGE);
	run->region = mmap(NULL, run->region_bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (run->region == MAP_FAILED) {
		run->region = NULL;
		bench_error("%s: cannot map %zu MiB: %s", run->def->name, run->region_bytes >> 20,
			    strerror(errno));
		return -1;
	}
	madvise(run->region, run->region_bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	if (run->def->fill) {
		run->def->fill(run->region, run->region_bytes);
		return 0;
	}
	for (size_t off = 0; off < run->region_bytes; off += SIZED_PAGE)
		run->region[off] = 1;
	return 0;
}

void sized_unmap(struct sized_run *run)
{
	if (run->region)
		munmap(run->region, run->region_bytes);
	run->region = NULL;
}

/* ---- the loop's checks (sized_loop.h) ------------------------------------ */

/* What a correct call of the sample's subject leaves at byte at: its own expect, or the def's. */
static unsigned char expected(const struct sized_sample *s, const unsigned char *src, size_t at)
{
	if (s->facts && s->facts->expect)
		return s->facts->expect(src, at);
	return s->def->expect(src, at);
}

/*
 * Make the first, middle and last byte of the first destination differ
 * from what a correct call leaves there, and (hot mode, where the byte
 * after it is no other call's) mark the byte after it.
 */
void sized_mark(const struct sized_sample *s, unsigned char *dst, const unsigned char *src,
		bool sentinel)
{
	const size_t n = s->size, at[] = {0, n / 2, n - 1};

	for (size_t i = 0; i < ARRAY_SIZE(at); i++)
		dst[at[i]] = (unsigned char)~expected(s, src, at[i]);
	if (sentinel)
		dst[n] = SIZED_SENTINEL;
}

void sized_check(struct bench_worker *w, const struct sized_sample *s, const unsigned char *dst,
		 const unsigned char *src, size_t left, bool sentinel)
{
	const struct sized_def *def = s->def;
	const size_t n = s->size, at[] = {0, n / 2, n - 1};

	if (left) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why), "a call left bytes of a %zu-byte %s %s", n,
			 def->noun, def->undone);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		unsigned char want = expected(s, src, at[i]);

		if (dst[at[i]] != want) {
			w->failed = true;
			def->wrong(w->why, sizeof(w->why), at[i], n, dst[at[i]], want);
			return;
		}
	}
	if (sentinel && dst[n] != SIZED_SENTINEL) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why),
			 "the byte after a %zu-byte %s was overwritten (0x%02x, expected 0x%02x)",
			 n, def->noun, dst[n], SIZED_SENTINEL);
	}
}

/* ---- measuring ----------------------------------------------------------- */

const char *sized_size_text(size_t n, char *buf, size_t len)
{
	if (n >= (1u << 30) && n % (1u << 30) == 0)
		snprintf(buf, len, "%zuG", n >> 30);
	else if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, len, "%zuM", n >> 20);
	else if (n >= (1u << 10) && n % (1u << 10) == 0)
		snprintf(buf, len, "%zuK", n >> 10);
	else
		snprintf(buf, len, "%zu", n);
	return buf;
}

double sized_duration(const struct sized_def *def, const struct bench_config *cfg)
{
	return cfg->duration ? cfg->duration : cfg->quick ? def->quick_duration : def->duration;
}

void sized_ctx_init(struct sized_ctx *ctx, const struct sized_run *run,
		    const struct sized_sweep *sweep, const struct bench_subject **subjects,
		    size_t n)
{
	*ctx = (struct sized_ctx){
		.run = run,
		.sweep = sweep,
		.subjects = subjects,
		.n = n,
		.sample =
			{
				.def = run->def,
				.src = run->region,
				.dst = run->region,
				.cold = sweep->cold,
				.used = sweep->used,
				.duration_ns = (uint64_t)(run->duration * 1e9),
				.fd = -1,
				.own = run->own,
			},
	};
	/* Each subject's baseline, when it is measured in this sweep too. */
	for (size_t i = 0; i < n; i++) {
		const char *want = subjects[i]->facts.baseline;

		ctx->base[i] = -1;
		for (size_t j = 0; want && j < n; j++) {
			if (strcmp(subjects[j]->name, want) == 0)
				ctx->base[i] = (int)j;
		}
	}
}

/* Where the hot destination starts when there is a source: after it, a cache line apart. */
static size_t hot_gap(size_t size)
{
	return sized_round_up(size, SIZED_ALIGN) + SIZED_ALIGN;
}

/*
 * The slices a sample at size is cut into: the run's (SIZED_SLICES), but
 * hot, only as many as hold SIZED_SLICE_CALLS calls each at the rate the
 * scenario assumes. A hot figure is the steady state of a buffer used over
 * and over; a slice of a few calls just after another subject's (one that
 * streamed the buffer out of the cache, say) is not, even after its
 * warm-up. A cold call starts cold whoever ran before.
 */
static unsigned int slices_at(const struct sized_run *run, bool cold, size_t size)
{
	double calls = run->duration * run->def->rate / (double)size;
	double most = calls / SIZED_SLICE_CALLS;

	if (cold || most >= run->slices)
		return run->slices;
	return most >= 1 ? (unsigned int)most : 1;
}

bool sized_set_size(struct sized_ctx *ctx, size_t size)
{
	const struct sized_run *run = ctx->run;
	const size_t parts = run->def->buffers;
	struct sized_sample *s = &ctx->sample;

	s->size = size;
	s->cursor = 0;
	ctx->slices = slices_at(run, s->cold, size);
	if (s->cold) {
		if (size > run->arena / (2 * parts))
			return false;
		sized_cold_walk(s, run->arena / parts);
		s->src = run->region;
		s->dst = run->region + (parts - 1) * (run->arena / parts);
	} else {
		s->src = run->region;
		s->dst = run->region + (parts - 1) * hot_gap(size);
		s->slot_bytes = 0;
		s->nr_slots = 1;
		s->step = 0;
		s->warm_up = parts * size <= run->llc;
	}
	return true;
}

/* The bytes the hot buffers of size take, with the byte after them. */
size_t sized_hot_bytes(const struct sized_def *def, size_t size)
{
	return def->buffers == 1 ? size + SIZED_ALIGN : def->buffers * hot_gap(size) + SIZED_ALIGN;
}

/* Subject i's sample for ns more of its repetition, added to its sum. 0, or 1 after bench_error. */
static int sized_slice(struct sized_ctx *ctx, size_t i, uint64_t ns)
{
	const struct bench_subject *s = ctx->subjects[i];
	struct sized_sum *sum = &ctx->sum[i];
	struct sized_sample sample = ctx->sample;
	struct bench_params params = {.threads = 1, .size = sample.size, .sink = &sample};
	char size[32];
	struct bench_run run;

	sample.subject = s->name;
	sample.facts = sized_facts(s);
	sample.duration_ns = ns;
	if (bench_measure(s, &params, 1, &ctx->run->cfg->pin, 0, &run))
		return 1;
	if (run.failed) {
		bench_error("%s: %s, %s %s: %s", ctx->run->def->name, s->name, ctx->sweep->name,
			    sized_size_text(sample.size, size, sizeof(size)), run.why);
		bench_run_free(&run);
		return 1;
	}
	/* The loop's own interval: without the warm-up, the marks and the thread's start. */
	sum->elapsed_ns += sample.elapsed_ns;
	sum->cycles += sample.cycles;
	sum->calls += sample.calls;
	sum->bytes += sample.bytes;
	sum->cpu = run.cpus[0];
	ctx->sample.cursor = sample.cursor; /* the next subject's cold walk goes on from here */
	bench_run_free(&run);
	return 0;
}

/*
 * Slice slice of subject i's repetition: its sample until the subject's
 * time in this repetition reaches (slice + 1) / slices of the duration, at
 * least one call; nothing when its earlier slices already took that long
 * (a call longer than a slice). The last slice adds the repetition, the
 * sum of its slices, to the subject's series (bench_series_add_sliced:
 * one machine interval a repetition, so that bench_machine's tick error
 * counts once, not once per slice).
 */
static int sized_measure(void *arg, size_t i, unsigned int rep, unsigned int slice)
{
	struct sized_ctx *ctx = arg;
	const unsigned int slices = ctx->slices;
	const uint64_t until = ctx->sample.duration_ns * (slice + 1) / slices;
	struct sized_sum *sum = &ctx->sum[i];

	(void)rep;
	if (slice == 0) {
		*sum = (struct sized_sum){.cpu = -1};
		bench_machine_sample(&sum->start);
	}
	if ((slice == 0 || sum->elapsed_ns < until) && sized_slice(ctx, i, until - sum->elapsed_ns))
		return 1;
	if (slice + 1 == slices) {
		struct bench_run whole = {
			.threads = 1,
			.cpus = &sum->cpu,
			.ops = &sum->calls,
			.total_ops = sum->calls,
			.elapsed_ns = (double)sum->elapsed_ns,
			.cycles = sum->cycles,
		};

		bench_series_add_sliced(&ctx->series[i], &whole,
					sum->calls ? (double)sum->bytes / (double)sum->calls : 0,
					&sum->start);
	}
	return 0;
}

/* ctx->series for its subjects, and its progress label: "zero, hot 4 KiB". */
static int series_init(struct sized_ctx *ctx, char *label, size_t label_size)
{
	char size[32];

	ctx->series = calloc(ctx->n, sizeof(*ctx->series));
	ctx->sum = calloc(ctx->n, sizeof(*ctx->sum));
	if (!ctx->series || !ctx->sum) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < ctx->n; i++) {
		if (bench_series_init(&ctx->series[i], bench_reps_cap(ctx->run->reps), 1))
			return 1;
	}
	snprintf(label, label_size, "%s, %s %s", ctx->run->def->name, ctx->sweep->name,
		 sized_size_text(ctx->sample.size, size, sizeof(size)));
	return 0;
}

static void sized_series_free(struct sized_ctx *ctx)
{
	for (size_t i = 0; ctx->series && i < ctx->n; i++)
		bench_series_free(&ctx->series[i]);
	free(ctx->series);
	free(ctx->sum);
	ctx->series = NULL;
	ctx->sum = NULL;
}

/* ---- the tables ------------------------------------------------------------ */

/* Column width of a subject in the tables: its name, at least 7 characters. */
static int width(const struct bench_subject *s)
{
	int len = (int)strlen(s->name);

	return len < 7 ? 7 : len;
}

static void print_header(const struct sized_ctx *ctx)
{
	printf("\n%s, %s (median):\n%-9s", ctx->sweep->name, ctx->sweep->unit, "size");
	for (size_t i = 0; i < ctx->n; i++)
		printf(" %*s", width(ctx->subjects[i]), ctx->subjects[i]->name);
	putchar('\n');
}

static void print_row(const struct sized_ctx *ctx)
{
	bool per_op = ctx->sweep->headline == BENCH_HEADLINE_NS_PER_OP;
	char size[32];

	printf("%-9s", sized_size_text(ctx->sample.size, size, sizeof(size)));
	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_series *s = &ctx->series[i];

		printf(" %*.3g", width(ctx->subjects[i]),
		       bench_median(per_op ? s->ns_per_op : s->gb_per_sec, s->n));
	}
	putchar('\n');
	fflush(stdout);
}

/* ---- the JSON ---------------------------------------------------------------- */

/*
 * Subject i's throughput / its baseline's in each repetition both ran,
 * into ratio[] (--until-decided may give one more than the other); their
 * number. Its own baseline: 1 in each of its repetitions.
 */
static unsigned int paired_ratio(const struct sized_ctx *ctx, size_t i, bool self, double *ratio)
{
	const struct bench_series *s = &ctx->series[i];
	const struct bench_series *b = self ? s : &ctx->series[ctx->base[i]];
	unsigned int n = s->n < b->n ? s->n : b->n;

	for (unsigned int rep = 0; rep < n; rep++)
		ratio[rep] = self ? 1.0 : s->gb_per_sec[rep] / b->gb_per_sec[rep];
	return n;
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void sized_results(const struct sized_ctx *ctx, json_t *results)
{
	const struct sized_run *run = ctx->run;
	double *ratio = calloc(bench_reps_cap(run->reps), sizeof(*ratio));

	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_subject *s = ctx->subjects[i];
		const char *base = s->facts.baseline ? s->facts.baseline : s->name;
		bool self = strcmp(base, s->name) == 0;
		json_t *r = bench_result_json(run->def->name, s->name, &ctx->series[i],
					      ctx->sweep->headline, ctx->sample.size, 0);

		json_object_set_new(r, "mode", json_string(ctx->sweep->name));
		json_object_set_new(r, "duration", json_real(run->duration));
		json_object_set_new(r, "slices", json_integer(ctx->slices));
		json_object_set_new(r, "llc_bytes", json_integer((json_int_t)run->llc));
		json_object_set_new(r, "arena_bytes",
				    ctx->sweep->cold ? json_integer((json_int_t)run->arena)
						     : json_null());
		json_object_set_new(r, "variant", string_or_null(sized_variant(s)));
		json_object_set_new(r, "plan",
				    string_or_null(sized_facts(s)->automatic ? run->plan : NULL));
		json_object_set_new(r, "measures", string_or_null(sized_facts(s)->measures));
		if (ctx->sweep->json)
			ctx->sweep->json(ctx, i, r);
		json_object_set_new(r, "ratio_to", json_string(base));
		if ((self || ctx->base[i] >= 0) && ratio) {
			unsigned int nr = paired_ratio(ctx, i, self, ratio);

			json_object_set_new(r, "ratio", json_real(bench_median(ratio, nr)));
			json_object_set_new(r, "ratio_runs", bench_json_reals(ratio, nr));
		} else {
			json_object_set_new(r, "ratio", json_null());
			json_object_set_new(r, "ratio_runs", json_null());
		}
		json_array_append_new(results, r);
	}
	free(ratio);
}

/* ---- one sweep ----------------------------------------------------------------- */

/* The until-decided point of one size of a sweep, its questions' subjects those of ctx. */
static struct bench_point size_point(struct sized_ctx *ctx, const char *label)
{
	return (struct bench_point){
		.scenario = ctx->run->def->name,
		.label = label,
		.mode = ctx->sweep->name,
		.size = ctx->sample.size,
		.llc = ctx->run->llc,
		.n = ctx->n,
		.subjects = ctx->subjects,
		.series = ctx->series,
		.measure = sized_measure,
		.ctx = ctx,
		.slices = ctx->slices,
	};
}

/* --until-decided at every size of w, in rounds over them. 0, or measure's. */
static int decide_sizes(struct sized_sizes *w)
{
	struct bench_point *points = calloc(w->nr ? w->nr : 1, sizeof(*points));
	int ret;

	if (!points) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t k = 0; k < w->nr; k++)
		points[k] = size_point(&w->ctx[k], w->labels[k]);
	ret = bench_until_decided_points(points, w->nr);
	free(points);
	return ret;
}

int sized_sizes_init(struct sized_sizes *w, const struct sized_run *run,
		     const struct sized_sweep *sweep, const struct bench_subject **subjects,
		     size_t n, const size_t *sizes, size_t nr_sizes, size_t *skipped)
{
	*w = (struct sized_sizes){
		.ctx = calloc(nr_sizes ? nr_sizes : 1, sizeof(*w->ctx)),
		.points = calloc(nr_sizes ? nr_sizes : 1, sizeof(*w->points)),
		.labels = calloc(nr_sizes ? nr_sizes : 1, sizeof(*w->labels)),
	};
	if (!w->ctx || !w->points || !w->labels) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t z = 0; z < nr_sizes; z++) {
		struct sized_ctx *ctx = &w->ctx[w->nr];

		sized_ctx_init(ctx, run, sweep, subjects, n);
		if (!sized_set_size(ctx, sizes[z])) {
			if (skipped)
				(*skipped)++;
			continue;
		}
		w->nr++;
		if (series_init(ctx, w->labels[w->nr - 1], sizeof(w->labels[0])))
			return 1;
		w->points[w->nr - 1] =
			(struct bench_round_point){w->labels[w->nr - 1], ctx, ctx->slices};
	}
	return 0;
}

int sized_sizes_measure(const struct sized_sizes *w)
{
	if (!w->nr)
		return 0;
	return bench_interleave_rounds(w->points, w->nr, w->ctx[0].subjects, NULL, w->ctx[0].n,
				       w->ctx[0].run->reps, sized_measure);
}

void sized_sizes_free(struct sized_sizes *w)
{
	for (size_t k = 0; w->ctx && k < w->nr; k++)
		sized_series_free(&w->ctx[k]);
	free(w->ctx);
	free(w->points);
	free(w->labels);
	*w = (struct sized_sizes){0};
}

/*
 * One sweep: its repetitions in rounds over its sizes (sized_sizes_measure),
 * so that the repetitions at one size are spread over the whole sweep and
 * sample the machine's drift; then, in rounds too, more repetitions where a
 * question cannot tell (--until-decided); then each size's row of the table
 * and its results.
 */
int sized_run_sweep(const struct sized_run *run, const struct sized_sweep *sweep,
		    const struct bench_subject **subjects, size_t n, const size_t *sizes,
		    size_t nr_sizes, json_t *results)
{
	struct sized_ctx head;
	struct sized_sizes w;
	size_t skipped = 0;
	int ret = 1;

	if (!n)
		return 0;
	sized_ctx_init(&head, run, sweep, subjects, n);
	print_header(&head);
	if (sized_sizes_init(&w, run, sweep, subjects, n, sizes, nr_sizes, &skipped) ||
	    sized_sizes_measure(&w) || decide_sizes(&w))
		goto out;
	for (size_t k = 0; k < w.nr; k++) {
		print_row(&w.ctx[k]);
		sized_results(&w.ctx[k], results);
	}
	if (skipped)
		run->def->skipped(run, sweep, skipped);
	ret = 0;
out:
	sized_sizes_free(&w);
	return ret;
}
