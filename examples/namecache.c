// SPDX-License-Identifier: MIT
/*
 * namecache.c - threads looking up names and reading small cached files:
 * a workload for hotline-trace (docs/trace.md), in the spirit of the 2019
 * refcount argument's test case (several threads reading one small file in
 * parallel).
 *
 * The cache is a hash table of entries that are never freed (type-stable:
 * a lookup may race an invalidation). Each entry has
 *
 *  - a struct hl_lockref: a lookup takes a reference with
 *    hl_lockref_get_not_dead and drops it with hl_lockref_put_or_lock;
 *  - the file's contents, a buffer counted by an hl_refcount_t, which a
 *    reader takes under its bucket's hl_qspinlock_t and drops after
 *    copying it out (the last put frees it).
 *
 * Now and then a thread rewrites a file: under the bucket lock it swaps in a
 * new buffer and drops the cache's reference to the old one, which the
 * last reader frees. Lookups go mostly to a few hot names, as in a web
 * server reading one small file.
 *
 * The options below set the lockref traffic between that and hotline-bench
 * contend's loop: with --hot 1 --hot-share 100 --no-file --get get (and
 * --pin) each thread does what contend's lockref_lib subject does, a
 * hl_lockref_get and a hl_lockref_put_or_lock on one lockref and nothing
 * between but the choice of the name; with --put put_return and the
 * default --get, what its lockref_get_not_dead subject does. --delay and
 * --counts are for hotline-trace --no-ops: the tracer attaches during the
 * delay, and the exact counts printed at exit are its S.
 *
 *   namecache [--threads N] [--seconds S] [--names N] [--hot N]
 *             [--hot-share P] [--no-file] [--get OP] [--put OP] [--pin]
 *             [--delay S] [--counts] [--help]
 *
 * Prints its PID first (for hotline-trace -p), the operations per second at
 * the end (and with --counts each entry's lookups). Bad values: one line
 * naming the option, exit 2. Not installed: built in the build tree as
 * examples/namecache.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pthread.h>

#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>

#define NR_BUCKETS  16
#define MAX_NAMES   256
#define MAX_THREADS 64
#define FILE_SIZE   256

/* How a lookup takes its reference, and how it is dropped. */
enum get_op { GET_NOT_DEAD, GET };
enum put_op { PUT_OR_LOCK, PUT_RETURN };

/* The options; set before the threads start, read-only after. */
static struct config {
	unsigned int threads, names;
	unsigned int hot;	/* the hot names: entries 0 .. hot - 1 */
	unsigned int hot_share; /* the percentage of lookups that go to them */
	double seconds, delay;
	enum get_op get;
	enum put_op put;
	bool file; /* read (or now and then rewrite) the entry's file */
	bool pin, counts;
} cfg = {
	.threads = 2,
	.names = 64,
	.hot = 4,
	.hot_share = 90,
	.seconds = 10,
	.get = GET_NOT_DEAD,
	.put = PUT_OR_LOCK,
	.file = true,
};

struct buffer {
	hl_refcount_t ref;
	char data[FILE_SIZE];
};

struct entry {
	struct hl_lockref ref;
	unsigned int bucket;
	struct buffer *file; /* under buckets[bucket].lock */
	char name[32];
};

struct bucket {
	_Alignas(64) hl_qspinlock_t lock;
};

/* One thread's: only it writes them while it runs. */
struct worker {
	_Alignas(64) uint64_t ops; /* lookups tried */
	uint64_t state;		   /* its random numbers */
	uint64_t found[MAX_NAMES]; /* lookups that took a reference, per entry */
	pthread_t tid;
	int cpu; /* with --pin; else -1 */
};

static struct entry entries[MAX_NAMES];
static struct bucket buckets[NR_BUCKETS];
static struct worker workers[MAX_THREADS];
static atomic_bool stop;

static struct buffer *buffer_new(unsigned int version, const char *name)
{
	struct buffer *b = malloc(sizeof(*b));

	if (!b) {
		perror("namecache: malloc");
		exit(1);
	}
	hl_refcount_set(&b->ref, 1); /* the cache's reference */
	snprintf(b->data, sizeof(b->data), "%s, version %u\n", name, version);
	return b;
}

