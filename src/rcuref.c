// SPDX-License-Identifier: MIT
/*
 * rcuref.c - the slow paths of hotline/rcuref.h: the last put's mark-dead,
 * a get that landed outside the valid zone, and bug reports.
 *
 * Each slow path is given the value its own add or subtract produced and
 * decides from it alone. A count it finds out of its zone's middle is moved
 * back with a compare-and-swap that only succeeds while the count is still
 * in that zone: never a plain store, so that a count reinitialised in the
 * meantime (type-stable memory reused for a new object) is left alone, and
 * so that every write to the counter stays a read-modify-write (the release
 * sequences of earlier puts reach the last put's acquire through them).
 */
#include <hotline/rcuref.h>

/* The reports' probes read the counter: only while a tracer is attached. */
#define HL_PROBE_SEMAPHORES
#include "probes.h"
#include "refcount_report.h"

HL_PROBE_SEMAPHORE(rcuref_report);
HL_PROBE_SEMAPHORE(rcuref_saturate);

static _Atomic(hl_rcuref_handler_t) handler; /* NULL: the default handler */

hl_rcuref_handler_t hl_rcuref_set_handler(hl_rcuref_handler_t h)
{
	return atomic_exchange_explicit(&handler, h, memory_order_acq_rel);
}

static void report(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	hl_rcuref_handler_t h = atomic_load_explicit(&handler, memory_order_acquire);

	if (HL_PROBE_ENABLED(rcuref_report))
		HL_PROBE(rcuref_report, r, t,
			 atomic_load_explicit(&r->refcnt, memory_order_relaxed));
	if (h)
		h(r, t);
	else
		hl__refcount_default_report("rcuref", r, t);
}

/* Which zone a stored value is in (rcuref.h, docs/rcuref.md). */
static bool in_saturation_zone(unsigned int v)
{
	return v > HL_RCUREF_MAXREF && v < HL_RCUREF_RELEASED;
}

static bool in_dead_zone(unsigned int v)
{
	return v >= HL_RCUREF_RELEASED;
}

/*
 * What a repair in the dead zone moves back to HL_RCUREF_DEAD: the dead
 * zone but NOREF. NOREF belongs to a last put that is about to mark the
 * count dead with its compare-and-swap; in type-stable memory that put may
 * be the next life's, after hl_rcuref_init(), while a straggler's get from
 * the previous life is still repairing its add. Were the straggler to take
 * NOREF to DEAD, that put's compare-and-swap would fail and the new life
 * would have no put that returns true: the object would never be freed
 * (make verify's rcuref_reinit client finds it). Drift from DEAD never
 * reaches NOREF: it is 2^29 away.
 */
static bool in_dead_zone_to_park(unsigned int v)
{
	return in_dead_zone(v) && v != HL_RCUREF_NOREF;
}

/*
 * Move r to to while it is in the zone in_zone() says: true if it was
 * there when we looked (and is now to, or was moved on by a racing
 * operation that found it there too), false if it had left the zone.
 */
static bool park(hl_rcuref_t *r, bool (*in_zone)(unsigned int), unsigned int to)
{
	unsigned int v = atomic_load_explicit(&r->refcnt, memory_order_relaxed);

	while (in_zone(v)) {
		if (v == to ||
		    atomic_compare_exchange_weak_explicit(&r->refcnt, &v, to, memory_order_relaxed,
							  memory_order_relaxed))
			return true;
	}
	return false;
}

/*
 * A get whose add left v outside the valid zone. crossed: it is the get
 * that took the count from MAXREF into saturation, the one that reports.
 */
static bool get_zone(hl_rcuref_t *r, unsigned int v, bool crossed)
{
	/* Our add landed in the dead zone: the object is dead. Undo the drift. */
	if (in_dead_zone(v)) {
		park(r, in_dead_zone_to_park, HL_RCUREF_DEAD);
		return false;
	}
	/*
	 * In the saturation zone: we hold a reference (the object now leaks).
	 * Only the get that crossed from the valid zone reports; gets on a
	 * count already parked there keep it there, quietly.
	 */
	park(r, in_saturation_zone, HL_RCUREF_SATURATED);
	if (crossed) {
		HL_PROBE(rcuref_saturate, r);
		report(r, HL_RCUREF_GET_OVF);
	}
	return true;
}

/*
 * A put whose subtract left v outside the valid zone. last: it is the put
 * that took the count from 0 to NOREF, the only one that may mark it dead.
 */
static bool put_zone(hl_rcuref_t *r, unsigned int v, bool last)
{
	if (hl_likely(last)) {
		/*
		 * We dropped the last reference. Mark it dead, unless a get
		 * revived it since (it is no longer NOREF): then a later put is
		 * the last one. Acquire: whoever destroys the object must see
		 * what every other holder did before its (release) put.
		 */
		return atomic_compare_exchange_strong_explicit(
			&r->refcnt, &v, HL_RCUREF_DEAD, memory_order_acquire, memory_order_relaxed);
	}
	if (in_dead_zone(v)) {
		/* A put on a dead count: more puts than gets. */
		park(r, in_dead_zone_to_park, HL_RCUREF_DEAD);
		report(r, HL_RCUREF_PUT_UAF);
		return false;
	}
	/* A put on a saturated count: it stays saturated. */
	park(r, in_saturation_zone, HL_RCUREF_SATURATED);
	return false;
}

/* The portable fast paths: v is exactly what the add or subtract left. */
bool hl__rcuref_get_slow(hl_rcuref_t *r, unsigned int v)
{
	return get_zone(r, v, v == HL_RCUREF_MAXREF + 1u);
}

bool hl__rcuref_put_slow(hl_rcuref_t *r, unsigned int v)
{
	return put_zone(r, v, v == HL_RCUREF_NOREF);
}

/*
 * The x86-64 fast paths (rcuref.h, HL__RCUREF_FLAGS) come here when the
 * result's sign was set but the flags rule out the two cases that need
 * the exact value (the crossing get, the last put: those call the
 * functions above with it): the count is read again, and only its zone
 * matters. Always built, so that one library serves programs compiled
 * either way.
 *
 * get: the add landed in the saturation zone (not at its first value) or
 * in the dead zone. A count read back in the valid zone can only have been
 * reinitialised for a new object since (a dead count), or have been taken
 * back under MAXREF by puts racing a crossing: the first is the one that
 * must not succeed, so the get fails; in the second the object leaks one
 * reference more, which saturation allows.
 */
bool hl__rcuref_get_negative(hl_rcuref_t *r)
{
	unsigned int v = atomic_load_explicit(&r->refcnt, memory_order_relaxed);

	return v > HL_RCUREF_MAXREF && get_zone(r, v, false);
}

/*
 * put: the subtract landed in the saturation zone, or in the dead zone
 * but not from 0: a put on a dead count. A holder's put never lands
 * there, so the re-read cannot turn a racing revive into a false report,
 * as a re-read after the last put could.
 */
bool hl__rcuref_put_negative(hl_rcuref_t *r)
{
	unsigned int v = atomic_load_explicit(&r->refcnt, memory_order_relaxed);

	return v > HL_RCUREF_MAXREF && put_zone(r, v, false);
}
