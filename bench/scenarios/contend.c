// SPDX-License-Identifier: MIT
/*
 * scenarios/contend.c - one shared object, N threads, each repeating
 * "take a reference, drop it" for a fixed time.
 *
 * This is the open/close pattern of the kernel's lockref threads
 * (docs/sources.md, lockref) reduced to its core: every operation hits the
 * same cache line. Subjects range from a bare atomic add (the floor) over
 * compare-and-swap loops (cas_loop, refcount_full, the lockref variants) to
 * locks around a plain counter (qspinlock, ticket, pthread_mutex, and the
 * lockref with its lockless path switched off). One op is a get plus a put.
 * The lookups are here too: rcuref (get-unless-dead in one fetch-add)
 * beside the cmpxchg lookups it replaces, refcount_inc_not_zero and
 * lockref_get_not_dead.
 *
 * Beside throughput and fairness it reports what explains them:
 *  - attempts per success of every compare-and-swap loop: counted inline
 *    for cas_loop, and by the hooks of the instrumented copy of
 *    src/lockref.c (baselines/lockref_probe.h) for the lockref variants;
 *  - the fallback rate: how many lockref operations took the locked path;
 *  - latency: one op in CT_SAMPLE_EVERY is timed with the cycle counter.
 *
 * Every subject checks itself: counts must come back to where they
 * started, and inside every critical section the lock subjects check that
 * the counter is in the range their lock allows (a broken lock is caught
 * within a few operations). A hidden subject without a lock proves that
 * the check can fail.
 *
 * The loop is written once (ct_loop) and inlined into one small run
 * function per subject, with that subject's operations inlined into it.
 * lockref_sweep.c runs the same loop (contend.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotline/cpu.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>

#include "../questions.h"
#include "contend_loop.h"
#include "scenarios.h"

#define CT_NAME	       "contend"
#define CT_RETRY_LIMIT HL_LOCKREF_RETRIES_DEFAULT

/*
 * The operations of the other subjects (contend_loop.h has those of
 * atomic_faa, cas_loop, refcount and the lockref's put).
 */

/* refcount_full: the pre-2019 cmpxchg refcount, out of line as in refcount-timing. */
static inline void full_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	refcount_full_inc_call(&o->full);
}

static inline void full_put(struct ct_object *o, struct ct_thread *t)
{
	if (hl_unlikely(refcount_full_dec_and_test_call(&o->full)))
		t->last_refs++;
}

static bool full_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the refcount", (int)refcount_full_read(&o->full), why, n);
}

static inline void hlb_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	hlb_lockref_get(&o->lockref);
}

static inline void hlb_put(struct ct_object *o, struct ct_thread *t)
{
	lockref_put(o, t, hlb_lockref_put_or_lock);
}

/*
 * ticket: the spinning FIFO lock qspinlock replaced; its waiters spin with
 * cpu_relax, or on arm64 with ISB or nothing (ticket_isb, ticket_none).
 * After the run's stop they yield instead (ticket.h: the queue drains in
 * bounded time with more threads than CPUs; nothing after the stop counts).
 */
static bench_always_inline void ticket_op(struct ct_object *o, struct ct_thread *t,
					  enum bench_relax_insn insn, bool get)
{
	ticket_lock_relax(&o->ticket.lock, insn, t->stop);
	if (get)
		counter_inc(&o->ticket.count, t);
	else
		counter_dec(&o->ticket.count, t);
	ticket_unlock(&o->ticket.lock);
}

static inline void ticket_get(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_DEFAULT, true);
}

static inline void ticket_put(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_DEFAULT, false);
}

static inline void ticket_get_isb(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_ISB, true);
}

static inline void ticket_put_isb(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_ISB, false);
}

static inline void ticket_get_none(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_NOTHING, true);
}

static inline void ticket_put_none(struct ct_object *o, struct ct_thread *t)
{
	ticket_op(o, t, BENCH_RELAX_NOTHING, false);
}

static bool ticket_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the counter",
			      atomic_load_explicit(&o->ticket.count, memory_order_relaxed), why,
			      n) &&
	       ct_check_unlocked("the ticket lock", ticket_is_locked(&o->ticket.lock), why, n);
}

/* pthread_mutex: glibc's default mutex (spins briefly, then futex). */
static inline void mutex_get(struct ct_object *o, struct ct_thread *t)
{
	pthread_mutex_lock(&o->mutex.lock);
	counter_inc(&o->mutex.count, t);
	pthread_mutex_unlock(&o->mutex.lock);
}

static inline void mutex_put(struct ct_object *o, struct ct_thread *t)
{
	pthread_mutex_lock(&o->mutex.lock);
	counter_dec(&o->mutex.count, t);
	pthread_mutex_unlock(&o->mutex.lock);
}

static bool mutex_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the counter",
			      atomic_load_explicit(&o->mutex.count, memory_order_relaxed), why, n);
}

/* selftest_nolock: the critical sections with no lock at all; must fail its check. */
static inline void nolock_get(struct ct_object *o, struct ct_thread *t)
{
	counter_inc(&o->unlocked, t);
}

static inline void nolock_put(struct ct_object *o, struct ct_thread *t)
{
	counter_dec(&o->unlocked, t);
}

static bool nolock_check(struct ct_object *o, char *why, size_t n)
{
	return ct_check_count("the counter",
			      atomic_load_explicit(&o->unlocked, memory_order_relaxed), why, n);
}

/*
 * One line per subject: the loop (contend_loop.h) with that subject's
 * operations. What the loop counts beside them (attempts, fallbacks) and
 * the instrumented lockref's relax policy come from the subject's facts.
 */
static void run_atomic_faa(struct bench_worker *w)
{
	ct_loop(w, faa_get, faa_put, faa_check);
}

