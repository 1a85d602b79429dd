// SPDX-License-Identifier: MIT
/*
 * scenarios/zero.c - clearing memory: hotline's hl_zero variants against
 * glibc's memset and the kernel's own ways, from 1 byte to 1 GiB.
 *
 * The kernel argued for a year over which instruction sequence clears
 * memory fastest (rep stosb, rep stosq, an unrolled movq loop) and found the
 * answer depends on the CPU and the size (docs/sources.md, clear_user). This
 * scenario asks the machine at hand: every hl_zero variant this CPU can run
 * (forced with hl_zero_use), hl_zero and hl_try_zero with their automatic
 * per-size plan, glibc's memset, a copy from a zero page (what tmpfs did for
 * holes) and read(2) from /dev/zero (the kernel's clear_user), each at every
 * size, in two states of the cache:
 *
 *  - hot: one buffer, cleared again and again; it stays in the cache as far
 *    as it fits;
 *  - cold: every call clears a different place of an arena four times the
 *    last-level cache, visited in a scattered order, so that each call finds
 *    its buffer evicted (and the prefetchers cannot guess the next one).
 *    Every page is faulted in beforehand (and asked to be a transparent huge
 *    page): this measures cache misses, not page faults or TLB walks.
 *
 * Beside them, the seed's two kernel experiments against this machine's
 * kernel: dd-style sequential read(2) in 1 MiB blocks of a large sparse
 * tmpfs file and of /dev/zero. Those measure the host kernel, not hotline.
 *
 * One sample of one subject at one size: in hot mode one untimed call to
 * warm the cache, then calls in batches until the sample's duration is
 * over (at least one call), timed as a whole with the harness's clock.
 * Batches grow until one lasts ZT_BATCH_NS, so that reading the clock costs
 * nothing next to them, even at 1 byte. Repetitions are interleaved across
 * the subjects at each size, so each repetition's figures can be compared
 * side by side (ratio: to glibc_memset in the same repetition).
 *
 * The loop is written once (zt_timed) and inlined into one small run
 * function per subject, with that subject's clear operation inlined into
 * it. The variant subjects are the library's own list (hl_zero_variant_name),
 * read before main(); that is why this scenario object is not const.
 *
 * The scenario's files (zero.h): this one holds the subjects, their loop
 * and the run; zero_arena.c the memory, zero_dd.c the host kernel's
 * experiments, zero_output.c the tables and the JSON.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotline/zero.h>

#include "../arch/arch.h"
#include "../questions.h"
#include "zero.h"

#define ZT_BATCH_NS	20000 /* a batch of calls grows until it lasts this long */
#define ZT_MAX_SIZE	(1ull << 30)
#define ZT_MAX_VARIANTS 16

#define ZT_KERNEL_CLEAR                                                                            \
	"host kernel: read(2) from /dev/zero, i.e. the kernel's clear_user on this machine; "      \
	"not hotline code"

/* The extra sizes of the default list, beside every power of two: unaligned tails. */
static const size_t zt_odd_sizes[] = {3, 17, 100, 1000, 3000, 65537, (3u << 20) + 3};

/* --quick: a few sizes from each level of the memory hierarchy. */
static const size_t zt_quick_sizes[] = {
	1,	   17,	      64, 256, 1000, 4096, 16384, 65537, 262144, 1u << 20, (3u << 20) + 3,
	16u << 20, 64u << 20,
};

/* ---- the subjects' clear operations -------------------------------------- */

/*
 * Each returns the number of bytes it could not clear (0: all of them).
 * glibc's functions are called through volatile pointers so that the
 * compiler can neither inline them nor drop them.
 */
typedef size_t (*zt_clear_fn)(const struct zt_sample *s, unsigned char *dst, size_t n);

static void *(*volatile zt_memset)(void *, int, size_t) = memset;
static void *(*volatile zt_memcpy)(void *, const void *, size_t) = memcpy;

/* The zero page memcpy_zero_page copies from; never written. */
static _Alignas(ZT_PAGE) const unsigned char zt_zero_page[ZT_PAGE];

