// SPDX-License-Identifier: MIT
/*
 * dcache.c - a small name cache in kernel style, built on <hotline/linux.h> alone.
 *
 * The code below is written as kernel code is (refcount_t, rcuref_t, struct
 * lockref, spinlock_t, struct kref, struct mutex, clear_user, container_of,
 * likely), with the kernel's names unchanged; it includes <hotline/linux.h> and libc,
 * nothing else of hotline. It is this project's own text, not the kernel's.
 *
 * The cache: dentries (a name, a struct lockref, a pointer to an inode) in a
 * hash table under hash_lock. A lookup takes a reference with
 * lockref_get_not_dead, so an unused dentry (count 0) stays cached and is
 * revived. dput drops a reference with lockref_put_return, or with
 * lockref_put_or_lock; when that declines (the last reference), the dentry
 * is marked dead under its d_lock, unhashed and freed. Inodes are refcount_t
 * counted, in a table under inode_lock: iget takes a reference under the
 * lock, iput frees at refcount_dec_and_lock. One super_block, struct kref,
 * is shared by every thread and released by kref_put_mutex.
 *
 * Threads look names up, take extra references (lockref_get) and drop them;
 * then the main thread shrinks the cache and checks that every dentry and
 * inode was freed exactly once, the counts it expects, and the super_block
 * released once. HOTLINE_TEST_SCALE (a positive integer) divides the
 * iteration count, as in the other tests (under emulation).
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */

#include <hotline/linux.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

#define NR_THREADS 4
#define NR_NAMES   24
#define NR_INODES  6
#define HASH_SIZE  8
#define ITERATIONS 100000

/* ---- inodes: refcount_t, freed at refcount_dec_and_lock ---- */

struct inode {
	refcount_t i_count;
	unsigned long i_ino;
	unsigned int i_id;
};

static DEFINE_SPINLOCK(inode_lock);
static struct inode *inode_table[NR_INODES];

/* Every object gets an id at allocation; freed[id] counts its frees. */
static atomic_uint inodes_allocated, dentries_allocated;
static atomic_uint *inode_freed, *dentry_freed;
static unsigned int max_objects;

static void inode_free(struct inode *inode)
{
	CHECK(inode->i_id < max_objects);
	atomic_fetch_add(&inode_freed[inode->i_id], 1);
	free(inode);
}

static struct inode *iget(unsigned long ino)
{
	struct inode *inode, *new = NULL;

	for (;;) {
		spin_lock(&inode_lock);
		inode = inode_table[ino];
		if (inode) {
			/* In the table, under the lock: the count is at least 1. */
			refcount_inc(&inode->i_count);
		} else if (new) {
			inode_table[ino] = inode = new;
			new = NULL;
		}
		spin_unlock(&inode_lock);
		if (new) /* lost a race to insert: ours was never seen */
			inode_free(new);
		if (inode)
			return inode;
		new = malloc(sizeof(*new));
		CHECK(new);
		*new = (struct inode){.i_count = REFCOUNT_INIT(1), .i_ino = ino};
		new->i_id = atomic_fetch_add(&inodes_allocated, 1);
		CHECK(new->i_id < max_objects);
	}
}

static void iput(struct inode *inode)
{
	if (!refcount_dec_and_lock(&inode->i_count, &inode_lock))
		return;
	/* The last reference, with inode_lock held: nobody can find it now. */
	CHECK(refcount_read(&inode->i_count) == 0);
	CHECK(inode_table[inode->i_ino] == inode);
	inode_table[inode->i_ino] = NULL;
	spin_unlock(&inode_lock);
	inode_free(inode);
}

/* ---- dentries: struct lockref ---- */

struct dentry {
	struct lockref d_lockref;
	struct dentry *d_hash_next;
	struct inode *d_inode;
	unsigned int d_id;
	char d_name[16];
};

#define d_lock d_lockref.lock

static DEFINE_SPINLOCK(hash_lock);
static struct dentry *hash_table[HASH_SIZE];

static unsigned int name_hash(const char *name)
{
	unsigned int h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return h % HASH_SIZE;
}

static void dentry_free(struct dentry *dentry)
{
	CHECK(dentry->d_id < max_objects);
	atomic_fetch_add(&dentry_freed[dentry->d_id], 1);
	iput(dentry->d_inode);
	free(dentry);
}

/* __d_lookup - a live dentry for name, with a reference; hash_lock held. */
static struct dentry *__d_lookup(const char *name)
{
	struct dentry *dentry;

