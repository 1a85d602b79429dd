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
 * not used (tests/ check the faults). The sized-scenario engine
 * (../sized.h) measures: the loop (../sized_loop.h) inlined into one run
 * function per subject, repetitions interleaved across the subjects of a
 * sweep at each size, so that each repetition's figures pair (ratio: to
 * the subject's baseline in the same repetition); the first, middle and
 * last byte of the first destination checked against the source. This
 * file declares what is copy's: the operations, the word sweep's loop,
 * the subjects and the sweeps each is measured in, the pipe, and the
 * lines before the tables.
 *
 * The variant subjects are the library's list (hl_copy_variant_name),
 * read before main(): that is why this scenario object is not const.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../sized_loop.h"
#include "scenarios.h"

#define CP_NAME	       "copy"
#define CP_BASELINE    "glibc_memcpy"
#define CP_TRY_COPY    "hl_try_copy"
#define CP_LOAD64      "hl_try_load64"
#define CP_WORDS_BYTES (16u << 10) /* the word sweep's hot array */
#define CP_PIPE_BYTES  (1u << 20)  /* the pipe capacity asked for (F_SETPIPE_SZ) */

/* The sweeps, as the JSON's "mode" names them: bit k of sized_facts.sweeps is cp_sweeps[k]. */
enum { CP_HOT, CP_COLD, CP_PROBE, CP_WORD };
#define CP_SWEPT (1u << CP_HOT | 1u << CP_COLD)

/* sized_facts.flags: what a subject needs of the system. */
#define CP_PIPE 0x1u /* pipe_probe's pipe: its results carry its capacity */
#define CP_PVR	0x2u /* process_vm_readv, which seccomp or an emulator may refuse */

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

static const size_t cp_word_size[] = {8};

/* What the subjects read beside the buffers: this process, the pipe, the word array. */
struct cp_own {
	pid_t pid;
	int pipe_rd, pipe_wr;
	size_t pipe_bytes; /* the pipe's capacity: pipe_probe writes at most this per write */
	const uint64_t *words;
	size_t nr_words; /* a power of two */
};

static struct cp_own cp_own = {.pipe_rd = -1, .pipe_wr = -1};

/* ---- the subjects' copy operations --------------------------------------- */

/*
 * Each returns the number of bytes it could not copy (0: all of them).
 * glibc's memcpy is called through a volatile pointer so that the compiler
 * can neither inline it nor drop it.
 */
static void *(*volatile cp_memcpy)(void *, const void *, size_t) = memcpy;

static inline size_t copy_hl_try_copy(const struct sized_sample *s, unsigned char *dst,
				      const unsigned char *src, size_t n)
{
	(void)s;
	return hl_try_copy(dst, src, n);
}

static inline size_t copy_glibc_memcpy(const struct sized_sample *s, unsigned char *dst,
				       const unsigned char *src, size_t n)
{
	(void)s;
	cp_memcpy(dst, src, n);
	return 0;
}

static inline size_t copy_process_vm_readv(const struct sized_sample *s, unsigned char *dst,
					   const unsigned char *src, size_t n)
{
	const struct cp_own *own = s->own;
	struct iovec local = {dst, n}, remote = {(void *)src, n};
	ssize_t got = process_vm_readv(own->pid, &local, 1, &remote, 1, 0);

	return got < 0 ? n : n - (size_t)got;
}

/* write(2) (to_fd) or read(2) all of [p, p+n), or as far as it goes; the bytes done. */
static size_t cp_io_all(int fd, unsigned char *p, size_t n, bool to_fd)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = to_fd ? write(fd, p + done, n - done) : read(fd, p + done, n - done);

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
static inline size_t copy_pipe_probe(const struct sized_sample *s, unsigned char *dst,
				     const unsigned char *src, size_t n)
{
	const struct cp_own *own = s->own;
	size_t done = 0;

	while (done < n) {
		size_t chunk = n - done < own->pipe_bytes ? n - done : own->pipe_bytes;
		size_t in = cp_io_all(own->pipe_wr, (unsigned char *)src + done, chunk, true);
		size_t out = cp_io_all(own->pipe_rd, dst + done, in, false);

		done += out;
		if (in < chunk || out < in)
			break;
	}
	return n - done;
}

