/* SPDX-License-Identifier: MIT */
/*
 * hotline/rcuref.h - a reference count whose get-unless-dead is one atomic add.
 *
 * hl_rcuref_t has the semantics of the Linux kernel's rcuref_t (v6.17;
 * docs/rcuref.md): a lookup takes a reference only if the object is still
 * alive, like hl_refcount_inc_not_zero(), but with one atomic fetch-add
 * instead of a compare-and-swap loop, so it does not collapse when many
 * threads look the same object up at once.
 *
 * The count is stored biased by one, as an unsigned 32-bit word: one
 * reference is 0, so the last put takes it to 0xFFFFFFFF and every state
 * that is not "alive" has the top bit set. The word is split into zones:
 *
 *   0x00000000 .. 0x7FFFFFFF  valid: 1 .. 2^31 references
 *   0x80000000 .. 0xBFFFFFFF  saturated: parked at HL_RCUREF_SATURATED
 *   0xC0000000 .. 0xFFFFFFFE  dead: parked at HL_RCUREF_DEAD
 *   0xFFFFFFFF                released: the last put dropped its reference
 *                             and is about to mark the count dead
 *
 * get and put add and subtract unconditionally and look at the result: a
 * result in the valid zone (top bit clear) is the whole operation. Anything
 * else goes to an out-of-line slow path that sorts it out after the fact.
 * The saturation and dead zones are 2^30 wide, so threads racing their adds
 * against a parked count stay in its zone, and each slow path moves the
 * count back to the middle of the zone it is in.
 *
 * The last reference: put takes the count from 0 to 0xFFFFFFFF (released),
 * then one compare-and-swap from 0xFFFFFFFF to HL_RCUREF_DEAD. Only the put
 * whose compare-and-swap succeeds returns true, so exactly one put returns
 * true per life of the object. A get that lands in the released window
 * (0xFFFFFFFF + 1 = 0) succeeds and revives the object: that put's
 * compare-and-swap then fails and returns false, and a later put is the last.
 * A get that lands in the dead zone fails and moves the count back to
 * HL_RCUREF_DEAD.
 *
 * Memory: because get adds before it knows whether the object is alive,
 * and the last put writes the counter after the count reached zero, the
 * counter is written after the object may already be dead. The caller must
 * keep the memory of the counter valid (not freed, not reused as anything
 * but an hl_rcuref_t) until every get and put that may race the last put
 * has returned: free it after an RCU grace period, behind hazard pointers
 * or epochs, or keep it in type-stable memory (a pool that only ever holds
 * these objects). A plain free() right after the put that returned true is
 * not enough when other threads can still reach the object. The slow paths
 * only move a count back to its zone's middle while it is still in that
 * zone, and never take a last put's NOREF, so reinitialising type-stable
 * memory with hl_rcuref_init() is safe against stragglers: their increment
 * is overwritten and their get fails, or lands on the new object (check its
 * identity after the get), and the new life still has exactly one put
 * that returns true (model-checked: docs/verification.md).
 *
 * Ordering: get is relaxed (the lookup that found the object orders it: a
 * lock, an acquire load, RCU's dependency ordering). put is release, so
 * everything done with the object happens before the count drops; the put
 * that returns true is also acquire, so it sees everything every other
 * holder did before its put.
 *
 * Bugs: a get that takes the count past 2^31 references saturates it at
 * HL_RCUREF_SATURATED (the object leaks, which is safe) and reports
 * HL_RCUREF_GET_OVF; a put on a dead count (more puts than gets) leaves it
 * dead and reports HL_RCUREF_PUT_UAF. Reports go to the handler set with
 * hl_rcuref_set_handler(); the default one is hl_refcount's (one line per
 * kind on stderr, or abort with HOTLINE_REFCOUNT=abort). Gets and puts on a
 * saturated count keep it saturated and report nothing more.
 */
#ifndef HOTLINE_RCUREF_H
#define HOTLINE_RCUREF_H

#include <stdbool.h>

#include <hotline/compiler.h>
#include <hotline/refcount.h>