static void buffer_put(struct buffer *b)
{
	if (hl_refcount_dec_and_test(&b->ref))
		free(b);
}

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void cache_init(void)
{
	for (unsigned int i = 0; i < cfg.names; i++) {
		struct entry *e = &entries[i];

		snprintf(e->name, sizeof(e->name), "/srv/www/file%u.html", i);
		hl_lockref_init(&e->ref); /* the cache's reference */
		e->bucket = hash(e->name) % NR_BUCKETS;
		e->file = buffer_new(0, e->name);
	}
}

/* Look a name up: the entry with a reference taken, or NULL. */
static struct entry *lookup(unsigned int i)
{
	struct entry *e = &entries[i];

	if (cfg.get == GET) {
		hl_lockref_get(&e->ref);
		return e;
	}
	return hl_lockref_get_not_dead(&e->ref) ? e : NULL;
}

/*
 * Drop the reference. When put_or_lock finds the last one, or put_return
 * gives up (the lock seen taken, or its attempts spent), the count is
 * dropped under the lock, as the kernel's dput does. The cache holds a
 * reference for good: the last one is never ours.
 */
static void entry_put(struct entry *e)
{
	if (cfg.put == PUT_RETURN) {
		if (hl_lockref_put_return(&e->ref) >= 0)
			return;
		hl_qspin_lock(&e->ref.lock);
	} else if (hl_lockref_put_or_lock(&e->ref)) {
		return;
	}
	hl_lockref_set_count(&e->ref, hl_lockref_count(&e->ref) - 1);
	hl_qspin_unlock(&e->ref.lock);
}

/* Read the entry's file into out: its buffer taken under the bucket lock. */
static size_t read_file(struct entry *e, char *out)
{
	hl_qspinlock_t *lock = &buckets[e->bucket].lock;
	struct buffer *b;
	size_t n;

	hl_qspin_lock(lock);
	b = e->file;
	hl_refcount_inc(&b->ref);
	hl_qspin_unlock(lock);
	n = strlen(b->data);
	memcpy(out, b->data, n);
	buffer_put(b);
	return n;
}

static void rewrite_file(struct entry *e, unsigned int version)
{
	hl_qspinlock_t *lock = &buckets[e->bucket].lock;
	struct buffer *fresh = buffer_new(version, e->name), *old;

	hl_qspin_lock(lock);
	old = e->file;
	e->file = fresh;
	hl_qspin_unlock(lock);
	buffer_put(old);
}

static unsigned int next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005u + 1442695040888963407u;
	return (unsigned int)(*state >> 33);
}

/*
 * Which name r (31 random bits) looks up: hot_share percent of the time one
 * of the hot names, else any name; each uniformly, from r's high bits (a
 * multiply, not a division by the number of names, so that the choice costs
 * a few cycles at any setting).
 */
static unsigned int pick(unsigned int r)
{
	unsigned int n = r % 100 < cfg.hot_share ? cfg.hot : cfg.names;

	return (unsigned int)((uint64_t)r * n >> 31);
}

/* One lookup: the reference, the file read (one in 4096: rewritten), the put. */
static void one_lookup(struct worker *w, char *out)
{
	unsigned int r = next_random(&w->state);
	unsigned int i = pick(r);
	struct entry *e = lookup(i);

	if (!e)
		return;
	w->found[i]++;
	if (cfg.file) {
		if (r % 4096 == 0)
			rewrite_file(e, r);
		else
			read_file(e, out);
	}
	entry_put(e);
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	char out[FILE_SIZE];

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0) {
			fprintf(stderr, "namecache: --pin: cannot pin a thread to CPU %d\n",
				w->cpu);
			exit(1);
		}
	}
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int k = 0; k < 1000; k++)
			one_lookup(w, out);
		w->ops += 1000;
	}
	return NULL;
}

/* ---- options ------------------------------------------------------------ */

static const char usage_text[] =
	"usage: namecache [--threads N] [--seconds S] [--names N] [--hot N]\n"
	"                 [--hot-share P] [--no-file] [--get OP] [--put OP] [--pin]\n"
	"                 [--delay S] [--counts] [--help]\n";

