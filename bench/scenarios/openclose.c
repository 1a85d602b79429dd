// SPDX-License-Identifier: MIT
/*
 * scenarios/openclose.c - the lockref thread's reproducer, against this
 * machine's own kernel.
 *
 * N workers each open() the same read-only file in a read-only directory,
 * read 64 bytes and close it, over and over, for a fixed time. Every open
 * walks the path (taking and dropping references on the directories'
 * dentries: the kernel's lockref, which is what the 2013-2023 lockref
 * patches measured with this very loop), takes a reference on the file's
 * dentry and inode and allocates a struct file; close drops them. Run once
 * with threads of one process (one file table, shared) and once with
 * processes (one file table each: only the dentries are shared), the
 * latter as will-it-scale's open1/open2 do.
 *
 * This measures the host kernel, not hotline: the results say so
 * ("measures"). It shows what the contention the other scenarios model
 * costs in a real kernel path on this machine, and whether it scales here.
 *
 * The file lives in a fresh directory under $TMPDIR (else /tmp), made for
 * the run and removed after it, also when the run fails or is interrupted
 * (SIGINT, SIGTERM, SIGHUP).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contend.h"
#include "scenarios.h"

#define OC_NAME	     "openclose"
#define OC_FILE_SIZE 4096
#define OC_READ	     64
#define OC_MEASURES                                                                                \
	"host kernel: path walk (dentry lockref get/put), struct file refcount, open + read + "    \
	"close system calls on this machine's kernel; not hotline code"

/* The directory and file under test. Static: the signal handler removes them. */
static struct {
	char dir[PATH_MAX - 8]; /* room for "/file" in file */
	char file[PATH_MAX];
	volatile sig_atomic_t have_dir, have_file;
} oc;

static const int oc_signals[] = {SIGINT, SIGTERM, SIGHUP};

#define OC_NR_SIGNALS (sizeof(oc_signals) / sizeof(oc_signals[0]))

static struct sigaction oc_old_action[OC_NR_SIGNALS];

/* Remove the file and the directory, as far as they exist. Async-signal-safe. */
static void oc_remove(void)
{
	if (oc.have_dir)
		chmod(oc.dir, 0700); /* writable again, to unlink in it */
	if (oc.have_file && unlink(oc.file) == 0)
		oc.have_file = 0;
	if (oc.have_dir && rmdir(oc.dir) == 0)
		oc.have_dir = 0;
}

static void oc_on_signal(int sig)
{
	oc_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void oc_catch_signals(bool on)
{
	struct sigaction sa = {.sa_handler = oc_on_signal};

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < OC_NR_SIGNALS; i++) {
		if (on)
			sigaction(oc_signals[i], &sa, &oc_old_action[i]);
		else
			sigaction(oc_signals[i], &oc_old_action[i], NULL);
	}
}

