// SPDX-License-Identifier: MIT
/*
 * scenarios/copy.c - copying memory that may not be there: hl_try_copy
 * and its variants against glibc's memcpy, 1 byte to 1 GiB; against the
 * ways user space reads memory it cannot be sure is mapped
 * (process_vm_readv of its own pid, a pipe); hl_try_load64 against a
 * process_vm_readv per word.
 *
 * Profilers, crash reporters and garbage collectors read memory that may
 * be unmapped with a system call per read (docs/copy.md). hl_try_copy is
 * meant to cost what memcpy costs when nothing faults. Four sweeps, the
 * JSON's "mode":
 *
 *  - hot: every hl_try_copy variant this CPU can run (forced with
 *    hl_copy_use), hl_try_copy with its automatic plan and glibc's memcpy,
 *    at every size, one source and one destination copied again and again
 *    (in the cache as far as they fit);
 *  - cold: the same subjects, each call copying another place of an arena
 *    four times the last-level cache (its first half the sources, its
 *    second the destinations) in scattered order, as zero's cold mode does;
 *  - probe: hl_try_copy against process_vm_readv (one call per copy, this
 *    process's own pid) and pipe_probe (write(2) the source to a pipe and
 *    read(2) it back, the classic safe read; in pieces of the pipe's
 *    capacity), hot, 8 B to 1 MiB;
 *  - word: hl_try_load64 against process_vm_readv_word (one
 *    process_vm_readv per 8-byte word), reading a hot array word after
 *    word; ns per word.
 *
 * Nothing faults here: this is what the fault tolerance costs when it is
 * not used (tests/ check the faults). One sample of one subject at one
 * size: in hot mode one untimed call first (when the buffers fit the
 * last-level cache), then calls in batches until the sample's duration is
 * over, timed as a whole; batches grow until one lasts CP_BATCH_NS.
 * Repetitions are interleaved across the subjects of a sweep at each size,
 * so that each repetition's figures pair (ratio: to the subject's baseline
 * in the same repetition). The first, middle and last byte of the first
 * destination are checked against the source after the loop, and in hot
 * mode the byte after it must be untouched.
 *
 * The variant subjects are the library's list (hl_copy_variant_name),
 * read before main(): that is why this scenario object is not const.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../arch/arch.h"
#include "../questions.h"
#include "copy.h"
#include "zero.h"

#define CP_BATCH_NS	20000 /* a batch of calls grows until it lasts this long */
#define CP_MAX_SIZE	(1ull << 30)
#define CP_MAX_VARIANTS 16

#define CP_KERNEL_PVR                                                                              \
	"host kernel: process_vm_readv(2) of this process's own memory, one call per copy; not "   \
	"hotline code"
#define CP_KERNEL_PIPE                                                                             \
	"host kernel: write(2) of the source to a pipe and read(2) back, per pipe capacity; not "  \
	"hotline code"
#define CP_KERNEL_PVR_WORD                                                                         \
	"host kernel: process_vm_readv(2) of one 8-byte word of this process's own memory per "    \
	"call; not hotline code"

/* The extra sizes of the default list, beside every power of two: unaligned tails. */
static const size_t cp_odd_sizes[] = {3, 17, 100, 1000, 3000, 65537, (3u << 20) + 3};

/* --quick: a few sizes from each level of the memory hierarchy. */
static const size_t cp_quick_sizes[] = {
	1, 17, 64, 256, 1000, 4096, 16384, 65537, 262144, 1u << 20, 16u << 20, 64u << 20,
};

/* The probe sweep's default sizes (the system calls' cost from one word to 1 MiB). */
static const size_t cp_probe_sizes[] = {
	8, 64, 256, 1024, 4096, 16384, 65536, 262144, 1u << 20,
};

/* ---- the subjects' copy operations --------------------------------------- */

/*
 * Each returns the number of bytes it could not copy (0: all of them).
 * glibc's memcpy is called through a volatile pointer so that the compiler
 * can neither inline it nor drop it.
 */
typedef size_t (*cp_copy_fn)(const struct cp_sample *s, void *dst, const void *src, size_t n);

static void *(*volatile cp_memcpy)(void *, const void *, size_t) = memcpy;

static inline size_t copy_hl_try_copy(const struct cp_sample *s, void *dst, const void *src,
				      size_t n)
{
	(void)s;
	return hl_try_copy(dst, src, n);
}

static inline size_t copy_glibc_memcpy(const struct cp_sample *s, void *dst, const void *src,
				       size_t n)
{
	(void)s;
	cp_memcpy(dst, src, n);
	return 0;
}

static inline size_t copy_process_vm_readv(const struct cp_sample *s, void *dst, const void *src,
					   size_t n)
{
	struct iovec local = {dst, n}, remote = {(void *)src, n};
	ssize_t got = process_vm_readv(s->pid, &local, 1, &remote, 1, 0);

	return got < 0 ? n : n - (size_t)got;
}

