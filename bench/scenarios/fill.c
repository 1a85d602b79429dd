// SPDX-License-Identifier: MIT
/*
 * scenarios/fill.c - setting memory to a non-zero byte (0xa5), 1 byte to
 * 1 GiB, hot and cold: glibc's memset with 0xa5 against the same call
 * with 0 and against hl_zero.
 *
 * The library has no fill function: hl_zero only clears, and its variants
 * exist for zeros (DC ZVA, for one, clears a block per instruction and
 * writes nothing else). So this scenario asks what the zero-only API
 * costs a caller who needs another byte, and what clearing gains over
 * filling on this machine: memset(dst, 0xa5, n) is the baseline;
 * memset(dst, 0, n) and hl_zero with its automatic plan are measured
 * against it, in the same repetitions. hl_zero's variants, forced one by
 * one, are zero's subjects, not this scenario's.
 *
 * It is a page of declarations to the sized-scenario engine (../sized.h):
 * the operations, the subjects with their facts (the kind "fill" is its
 * own, and the clearing subjects say that they leave zeros), the two
 * sweeps, the sizes and the lines before the tables. It is run by name
 * only (`hotline-bench fill`), not by `all`: it measures no hotline code
 * that zero does not.
 */
#include <stdio.h>
#include <string.h>

#include <hotline/zero.h>

#include "../sized_loop.h"
#include "scenarios.h"

#define FL_NAME	    "fill"
#define FL_BASELINE "glibc_memset"
#define FL_BYTE	    0xa5
/* Its subjects' own kind: a function that sets memory to a byte other than zero. */
#define FL_KIND "fill"

/* The sweeps: bit k of a subject's sized_facts.sweeps is fl_sweeps[k]. */
enum { FL_HOT, FL_COLD };
#define FL_SWEEPS (1u << FL_HOT | 1u << FL_COLD)

/* The extra sizes of the default list, beside every power of two: unaligned tails. */
static const size_t fl_odd_sizes[] = {3, 17, 100, 1000, 3000, 65537, (3u << 20) + 3};

/* --quick: a few sizes from each level of the memory hierarchy. */
static const size_t fl_quick_sizes[] = {
	1, 17, 64, 256, 1000, 4096, 16384, 65537, 262144, 1u << 20, 16u << 20, 64u << 20,
};

/* ---- the subjects' operations ------------------------------------------------ */

/* Called through a volatile pointer: the compiler can neither inline nor drop it. */
static void *(*volatile fl_memset)(void *, int, size_t) = memset;

static inline size_t fill_glibc_memset(const struct sized_sample *s, unsigned char *dst,
				       const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	fl_memset(dst, FL_BYTE, n);
	return 0;
}

static inline size_t fill_glibc_memset_zero(const struct sized_sample *s, unsigned char *dst,
					    const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	fl_memset(dst, 0, n);
	return 0;
}

static inline size_t fill_hl_zero(const struct sized_sample *s, unsigned char *dst,
				  const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	hl_zero(dst, n);
	return 0;
}

static void run_glibc_memset(struct bench_worker *w)
{
	sized_loop(w, fill_glibc_memset);
}

static void run_glibc_memset_zero(struct bench_worker *w)
{
	sized_loop(w, fill_glibc_memset_zero);
}

static void run_hl_zero(struct bench_worker *w)
{
	sized_loop(w, fill_hl_zero);
}

/* hl_zero with its automatic plan, whatever HOTLINE_ZERO forced. */
static void *fl_setup_auto(const struct bench_params *p)
{
	hl_zero_use("auto");
	return p->sink;
}

/* ---- what a correct call leaves, and the failure line ---------------------- */

static unsigned char fl_expect(const unsigned char *src, size_t at)
{
	(void)src, (void)at;
	return FL_BYTE;
}

/* The clearing subjects' (their sized_facts.expect). */
static unsigned char fl_expect_zero(const unsigned char *src, size_t at)
{
	(void)src, (void)at;
	return 0;
}

static void fl_wrong(char *why, size_t len, size_t at, size_t n, unsigned int got,
		     unsigned int want)
{
	snprintf(why, len, "byte %zu of a %zu-byte buffer is 0x%02x after setting it to 0x%02x", at,
		 n, got, want);
}

/* ---- the subjects and the sweeps ------------------------------------------- */

static const struct sized_facts fl_fills = {.sweeps = FL_SWEEPS};
static const struct sized_facts fl_clears = {.sweeps = FL_SWEEPS, .expect = fl_expect_zero};

