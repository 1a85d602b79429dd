/* SPDX-License-Identifier: MIT */
/*
 * hotline/lockref.h - a reference count and its lock in one 64-bit word.
 *
 * The Linux kernel's lockref (lib/lockref.c, v6.17), for user space. The
 * word holds an hl_qspinlock_t and a signed 32-bit count side by side, so
 * the common operations (take a reference, drop one that is not the last)
 * are one compare-and-swap of the whole word, done only while the lock
 * half reads unlocked: a holder of the lock sees a count nobody changes.
 *
 * The compare-and-swap loop has no pause in it (on x86 a failed cmpxchg
 * leaves the line with the loser, who usually wins the next try) and gives
 * up after a number of attempts, by default 100: when many threads hammer
 * one word, taking the queued lock is faster than retrying forever (see
 * docs/sources.md, lockref, for the history). The limit is process-wide:
 * hl_lockref_set_retry_limit(), or HOTLINE_LOCKREF_RETRIES in the
 * environment at start-up (decimal digits only, 0..UINT_MAX; any other
 * value is reported in one line on stderr and 100 kept: README.md,
 * Environment); 0 means no limit. An operation that gives up,
 * or sees the lock taken (held, pending or queued: any non-zero lock
 * half), does the same thing under the lock instead.
 *
 * Counts: any int. Negative counts mean dead (HL_LOCKREF_DEAD after
 * hl_lockref_mark_dead); hl_lockref_get() does not check, as in the kernel.
 *
 * Ordering: taking a reference is relaxed; dropping one is release, and
 * the locked paths acquire what they read, so that a thread that finds the
 * last reference under the lock (hl_lockref_put_or_lock() returning false)
 * sees everything the other holders did before their puts. l->lock is a
 * plain hl_qspinlock_t: holding it with hl_qspin_lock() excludes every
 * lockless change of the count; read it then with hl_lockref_count() and
 * change it with hl_lockref_set_count() (a plain access to l->count would
 * race, in C11's terms, with the lockless
 * compare-and-swap that came before the lock was taken).
 *
 * A get at INT_MAX wraps to INT_MIN, which reads as dead, as in the kernel.
 */
#ifndef HOTLINE_LOCKREF_H
#define HOTLINE_LOCKREF_H

#include <stdbool.h>
#include <stdint.h>

#include <hotline/compiler.h>
#include <hotline/qspinlock.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * lock_count: atomic_uint_least64_t in C; see compiler.h for C++, where the
 * anonymous struct (C11, a GNU extension in C++) is hidden from -Wpedantic.
 */
#ifdef __cplusplus
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
struct hl_lockref {
	union {
		HL_ALIGNAS(8) HL_ATOMIC(uint_least64_t) lock_count;
		struct {
			hl_qspinlock_t lock;
			int count;
		};
	};
};
#ifdef __cplusplus
#pragma GCC diagnostic pop
#endif

/* Where count sits in lock_count: the high half on little-endian machines. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HL__LOCKREF_COUNT_SHIFT 0
#else
#define HL__LOCKREF_COUNT_SHIFT 32
#endif

/* Static initialiser: struct hl_lockref r = HL_LOCKREF_INIT(1); (unlocked) */
/* clang-format off */
#ifdef __cplusplus
#define HL_LOCKREF_INIT(n) \
	{ { HL__CAST(uint_least64_t, HL__CAST(unsigned int, n)) << HL__LOCKREF_COUNT_SHIFT } }
#else
#define HL_LOCKREF_INIT(n) \
	{ { .lock_count = (uint_least64_t)(unsigned int)(n) << HL__LOCKREF_COUNT_SHIFT } }
#endif
/* clang-format on */

/* The count hl_lockref_mark_dead() stores. */
#define HL_LOCKREF_DEAD (-128)

/* Default number of compare-and-swap attempts before taking the lock. */
#define HL_LOCKREF_RETRIES_DEFAULT 100u

/* hl_lockref_init - count 1, unlocked. */
HL_API void hl_lockref_init(struct hl_lockref *l);

/* hl_lockref_get - take a reference, whatever the count (even dead). */
HL_API void hl_lockref_get(struct hl_lockref *l);

/*
 * hl_lockref_get_not_zero - take a reference unless the count is <= 0.
 *
 * Returns true after incrementing; false, unchanged, on zero or dead.
 */
HL_API bool hl_lockref_get_not_zero(struct hl_lockref *l);

/*
 * hl_lockref_get_not_dead - take a reference unless the lockref is dead.
 *
 * Returns true after incrementing (also from 0); false, unchanged, when
 * the count is negative.
 */
HL_API bool hl_lockref_get_not_dead(struct hl_lockref *l);

/*
 * hl_lockref_put_return - drop a reference without ever taking the lock.
 *
 * Returns the new count, or -1 with nothing changed when the count is <= 0,
 * when the lock is seen taken, or when the attempts ran out: the caller
 * must then do it the slow way (hl_lockref_put_or_lock, or under l->lock).
 */
HL_API int hl_lockref_put_return(struct hl_lockref *l);

/*
 * hl_lockref_put_or_lock - drop a reference unless it is the last one.
 *
 * Returns true after decrementing when the count was > 1. Returns false
 * WITH l->lock HELD and the count unchanged when it was <= 1: the caller
 * decides (free, mark dead, ...) and then calls hl_qspin_unlock(&l->lock).
 */
HL_API bool hl_lockref_put_or_lock(struct hl_lockref *l);

/* hl_lockref_mark_dead - count = HL_LOCKREF_DEAD. The caller holds l->lock. */
HL_API void hl_lockref_mark_dead(struct hl_lockref *l);

/*
 * hl_lockref_set_count - count = n. The caller holds l->lock.
 *
 * What the kernel's callers do with a plain store under the lock (e.g. drop
 * the reference that hl_lockref_put_or_lock() left them, without freeing):
 * here a compare-and-swap that keeps the lock half, which waiters may be
 * changing, and that C11 and ThreadSanitizer see as atomic.
 */
HL_API void hl_lockref_set_count(struct hl_lockref *l, int n);

/* hl_lockref_is_dead - whether the count is negative (a snapshot). */
HL_API bool hl_lockref_is_dead(const struct hl_lockref *l);

/* hl_lockref_count - the count (a snapshot; exact while l->lock is held). */
HL_API int hl_lockref_count(const struct hl_lockref *l);

/*
 * hl_lockref_set_retry_limit - attempts before the lockless path gives up.
 *
 * Process-wide, for every lockref; 0 means retry for as long as the lock
 * half reads unlocked (the kernel before 2019). Overrides
 * HOTLINE_LOCKREF_RETRIES. Takes effect for operations that start after.
 */
HL_API void hl_lockref_set_retry_limit(unsigned int n);

/* hl_lockref_retry_limit - the limit in force (0 = unbounded). */
HL_API unsigned int hl_lockref_retry_limit(void);

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_LOCKREF_H */
