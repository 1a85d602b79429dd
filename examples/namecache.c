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
 *   namecache [--threads N] [--seconds S] [--names N]
 *
 * Prints its PID first (for hotline-trace -p), the operations per second at
 * the end. Not installed: built in the build tree as examples/namecache.
 */
#define _GNU_SOURCE
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

#define NR_BUCKETS 16
#define MAX_NAMES  256
#define FILE_SIZE  256
#define HOT_NAMES  4 /* nine lookups in ten go to these */

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

static struct entry entries[MAX_NAMES];
static struct bucket buckets[NR_BUCKETS];
static unsigned int nr_names = 64;
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
	for (unsigned int i = 0; i < nr_names; i++) {
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

	return hl_lockref_get_not_dead(&e->ref) ? e : NULL;
}

static void entry_put(struct entry *e)
{
	if (hl_lockref_put_or_lock(&e->ref))
		return;
	/* The cache holds a reference for good: the last one is never ours. */
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

static void *worker(void *arg)
{
	uint64_t *ops = arg, state = (uint64_t)(uintptr_t)arg;
	char out[FILE_SIZE];

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int k = 0; k < 1000; k++) {
			unsigned int r = next_random(&state);
			unsigned int i = r % 10 ? r / 10 % HOT_NAMES : r / 10 % nr_names;
			struct entry *e = lookup(i);

			if (!e)
				continue;
			if (r % 4096 == 0)
				rewrite_file(e, r);
			else
				read_file(e, out);
			entry_put(e);
		}
		*ops += 1000;
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: namecache [--threads N] [--seconds S] [--names N]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int threads = 2;
	double seconds = 10;
	pthread_t tid[64];
	uint64_t ops[64][8] = {{0}}; /* a cache line each */
	uint64_t total = 0;
	struct timespec d;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--threads") == 0)
			threads = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seconds") == 0)
			seconds = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--names") == 0)
			nr_names = (unsigned int)atoi(argv[i + 1]);
		else
			usage();
	}
	if (argc % 2 == 0 || threads < 1 || threads > 64 || seconds <= 0 || nr_names < HOT_NAMES ||
	    nr_names > MAX_NAMES)
		usage();
	cache_init();
	printf("namecache: pid %ld, %u threads, %u names, %.1f s\n", (long)getpid(), threads,
	       nr_names, seconds);
	fflush(stdout);
	for (unsigned int t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, worker, ops[t]);
	d.tv_sec = (time_t)seconds;
	d.tv_nsec = (long)((seconds - (double)d.tv_sec) * 1e9);
	nanosleep(&d, NULL);
	atomic_store(&stop, true);
	for (unsigned int t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		total += ops[t][0];
	}
	printf("namecache: %.2f Mops/s (lookup + read or rewrite + put)\n",
	       (double)total / seconds / 1e6);
	return 0;
}