/* ---- the word sweep: its loads and its loop -------------------------------- */

/* The word sweep's loads: true when the word was read. */
typedef bool (*cp_load_fn)(const struct cp_own *own, const uint64_t *p, uint64_t *out);

static inline bool load_hl_try_load64(const struct cp_own *own, const uint64_t *p, uint64_t *out)
{
	(void)own;
	return hl_try_load64(p, out);
}

static inline bool load_process_vm_readv(const struct cp_own *own, const uint64_t *p, uint64_t *out)
{
	struct iovec local = {out, 8}, remote = {(void *)p, 8};

	return process_vm_readv(own->pid, &local, 1, &remote, 1, 0) == 8;
}

/* The word the array holds at index i (cp_fill_words). */
static inline uint64_t cp_word(size_t i)
{
	return (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
}

/* The words a loop of calls loads XOR to: whole rounds of the array, then the part round. */
static uint64_t cp_words_xor(uint64_t calls, size_t nr_words)
{
	uint64_t want = 0;

	/* A whole round XORs every word; an odd number of rounds leaves their XOR. */
	if ((calls / nr_words) & 1) {
		for (size_t j = 0; j < nr_words; j++)
			want ^= cp_word(j);
	}
	for (size_t j = 0; j < (calls & (nr_words - 1)); j++)
		want ^= cp_word(j);
	return want;
}

/*
 * The word sweep: one load per call, walking the array round and round,
 * in batches as sized_loop.h's; the words read are XORed together and
 * checked against what the array holds.
 */
static bench_always_inline void cp_word_timed(struct bench_worker *w, cp_load_fn load)
{
	struct sized_sample *s = w->state;
	const struct cp_own *own = s->own;
	const size_t mask = own->nr_words - 1;
	uint64_t calls = 0, batch = 1, t0, t1, tb, c0, seen = 0, want, v;
	size_t i = 0;
	bool ok = true;

	t0 = tb = bench_now_ns();
	c0 = bench_cycles();
	do {
		for (uint64_t k = 0; k < batch; k++) {
			v = 0;
			ok &= load(own, &own->words[i], &v);
			seen ^= v;
			i = (i + 1) & mask;
		}
		calls += batch;
		t1 = bench_now_ns();
		batch *= t1 - tb < SIZED_BATCH_NS ? 2 : 1;
		tb = t1;
	} while (t1 - t0 < s->duration_ns);
	s->cycles = bench_cycles() - c0;
	s->elapsed_ns = t1 - t0;
	s->calls = calls;
	s->bytes = calls * 8;
	w->ops = calls;
	want = cp_words_xor(calls, own->nr_words);
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

/* ---- one line per subject: the loop with that subject's operation --------- */

static void run_variant(struct bench_worker *w)
{
	sized_loop(w, copy_hl_try_copy); /* the variant was forced by setup */
}

static void run_hl_try_copy(struct bench_worker *w)
{
	sized_loop(w, copy_hl_try_copy);
}

static void run_glibc_memcpy(struct bench_worker *w)
{
	sized_loop(w, copy_glibc_memcpy);
}

static void run_process_vm_readv(struct bench_worker *w)
{
	sized_loop(w, copy_process_vm_readv);
}

static void run_pipe_probe(struct bench_worker *w)
{
	sized_loop(w, copy_pipe_probe);
}

static void run_hl_try_load64(struct bench_worker *w)
{
	cp_word_timed(w, load_hl_try_load64);
}

static void run_process_vm_readv_word(struct bench_worker *w)
{
	cp_word_timed(w, load_process_vm_readv);
}

/* ---- what a correct copy leaves, and the failure line ---------------------- */

static unsigned char cp_expect(const unsigned char *src, size_t at)
{
	return src[at];
}

static void cp_wrong(char *why, size_t len, size_t at, size_t n, unsigned int got,
		     unsigned int want)
{
	snprintf(why, len, "byte %zu of a %zu-byte copy is 0x%02x, the source's 0x%02x", at, n, got,
		 want);
}

/* ---- the subject table: the library's variants, then the fixed subjects --- */

static const struct bench_subject cp_fixed[] = {
	{CP_TRY_COPY, "hl_try_copy with the automatic per-size plan (hl_copy_use(\"auto\"))",
	 sized_setup_auto, run_hl_try_copy, sized_teardown,
	 .facts = {.kind = SUBJECT_COPY, .baseline = CP_BASELINE, .library = true},
	 .extra = &(const struct sized_facts){.sweeps = CP_SWEPT | 1u << CP_PROBE,
					      .automatic = true}},
	{CP_BASELINE, "glibc memcpy(dst, src, n), called through a volatile pointer",
	 sized_setup_plain, run_glibc_memcpy, sized_teardown, .facts = {.kind = SUBJECT_COPY},
	 .extra = &(const struct sized_facts){.sweeps = CP_SWEPT}},
	{"process_vm_readv",
	 "process_vm_readv(2) of this process's own pid, one call per copy (host kernel)",
	 sized_setup_plain, run_process_vm_readv, sized_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_TRY_COPY},
	 .extra = &(const struct sized_facts){.sweeps = 1u << CP_PROBE,
					      .measures = CP_KERNEL_PVR,
					      .flags = CP_PVR}},
	{"pipe_probe", "write(2) the source to a pipe, read(2) it back (host kernel)",
	 sized_setup_plain, run_pipe_probe, sized_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_TRY_COPY},
	 .extra = &(const struct sized_facts){.sweeps = 1u << CP_PROBE,
					      .measures = CP_KERNEL_PIPE,
					      .flags = CP_PIPE}},
	{CP_LOAD64, "hl_try_load64, one aligned word per call, from a hot array", sized_setup_plain,
	 run_hl_try_load64, sized_teardown, .facts = {.kind = SUBJECT_COPY, .library = true},
	 .extra = &(const struct sized_facts){.sweeps = 1u << CP_WORD}},
	{"process_vm_readv_word",
	 "process_vm_readv(2) of one 8-byte word per call, from a hot array (host kernel)",
	 sized_setup_plain, run_process_vm_readv_word, sized_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL, .baseline = CP_LOAD64},
	 .extra = &(const struct sized_facts){.sweeps = 1u << CP_WORD,
					      .measures = CP_KERNEL_PVR_WORD,
					      .flags = CP_PVR}},
};

