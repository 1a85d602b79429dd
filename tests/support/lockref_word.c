// SPDX-License-Identifier: MIT
/*
 * support/lockref_word.c - builds a lockref's word, and swaps its count under the lock.
 */
#include <stdatomic.h>

#include "support/lockref_word.h"

uint64_t lockref_word(int n)
{
	struct hl_lockref t = HL_LOCKREF_INIT(n);

	return atomic_load(&t.lock_count);
}

void lockref_reset(struct hl_lockref *l, int n)
{
	atomic_store(&l->lock_count, lockref_word(n));
}

int lockref_swap_count(struct hl_lockref *l, int n)
{
	uint64_t count_mask = lockref_word(-1);
	uint64_t old = atomic_load(&l->lock_count);
	struct hl_lockref was;

	while (!atomic_compare_exchange_weak(&l->lock_count, &old,
					     (old & ~count_mask) | lockref_word(n)))
		;
	atomic_init(&was.lock_count, old);
	return hl_lockref_count(&was);
}
