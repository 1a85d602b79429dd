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
 * Ordering: lock acquire, unlock release.
 */
#ifndef HOTLINE_BENCH_TICKET_H
#define HOTLINE_BENCH_TICKET_H

#include <stdatomic.h>
#include <stdbool.h>

#include "../arch_relax.h"

struct ticket_lock {
	atomic_uint next;	/* the ticket the next locker takes */
	atomic_uint owner;	/* the ticket that holds the lock */
};

#define TICKET_LOCK_INIT { 0, 0 }

/* Spins with insn as its cpu_relax (arch_relax.h): a constant, so it folds away. */
static inline __attribute__((always_inline)) void ticket_lock_relax(struct ticket_lock *l,
								    enum bench_relax_insn insn)
{
	unsigned int me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);

	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		bench_relax_insn(insn);
}

static inline void ticket_lock(struct ticket_lock *l)
{
	ticket_lock_relax(l, BENCH_RELAX_DEFAULT);
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