/* What each variant the library may name does; others get a generic line. */
static const char *const cp_variant_text[][2] = {
	{"rep_movsb", "hotline variant: rep movsb (ERMS/FSRM)"},
	{"movq", "hotline variant: 8-byte movq loads and stores"},
	{"avx2", "hotline variant: 32-byte AVX2 loads and stores"},
	{"avx512", "hotline variant: 64-byte AVX-512 loads and stores"},
	{"nontemporal", "hotline variant: streaming (non-temporal) stores, bypassing the cache"},
	{"ldp_stp", "hotline variant: LDP/STP pairs of registers"},
	{"mops", "hotline variant: FEAT_MOPS CPYP/CPYM/CPYE"},
};

static void cp_plan_text(char *buf, size_t len)
{
	hl_copy_plan(buf, len);
}

static const struct sized_variants cp_variants = {
	.name = hl_copy_variant_name,
	.use = hl_copy_use,
	.supported = hl_copy_supported,
	.text = cp_variant_text,
	.nr_text = ARRAY_SIZE(cp_variant_text),
	.generic = "hotline variant, forced with hl_copy_use()",
	.run = run_variant,
	/* hl_try_copy with a variant forced: its facts are hl_try_copy's. */
	.facts = {.kind = SUBJECT_COPY,
		  .baseline = CP_BASELINE,
		  .variant_of = CP_TRY_COPY,
		  .library = true},
	.extra = &(const struct sized_facts){.sweeps = CP_SWEPT},
	.plan = cp_plan_text,
};

/* ---- the sweeps ---------------------------------------------------------- */

static void cp_probe_json(const struct sized_ctx *ctx, size_t i, json_t *r)
{
	bool pipe = sized_facts(ctx->subjects[i])->flags & CP_PIPE;

	json_object_set_new(r, "pipe_bytes",
			    pipe ? json_integer((json_int_t)cp_own.pipe_bytes) : json_null());
}

