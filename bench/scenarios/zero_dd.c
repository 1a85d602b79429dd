// SPDX-License-Identifier: MIT
/*
 * scenarios/zero_dd.c - zero's experiments on the host kernel, not on
 * hotline: the files read from (/dev/zero, a sparse file on tmpfs) and the
 * seed's dd-style runs, sequential read(2) in 1 MiB blocks of each, with
 * their table and results (zero_dd.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "../arch/arch.h"
#include "zero_dd.h"

#define ZT_KERNEL_DD_SPARSE                                                                        \
	"host kernel: read(2) of a hole of a tmpfs file (shmem read of an unallocated page) on "   \
	"this machine's kernel; not hotline code"
#define ZT_KERNEL_DD_ZERO                                                                          \
	"host kernel: read(2) from /dev/zero in 1 MiB blocks on this machine's kernel; not "       \
	"hotline code"

/* The files read from; -1 when not open. Set up once per scenario run. */
static struct {
	int dev_zero;
	int sparse;	     /* unlinked at once: nothing to remove later */
	char sparse_dir[64]; /* where it was made */
} zt_files = {-1, -1, ""};

/* One dd run: what the loop is told, and what it leaves. */
struct zt_dd_sample {
	unsigned char *base; /* the block read into */
	size_t size;	     /* bytes per read */
	uint64_t total_bytes;
	int fd; /* the file read from */
	uint64_t calls, bytes, elapsed_ns, cycles;
};

/*
 * dd: read(2) total_bytes sequentially in blocks of s->size into one
 * buffer, as `dd if=FILE of=/dev/null bs=1M` does. Timed as a whole.
 */
void run_dd(struct bench_worker *w)
{
	struct zt_dd_sample *s = w->state;
	uint64_t got = 0, reads = 0, t0, c0;

	t0 = bench_now_ns();
	c0 = bench_cycles();
	while (got < s->total_bytes) {
		uint64_t want = s->total_bytes - got < s->size ? s->total_bytes - got : s->size;
		ssize_t r = read(s->fd, s->base, (size_t)want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->failed = true;
			snprintf(w->why, sizeof(w->why), "read(2) after %llu bytes: %s",
				 (unsigned long long)got, r < 0 ? strerror(errno) : "end of file");
			break;
		}
		got += (uint64_t)r;
		reads++;
	}
	s->cycles = bench_cycles() - c0;
	s->elapsed_ns = bench_now_ns() - t0;
	s->calls = reads;
	s->bytes = got;
	w->ops = reads;
}

int zt_dev_zero_fd(void)
{
	return zt_files.dev_zero;
}

void *zt_dd_setup_dev_zero(const struct bench_params *p)
{
	struct zt_dd_sample *s = p->sink;

	s->fd = zt_files.dev_zero;
	return s;
}

void *zt_dd_setup_sparse(const struct bench_params *p)
{
	struct zt_dd_sample *s = p->sink;

	s->fd = zt_files.sparse;
	if (lseek(s->fd, 0, SEEK_SET) != 0)
		return NULL;
	return s;
}

