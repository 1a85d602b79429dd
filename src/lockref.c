/* SPDX-License-Identifier: MIT */
/*
 * lockref.c - hl_lockref: the lockless loop, written once, and the locked
 * paths it falls back to.
 *
 * Every operation is "try it on the whole word with compare-and-swap while
 * the lock half is zero, a bounded number of times; else do it under the
 * lock". LOCKLESS() below is that loop (the kernel's CMPXCHG_LOOP).
 *
 * The bench compiles this same file a second time with
 * HL_LOCKREF_INSTRUMENT defined to a header of its own. That header renames
 * the public functions (so both copies link into one program) and defines
 * the HL_LR_HOOK_* macros, which count attempts per success and fallbacks
 * and can add a cpu_relax policy on failure (the 2019 loop and Linus's
 * unrolled proposal). In the library the hooks are empty: the normal build
 * pays nothing for them.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HL_LOCKREF_INSTRUMENT
#include HL_LOCKREF_INSTRUMENT
#endif

#include <hotline/lockref.h>

#include "env.h"
#include "probes.h"

#ifndef HL_LR_HOOK_SUCCESS
#define HL_LR_HOOK_SUCCESS(tries)	((void)0) /* a lockless CAS succeeded */
#define HL_LR_HOOK_FAILED(tries, limit) ((void)0) /* a CAS failed; another may follow */
#define HL_LR_HOOK_FALLBACK(tries)	((void)0) /* gave up, or found the lock taken */
#endif

/*
 * The word as the loop sees it: a plain 64-bit copy, split with shifts (a
 * union would make GCC keep the copy in memory, a store and a reload on
 * every attempt).
 */
#define COUNT_SHIFT HL__LOCKREF_COUNT_SHIFT
#define LOCK_SHIFT  (32 - HL__LOCKREF_COUNT_SHIFT)

static inline unsigned int word_lock(uint64_t w)
{
	return (unsigned int)(w >> LOCK_SHIFT);
}

static inline int word_count(uint64_t w)
{
	return (int)(unsigned int)(w >> COUNT_SHIFT);
}

static inline uint64_t word_with_count(uint64_t w, int count)
{
	return (w & ~((uint64_t)UINT_MAX << COUNT_SHIFT)) | (uint64_t)(unsigned int)count
								    << COUNT_SHIFT;
}

/*
 * count + d, wrapping like the kernel's (built with -fno-strict-overflow):
 * a get at INT_MAX gives INT_MIN, which reads as dead, rather than
 * undefined behaviour. GCC and Clang convert out-of-range values to int
 * modulo 2^32.
 */
static inline int count_add(int count, int d)
{
	return (int)((unsigned int)count + (unsigned int)d);
}

_Static_assert(sizeof(struct hl_lockref) == 8, "lockref is one 64-bit word");
_Static_assert(offsetof(struct hl_lockref, count) * 8 == 32,
	       "count is the second half of the word in memory");

static atomic_uint retry_limit = HL_LOCKREF_RETRIES_DEFAULT;

/*
 * HOTLINE_LOCKREF_RETRIES: read once, when the library is loaded, so no
 * operation has to check whether it was read. A value that is not a
 * number 0..UINT_MAX as env.h's rule reads numbers (digits only) is
 * reported and the default kept. (The bench's instrumented copy sets its
 * limit per measurement, and leaves the variable to the library.)
 */
#ifndef HL_LOCKREF_INSTRUMENT
__attribute__((constructor)) static void retry_limit_from_env(void)
{
	const char *s = getenv("HOTLINE_LOCKREF_RETRIES");
	unsigned long v;

	if (!s)
		return;
	if (!hl__env_uint(s, UINT_MAX, &v)) {
		hl__env_report("HOTLINE_LOCKREF_RETRIES", s,
			       "not a number of attempts (0..%u, 0 = unbounded); using %u",
			       UINT_MAX, HL_LOCKREF_RETRIES_DEFAULT);
		return;
	}
	atomic_store_explicit(&retry_limit, (unsigned int)v, memory_order_relaxed);
}
#endif

void hl_lockref_set_retry_limit(unsigned int n)
{
	atomic_store_explicit(&retry_limit, n, memory_order_relaxed);
}

unsigned int hl_lockref_retry_limit(void)
{
	return atomic_load_explicit(&retry_limit, memory_order_relaxed);
}

/*
 * LOCKLESS(l, order, CODE, SUCCESS): while the lock half of the word reads
 * 0, let CODE compute new_count from old_count (it may break out to the
 * caller's locked path, or return), then try to swap in the new word with
 * the given success ordering; run SUCCESS (which returns) when that
 * worked. Gives up after the retry limit, falling through to the locked
 * path that follows it in the caller.
 *
 * The first attempt is written out on its own so that its success returns
 * without a probe or a branch more than the loop had: the static probes
 * (probes.h, docs/trace.md) sit where an attempt failed
 * (lockref_cmpxchg_fail), where a later attempt succeeded
 * (lockref_retry_success), where the limit fired (lockref_retry_limit) and
 * where the operation leaves for the locked path because the lock was seen
 * taken or the limit fired (lockref_lock; not when CODE itself chose the
 * lock, as hl_lockref_put_or_lock does for the last reference). ATTEMPT is
 * a plain block, so that a break in it (CODE's, or the limit's) leaves the
 * loop around it.
 */