static void run_cas_loop(struct bench_worker *w)
{
	ct_loop(w, cas_get, cas_put, faa_check);
}

static void run_refcount(struct bench_worker *w)
{
	ct_loop(w, refcount_get, refcount_put, refcount_check);
}

static void run_refcount_full(struct bench_worker *w)
{
	ct_loop(w, full_get, full_put, full_check);
}

static void run_refcount_inc_not_zero(struct bench_worker *w)
{
	ct_loop(w, inz_get, refcount_put, refcount_check);
}

static void run_rcuref(struct bench_worker *w)
{
	ct_loop(w, rcuref_get, rcuref_put, rcuref_check);
}

static void run_lockref_get_not_dead(struct bench_worker *w)
{
	ct_loop(w, gnd_get, gnd_put, lockref_check);
}

/* Every instrumented lockref: its relax policy and instruction are facts. */
void contend_run_lockref(struct bench_worker *w)
{
	ct_loop(w, hlb_get, hlb_put, lockref_check);
}

static void run_lockref_spinlock_only(struct bench_worker *w)
{
	ct_loop(w, spinlock_only_get, spinlock_only_put, lockref_check);
}

static void run_qspinlock(struct bench_worker *w)
{
	ct_loop(w, qspin_get, qspin_put, qspin_check);
}

static void run_ticket(struct bench_worker *w)
{
	ct_loop(w, ticket_get, ticket_put, ticket_check);
}

static void run_pthread_mutex(struct bench_worker *w)
{
	ct_loop(w, mutex_get, mutex_put, mutex_check);
}

static void run_lockref_lib(struct bench_worker *w)
{
	ct_loop(w, lib_get, lib_put, lockref_check);
}

static void run_selftest_nolock(struct bench_worker *w)
{
	ct_loop(w, nolock_get, nolock_put, nolock_check);
}

#if BENCH_RELAX_VARIANTS
/* The ticket lock's waiters spin inside the timed loop: their instruction is compiled in. */
static void run_ticket_isb(struct bench_worker *w)
{
	ct_loop(w, ticket_get_isb, ticket_put_isb, ticket_check);
}

static void run_ticket_none(struct bench_worker *w)
{
	ct_loop(w, ticket_get_none, ticket_put_none, ticket_check);
}
#endif

/*
 * The one line every subject of this process contends on (ct_object), in
 * use from a setup to its teardown: one measurement at a time.
 */
static struct ct_object ct_line;
static bool ct_line_busy;

/* The member of the line subject s uses (its table entry's CT_USES); NULL if none. */
static const enum ct_word *ct_word_of(const struct bench_subject *s)
{
	return s ? s->extra : NULL;
}

/* Initialise the line for word: the member at CT_BASE, its lock free. 0 or an errno. */
static int ct_line_init(struct ct_object *o, enum ct_word word)
{
	memset(o, 0, sizeof(*o));
	switch (word) {
	case CT_WORD_ATOMIC: atomic_init(&o->atomic, CT_BASE); break;
	case CT_WORD_REFCOUNT: hl_refcount_set(&o->refcount, CT_BASE); break;
	case CT_WORD_RCUREF: hl_rcuref_init(&o->rcuref, CT_BASE); break;
	case CT_WORD_FULL: refcount_full_set(&o->full, CT_BASE); break;
	case CT_WORD_LOCKREF: hl_lockref_init(&o->lockref); break;
	case CT_WORD_QSPIN:
		atomic_init(&o->qspin.lock.val, 0);
		atomic_init(&o->qspin.count, CT_BASE);
		break;
	case CT_WORD_TICKET:
		atomic_init(&o->ticket.lock.next, 0);
		atomic_init(&o->ticket.lock.owner, 0);
		atomic_init(&o->ticket.count, CT_BASE);
		break;
	case CT_WORD_MUTEX:
		atomic_init(&o->mutex.count, CT_BASE);
		return pthread_mutex_init(&o->mutex.lock, NULL);
	case CT_WORD_UNLOCKED: atomic_init(&o->unlocked, CT_BASE); break;
	}
	return 0;
}

void *contend_setup(const struct bench_params *p)
{
	const enum ct_word *word = ct_word_of(p->subject);
	struct ct_state *st;

	if (!word || ct_line_busy) {
		/* A table entry without CT_USES, or two measurements at once: the bench's bug. */
		bench_error("%s: %s", p->subject ? p->subject->name : "contend",
			    !word ? "no member of the shared line named for this subject (CT_USES)"
				  : "the shared line is in use by another measurement");
		errno = EINVAL;
		return NULL;
	}
	st = aligned_alloc(_Alignof(struct ct_state), sizeof(*st));
	if (!st)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->thread = aligned_alloc(_Alignof(struct ct_thread), p->threads * sizeof(*st->thread));
	if (!st->thread) {
		free(st);
		return NULL;
	}
	memset(st->thread, 0, p->threads * sizeof(*st->thread));
	st->threads = p->threads;
	st->subject = p->subject;
	st->sink = p->sink;
	atomic_init(&st->finished, 0);

	st->obj = &ct_line;
	errno = ct_line_init(st->obj, *word);
	if (errno) {
		free(st->thread);
		free(st);
		return NULL;
	}
	ct_line_busy = true;
	/* The instrumented copy's own limit; the library's stays as it is. */
	hlb_lockref_set_retry_limit(p->retry_limit);
	return st;
}