	for (dentry = hash_table[name_hash(name)]; dentry; dentry = dentry->d_hash_next) {
		if (strcmp(dentry->d_name, name) != 0)
			continue;
		if (lockref_get_not_dead(&dentry->d_lockref))
			return dentry; /* also revives an unused one (count 0) */
	}
	return NULL;
}

static void __d_unhash(struct dentry *dentry)
{
	struct dentry **p = &hash_table[name_hash(dentry->d_name)];

	while (*p != dentry) {
		CHECK(*p);
		p = &(*p)->d_hash_next;
	}
	*p = dentry->d_hash_next;
}

static struct dentry *d_lookup(const char *name, unsigned long ino)
{
	struct dentry *dentry, *found;

	spin_lock(&hash_lock);
	dentry = __d_lookup(name);
	spin_unlock(&hash_lock);
	if (dentry)
		return dentry;

	dentry = malloc(sizeof(*dentry));
	CHECK(dentry);
	spin_lock_init(&dentry->d_lock); /* the kernel's fields, written before it is shared */
	dentry->d_lockref.count = 1;
	dentry->d_inode = iget(ino);
	dentry->d_id = atomic_fetch_add(&dentries_allocated, 1);
	snprintf(dentry->d_name, sizeof(dentry->d_name), "%s", name);

	spin_lock(&hash_lock);
	found = __d_lookup(name);
	if (!found) {
		dentry->d_hash_next = hash_table[name_hash(name)];
		hash_table[name_hash(name)] = dentry;
	}
	spin_unlock(&hash_lock);
	if (found) {
		dentry_free(dentry); /* never hashed: nobody else saw it */
		return found;
	}
	return dentry;
}

static struct dentry *dget(struct dentry *dentry)
{
	lockref_get(&dentry->d_lockref);
	return dentry;
}

/* The last reference, d_lock held: mark dead (lookups skip it), unhash, free. */
static void dentry_kill(struct dentry *dentry)
{
	lockref_mark_dead(&dentry->d_lockref);
	CHECK(__lockref_is_dead(&dentry->d_lockref));
	spin_unlock(&dentry->d_lock);

	spin_lock(&hash_lock);
	__d_unhash(dentry);
	spin_unlock(&hash_lock);
	dentry_free(dentry);
}

static atomic_uint kills, slow_puts;

/* dput - drop a reference; the last one stays cached at count 0. */
static void dput(struct dentry *dentry)
{
	if (likely(lockref_put_return(&dentry->d_lockref) >= 0))
		return;
	/* The lock was seen taken, or the retries ran out: the slow way. */
	atomic_fetch_add(&slow_puts, 1);
	if (lockref_put_or_lock(&dentry->d_lockref))
		return;
	atomic_fetch_add(&kills, 1);
	dentry_kill(dentry);
}

/* dput_kill - drop a reference; the last one frees the dentry. */
static void dput_kill(struct dentry *dentry)
{
	if (lockref_put_or_lock(&dentry->d_lockref))
		return;
	atomic_fetch_add(&kills, 1);
	dentry_kill(dentry);
}

/* ---- the super_block: struct kref, released under a struct mutex ---- */

struct super_block {
	struct kref s_kref;
	int s_released;
};

static DEFINE_MUTEX(sb_mutex);
static atomic_int sb_releases;

static void sb_release(struct kref *kref)
{
	struct super_block *sb = container_of(kref, struct super_block, s_kref);

	/* kref_put_mutex calls us with sb_mutex held. */
	CHECK(mutex_trylock(&sb_mutex) == 0);
	sb->s_released = 1;
	atomic_fetch_add(&sb_releases, 1);
	mutex_unlock(&sb_mutex);
}

static struct super_block the_sb;

/* ---- the threads ---- */

static unsigned int iterations;

static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(unsigned long)arg * 2654435761u + 1;
	char name[16];
	unsigned int i;

	kref_get(&the_sb.s_kref);
	for (i = 0; i < iterations; i++) {
		struct dentry *dentry, *extra;
		unsigned int n;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 8) % NR_NAMES;
		snprintf(name, sizeof(name), "name%u", n);
		dentry = d_lookup(name, n % NR_INODES);
		CHECK(strcmp(dentry->d_name, name) == 0);
		CHECK(!__lockref_is_dead(&dentry->d_lockref));
		CHECK(dentry->d_inode->i_ino == n % NR_INODES);
		CHECK(refcount_read(&dentry->d_inode->i_count) >= 1);
		extra = dget(dentry);
		dput(extra);
		if ((seed >> 20) % 8 == 0)
			dput_kill(dentry);
		else
			dput(dentry);
	}
	kref_put_mutex(&the_sb.s_kref, sb_release, &sb_mutex);
	return NULL;
}