/* write(2) all of [p, p+n) to fd, or as far as it goes; the bytes written. */
static size_t cp_write_all(int fd, const unsigned char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = write(fd, p + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	return done;
}

static size_t cp_read_all(int fd, unsigned char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	return done;
}

/*
 * The pipe probe: the kernel copies the source into the pipe (EFAULT, not
 * SIGSEGV, where it is not mapped), then out into the destination; at most
 * the pipe's capacity at a time, so that a write never waits for a reader.
 */
static inline size_t copy_pipe_probe(const struct cp_sample *s, void *dst, const void *src,
				     size_t n)
{
	size_t done = 0;

	while (done < n) {
		size_t chunk = n - done < s->pipe_bytes ? n - done : s->pipe_bytes;
		size_t in = cp_write_all(s->pipe_wr, (const unsigned char *)src + done, chunk);
		size_t out = cp_read_all(s->pipe_rd, (unsigned char *)dst + done, in);

		done += out;
		if (in < chunk || out < in)
			break;
	}
	return n - done;
}

/* The word sweep's loads: true when the word was read. */
typedef bool (*cp_load_fn)(const struct cp_sample *s, const uint64_t *p, uint64_t *out);

static inline bool load_hl_try_load64(const struct cp_sample *s, const uint64_t *p, uint64_t *out)
{
	(void)s;
	return hl_try_load64(p, out);
}

static inline bool load_process_vm_readv(const struct cp_sample *s, const uint64_t *p,
					 uint64_t *out)
{
	struct iovec local = {out, 8}, remote = {(void *)p, 8};

	return process_vm_readv(s->pid, &local, 1, &remote, 1, 0) == 8;
}

/* ---- the measurement loops, once ----------------------------------------- */

/* The stores of the last call are observable: nothing may be optimised away. */
static inline void cp_escape(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

#define CP_SENTINEL 0x5a /* just past the hot destination: must survive */

/*
 * Make the first, middle and last byte of the first destination differ
 * from the source's, and (hot mode, where the byte after it is no other
 * call's) mark the byte after it; cp_check says what the calls did.
 */
static void cp_mark(unsigned char *dst, const unsigned char *src, size_t n, bool sentinel)
{
	dst[0] = (unsigned char)~src[0];
	dst[n / 2] = (unsigned char)~src[n / 2];
	dst[n - 1] = (unsigned char)~src[n - 1];
	if (sentinel)
		dst[n] = CP_SENTINEL;
}

static bool cp_check(struct bench_worker *w, const unsigned char *dst, const unsigned char *src,
		     size_t n, bool sentinel)
{
	const size_t at[] = {0, n / 2, n - 1};

	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		if (dst[at[i]] != src[at[i]]) {
			snprintf(w->why, sizeof(w->why),
				 "byte %zu of a %zu-byte copy is 0x%02x, the source's 0x%02x",
				 at[i], n, dst[at[i]], src[at[i]]);
			return false;
		}
	}
	if (sentinel && dst[n] != CP_SENTINEL) {
		snprintf(w->why, sizeof(w->why),
			 "the byte after a %zu-byte copy was overwritten (0x%02x, expected 0x%02x)",
			 n, dst[n], CP_SENTINEL);
		return false;
	}
	return true;
}

static bench_always_inline void cp_timed(struct bench_worker *w, bool cold, cp_copy_fn copy)
{
	struct cp_sample *s = w->state;
	const size_t n = s->size;
	size_t slot = cold ? s->cursor : 0, left = 0;
	unsigned char *dst0 = s->dst + slot * s->slot_bytes;
	const unsigned char *src0 = s->src + slot * s->slot_bytes;
	uint64_t calls = 0, batch = 1, t0, t1, tb, c0;

	if (!cold && s->warm_up)
		left |= copy(s, s->dst, s->src, n);
	cp_mark(dst0, src0, n, !cold);
	t0 = tb = bench_now_ns();
	c0 = bench_cycles();
	do {
		for (uint64_t k = 0; k < batch; k++) {
			size_t off = cold ? slot * s->slot_bytes : 0;

			left |= copy(s, s->dst + off, s->src + off, n);
			cp_escape(s->dst + off);
			if (cold) {
				slot += s->step;
				if (slot >= s->nr_slots)
					slot -= s->nr_slots;
			}
		}
		calls += batch;
		t1 = bench_now_ns();
		if (t1 - tb < CP_BATCH_NS)
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
		snprintf(w->why, sizeof(w->why), "a call left bytes of a %zu-byte copy uncopied",
			 n);
	} else if (!cp_check(w, dst0, src0, n, !cold)) {
		w->failed = true;
	}
}

/* The same loop for a hot (or probe) and a cold sample: each without the other's bookkeeping. */
static bench_always_inline void cp_loop(struct bench_worker *w, cp_copy_fn copy)
{
	const struct cp_sample *s = w->state;

	if (s->sweep == CP_COLD)
		cp_timed(w, true, copy);
	else
		cp_timed(w, false, copy);
}

/* The word the array holds at index i (cp_fill_words). */
static inline uint64_t cp_word(size_t i)
{
	return (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
}

/*
 * The word sweep: one load per call, walking the array round and round;
 * the words read are XORed together and checked against what the array
 * holds, over the whole number of rounds and the part round.
 */
static bench_always_inline void cp_word_timed(struct bench_worker *w, cp_load_fn load)
{
	struct cp_sample *s = w->state;
	const size_t mask = s->nr_words - 1;
	uint64_t calls = 0, batch = 1, t0, t1, tb, c0, seen = 0, want = 0, v;
	size_t i = 0;
	bool ok = true;

	t0 = tb = bench_now_ns();
	c0 = bench_cycles();
	do {
		for (uint64_t k = 0; k < batch; k++) {
			v = 0;
			ok &= load(s, &s->words[i], &v);
			seen ^= v;
			i = (i + 1) & mask;
		}
		calls += batch;
		t1 = bench_now_ns();
		if (t1 - tb < CP_BATCH_NS)
			batch *= 2;
		tb = t1;
	} while (t1 - t0 < s->duration_ns);
	s->cycles = bench_cycles() - c0;
	s->elapsed_ns = t1 - t0;
	s->calls = calls;
	s->bytes = calls * 8;
	w->ops = calls;
	/* A whole round XORs every word; an odd number of rounds leaves their XOR. */
	if ((calls / s->nr_words) & 1) {
		for (size_t j = 0; j < s->nr_words; j++)
			want ^= cp_word(j);
	}
	for (size_t j = 0; j < (calls & mask); j++)
		want ^= cp_word(j);
	if (!ok) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why), "a word of a mapped array could not be read");
	} else if (seen != want) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why),
			 "the words read XOR to 0x%016llx, the array's to 0x%016llx",
			 (unsigned long long)seen, (unsigned long long)want);
	}
}

