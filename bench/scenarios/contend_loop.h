/* SPDX-License-Identifier: MIT */
/*
 * scenarios/contend_loop.h - contend's shared object, its checks, the
 * operations of the subjects whose atomics matter and of the library's
 * subjects, and the measurement loop, for the files that instantiate the
 * loop: contend.c; contend_noprobes.c, compiled against the bench's copy of
 * the library without its static probes; and on arm64 contend_atomics.c,
 * compiled once more per kind of atomics (exclusives, LSE) so that the same
 * loop and operations run with each. Private to them.
 *
 * Everything here is static inline: each file gets its own copy, compiled
 * with its own flags.
 */
#ifndef HOTLINE_BENCH_CONTEND_LOOP_H
#define HOTLINE_BENCH_CONTEND_LOOP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>

#include "../arch/arch.h"
#include "../baselines/lockref_probe.h"
#include "../baselines/refcount_full.h"
#include "../baselines/ticket.h"
#include "../hist.h"
#include "contend.h"

#define CT_BASE		1  /* the object's own reference: counts start and end here */
#define CT_SAMPLE_EVERY 64 /* one op in this many is timed */

/* ---- the shared object and the per-thread figures ------------------------ */

struct ct_locked_counter_q {
	hl_qspinlock_t lock;
	atomic_int count;
};

struct ct_locked_counter_t {
	struct ticket_lock lock;
	atomic_int count;
};

struct ct_locked_counter_m {
	pthread_mutex_t lock;
	atomic_int count;
};

/*
 * The shared object: one cache line, the same for every subject of a
 * process (contend.c's ct_line), holding the one member the subject
 * measured uses (its CT_USES), which setup initialises. Subjects compared
 * with each other then contend on the same line. Each on a line of its
 * own, the ratios of two subjects moved from process to process by up to
 * 10% (refcount / atomic_faa at 2 threads, 0.90x in one process and 1.02x
 * in the next on the Intel Xeon, family 6 model 0xcf, each process's
 * repetitions within a few percent of its median): where a line lives
 * (which of the L3's slices is its home, on a machine of many cores) sets
 * how fast two cores pass it back and forth, and it differed by subject.
 */
struct ct_object {
	union {
		_Alignas(64) atomic_int atomic;
		hl_refcount_t refcount; /* refcount, refcount_inc_not_zero */
		hl_rcuref_t rcuref;
		struct refcount_full full;
		struct hl_lockref lockref;
		struct ct_locked_counter_q qspin; /* lock and counter share the line */
		struct ct_locked_counter_t ticket;
		struct ct_locked_counter_m mutex;
		atomic_int unlocked;
	};
};

_Static_assert(sizeof(struct ct_object) == 64, "every subject's object fits one line");

/* Which attempt figures a subject's loop gathers (ct_probe_of: from its facts). */
enum ct_probe {
	CT_PROBE_NONE,
	CT_PROBE_CAS,	  /* counted inline by the subject's operations */
	CT_PROBE_LOCKREF, /* counted by the instrumented lockref's hooks, with fallbacks */
};

/* One thread's figures; only that thread writes them while it runs. */
struct ct_thread {
	_Alignas(64) struct bench_attempts attempts;
	struct bench_latency latency;
	uint64_t fallbacks;  /* lockref operations that took the locked path */
	uint64_t violations; /* critical sections that found the counter out of range */
	uint64_t last_refs;  /* puts that found the last reference (never expected) */
	/* The run's stop flag, for the ticket lock's waiters (ticket_op). */
	const atomic_bool *stop;
	unsigned int threads;
	enum ct_probe probe;
};

/* What a case's runs add up to (bench_params.sink): pooled over threads and repetitions. */
struct ct_tally {
	struct bench_attempts attempts;
	struct bench_latency latency; /* ticks */
	uint64_t lockref_ops, fallbacks;
	bool has_attempts, has_fallbacks;
	uint64_t cycles; /* over the runs: converts ticks to ns */
	double elapsed_ns;
};

struct ct_state {
	struct ct_object *obj;		     /* the process's one line (contend.c) */
	const struct bench_subject *subject; /* the one measured: its facts */
	struct ct_thread *thread;	     /* [threads] */
	struct ct_tally *sink;
	unsigned int threads;
	_Alignas(64) atomic_uint finished; /* threads done: the last one checks */
};

_Static_assert(CT_BASE == 1, "hl_lockref_init starts the lockref subjects at 1");