void contend_teardown(void *state)
{
	struct ct_state *st = state;
	struct ct_tally *k = st->sink;

	for (unsigned int i = 0; k && i < st->threads; i++) {
		const struct ct_thread *t = &st->thread[i];

		bench_latency_merge(&k->latency, &t->latency);
		if (t->probe != CT_PROBE_NONE) {
			k->has_attempts = true;
			bench_attempts_merge(&k->attempts, &t->attempts);
		}
		if (t->probe == CT_PROBE_LOCKREF) {
			k->has_fallbacks = true;
			k->fallbacks += t->fallbacks;
			k->lockref_ops += bench_attempts_count(&t->attempts) + t->fallbacks;
		}
	}
	if (*ct_word_of(st->subject) == CT_WORD_MUTEX)
		pthread_mutex_destroy(&st->obj->mutex.lock);
	ct_line_busy = false;
	free(st->thread);
	free(st);
}

/*
 * The table: each subject once, with its facts (subject_facts.h). The facts
 * of a subject that has variants are a macro, which its variants share.
 */
#define CT_SUBJECT_SETUP(name_, word_, setup_, run_, description_, ...)                            \
	{                                                                                          \
		.name = name_, .description = description_, .setup = setup_, .run = run_,          \
		.teardown = contend_teardown, .facts = {__VA_ARGS__}, CT_USES(word_),              \
	}
#define CT_SUBJECT(name_, word_, run_, description_, ...)                                          \
	CT_SUBJECT_SETUP(name_, word_, contend_setup, run_, description_, __VA_ARGS__)

#define CT_ATOMIC_FAA .kind = SUBJECT_ATOMIC
#define CT_CAS_LOOP   .kind = SUBJECT_CAS_LOOP, .counts_attempts = true, .baseline = "atomic_faa"
#define CT_REFCOUNT   .kind = SUBJECT_ATOMIC, .baseline = "atomic_faa", .library = true
/* The instrumented lockref: attempts and fallbacks counted; limited unless unbounded. */
#define CT_LOCKREF_PROBED    .kind = SUBJECT_LOCKREF, .counts_attempts = true, .baseline = "cas_loop"
#define CT_LOCKREF	     CT_LOCKREF_PROBED, .retry_limit = CT_RETRY_LIMIT, .fallback = true
#define CT_LOCKREF_RELAX     CT_LOCKREF, .relax = SUBJECT_RELAX_EVERY
#define CT_LOCKREF_RELAX_ALT CT_LOCKREF, .relax = SUBJECT_RELAX_EVERY_OTHER
#define CT_LOCK		     .kind = SUBJECT_LOCK
/* The library's subjects, whose facts their _noprobes twins share. */
#define CT_QSPINLOCK CT_LOCK, .library = true
#define CT_LOCKREF_LIB(limit_of_)                                                                  \
	.kind = SUBJECT_LOCKREF, .baseline = "cas_loop", .retry_limit_of = limit_of_,              \
	.fallback = true, .library = true
#define CT_INC_NOT_ZERO .kind = SUBJECT_CAS_LOOP, .baseline = "refcount", .library = true
#define CT_RCUREF	.kind = SUBJECT_ATOMIC, .baseline = "atomic_faa", .library = true
#define CT_GET_NOT_DEAD(limit_of_)                                                                 \
	.kind = SUBJECT_LOCKREF, .baseline = "rcuref", .retry_limit_of = limit_of_,                \
	.fallback = true, .library = true