/* One line per subject: the loop above with that subject's operation. */
static void run_variant(struct bench_worker *w)
{
	cp_loop(w, copy_hl_try_copy); /* the variant was forced by setup */
}

static void run_hl_try_copy(struct bench_worker *w)
{
	cp_loop(w, copy_hl_try_copy);
}

static void run_glibc_memcpy(struct bench_worker *w)
{
	cp_loop(w, copy_glibc_memcpy);
}

static void run_process_vm_readv(struct bench_worker *w)
{
	cp_loop(w, copy_process_vm_readv);
}

static void run_pipe_probe(struct bench_worker *w)
{
	cp_loop(w, copy_pipe_probe);
}

static void run_hl_try_load64(struct bench_worker *w)
{
	cp_word_timed(w, load_hl_try_load64);
}

static void run_process_vm_readv_word(struct bench_worker *w)
{
	cp_word_timed(w, load_process_vm_readv);
}

/* ---- setup: each subject's state is the sample the scenario prepared ----- */

static void *cp_setup_variant(const struct bench_params *p)
{
	struct cp_sample *s = p->sink;

	if (hl_copy_use(s->subject) != 0) {
		errno = ENOTSUP;
		return NULL;
	}
	return s;
}

static void *cp_setup_auto(const struct bench_params *p)
{
	hl_copy_use("auto");
	return p->sink;
}

static void *cp_setup_plain(const struct bench_params *p)
{
	return p->sink;
}

static void cp_teardown(void *state)
{
	(void)state;
}

/* ---- the subject table: the library's variants, then the fixed subjects --- */

#define CP_TRY_COPY "hl_try_copy"
#define CP_LOAD64   "hl_try_load64"

static const struct bench_subject cp_fixed[] = {
	{CP_TRY_COPY, "hl_try_copy with the automatic per-size plan (hl_copy_use(\"auto\"))",
	 cp_setup_auto, run_hl_try_copy, cp_teardown,
	 .facts = {.kind = SUBJECT_COPY, .baseline = CP_BASELINE, .library = true}},
	{CP_BASELINE, "glibc memcpy(dst, src, n), called through a volatile pointer",
	 cp_setup_plain, run_glibc_memcpy, cp_teardown, .facts = {.kind = SUBJECT_COPY}},
	{"process_vm_readv",
	 "process_vm_readv(2) of this process's own pid, one call per copy (host kernel)",
	 cp_setup_plain, run_process_vm_readv, cp_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_TRY_COPY}},
	{"pipe_probe", "write(2) the source to a pipe, read(2) it back (host kernel)",
	 cp_setup_plain, run_pipe_probe, cp_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_TRY_COPY}},
	{CP_LOAD64, "hl_try_load64, one aligned word per call, from a hot array", cp_setup_plain,
	 run_hl_try_load64, cp_teardown, .facts = {.kind = SUBJECT_COPY, .library = true}},
	{"process_vm_readv_word",
	 "process_vm_readv(2) of one 8-byte word per call, from a hot array (host kernel)",
	 cp_setup_plain, run_process_vm_readv_word, cp_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_LOAD64}},
};