static inline size_t clear_hl_zero(const struct zt_sample *s, unsigned char *dst, size_t n)
{
	(void)s;
	hl_zero(dst, n);
	return 0;
}

static inline size_t clear_hl_try_zero(const struct zt_sample *s, unsigned char *dst, size_t n)
{
	(void)s;
	return hl_try_zero(dst, n);
}

static inline size_t clear_glibc_memset(const struct zt_sample *s, unsigned char *dst, size_t n)
{
	(void)s;
	zt_memset(dst, 0, n);
	return 0;
}

static inline size_t clear_memcpy_zero_page(const struct zt_sample *s, unsigned char *dst, size_t n)
{
	(void)s;
	for (size_t off = 0; off < n; off += ZT_PAGE)
		zt_memcpy(dst + off, zt_zero_page, n - off < ZT_PAGE ? n - off : ZT_PAGE);
	return 0;
}

static inline size_t clear_read_dev_zero(const struct zt_sample *s, unsigned char *dst, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t got = read(s->fd, dst + done, n - done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		done += (size_t)got;
	}
	return n - done;
}

/* ---- the measurement loop, once ----------------------------------------- */

/* The stores of the last call are observable: nothing may be optimised away. */
static inline void zt_escape(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

#define ZT_MARK	    0xa5 /* must be cleared */
#define ZT_SENTINEL 0x5a /* just past the buffer: must survive */

/*
 * Mark the first, middle and last byte of the first buffer the timed loop
 * clears, and (hot mode, where the byte after the buffer is not another
 * call's) the byte after it; zt_check says what the calls did to them.
 */
static void zt_mark(unsigned char *p, size_t n, bool sentinel)
{
	p[0] = p[n / 2] = p[n - 1] = ZT_MARK;
	if (sentinel)
		p[n] = ZT_SENTINEL;
}

static bool zt_check(struct bench_worker *w, const unsigned char *p, size_t n, bool sentinel)
{
	const size_t at[] = {0, n / 2, n - 1};

	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		if (p[at[i]] != 0) {
			snprintf(w->why, sizeof(w->why),
				 "byte %zu of a %zu-byte buffer is 0x%02x after clearing it", at[i],
				 n, p[at[i]]);
			return false;
		}
	}
	if (sentinel && p[n] != ZT_SENTINEL) {
		snprintf(w->why, sizeof(w->why),
			 "the byte after a %zu-byte buffer was overwritten (0x%02x, expected "
			 "0x%02x)",
			 n, p[n], ZT_SENTINEL);
		return false;
	}
	return true;
}

/*
 * "used" mode: what a caller that clears a buffer does next, touch it. One
 * load per cache line (the buffer is 64-byte aligned in cold mode), timed
 * with the clear. The bytes are ORed, not summed: the result is nonzero
 * exactly when a byte read was not cleared, and the loop counts that as a
 * call that left bytes (a sum could wrap to 0).
 */
static bench_always_inline unsigned char zt_read_back(const unsigned char *p, size_t n)
{
	unsigned char seen = 0;

	for (size_t i = 0; i < n; i += 64)
		seen |= ((const volatile unsigned char *)p)[i];
	return seen;
}

static bench_always_inline void zt_timed(struct bench_worker *w, bool cold, bool used,
					 zt_clear_fn clear)
{
	struct zt_sample *s = w->state;
	const size_t n = s->size;
	size_t slot = cold ? s->cursor : 0, left = 0;
	unsigned char *first = s->base + slot * s->slot_bytes;
	uint64_t calls = 0, batch = 1, t0, t1, tb, c0;

	if (!cold && s->warm_up)
		left |= clear(s, s->base, n);
	zt_mark(first, n, !cold);
	t0 = tb = bench_now_ns();
	c0 = bench_cycles();
	do {
		for (uint64_t k = 0; k < batch; k++) {
			unsigned char *dst = cold ? s->base + slot * s->slot_bytes : s->base;

			left |= clear(s, dst, n);
			if (used)
				left |= zt_read_back(dst, n);
			zt_escape(dst);
			if (cold) {
				slot += s->step;
				if (slot >= s->nr_slots)
					slot -= s->nr_slots;
			}
		}
		calls += batch;
		t1 = bench_now_ns();
		if (t1 - tb < ZT_BATCH_NS)
			batch *= 2;
		tb = t1;
	} while (t1 - t0 < s->duration_ns);
	s->cycles = bench_cycles() - c0;
	s->elapsed_ns = t1 - t0;
	s->calls = calls;
	s->bytes = calls * n;
	s->cursor = slot;
	w->ops = calls;
	if (left) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why), "a call left bytes of a %zu-byte buffer uncleared",
			 n);
	} else if (!zt_check(w, first, n, !cold)) {
		w->failed = true;
	}
}