static const struct bench_subject ct_subjects[] = {
	CT_SUBJECT("atomic_faa", ATOMIC, run_atomic_faa,
		   "C11 atomic_int: relaxed fetch_add, release fetch_sub (the floor)",
		   CT_ATOMIC_FAA),
	CT_SUBJECT("cas_loop", ATOMIC, run_cas_loop,
		   "relaxed compare-and-swap loop +1 / -1, attempts counted", CT_CAS_LOOP),
	CT_SUBJECT("refcount", REFCOUNT, run_refcount,
		   "hl_refcount_inc + hl_refcount_dec_and_test (never reaching 0)", CT_REFCOUNT),
	CT_SUBJECT("refcount_full", FULL, run_refcount_full,
		   "pre-2019 REFCOUNT_FULL cmpxchg refcount, out of line", .kind = SUBJECT_CAS_LOOP,
		   .baseline = "atomic_faa"),
	CT_SUBJECT("lockref", LOCKREF, contend_run_lockref,
		   "hl_lockref get + put_or_lock, retry limit 100 (instrumented copy)", CT_LOCKREF),
	CT_SUBJECT("lockref_unbounded", LOCKREF, contend_run_lockref,
		   "the same with no retry limit (the kernel before 2019)", CT_LOCKREF_PROBED),
	CT_SUBJECT("lockref_relax", LOCKREF, contend_run_lockref,
		   "limit 100, cpu_relax after every failed cmpxchg (2019-2023)", CT_LOCKREF_RELAX),
	CT_SUBJECT("lockref_relax_alt", LOCKREF, contend_run_lockref,
		   "limit 100, cpu_relax after every other failure (Linus)", CT_LOCKREF_RELAX_ALT),
	CT_SUBJECT("lockref_spinlock_only", LOCKREF, run_lockref_spinlock_only,
		   "the lockref's qspinlock around count++ / count--", CT_LOCK),
	CT_SUBJECT("qspinlock", QSPIN, run_qspinlock,
		   "hl_qspinlock_t + int in one line: lock ++ unlock, lock -- unlock",
		   CT_QSPINLOCK),
	CT_SUBJECT("ticket", TICKET, run_ticket,
		   "ticket spinlock (baselines/ticket.h), same critical sections", CT_LOCK),
	CT_SUBJECT("pthread_mutex", MUTEX, run_pthread_mutex,
		   "default pthread_mutex_t, same critical sections", CT_LOCK),
	CT_SUBJECT("lockref_lib", LOCKREF, run_lockref_lib,
		   "the library's own hl_lockref, uninstrumented, its retry limit",
		   CT_LOCKREF_LIB(hl_lockref_retry_limit)),
	CT_SUBJECT("refcount_inc_not_zero", REFCOUNT, run_refcount_inc_not_zero,
		   "hl_refcount_inc_not_zero (cmpxchg loop) + hl_refcount_dec_and_test",
		   CT_INC_NOT_ZERO),
	CT_SUBJECT("rcuref", RCUREF, run_rcuref,
		   "hl_rcuref_get + hl_rcuref_put: get-unless-dead in one fetch-add", CT_RCUREF),
	CT_SUBJECT("lockref_get_not_dead", LOCKREF, run_lockref_get_not_dead,
		   "hl_lockref_get_not_dead + hl_lockref_put_return, else the lock (as dput)",
		   CT_GET_NOT_DEAD(hl_lockref_retry_limit)),
#if BENCH_ATOMICS_VARIANTS
	/* The run-time choice above; each kind forced below (contend_atomics.c). */
	CT_SUBJECT_SETUP("atomic_faa_llsc", ATOMIC, contend_setup_llsc, contend_run_atomic_faa_llsc,
			 "atomic_faa with exclusives (LDXR/STXR), inline", CT_ATOMIC_FAA,
			 .variant_of = "atomic_faa", .variant = SUBJECT_VARIANT_LLSC),
	CT_SUBJECT_SETUP("atomic_faa_lse", ATOMIC, contend_setup_lse, contend_run_atomic_faa_lse,
			 "atomic_faa with LSE (LDADD), inline; where the CPU has LSE",
			 CT_ATOMIC_FAA, .variant_of = "atomic_faa", .variant = SUBJECT_VARIANT_LSE),
	CT_SUBJECT_SETUP("cas_loop_llsc", ATOMIC, contend_setup_llsc, contend_run_cas_loop_llsc,
			 "cas_loop with exclusives (LDXR/STXR), inline", CT_CAS_LOOP,
			 .variant_of = "cas_loop", .variant = SUBJECT_VARIANT_LLSC),
	CT_SUBJECT_SETUP("cas_loop_lse", ATOMIC, contend_setup_lse, contend_run_cas_loop_lse,
			 "cas_loop with LSE (CAS), inline; where the CPU has LSE", CT_CAS_LOOP,
			 .variant_of = "cas_loop", .variant = SUBJECT_VARIANT_LSE),
	CT_SUBJECT_SETUP("refcount_llsc", REFCOUNT, contend_setup_llsc, contend_run_refcount_llsc,
			 "refcount with exclusives (LDXR/STXR), inline", CT_REFCOUNT,
			 .variant_of = "refcount", .variant = SUBJECT_VARIANT_LLSC),
	CT_SUBJECT_SETUP("refcount_lse", REFCOUNT, contend_setup_lse, contend_run_refcount_lse,
			 "refcount with LSE (LDADD), inline; where the CPU has LSE", CT_REFCOUNT,
			 .variant_of = "refcount", .variant = SUBJECT_VARIANT_LSE),
	CT_SUBJECT_SETUP("lockref_llsc", LOCKREF, contend_setup_llsc, contend_run_lockref_llsc,
			 "lockref (limit 100) with exclusives (LDXR/STXR), inline", CT_LOCKREF,
			 .variant_of = "lockref", .variant = SUBJECT_VARIANT_LLSC),
	CT_SUBJECT_SETUP("lockref_lse", LOCKREF, contend_setup_lse, contend_run_lockref_lse,
			 "lockref (limit 100) with LSE (CAS), inline; where the CPU has LSE",
			 CT_LOCKREF, .variant_of = "lockref", .variant = SUBJECT_VARIANT_LSE),
#endif
#if BENCH_RELAX_VARIANTS
	/* The relax subjects with another instruction in place of cpu_relax (arch/arch.h). */
	CT_SUBJECT("lockref_relax_isb", LOCKREF, contend_run_lockref,
		   "lockref_relax with ISB in place of cpu_relax", CT_LOCKREF_RELAX,
		   .variant_of = "lockref_relax", .variant = SUBJECT_VARIANT_ISB),
	CT_SUBJECT("lockref_relax_none", LOCKREF, contend_run_lockref,
		   "lockref_relax with no instruction in place of cpu_relax", CT_LOCKREF_RELAX,
		   .variant_of = "lockref_relax", .variant = SUBJECT_VARIANT_NO_INSN),
	CT_SUBJECT("lockref_relax_alt_isb", LOCKREF, contend_run_lockref,
		   "lockref_relax_alt with ISB in place of cpu_relax", CT_LOCKREF_RELAX_ALT,
		   .variant_of = "lockref_relax_alt", .variant = SUBJECT_VARIANT_ISB),
	CT_SUBJECT("lockref_relax_alt_none", LOCKREF, contend_run_lockref,
		   "lockref_relax_alt with no instruction", CT_LOCKREF_RELAX_ALT,
		   .variant_of = "lockref_relax_alt", .variant = SUBJECT_VARIANT_NO_INSN),
	CT_SUBJECT("ticket_isb", TICKET, run_ticket_isb, "ticket, its waiters spinning with ISB",
		   CT_LOCK, .variant_of = "ticket", .variant = SUBJECT_VARIANT_ISB),
	CT_SUBJECT("ticket_none", TICKET, run_ticket_none,
		   "ticket, its waiters spinning with no instruction", CT_LOCK,
		   .variant_of = "ticket", .variant = SUBJECT_VARIANT_NO_INSN),
#endif
};

/*
 * Run only when named (not in --list): the self-test, which tests/bench
 * runs with 2 threads and expects to fail; and the library's subjects
 * against the bench's copy of the library built without its static probes
 * (contend_noprobes.c), each with the facts of its twin, to be run beside
 * it (bench/README.md, contend).
 */