/* What each variant the library may name does; others get a generic line. */
static const struct {
	const char *name, *description;
} cp_variant_text[] = {
	{"rep_movsb", "hotline variant: rep movsb (ERMS/FSRM)"},
	{"movq", "hotline variant: 8-byte movq loads and stores"},
	{"avx2", "hotline variant: 32-byte AVX2 loads and stores"},
	{"avx512", "hotline variant: 64-byte AVX-512 loads and stores"},
	{"nontemporal", "hotline variant: streaming (non-temporal) stores, bypassing the cache"},
	{"ldp_stp", "hotline variant: LDP/STP pairs of registers"},
	{"mops", "hotline variant: FEAT_MOPS CPYP/CPYM/CPYE"},
};

static struct bench_subject cp_subjects[CP_MAX_VARIANTS + ARRAY_SIZE(cp_fixed)];

static int cp_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results);
static void cp_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan);

/* nr_subjects is set with the table, before main() (cp_init_subjects). */
struct bench_scenario bench_copy = {
	.name = CP_NAME,
	.description = "copy 1 B..1 GiB: hl_try_copy and its variants, glibc memcpy, "
		       "process_vm_readv, a pipe; hl_try_load64; hot and cold",
	.uses = BENCH_USES_DURATION | BENCH_USES_SIZES | BENCH_USES_MODE,
	.ignores_why = "it runs one thread",
	.subjects = cp_subjects,
	.run = cp_run,
	.plan = cp_plan,
};

/* ---- what a subject is (copy.h) ------------------------------------------ */

static bool cp_is_variant(const struct bench_subject *s)
{
	return s->facts.variant_of != NULL;
}

bool cp_is_auto(const struct bench_subject *s)
{
	return s->setup == cp_setup_auto;
}

const char *cp_variant(const struct bench_subject *s)
{
	return cp_is_variant(s) ? s->name : cp_is_auto(s) ? "auto" : NULL;
}

const char *cp_measures(const struct bench_subject *s)
{
	return s->run == run_process_vm_readv	     ? CP_KERNEL_PVR
	       : s->run == run_pipe_probe	     ? CP_KERNEL_PIPE
	       : s->run == run_process_vm_readv_word ? CP_KERNEL_PVR_WORD
						     : NULL;
}

bool cp_is_pipe(const struct bench_subject *s)
{
	return s->run == run_pipe_probe;
}

const char *cp_sweep_name(enum cp_sweep sweep)
{
	static const char *const name[] = {
		[CP_HOT] = "hot", [CP_COLD] = "cold", [CP_PROBE] = "probe", [CP_WORD] = "word"};

	return name[sweep];
}

/* The sweeps a subject is measured in: hot and cold, probe, word. */
static bool cp_in_word(const struct bench_subject *s)
{
	return s->run == run_hl_try_load64 || s->run == run_process_vm_readv_word;
}

static bool cp_in_probe(const struct bench_subject *s)
{
	return s->run == run_hl_try_copy || s->run == run_process_vm_readv ||
	       s->run == run_pipe_probe;
}

static bool cp_in_sweep(const struct bench_subject *s)
{
	return s->facts.kind == SUBJECT_COPY && !cp_in_word(s);
}

/* Whether s is a system call subject (what process_vm_readv's absence leaves out). */
static bool cp_uses_pvr(const struct bench_subject *s)
{
	return s->run == run_process_vm_readv || s->run == run_process_vm_readv_word;
}

