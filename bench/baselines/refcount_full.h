/* SPDX-License-Identifier: MIT */
/*
 * baselines/refcount_full.h - the compare-and-swap refcount that hl_refcount_t
 * is measured against.
 *
 * This is the behaviour of the kernel's refcount_t before 2019 with
 * CONFIG_REFCOUNT_FULL: an unsigned 32-bit count that saturates at
 * UINT_MAX, where every operation is a compare-and-swap loop so that it
 * can check the value *before* writing it: an increment refuses to revive
 * a zero count, a decrement refuses to go below zero, and a saturated
 * count never moves again. The price is a load, a compare and a cmpxchg
 * (retried under contention) where hl_refcount_t has one atomic add.
 *
 * Ordering as in hl_refcount_t: increments relaxed, decrements release,
 * and the decrement that reaches zero acquire as well.
 *
 * Detected misuse is reported once per kind on stderr and otherwise
 * ignored (the old kernel's WARN_ONCE); the count is left as it was.
 */
#ifndef HOTLINE_BENCH_REFCOUNT_FULL_H
#define HOTLINE_BENCH_REFCOUNT_FULL_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include <hotline/compiler.h>

struct refcount_full {
	atomic_uint refs;
};

/* clang-format off */
#define REFCOUNT_FULL_INIT(n) { .refs = (n) }
/* clang-format on */

enum refcount_full_warning {
	REFCOUNT_FULL_SATURATED, /* reached UINT_MAX: the object leaks */
	REFCOUNT_FULL_INC_ZERO,	 /* increment of zero: use after free */
	REFCOUNT_FULL_UNDERFLOW, /* decrement below zero */
};

/* The rare path, out of line: say what happened, once per kind. */
static __attribute__((cold, noinline, unused)) void refcount_full_warn(enum refcount_full_warning w)
{
	static const char *const text[] = {
		[REFCOUNT_FULL_SATURATED] = "saturated; leaking memory",
		[REFCOUNT_FULL_INC_ZERO] = "increment on 0; use-after-free",
		[REFCOUNT_FULL_UNDERFLOW] = "underflow; use-after-free",
	};
	static atomic_uint warned;
	unsigned int bit = 1u << w;

	if (!(atomic_fetch_or_explicit(&warned, bit, memory_order_relaxed) & bit))
		fprintf(stderr, "refcount_full: %s\n", text[w]);
}

static inline void refcount_full_set(struct refcount_full *r, unsigned int n)
{
	atomic_store_explicit(&r->refs, n, memory_order_relaxed);
}

static inline unsigned int refcount_full_read(const struct refcount_full *r)
{
	return atomic_load_explicit((atomic_uint *)&r->refs, memory_order_relaxed);
}

/*
 * refcount_full_add_not_zero - add i unless the count is zero.
 *
 * Returns false, without writing, on zero. A saturated count stays at
 * UINT_MAX (true); an addition that would wrap saturates instead. Relaxed.
 */
static inline bool refcount_full_add_not_zero(unsigned int i, struct refcount_full *r)
{
	unsigned int old = atomic_load_explicit(&r->refs, memory_order_relaxed);
	unsigned int new;

	do {
		if (!old)
			return false;
		if (__builtin_expect(old == UINT_MAX, 0))
			return true;
		new = old + i;
		if (new < old)
			new = UINT_MAX;
	} while (!atomic_compare_exchange_weak_explicit(&r->refs, &old, new, memory_order_relaxed,
							memory_order_relaxed));
	if (__builtin_expect(new == UINT_MAX, 0))
		refcount_full_warn(REFCOUNT_FULL_SATURATED);
	return true;
}

static inline bool refcount_full_inc_not_zero(struct refcount_full *r)
{
	return refcount_full_add_not_zero(1, r);
}

/* refcount_full_inc - take a reference; an increment of zero is reported, not done. */
static inline void refcount_full_inc(struct refcount_full *r)
{
	if (__builtin_expect(!refcount_full_inc_not_zero(r), 0))
		refcount_full_warn(REFCOUNT_FULL_INC_ZERO);
}

/*
 * refcount_full_sub_and_test - drop i references; true if that made it zero.
 *
 * A saturated count stays at UINT_MAX (false); a subtraction below zero is
 * reported and not done (false). Release; acquire as well on true.
 */
static inline bool refcount_full_sub_and_test(unsigned int i, struct refcount_full *r)
{
	unsigned int old = atomic_load_explicit(&r->refs, memory_order_relaxed);
	unsigned int new;

	do {
		if (__builtin_expect(old == UINT_MAX, 0))
			return false;
		new = old - i;
		if (__builtin_expect(new > old, 0)) {
			refcount_full_warn(REFCOUNT_FULL_UNDERFLOW);
			return false;
		}
	} while (!atomic_compare_exchange_weak_explicit(&r->refs, &old, new, memory_order_release,
							memory_order_relaxed));
	if (new)
		return false;
	hl_acquire_after_rmw(&r->refs);
	return true;
}

static inline bool refcount_full_dec_and_test(struct refcount_full *r)
{
	return refcount_full_sub_and_test(1, r);
}

/*
 * The same two operations as functions in their own translation unit
 * (baselines/refcount_full.c), never inlined: that is how the kernel built
 * REFCOUNT_FULL (lib/refcount.c, called from every site), and so what its
 * published 1.7x measured. The inline forms above isolate the cost of the
 * compare-and-swap loop itself.
 */
void refcount_full_inc_call(struct refcount_full *r);
bool refcount_full_dec_and_test_call(struct refcount_full *r);

#endif /* HOTLINE_BENCH_REFCOUNT_FULL_H */
