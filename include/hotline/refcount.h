/* SPDX-License-Identifier: MIT */
/*
 * hotline/refcount.h - a reference count that saturates instead of wrapping.
 *
 * hl_refcount_t has the semantics of the Linux kernel's refcount_t (v6.17):
 * a signed 32-bit count whose valid values are 1..INT_MAX. An operation that
 * would overflow, increment from zero, or decrement past zero is a bug in
 * the caller; instead of letting the count wrap (which turns a refcounting
 * bug into a use-after-free) the counter is set to HL_REFCOUNT_SATURATED and
 * the bug is reported. A saturated object leaks, which is safe.
 *
 * Why INT_MIN / 2: detection happens after the atomic add, so other threads
 * may race increments and decrements against a saturated counter before it
 * is reset. Parking it in the middle of the negative range leaves 2^30 of
 * such operations in either direction before it could come back to zero or
 * to a valid count, and every operation that would change a negative value
 * resets it to the middle again, but one: as in the kernel, dec_not_one (and
 * the two dec_and_*lock built on it) leaves HL_REFCOUNT_SATURATED itself
 * alone and decrements any other negative count, unreported. A saturated
 * counter stays saturated.
 *
 * Cost: the increments and decrements are one atomic read-modify-write
 * followed by one branch that is predicted not taken (two for
 * *_and_test, and for the increments on x86-64), never a compare-and-swap
 * loop. The increments check the
 * value the atomic returns (lock xadd on x86-64, ldadd on arm64 with LSE):
 * an increment of zero cannot be told from any other by the flags of a
 * result-less add, so it needs the old value. On x86-64 the decrements
 * are a result-less lock sub whose flags tell every case apart exactly (zero
 * reached, or the count was below i); elsewhere they check the value, as
 * the increments do. Only *_not_zero and dec_not_one need a cmpxchg loop,
 * as in the kernel.
 *
 * Ordering: increments are relaxed (taking a reference orders nothing; the
 * caller already holds one). Decrements are release, so everything done
 * with the object happens before the count drops; the decrement that
 * reaches zero is also acquire, so the freeing thread sees all of it.
 *
 * Reporting: on detection the count is set to HL_REFCOUNT_SATURATED first,
 * then the handler is called with the kind of bug. The default handler
 * prints one line per kind to stderr, once per process; with
 * HOTLINE_REFCOUNT=abort in the environment it prints and calls abort().
 * The variable is read when the library is loaded: exactly "abort" or
 * "warn" (the default); any other value, "ABORT" or "" included, is
 * reported in one line on stderr and means warn (README.md, Environment).
 * There is always a handler: setting NULL restores the default.
 * hl_rcuref_t (hotline/rcuref.h) reports its bugs with kinds of its own,
 * appended to the enum below, through a handler of its own
 * (hl_rcuref_set_handler) whose default is this one.
 *
 * Misuse: a negative i is detected and saturates (see each function). A
 * NULL counter (or mutex) is not checked, as in the kernel: the check would
 * cost on every fast path, and the dereference faults at once, at the
 * call, which is where the bug is.
 */
#ifndef HOTLINE_REFCOUNT_H
#define HOTLINE_REFCOUNT_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>

#include <hotline/compiler.h>
#include <hotline/qspinlock.h>

