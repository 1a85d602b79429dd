/* SPDX-License-Identifier: MIT */
/*
 * qspinlock.c - the contended path of hl_qspinlock_t, and its queue nodes.
 *
 * The fast paths are inline in <hotline/qspinlock.h>; this file is what a
 * thread does when the compare-and-swap from 0 failed. In order:
 *
 *  1. the locked byte is clear: take it (a running thread is never made to
 *     wait for a waiter that may not be running);
 *  2. the lock is held and nobody waits: set pending and spin on the locked
 *     byte (no queue node needed for one waiter);
 *  3. otherwise queue: publish this thread's MCS node as the new tail, link
 *     it behind the old tail, and wait on the node (spin, then futex) until
 *     the previous queue head hands over the turn; as queue head, wait for
 *     the locked byte to clear and take it, clearing the tail if still ours,
 *     else hand the turn to the successor.
 *
 * Waiters on the lock word (pending, queue head) spin a bounded number of
 * times and then sched_yield(), so that a holder preempted by them runs.
 * Waiters behind the head sleep, so that oversubscription costs wake-ups
 * of the few that reach the head, not time slices burnt by all of them.
 *
 * Queue nodes live in per-thread slots, four nodes each (nesting). Where
 * they come from, the futex, yielding and the fork() generation are the OS
 * glue's (qspinlock_os.h; the interface is in qspinlock_node.h), so that
 * this file is the algorithm alone and the model checker checks it as it
 * ships (make verify, docs/verification.md).
 *
 * fork(). The child has one thread, but the lock words it inherits may
 * still name waiters that stayed in the parent: a pending bit, and a tail
 * whose queue nodes nobody in the child will ever hand the turn to. Each
 * child numbers itself one generation past its parent (an atfork handler),
 * and the names a waiter leaves in a word carry the generation it queued
 * in: a queue node records it beside its state, and a pending waiter
 * stamps its low 7 bits into the word's spare bits 9-15. In a child, then:
 *
 *  - a thread that queues behind a node of an older generation does not
 *    link behind it: the queue ahead of it is gone, and it is the head;
 *  - the slow path first clears a pending bit of another generation, and,
 *    when the lock is free, a tail of an older generation (a tail names the
 *    last waiter, so nobody of this generation is queued behind it).
 *
 * The slots of the parent's other threads stay in use in the child (their
 * threads never exit there), so an old tail never names a node a thread of
 * the child reuses. A process that has not forked pays one load and a
 * predicted branch on the slow path; the inline fast paths are unchanged.
 * A stamp is 7 bits, so a pending bit left behind 128 generations earlier
 * could be taken for a live one: that costs the lock its fast path until
 * a thread queues on it, never a hang (a queue head does not wait for the
 * pending waiter).
 */
#include <stdbool.h>

#include <hotline/qspinlock.h>

#include "probes.h"
#include "qspinlock_node.h"
#ifdef HL_VERIFY
#include "qspinlock_os_verify.h" /* tests/verify/: the model checker's glue */
#else
#include "qspinlock_os.h"
#endif

#define PENDING_GEN_SHIFT 9
#define PENDING_GEN_MASK  (0x7fu << PENDING_GEN_SHIFT) /* the pending waiter's generation */
#define PENDING_BITS	  (HL_QSPIN_PENDING | PENDING_GEN_MASK)

/*
 * Spin budgets, in iterations of load + cpu_relax. A queued waiter that has
 * not had its turn after SPIN_QUEUED goes to sleep; a waiter on the lock
 * word yields the CPU every SPIN_WORD iterations. Chosen by measurement
 * with the bench's contend scenario (see docs/qspinlock.md).
 */
#ifndef SPIN_QUEUED
#define SPIN_QUEUED (1u << 12)
#endif
#ifndef SPIN_WORD
#define SPIN_WORD (1u << 9)
#endif

static _Thread_local unsigned int my_nesting;

/* Wait for the locked byte to clear; returns the word seen clear. */
static unsigned int wait_unlocked(hl_qspinlock_t *l)
{
	unsigned int spins = 0;

	for (;;) {
		unsigned int val = atomic_load_explicit(&l->val, memory_order_relaxed);

		if (!(val & HL_QSPIN_LOCKED_MASK))
			return val;
		if (++spins < SPIN_WORD) {
			cpu_relax();
		} else {
			yield_cpu();
			spins = 0;
		}
	}
}