static const char help_text[] =
	"Threads look names up in a cache of lockref'd entries and read each\n"
	"entry's small refcounted file under its bucket's qspinlock: a workload\n"
	"for hotline-trace (docs/trace.md). Prints its PID first, the operations\n"
	"per second at the end.\n"
	"\n"
	"  --threads N     threads, 1..64 (default 2)\n"
	"  --seconds S     how long they run (default 10)\n"
	"  --names N       names in the cache, 1..256 (default 64)\n"
	"  --hot N         hot names, 1..names (default 4)\n"
	"  --hot-share P   percentage of lookups that go to the hot names,\n"
	"                  0..100 (default 90); the rest go to any name\n"
	"  --no-file       no file read or rewrite: a lookup is the lockref's\n"
	"                  get and put alone\n"
	"  --get OP        the lookup's get: get_not_dead (default) or get\n"
	"                  (hl_lockref_get)\n"
	"  --put OP        the put: put_or_lock (default) or put_return (and\n"
	"                  when it gives up, the count dropped under the lock)\n"
	"  --pin           pin thread i to the i-th CPU the process may use\n"
	"  --delay S       wait S seconds after printing the PID before the\n"
	"                  threads start (for a tracer to attach; default 0)\n"
	"  --counts        at exit, each entry's lookups and lockref operations\n"
	"                  (a get and a put each), and their sums\n"
	"\n"
	"hotline-bench contend's lockref_lib loop: --hot 1 --hot-share 100\n"
	"--no-file --get get --pin. Its lockref_get_not_dead loop: the same with\n"
	"--get get_not_dead --put put_return.\n";

static void __attribute__((noreturn))
bad_value(const char *option, const char *what, const char *value)
{
	fprintf(stderr, "namecache: %s: expected %s, got '%s'\n", option, what, value);
	exit(2);
}

/* A whole number lo..hi, or a one-line error naming the option. */
static unsigned int parse_uint(const char *option, const char *value, unsigned int lo,
			       unsigned int hi, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(value, &end, 10);
	if (errno || end == value || *end || value[0] == '-' || v < lo || v > hi)
		bad_value(option, what, value);
	return (unsigned int)v;
}

/* One of two names: 0 for the first, 1 for the second, or a one-line error. */
static int parse_either(const char *option, const char *value, const char *first,
			const char *second)
{
	char what[64];

	if (strcmp(value, first) == 0)
		return 0;
	if (strcmp(value, second) == 0)
		return 1;
	snprintf(what, sizeof(what), "%s or %s", first, second);
	bad_value(option, what, value);
}

/* Seconds: a finite number, above 0 (or at least 0 when zero_ok). */
static double parse_seconds(const char *option, const char *value, bool zero_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v) || v < 0 || (v == 0 && !zero_ok) ||
	    v > 1e6)
		bad_value(option, zero_ok ? "seconds, 0 or more" : "seconds, more than 0", value);
	return v;
}

enum {
	OPT_THREADS = 256,
	OPT_SECONDS,
	OPT_NAMES,
	OPT_HOT,
	OPT_HOT_SHARE,
	OPT_NO_FILE,
	OPT_GET,
	OPT_PUT,
	OPT_PIN,
	OPT_DELAY,
	OPT_COUNTS,
	OPT_HELP
};

static const struct option options[] = {
	{"threads", required_argument, NULL, OPT_THREADS},
	{"seconds", required_argument, NULL, OPT_SECONDS},
	{"names", required_argument, NULL, OPT_NAMES},
	{"hot", required_argument, NULL, OPT_HOT},
	{"hot-share", required_argument, NULL, OPT_HOT_SHARE},
	{"no-file", no_argument, NULL, OPT_NO_FILE},
	{"get", required_argument, NULL, OPT_GET},
	{"put", required_argument, NULL, OPT_PUT},
	{"pin", no_argument, NULL, OPT_PIN},
	{"delay", required_argument, NULL, OPT_DELAY},
	{"counts", no_argument, NULL, OPT_COUNTS},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

/* The option getopt_long stopped at: the argv element, for the message. */
static void __attribute__((noreturn)) bad_option(int c, int argc, char **argv)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "?";

	if (c == ':')
		fprintf(stderr, "namecache: %s needs a value\n", arg);
	else
		fprintf(stderr, "namecache: unknown option '%s' (--help lists them)\n", arg);
	exit(2);
}