/* ---- checks --------------------------------------------------------------- */

/*
 * Inside a critical section of a get, the counter is CT_BASE plus the
 * threads that are between their get and their put: CT_BASE .. CT_BASE +
 * threads - 1, since this thread is not; inside a put it is one more. A
 * lock that lets two threads in at once loses updates and leaves the range.
 */
static inline int ct_inc_checked(int v, struct ct_thread *t)
{
	if (hl_unlikely((unsigned int)(v - CT_BASE) >= t->threads))
		t->violations++;
	return v + 1;
}

static inline int ct_dec_checked(int v, struct ct_thread *t)
{
	if (hl_unlikely((unsigned int)(v - CT_BASE - 1) >= t->threads))
		t->violations++;
	return v - 1;
}

/* A count after the run: it must be back at CT_BASE. */
static inline bool ct_check_count(const char *what, int count, char *why, size_t n)
{
	if (count == CT_BASE)
		return true;
	snprintf(why, n, "%s is %d after the run, expected %d: updates were lost", what, count,
		 CT_BASE);
	return false;
}

static inline bool ct_check_unlocked(const char *what, bool locked, char *why, size_t n)
{
	if (!locked)
		return true;
	snprintf(why, n, "%s is still taken after the run", what);
	return false;
}

/* What every thread counted on the way: out-of-range counters, lost references. */
static inline bool ct_check_threads(const struct ct_state *st, char *why, size_t n)
{
	uint64_t violations = 0, last_refs = 0;

	for (unsigned int i = 0; i < st->threads; i++) {
		violations += st->thread[i].violations;
		last_refs += st->thread[i].last_refs;
	}
	if (violations) {
		snprintf(
			why, n,
			"mutual exclusion broken: %llu critical sections found the counter outside "
			"%d..%u (two threads inside at once)",
			(unsigned long long)violations, CT_BASE, CT_BASE + st->threads);
		return false;
	}
	if (last_refs) {
		snprintf(
			why, n,
			"a put found the last reference %llu times while the object's own was held",
			(unsigned long long)last_refs);
		return false;
	}
	return true;
}

/* The last thread to finish checks the object: every other thread is done. */
static inline void ct_finish(struct bench_worker *w, struct ct_state *st,
			     bool (*check)(struct ct_object *o, char *why, size_t n))
{
	if (atomic_fetch_add_explicit(&st->finished, 1, memory_order_acq_rel) + 1 != st->threads)
		return;
	if (!ct_check_threads(st, w->why, sizeof(w->why)) ||
	    !check(st->obj, w->why, sizeof(w->why)))
		w->failed = true;
}

/* ---- the subjects' operations ------------------------------------------- */

/* atomic_faa: the floor, one locked add each way. (Not atomic_*: <stdatomic.h>'s names.) */
static inline void faa_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	atomic_fetch_add_explicit(&o->atomic, 1, memory_order_relaxed);
}

static inline void faa_put(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	atomic_fetch_sub_explicit(&o->atomic, 1, memory_order_release);
}

static inline bool faa_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the counter", atomic_load_explicit(&o->atomic, memory_order_relaxed),
			      why, n);
}

/* cas_loop: the kernel's plain loop (load, then cmpxchg until it sticks), attempts counted. */
static inline void cas_add(atomic_int *c, int delta, struct ct_thread *t)
{
	int old = atomic_load_explicit(c, memory_order_relaxed);
	unsigned int attempts = 1;

	while (!atomic_compare_exchange_strong_explicit(c, &old, old + delta, memory_order_relaxed,
							memory_order_relaxed))
		attempts++;
	bench_attempts_add(&t->attempts, attempts);
}

static inline void cas_get(struct ct_object *o, struct ct_thread *t)
{
	cas_add(&o->atomic, 1, t);
}

static inline void cas_put(struct ct_object *o, struct ct_thread *t)
{
	cas_add(&o->atomic, -1, t);
}

/* refcount: hotline's hl_refcount_t; the object's own reference keeps it above 0. */
static inline void refcount_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	hl_refcount_inc(&o->refcount);
}

static inline void refcount_put(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(hl_refcount_dec_and_test(&o->refcount)))
		t->last_refs++;
}

static inline bool refcount_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the refcount", hl_refcount_read(&o->refcount), why, n);
}

/*
 * put_or_lock returned false: it found the last reference, and holds the
 * lock. With the object's own reference held that cannot happen, but if it
 * does the count is dropped under the lock (keeping whatever lock half the
 * waiters left) and the event is reported at the end.
 */
