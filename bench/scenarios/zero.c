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
 * The sized-scenario engine (../sized.h) measures: the loop
 * (../sized_loop.h) is inlined into one small run function per subject,
 * with that subject's clear operation inlined into it; repetitions are
 * interleaved across the subjects at each size (ratio: to glibc_memset in
 * the same repetition). This file declares what is zero's: the clear
 * operations and the "used" read-back, the subjects and their facts, the
 * sweeps, the lines before the tables. The variant subjects are the
 * library's own list (hl_zero_variant_name), read before main(); that is
 * why this scenario object is not const. zero_dd.c holds the host
 * kernel's dd experiments, zero_tune.c --tune.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hotline/zero.h>

#include "../sized_loop.h"
#include "scenarios.h"
#include "zero_dd.h"
#include "zero_tune.h"

#define ZT_BASELINE "glibc_memset"

/* The sweeps: bit k of a subject's sized_facts.sweeps is zt_sweeps[k]. */
enum { ZT_HOT, ZT_COLD, ZT_USED };
#define ZT_SWEEPS (1u << ZT_HOT | 1u << ZT_COLD | 1u << ZT_USED)

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
static void *(*volatile zt_memset)(void *, int, size_t) = memset;
static void *(*volatile zt_memcpy)(void *, const void *, size_t) = memcpy;

/* The zero page memcpy_zero_page copies from; never written. */
static _Alignas(SIZED_PAGE) const unsigned char zt_zero_page[SIZED_PAGE];

static inline size_t clear_hl_zero(const struct sized_sample *s, unsigned char *dst,
				   const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	hl_zero(dst, n);
	return 0;
}

static inline size_t clear_hl_try_zero(const struct sized_sample *s, unsigned char *dst,
				       const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	return hl_try_zero(dst, n);
}

static inline size_t clear_glibc_memset(const struct sized_sample *s, unsigned char *dst,
					const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	zt_memset(dst, 0, n);
	return 0;
}

static inline size_t clear_memcpy_zero_page(const struct sized_sample *s, unsigned char *dst,
					    const unsigned char *src, size_t n)
{
	(void)s, (void)src;
	for (size_t off = 0; off < n; off += SIZED_PAGE)
		zt_memcpy(dst + off, zt_zero_page, n - off < SIZED_PAGE ? n - off : SIZED_PAGE);
	return 0;
}

