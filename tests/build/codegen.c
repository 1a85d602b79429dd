// SPDX-License-Identifier: MIT
/*
 * Functions whose machine code tests/build/codegen.sh inspects: each wraps
 * one refcount fast path, compiled -O2 exactly as a user would.
 */
#include <hotline/refcount.h>

void cg_inc(hl_refcount_t *r);
void cg_dec(hl_refcount_t *r);
bool cg_dec_and_test(hl_refcount_t *r);

void cg_inc(hl_refcount_t *r)
{
	hl_refcount_inc(r);
}

void cg_dec(hl_refcount_t *r)
{
	hl_refcount_dec(r);
}

bool cg_dec_and_test(hl_refcount_t *r)
{
	return hl_refcount_dec_and_test(r);
}

/*
 * rcuref: get one relaxed add, put one release subtract, each tested by one
 * branch. Before qspinlock's: cg_qspin_unlock stays last in .text, where no
 * alignment padding (Clang pads with xchg %ax,%ax) follows it into its body.
 */
#include <hotline/rcuref.h>

bool cg_rcuref_get(hl_rcuref_t *r);
bool cg_rcuref_put(hl_rcuref_t *r);

bool cg_rcuref_get(hl_rcuref_t *r)
{
	return hl_rcuref_get(r);
}

bool cg_rcuref_put(hl_rcuref_t *r)
{
	return hl_rcuref_put(r);
}

/* qspinlock: the inline lock is one cmpxchg from 0, the unlock one byte store. */
#include <hotline/qspinlock.h>

void cg_qspin_lock(hl_qspinlock_t *l);
void cg_qspin_unlock(hl_qspinlock_t *l);

void cg_qspin_lock(hl_qspinlock_t *l)
{
	hl_qspin_lock(l);
}

void cg_qspin_unlock(hl_qspinlock_t *l)
{
	hl_qspin_unlock(l);
}
