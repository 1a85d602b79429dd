/* SPDX-License-Identifier: MIT */
/*
 * refcount_dec.c - GenMC client of the two decrements that do not test
 * for zero: hl_refcount_dec (release), whose put is followed by another
 * holder's dec_and_test reaching zero, and hl_refcount_dec_if_one
 * (release), after which a thread that sees the count at zero and orders
 * itself with an acquire fence reads what the putter wrote. Either
 * decrement without its release is a data race.
 */
#include <hotline/refcount.h>

#include "refcount_stubs.h"
#include "verify.h"

static hl_refcount_t a = HL_REFCOUNT_INIT(2), b = HL_REFCOUNT_INIT(1);
static int data_a, data_b;

static void *worker(void *arg)
{
	if (VERIFY_ID(arg) == 0) {
		data_a = 1;
		hl_refcount_dec(&a);
		data_b = 1;
		assert(hl_refcount_dec_if_one(&b));
	} else {
		if (hl_refcount_read(&a) == 1 && hl_refcount_dec_and_test(&a))
			assert(data_a == 1);
		if (hl_refcount_read(&b) == 0) {
			atomic_thread_fence(memory_order_acquire);
			assert(data_b == 1);
		}
	}
	return NULL;
}

int main(void)
{
	verify_run(2, worker);
	return 0;
}
