/* SPDX-License-Identifier: MIT */
/*
 * refcount_inc_not_zero.c - GenMC client of hl_refcount_inc_not_zero
 * against the last put. The owner uses the object (plain memory) and puts
 * the one reference; a finder tries inc_not_zero (the object's memory is
 * kept valid, as RCU would), and if it got a reference uses the object
 * and puts it. Exactly one put reaches zero and frees (writes the object
 * dead); no use comes after the free, and the free comes after every use
 * (a data race or a failed assertion otherwise).
 */
#include <hotline/refcount.h>

#include "refcount_stubs.h"
#include "verify.h"

static hl_refcount_t ref = HL_REFCOUNT_INIT(1);
static int object = 1; /* 0: freed */
static atomic_int frees;

static void put(void)
{
	if (hl_refcount_dec_and_test(&ref)) {
		object = 0;
		atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
	}
}

static void *worker(void *arg)
{
	if (VERIFY_ID(arg) == 0) {
		assert(object == 1);
		put();
	} else if (hl_refcount_inc_not_zero(&ref)) {
		assert(object == 1);
		put();
	}
	return NULL;
}

int main(void)
{
	verify_run(2, worker);
	assert(atomic_load_explicit(&frees, memory_order_relaxed) == 1 && object == 0);
	return 0;
}