/*
 * Wait on the lock word alone, then take the lock, clearing the bits in
 * clear as we do: PENDING_BITS for the pending waiter, 0 for a thread that
 * could not have a queue node.
 */
static void lock_on_word(hl_qspinlock_t *l, unsigned int clear)
{
	for (;;) {
		unsigned int val = wait_unlocked(l);

		if (atomic_compare_exchange_weak_explicit(
			    &l->val, &val, (val & ~clear) | HL_QSPIN_LOCKED, memory_order_acquire,
			    memory_order_relaxed))
			return;
	}
}

/*
 * Behind another waiter: spin on our own node, then sleep, until granted.
 *
 * The hand-over is relaxed throughout (here, wait_next(), grant() and the
 * link in lock_queued()): it passes the turn, not the lock. A waiter that
 * is granted carries nothing from its granter; as queue head it takes the
 * lock with an acquire compare-and-swap of the word, which synchronises
 * with the holder's unlock. What the granter writes to, the node its
 * successor initialised, is published through the word too: the
 * successor's compare-and-swap that made it the tail is acq_rel, and the
 * granter, as queue head, saw a tail past its own with an acquire
 * compare-and-swap of the word, every write to which since is a
 * read-modify-write (a release sequence). The futex calls are system
 * calls, which order themselves. make verify checks it under RC11 and
 * IMM (docs/verification.md). The kernel's MCS lock uses release and
 * acquire here because its tail exchange is relaxed.
 */
static void wait_turn(struct qnode *node)
{
	unsigned int state;

	for (unsigned int spins = 0; spins < SPIN_QUEUED; spins++) {
		if (atomic_load_explicit(&node->state, memory_order_relaxed) == NODE_GRANTED)
			return;
		cpu_relax();
	}
	state = NODE_WAITING;
	if (!atomic_compare_exchange_strong_explicit(&node->state, &state, NODE_SLEEPING,
						     memory_order_relaxed, memory_order_relaxed))
		return; /* granted meanwhile */
	HL_PROBE(qspin_park, node);
	while (atomic_load_explicit(&node->state, memory_order_relaxed) != NODE_GRANTED)
		futex_wait(&node->state, NODE_SLEEPING);
	HL_PROBE(qspin_wake, node);
}

/* The successor has published itself as tail; wait until it has linked in. */
static struct qnode *wait_next(struct qnode *node)
{
	unsigned int spins = 0;
	struct qnode *next;

	while (!(next = atomic_load_explicit(&node->next, memory_order_relaxed))) {
		if (++spins < SPIN_WORD) {
			cpu_relax();
		} else {
			yield_cpu(); /* it was preempted between the two steps */
			spins = 0;
		}
	}
	return next;
}

static void grant(struct qnode *next)
{
	if (atomic_exchange_explicit(&next->state, NODE_GRANTED, memory_order_relaxed) ==
	    NODE_SLEEPING)
		futex_wake(&next->state);
}

/* The queue node a tail names (val & HL_QSPIN_TAIL_MASK not 0). */
static struct qnode *tail_node(unsigned int val)
{
	struct qslot *slot = slot_addr(((val & HL_QSPIN_TAIL_MASK) >> TAIL_SLOT_SHIFT) - 1);

	return &slot->node[(val & TAIL_IDX_MASK) >> TAIL_IDX_SHIFT];
}

static unsigned int pending_stamp(void)
{
	return HL_QSPIN_PENDING | ((fork_gen << PENDING_GEN_SHIFT) & PENDING_GEN_MASK);
}

/*
 * In a child of fork(): clear what the word says of waiters that stayed in
 * the parent (see the top of this file), and return the word as it is now.
 * The acquire load makes a live tail's node generation visible: its owner
 * stored it before publishing the tail with a release.
 */