static __attribute__((cold, noinline, unused)) void lockref_drop_locked(struct hl_lockref *l,
									struct ct_thread *t)
{
	hl_lockref_set_count(l, hl_lockref_count(l) - 1);
	hl_qspin_unlock(&l->lock);
	t->last_refs++;
}

/* lockref_*: either copy of hl_lockref (the instrumented one, or the library's). */
static inline void lockref_put(struct ct_object *o, struct ct_thread *t,
			       bool (*put_or_lock)(struct hl_lockref *l))
{
	if (hl_unlikely(!put_or_lock(&o->lockref)))
		lockref_drop_locked(&o->lockref, t);
}

static inline bool lockref_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the lockref's count", hl_lockref_count(&o->lockref), why, n) &&
	       ct_check_unlocked("the lockref's lock", hl_qspin_is_locked(&o->lockref.lock), why,
				 n);
}

/* ---- the library subjects' operations ------------------------------------ */

/*
 * The library's subjects (contend.c), whose operations contend_noprobes.c
 * compiles once more against the copy of the library without its probes.
 */

static inline void lib_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	hl_lockref_get(&o->lockref);
}

static inline void lib_put(struct ct_object *o, struct ct_thread *t)
{
	lockref_put(o, t, hl_lockref_put_or_lock);
}

/* lockref_spinlock_only: lockref with its lockless path switched off. */
static inline void spinlock_only_get(struct ct_object *o, struct ct_thread *t)
{
	hl_qspin_lock(&o->lockref.lock);
	o->lockref.count = ct_inc_checked(o->lockref.count, t);
	hl_qspin_unlock(&o->lockref.lock);
}

static inline void spinlock_only_put(struct ct_object *o, struct ct_thread *t)
{
	hl_qspin_lock(&o->lockref.lock);
	o->lockref.count = ct_dec_checked(o->lockref.count, t);
	hl_qspin_unlock(&o->lockref.lock);
}

/*
 * The lock subjects' counters: a load and a store, not an atomic add, so
 * that only the lock keeps updates from being lost (atomic, so that a
 * broken lock is a wrong count, not undefined behaviour).
 */
static inline void counter_inc(atomic_int *c, struct ct_thread *t)
{
	atomic_store_explicit(c, ct_inc_checked(atomic_load_explicit(c, memory_order_relaxed), t),
			      memory_order_relaxed);
}

static inline void counter_dec(atomic_int *c, struct ct_thread *t)
{
	atomic_store_explicit(c, ct_dec_checked(atomic_load_explicit(c, memory_order_relaxed), t),
			      memory_order_relaxed);
}

/* qspinlock: hotline's lock and a counter in one cache line. */
static inline void qspin_get(struct ct_object *o, struct ct_thread *t)
{
	hl_qspin_lock(&o->qspin.lock);
	counter_inc(&o->qspin.count, t);
	hl_qspin_unlock(&o->qspin.lock);
}

static inline void qspin_put(struct ct_object *o, struct ct_thread *t)
{
	hl_qspin_lock(&o->qspin.lock);
	counter_dec(&o->qspin.count, t);
	hl_qspin_unlock(&o->qspin.lock);
}

static inline bool qspin_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the counter",
			      atomic_load_explicit(&o->qspin.count, memory_order_relaxed), why,
			      n) &&
	       ct_check_unlocked("the qspinlock", hl_qspin_is_locked(&o->qspin.lock), why, n);
}

/*
 * refcount_inc_not_zero: a lookup's get, the library's cmpxchg loop; with the
 * object's own reference held it never finds 0 (if it does, as a lost one).
 */
static inline void inz_get(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(!hl_refcount_inc_not_zero(&o->refcount)))
		t->last_refs++;
}

/*
 * rcuref: the lookup, one fetch-add each way. With the object's own
 * reference held the get never finds it dead and no put is the last: either
 * is counted as a lost reference and fails the run.
 */
static inline void rcuref_get(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(!hl_rcuref_get(&o->rcuref)))
		t->last_refs++;
}

static inline void rcuref_put(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(hl_rcuref_put(&o->rcuref)))
		t->last_refs++;
}

static inline bool rcuref_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the rcuref", (int)hl_rcuref_read(&o->rcuref), why, n);
}