/* The same loop for a hot, cold or used sample: each compiled without the others' bookkeeping. */
static bench_always_inline void zt_loop(struct bench_worker *w, zt_clear_fn clear)
{
	const struct zt_sample *s = w->state;

	if (s->used)
		zt_timed(w, true, true, clear);
	else if (s->cold)
		zt_timed(w, true, false, clear);
	else
		zt_timed(w, false, false, clear);
}

/* One line per subject: the loop above with that subject's operation. */
static void run_variant(struct bench_worker *w)
{
	zt_loop(w, clear_hl_zero); /* the variant was forced by setup */
}

static void run_hl_zero(struct bench_worker *w)
{
	zt_loop(w, clear_hl_zero);
}

static void run_hl_try_zero(struct bench_worker *w)
{
	zt_loop(w, clear_hl_try_zero);
}

static void run_glibc_memset(struct bench_worker *w)
{
	zt_loop(w, clear_glibc_memset);
}

static void run_memcpy_zero_page(struct bench_worker *w)
{
	zt_loop(w, clear_memcpy_zero_page);
}

static void run_read_dev_zero(struct bench_worker *w)
{
	zt_loop(w, clear_read_dev_zero);
}

/* ---- setup: each subject's state is the sample the scenario prepared ----- */

static void *zt_setup_variant(const struct bench_params *p)
{
	struct zt_sample *s = p->sink;

	if (hl_zero_use(s->subject) != 0) {
		errno = ENOTSUP;
		return NULL;
	}
	return s;
}

static void *zt_setup_auto(const struct bench_params *p)
{
	hl_zero_use("auto");
	return p->sink;
}

static void *zt_setup_plain(const struct bench_params *p)
{
	return p->sink;
}

static void zt_teardown(void *state)
{
	(void)state;
}

/* ---- the subject table: the library's variants, then the fixed subjects --- */

static const struct bench_subject zt_fixed[] = {
	{"hl_zero", "hl_zero with the automatic per-size plan (hl_zero_use(\"auto\"))",
	 zt_setup_auto, run_hl_zero, zt_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = ZT_BASELINE, .library = true}},
	{"hl_try_zero", "hl_try_zero (fault-tolerant, clear_user's contract), automatic plan",
	 zt_setup_auto, run_hl_try_zero, zt_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = ZT_BASELINE, .library = true}},
	{ZT_BASELINE, "glibc memset(dst, 0, n), called through a volatile pointer", zt_setup_plain,
	 run_glibc_memset, zt_teardown, .facts = {.kind = SUBJECT_ZERO}},
	{"memcpy_zero_page", "memcpy from a 4 KiB zero page, page by page (tmpfs holes, old)",
	 zt_setup_plain, run_memcpy_zero_page, zt_teardown,
	 .facts = {.kind = SUBJECT_COPY, .baseline = ZT_BASELINE}},
	{"read_dev_zero", "read(2) from /dev/zero into the buffer: the host kernel's clear_user",
	 zt_setup_dev_zero, run_read_dev_zero, zt_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = ZT_BASELINE}},
	{"dd_sparse_tmpfs",
	 "dd: read(2) a 4 GiB sparse file on tmpfs in 1 MiB blocks (host kernel)", zt_setup_sparse,
	 run_dd, zt_teardown, .facts = {.kind = SUBJECT_DD}},
	{"dd_dev_zero", "dd: read(2) 4 GiB of /dev/zero in 1 MiB blocks (host kernel)",
	 zt_setup_dev_zero, run_dd, zt_teardown, .facts = {.kind = SUBJECT_DD}},
};