static inline size_t clear_read_dev_zero(const struct sized_sample *s, unsigned char *dst,
					 const unsigned char *src, size_t n)
{
	size_t done = 0;

	(void)src;
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

/*
 * "used" mode: what a caller that clears a buffer does next, touch it. One
 * load per cache line (the buffer is 64-byte aligned in cold mode), timed
 * with the clear. The bytes are ORed, not summed: the result is nonzero
 * exactly when a byte read was not cleared, and the loop counts that as a
 * call that left bytes (a sum could wrap to 0).
 */
static bench_always_inline size_t zt_read_back(const unsigned char *p, size_t n)
{
	unsigned char seen = 0;

	for (size_t i = 0; i < n; i += 64)
		seen |= ((const volatile unsigned char *)p)[i];
	return seen;
}

/* One line per subject: the loop with that subject's operation. */
static void run_variant(struct bench_worker *w)
{
	sized_loop_used(w, clear_hl_zero, zt_read_back); /* the variant was forced by setup */
}

static void run_hl_zero(struct bench_worker *w)
{
	sized_loop_used(w, clear_hl_zero, zt_read_back);
}

static void run_hl_try_zero(struct bench_worker *w)
{
	sized_loop_used(w, clear_hl_try_zero, zt_read_back);
}

static void run_glibc_memset(struct bench_worker *w)
{
	sized_loop_used(w, clear_glibc_memset, zt_read_back);
}

static void run_memcpy_zero_page(struct bench_worker *w)
{
	sized_loop_used(w, clear_memcpy_zero_page, zt_read_back);
}

static void run_read_dev_zero(struct bench_worker *w)
{
	sized_loop_used(w, clear_read_dev_zero, zt_read_back);
}

/* read_dev_zero's state: the sample, reading the scenario's /dev/zero. */
static void *zt_setup_dev_zero(const struct bench_params *p)
{
	struct sized_sample *s = p->sink;

	s->fd = zt_dev_zero_fd();
	return s;
}

/* ---- what a correct call leaves, and the failure line ---------------------- */

static unsigned char zt_expect(const unsigned char *src, size_t at)
{
	(void)src, (void)at;
	return 0;
}

static void zt_wrong(char *why, size_t len, size_t at, size_t n, unsigned int got,
		     unsigned int want)
{
	(void)want;
	snprintf(why, len, "byte %zu of a %zu-byte buffer is 0x%02x after clearing it", at, n, got);
}

/* ---- the subject table: the library's variants, then the fixed subjects --- */

static const struct sized_facts zt_swept = {.sweeps = ZT_SWEEPS};
static const struct sized_facts zt_auto = {.sweeps = ZT_SWEEPS, .automatic = true};

static const struct bench_subject zt_fixed[] = {
	{"hl_zero", "hl_zero with the automatic per-size plan (hl_zero_use(\"auto\"))",
	 sized_setup_auto, run_hl_zero, sized_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = ZT_BASELINE, .library = true},
	 .extra = &zt_auto},
	{"hl_try_zero", "hl_try_zero (fault-tolerant, clear_user's contract), automatic plan",
	 sized_setup_auto, run_hl_try_zero, sized_teardown,
	 .facts = {.kind = SUBJECT_ZERO, .baseline = ZT_BASELINE, .library = true},
	 .extra = &zt_auto},
	{ZT_BASELINE, "glibc memset(dst, 0, n), called through a volatile pointer",
	 sized_setup_plain, run_glibc_memset, sized_teardown, .facts = {.kind = SUBJECT_ZERO},
	 .extra = &zt_swept},
	{"memcpy_zero_page", "memcpy from a 4 KiB zero page, page by page (tmpfs holes, old)",
	 sized_setup_plain, run_memcpy_zero_page, sized_teardown,
	 .facts = {.kind = SUBJECT_COPY, .baseline = ZT_BASELINE}, .extra = &zt_swept},
	{"read_dev_zero", "read(2) from /dev/zero into the buffer: the host kernel's clear_user",
	 zt_setup_dev_zero, run_read_dev_zero, sized_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = ZT_BASELINE},
	 .extra = &(const struct sized_facts){.sweeps = ZT_SWEEPS, .measures = ZT_KERNEL_CLEAR}},
	/* Measured by no sweep: zero_dd.c runs them after the sweeps. */
	{"dd_sparse_tmpfs",
	 "dd: read(2) a 4 GiB sparse file on tmpfs in 1 MiB blocks (host kernel)",
	 zt_dd_setup_sparse, run_dd, sized_teardown, .facts = {.kind = SUBJECT_DD},
	 .extra = &(const struct sized_facts){.flags = ZT_DD_SPARSE}},
	{"dd_dev_zero", "dd: read(2) 4 GiB of /dev/zero in 1 MiB blocks (host kernel)",
	 zt_dd_setup_dev_zero, run_dd, sized_teardown, .facts = {.kind = SUBJECT_DD}},
};