/* ---- the rest of the names, single-threaded, with the values the kernel gives ---- */

static void check_refcount_names(void)
{
	refcount_t r = REFCOUNT_INIT(1);
	refcount_t zero = REFCOUNT_INIT(0);
	struct kref k = KREF_INIT(1);
	spinlock_t lock = __SPIN_LOCK_UNLOCKED(lock);
	struct mutex m;
	unsigned long flags;

	refcount_inc(&r);
	refcount_add(3, &r);
	CHECK(refcount_read(&r) == 5);
	CHECK(refcount_inc_not_zero(&r) && refcount_add_not_zero(2, &r));
	CHECK(refcount_inc_not_zero(&r) && refcount_add_not_zero(1, &r));
	CHECK(refcount_read(&r) == 10);
	CHECK(!refcount_inc_not_zero(&zero) && refcount_read(&zero) == 0);
	CHECK(!refcount_sub_and_test(8, &r) && refcount_read(&r) == 2);
	CHECK(!refcount_dec_if_one(&r) && refcount_dec_not_one(&r));
	CHECK(!refcount_dec_not_one(&r) && refcount_read(&r) == 1);
	refcount_inc(&r);
	refcount_dec(&r);
	CHECK(refcount_dec_if_one(&r) && refcount_read(&r) == 0);
	refcount_set(&r, 2);
	refcount_inc(&r);
	CHECK(!refcount_dec_and_test(&r) && !refcount_dec_and_test(&r));
	CHECK(refcount_dec_and_test(&r));

	/* Incrementing a freed object saturates (and is reported) instead of wrapping. */
	fprintf(stderr, "dcache: one saturation report is expected next\n");
	refcount_inc(&zero);
	CHECK(refcount_read(&zero) == (unsigned int)REFCOUNT_SATURATED);
	CHECK(REFCOUNT_MAX == 0x7fffffff);

	refcount_set(&r, 2);
	CHECK(!refcount_dec_and_lock(&r, &lock) && !spin_is_locked(&lock));
	CHECK(refcount_dec_and_lock_irqsave(&r, &lock, &flags) && spin_is_locked(&lock));
	CHECK(flags == 0 && !spin_trylock(&lock));
	spin_unlock_irqrestore(&lock, flags);
	spin_lock_irqsave(&lock, flags);
	spin_unlock(&lock);
	spin_lock_irq(&lock);
	spin_unlock_irq(&lock);
	spin_lock_bh(&lock);
	spin_unlock_bh(&lock);
	CHECK(spin_trylock(&lock) == 1);
	spin_unlock(&lock);

	mutex_init(&m);
	refcount_set(&r, 1);
	CHECK(refcount_dec_and_mutex_lock(&r, &m) && mutex_trylock(&m) == 0);
	mutex_unlock(&m);
	mutex_lock(&m);
	mutex_unlock(&m);
	mutex_destroy(&m);

	kref_get(&k);
	CHECK(kref_read(&k) == 2 && kref_get_unless_zero(&k) && kref_read(&k) == 3);
	CHECK(kref_put(&k, NULL) == 0 && kref_put_lock(&k, NULL, &lock) == 0);
	kref_init(&k);
	CHECK(kref_read(&k) == 1);
}

/* rcuref_t: the kernel's values, biased by one; a put on a dead count is reported. */
static void check_rcuref_names(void)
{
	rcuref_t ref = RCUREF_INIT(2);

	CHECK(rcuref_read(&ref) == 2 && rcuref_get(&ref) && rcuref_read(&ref) == 3);
	CHECK(!rcuref_put(&ref) && !rcuref_put_rcusafe(&ref) && rcuref_read(&ref) == 1);
	CHECK(rcuref_put(&ref) && rcuref_read(&ref) == 0);
	CHECK(!rcuref_get(&ref) && rcuref_read(&ref) == 0);
	rcuref_init(&ref, 1);
	CHECK(rcuref_read(&ref) == 1 && rcuref_put_rcusafe(&ref));
	fprintf(stderr, "dcache: one rcuref report (a put on a dead count) is expected next\n");
	CHECK(!rcuref_put(&ref) && rcuref_read(&ref) == 0);
}