/*
 * lockref_get_not_dead: the library's lookup (the dcache's), and its put as
 * the kernel's dput does it: hl_lockref_put_return, and when that gives up
 * (the lock seen taken, or the retry limit spent) the count dropped under
 * the lock. A get that finds it dead, or a put that finds the last
 * reference, is a lost one.
 */
static inline void gnd_get(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(!hl_lockref_get_not_dead(&o->lockref)))
		t->last_refs++;
}

static inline void gnd_put(struct ct_object *o, struct ct_thread *t)
{
	struct hl_lockref *l = &o->lockref;
	int count;

	if (hl_likely(hl_lockref_put_return(l) >= 0))
		return;
	hl_qspin_lock(&l->lock);
	count = hl_lockref_count(l);
	if (hl_unlikely(count <= 1))
		t->last_refs++;
	hl_lockref_set_count(l, count - 1);
	hl_qspin_unlock(&l->lock);
}

/* ---- what the subject's facts ask of the loop ---------------------------- */

/*
 * A subject that counts its attempts: a lockref counts them with the
 * instrumented copy's hooks (and its fallbacks), a compare-and-swap loop in
 * its own operations.
 */
static inline enum ct_probe ct_probe_of(const struct subject_facts *f)
{
	if (!f->counts_attempts)
		return CT_PROBE_NONE;
	return f->kind == SUBJECT_LOCKREF ? CT_PROBE_LOCKREF : CT_PROBE_CAS;
}

/* The instrumented lockref's cpu_relax policy (lockref_probe.h). */
static inline enum lockref_relax ct_relax_of(const struct subject_facts *f)
{
	switch (f->relax) {
	case SUBJECT_RELAX_EVERY: return LOCKREF_RELAX_EVERY;
	case SUBJECT_RELAX_EVERY_OTHER: return LOCKREF_RELAX_EVERY_OTHER;
	default: return LOCKREF_RELAX_NONE;
	}
}

/* What "cpu_relax" is for the instrumented lockref: the variant's instruction. */
static inline enum bench_relax_insn ct_insn_of(const struct subject_facts *f)
{
	switch (f->variant) {
	case SUBJECT_VARIANT_ISB: return BENCH_RELAX_ISB;
	case SUBJECT_VARIANT_NO_INSN: return BENCH_RELAX_NOTHING;
	default: return BENCH_RELAX_DEFAULT;
	}
}

/* ---- the measurement loop, once ----------------------------------------- */

/*
 * The attempt figures it gathers, and the instrumented lockref's cpu_relax
 * policy and instruction, come from the subject's facts (read before and
 * after the loop, not in it).
 */
static bench_always_inline void ct_loop(struct bench_worker *w,
					void (*get)(struct ct_object *, struct ct_thread *),
					void (*put)(struct ct_object *, struct ct_thread *),
					bool (*check)(struct ct_object *, char *, size_t))
{
	struct ct_state *st = w->state;
	struct ct_object *o = st->obj;
	struct ct_thread *t = &st->thread[w->index];
	const struct subject_facts *f = &st->subject->facts;
	const enum ct_probe probe = ct_probe_of(f);
	uint64_t n = 0;
	bool stop;

	t->probe = probe;
	t->threads = st->threads;
	t->stop = w->stop;
	if (probe == CT_PROBE_LOCKREF)
		lockref_probe_begin(ct_relax_of(f), ct_insn_of(f));
	/*
	 * One look at the stop flag per op, after it: an op that ends after the
	 * stop is neither counted nor timed (harness.h), and none starts after
	 * it. The first op of each thread is timed, if it ends in time.
	 */
	stop = atomic_load_explicit(w->stop, memory_order_relaxed);
	while (!stop) {
		if (hl_unlikely(n % CT_SAMPLE_EVERY == 0)) {
			uint64_t c0 = bench_cycles(), ticks;

			get(o, t);
			put(o, t);
			ticks = bench_cycles() - c0;
			stop = atomic_load_explicit(w->stop, memory_order_relaxed);
			if (!stop)
				bench_latency_add(&t->latency, ticks);
		} else {
			get(o, t);
			put(o, t);
			stop = atomic_load_explicit(w->stop, memory_order_relaxed);
		}
		n += !stop;
	}

	w->ops = n;
	if (probe == CT_PROBE_LOCKREF) {
		t->attempts = lockref_probe.attempts;
		t->fallbacks = lockref_probe.fallbacks;
	}
	ct_finish(w, st, check);
}

#endif /* HOTLINE_BENCH_CONTEND_LOOP_H */