static void cp_word_json(const struct sized_ctx *ctx, size_t i, json_t *r)
{
	(void)ctx, (void)i;
	json_object_set_new(r, "array_bytes", json_integer(CP_WORDS_BYTES));
}

/* The word array, written just before the word sweep (the others write over the region). */
static void cp_fill_words(const struct sized_run *run)
{
	uint64_t *words = (uint64_t *)run->region;

	for (size_t i = 0; i < CP_WORDS_BYTES / 8; i++)
		words[i] = cp_word(i);
}

static const struct sized_sweep cp_sweeps[] = {
	[CP_HOT] = {"hot", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_HOT},
	[CP_COLD] = {"cold", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_COLD,
		     .cold = true},
	/* hl_try_copy alone is measured by the hot sweep already: no probe sweep for it. */
	[CP_PROBE] = {"probe", "GB/s", BENCH_HEADLINE_GB_PER_SEC, .mode = BENCH_MODE_HOT,
		      .only_if_own = true, .sizes = cp_probe_sizes,
		      .nr_sizes = ARRAY_SIZE(cp_probe_sizes), .min = 8, .max = 1u << 20,
		      .json = cp_probe_json},
	[CP_WORD] = {"word", "ns per word", BENCH_HEADLINE_NS_PER_OP, .mode = BENCH_MODE_HOT,
		     .fixed_size = true, .sizes = cp_word_size, .nr_sizes = 1, .json = cp_word_json,
		     .before = cp_fill_words},
};

/* ---- copy's own parts of the run ------------------------------------------- */

static void cp_intro(const struct sized_run *run)
{
	char llc[32], arena[32], pipe[32];

	printf("%s: copying one buffer per call, one thread; %.3f s per sample, %u repetition%s "
	       "interleaved, each in up to %u slice%s by turns; placement %s\n"
	       "hl_try_copy's automatic plan: %s\n"
	       "cold: each call copies another %d-byte-aligned place of the first half of a %s "
	       "arena (%d x the %s last-level cache%s) to the same place of its second half, in "
	       "scattered order; every page faulted in first\n",
	       CP_NAME, run->duration, run->reps, run->reps == 1 ? "" : "s", run->slices,
	       run->slices == 1 ? "" : "s", run->cfg->pin.text, run->plan, SIZED_ALIGN,
	       sized_size_text(run->arena, arena, sizeof(arena)), SIZED_ARENA_LLCS,
	       sized_size_text(run->llc, llc, sizeof(llc)), run->llc_guessed ? ", guessed" : "");
	if (cp_own.pipe_rd >= 0)
		printf("probe: hot buffers; pipe_probe writes at most %s (the pipe's capacity) "
		       "before it reads back\n",
		       sized_size_text(cp_own.pipe_bytes, pipe, sizeof(pipe)));
	printf("word: one 8-byte word per call from a hot %u KiB array, round and round\n",
	       CP_WORDS_BYTES >> 10);
}

static void cp_skipped(const struct sized_run *run, const struct sized_sweep *sweep, size_t skipped)
{
	char text[32];

	(void)sweep;
	printf("(cold skips %zu size%s over %s: two such buffers do not fit half the arena "
	       "twice, and hot already finds them beyond the last-level cache)\n",
	       skipped, skipped == 1 ? "" : "s",
	       sized_size_text(run->arena / 4, text, sizeof(text)));
}

/* Whether process_vm_readv works here (seccomp, an emulator may refuse it); why not. */
static unsigned int cp_unusable(char *why, size_t len)
{
	uint64_t from = 42, to = 0;
	struct iovec local = {&to, 8}, remote = {&from, 8};

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 8 && to == from)
		return 0;
	snprintf(why, len, "process_vm_readv does not work here (%s)", strerror(errno));
	return CP_PVR;
}

/* A pattern that differs from byte to byte over the whole region. */
static void cp_fill(unsigned char *region, size_t bytes)
{
	for (size_t off = 0; off < bytes; off += SIZED_PAGE)
		memset(region + off, (int)(off / SIZED_PAGE * 7 + 1), SIZED_PAGE);
	for (size_t off = 0; off < bytes; off += 251)
		region[off] ^= 0x3c;
}