/* ---- the scenario ------------------------------------------------------- */

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int cp_measure(void *arg, size_t i, unsigned int rep)
{
	struct cp_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	struct cp_sample sample = ctx->sample;
	struct bench_params params = {.threads = 1, .size = sample.size, .sink = &sample};
	char size[32];
	struct bench_run run;

	(void)rep;
	sample.subject = s->name;
	if (bench_measure(s, &params, 1, &ctx->run->cfg->pin, 0, &run))
		return 1;
	if (run.failed) {
		bench_error("%s: %s, %s %s: %s", CP_NAME, s->name, cp_sweep_name(sample.sweep),
			    zt_size_text(sample.size, size, sizeof(size)), run.why);
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

static void cp_series_free(struct cp_ctx *ctx)
{
	for (size_t i = 0; ctx->series && i < ctx->n; i++)
		bench_series_free(&ctx->series[i]);
	free(ctx->series);
	ctx->series = NULL;
}

/* One sweep at one size: measure, decide, print the row, append the results. */
static int cp_run_size(struct cp_ctx *ctx, json_t *results)
{
	const char *mode = cp_sweep_name(ctx->sample.sweep);
	char label[64], size[32];
	int ret = 1;

	ctx->series = calloc(ctx->n, sizeof(*ctx->series));
	if (!ctx->series) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < ctx->n; i++) {
		if (bench_series_init(&ctx->series[i], bench_reps_cap(ctx->run->reps), 1))
			goto out;
	}
	snprintf(label, sizeof(label), "%s, %s %s", CP_NAME, mode,
		 zt_size_text(ctx->sample.size, size, sizeof(size)));
	if (bench_interleave(label, ctx->subjects, NULL, ctx->n, ctx->run->reps, cp_measure, ctx))
		goto out;
	if (bench_until_decided(&(struct bench_point){
		    .scenario = CP_NAME,
		    .label = label,
		    .mode = mode,
		    .size = ctx->sample.size,
		    .llc = ctx->run->llc,
		    .n = ctx->n,
		    .subjects = ctx->subjects,
		    .series = ctx->series,
		    .measure = cp_measure,
		    .ctx = ctx,
	    }))
		goto out;
	cp_print_row(ctx);
	cp_results(ctx, results);
	ret = 0;
out:
	cp_series_free(ctx);
	return ret;
}

static size_t cp_round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/* Where the hot destination starts: after the source, a cache line apart. */
static size_t cp_hot_gap(size_t size)
{
	return cp_round_up(size, CP_ALIGN) + CP_ALIGN;
}

/*
 * Point ctx's sample at size: the hot buffers, or the cold walk over each
 * half of the arena. False: the cold sweep skips it (a half would not hold
 * two buffers).
 */
static bool cp_set_size(struct cp_ctx *ctx, size_t size)
{
	const struct cp_run *run = ctx->run;
	struct cp_sample *s = &ctx->sample;

	s->size = size;
	s->cursor = 0;
	if (s->sweep == CP_COLD) {
		struct zt_sample walk = {.size = size};

		if (size > run->arena / 4)
			return false;
		zt_cold_walk(&walk, run->arena / 2);
		s->src = run->region;
		s->dst = run->region + run->arena / 2;
		s->slot_bytes = walk.slot_bytes;
		s->nr_slots = walk.nr_slots;
		s->step = walk.step;
	} else {
		s->src = run->region;
		s->dst = run->region + cp_hot_gap(size);
		s->slot_bytes = 0;
		s->nr_slots = 1;
		s->step = 0;
		s->warm_up = 2 * size <= run->llc;
	}
	return true;
}

static void cp_ctx_init(struct cp_ctx *ctx, const struct cp_run *run,
			const struct bench_subject **subjects, size_t n, enum cp_sweep sweep,
			int *base)
{
	*ctx = (struct cp_ctx){
		.run = run,
		.subjects = subjects,
		.n = n,
		.base = base,
		.sample =
			{
				.sweep = sweep,
				.duration_ns = (uint64_t)(run->duration * 1e9),
				.pid = getpid(),
				.pipe_rd = run->pipe_rd,
				.pipe_wr = run->pipe_wr,
				.pipe_bytes = run->pipe_bytes,
			},
	};
	/* Each subject's baseline, when it is measured in this sweep too. */
	for (size_t i = 0; i < n; i++) {
		const char *want = subjects[i]->facts.baseline;

		base[i] = -1;
		for (size_t j = 0; want && j < n; j++) {
			if (strcmp(subjects[j]->name, want) == 0)
				base[i] = (int)j;
		}
	}
}

static int cp_run_sweep(struct cp_run *run, const struct bench_subject **subjects, size_t n,
			const size_t *sizes, size_t nr_sizes, enum cp_sweep sweep, json_t *results)
{
	struct cp_ctx ctx;
	size_t skipped = 0;
	int base[ARRAY_SIZE(cp_subjects)];

	if (!n)
		return 0;
	cp_ctx_init(&ctx, run, subjects, n, sweep, base);
	cp_print_header(subjects, n, sweep);
	if (sweep == CP_WORD) {
		ctx.sample.size = 8;
		ctx.sample.words = (const uint64_t *)run->region;
		ctx.sample.nr_words = CP_WORDS_BYTES / 8;
		return cp_run_size(&ctx, results);
	}
	for (size_t z = 0; z < nr_sizes; z++) {
		if (!cp_set_size(&ctx, sizes[z])) {
			skipped++;
			continue;
		}
		if (cp_run_size(&ctx, results))
			return 1;
	}
	if (skipped)
		cp_print_skipped(run, skipped);
	return 0;
}

/* The sizes of the hot and cold sweeps: --sizes, or the default or quick list. Caller frees. */
static size_t *cp_sizes(const struct bench_config *cfg, size_t *nr)
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
		v = malloc(sizeof(cp_quick_sizes));
		if (v)
			memcpy(v, cp_quick_sizes, sizeof(cp_quick_sizes));
		*nr = ARRAY_SIZE(cp_quick_sizes);
		return v;
	}
	v = malloc((31 + ARRAY_SIZE(cp_odd_sizes)) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t p = 1; p <= CP_MAX_SIZE; p <<= 1)
		v[n++] = p;
	for (size_t i = 0; i < ARRAY_SIZE(cp_odd_sizes); i++)
		v[n++] = cp_odd_sizes[i];
	qsort(v, n, sizeof(*v), cmp_size);
	*nr = n;
	return v;
}

