// SPDX-License-Identifier: MIT
/*
 * refcount.c - the rare paths of hotline/refcount.h: saturation reporting,
 * and the two operations that need a loop or a lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotline/refcount.h>

#include "env.h"
/* The reports' probes read the counter: only while a tracer is attached. */
#define HL_PROBE_SEMAPHORES
#include "probes.h"
#include "refcount_report.h"

HL_PROBE_SEMAPHORE(refcount_report);
HL_PROBE_SEMAPHORE(refcount_saturate);

static _Atomic(hl_refcount_handler_t) handler; /* NULL: the default handler */
static atomic_uint reported;		       /* default handler: bit per kind */

enum report_mode { MODE_UNREAD, MODE_WARN, MODE_ABORT };
static atomic_int report_mode;

static const char *const kind_text[] = {
	[HL_REFCOUNT_ADD_NOT_ZERO_OVF] = "increment-not-zero overflowed; saturated, object leaks",
	[HL_REFCOUNT_ADD_OVF] =
		"increment overflowed or hit a negative count; saturated, object leaks",
	[HL_REFCOUNT_ADD_UAF] = "increment of a zero count; use after free",
	[HL_REFCOUNT_SUB_UAF] = "decrement below zero; use after free",
	[HL_REFCOUNT_DEC_LEAK] = "decrement reached zero without a test; object leaks",
	[HL_RCUREF_GET_OVF] = "get overflowed; saturated, object leaks",
	[HL_RCUREF_PUT_UAF] = "put on a dead count; use after release",
};

static const char *kind_name(enum hl_refcount_saturation t)
{
	if ((unsigned int)t < sizeof(kind_text) / sizeof(kind_text[0]))
		return kind_text[t];
	return "unknown refcount error";
}

/*
 * HOTLINE_REFCOUNT=abort|warn, read once (env.h's rule): unset means warn; any
 * other value is reported in one line and means warn, never abort. Only the
 * first reader reports, so racing first calls print one line between them.
 */
static enum report_mode mode(void)
{
	int m = atomic_load_explicit(&report_mode, memory_order_relaxed);
	int unread = MODE_UNREAD;
	const char *env;

	if (m != MODE_UNREAD)
		return m;
	env = getenv("HOTLINE_REFCOUNT");
	m = env && strcmp(env, "abort") == 0 ? MODE_ABORT : MODE_WARN;
	if (!atomic_compare_exchange_strong_explicit(&report_mode, &unread, m, memory_order_relaxed,
						     memory_order_relaxed))
		return unread;
	if (env && m == MODE_WARN && strcmp(env, "warn") != 0)
		hl__env_report("HOTLINE_REFCOUNT", env,
			       "not understood (expected warn or abort); using warn");
	return m;
}

/* Read at load time, so that a value not understood is said at start-up, not at the first bug. */
__attribute__((constructor)) static void mode_at_load(void)
{
	mode();
}

void hl__refcount_default_report(const char *what, const void *counter,
				 enum hl_refcount_saturation t)
{
	unsigned int bit = 1u << ((unsigned int)t & 31);

	if (mode() == MODE_ABORT) {
		fprintf(stderr, "hotline: %s %p: %s (HOTLINE_REFCOUNT=abort)\n", what, counter,
			kind_name(t));
		abort();
	}
	if (atomic_fetch_or_explicit(&reported, bit, memory_order_relaxed) & bit)
		return;
	fprintf(stderr, "hotline: %s %p: %s\n", what, counter, kind_name(t));
}

static void default_handler(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	hl__refcount_default_report("refcount", r, t);
}

hl_refcount_handler_t hl_refcount_set_handler(hl_refcount_handler_t h)
{
	return atomic_exchange_explicit(&handler, h, memory_order_acq_rel);
}

void hl__refcount_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	hl_refcount_handler_t h = atomic_load_explicit(&handler, memory_order_acquire);

	if (HL_PROBE_ENABLED(refcount_report))
		HL_PROBE(refcount_report, r, t,
			 atomic_load_explicit(&r->refs, memory_order_relaxed));
	(h ? h : default_handler)(r, t);
}

void hl__refcount_saturate(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	HL_PROBE(refcount_saturate, r, t);
	atomic_store_explicit(&r->refs, HL_REFCOUNT_SATURATED, memory_order_relaxed);
	hl__refcount_report(r, t);
}

bool hl__refcount_sub_and_test_uaf(hl_refcount_t *r)
{
	hl__refcount_saturate(r, HL_REFCOUNT_SUB_UAF);
	return false;
}

bool hl_refcount_dec_not_one(hl_refcount_t *r)
{
	int val = atomic_load_explicit(&r->refs, memory_order_relaxed);

	do {
		if (hl_unlikely(val == HL_REFCOUNT_SATURATED))
			return true;
		if (val == 1)
			return false;
		if (hl_unlikely(val == 0)) {
			/* Underflow: say so, but leave the count alone (kernel behaviour). */
			hl__refcount_report(r, HL_REFCOUNT_SUB_UAF);
			return true;
		}
	} while (!atomic_compare_exchange_weak_explicit(
		&r->refs, &val, hl__refcount_wrap_sub(val, 1), memory_order_release,
		memory_order_relaxed));
	return true;
}

bool hl_refcount_dec_and_mutex_lock(hl_refcount_t *r, pthread_mutex_t *m)
{
	if (hl_refcount_dec_not_one(r))
		return false;

	pthread_mutex_lock(m);
	if (!hl_refcount_dec_and_test(r)) {
		pthread_mutex_unlock(m);
		return false;
	}
	return true;
}

bool hl_refcount_dec_and_lock(hl_refcount_t *r, hl_qspinlock_t *lock)
{
	if (hl_refcount_dec_not_one(r))
		return false;

	hl_qspin_lock(lock);
	if (!hl_refcount_dec_and_test(r)) {
		hl_qspin_unlock(lock);
		return false;
	}
	return true;
}
