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
 * Queue nodes live in slots, one per thread that has ever had to queue and
 * is still alive: four nodes per slot (nesting, as the kernel's per-CPU
 * nodes) in one cache line. Slots are allocated in chunks that are never
 * freed, so a waker may touch a node whose thread has moved on (at worst a
 * spurious futex wake, which waiters tolerate); a slot returns to a free
 * list when its thread exits and is reused by the next thread.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <hotline/qspinlock.h>

#include "arch/arch.h"

#define TAIL_IDX_SHIFT	16
#define TAIL_IDX_MASK	(0x3u << TAIL_IDX_SHIFT)
#define TAIL_SLOT_SHIFT	18
#define MAX_NODES	4			/* nesting levels per thread */
#define MAX_SLOTS	((1u << 14) - 1)	/* tail field holds slot + 1 */
#define CHUNK_SLOTS	256
#define NR_CHUNKS	((MAX_SLOTS + CHUNK_SLOTS - 1) / CHUNK_SLOTS)

/*
 * Spin budgets, in iterations of load + cpu_relax. A queued waiter that has
 * not had its turn after SPIN_QUEUED goes to sleep; a waiter on the lock
 * word yields the CPU every SPIN_WORD iterations. Chosen by measurement
 * with the bench's contend scenario (see docs/qspinlock.md).
 */
#ifndef SPIN_QUEUED
#define SPIN_QUEUED	(1u << 12)
#endif
#ifndef SPIN_WORD
#define SPIN_WORD	(1u << 9)
#endif

/* A queue node's state: also its futex word. */
enum { NODE_WAITING, NODE_GRANTED, NODE_SLEEPING };

struct qnode {
	_Atomic(struct qnode *) next;
	atomic_uint state;
};

struct qslot {
	_Alignas(64) struct qnode node[MAX_NODES];
};

static _Atomic(struct qslot *) chunks[NR_CHUNKS];

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int slots_used;		/* slots ever handed out (high-water mark) */
static unsigned int free_slots[MAX_SLOTS];
static unsigned int nr_free;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static bool key_ok;

static _Thread_local struct qslot *my_slot;
static _Thread_local unsigned int my_slot_nr;
static _Thread_local unsigned int my_nesting;

static struct qslot *slot_addr(unsigned int nr)
{
	struct qslot *chunk = atomic_load_explicit(&chunks[nr / CHUNK_SLOTS], memory_order_acquire);

	return &chunk[nr % CHUNK_SLOTS];
}

/* Thread exit: the slot goes back to the free list. */
static void slot_release(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&slots_lock);
	free_slots[nr_free++] = my_slot_nr;
	pthread_mutex_unlock(&slots_lock);
	my_slot = NULL;
}

static void key_init(void)
{
	key_ok = pthread_key_create(&slot_key, slot_release) == 0;
}

/* This thread's slot, taken on first use; NULL when none can be had. */
static struct qslot *this_slot(void)
{
	struct qslot *chunk;
	unsigned int nr;

	if (hl_likely(my_slot))
		return my_slot;

	pthread_once(&key_once, key_init);
	if (!key_ok)
		return NULL;

	pthread_mutex_lock(&slots_lock);
	if (nr_free) {
		nr = free_slots[--nr_free];
	} else if (slots_used < MAX_SLOTS) {
		nr = slots_used;
		chunk = atomic_load_explicit(&chunks[nr / CHUNK_SLOTS], memory_order_relaxed);
		if (!chunk) {
			chunk = aligned_alloc(_Alignof(struct qslot),
					      CHUNK_SLOTS * sizeof(struct qslot));
			if (!chunk) {
				pthread_mutex_unlock(&slots_lock);
				return NULL;
			}
			for (unsigned int i = 0; i < CHUNK_SLOTS; i++)
				for (unsigned int j = 0; j < MAX_NODES; j++) {
					atomic_init(&chunk[i].node[j].next, NULL);
					atomic_init(&chunk[i].node[j].state, NODE_WAITING);
				}
			atomic_store_explicit(&chunks[nr / CHUNK_SLOTS], chunk,
					      memory_order_release);
		}
		slots_used++;
	} else {
		pthread_mutex_unlock(&slots_lock);
		return NULL;
	}
	pthread_mutex_unlock(&slots_lock);

	if (pthread_setspecific(slot_key, slot_addr(nr)) != 0) {
		pthread_mutex_lock(&slots_lock);
		free_slots[nr_free++] = nr;
		pthread_mutex_unlock(&slots_lock);
		return NULL;
	}
	my_slot_nr = nr;
	my_slot = slot_addr(nr);
	return my_slot;
}