/*
 * The probe sweep's sizes: those of --sizes from 8 B to 1 MiB, else the
 * default list (--quick: every other one). Into out (room for the larger
 * of the two lists); their number.
 */
static size_t cp_probe_list(const struct bench_config *cfg, size_t *out, size_t room)
{
	size_t n = 0;

	if (cfg->sizes) {
		for (size_t i = 0; i < cfg->nr_sizes && n < room; i++) {
			if (cfg->sizes[i] >= CP_PROBE_MIN && cfg->sizes[i] <= CP_PROBE_MAX)
				out[n++] = cfg->sizes[i];
		}
		return n;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cp_probe_sizes) && n < room; i += cfg->quick ? 2 : 1)
		out[n++] = cp_probe_sizes[i];
	return n;
}

static bool cp_pvr_works(char *why, size_t len);

/* The modes --mode asks of copy: hot, cold or both (used is zero's only). */
static unsigned int cp_modes(const struct bench_config *cfg)
{
	unsigned int m = cfg->modes ? cfg->modes : BENCH_MODE_HOT | BENCH_MODE_COLD;

	return m & (BENCH_MODE_HOT | BENCH_MODE_COLD);
}

/* The selected subjects split by sweep, less those this CPU or system cannot run. */
struct cp_pick {
	const struct bench_subject *sweep[ARRAY_SIZE(cp_subjects)];
	const struct bench_subject *probe[ARRAY_SIZE(cp_subjects)];
	const struct bench_subject *word[ARRAY_SIZE(cp_subjects)];
	size_t nr_sweep, nr_probe, nr_word;
	bool probe_asked; /* a subject only the probe sweep measures was selected */
};

static void cp_pick(const struct bench_scenario *sc, const struct bench_config *cfg, bool pvr_ok,
		    struct cp_pick *p, char *unsupported, size_t len)
{
	const struct bench_subject *picked[ARRAY_SIZE(cp_subjects)];
	size_t nr = bench_select_subjects(sc, cfg, picked);
	unsigned int modes = cp_modes(cfg);

	*p = (struct cp_pick){0};
	for (size_t i = 0; i < nr; i++) {
		const struct bench_subject *s = picked[i];

		if (cp_is_variant(s) && !hl_copy_supported(s->name)) {
			size_t used = unsupported ? strlen(unsupported) : 0;

			if (unsupported)
				snprintf(unsupported + used, len - used, "%s%s", used ? ", " : "",
					 s->name);
			continue;
		}
		if (cp_uses_pvr(s) && !pvr_ok)
			continue;
		if (cp_in_sweep(s) && modes)
			p->sweep[p->nr_sweep++] = s;
		if (cp_in_probe(s) && (modes & BENCH_MODE_HOT)) {
			p->probe[p->nr_probe++] = s;
			p->probe_asked |= !cp_in_sweep(s);
		}
		if (cp_in_word(s) && (modes & BENCH_MODE_HOT))
			p->word[p->nr_word++] = s;
	}
	/* hl_try_copy alone is measured by the hot sweep already: no probe sweep for it. */
	if (!p->probe_asked)
		p->nr_probe = 0;
}

/*
 * What cp_run will measure: each sweep's subjects at each of its sizes,
 * cold up to a quarter of the arena. A sample lasts its duration, or about
 * two calls where a call is longer (at ~5 GB/s).
 */
