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

#ifndef HL_LR_HOOK_SUCCESS
#define HL_LR_HOOK_SUCCESS(tries)	((void)0)	/* a lockless CAS succeeded */
#define HL_LR_HOOK_FAILED(tries)	((void)0)	/* a CAS failed; another may follow */
#define HL_LR_HOOK_FALLBACK(tries)	((void)0)	/* gave up, or found the lock taken */
#endif

/* The word as the loop sees it: a copy, split into its halves. */
union word {
	uint64_t raw;
	struct {
		unsigned int lock;
		int count;
	};
};

_Static_assert(sizeof(struct hl_lockref) == 8, "lockref is one 64-bit word");
_Static_assert(sizeof(union word) == 8, "word view matches");
_Static_assert(offsetof(struct hl_lockref, count) == offsetof(union word, count),
	       "count at the same place in both views");
_Static_assert(offsetof(struct hl_lockref, count) * 8 == HL__LOCKREF_COUNT_SHIFT ||
		       offsetof(struct hl_lockref, count) * 8 == 32 - HL__LOCKREF_COUNT_SHIFT,
	       "HL__LOCKREF_COUNT_SHIFT matches the layout");

static atomic_uint retry_limit = HL_LOCKREF_RETRIES_DEFAULT;

/*
 * HOTLINE_LOCKREF_RETRIES: read once, when the library is loaded, so no
 * operation has to check whether it was read. A bad value is reported and
 * the default kept.
 */
__attribute__((constructor)) static void retry_limit_from_env(void)
{
	const char *s = getenv("HOTLINE_LOCKREF_RETRIES");
	unsigned long v;
	char *end;

	if (!s)
		return;
	v = strtoul(s, &end, 10);
	if (!*s || *end || s[0] == '-' || v > UINT_MAX) {
		fprintf(stderr,
			"hotline: HOTLINE_LOCKREF_RETRIES=%.40s is not a number of attempts "
			"(0..%u, 0 = unbounded); using %u\n",
			s, UINT_MAX, HL_LOCKREF_RETRIES_DEFAULT);
		return;
	}
	atomic_store_explicit(&retry_limit, (unsigned int)v, memory_order_relaxed);
}

void hl_lockref_set_retry_limit(unsigned int n)
{
	atomic_store_explicit(&retry_limit, n, memory_order_relaxed);
}

unsigned int hl_lockref_retry_limit(void)
{
	return atomic_load_explicit(&retry_limit, memory_order_relaxed);
}

/*
 * LOCKLESS(l, order, CODE, SUCCESS): while the lock half of old reads 0,
 * let CODE compute new from old (it may break out to the locked path, or
 * return), then try to swap old for new with the given success ordering;
 * run SUCCESS (which returns) when that worked. Gives up after the retry
 * limit. Falls through to the caller's locked path otherwise.
 */
#define LOCKLESS(l, order, CODE, SUCCESS)                                                        \
	do {                                                                                     \
		unsigned int limit_ = atomic_load_explicit(&retry_limit, memory_order_relaxed);  \
		unsigned int tries_ = 0;                                                         \
		union word old, new;                                                             \
		old.raw = atomic_load_explicit(&(l)->lock_count, memory_order_relaxed);          \
		while (old.lock == 0) {                                                          \
			new = old;                                                               \
			CODE                                                                     \
			tries_++;                                                                \
			if (atomic_compare_exchange_strong_explicit(&(l)->lock_count, &old.raw,  \
								    new.raw, order,              \
								    memory_order_relaxed)) {     \
				HL_LR_HOOK_SUCCESS(tries_);                                      \
				SUCCESS                                                          \
			}                                                                        \
			HL_LR_HOOK_FAILED(tries_);                                               \
			if (limit_ && tries_ >= limit_)                                          \
				break;                                                           \
		}                                                                                \
		HL_LR_HOOK_FALLBACK(tries_);                                                     \
	} while (0)

/* Under the lock: the count as the lockless path last left it (acquire). */
static int locked_count(struct hl_lockref *l)
{
	union word w = { .raw = atomic_load_explicit(&l->lock_count, memory_order_acquire) };

	return w.count;
}

/*
 * Under the lock: store a new count. Waiters may still change the lock
 * half (queueing), so the store is a compare-and-swap of the whole word
 * that keeps whatever lock half it finds.
 */
static void locked_set_count(struct hl_lockref *l, int count)
{
	union word old, new;

	old.raw = atomic_load_explicit(&l->lock_count, memory_order_relaxed);
	do {
		new = old;
		new.count = count;
	} while (!atomic_compare_exchange_weak_explicit(&l->lock_count, &old.raw, new.raw,
							memory_order_relaxed, memory_order_relaxed));
}

void hl_lockref_init(struct hl_lockref *l)
{
	union word w = { .lock = 0, .count = 1 };

	atomic_init(&l->lock_count, w.raw);
}

void hl_lockref_get(struct hl_lockref *l)
{
	LOCKLESS(l, memory_order_relaxed,
		 new.count++;,
		 return;);

	hl_qspin_lock(&l->lock);
	locked_set_count(l, locked_count(l) + 1);
	hl_qspin_unlock(&l->lock);
}

bool hl_lockref_get_not_zero(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_relaxed,
		 new.count++;
		 if (old.count <= 0)
			 return false;,
		 return true;);

	hl_qspin_lock(&l->lock);
	count = locked_count(l);
	if (count > 0)
		locked_set_count(l, count + 1);
	hl_qspin_unlock(&l->lock);
	return count > 0;
}

bool hl_lockref_get_not_dead(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_relaxed,
		 new.count++;
		 if (old.count < 0)
			 return false;,
		 return true;);

	hl_qspin_lock(&l->lock);
	count = locked_count(l);
	if (count >= 0)
		locked_set_count(l, count + 1);
	hl_qspin_unlock(&l->lock);
	return count >= 0;
}

int hl_lockref_put_return(struct hl_lockref *l)
{
	LOCKLESS(l, memory_order_release,
		 new.count--;
		 if (old.count <= 0)
			 return -1;,
		 return new.count;);

	return -1;
}

bool hl_lockref_put_or_lock(struct hl_lockref *l)
{
	int count;

	LOCKLESS(l, memory_order_release,
		 new.count--;
		 if (old.count <= 1)
			 break;,
		 return true;);

	hl_qspin_lock(&l->lock);
	count = locked_count(l);
	if (count <= 1)
		return false;	/* the lock stays held: the caller decides */
	locked_set_count(l, count - 1);
	hl_qspin_unlock(&l->lock);
	return true;
}

void hl_lockref_mark_dead(struct hl_lockref *l)
{
	locked_set_count(l, HL_LOCKREF_DEAD);
}

int hl_lockref_count(const struct hl_lockref *l)
{
	union word w = {
		.raw = atomic_load_explicit(&((struct hl_lockref *)l)->lock_count,
					    memory_order_relaxed)
	};

	return w.count;
}

bool hl_lockref_is_dead(const struct hl_lockref *l)
{
	return hl_lockref_count(l) < 0;
}