#define ATTEMPT(l, order, CODE, ON_SUCCESS)                                                        \
	{                                                                                          \
		int old_count = word_count(old_), new_count;                                       \
		CODE tries_++;                                                                     \
		if (atomic_compare_exchange_strong_explicit(&(l)->lock_count, &old_,               \
							    word_with_count(old_, new_count),      \
							    order, memory_order_relaxed)) {        \
			ON_SUCCESS                                                                 \
		}                                                                                  \
		HL_PROBE(lockref_cmpxchg_fail, (l), tries_);                                       \
		HL_LR_HOOK_FAILED(tries_, limit_);                                                 \
		if (limit_ && tries_ >= limit_) {                                                  \
			HL_PROBE(lockref_retry_limit, (l), tries_);                                \
			HL_PROBE(lockref_lock, (l), tries_);                                       \
			break;                                                                     \
		}                                                                                  \
	}

#define LOCKLESS(l, order, CODE, SUCCESS)                                                          \
	do {                                                                                       \
		unsigned int limit_ = atomic_load_explicit(&retry_limit, memory_order_relaxed);    \
		unsigned int tries_ = 0;                                                           \
		uint64_t old_ = atomic_load_explicit(&(l)->lock_count, memory_order_relaxed);      \
		for (;;) {                                                                         \
			if (hl_unlikely(word_lock(old_) != 0)) {                                   \
				HL_PROBE(lockref_lock, (l), 0);                                    \
				break;                                                             \
			}                                                                          \
			ATTEMPT(l, order, CODE, HL_LR_HOOK_SUCCESS(tries_); SUCCESS)               \
			while (word_lock(old_) == 0)                                               \
				ATTEMPT(l, order, CODE,                                            \
					HL_PROBE(lockref_retry_success, (l), tries_);              \
					HL_LR_HOOK_SUCCESS(tries_); SUCCESS)                       \
			if (word_lock(old_) != 0)                                                  \
				HL_PROBE(lockref_lock, (l), tries_);                               \
			break;                                                                     \
		}                                                                                  \
		HL_LR_HOOK_FALLBACK(tries_);                                                       \
	} while (0)

/*
 * The lock half: take_lock() and drop_lock() are hl_qspin_lock() and
 * hl_qspin_unlock() on l->lock. GenMC (make verify) has no mixed-size
 * accesses, and the lock is half of the word the lockless path swaps
 * whole, so under HL_VERIFY the model checker's glue,
 * tests/verify/lockref_lock_verify.h, takes the same lock half with 64-bit
 * accesses of the whole word instead (docs/verification.md says why that
 * checks this file as it ships).
 */
#ifdef HL_VERIFY
#include "lockref_lock_verify.h"
#else
static inline void take_lock(struct hl_lockref *l)
{
	hl_qspin_lock(&l->lock);
}

static inline void drop_lock(struct hl_lockref *l)
{
	hl_qspin_unlock(&l->lock);
}
#endif

/* Under the lock: the count as the lockless path last left it (acquire). */
static int locked_count(struct hl_lockref *l)
{
	return word_count(atomic_load_explicit(&l->lock_count, memory_order_acquire));
}

/*
 * Under the lock: store a new count. Waiters may still change the lock
 * half (queueing), so the store is a compare-and-swap of the whole word
 * that keeps whatever lock half it finds.
 */
static void locked_set_count(struct hl_lockref *l, int count)
{
	uint64_t old = atomic_load_explicit(&l->lock_count, memory_order_relaxed);

	while (!atomic_compare_exchange_weak_explicit(&l->lock_count, &old,
						      word_with_count(old, count),
						      memory_order_relaxed, memory_order_relaxed))
		;
}

void hl_lockref_init(struct hl_lockref *l)
{
	atomic_init(&l->lock_count, word_with_count(0, 1));
}

void hl_lockref_get(struct hl_lockref *l)
{
	LOCKLESS(l, memory_order_relaxed, new_count = count_add(old_count, 1);, return;);

	take_lock(l);
	locked_set_count(l, count_add(locked_count(l), 1));
	drop_lock(l);
}

bool hl_lockref_get_not_zero(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_relaxed, new_count = count_add(old_count, 1);
		 if (old_count <= 0) return false;, return true;);

	take_lock(l);
	count = locked_count(l);
	if (count > 0)
		locked_set_count(l, count_add(count, 1));
	drop_lock(l);
	return count > 0;
}

bool hl_lockref_get_not_dead(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_relaxed, new_count = count_add(old_count, 1);
		 if (old_count < 0) return false;, return true;);

	take_lock(l);
	count = locked_count(l);
	if (count >= 0)
		locked_set_count(l, count_add(count, 1));
	drop_lock(l);
	return count >= 0;
}

int hl_lockref_put_return(struct hl_lockref *l)
{
	LOCKLESS(l, memory_order_release, new_count = count_add(old_count, -1);
		 if (old_count <= 0) return -1;, return new_count;);

	return -1;
}

bool hl_lockref_put_or_lock(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_release, new_count = count_add(old_count, -1);
		 if (old_count <= 1) break;, return true;);

	take_lock(l);
	count = locked_count(l);
	if (count <= 1)
		return false; /* the lock stays held: the caller decides */
	locked_set_count(l, count_add(count, -1));
	drop_lock(l);
	return true;
}

void hl_lockref_mark_dead(struct hl_lockref *l)
{
	locked_set_count(l, HL_LOCKREF_DEAD);
}

void hl_lockref_set_count(struct hl_lockref *l, int n)
{
	locked_set_count(l, n);
}

int hl_lockref_count(const struct hl_lockref *l)
{
	return word_count(
		atomic_load_explicit(&((struct hl_lockref *)l)->lock_count, memory_order_relaxed));
}

bool hl_lockref_is_dead(const struct hl_lockref *l)
{
	return hl_lockref_count(l) < 0;
}
