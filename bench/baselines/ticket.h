/* SPDX-License-Identifier: MIT */
/*
 * baselines/ticket.h - a ticket spinlock: the lock qspinlock replaced.
 *
 * Two counters: a thread takes the next ticket (one atomic add) and spins,
 * with cpu_relax, until the owner counter reaches it; unlock hands the lock
 * to the next ticket. Strictly FIFO and simple, but every waiter spins on
 * the same cache line (each hand-off invalidates all of them), and a waiter
 * whose turn comes while it is not running stops everyone behind it until
 * the scheduler runs it again: with more threads than CPUs it collapses.
 * That is what the contend scenario shows it for. It never sleeps.
 *
 * The bench's one addition: a waiter may be given the run's stop flag, and
 * once that is set it yields its CPU between looks instead of spinning
 * (see ticket_lock_relax).
 *
 * Ordering: lock acquire, unlock release.
 */
#ifndef HOTLINE_BENCH_TICKET_H
#define HOTLINE_BENCH_TICKET_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "../arch/arch.h"

struct ticket_lock {
	atomic_uint next;  /* the ticket the next locker takes */
	atomic_uint owner; /* the ticket that holds the lock */
};

/* clang-format off */
#define TICKET_LOCK_INIT { 0, 0 }
/* clang-format on */

/*
 * Spins with insn as its cpu_relax (arch/arch.h): a constant, so it folds away.
 *
 * drain: NULL, or a timed run's stop flag. Once the flag is set, a waiter
 * calls sched_yield() where it would relax. Why: a ticket taken must be
 * served, in order, so when a run stops every thread already in the queue
 * still has to get the lock, and with more threads than CPUs each hand-off
 * waits until the scheduler runs the next ticket's owner among waiters that
 * spin through whole time slices: 64 threads on 2 CPUs took 6-15 s to leave
 * a 0.05 s run, 256 more than a minute. Yielding hands the CPU to that owner
 * at once, and no waiter leaves the queue, so the lock stays what it is for
 * the threads still in it. While the run is live the flag is clear and the
 * wait is the spin above plus one load of a line nothing writes; what a
 * thread does after the stop is not measured (harness.h).
 */
static inline __attribute__((always_inline)) void
ticket_lock_relax(struct ticket_lock *l, enum bench_relax_insn insn, const atomic_bool *drain)
{
	unsigned int me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);

	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me) {
		if (drain && atomic_load_explicit(drain, memory_order_relaxed))
			sched_yield();
		else
			bench_relax_insn(insn);
	}
}

static inline void ticket_lock(struct ticket_lock *l)
{
	ticket_lock_relax(l, BENCH_RELAX_DEFAULT, NULL);
}

/* Only the holder writes owner: a plain increment, published by the release store. */
static inline void ticket_unlock(struct ticket_lock *l)
{
	unsigned int owner = atomic_load_explicit(&l->owner, memory_order_relaxed);

	atomic_store_explicit(&l->owner, owner + 1, memory_order_release);
}

/* Whether anyone holds or waits for the lock (a snapshot). */
static inline bool ticket_is_locked(struct ticket_lock *l)
{
	return atomic_load_explicit(&l->next, memory_order_relaxed) !=
	       atomic_load_explicit(&l->owner, memory_order_relaxed);
}

#endif /* HOTLINE_BENCH_TICKET_H */
