/* SPDX-License-Identifier: MIT */
/*
 * refcount_dec_and_test.c - GenMC client of hl_refcount_dec_and_test:
 * two threads each write their own datum (plain memory) and put their
 * reference; exactly one sees zero, and it reads both data. A put that is
 * not release, or a zero without acquire, is a data race or a failed
 * assertion.
 */
#include <hotline/refcount.h>

#include "refcount_stubs.h"
#include "verify.h"

static hl_refcount_t ref = HL_REFCOUNT_INIT(2);
static int data[2];
static atomic_int zeros;

static void *put(void *arg)
{
	int me = VERIFY_ID(arg);

	data[me] = me + 1;
	if (hl_refcount_dec_and_test(&ref)) {
		assert(data[0] == 1 && data[1] == 2);
		atomic_fetch_add_explicit(&zeros, 1, memory_order_relaxed);
	}
	return NULL;
}

int main(void)
{
	verify_run(2, put);
	assert(atomic_load_explicit(&zeros, memory_order_relaxed) == 1);
	return 0;
}