/* A fresh directory holding a 4 KiB file; both made read-only. 0, or -1 after bench_error. */
static int oc_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char data[OC_FILE_SIZE];
	ssize_t written;
	int fd;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if ((size_t)snprintf(oc.dir, sizeof(oc.dir), "%s/hotline-openclose.XXXXXX", tmp) >=
	    sizeof(oc.dir)) {
		bench_error("%s: TMPDIR '%s' is too long", OC_NAME, tmp);
		return -1;
	}
	if (!mkdtemp(oc.dir)) {
		bench_error("%s: cannot make a directory in '%s': %s", OC_NAME, tmp,
			    strerror(errno));
		return -1;
	}
	oc.have_dir = 1;
	snprintf(oc.file, sizeof(oc.file), "%s/file", oc.dir);
	fd = open(oc.file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		bench_error("%s: cannot create '%s': %s", OC_NAME, oc.file, strerror(errno));
		return -1;
	}
	oc.have_file = 1;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 26);
	written = write(fd, data, sizeof(data));
	if (written != (ssize_t)sizeof(data) || close(fd) != 0) {
		bench_error("%s: cannot write '%s': %s", OC_NAME, oc.file,
			    written < 0 ? strerror(errno) : "short write");
		return -1;
	}
	if (chmod(oc.file, 0444) != 0 || chmod(oc.dir, 0555) != 0) {
		bench_error("%s: cannot make '%s' read-only: %s", OC_NAME, oc.dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the subjects ------------------------------------------------------- */

static void *oc_setup(const struct bench_params *p)
{
	(void)p;
	return oc.file;
}

static void oc_teardown(void *state)
{
	(void)state;
}

static void oc_fail(struct bench_worker *w, const char *what, const char *file, int err)
{
	w->failed = true;
	snprintf(w->why, sizeof(w->why), "%s '%s': %s", what, file, strerror(err));
}

static bench_always_inline void oc_loop(struct bench_worker *w)
{
	const char *file = w->state;
	char buf[OC_READ];
	uint64_t n = 0;

	/* Counts only what ends before the stop, and starts nothing after it (harness.h). */
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		ssize_t got;

		if (fd < 0) {
			oc_fail(w, "cannot open", file, errno);
			break;
		}
		got = read(fd, buf, sizeof(buf));
		if (got != OC_READ) {
			oc_fail(w, "cannot read 64 bytes of", file, got < 0 ? errno : EIO);
			close(fd);
			break;
		}
		close(fd);
		n += !atomic_load_explicit(w->stop, memory_order_relaxed);
	}
	w->ops = n;
}

static void run_open_close(struct bench_worker *w)
{
	oc_loop(w);
}

/* The same loop twice: in threads of one process, and in processes (the table says). */
static const struct bench_subject oc_subjects[] = {
	{.name = "threads",
	 .description = "N threads of one process (one shared file table)",
	 .setup = oc_setup,
	 .run = run_open_close,
	 .teardown = oc_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL}},
	{.name = "processes",
	 .description = "N processes (fork; a file table each, the dentries shared)",
	 .setup = oc_setup,
	 .run = run_open_close,
	 .teardown = oc_teardown,
	 .facts = {.kind = SUBJECT_SYSCALL},
	 .processes = true},
};

#define OC_NR_SUBJECTS (sizeof(oc_subjects) / sizeof(oc_subjects[0]))

/* ---- the scenario ------------------------------------------------------- */

struct oc_ctx {
	const struct bench_config *cfg;
	const struct bench_subject **subjects;
	size_t n;
	unsigned int workers;
	double duration;
	struct bench_series *series; /* [n] */
};

static int oc_measure(void *arg, size_t i, unsigned int rep, unsigned int slice)
{
	struct oc_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	struct bench_params params = {.threads = ctx->workers};
	struct bench_run run;
	int ret;

	(void)rep;
	(void)slice; /* bench_interleave: one slice */
	if (s->processes)
		ret = bench_measure_processes(s, &params, ctx->workers, &ctx->cfg->pin,
					      ctx->duration, &run);
	else
		ret = bench_measure(s, &params, ctx->workers, &ctx->cfg->pin, ctx->duration, &run);
	if (ret)
		return 1;
	if (run.failed) {
		bench_error("%s: %s, %u worker%s: %s", OC_NAME, s->name, ctx->workers,
			    ctx->workers == 1 ? "" : "s", run.why);
		bench_run_free(&run);
		return 1;
	}
	bench_series_add(&ctx->series[i], &run, 0);
	bench_run_free(&run);
	return 0;
}

static void oc_print_rows(const struct oc_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_series *s = &ctx->series[i];
		struct bench_stats st;
		double ns = bench_median(s->ns_per_op, s->n);

		bench_stats(s->ops_per_sec, s->n, &st);
		printf("%-7u %-10s %10.1f %10.1f %14.2f %6.1f%% %6.3f\n", ctx->workers,
		       ctx->subjects[i]->name, st.median / 1e3, ns, ns * ctx->workers / 1e3,
		       100 * st.rel_spread, bench_median(s->fairness, s->n));
	}
	fflush(stdout);
}

static void oc_results(const struct oc_ctx *ctx, json_t *results)
{
	for (size_t i = 0; i < ctx->n; i++) {
		json_t *r = bench_result_json(OC_NAME, ctx->subjects[i]->name, &ctx->series[i],
					      BENCH_HEADLINE_OPS_PER_SEC, 0, 0);

		json_object_set_new(r, "measures", json_string(OC_MEASURES));
		json_object_set_new(r, "op", json_string("open + read 64 bytes + close"));
		json_object_set_new(r, "workers", json_string(ctx->subjects[i]->name));
		json_object_set_new(r, "duration", json_real(ctx->duration));
		json_array_append_new(results, r);
	}
}

