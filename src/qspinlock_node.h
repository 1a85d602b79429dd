/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_node.h - the queue nodes of hl_qspinlock_t, and what the lock's
 * algorithm (qspinlock.c) asks of its OS glue.
 *
 * qspinlock.c is the algorithm: the lock word, the pending bit, the MCS
 * queue and its hand-over, in C11 atomics. Where it needs the system it
 * calls its glue, one header included by qspinlock.c after this one:
 *
 *   qspinlock_os.h (Linux, what ships): per-thread slots of queue nodes
 *     from a table with a pthread key, fork() generations from atfork
 *     handlers, the futex, sched_yield and the CPU's spin hint;
 *   tests/verify/qspinlock_os_verify.h (make verify): the same calls for
 *     the GenMC model checker, whose futex wait may return at once.
 *
 * The glue defines, as static functions and data:
 *
 *   unsigned int fork_gen          this process's fork generation (0: never
 *                                  forked; written only while the process
 *                                  has one thread)
 *   struct qslot *this_slot(unsigned int *nr)
 *                                  the calling thread's slot and its number
 *                                  (below MAX_SLOTS), or NULL if none can be had
 *   struct qslot *slot_addr(unsigned int nr)
 *                                  the slot numbered nr, which some thread took
 *   void futex_wait(atomic_uint *w, unsigned int v)
 *                                  sleep while *w == v; may return at any time
 *   void futex_wake(atomic_uint *w) wake a thread sleeping on w, if any
 *   void yield_cpu(void)           let a preempted thread run
 *   void cpu_relax(void)           the spin-wait hint
 *
 * Internal to the library, as are both glues.
 */
#ifndef HOTLINE_SRC_QSPINLOCK_NODE_H
#define HOTLINE_SRC_QSPINLOCK_NODE_H

#include <stdatomic.h>

#define TAIL_IDX_SHIFT	16
#define TAIL_IDX_MASK	(0x3u << TAIL_IDX_SHIFT)
#define TAIL_SLOT_SHIFT 18
#define MAX_NODES	4		 /* nesting levels per thread */
#define MAX_SLOTS	((1u << 14) - 1) /* tail field holds slot + 1 */

/* A queue node's state: also its futex word. */
enum { NODE_WAITING, NODE_GRANTED, NODE_SLEEPING };

struct qnode {
	_Atomic(struct qnode *) next;
	atomic_uint state;
	atomic_uint gen; /* fork generation it was last queued in */
};

struct qslot {
	_Alignas(64) struct qnode node[MAX_NODES];
};

#endif /* HOTLINE_SRC_QSPINLOCK_NODE_H */