static size_t cp_need(const struct sized_run *run)
{
	(void)run;
	return CP_WORDS_BYTES;
}

static void cp_finish(struct sized_run *run)
{
	(void)run;
	if (cp_own.pipe_rd >= 0)
		close(cp_own.pipe_rd);
	if (cp_own.pipe_wr >= 0)
		close(cp_own.pipe_wr);
	cp_own.pipe_rd = cp_own.pipe_wr = -1;
}

/* pipe_probe's pipe, as large as the system allows up to CP_PIPE_BYTES. 0 or 1. */
static int cp_open_pipe(void)
{
	int fd[2], got;

	if (pipe2(fd, O_CLOEXEC) != 0) {
		bench_error("%s: pipe: %s", CP_NAME, strerror(errno));
		return 1;
	}
	cp_own.pipe_rd = fd[0];
	cp_own.pipe_wr = fd[1];
	(void)fcntl(fd[1], F_SETPIPE_SZ, (int)CP_PIPE_BYTES); /* refused: the default size */
	got = fcntl(fd[1], F_GETPIPE_SZ);
	cp_own.pipe_bytes = got > 0 ? (size_t)got : 4096;
	return 0;
}

/* This process, the pipe when the probe sweep runs, the word array; the fault handler. */
static int cp_prepare(struct sized_run *run)
{
	cp_own.pid = getpid();
	cp_own.words = (const uint64_t *)run->region;
	cp_own.nr_words = CP_WORDS_BYTES / 8;
	run->own = &cp_own;
	if (run->nr_swept[CP_PROBE] && cp_open_pipe())
		return 1;
	if (hl_try_zero_prepare() != 0) {
		bench_error("%s: hl_try_zero_prepare: %s", CP_NAME, strerror(errno));
		return 1;
	}
	return 0;
}

static struct bench_subject cp_subjects[SIZED_MAX_SUBJECTS];

static int cp_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results);
static void cp_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan);

/* subjects and nr_subjects are set with the table, before main() (cp_init_subjects). */
static struct bench_scenario bench_copy = {
	.name = CP_NAME,
	.description = "copy 1 B..1 GiB: hl_try_copy and its variants, glibc memcpy, "
		       "process_vm_readv, a pipe; hl_try_load64; hot and cold",
	.uses = BENCH_USES_DURATION | BENCH_USES_SIZES | BENCH_USES_MODE,
	.ignores_why = "it runs one thread",
	.run = cp_run,
	.plan = cp_plan,
};

BENCH_SCENARIO(bench_copy, 50);

static const struct sized_def cp_def = {
	.name = CP_NAME,
	.noun = "copy",
	.undone = "uncopied",
	.buffers = 2,
	.modes = BENCH_MODE_HOT | BENCH_MODE_COLD,
	.modes_note = "--mode used does not apply (zero's only)",
	.duration = 0.01,
	.quick_duration = 0.002,
	.rate = 5e9,
	.max_size = 1ull << 30,
	.odd_sizes = cp_odd_sizes,
	.nr_odd = ARRAY_SIZE(cp_odd_sizes),
	.quick_sizes = cp_quick_sizes,
	.nr_quick = ARRAY_SIZE(cp_quick_sizes),
	.sweeps = cp_sweeps,
	.nr_sweeps = ARRAY_SIZE(cp_sweeps),
	.variants = &cp_variants,
	.fixed = cp_fixed,
	.nr_fixed = ARRAY_SIZE(cp_fixed),
	.subjects = cp_subjects,
	.scenario = &bench_copy,
	.expect = cp_expect,
	.wrong = cp_wrong,
	.fill = cp_fill,
	.prepare = cp_prepare,
	.unusable = cp_unusable,
	.need = cp_need,
	.intro = cp_intro,
	.skipped = cp_skipped,
	.finish = cp_finish,
};

static void cp_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	(void)sc;
	sized_scenario_plan(&cp_def, cfg, plan);
}

static int cp_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	(void)sc;
	return sized_scenario_run(&cp_def, cfg, results);
}

/* The subject table, before main() reads it (sized_init_subjects). */
static void __attribute__((constructor)) cp_init_subjects(void)
{
	sized_init_subjects(&cp_def);
}