/* What each variant the library may name does; others get a generic line. */
static const struct {
	const char *name, *description;
} zt_variant_text[] = {
	{"rep_stosb", "hotline variant: rep stosb (ERMS/FSRM/FSRS)"},
	{"rep_stosq", "hotline variant: rep stosq, rep stosb tail (REP_GOOD)"},
	{"movq_unrolled", "hotline variant: unrolled 64-byte movq loop (the kernel's original)"},
	{"avx2", "hotline variant: 32-byte AVX2 stores"},
	{"avx512", "hotline variant: 64-byte AVX-512 stores"},
	{"evex256", "hotline variant: 32-byte stores from EVEX registers (AVX-512VL)"},
	{"nontemporal", "hotline variant: streaming (non-temporal) stores, bypassing the cache"},
	{"dc_zva", "hotline variant: DC ZVA, a whole block per instruction"},
	{"stp", "hotline variant: STP pairs of zero registers"},
	{"mops", "hotline variant: FEAT_MOPS SETP/SETM/SETE"},
};

static struct bench_subject zt_subjects[ZT_MAX_VARIANTS + ARRAY_SIZE(zt_fixed)];

static int zt_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results);
static void zt_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan);

/* nr_subjects is set with the table, before main() (zt_init_subjects). */
struct bench_scenario bench_zero = {
	.name = ZT_NAME,
	.description = "clear 1 B..1 GiB: every hl_zero variant, glibc memset, /dev/zero; hot "
		       "and cold",
	.uses = BENCH_USES_DURATION | BENCH_USES_SIZES | BENCH_USES_MODE,
	.ignores_why = "it runs one thread",
	.subjects = zt_subjects,
	.run = zt_run,
	.plan = zt_plan,
};

/* ---- what a subject is (zero.h) ------------------------------------------ */

/* hl_zero with one variant forced: the subject names the variant. */
static bool zt_is_variant(const struct bench_subject *s)
{
	return s->facts.variant_of != NULL;
}

bool zt_is_auto(const struct bench_subject *s)
{
	return s->setup == zt_setup_auto;
}

const char *zt_variant(const struct bench_subject *s)
{
	return zt_is_variant(s) ? s->name : zt_is_auto(s) ? "auto" : NULL;
}

const char *zt_measures(const struct bench_subject *s)
{
	return s->run == run_read_dev_zero ? ZT_KERNEL_CLEAR : NULL;
}

bool zt_is_dd(const struct bench_subject *s)
{
	return s->facts.kind == SUBJECT_DD;
}

const struct bench_subject *zt_variant_subject(const char *name)
{
	for (size_t i = 0; name && i < bench_zero.nr_subjects; i++) {
		if (zt_is_variant(&zt_subjects[i]) && strcmp(zt_subjects[i].name, name) == 0)
			return &zt_subjects[i];
	}
	return NULL;
}

/* ---- the scenario ------------------------------------------------------- */

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int zt_measure(void *arg, size_t i, unsigned int rep)
{
	struct zt_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	struct zt_sample sample = ctx->sample;
	struct bench_params params = {.threads = 1, .size = sample.size, .sink = &sample};
	char size[32];
	struct bench_run run;

	(void)rep;
	sample.subject = s->name;
	if (bench_measure(s, &params, 1, &ctx->run->cfg->pin, 0, &run))
		return 1;
	zt_size_text(sample.size, size, sizeof(size));
	if (run.failed) {
		bench_error("%s: %s, %s %s: %s", ZT_NAME, s->name,
			    zt_is_dd(s) ? "dd" : zt_mode(&sample), size, run.why);
		bench_run_free(&run);
		return 1;
	}
	/* The loop's own interval: without the warm-up, the marks and the thread's start. */
	run.elapsed_ns = (double)sample.elapsed_ns;
	run.cycles = sample.cycles;
	bench_series_add(&ctx->series[i], &run,
			 sample.calls ? (double)sample.bytes / (double)sample.calls : 0);
	ctx->sample.cursor = sample.cursor; /* the next subject's cold walk goes on from here */
	bench_run_free(&run);
	return 0;
}