#ifdef __cplusplus
extern "C" {
#endif

/* refs: atomic_int in C; see compiler.h for C++. Use the functions below. */
typedef struct {
	HL_ATOMIC(int) refs;
} hl_refcount_t;

/* Static initialiser: hl_refcount_t r = HL_REFCOUNT_INIT(1); */
/* clang-format off */
#ifdef __cplusplus
#define HL_REFCOUNT_INIT(n) { (n) }
#else
#define HL_REFCOUNT_INIT(n) { .refs = (n) }
#endif
/* clang-format on */

#define HL_REFCOUNT_MAX	      INT_MAX
#define HL_REFCOUNT_SATURATED (INT_MIN / 2)

/* The kinds of bug a refcount detects, as passed to the handler. */
enum hl_refcount_saturation {
	HL_REFCOUNT_ADD_NOT_ZERO_OVF, /* add_not_zero/inc_not_zero overflowed */
	HL_REFCOUNT_ADD_OVF,	      /* add/inc overflowed, or saw a negative count */
	HL_REFCOUNT_ADD_UAF,	      /* add/inc on zero: use after free */
	HL_REFCOUNT_SUB_UAF,	      /* sub_and_test/dec_and_test went below zero */
	HL_REFCOUNT_DEC_LEAK,	      /* dec reached zero (the object can never be freed) */
	HL_RCUREF_GET_OVF,	      /* hl_rcuref_get saturated (hotline/rcuref.h) */
	HL_RCUREF_PUT_UAF,	      /* hl_rcuref_put on a dead count: more puts than gets */
};

typedef void (*hl_refcount_handler_t)(hl_refcount_t *r, enum hl_refcount_saturation t);

/*
 * hl_refcount_set_handler - choose what happens when a refcount bug is found.
 *
 * The handler runs after the counter has been set to HL_REFCOUNT_SATURATED,
 * in the thread that found the bug, once per detection (the once-per-kind
 * limit belongs to the default handler only). It may return (the operation
 * then completes as documented) or not return. NULL restores the default.
 * Returns the handler that was installed before, NULL for the default.
 * Thread-safe: a concurrent detection runs either the old or the new one.
 */
HL_API hl_refcount_handler_t hl_refcount_set_handler(hl_refcount_handler_t h);

/* Out of line, for the inline functions below: saturate r, then report t. */
HL_API HL_COLD void hl__refcount_saturate(hl_refcount_t *r, enum hl_refcount_saturation t);
/* Out of line: report t without touching r (dec_not_one's underflow case). */
HL_API HL_COLD void hl__refcount_report(hl_refcount_t *r, enum hl_refcount_saturation t);
/*
 * Out of line, for the x86-64 sub_and_test: saturate r with SUB_UAF, return
 * false. A function of its own so that the fast path's return of false is
 * not shared with the slow path (GCC would place it with the slow path).
 */
HL_API HL_COLD bool hl__refcount_sub_and_test_uaf(hl_refcount_t *r);

/* Two's-complement add and subtract: the kernel relies on wrapping here. */
static inline int hl__refcount_wrap_add(int a, int b)
{
	return HL__CAST(int, HL__CAST(unsigned int, a) + HL__CAST(unsigned int, b));
}

static inline int hl__refcount_wrap_sub(int a, int b)
{
	return HL__CAST(int, HL__CAST(unsigned int, a) - HL__CAST(unsigned int, b));
}

/*
 * True unless old is a valid count (1..INT_MAX) that i >= 0 keeps valid, i.e.
 * old <= 0 || old + i < 0 in wrapping arithmetic, or i is negative (misuse).
 * For i >= 0 it is one unsigned compare: 1 <= old <= INT_MAX - i.
 *
 * The tests are joined with |, not ||, here and in the other conditions that
 * hl_unlikely() wraps: with ||, even with an operand that folds to false,
 * GCC 12 lays a loop of increments out with its back edge a jmp to the exit
 * test at the top, which costs time beside a locked instruction
 * (docs/refcount.md, "Cost").
 */
static inline bool hl__refcount_add_bad(int old, int i)
{
	return (HL__CAST(unsigned int, old) - 1u >=
		HL__CAST(unsigned int, INT_MAX) - HL__CAST(unsigned int, i)) |
	       (i < 0);
}

/*
 * The same for an old value known to be above 0: old + i past INT_MAX, or i
 * negative. x86-64's hl_refcount_add tests old <= 0 first, then this: two
 * compares of the value lock xadd returned, each with its own branch, where
 * the one compare above needs old - 1 computed first. With that step
 * between the locked instruction and its branch a loop of increments took
 * 1.06x-1.10x the time of a lock add loop on an Intel Xeon (family 6 model
 * 0xcf), and refcount-timing's refcount 1.11x-1.17x a plain atomic's; with
 * the two compares 1.00x (docs/refcount.md, "Cost").
 */
static inline bool hl__refcount_add_past_max(int old, int i)
{
	return (HL__CAST(unsigned int, old) >
		HL__CAST(unsigned int, INT_MAX) - HL__CAST(unsigned int, i)) |
	       (i < 0);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(HL_TSAN) && !defined(HL_VERIFY)
/*
 * x86-64: the decrements branch on the flags of a result-less lock sub, as
 * hl_rcuref_put does (docs/refcount.md, "Cost"). A sub sets the flags as a
 * cmp of the old count with i does, so for i > 0 they say exactly what the
 * old value would: ZF is old == i (this call reached zero), "less" (SF !=
 * OF) is old < i, which covers old <= 0 and going below zero, and "less or
 * equal" after subtracting 1 is dec's old <= 1. No case needs the count read
 * again. The increments keep lock xadd: an add's flags cannot tell an
 * increment of zero (a use after free) from an increment of a valid count.
 * ThreadSanitizer builds use the portable form, whose atomics it sees.
 */
#define HL__REFCOUNT_FLAGS 1
#endif

/*
 * sub_and_test from the value fetch_sub returns: the portable form, and the
 * x86-64 one's for i <= 0 (where the flags would take 0 - 0 for the last
 * reference).
 */
static inline bool hl__refcount_sub_and_test_old(int i, hl_refcount_t *r)
{
	int old = hl__atomic_fetch_sub(&r->refs, i, release);

	if (old == i && old > 0) {
		hl_acquire_after_rmw(&r->refs);
		return true;
	}
	if (hl_unlikely((old <= 0) | (hl__refcount_wrap_sub(old, i) < 0) | (i < 0)))
		hl__refcount_saturate(r, HL_REFCOUNT_SUB_UAF);
	return false;
}

/*
 * hl_refcount_set - set the count to n (relaxed store).
 *
 * For initialisation and reuse of an object nobody else references yet.
 */
static inline void hl_refcount_set(hl_refcount_t *r, int n)
{
	hl__atomic_store(&r->refs, n, relaxed);
}

/* hl_refcount_read - the current count (relaxed load); may be stale at once. */
static inline int hl_refcount_read(const hl_refcount_t *r)
{
	return hl__atomic_load(HL__UNCONST(HL_ATOMIC(int) *, &r->refs), relaxed);
}

/*
 * hl_refcount_add - add i (> 0) references.
 *
 * The caller must already hold a reference. Adding to zero (a use after
 * free: HL_REFCOUNT_ADD_UAF), past INT_MAX, to a negative count, or a
 * negative i (HL_REFCOUNT_ADD_OVF) saturates the counter. Relaxed.
 */
static inline void hl_refcount_add(int i, hl_refcount_t *r)
{
	int old = hl__atomic_fetch_add(&r->refs, i, relaxed);

#if defined(__x86_64__)
	if (hl_unlikely(old <= 0))
		hl__refcount_saturate(r, old == 0 ? HL_REFCOUNT_ADD_UAF : HL_REFCOUNT_ADD_OVF);
	else if (hl_unlikely(hl__refcount_add_past_max(old, i)))
		hl__refcount_saturate(r, HL_REFCOUNT_ADD_OVF);
#else
	if (hl_unlikely(hl__refcount_add_bad(old, i)))
		hl__refcount_saturate(r, old == 0 ? HL_REFCOUNT_ADD_UAF : HL_REFCOUNT_ADD_OVF);
#endif
}

/* hl_refcount_inc - add one reference; as hl_refcount_add(1, r). */
static inline void hl_refcount_inc(hl_refcount_t *r)
{
	hl_refcount_add(1, r);
}

/*
 * hl_refcount_add_not_zero - add i references unless the count is zero.
 *
 * Returns false, without writing, if the count was zero (the object is
 * being freed); true otherwise, including when the counter was or became
 * saturated (overflow, a negative count or a negative i report
 * HL_REFCOUNT_ADD_NOT_ZERO_OVF). A relaxed cmpxchg loop: on success it
 * orders nothing, so a lookup must get its ordering from elsewhere (RCU,
 * a lock).
 */
static inline bool hl_refcount_add_not_zero(int i, hl_refcount_t *r)
{
	int old = hl__atomic_load(&r->refs, relaxed);

	do {
		if (old == 0)
			return false;
	} while (!hl__atomic_cmpxchg_weak(&r->refs, &old, hl__refcount_wrap_add(old, i), relaxed,
					  relaxed));

	if (hl_unlikely(hl__refcount_add_bad(old, i)))
		hl__refcount_saturate(r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	return true;
}

/* hl_refcount_inc_not_zero - as hl_refcount_add_not_zero(1, r). */
static inline bool hl_refcount_inc_not_zero(hl_refcount_t *r)
{
	return hl_refcount_add_not_zero(1, r);
}

/*
 * hl_refcount_sub_and_test - drop i (> 0) references; true if none are left.
 *
 * Returns true only when this call brought the count to exactly zero; the
 * caller then owns the object (and may free it). Going below zero, starting
 * at or below zero, or a negative i saturate with HL_REFCOUNT_SUB_UAF and
 * return false. Release; acquire as well when it returns true.
 */
static inline bool hl_refcount_sub_and_test(int i, hl_refcount_t *r)
{
#ifdef HL__REFCOUNT_FLAGS
	/* i <= 0 needs the old value: 0 - 0 sets ZF too (a rare call, a constant i folds it). */
	if (hl_unlikely(i <= 0))
		return hl__refcount_sub_and_test_old(i, r);
	/* A locked instruction is a full barrier on x86-64: release and more. */
	__asm__ goto("lock subl %1, %0\n\t"
		     "je %l[zero]\n\t"
		     "jl %l[below]"
		     :
		     : "m"(r->refs), "ir"(i)
		     : "memory", "cc"
		     : zero, below);
	return false;
zero:
	/* The lock sub ordered it already; for the C11 model, and free: no instruction. */
	hl__atomic_fence(acquire);
	return true;
below:
	return hl__refcount_sub_and_test_uaf(r);
#else
	return hl__refcount_sub_and_test_old(i, r);
#endif
}

/* hl_refcount_dec_and_test - as hl_refcount_sub_and_test(1, r). */
static inline bool hl_refcount_dec_and_test(hl_refcount_t *r)
{
	return hl_refcount_sub_and_test(1, r);
}

/*
 * hl_refcount_dec - drop a reference that is known not to be the last.
 *
 * If the count was 1 or less (it reached zero here, so the object leaks, or
 * it was already invalid) it saturates with HL_REFCOUNT_DEC_LEAK. Release.
 */
static inline void hl_refcount_dec(hl_refcount_t *r)
{
#ifdef HL__REFCOUNT_FLAGS
	/* jle: old - 1 <= 0 as a true signed compare, i.e. old <= 1, INT_MIN included. */
	__asm__ goto("lock subl $1, %0\n\t"
		     "jle %l[leak]"
		     :
		     : "m"(r->refs)
		     : "memory", "cc"
		     : leak);
	return;
leak:
	hl__refcount_saturate(r, HL_REFCOUNT_DEC_LEAK);
#else
	int old = hl__atomic_fetch_sub(&r->refs, 1, release);

	if (hl_unlikely(old <= 1))
		hl__refcount_saturate(r, HL_REFCOUNT_DEC_LEAK);
#endif
}

/*
 * hl_refcount_dec_if_one - drop the last reference, only if it is the last.
 *
 * One cmpxchg from 1 to 0 (release). Returns whether it happened; any
 * other count is left unchanged and nothing is reported.
 */
static inline bool hl_refcount_dec_if_one(hl_refcount_t *r)
{
	int one = 1;

	return hl__atomic_cmpxchg_strong(&r->refs, &one, 0, release, relaxed);
}

/*
 * hl_refcount_dec_not_one - drop a reference unless it is the last one.
 *
 * Returns false, unchanged, when the count is 1 (the caller must take the
 * slow path that may free). Returns true after decrementing otherwise. A
 * saturated counter returns true and stays saturated. A zero count is an
 * underflow: reported as HL_REFCOUNT_SUB_UAF with the count left at zero
 * (as the kernel does), and true is returned. Any other negative count is
 * decremented like a positive one, without a report and without resetting
 * it to HL_REFCOUNT_SATURATED (as the kernel does): -5 becomes -6, and
 * INT_MIN wraps to INT_MAX. Release cmpxchg loop.
 */
HL_API bool hl_refcount_dec_not_one(hl_refcount_t *r);

/*
 * hl_refcount_dec_and_mutex_lock - drop a reference; lock m if it was the last.
 *
 * Returns true with m held and the count at zero when this call dropped the
 * last reference; false, with m not held, otherwise. m is only taken when
 * the count may reach zero, so the common case never touches it.
 */
HL_API bool hl_refcount_dec_and_mutex_lock(hl_refcount_t *r, pthread_mutex_t *m);

/*
 * hl_refcount_dec_and_lock - drop a reference; take lock if it was the last.
 *
 * As hl_refcount_dec_and_mutex_lock(), with an hl_qspinlock_t: returns true
 * with lock held and the count at zero when this call dropped the last
 * reference; false, with lock not held, otherwise.
 */
HL_API bool hl_refcount_dec_and_lock(hl_refcount_t *r, hl_qspinlock_t *lock);

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_REFCOUNT_H */
