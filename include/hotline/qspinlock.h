/* SPDX-License-Identifier: MIT */
/*
 * hotline/qspinlock.h - a 4-byte queued spinlock that survives preemption.
 *
 * The word has the Linux kernel's qspinlock layout:
 *
 *   bits  0-7   locked byte     (1 while held)
 *   bit   8     pending         (one waiter spinning on the locked byte)
 *   bits  9-15  pending's fork generation (low 7 bits; 0 in a process
 *                 that was not forked: see fork() below)
 *   bits 16-17  node index      (which of the tail thread's 4 queue nodes)
 *   bits 18-31  tail thread + 1 (0 = nobody queued)
 *
 * The uncontended lock is one compare-and-swap from 0 and the unlock is a
 * release store of 0 to the locked byte, so both are inline. A first
 * waiter sets pending and spins on the locked byte; later waiters queue on
 * an MCS list, each spinning on its own node, so a hand-off touches one
 * waiter's cache line instead of every waiter's.
 *
 * User space is not the kernel: a holder or a waiter can be preempted, and
 * threads may outnumber CPUs. A lock that hands itself in strict FIFO order
 * to a waiter that is not running stops until the scheduler runs it again
 * (the ticket-lock collapse). So:
 *
 *  - a queued waiter spins for a bounded time, then sleeps on a futex in
 *    its own node, and is woken when the queue hands it the turn;
 *  - the queue orders waiters that have gone to sleep, not the lock: when
 *    the locked byte is clear a running thread may take it, even ahead of
 *    queued waiters (as glibc's mutex and the kernel's lock under a
 *    hypervisor do). A running thread never waits for a sleeping one;
 *  - waiters that spin on the lock word (pending, queue head) yield the
 *    CPU after a bounded spin, so that a preempted holder gets to run.
 *
 * The price is fairness: under contention the lock is not FIFO. The bench's
 * contend scenario reports its Jain fairness index beside its throughput.
 *
 * Any number of threads may use any number of locks over the life of the
 * process. A thread takes queue nodes from a table the first time it has
 * to queue, and gives them back when it exits; at most 16383 threads can be
 * queued at one moment (the tail field), beyond which a thread waits by
 * spinning and yielding instead of queueing. Zeroed memory is an unlocked
 * lock. A thread may hold several locks at once. Like a pthread mutex, the
 * lock is not async-signal-safe: do not take it in a signal handler.
 *
 * fork() behaves as with a pthread mutex: in the child, a lock the forking
 * thread held is still held by it (it unlocks as usual), a lock another
 * thread held stays held for good (trylock fails), and the waiters that
 * stayed in the parent are forgotten: threads of the child queue and take
 * the lock as if those waiters had never been there. That needs fork()
 * through the C library, whose atfork handlers run (not a raw clone system
 * call, nor _Fork()). The lock is private to a process: it does not work
 * in memory shared between processes.
 *
 * Ordering: lock and successful trylock are acquire, unlock is release.
 * The lock is not recursive, and only its holder may unlock it.
 */
#ifndef HOTLINE_QSPINLOCK_H
#define HOTLINE_QSPINLOCK_H

#include <stdbool.h>

#include <hotline/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* val: atomic_uint in C; see compiler.h for C++. Use the functions below. */
typedef struct {
	HL_ATOMIC(unsigned int) val;
} hl_qspinlock_t;

/* Static initialiser: hl_qspinlock_t l = HL_QSPINLOCK_INIT; (zero works too) */
/* clang-format off */
#define HL_QSPINLOCK_INIT { 0 }
/* clang-format on */

#define HL_QSPIN_LOCKED	     0x1u
#define HL_QSPIN_LOCKED_MASK 0xffu
#define HL_QSPIN_PENDING     0x100u
#define HL_QSPIN_TAIL_MASK   0xffff0000u

/* Out of line: the contended path. val is what the fast path saw. */
HL_API void hl__qspin_lock_slow(hl_qspinlock_t *l, unsigned int val);

/*
 * hl_qspin_lock - take the lock, waiting as long as it takes.
 *
 * Returns with the lock held (acquire). A waiter spins, then sleeps; it
 * never returns without the lock.
 */
static inline void hl_qspin_lock(hl_qspinlock_t *l)
{
	unsigned int val = 0;

	if (hl_likely(hl__atomic_cmpxchg_strong(&l->val, &val, HL_QSPIN_LOCKED, acquire, relaxed)))
		return;
	hl__qspin_lock_slow(l, val);
}

/*
 * hl_qspin_trylock - take the lock if nobody holds it.
 *
 * Returns true with the lock held (acquire), false without waiting when
 * another thread holds it. It may succeed while other threads wait for the
 * lock (see the top of this file).
 */
static inline bool hl_qspin_trylock(hl_qspinlock_t *l)
{
	unsigned int val = hl__atomic_load(&l->val, relaxed);

	while (!(val & HL_QSPIN_LOCKED_MASK)) {
		if (hl__atomic_cmpxchg_weak(&l->val, &val, val | HL_QSPIN_LOCKED, acquire, relaxed))
			return true;
	}
	return false;
}

/*
 * hl_qspin_unlock - release the lock (release ordering).
 *
 * A store of 0 to the locked byte: the pending bit and the queue tail, in
 * the other bytes, belong to waiters and are left alone. Only the holder
 * may call it.
 */
static inline void hl_qspin_unlock(hl_qspinlock_t *l)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && !defined(HL_TSAN) && !defined(HL_VERIFY)
	/*
	 * The kernel's byte store. C11 has no way to name one byte of an
	 * atomic_uint; GCC and Clang's __atomic builtins do, and both target
	 * architectures make a byte store single-copy atomic inside the word.
	 */
	unsigned char *locked = HL__PUN(unsigned char *, &l->val);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	locked += sizeof(l->val) - 1;
#endif
	__atomic_store_n(locked, 0, __ATOMIC_RELEASE);
#else
	/* Portable (and what ThreadSanitizer is shown): clear the byte by RMW. */
	hl__atomic_fetch_and(&l->val, ~HL_QSPIN_LOCKED_MASK, release);
#endif
}

/*
 * hl_qspin_is_locked - whether the lock is held or being waited for.
 *
 * True when any part of the word is set (held, pending or queued), as the
 * kernel's queued_spin_is_locked(); a snapshot, for assertions and for
 * lockless readers that must fall back when anyone is at the lock.
 */
static inline bool hl_qspin_is_locked(const hl_qspinlock_t *l)
{
	return hl__atomic_load(&HL__UNCONST(hl_qspinlock_t *, l)->val, relaxed) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_QSPINLOCK_H */
