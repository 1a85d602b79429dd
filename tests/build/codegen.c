// SPDX-License-Identifier: MIT
/*
 * Functions whose machine code tests/build/codegen.sh inspects: each wraps
 * one refcount fast path, compiled -O2 exactly as a user would.
 */
#include <hotline/refcount.h>

/*
 * CG(RET, NAME, T, CALL): RET NAME(T *p), declared (for -Wmissing-prototypes) and defined as
 * one call of CALL(p); CG_VOID the same for a call without a result.
 */
#define CG(ret, name, T, call)                                                                     \
	ret name(T *p);                                                                            \
	ret name(T *p)                                                                             \
	{                                                                                          \
		return call(p);                                                                    \
	}
#define CG_VOID(name, T, call)                                                                     \
	void name(T *p);                                                                           \
	void name(T *p)                                                                            \
	{                                                                                          \
		call(p);                                                                           \
	}

CG_VOID(cg_inc, hl_refcount_t, hl_refcount_inc)
CG_VOID(cg_dec, hl_refcount_t, hl_refcount_dec)
CG(bool, cg_dec_and_test, hl_refcount_t, hl_refcount_dec_and_test)

/*
 * A loop of increments, as a benchmark or a batch of gets writes one: the
 * never-taken branch to the saturation path must leave the loop's back
 * edge a conditional branch, not a jmp back to a test at its top.
 */
void cg_inc_loop(hl_refcount_t *p, unsigned long n);
void cg_inc_loop(hl_refcount_t *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		hl_refcount_inc(p);
}

/* A get and a put per pass, as a user's loop over lookups does. */
void cg_get_put_loop(hl_refcount_t *p, unsigned long n);
void cg_get_put_loop(hl_refcount_t *p, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		hl_refcount_inc(p);
		if (hl_refcount_dec_and_test(p))
			break;
	}
}

/*
 * rcuref: get one relaxed add, put one release subtract, each tested by one
 * branch. Before qspinlock's: cg_qspin_unlock stays last in .text, where no
 * alignment padding (Clang pads with xchg %ax,%ax) follows it into its body.
 */
#include <hotline/rcuref.h>

CG(bool, cg_rcuref_get, hl_rcuref_t, hl_rcuref_get)
CG(bool, cg_rcuref_put, hl_rcuref_t, hl_rcuref_put)

/* qspinlock: the inline lock is one cmpxchg from 0, the unlock one byte store. */
#include <hotline/qspinlock.h>

CG_VOID(cg_qspin_lock, hl_qspinlock_t, hl_qspin_lock)
CG_VOID(cg_qspin_unlock, hl_qspinlock_t, hl_qspin_unlock)