#define CT_NOPROBES(name_, word_, run_, what_, ...)                                                \
	CT_SUBJECT(name_ "_noprobes", word_, run_, what_ ", built without the static probes",      \
		   __VA_ARGS__)

static const struct bench_subject ct_selftests[] = {
	CT_SUBJECT("selftest_nolock", UNLOCKED, run_selftest_nolock,
		   "the critical sections without a lock: must fail its check", CT_LOCK),
	CT_NOPROBES("refcount", REFCOUNT, contend_run_refcount_noprobes, "refcount", CT_REFCOUNT),
	CT_NOPROBES("lockref_spinlock_only", LOCKREF, contend_run_lockref_spinlock_only_noprobes,
		    "lockref_spinlock_only", CT_LOCK),
	CT_NOPROBES("qspinlock", QSPIN, contend_run_qspinlock_noprobes, "qspinlock", CT_QSPINLOCK),
	CT_NOPROBES("lockref_lib", LOCKREF, contend_run_lockref_lib_noprobes, "lockref_lib",
		    CT_LOCKREF_LIB(contend_noprobes_retry_limit)),
	CT_NOPROBES("refcount_inc_not_zero", REFCOUNT, contend_run_refcount_inc_not_zero_noprobes,
		    "refcount_inc_not_zero", CT_INC_NOT_ZERO),
	CT_NOPROBES("rcuref", RCUREF, contend_run_rcuref_noprobes, "rcuref", CT_RCUREF),
	CT_NOPROBES("lockref_get_not_dead", LOCKREF, contend_run_lockref_get_not_dead_noprobes,
		    "lockref_get_not_dead", CT_GET_NOT_DEAD(contend_noprobes_retry_limit)),
};

#define CT_NR_SUBJECTS	(sizeof(ct_subjects) / sizeof(ct_subjects[0]))
#define CT_NR_SELFTESTS (sizeof(ct_selftests) / sizeof(ct_selftests[0]))

/* ---- the runner (contend and lockref-sweep) ------------------------------- */

struct ct_ctx {
	const char *scenario;
	double timer_ns; /* resolution of the latency figures */
	const struct bench_config *cfg;
	const struct contend_case *cases;
	size_t n;
	unsigned int threads;
	bool most_threads; /* threads is the highest of the run */
	bool again;	   /* threads was run already (--threads 2,2): nothing more to decide */
	double duration;
	unsigned int slices;	     /* of a repetition at this thread count (CONTEND_SLICES) */
	struct bench_series *series; /* [n] */
	struct ct_tally *tally;	     /* [n] */
	struct bench_run *sum;	     /* [n]: the repetition being measured, its slices summed */
	struct bench_machine_sample *start; /* [n]: the machine before its first slice */
};

/* Add slice run r to the repetition sum (threads each; zeroed at its first slice). */
static void ct_sum_add(struct bench_run *sum, const struct bench_run *r)
{
	for (unsigned int t = 0; t < r->threads; t++) {
		sum->ops[t] += r->ops[t];
		sum->cpus[t] = r->cpus[t];
	}
	sum->total_ops += r->total_ops;
	sum->elapsed_ns += r->elapsed_ns;
	sum->cycles += r->cycles;
}

/*
 * Slice slice of case i's repetition: a timed run of duration / slices; the
 * last adds the repetition, its slices summed, to the case's series
 * (bench_series_add_sliced). The tally (attempts, latency) pools every
 * slice as it pools repetitions.
 */
static int ct_measure(void *arg, size_t i, unsigned int rep, unsigned int slice)
{
	struct ct_ctx *ctx = arg;
	const struct bench_subject *s = ctx->cases[i].subject;
	struct bench_params params = {
		.threads = ctx->threads,
		.retry_limit = ctx->cases[i].retry_limit,
		.subject = s,
		.sink = &ctx->tally[i],
	};
	struct bench_run run, *sum = &ctx->sum[i];

	(void)rep;
	if (slice == 0) {
		bench_machine_sample(&ctx->start[i]);
		memset(sum->ops, 0, ctx->threads * sizeof(*sum->ops));
		*sum = (struct bench_run){
			.threads = ctx->threads, .cpus = sum->cpus, .ops = sum->ops};
	}
	if (bench_measure(s, &params, ctx->threads, &ctx->cfg->pin, ctx->duration / ctx->slices,
			  &run))
		return 1;
	if (run.failed) {
		bench_error("%s: %s at %u thread%s: %s", ctx->scenario, s->name, ctx->threads,
			    ctx->threads == 1 ? "" : "s", run.why);
		bench_run_free(&run);
		return 1;
	}
	ct_sum_add(sum, &run);
	if (slice + 1 == ctx->slices)
		bench_series_add_sliced(&ctx->series[i], sum, 0, &ctx->start[i]);
	ctx->tally[i].cycles += run.cycles;
	ctx->tally[i].elapsed_ns += run.elapsed_ns;
	bench_run_free(&run);
	return 0;
}

/*
 * The slices of a repetition at ctx's thread count: CONTEND_SLICES, fewer
 * where a slice would be under CONTEND_MIN_SLICE; one unless each thread
 * has a CPU of its own under --pin (not pinned: no more threads than
 * online CPUs).
 */
static unsigned int ct_slices(const struct ct_ctx *ctx)
{
	int cpus[ctx->threads];
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	bench_place(&ctx->cfg->pin, ctx->threads, cpus);
	for (unsigned int t = 0; t < ctx->threads; t++) {
		for (unsigned int u = 0; u < t; u++) {
			if (cpus[t] >= 0 && cpus[t] == cpus[u])
				return 1;
		}
		if (cpus[t] < 0 && (long)ctx->threads > online)
			return 1;
	}
	return bench_slices_in(ctx->duration, CONTEND_MIN_SLICE, CONTEND_SLICES);
}

