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