static void cp_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	double duration = cfg->duration ? cfg->duration
			  : cfg->quick	? CP_QUICK_DURATION
					: CP_DURATION;
	unsigned int modes = cp_modes(cfg);
	size_t probe[ARRAY_SIZE(cp_probe_sizes) + 64], nr_probe, nr_sizes = 0, *sizes, arena;
	struct cp_pick p;
	double per_rep = 0;
	bool guessed;

	cp_pick(sc, cfg, cp_pvr_works(NULL, 0), &p, NULL, 0);
	sizes = cp_sizes(cfg, &nr_sizes);
	nr_probe = p.nr_probe ? cp_probe_list(cfg, probe, ARRAY_SIZE(probe)) : 0;
	arena = zt_arena_bytes(zt_llc_bytes(&guessed));
	*plan = (struct bench_plan){0};
	for (size_t z = 0; sizes && z < nr_sizes; z++) {
		double t = 2 * (double)sizes[z] / 5e9;

		t = t > duration ? t : duration;
		if (modes & BENCH_MODE_HOT) {
			plan->items += p.nr_sweep;
			per_rep += (double)p.nr_sweep * t;
		}
		if ((modes & BENCH_MODE_COLD) && sizes[z] <= arena / 4) {
			plan->items += p.nr_sweep;
			per_rep += (double)p.nr_sweep * t;
		}
	}
	plan->items += p.nr_probe * nr_probe + p.nr_word;
	per_rep += (double)(p.nr_probe * nr_probe + p.nr_word) * duration;
	plan->items *= cfg->repeat;
	plan->seconds = per_rep * cfg->repeat;
	free(sizes);
}

/* Whether process_vm_readv works here (seccomp, an emulator may refuse it); why not. */
static bool cp_pvr_works(char *why, size_t len)
{
	uint64_t from = 42, to = 0;
	struct iovec local = {&to, 8}, remote = {&from, 8};

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 8 && to == from)
		return true;
	if (why)
		snprintf(why, len, "%s", strerror(errno));
	return false;
}

static void cp_close_pipe(struct cp_run *run)
{
	if (run->pipe_rd >= 0)
		close(run->pipe_rd);
	if (run->pipe_wr >= 0)
		close(run->pipe_wr);
	run->pipe_rd = run->pipe_wr = -1;
}

/* pipe_probe's pipe, as large as the system allows up to CP_PIPE_BYTES. 0 or -1. */
static int cp_open_pipe(struct cp_run *run)
{
	int fd[2], got;

	if (pipe2(fd, O_CLOEXEC) != 0) {
		bench_error("%s: pipe: %s", CP_NAME, strerror(errno));
		return -1;
	}
	run->pipe_rd = fd[0];
	run->pipe_wr = fd[1];
	(void)fcntl(fd[1], F_SETPIPE_SZ, (int)CP_PIPE_BYTES); /* refused: the default size */
	got = fcntl(fd[1], F_GETPIPE_SZ);
	run->pipe_bytes = got > 0 ? (size_t)got : 4096;
	return 0;
}