static void futex_wait(atomic_uint *word, unsigned int val)
{
	/* EINTR, EAGAIN and spurious wake-ups all just send the caller round again. */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Wait for the locked byte to clear; returns the word seen clear. */
static unsigned int wait_unlocked(hl_qspinlock_t *l)
{
	unsigned int spins = 0;

	for (;;) {
		unsigned int val = atomic_load_explicit(&l->val, memory_order_relaxed);

		if (!(val & HL_QSPIN_LOCKED_MASK))
			return val;
		if (++spins < SPIN_WORD) {
			hl_arch_relax();
		} else {
			sched_yield();
			spins = 0;
		}
	}
}

/*
 * Wait on the lock word alone, then take the lock, clearing the bits in
 * clear as we do: HL_QSPIN_PENDING for the pending waiter, 0 for a thread
 * that could not have a queue node.
 */
static void lock_on_word(hl_qspinlock_t *l, unsigned int clear)
{
	for (;;) {
		unsigned int val = wait_unlocked(l);

		if (atomic_compare_exchange_weak_explicit(&l->val, &val,
							  (val & ~clear) | HL_QSPIN_LOCKED,
							  memory_order_acquire, memory_order_relaxed))
			return;
	}
}

/* Behind another waiter: spin on our own node, then sleep, until granted. */
static void wait_turn(struct qnode *node)
{
	unsigned int state;

	for (unsigned int spins = 0; spins < SPIN_QUEUED; spins++) {
		if (atomic_load_explicit(&node->state, memory_order_acquire) == NODE_GRANTED)
			return;
		hl_arch_relax();
	}
	state = NODE_WAITING;
	if (!atomic_compare_exchange_strong_explicit(&node->state, &state, NODE_SLEEPING,
						     memory_order_acquire, memory_order_acquire))
		return;		/* granted meanwhile */
	while (atomic_load_explicit(&node->state, memory_order_acquire) != NODE_GRANTED)
		futex_wait(&node->state, NODE_SLEEPING);
}

/* The successor has published itself as tail; wait until it has linked in. */
static struct qnode *wait_next(struct qnode *node)
{
	unsigned int spins = 0;
	struct qnode *next;

	while (!(next = atomic_load_explicit(&node->next, memory_order_acquire))) {
		if (++spins < SPIN_WORD) {
			hl_arch_relax();
		} else {
			sched_yield();	/* it was preempted between the two steps */
			spins = 0;
		}
	}
	return next;
}

static void grant(struct qnode *next)
{
	if (atomic_exchange_explicit(&next->state, NODE_GRANTED, memory_order_release) ==
	    NODE_SLEEPING)
		futex_wake(&next->state);
}

static void lock_queued(hl_qspinlock_t *l)
{
	struct qslot *slot = this_slot();
	struct qnode *node;
	unsigned int idx = my_nesting, tail, val;

	if (!slot || idx >= MAX_NODES) {
		lock_on_word(l, 0);
		return;
	}
	my_nesting++;
	node = &slot->node[idx];
	atomic_store_explicit(&node->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&node->state, NODE_WAITING, memory_order_relaxed);

	tail = ((my_slot_nr + 1) << TAIL_SLOT_SHIFT) | (idx << TAIL_IDX_SHIFT);

	/* Publish the node as the tail (release: its initialisation first). */
	val = atomic_load_explicit(&l->val, memory_order_relaxed);
	while (!atomic_compare_exchange_weak_explicit(&l->val, &val,
						      (val & ~HL_QSPIN_TAIL_MASK) | tail,
						      memory_order_acq_rel, memory_order_relaxed))
		;

	if (val & HL_QSPIN_TAIL_MASK) {
		unsigned int prev_tail = val & HL_QSPIN_TAIL_MASK;
		struct qslot *prev_slot = slot_addr((prev_tail >> TAIL_SLOT_SHIFT) - 1);
		struct qnode *prev = &prev_slot->node[(prev_tail & TAIL_IDX_MASK) >> TAIL_IDX_SHIFT];

		atomic_store_explicit(&prev->next, node, memory_order_release);
		wait_turn(node);
	}

	/* Queue head: take the lock as soon as its locked byte clears. */
	for (;;) {
		unsigned int new;

		val = wait_unlocked(l);
		if ((val & HL_QSPIN_TAIL_MASK) == tail)
			new = (val & ~HL_QSPIN_TAIL_MASK) | HL_QSPIN_LOCKED;	/* last in line */
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
	for (;;) {
		if (!(val & HL_QSPIN_LOCKED_MASK)) {
			if (atomic_compare_exchange_weak_explicit(&l->val, &val,
								  val | HL_QSPIN_LOCKED,
								  memory_order_acquire,
								  memory_order_relaxed))
				return;
			continue;
		}
		if (val != HL_QSPIN_LOCKED)
			break;		/* pending or queued already: join the queue */
		if (atomic_compare_exchange_weak_explicit(&l->val, &val,
							  HL_QSPIN_LOCKED | HL_QSPIN_PENDING,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			lock_on_word(l, HL_QSPIN_PENDING);
			return;
		}
	}
	lock_queued(l);
}