static const struct bench_subject fl_fixed[] = {
	{FL_BASELINE, "glibc memset(dst, 0xa5, n), called through a volatile pointer",
	 sized_setup_plain, run_glibc_memset, sized_teardown, .facts = {.own_kind = FL_KIND},
	 .extra = &fl_fills},
	{"glibc_memset_zero", "glibc memset(dst, 0, n): the same call, clearing", sized_setup_plain,
	 run_glibc_memset_zero, sized_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = FL_BASELINE}, .extra = &fl_clears},
	{"hl_zero", "hl_zero with its automatic plan: clears (hotline has no fill function)",
	 fl_setup_auto, run_hl_zero, sized_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = FL_BASELINE, .library = true},
	 .extra = &fl_clears},
};

static const struct sized_sweep fl_sweeps[] = {
	[FL_HOT] = {"hot", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_HOT},
	[FL_COLD] = {"cold", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_COLD,
		     .cold = true},
};

/* ---- fill's own parts of the run ----------------------------------------- */

static void fl_intro(const struct sized_run *run)
{
	char llc[32], arena[32], plan[256];

	hl_zero_plan(plan, sizeof(plan));
	printf("%s: setting one buffer per call to 0x%02x (or clearing it), one thread; %.3f s "
	       "per sample, %u repetition%s interleaved; placement %s\n"
	       "hl_zero's automatic plan: %s\n"
	       "cold: each call sets another %d-byte-aligned place of a %s arena (%d x the %s "
	       "last-level cache%s), in scattered order; every page faulted in first\n",
	       FL_NAME, FL_BYTE, run->duration, run->reps, run->reps == 1 ? "" : "s",
	       run->cfg->pin.text, plan, SIZED_ALIGN,
	       sized_size_text(run->arena, arena, sizeof(arena)), SIZED_ARENA_LLCS,
	       sized_size_text(run->llc, llc, sizeof(llc)), run->llc_guessed ? ", guessed" : "");
}

static void fl_skipped(const struct sized_run *run, const struct sized_sweep *sweep, size_t skipped)
{
	char text[32];

	(void)sweep, (void)skipped;
	printf("(cold skips the sizes over %s: such a buffer is itself at least twice the "
	       "last-level cache, so hot already finds it evicted)\n",
	       sized_size_text(run->arena / 2, text, sizeof(text)));
}

static struct bench_subject fl_subjects[SIZED_MAX_SUBJECTS];

static int fl_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results);
static void fl_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan);

/* subjects and nr_subjects are set with the table, before main() (fl_init_subjects). */
static struct bench_scenario bench_fill = {
	.name = FL_NAME,
	.description = "set 1 B..1 GiB to 0xa5: glibc memset vs memset 0 and hl_zero; hot and "
		       "cold",
	.uses = BENCH_USES_DURATION | BENCH_USES_SIZES | BENCH_USES_MODE,
	.ignores_why = "it runs one thread",
	.run = fl_run,
	.plan = fl_plan,
	.by_name_only = true,
};

BENCH_SCENARIO(bench_fill, 70);

static const struct sized_def fl_def = {
	.name = FL_NAME,
	.noun = "buffer",
	.undone = "unset",
	.buffers = 1,
	.modes = BENCH_MODE_HOT | BENCH_MODE_COLD,
	.modes_note = "--mode used does not apply (zero's only)",
	.duration = 0.01,
	.quick_duration = 0.002,
	.rate = 10e9,
	.max_size = 1ull << 30,
	.odd_sizes = fl_odd_sizes,
	.nr_odd = ARRAY_SIZE(fl_odd_sizes),
	.quick_sizes = fl_quick_sizes,
	.nr_quick = ARRAY_SIZE(fl_quick_sizes),
	.sweeps = fl_sweeps,
	.nr_sweeps = ARRAY_SIZE(fl_sweeps),
	.fixed = fl_fixed,
	.nr_fixed = ARRAY_SIZE(fl_fixed),
	.subjects = fl_subjects,
	.scenario = &bench_fill,
	.expect = fl_expect,
	.wrong = fl_wrong,
	.intro = fl_intro,
	.skipped = fl_skipped,
};

static void fl_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	(void)sc;
	sized_scenario_plan(&fl_def, cfg, plan);
}

static int fl_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	(void)sc;
	return sized_scenario_run(&fl_def, cfg, results);
}

/* The subject table, before main() reads it (sized_init_subjects). */
static void __attribute__((constructor)) fl_init_subjects(void)
{
	sized_init_subjects(&fl_def);
}