/* The memory: the largest hot pair of buffers, the cold arena, the word array; every page in. */
static int cp_map(struct cp_run *run, size_t need)
{
	run->region_bytes = cp_round_up(need, ZT_HUGE_PAGE);
	run->region = mmap(NULL, run->region_bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (run->region == MAP_FAILED) {
		run->region = NULL;
		bench_error("%s: cannot map %zu MiB: %s", CP_NAME, run->region_bytes >> 20,
			    strerror(errno));
		return -1;
	}
	madvise(run->region, run->region_bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	/* A pattern that differs from byte to byte, and the word array over its start. */
	for (size_t off = 0; off < run->region_bytes; off += ZT_PAGE)
		memset(run->region + off, (int)(off / ZT_PAGE * 7 + 1), ZT_PAGE);
	for (size_t off = 0; off < run->region_bytes; off += 251)
		run->region[off] ^= 0x3c;
	return 0;
}

static int cp_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	struct cp_run run = {
		.cfg = cfg,
		.reps = cfg->repeat,
		.duration = cfg->duration ? cfg->duration
			    : cfg->quick  ? CP_QUICK_DURATION
					  : CP_DURATION,
		.pipe_rd = -1,
		.pipe_wr = -1,
	};
	unsigned int modes = cp_modes(cfg);
	size_t nr_sizes = 0, *sizes = NULL, need = CP_WORDS_BYTES, nr_probe;
	size_t probe[ARRAY_SIZE(cp_probe_sizes) + 64];
	char unsupported[256] = "", why[128] = "";
	bool pvr_ok = cp_pvr_works(why, sizeof(why));
	struct cp_pick p;
	int ret = 1;

	if (cfg->modes & BENCH_MODE_USED)
		bench_note("%s: --mode used does not apply (zero's only); %s", CP_NAME,
			   modes ? "hot and cold as asked" : "nothing to run");
	if (!pvr_ok) {
		struct cp_pick all;

		cp_pick(sc, cfg, true, &all, NULL, 0);
		for (size_t i = 0; i < ARRAY_SIZE(cp_fixed); i++) {
			bool asked = false;

			for (size_t j = 0; j < all.nr_probe; j++)
				asked |= all.probe[j]->run == cp_fixed[i].run;
			for (size_t j = 0; j < all.nr_word; j++)
				asked |= all.word[j]->run == cp_fixed[i].run;
			if (asked && cp_uses_pvr(&cp_fixed[i]))
				bench_note("%s: process_vm_readv does not work here (%s): %s "
					   "skipped",
					   CP_NAME, why, cp_fixed[i].name);
		}
	}
	cp_pick(sc, cfg, pvr_ok, &p, unsupported, sizeof(unsupported));
	for (size_t i = 0; cfg->subjects && unsupported[0] && i < cfg->nr_subjects; i++) {
		const struct bench_subject *s = NULL;

		for (size_t j = 0; j < bench_copy.nr_subjects; j++) {
			if (strcmp(cp_subjects[j].name, cfg->subjects[i]) == 0)
				s = &cp_subjects[j];
		}
		if (s && cp_is_variant(s) && !hl_copy_supported(s->name))
			bench_note("%s: %s is not supported by this CPU; skipped", CP_NAME,
				   s->name);
	}
	if (!p.nr_sweep && !p.nr_probe && !p.nr_word)
		return 0;

	sizes = cp_sizes(cfg, &nr_sizes);
	if (!sizes) {
		bench_error("out of memory");
		return 1;
	}
	nr_probe = p.nr_probe ? cp_probe_list(cfg, probe, ARRAY_SIZE(probe)) : 0;
	run.llc = zt_llc_bytes(&run.llc_guessed);
	run.arena = zt_arena_bytes(run.llc);
	if (p.nr_sweep && (modes & BENCH_MODE_HOT) &&
	    cp_hot_gap(sizes[nr_sizes - 1]) * 2 + CP_ALIGN > need)
		need = cp_hot_gap(sizes[nr_sizes - 1]) * 2 + CP_ALIGN;
	if (nr_probe && cp_hot_gap(probe[nr_probe - 1]) * 2 + CP_ALIGN > need)
		need = cp_hot_gap(probe[nr_probe - 1]) * 2 + CP_ALIGN;
	if (p.nr_sweep && (modes & BENCH_MODE_COLD) && run.arena > need)
		need = run.arena;
	if (cp_map(&run, need))
		goto out;
	if (p.nr_probe && cp_open_pipe(&run))
		goto out;
	if (hl_try_zero_prepare() != 0) {
		bench_error("%s: hl_try_zero_prepare: %s", CP_NAME, strerror(errno));
		goto out;
	}
	hl_copy_use("auto");
	hl_copy_plan(run.plan, sizeof(run.plan));

	cp_print_intro(&run, unsupported);
	if ((modes & BENCH_MODE_HOT) &&
	    cp_run_sweep(&run, p.sweep, p.nr_sweep, sizes, nr_sizes, CP_HOT, results))
		goto out;
	if ((modes & BENCH_MODE_COLD) &&
	    cp_run_sweep(&run, p.sweep, p.nr_sweep, sizes, nr_sizes, CP_COLD, results))
		goto out;
	if (cp_run_sweep(&run, p.probe, p.nr_probe, probe, nr_probe, CP_PROBE, results))
		goto out;
	if (p.nr_word) {
		uint64_t *words = (uint64_t *)run.region;

		for (size_t i = 0; i < CP_WORDS_BYTES / 8; i++)
			words[i] = cp_word(i);
	}
	if (cp_run_sweep(&run, p.word, p.nr_word, NULL, 0, CP_WORD, results))
		goto out;
	ret = 0;
out:
	hl_copy_use("auto");
	cp_close_pipe(&run);
	if (run.region)
		munmap(run.region, run.region_bytes);
	free(sizes);
	return ret;
}

/*
 * The subject table, before main() reads it: every variant the library
 * names for this architecture (those the CPU lacks are listed, and skipped
 * when run), then the fixed subjects.
 */
static void __attribute__((constructor)) cp_init_subjects(void)
{
	size_t n = 0;
	const char *name;

	for (unsigned int i = 0; (name = hl_copy_variant_name(i)) && n < CP_MAX_VARIANTS; i++) {
		const char *description = "hotline variant, forced with hl_copy_use()";

		for (size_t j = 0; j < ARRAY_SIZE(cp_variant_text); j++) {
			if (strcmp(cp_variant_text[j].name, name) == 0)
				description = cp_variant_text[j].description;
		}
		/* hl_try_copy with this variant forced: its facts are hl_try_copy's. */
		cp_subjects[n++] = (struct bench_subject){
			.name = name,
			.description = description,
			.setup = cp_setup_variant,
			.run = run_variant,
			.teardown = cp_teardown,
			.facts = {.kind = SUBJECT_COPY,
				  .baseline = CP_BASELINE,
				  .variant_of = CP_TRY_COPY,
				  .library = true},
		};
	}
	for (size_t i = 0; i < ARRAY_SIZE(cp_fixed); i++)
		cp_subjects[n++] = cp_fixed[i];
	bench_copy.nr_subjects = n;
}