int zt_measure_size(struct zt_ctx *ctx, char *label, size_t label_size)
{
	char size[32];

	ctx->series = calloc(ctx->n, sizeof(*ctx->series));
	if (!ctx->series) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < ctx->n; i++) {
		if (bench_series_init(&ctx->series[i], bench_reps_cap(ctx->run->reps), 1))
			return 1;
	}
	snprintf(label, label_size, "%s, %s %s", ZT_NAME, zt_mode(&ctx->sample),
		 zt_size_text(ctx->sample.size, size, sizeof(size)));
	return bench_interleave(label, ctx->subjects, NULL, ctx->n, ctx->run->reps, zt_measure,
				ctx);
}

void zt_series_free(struct zt_ctx *ctx)
{
	for (size_t i = 0; ctx->series && i < ctx->n; i++)
		bench_series_free(&ctx->series[i]);
	free(ctx->series);
	ctx->series = NULL;
}

/* One mode at one size: measure, print the row, append the results. */
static int zt_run_size(struct zt_ctx *ctx, json_t *results)
{
	char label[64];
	int ret = 1;

	if (zt_measure_size(ctx, label, sizeof(label)))
		goto out;
	if (bench_until_decided(&(struct bench_point){
		    .scenario = ZT_NAME,
		    .label = label,
		    .mode = zt_mode(&ctx->sample),
		    .size = ctx->sample.size,
		    .llc = ctx->run->llc,
		    .n = ctx->n,
		    .subjects = ctx->subjects,
		    .series = ctx->series,
		    .measure = zt_measure,
		    .ctx = ctx,
	    }))
		goto out;
	zt_print_row(ctx);
	zt_results(ctx, results);
	ret = 0;
out:
	zt_series_free(ctx);
	return ret;
}

const char *zt_mode(const struct zt_sample *s)
{
	return s->used ? "used" : s->cold ? "cold" : "hot";
}

bool zt_set_size(struct zt_ctx *ctx, size_t size)
{
	const struct zt_run *run = ctx->run;

	ctx->sample.size = size;
	if (ctx->sample.cold && size > run->arena / 2)
		return false;
	if (ctx->sample.cold) {
		zt_cold_walk(&ctx->sample, run->arena);
		ctx->sample.cursor = 0;
	} else {
		ctx->sample.slot_bytes = 0;
		ctx->sample.nr_slots = 1;
		ctx->sample.step = 0;
		ctx->sample.warm_up = size <= run->llc;
	}
	return true;
}

void zt_ctx_init(struct zt_ctx *ctx, const struct zt_run *run,
		 const struct bench_subject **subjects, size_t n, bool cold)
{
	*ctx = (struct zt_ctx){
		.run = run,
		.subjects = subjects,
		.n = n,
		.baseline = -1,
		.sample =
			{
				.base = run->region,
				.cold = cold,
				.duration_ns = (uint64_t)(run->duration * 1e9),
				.fd = -1,
			},
	};
}

static int zt_run_mode(struct zt_run *run, const struct bench_subject **subjects, size_t n,
		       const size_t *sizes, size_t nr_sizes, bool cold, bool used, json_t *results)
{
	struct zt_ctx ctx;
	size_t skipped = 0;

	zt_ctx_init(&ctx, run, subjects, n, cold || used);
	ctx.sample.used = used;

	/* The subject the ratios are against: the one the others name as their baseline. */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			const char *base = subjects[j]->facts.baseline;

			if (base && strcmp(subjects[i]->name, base) == 0)
				ctx.baseline = (int)i;
		}
	}
	zt_print_header(subjects, n, zt_mode(&ctx.sample));
	for (size_t z = 0; z < nr_sizes; z++) {
		if (!zt_set_size(&ctx, sizes[z])) {
			skipped++;
			continue;
		}
		if (zt_run_size(&ctx, results))
			return 1;
	}
	if (skipped)
		zt_print_skipped(run);
	return 0;
}

