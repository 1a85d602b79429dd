/* SPDX-License-Identifier: MIT */
/*
 * refcount_dec_and_lock.c - GenMC client of hl_refcount_dec_and_lock, as
 * src/refcount.c ships it (with hl_qspinlock_t's algorithm): an object
 * on a list the lock guards holds one reference of its owner. The owner
 * puts with dec_and_lock, and whoever takes the count to zero holds the
 * lock, unlinks the object and frees it; a finder looks the object up
 * under the lock and takes a reference with a plain increment (safe only
 * because the count cannot reach zero outside the lock), uses it, and
 * puts it the same way. Exactly one free, after every use.
 */
#include <hotline/refcount.h>

#include "../../src/qspinlock.c"
#include "../../src/refcount.c"
#include "env_stubs.h"
#include "verify.h"

static hl_refcount_t ref = HL_REFCOUNT_INIT(1);
static hl_qspinlock_t lock;
static int listed = 1, object = 1; /* guarded by lock; 0: freed */
static atomic_int frees;

static void put(void)
{
	if (hl_refcount_dec_and_lock(&ref, &lock)) {
		listed = 0;
		hl_qspin_unlock(&lock);
		object = 0;
		atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
	}
}

static void *worker(void *arg)
{
	bool found = true;

	if (VERIFY_ID(arg) == 1) {
		hl_qspin_lock(&lock);
		found = listed;
		if (found)
			hl_refcount_inc(&ref);
		hl_qspin_unlock(&lock);
	}
	if (found) {
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