static void set_option(int c, const char *v)
{
	switch (c) {
	case OPT_THREADS: cfg.threads = parse_uint("--threads", v, 1, MAX_THREADS, "1..64"); break;
	case OPT_SECONDS: cfg.seconds = parse_seconds("--seconds", v, false); break;
	case OPT_NAMES: cfg.names = parse_uint("--names", v, 1, MAX_NAMES, "1..256"); break;
	case OPT_HOT: cfg.hot = parse_uint("--hot", v, 1, MAX_NAMES, "1..256"); break;
	case OPT_HOT_SHARE:
		cfg.hot_share = parse_uint("--hot-share", v, 0, 100, "a percentage, 0..100");
		break;
	case OPT_NO_FILE: cfg.file = false; break;
	case OPT_GET:
		cfg.get = parse_either("--get", v, "get_not_dead", "get") ? GET : GET_NOT_DEAD;
		break;
	case OPT_PUT:
		cfg.put = parse_either("--put", v, "put_or_lock", "put_return") ? PUT_RETURN
										: PUT_OR_LOCK;
		break;
	case OPT_PIN: cfg.pin = true; break;
	case OPT_DELAY: cfg.delay = parse_seconds("--delay", v, true); break;
	case OPT_COUNTS: cfg.counts = true; break;
	case OPT_HELP:
		fputs(usage_text, stdout);
		fputs(help_text, stdout);
		exit(0);
	}
}

static void parse_options(int argc, char **argv)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
		if (c == ':' || c == '?')
			bad_option(c, argc, argv);
		set_option(c, optarg);
	}
	if (optind < argc) {
		fprintf(stderr, "namecache: unexpected argument '%s'\n", argv[optind]);
		exit(2);
	}
	if (cfg.hot > cfg.names) {
		fprintf(stderr, "namecache: --names %u is fewer than --hot %u (the hot names)\n",
			cfg.names, cfg.hot);
		exit(2);
	}
}

/* ---- running ------------------------------------------------------------ */

/* The i-th CPU the process may run on, for --pin (wrapping round). */
static int nth_cpu(unsigned int i)
{
	cpu_set_t set;
	int n = 0, cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) == 0)
		return -1;
	i %= (unsigned int)CPU_COUNT(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && (unsigned int)n++ == i)
			return cpu;
	return -1;
}

static void sleep_for(double seconds)
{
	struct timespec d;

	d.tv_sec = (time_t)seconds;
	d.tv_nsec = (long)((seconds - (double)d.tv_sec) * 1e9);
	while (nanosleep(&d, &d) != 0 && errno == EINTR)
		;
}

/* --counts: each entry looked up, as hotline-trace names its lockref, and the sums. */
static void print_counts(void)
{
	uint64_t lookups = 0;

	for (unsigned int i = 0; i < cfg.names; i++) {
		uint64_t n = 0;

		for (unsigned int t = 0; t < cfg.threads; t++)
			n += workers[t].found[i];
		if (!n)
			continue;
		printf("namecache: lockref %p (entries+0x%zx): %llu lookups, %llu lockref "
		       "operations\n",
		       (void *)&entries[i].ref, (size_t)((char *)&entries[i] - (char *)entries),
		       (unsigned long long)n, 2 * (unsigned long long)n);
		lookups += n;
	}
	printf("namecache: in all %llu lookups, %llu lockref operations\n",
	       (unsigned long long)lookups, 2 * (unsigned long long)lookups);
}

int main(int argc, char **argv)
{
	uint64_t total = 0;

	parse_options(argc, argv);
	cache_init();
	printf("namecache: pid %ld, %u threads, %u names, %.1f s\n", (long)getpid(), cfg.threads,
	       cfg.names, cfg.seconds);
	fflush(stdout);
	if (cfg.delay > 0)
		sleep_for(cfg.delay);
	for (unsigned int t = 0; t < cfg.threads; t++) {
		workers[t].state = (uint64_t)(uintptr_t)&workers[t];
		workers[t].cpu = cfg.pin ? nth_cpu(t) : -1;
		pthread_create(&workers[t].tid, NULL, worker, &workers[t]);
	}
	sleep_for(cfg.seconds);
	atomic_store(&stop, true);
	for (unsigned int t = 0; t < cfg.threads; t++) {
		pthread_join(workers[t].tid, NULL);
		total += workers[t].ops;
	}
	printf("namecache: %.2f Mops/s (%s)\n", (double)total / cfg.seconds / 1e6,
	       cfg.file ? "lookup + read or rewrite + put" : "lookup + put");
	if (cfg.counts)
		print_counts();
	return 0;
}