/* The sizes to run: --sizes, or the default or quick list. Caller frees. */
static size_t *zt_sizes(const struct bench_config *cfg, size_t *nr)
{
	size_t *v, n = 0;

	if (cfg->sizes) {
		v = malloc(cfg->nr_sizes * sizeof(*v));
		if (v)
			memcpy(v, cfg->sizes, cfg->nr_sizes * sizeof(*v));
		*nr = cfg->nr_sizes;
		return v;
	}
	if (cfg->quick) {
		v = malloc(sizeof(zt_quick_sizes));
		if (v)
			memcpy(v, zt_quick_sizes, sizeof(zt_quick_sizes));
		*nr = ARRAY_SIZE(zt_quick_sizes);
		return v;
	}
	v = malloc((31 + ARRAY_SIZE(zt_odd_sizes)) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t p = 1; p <= ZT_MAX_SIZE; p <<= 1)
		v[n++] = p;
	for (size_t i = 0; i < ARRAY_SIZE(zt_odd_sizes); i++)
		v[n++] = zt_odd_sizes[i];
	qsort(v, n, sizeof(*v), cmp_size);
	*nr = n;
	return v;
}

/*
 * What zt_run will measure: every buffer subject at every size, hot and (up
 * to half the arena) cold, and the dd runs. A sample lasts its duration, or
 * about two calls where a call is longer (at ~10 GB/s); a dd run reads its
 * total at ~2 GB/s.
 */
static void zt_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	const struct bench_subject *picked[ARRAY_SIZE(zt_subjects)];
	unsigned int modes = cfg->modes ? cfg->modes : BENCH_MODE_HOT | BENCH_MODE_COLD;
	double duration = cfg->duration ? cfg->duration
			  : cfg->quick	? ZT_QUICK_DURATION
					: ZT_DURATION;
	size_t nr_picked, nr_buffer = 0, nr_dd = 0, nr_sizes = 0, *sizes, arena;
	double per_rep = 0;
	bool guessed;

	if (cfg->tune) {
		zt_tune_plan(cfg, plan);
		return;
	}
	nr_picked = bench_select_subjects(sc, cfg, picked);
	sizes = zt_sizes(cfg, &nr_sizes);
	for (size_t i = 0; i < nr_picked; i++) {
		if (zt_is_variant(picked[i]) && !hl_zero_supported(picked[i]->name))
			continue;
		if (zt_is_dd(picked[i]))
			nr_dd++;
		else
			nr_buffer++;
	}
	arena = zt_arena_bytes(zt_llc_bytes(&guessed));
	*plan = (struct bench_plan){0};
	for (size_t z = 0; sizes && z < nr_sizes; z++) {
		double t = 2 * (double)sizes[z] / 10e9;

		t = t > duration ? t : duration;
		if (modes & BENCH_MODE_HOT) {
			plan->items += nr_buffer;
			per_rep += (double)nr_buffer * t;
		}
		if ((modes & BENCH_MODE_COLD) && sizes[z] <= arena / 2) {
			plan->items += nr_buffer;
			per_rep += (double)nr_buffer * t;
		}
		if ((modes & BENCH_MODE_USED) && sizes[z] <= arena / 2) {
			plan->items += nr_buffer;
			per_rep += (double)nr_buffer * t;
		}
	}
	plan->items += nr_dd;
	per_rep += (double)nr_dd * (double)(cfg->quick ? ZT_DD_QUICK_TOTAL : ZT_DD_TOTAL) / 2e9;
	plan->items *= cfg->repeat;
	plan->seconds = per_rep * cfg->repeat;
	free(sizes);
}