static void check_lockref_names(void)
{
	struct lockref ref;

	lockref_init(&ref);
	CHECK(ref.count == 1 && !spin_is_locked(&ref.lock));
	lockref_get(&ref);
	CHECK(lockref_get_not_zero(&ref) && ref.count == 3);
	CHECK(lockref_put_not_zero(&ref) && ref.count == 2);
	CHECK(lockref_put_return(&ref) == 1);
	CHECK(!lockref_put_not_zero(&ref) && ref.count == 1 && !spin_is_locked(&ref.lock));
	CHECK(lockref_put_return(&ref) == 0);
	CHECK(!lockref_get_not_zero(&ref) && lockref_put_return(&ref) == -1);
	CHECK(lockref_get_not_dead(&ref) && ref.count == 1);
	CHECK(!lockref_put_or_lock(&ref) && spin_is_locked(&ref.lock) && ref.count == 1);
	lockref_mark_dead(&ref);
	spin_unlock(&ref.lock);
	CHECK(__lockref_is_dead(&ref) && ref.count < 0);
	CHECK(!lockref_get_not_dead(&ref) && !lockref_get_not_zero(&ref));
}

/* clear_user returns the bytes it could not clear: here those on an inaccessible page. */
static void check_clear_user(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char __user *ubuf = buf;
	long i;

	CHECK(buf != MAP_FAILED);
	memset(buf, 0xaa, 2 * (size_t)page);
	CHECK(mprotect(buf + page, (size_t)page, PROT_NONE) == 0);
	CHECK(clear_user(ubuf + page - 100, 100) == 0);
	CHECK(__clear_user(ubuf + page - 200, 300) == 100);
	for (i = 0; i < page; i++)
		CHECK(buf[i] == (i < page - 200 ? (char)0xaa : 0));
	CHECK(munmap(buf, 2 * (size_t)page) == 0);
}

int main(void)
{
	const char *scale_env = getenv("HOTLINE_TEST_SCALE");
	unsigned long scale = scale_env ? strtoul(scale_env, NULL, 10) : 1;
	pthread_t threads[NR_THREADS];
	unsigned int i, live = 0, dentries, inodes;

	CHECK(scale >= 1);
	iterations = ITERATIONS / (unsigned int)scale;
	/* A dentry per lookup at most, and an inode per dentry (plus lost races). */
	max_objects = NR_THREADS * iterations * 2 + NR_NAMES + NR_INODES;
	inode_freed = calloc(max_objects, sizeof(*inode_freed));
	dentry_freed = calloc(max_objects, sizeof(*dentry_freed));
	CHECK(inode_freed && dentry_freed);

	check_refcount_names();
	check_rcuref_names();
	check_lockref_names();
	check_clear_user();

	kref_init(&the_sb.s_kref);
	for (i = 0; i < NR_THREADS; i++)
		CHECK(pthread_create(&threads[i], NULL, worker, (void *)(unsigned long)i) == 0);
	for (i = 0; i < NR_THREADS; i++)
		CHECK(pthread_join(threads[i], NULL) == 0);
	CHECK(atomic_load(&sb_releases) == 0 && kref_read(&the_sb.s_kref) == 1);
	CHECK(kref_put_mutex(&the_sb.s_kref, sb_release, &sb_mutex) == 1);
	CHECK(atomic_load(&sb_releases) == 1 && the_sb.s_released);

	/*
	 * Unmount: every reference has been dropped, so every hashed dentry is
	 * unused (count 0; the dead ones were unhashed by whoever killed them).
	 * The threads are joined: plain reads of .count are exact here.
	 */
	for (i = 0; i < HASH_SIZE; i++) {
		struct dentry *dentry;

		while ((dentry = hash_table[i]) != NULL) {
			CHECK(dentry->d_lockref.count == 0);
			spin_lock(&dentry->d_lock);
			dentry_kill(dentry);
			live++;
		}
	}
	for (i = 0; i < NR_INODES; i++)
		CHECK(inode_table[i] == NULL);

	dentries = atomic_load(&dentries_allocated);
	inodes = atomic_load(&inodes_allocated);
	for (i = 0; i < dentries; i++)
		CHECK(atomic_load(&dentry_freed[i]) == 1);
	for (i = 0; i < inodes; i++)
		CHECK(atomic_load(&inode_freed[i]) == 1);
	for (i = dentries; i < max_objects; i++)
		CHECK(atomic_load(&dentry_freed[i]) == 0);
	for (i = inodes; i < max_objects; i++)
		CHECK(atomic_load(&inode_freed[i]) == 0);
	CHECK(live <= NR_NAMES && dentries >= NR_NAMES / 2);
	printf("ok: %u threads x %u lookups: %u dentries (%u killed at a last put, %u at "
	       "unmount) and %u inodes, each freed once; %u puts took the slow way\n",
	       NR_THREADS, iterations, dentries, atomic_load(&kills), live, inodes,
	       atomic_load(&slow_puts));
	free(inode_freed);
	free(dentry_freed);
	return 0;
}