#ifdef __cplusplus
extern "C" {
#endif

/* refcnt: atomic_uint in C; see compiler.h for C++. Use the functions below. */
typedef struct {
	HL_ATOMIC(unsigned int) refcnt;
} hl_rcuref_t;

/* The stored value of one reference (the bias). */
#define HL_RCUREF_ONEREF 0x00000000u
/* The largest valid stored value: 2^31 references. */
#define HL_RCUREF_MAXREF 0x7FFFFFFFu
/* Where a saturated count is parked: the middle of 0x80000000..0xBFFFFFFF. */
#define HL_RCUREF_SATURATED 0xA0000000u
/* The first value of the dead zone, 0xC0000000..0xFFFFFFFE. */
#define HL_RCUREF_RELEASED 0xC0000000u
/* Where a dead count is parked: the middle of the dead zone. */
#define HL_RCUREF_DEAD 0xE0000000u
/* The stored value after the last put, before it is marked dead. */
#define HL_RCUREF_NOREF 0xFFFFFFFFu

/*
 * HL_RCUREF_INIT - static initialiser for n >= 1 references.
 *
 * hl_rcuref_t r = HL_RCUREF_INIT(1); stores n - 1 (the bias), as
 * hl_rcuref_init() does. One form for C and C++ (positional).
 */
/* clang-format off */
#define HL_RCUREF_INIT(n) { (n) - 1u }
/* clang-format on */

typedef void (*hl_rcuref_handler_t)(hl_rcuref_t *r, enum hl_refcount_saturation t);

/*
 * hl_rcuref_set_handler - choose what happens when an rcuref bug is found.
 *
 * As hl_refcount_set_handler(), for hl_rcuref_t: the handler runs in the
 * thread that found the bug, after the count was moved back to its zone's
 * middle, with t HL_RCUREF_GET_OVF or HL_RCUREF_PUT_UAF. It may return (the
 * operation then completes as documented) or not return. NULL restores the
 * default, which is hl_refcount's default handler (HOTLINE_REFCOUNT).
 * Returns the handler installed before, NULL for the default. Thread-safe.
 * A handler of its own (not hl_refcount's) because it is passed the
 * counter, and the two counters are different types.
 */
HL_API hl_rcuref_handler_t hl_rcuref_set_handler(hl_rcuref_handler_t h);

/* Out of line, for the inline functions below: v is the value the add left. */
HL_API HL_COLD bool hl__rcuref_get_slow(hl_rcuref_t *r, unsigned int v);
HL_API HL_COLD bool hl__rcuref_put_slow(hl_rcuref_t *r, unsigned int v);

#if defined(__x86_64__) && defined(__GNUC__) && !defined(HL_TSAN) && !defined(HL_VERIFY)
/*
 * x86-64: the fast paths branch on the flags of a result-less locked add,
 * which measured 1.00x atomic_faa at 2 threads on a Zen 4 where lock
 * xadd measured 0.87x (docs/rcuref.md, "Measured"). The flags carry exactly what the
 * slow paths need the value for: the overflow flag is set only by the get
 * that takes the count from 0x7FFFFFFF to 0x80000000 (the one that reports
 * saturation), the carry flag only by the put that takes it from 0 to
 * 0xFFFFFFFF (the one that may mark it dead). Any other result with the
 * sign set goes to the slow path with the count read again: it only has to
 * tell the zones apart, which are 2^30 wide. ThreadSanitizer builds use the
 * portable form below, whose atomics it sees.
 */
#define HL__RCUREF_FLAGS 1
#endif
/* Out of line, for the flags form: the result was negative, the value unknown. */
HL_API HL_COLD bool hl__rcuref_get_negative(hl_rcuref_t *r);
HL_API HL_COLD bool hl__rcuref_put_negative(hl_rcuref_t *r);

/*
 * hl_rcuref_init - set the count to n >= 1 references (relaxed store).
 *
 * For a new object, or to reuse the memory of a dead one (type-stable
 * memory) before it is published again. n == 0 makes the count released
 * (0xFFFFFFFF): a get then revives it; do not.
 */
static inline void hl_rcuref_init(hl_rcuref_t *r, unsigned int n)
{
	hl__atomic_store(&r->refcnt, n - 1u, relaxed);
}

/*
 * hl_rcuref_read - the references held (relaxed load); may be stale at once.
 *
 * 0 once the last reference is dropped (released or dead); for a saturated
 * count, a number above 2^31.
 */
static inline unsigned int hl_rcuref_read(const hl_rcuref_t *r)
{
	unsigned int v =
		hl__atomic_load(HL__UNCONST(HL_ATOMIC(unsigned int) *, &r->refcnt), relaxed);

	return v >= HL_RCUREF_RELEASED ? 0u : v + 1u;
}

/*
 * hl_rcuref_get - take a reference unless the object is dead.
 *
 * Returns true with a reference taken; false if the last reference was
 * already dropped: the object is dead, do not use it (and do not put).
 * The caller need not hold a reference, but must keep the memory valid
 * (see the top of this page). One relaxed atomic add (on x86-64 a lock add
 * and two branches on its flags, above; ldadd on arm64 with LSE, and one
 * branch on the result's sign); saturation and the dead zone are handled
 * out of line. Relaxed: it orders nothing
 * but the caller's later stores to the object (a control dependency).
 */

static inline bool hl_rcuref_get(hl_rcuref_t *r)
{
#ifdef HL__RCUREF_FLAGS
	__asm__ goto("lock addl $1, %0\n\t"
		     "jo %l[crossed]\n\t"
		     "js %l[negative]"
		     :
		     : "m"(r->refcnt)
		     : "memory", "cc"
		     : crossed, negative);
	return true;
crossed:
	return hl__rcuref_get_slow(r, HL_RCUREF_MAXREF + 1u);
negative:
	return hl__rcuref_get_negative(r);
#else
	unsigned int v = hl__atomic_fetch_add(&r->refcnt, 1u, relaxed) + 1u;

	if (hl_likely(v <= HL_RCUREF_MAXREF))
		return true;
	return hl__rcuref_get_slow(r, v);
#endif
}

/*
 * hl_rcuref_put - drop a reference; true if it was the last one.
 *
 * Returns true for exactly one put per life of the object: the caller then
 * owns it and may destroy it (after the grace period that keeps racing gets
 * and puts safe). False otherwise, including when the put raced a get that
 * revived the object, on a saturated count, and for a put on a dead count
 * (reported as HL_RCUREF_PUT_UAF). One release atomic subtract (on x86-64
 * a lock sub and two branches on its flags) and one branch; the last
 * reference's compare-and-swap (acquire) is out of line.
 */
static inline bool hl_rcuref_put(hl_rcuref_t *r)
{
#ifdef HL__RCUREF_FLAGS
	/* A locked instruction is a full barrier on x86-64: release and more. */
	__asm__ goto("lock subl $1, %0\n\t"
		     "jc %l[last]\n\t"
		     "js %l[negative]"
		     :
		     : "m"(r->refcnt)
		     : "memory", "cc"
		     : last, negative);
	return false;
last:
	return hl__rcuref_put_slow(r, HL_RCUREF_NOREF);
negative:
	return hl__rcuref_put_negative(r);
#else
	unsigned int v = hl__atomic_fetch_sub(&r->refcnt, 1u, release) - 1u;

	if (hl_likely(v <= HL_RCUREF_MAXREF))
		return false;
	return hl__rcuref_put_slow(r, v);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_RCUREF_H */