static HL_COLD unsigned int forget_the_parent(hl_qspinlock_t *l)
{
	for (;;) {
		unsigned int val = atomic_load_explicit(&l->val, memory_order_acquire);
		unsigned int stale = 0;

		if ((val & HL_QSPIN_PENDING) && (val & PENDING_BITS) != pending_stamp())
			stale |= PENDING_BITS;
		if ((val & HL_QSPIN_TAIL_MASK) && !(val & HL_QSPIN_LOCKED_MASK) &&
		    atomic_load_explicit(&tail_node(val)->gen, memory_order_relaxed) != fork_gen)
			stale |= HL_QSPIN_TAIL_MASK;
		if (!stale)
			return val;
		if (atomic_compare_exchange_weak_explicit(&l->val, &val, val & ~stale,
							  memory_order_relaxed,
							  memory_order_relaxed))
			return val & ~stale;
	}
}

static void lock_queued(hl_qspinlock_t *l)
{
	unsigned int idx = my_nesting, slot_nr, tail, val;
	struct qslot *slot = this_slot(&slot_nr);
	struct qnode *node;

	if (!slot || idx >= MAX_NODES) {
		lock_on_word(l, 0);
		return;
	}
	my_nesting++;
	node = &slot->node[idx];
	atomic_store_explicit(&node->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&node->state, NODE_WAITING, memory_order_relaxed);
	atomic_store_explicit(&node->gen, fork_gen, memory_order_relaxed);

	tail = ((slot_nr + 1) << TAIL_SLOT_SHIFT) | (idx << TAIL_IDX_SHIFT);

	/*
	 * Publish the node as the tail. acq_rel: release, so that its
	 * initialisation comes before the predecessor's grant; acquire, so
	 * that the predecessor's came before our link to it.
	 */
	val = atomic_load_explicit(&l->val, memory_order_relaxed);
	while (!atomic_compare_exchange_weak_explicit(&l->val, &val,
						      (val & ~HL_QSPIN_TAIL_MASK) | tail,
						      memory_order_acq_rel, memory_order_relaxed))
		;
	HL_PROBE(qspin_queue, l, val);

	if (val & HL_QSPIN_TAIL_MASK) {
		struct qnode *prev = tail_node(val);

		/* A predecessor from before a fork() is not in this process: we are the head. */
		if (atomic_load_explicit(&prev->gen, memory_order_relaxed) == fork_gen) {
			atomic_store_explicit(&prev->next, node, memory_order_relaxed);
			wait_turn(node);
		}
	}

	/* Queue head: take the lock as soon as its locked byte clears. */
	for (;;) {
		unsigned int new;

		val = wait_unlocked(l);
		if ((val & HL_QSPIN_TAIL_MASK) == tail)
			new = (val & ~HL_QSPIN_TAIL_MASK) | HL_QSPIN_LOCKED; /* last in line */
		else
			new = val | HL_QSPIN_LOCKED;
		if (atomic_compare_exchange_weak_explicit(&l->val, &val, new, memory_order_acquire,
							  memory_order_relaxed))
			break;
	}
	if ((val & HL_QSPIN_TAIL_MASK) != tail)
		grant(wait_next(node));
	my_nesting--;
}

void hl__qspin_lock_slow(hl_qspinlock_t *l, unsigned int val)
{
	HL_PROBE(qspin_slow, l, val);
	if (hl_unlikely(fork_gen))
		val = forget_the_parent(l);
	for (;;) {
		if (!(val & HL_QSPIN_LOCKED_MASK)) {
			if (atomic_compare_exchange_weak_explicit(
				    &l->val, &val, val | HL_QSPIN_LOCKED, memory_order_acquire,
				    memory_order_relaxed)) {
				HL_PROBE(qspin_acquired, l, 0);
				return;
			}
			continue;
		}
		if (val != HL_QSPIN_LOCKED)
			break; /* pending or queued already: join the queue */
		if (atomic_compare_exchange_weak_explicit(
			    &l->val, &val, HL_QSPIN_LOCKED | pending_stamp(), memory_order_relaxed,
			    memory_order_relaxed)) {
			lock_on_word(l, PENDING_BITS);
			HL_PROBE(qspin_acquired, l, 1);
			return;
		}
	}
	lock_queued(l);
	HL_PROBE(qspin_acquired, l, 2);
}