/* Figures of one case, pooled over its threads and repetitions. */
struct ct_figures {
	bool attempts, fallback, latency;
	double att_mean, att_p50, att_p99, att_max;
	double fallback_rate;
	double lat_p50, lat_p99, lat_p999, lat_max; /* ns */
};

static void ct_reduce(const struct ct_tally *k, struct ct_figures *f)
{
	uint64_t successes = bench_attempts_count(&k->attempts);
	double ns_per_tick = k->cycles ? k->elapsed_ns / (double)k->cycles : NAN;

	*f = (struct ct_figures){0};
	/* No lockless success at all (every operation fell back): nothing to say. */
	f->attempts = k->has_attempts && successes;
	if (f->attempts) {
		f->att_mean = (double)k->attempts.sum / (double)successes;
		f->att_p50 = bench_attempts_quantile(&k->attempts, 0.5);
		f->att_p99 = bench_attempts_quantile(&k->attempts, 0.99);
		f->att_max = (double)k->attempts.max;
	}
	f->fallback = k->has_fallbacks && k->lockref_ops;
	if (f->fallback)
		f->fallback_rate = (double)k->fallbacks / (double)k->lockref_ops;
	f->latency = k->latency.n && isfinite(ns_per_tick);
	if (f->latency) {
		f->lat_p50 = bench_latency_quantile(&k->latency, 0.5) * ns_per_tick;
		f->lat_p99 = bench_latency_quantile(&k->latency, 0.99) * ns_per_tick;
		f->lat_p999 = bench_latency_quantile(&k->latency, 0.999) * ns_per_tick;
		f->lat_max = (double)k->latency.max * ns_per_tick;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * What timing one op costs and how finely it can tell: the median
 * difference of two back-to-back counter reads, but at least one tick, in
 * ns (the counter's rate measured over 2 ms). On x86 under KVM the TSC
 * often moves in steps of tens of ticks, so latencies near this figure are
 * quantised by it. arm64's CNTVCT_EL0 usually ticks at 24-100 MHz (10-40
 * ns), coarser than an uncontended op: two reads mostly see the same tick,
 * and the resolution is the tick.
 */
static double ct_timer_resolution_ns(void)
{
	uint64_t d[255], t0 = bench_now_ns(), c0 = bench_cycles(), t1, c1, median;

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		uint64_t a = bench_cycles();

		d[i] = bench_cycles() - a;
	}
	while ((t1 = bench_now_ns()) - t0 < 2000000)
		;
	c1 = bench_cycles();
	qsort(d, sizeof(d) / sizeof(d[0]), sizeof(d[0]), cmp_u64);
	median = d[sizeof(d) / sizeof(d[0]) / 2];
	return c1 > c0 ? (double)(median ? median : 1) * (double)(t1 - t0) / (double)(c1 - c0)
		       : NAN;
}

static void ct_print_header(const struct ct_ctx *ctx)
{
	const struct bench_config *cfg = ctx->cfg;

	printf("%s: threads each repeat get+put on one shared object for %.2f s; %u repetition%s, "
	       "interleaved; placement %s\n"
	       "(attempts per lockless success; latency of one op in %d, timer resolution "
	       "%.1f ns)\n",
	       ctx->scenario, ctx->duration, cfg->repeat, cfg->repeat == 1 ? "" : "s",
	       cfg->pin.text, CT_SAMPLE_EVERY, ctx->timer_ns);
	if (bench_until_decided_on())
		printf("(--until-decided: more repetitions where a question cannot tell; "
		       "config.until_decided in the JSON says which)\n");
	printf("%-7s %-22s %5s %8s %8s %6s %5s %7s %5s %6s %8s %8s %8s %9s\n", "threads", "subject",
	       "limit", "Mops/s", "ns/op", "spread", "fair", "att/ok", "p99", "fallbk", "lat p50",
	       "p99", "p99.9", "max ns");
}

static void ct_print_row(const struct ct_ctx *ctx, size_t i, const struct ct_figures *f)
{
	const struct bench_series *s = &ctx->series[i];
	struct bench_stats st;
	char limit[16] = "-", att[16] = "-", p99[16] = "-", fb[16] = "-";
	char l50[16] = "-", l99[16] = "-", l999[16] = "-", lmax[16] = "-";

	bench_stats(s->ops_per_sec, s->n, &st);
	if (ctx->cases[i].retry_limit)
		snprintf(limit, sizeof(limit), "%u", ctx->cases[i].retry_limit);
	if (f->attempts) {
		snprintf(att, sizeof(att), "%.3f", f->att_mean);
		snprintf(p99, sizeof(p99), "%.0f", f->att_p99);
	}
	if (f->fallback)
		snprintf(fb, sizeof(fb), "%.2f%%", 100 * f->fallback_rate);
	if (f->latency) {
		snprintf(l50, sizeof(l50), "%.1f", f->lat_p50);
		snprintf(l99, sizeof(l99), "%.1f", f->lat_p99);
		snprintf(l999, sizeof(l999), "%.0f", f->lat_p999);
		snprintf(lmax, sizeof(lmax), "%.0f", f->lat_max);
	}
	printf("%-7u %-22s %5s %8.2f %8.2f %5.1f%% %5.3f %7s %5s %6s %8s %8s %8s %9s\n",
	       ctx->threads, ctx->cases[i].subject->name, limit, st.median / 1e6,
	       bench_median(s->ns_per_op, s->n), 100 * st.rel_spread,
	       bench_median(s->fairness, s->n), att, p99, fb, l50, l99, l999, lmax);
}

static json_t *ct_result(const struct ct_ctx *ctx, size_t i, const struct ct_figures *f)
{
	json_t *r = bench_result_json(ctx->scenario, ctx->cases[i].subject->name, &ctx->series[i],
				      BENCH_HEADLINE_OPS_PER_SEC, 0, ctx->cases[i].retry_limit);

	json_object_set_new(r, "op", json_string("get+put"));
	json_object_set_new(r, "duration", json_real(ctx->duration));
	json_object_set_new(r, "slices", json_integer(ctx->slices));
	json_object_set_new(r, "attempts_per_success",
			    f->attempts ? json_pack("{s:f, s:I, s:I, s:I}", "mean", f->att_mean,
						    "p50", (json_int_t)f->att_p50, "p99",
						    (json_int_t)f->att_p99, "max",
						    (json_int_t)f->att_max)
					: json_null());
	json_object_set_new(r, "fallback_rate",
			    f->fallback ? json_real(f->fallback_rate) : json_null());
	json_object_set_new(r, "latency_ns",
			    f->latency
				    ? json_pack("{s:f, s:f, s:f, s:f}", "p50", f->lat_p50, "p99",
						f->lat_p99, "p999", f->lat_p999, "max", f->lat_max)
				    : json_null());
	json_object_set_new(r, "latency_samples",
			    json_integer((json_int_t)ctx->tally[i].latency.n));
	json_object_set_new(r, "latency_resolution_ns",
			    isfinite(ctx->timer_ns) ? json_real(ctx->timer_ns) : json_null());
	return r;
}

/*
 * A case as the progress names it: a lockref's retry limit with it
 * ("lockref, retry limit 15"; "lockref_unbounded, no retry limit").
 */
static void ct_case_name(const struct contend_case *c, char *buf, size_t len)
{
	const struct subject_facts *f = &c->subject->facts;

	if (c->retry_limit)
		snprintf(buf, len, "%s, retry limit %u", c->subject->name, c->retry_limit);
	else if (f->kind == SUBJECT_LOCKREF && !f->fallback)
		snprintf(buf, len, "%s, no retry limit", c->subject->name);
	else
		snprintf(buf, len, "%s", c->subject->name);
}

/* One thread count: every case, repetitions interleaved; rows and results. */
static int ct_run_threads(struct ct_ctx *ctx, json_t *results)
{
	const struct bench_subject **subjects = calloc(ctx->n, sizeof(*subjects));
	const char **names = calloc(ctx->n, sizeof(*names));
	char(*name_buf)[64] = calloc(ctx->n, sizeof(*name_buf));
	unsigned int *limits = calloc(ctx->n, sizeof(*limits));
	char label[64];
	int ret = 1;

	ctx->series = calloc(ctx->n, sizeof(*ctx->series));
	ctx->tally = calloc(ctx->n, sizeof(*ctx->tally));
	ctx->sum = calloc(ctx->n, sizeof(*ctx->sum));
	ctx->start = calloc(ctx->n, sizeof(*ctx->start));
	if (!subjects || !names || !name_buf || !limits || !ctx->series || !ctx->tally ||
	    !ctx->sum || !ctx->start) {
		bench_error("out of memory");
		goto out;
	}
	ctx->slices = ct_slices(ctx);
	for (size_t i = 0; i < ctx->n; i++) {
		subjects[i] = ctx->cases[i].subject;
		ct_case_name(&ctx->cases[i], name_buf[i], sizeof(name_buf[i]));
		names[i] = name_buf[i];
		limits[i] = ctx->cases[i].retry_limit;
		if (bench_series_init(&ctx->series[i], bench_reps_cap(ctx->cfg->repeat),
				      ctx->threads))
			goto out;
		ctx->sum[i].cpus = calloc(ctx->threads, sizeof(*ctx->sum[i].cpus));
		ctx->sum[i].ops = calloc(ctx->threads, sizeof(*ctx->sum[i].ops));
		if (!ctx->sum[i].cpus || !ctx->sum[i].ops) {
			bench_error("out of memory");
			goto out;
		}
	}
	snprintf(label, sizeof(label), "%s, %u thread%s", ctx->scenario, ctx->threads,
		 ctx->threads == 1 ? "" : "s");
	if (bench_interleave_rounds(&(struct bench_round_point){label, ctx, ctx->slices}, 1,
				    subjects, names, ctx->n, ctx->cfg->repeat, ct_measure))
		goto out;
	if (!ctx->again && bench_until_decided(&(struct bench_point){
				   .scenario = ctx->scenario,
				   .label = label,
				   .threads = ctx->threads,
				   .most_threads = ctx->most_threads,
				   .n = ctx->n,
				   .subjects = subjects,
				   .retry_limits = limits,
				   .names = names,
				   .series = ctx->series,
				   .measure = ct_measure,
				   .ctx = ctx,
				   .slices = ctx->slices,
			   }))
		goto out;
	for (size_t i = 0; i < ctx->n; i++) {
		struct ct_figures f;

		ct_reduce(&ctx->tally[i], &f);
		ct_print_row(ctx, i, &f);
		json_array_append_new(results, ct_result(ctx, i, &f));
	}
	fflush(stdout);
	ret = 0;
out:
	for (size_t i = 0; ctx->series && i < ctx->n; i++)
		bench_series_free(&ctx->series[i]);
	for (size_t i = 0; ctx->sum && i < ctx->n; i++)
		bench_run_free(&ctx->sum[i]);
	free(ctx->series);
	free(ctx->tally);
	free(ctx->sum);
	free(ctx->start);
	free(subjects);
	free(names);
	free(name_buf);
	free(limits);
	ctx->series = NULL;
	ctx->tally = NULL;
	ctx->sum = NULL;
	ctx->start = NULL;
	return ret;
}

/* Whether a subject needs LSE instructions (contend_atomics.c's _lse copy). */
static bool ct_needs_lse(const struct bench_subject *s)
{
	return s->facts.variant == SUBJECT_VARIANT_LSE;
}

/*
 * The cases this CPU can run, into out: without LSE, the _lse subjects are
 * left out, which a note says unless --quick (or always when --subjects
 * named them). Returns how many.
 */
static size_t ct_runnable_cases(const char *scenario, const struct bench_config *cfg,
				const struct contend_case *cases, size_t n,
				struct contend_case *out)
{
	const struct bench_subject *last = NULL;
	char skipped[256] = "";
	size_t m = 0, len = 0;

	for (size_t i = 0; i < n; i++) {
		const struct bench_subject *s = cases[i].subject;

		if (!ct_needs_lse(s) || hl_cpu()->lse) {
			out[m++] = cases[i];
			continue;
		}
		if (s != last && len < sizeof(skipped))
			len += (size_t)snprintf(skipped + len, sizeof(skipped) - len, "%s%s",
						len ? ", " : "", s->name);
		last = s;
	}
	if (len && (!cfg->quick || cfg->subjects))
		bench_note("%s: %s not run: this CPU has no LSE atomics", scenario, skipped);
	return m;
}

void contend_plan_cases(const struct bench_config *cfg, const struct contend_case *cases,
			size_t nr_cases, size_t nr_default_threads, struct bench_plan *plan)
{
	size_t nr_threads = cfg->threads ? cfg->nr_threads : nr_default_threads, m = 0;
	double duration = cfg->duration ? cfg->duration
			  : cfg->quick	? CONTEND_QUICK_DURATION
					: CONTEND_DURATION;

	for (size_t i = 0; i < nr_cases; i++)
		m += !ct_needs_lse(cases[i].subject) || hl_cpu()->lse;
	plan->items = (unsigned long)(m * nr_threads * cfg->repeat);
	plan->seconds = (double)plan->items * duration;
}

int contend_run_cases(const char *scenario, const struct bench_config *cfg,
		      const struct contend_case *cases, size_t nr_cases,
		      const unsigned int *default_threads, size_t nr_default_threads,
		      json_t *results)
{
	const unsigned int *threads = cfg->threads ? cfg->threads : default_threads;
	size_t nr_threads = cfg->threads ? cfg->nr_threads : nr_default_threads;
	struct contend_case runnable[nr_cases ? nr_cases : 1];
	struct ct_ctx ctx = {
		.scenario = scenario,
		.cfg = cfg,
		.duration = cfg->duration ? cfg->duration
			    : cfg->quick  ? CONTEND_QUICK_DURATION
					  : CONTEND_DURATION,
	};

	nr_cases = ct_runnable_cases(scenario, cfg, cases, nr_cases, runnable);
	if (!nr_cases)
		return 0;
	ctx.cases = runnable;
	ctx.n = nr_cases;
	ctx.timer_ns = ct_timer_resolution_ns();
	ct_print_header(&ctx);
	for (size_t t = 0; t < nr_threads; t++) {
		ctx.threads = threads[t];
		ctx.most_threads = true;
		ctx.again = false;
		for (size_t u = 0; u < nr_threads; u++) {
			ctx.most_threads &= threads[u] <= threads[t];
			ctx.again |= u < t && threads[u] == threads[t];
		}
		if (ct_run_threads(&ctx, results))
			return 1;
	}
	return 0;
}

/* ---- the scenario ------------------------------------------------------- */

static const unsigned int ct_default_threads[] = {1, 2, 4, 8};

#define CT_NR_DEFAULT_THREADS (sizeof(ct_default_threads) / sizeof(ct_default_threads[0]))

static int ct_run(const struct bench_scenario *sc, const struct bench_config *cfg, json_t *results)
{
	const struct bench_subject *subjects[CT_NR_SUBJECTS + CT_NR_SELFTESTS];
	struct contend_case cases[CT_NR_SUBJECTS + CT_NR_SELFTESTS];
	size_t n = bench_select_subjects(sc, cfg, subjects);

	for (size_t i = 0; i < n; i++)
		cases[i] = (struct contend_case){subjects[i],
						 subject_retry_limit(&subjects[i]->facts)};
	return contend_run_cases(CT_NAME, cfg, cases, n, ct_default_threads, CT_NR_DEFAULT_THREADS,
				 results);
}

static void ct_plan(const struct bench_scenario *sc, const struct bench_config *cfg,
		    struct bench_plan *plan)
{
	const struct bench_subject *subjects[CT_NR_SUBJECTS + CT_NR_SELFTESTS];
	struct contend_case cases[CT_NR_SUBJECTS + CT_NR_SELFTESTS];
	size_t n = bench_select_subjects(sc, cfg, subjects);

	for (size_t i = 0; i < n; i++)
		cases[i] = (struct contend_case){subjects[i], 0};
	contend_plan_cases(cfg, cases, n, CT_NR_DEFAULT_THREADS, plan);
}

static const struct bench_scenario bench_contend = {
	.name = CT_NAME,
	.description = "N threads take and drop a reference on one shared object (threads 1,2,4,8)",
	.uses = BENCH_USES_THREADS | BENCH_USES_DURATION,
	.ignores_why = "it runs for a time, not to a count",
	.subjects = ct_subjects,
	.nr_subjects = CT_NR_SUBJECTS,
	.selftests = ct_selftests,
	.nr_selftests = CT_NR_SELFTESTS,
	.run = ct_run,
	.plan = ct_plan,
};

BENCH_SCENARIO(bench_contend, 20);