static int zt_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	const struct bench_subject *picked[ARRAY_SIZE(zt_subjects)];
	const struct bench_subject *buffer[ARRAY_SIZE(zt_subjects)], *dd[ARRAY_SIZE(zt_subjects)];
	unsigned int modes = cfg->modes ? cfg->modes : BENCH_MODE_HOT | BENCH_MODE_COLD;
	struct zt_run run = {
		.cfg = cfg,
		.reps = cfg->repeat,
		.duration = cfg->duration ? cfg->duration
			    : cfg->quick  ? ZT_QUICK_DURATION
					  : ZT_DURATION,
	};
	size_t nr_picked = bench_select_subjects(sc, cfg, picked), nr_buffer = 0, nr_dd = 0;
	size_t nr_sizes = 0, *sizes = NULL, need;
	char unsupported[256] = "";
	int ret = 1;

	if (cfg->tune)
		return zt_tune(cfg, results);
	for (size_t i = 0; i < nr_picked; i++) {
		const struct bench_subject *s = picked[i];

		if (zt_is_variant(s) && !hl_zero_supported(s->name)) {
			size_t len = strlen(unsupported);

			snprintf(unsupported + len, sizeof(unsupported) - len, "%s%s",
				 len ? ", " : "", s->name);
			if (cfg->subjects)
				bench_note("%s: %s is not supported by this CPU; skipped", ZT_NAME,
					   s->name);
			continue;
		}
		if (zt_is_dd(s))
			dd[nr_dd++] = s;
		else
			buffer[nr_buffer++] = s;
	}
	if (!nr_buffer && !nr_dd)
		return 0;

	sizes = zt_sizes(cfg, &nr_sizes);
	if (!sizes) {
		bench_error("out of memory");
		return 1;
	}
	run.llc = zt_llc_bytes(&run.llc_guessed);
	run.arena = zt_arena_bytes(run.llc);
	need = ZT_DD_BLOCK;
	if (nr_buffer && (modes & BENCH_MODE_HOT) && sizes[nr_sizes - 1] + ZT_ALIGN > need)
		need = sizes[nr_sizes - 1] + ZT_ALIGN;
	if (nr_buffer && (modes & (BENCH_MODE_COLD | BENCH_MODE_USED)) && run.arena > need)
		need = run.arena;
	if (zt_map(&run, need))
		goto out;
	if (zt_files_open(cfg, dd, &nr_dd))
		goto out;
	if (hl_try_zero_prepare() != 0) {
		bench_error("%s: hl_try_zero_prepare: %s", ZT_NAME, strerror(errno));
		goto out;
	}
	hl_zero_use("auto");
	hl_zero_plan(run.plan, sizeof(run.plan));

	zt_print_intro(&run, unsupported);

	if (nr_buffer && (modes & BENCH_MODE_HOT) &&
	    zt_run_mode(&run, buffer, nr_buffer, sizes, nr_sizes, false, false, results))
		goto out;
	if (nr_buffer && (modes & BENCH_MODE_COLD) &&
	    zt_run_mode(&run, buffer, nr_buffer, sizes, nr_sizes, true, false, results))
		goto out;
	if (nr_buffer && (modes & BENCH_MODE_USED) &&
	    zt_run_mode(&run, buffer, nr_buffer, sizes, nr_sizes, true, true, results))
		goto out;
	if (nr_dd && zt_run_dd(&run, dd, nr_dd, results))
		goto out;
	ret = 0;
out:
	hl_zero_use("auto");
	zt_files_close();
	zt_unmap(&run);
	free(sizes);
	return ret;
}

/*
 * The subject table, before main() reads it: every variant the library
 * names for this architecture (those the CPU lacks are listed, and skipped
 * when run), then the fixed subjects.
 */
static void __attribute__((constructor)) zt_init_subjects(void)
{
	size_t n = 0;
	const char *name;

	for (unsigned int i = 0; (name = hl_zero_variant_name(i)) && n < ZT_MAX_VARIANTS; i++) {
		const char *description = "hotline variant, forced with hl_zero_use()";

		for (size_t j = 0; j < ARRAY_SIZE(zt_variant_text); j++) {
			if (strcmp(zt_variant_text[j].name, name) == 0)
				description = zt_variant_text[j].description;
		}
		/* hl_zero with this variant forced: its facts are hl_zero's. */
		zt_subjects[n++] = (struct bench_subject){
			.name = name,
			.description = description,
			.setup = zt_setup_variant,
			.run = run_variant,
			.teardown = zt_teardown,
			.facts = {.kind = SUBJECT_ZERO,
				  .baseline = ZT_BASELINE,
				  .variant_of = "hl_zero",
				  .library = true},
		};
	}
	for (size_t i = 0; i < ARRAY_SIZE(zt_fixed); i++)
		zt_subjects[n++] = zt_fixed[i];
	bench_zero.nr_subjects = n;
}