/* Whether dir is on tmpfs. */
static bool zt_is_tmpfs(const char *dir)
{
	struct statfs fs;

	return statfs(dir, &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

/*
 * The sparse file: on /dev/shm, else on $TMPDIR or /tmp if that is tmpfs.
 * Unlinked as soon as it is made (the open descriptor keeps it), so that
 * nothing is left behind however the run ends. Returns 0, 1 when there is
 * no tmpfs (a note says so; the subject is skipped), -1 after bench_error.
 */
static int zt_make_sparse(uint64_t total)
{
	const char *tmp = getenv("TMPDIR");
	const char *dirs[] = {"/dev/shm", tmp && *tmp ? tmp : "/tmp", "/tmp"};
	char path[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (!zt_is_tmpfs(dirs[i]) || strlen(dirs[i]) >= sizeof(zt_files.sparse_dir))
			continue;
		snprintf(path, sizeof(path), "%s/hotline-zero-sparse.XXXXXX", dirs[i]);
		zt_files.sparse = mkstemp(path);
		if (zt_files.sparse < 0) {
			bench_error("%s: cannot create a file in '%s': %s", ZT_NAME, dirs[i],
				    strerror(errno));
			return -1;
		}
		unlink(path);
		if (ftruncate(zt_files.sparse, (off_t)total) != 0) {
			bench_error("%s: cannot make '%s' %llu bytes long: %s", ZT_NAME, path,
				    (unsigned long long)total, strerror(errno));
			return -1;
		}
		snprintf(zt_files.sparse_dir, sizeof(zt_files.sparse_dir), "%s", dirs[i]);
		return 0;
	}
	bench_note("%s: no tmpfs at /dev/shm, $TMPDIR or /tmp: dd_sparse_tmpfs skipped", ZT_NAME);
	return 1;
}

int zt_files_open(const struct bench_config *cfg, const struct bench_subject **dd, size_t *nr_dd)
{
	bool need_sparse = false;
	int made;

	zt_files.dev_zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zt_files.dev_zero < 0) {
		bench_error("%s: cannot open /dev/zero: %s", ZT_NAME, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < *nr_dd; i++)
		need_sparse |= (sized_facts(dd[i])->flags & ZT_DD_SPARSE) != 0;
	if (!need_sparse)
		return 0;
	made = zt_make_sparse(cfg->quick ? ZT_DD_QUICK_TOTAL : ZT_DD_TOTAL);
	if (made < 0)
		return -1;
	if (made > 0) {
		size_t kept = 0;

		for (size_t i = 0; i < *nr_dd; i++) {
			if (!(sized_facts(dd[i])->flags & ZT_DD_SPARSE))
				dd[kept++] = dd[i];
		}
		*nr_dd = kept;
	}
	return 0;
}

void zt_files_close(void)
{
	if (zt_files.dev_zero >= 0)
		close(zt_files.dev_zero);
	if (zt_files.sparse >= 0)
		close(zt_files.sparse);
	zt_files.dev_zero = zt_files.sparse = -1;
}

/* The dd experiments: each subject reads total_bytes once per repetition. */
struct zt_dd_ctx {
	const struct sized_run *run;
	const struct bench_subject **subjects;
	size_t n;
	uint64_t total;
	struct bench_series *series;
};

static int zt_dd_measure(void *arg, size_t i, unsigned int rep, unsigned int slice)
{
	struct zt_dd_ctx *ctx = arg;
	const struct bench_subject *s = ctx->subjects[i];
	struct zt_dd_sample sample = {
		.base = ctx->run->region,
		.size = ZT_DD_BLOCK,
		.total_bytes = ctx->total,
		.fd = -1,
	};
	struct bench_params params = {.threads = 1, .size = ZT_DD_BLOCK, .sink = &sample};
	struct bench_run run;

	(void)rep;
	(void)slice; /* bench_interleave: one slice */
	if (bench_measure(s, &params, 1, &ctx->run->cfg->pin, 0, &run))
		return 1;
	if (run.failed) {
		bench_error("%s: %s: %s", ZT_NAME, s->name, run.why);
		bench_run_free(&run);
		return 1;
	}
	run.elapsed_ns = (double)sample.elapsed_ns;
	run.cycles = sample.cycles;
	bench_series_add(&ctx->series[i], &run, (double)sample.bytes / (double)sample.calls);
	bench_run_free(&run);
	return 0;
}

int zt_run_dd(const struct sized_run *run, const struct bench_subject **subjects, size_t n,
	      json_t *results)
{
	struct zt_dd_ctx ctx = {
		.run = run,
		.subjects = subjects,
		.n = n,
		.total = run->cfg->quick ? ZT_DD_QUICK_TOTAL : ZT_DD_TOTAL,
	};
	char total[32], source[128];
	int ret = 1;

	ctx.series = calloc(n, sizeof(*ctx.series));
	if (!ctx.series) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (bench_series_init(&ctx.series[i], run->reps, 1))
			goto out;
	}
	if (bench_interleave(ZT_NAME ", dd", subjects, NULL, n, run->reps, zt_dd_measure, &ctx))
		goto out;
	sized_size_text(ctx.total, total, sizeof(total));
	printf("\ndd (the host kernel, not hotline): read(2) of %s in 1 MiB blocks\n"
	       "%-16s %8s %17s %9s %7s\n",
	       total, "subject", "GB/s", "min..max GB/s", "us/read", "spread");
	for (size_t i = 0; i < n; i++) {
		const struct bench_series *s = &ctx.series[i];
		bool sparse = (sized_facts(subjects[i])->flags & ZT_DD_SPARSE) != 0;
		struct bench_stats st;
		char range[40];
		json_t *r;

		bench_stats(s->gb_per_sec, s->n, &st);
		snprintf(range, sizeof(range), "%.2f..%.2f", st.min, st.max);
		printf("%-16s %8.2f %17s %9.1f %6.1f%%\n", subjects[i]->name, st.median, range,
		       bench_median(s->ns_per_op, s->n) / 1e3, 100 * st.rel_spread);
		if (sparse)
			snprintf(source, sizeof(source), "%s (tmpfs): a sparse file of %s",
				 zt_files.sparse_dir, total);
		else
			snprintf(source, sizeof(source), "/dev/zero");
		r = bench_result_json(ZT_NAME, subjects[i]->name, s, BENCH_HEADLINE_GB_PER_SEC,
				      ZT_DD_BLOCK, 0);
		json_object_set_new(r, "mode", json_string("dd"));
		json_object_set_new(r, "total_bytes", json_integer((json_int_t)ctx.total));
		json_object_set_new(r, "source", json_string(source));
		json_object_set_new(r, "measures",
				    json_string(sparse ? ZT_KERNEL_DD_SPARSE : ZT_KERNEL_DD_ZERO));
		json_array_append_new(results, r);
	}
	fflush(stdout);
	ret = 0;
out:
	for (size_t i = 0; i < n; i++)
		bench_series_free(&ctx.series[i]);
	free(ctx.series);
	return ret;
}