static int oc_run_workers(struct oc_ctx *ctx, json_t *results)
{
	char label[64];
	int ret = 1;

	ctx->series = calloc(ctx->n, sizeof(*ctx->series));
	if (!ctx->series) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < ctx->n; i++) {
		if (bench_series_init(&ctx->series[i], ctx->cfg->repeat, ctx->workers))
			goto out;
	}
	snprintf(label, sizeof(label), "%s, %u worker%s", OC_NAME, ctx->workers,
		 ctx->workers == 1 ? "" : "s");
	if (bench_interleave(label, ctx->subjects, NULL, ctx->n, ctx->cfg->repeat, oc_measure, ctx))
		goto out;
	oc_print_rows(ctx);
	oc_results(ctx, results);
	ret = 0;
out:
	for (size_t i = 0; i < ctx->n; i++)
		bench_series_free(&ctx->series[i]);
	free(ctx->series);
	ctx->series = NULL;
	return ret;
}

static const unsigned int oc_default_workers[] = {1, 2, 4, 8};

#define OC_NR_DEFAULT_WORKERS (sizeof(oc_default_workers) / sizeof(oc_default_workers[0]))

static double oc_duration(const struct bench_config *cfg)
{
	return cfg->duration ? cfg->duration
	       : cfg->quick  ? CONTEND_QUICK_DURATION
			     : CONTEND_DURATION;
}

static void oc_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	const struct bench_subject *subjects[OC_NR_SUBJECTS];
	size_t n = bench_select_subjects(sc, cfg, subjects);

	plan->items = (unsigned long)(n * (cfg->threads ? cfg->nr_threads : OC_NR_DEFAULT_WORKERS) *
				      cfg->repeat);
	plan->seconds = (double)plan->items * oc_duration(cfg);
}

static int oc_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	const struct bench_subject *subjects[OC_NR_SUBJECTS];
	const unsigned int *workers = cfg->threads ? cfg->threads : oc_default_workers;
	size_t nr_workers = cfg->threads ? cfg->nr_threads : OC_NR_DEFAULT_WORKERS;
	struct oc_ctx ctx = {
		.cfg = cfg,
		.subjects = subjects,
		.duration = oc_duration(cfg),
	};
	int ret = 1;

	ctx.n = bench_select_subjects(sc, cfg, subjects);
	if (!ctx.n)
		return 0;
	oc_catch_signals(true);
	if (oc_make())
		goto out;
	printf("%s: N workers each open + read 64 B + close '%s' for %.2f s; %u repetition%s, "
	       "interleaved; placement %s\n"
	       "(this measures the host kernel: path walk, dentry lockref, file refcount)\n",
	       OC_NAME, oc.file, ctx.duration, cfg->repeat, cfg->repeat == 1 ? "" : "s",
	       cfg->pin.text);
	printf("%-7s %-10s %10s %10s %14s %7s %6s\n", "workers", "subject", "kops/s", "ns/op",
	       "us/op/worker", "spread", "fair");
	for (size_t i = 0; i < nr_workers; i++) {
		ctx.workers = workers[i];
		if (oc_run_workers(&ctx, results))
			goto out;
	}
	ret = 0;
out:
	oc_remove();
	oc_catch_signals(false);
	if (oc.have_dir)
		bench_note("%s: could not remove '%s'", OC_NAME, oc.dir);
	return ret;
}

static const struct bench_scenario bench_openclose = {
	.name = OC_NAME,
	.description =
		"N threads / N processes open+read+close one file (the host kernel; 1,2,4,8)",
	.uses = BENCH_USES_THREADS | BENCH_USES_DURATION,
	.ignores_why = "it runs for a time, not to a count",
	.subjects = oc_subjects,
	.nr_subjects = OC_NR_SUBJECTS,
	.run = oc_run,
	.plan = oc_plan,
};

BENCH_SCENARIO(bench_openclose, 60);
