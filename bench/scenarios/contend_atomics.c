// SPDX-License-Identifier: MIT
/*
 * scenarios/contend_atomics.c - contend's atomic subjects with the kind of
 * atomics forced at compile time, so that LSE and exclusives compare in
 * one run on one arm64 machine.
 *
 * The bench itself, like the library, is built with GCC's outline atomics:
 * every C11 atomic is a call to a libgcc helper that uses LSE when the CPU
 * has it (HWCAP_ATOMICS) and exclusives otherwise, so atomic_faa & co.
 * measure that run-time choice (env "atomics" says which). This file is
 * compiled twice more (bench/CMakeLists.txt), each time with the copy of
 * the instrumented lockref built with the same flags:
 *
 *   CT_ATOMICS=_llsc  -mno-outline-atomics: inline LDXR/STXR loops (LDAXR,
 *                     STLXR as the ordering asks), the ARMv8.0 way;
 *   CT_ATOMICS=_lse   -march=armv8.1-a: inline LDADD, CAS (and their
 *                     acquire/release forms); runs only where the CPU has
 *                     LSE (contend.c leaves these subjects out elsewhere).
 *
 * The loop and operations are contend's own (contend_loop.h); only the
 * instructions differ. Each subject also pays no call to a helper, which
 * the run-time choice does: atomic_faa_lse against atomic_faa is the
 * price of that call and its flag test.
 */
#include "contend_loop.h"

#ifndef CT_ATOMICS
#error "CT_ATOMICS (_llsc or _lse) is set by bench/CMakeLists.txt"
#endif

#define CT_PASTE_(a, b) a##b
#define CT_PASTE(a, b)	CT_PASTE_(a, b)
#define CT_SFX(name)	CT_PASTE(name, CT_ATOMICS)

/* This kind's copy of the instrumented lockref (lockref_instrumented.h). */
void CT_SFX(hlb_lockref_get)(struct hl_lockref *l);
bool CT_SFX(hlb_lockref_put_or_lock)(struct hl_lockref *l);
void CT_SFX(hlb_lockref_set_retry_limit)(unsigned int n);

static inline void kind_get(struct ct_object *o, struct ct_thread *t)
{
	(void)t;
	CT_SFX(hlb_lockref_get)(&o->lockref);
}

static inline void kind_put(struct ct_object *o, struct ct_thread *t)
{
	lockref_put(o, t, CT_SFX(hlb_lockref_put_or_lock));
}

void *CT_SFX(contend_setup)(const struct bench_params *p)
{
	/* This copy's own limit; contend_setup sets the unsuffixed copy's. */
	CT_SFX(hlb_lockref_set_retry_limit)(p->retry_limit);
	return contend_setup(p);
}

void CT_SFX(contend_run_atomic_faa)(struct bench_worker *w)
{
	ct_loop(w, faa_get, faa_put, faa_check);
}

void CT_SFX(contend_run_cas_loop)(struct bench_worker *w)
{
	ct_loop(w, cas_get, cas_put, faa_check);
}

void CT_SFX(contend_run_refcount)(struct bench_worker *w)
{
	ct_loop(w, refcount_get, refcount_put, refcount_check);
}

void CT_SFX(contend_run_lockref)(struct bench_worker *w)
{
	ct_loop(w, kind_get, kind_put, lockref_check);
}