/* What each variant the library may name does; others get a generic line. */
static const char *const zt_variant_text[][2] = {
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

static void zt_plan_text(char *buf, size_t len)
{
	hl_zero_plan(buf, len);
}

static const struct sized_variants zt_variants = {
	.name = hl_zero_variant_name,
	.use = hl_zero_use,
	.supported = hl_zero_supported,
	.text = zt_variant_text,
	.nr_text = ARRAY_SIZE(zt_variant_text),
	.generic = "hotline variant, forced with hl_zero_use()",
	.run = run_variant,
	/* hl_zero with a variant forced: its facts are hl_zero's. */
	.facts = {.kind = SUBJECT_ZERO,
		  .baseline = ZT_BASELINE,
		  .variant_of = "hl_zero",
		  .library = true},
	.extra = &(const struct sized_facts){.sweeps = ZT_SWEEPS},
	.plan = zt_plan_text,
};

static const struct sized_sweep zt_sweeps[] = {
	[ZT_HOT] = {"hot", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_HOT},
	[ZT_COLD] = {"cold", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_COLD,
		     .cold = true},
	[ZT_USED] = {"used", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_USED,
		     .cold = true, .used = true},
};

/* ---- zero's own parts of the run ---------------------------------------- */

static void zt_intro(const struct sized_run *run)
{
	char llc[32], arena[32];

	printf("%s: clearing one buffer per call, one thread; %.3f s per sample, %u repetition%s "
	       "interleaved, each in up to %u slice%s by turns; placement %s\n"
	       "hl_zero's automatic plan: %s\n"
	       "cold: each call clears another %d-byte-aligned place of a %s arena (%d x the %s "
	       "last-level cache%s), in scattered order; every page faulted in first\n",
	       ZT_NAME, run->duration, run->reps, run->reps == 1 ? "" : "s", run->slices,
	       run->slices == 1 ? "" : "s", run->cfg->pin.text, run->plan, SIZED_ALIGN,
	       sized_size_text(run->arena, arena, sizeof(arena)), SIZED_ARENA_LLCS,
	       sized_size_text(run->llc, llc, sizeof(llc)), run->llc_guessed ? ", guessed" : "");
	if (run->cfg->modes & BENCH_MODE_USED)
		printf("used: as cold, then one byte of each 64-byte line read back after the "
		       "clear, timed with it (what a caller of a fresh buffer does next)\n");
}

static void zt_skipped(const struct sized_run *run, const struct sized_sweep *sweep, size_t skipped)
{
	char text[32];

	(void)sweep, (void)skipped;
	printf("(cold skips the sizes over %s: such a buffer is itself at least twice the "
	       "last-level cache, so hot already finds it evicted)\n",
	       sized_size_text(run->arena / 2, text, sizeof(text)));
}

/* The dd block; the files; the library's fault handler for hl_try_zero. */
static size_t zt_need(const struct sized_run *run)
{
	(void)run;
	return ZT_DD_BLOCK;
}

static int zt_prepare(struct sized_run *run)
{
	if (zt_files_open(run->cfg, run->rest, &run->nr_rest))
		return 1;
	if (hl_try_zero_prepare() != 0) {
		bench_error("%s: hl_try_zero_prepare: %s", ZT_NAME, strerror(errno));
		return 1;
	}
	return 0;
}

static int zt_after(struct sized_run *run, json_t *results)
{
	return run->nr_rest ? zt_run_dd(run, run->rest, run->nr_rest, results) : 0;
}

/* A dd run reads its total at ~2 GB/s. */
static double zt_rest_seconds(const struct sized_run *run)
{
	return (double)run->nr_rest * (double)(run->cfg->quick ? ZT_DD_QUICK_TOTAL : ZT_DD_TOTAL) /
	       2e9;
}

static void zt_finish(struct sized_run *run)
{
	(void)run;
	zt_files_close();
}

static struct bench_subject zt_subjects[SIZED_MAX_SUBJECTS];

static int zt_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results);
static void zt_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan);

/* subjects and nr_subjects are set with the table, before main() (zt_init_subjects). */
static struct bench_scenario bench_zero = {
	.name = ZT_NAME,
	.description = "clear 1 B..1 GiB: every hl_zero variant, glibc memset, /dev/zero; hot "
		       "and cold",
	.uses = BENCH_USES_DURATION | BENCH_USES_SIZES | BENCH_USES_MODE | BENCH_USES_TUNE,
	.ignores_why = "it runs one thread",
	.run = zt_run,
	.plan = zt_plan,
	.section = zt_tune_json,
};

BENCH_SCENARIO(bench_zero, 40);

static const struct sized_def zt_def = {
	.name = ZT_NAME,
	.noun = "buffer",
	.undone = "uncleared",
	.buffers = 1,
	.modes = BENCH_MODE_HOT | BENCH_MODE_COLD | BENCH_MODE_USED,
	.duration = 0.03,
	.quick_duration = 0.002,
	.rate = 10e9,
	.max_size = 1ull << 30,
	.odd_sizes = zt_odd_sizes,
	.nr_odd = ARRAY_SIZE(zt_odd_sizes),
	.quick_sizes = zt_quick_sizes,
	.nr_quick = ARRAY_SIZE(zt_quick_sizes),
	.sweeps = zt_sweeps,
	.nr_sweeps = ARRAY_SIZE(zt_sweeps),
	.variants = &zt_variants,
	.fixed = zt_fixed,
	.nr_fixed = ARRAY_SIZE(zt_fixed),
	.subjects = zt_subjects,
	.scenario = &bench_zero,
	.expect = zt_expect,
	.wrong = zt_wrong,
	.prepare = zt_prepare,
	.need = zt_need,
	.intro = zt_intro,
	.skipped = zt_skipped,
	.after = zt_after,
	.rest_seconds = zt_rest_seconds,
	.finish = zt_finish,
};

/* --tune runs the tuner (zero_tune.c) in place of the sweeps. */
static void zt_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	(void)sc;
	if (cfg->tune)
		zt_tune_plan(&zt_def, cfg, plan);
	else
		sized_scenario_plan(&zt_def, cfg, plan);
}

static int zt_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	(void)sc;
	if (cfg->tune)
		return zt_tune(&zt_def, cfg, results);
	return sized_scenario_run(&zt_def, cfg, results);
}

/* The subject table, before main() reads it (sized_init_subjects). */
static void __attribute__((constructor)) zt_init_subjects(void)
{
	sized_init_subjects(&zt_def);
}
