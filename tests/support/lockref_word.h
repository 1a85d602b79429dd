// SPDX-License-Identifier: MIT
/*
 * support/lockref_word.h - a lockref's 64-bit word, set and read behind the API's back.
 *
 * lockref_word(n) is the whole word of a lockref with count n and a free
 * lock; lockref_reset(l, n) stores it (nobody else may be using l).
 * lockref_swap_count(l, n) is for the holder of l->lock: it sets the count
 * to n, keeping the lock half as it is (waiters may queue on it meanwhile),
 * and returns the count it replaced.
 *
 * assert_lockref_count(l, want) fails unless hl_lockref_count(l) is want,
 * printing both in decimal. Include after <cmocka.h>.
 */
#ifndef HOTLINE_TESTS_SUPPORT_LOCKREF_WORD_H
#define HOTLINE_TESTS_SUPPORT_LOCKREF_WORD_H

#include <stdint.h>

#include <hotline/lockref.h>

uint64_t lockref_word(int n);
void lockref_reset(struct hl_lockref *l, int n);
int lockref_swap_count(struct hl_lockref *l, int n);

/* A macro: cmocka's failure then names the test's line. */
#define assert_lockref_count(l, want)                                                              \
	do {                                                                                       \
		int got_ = hl_lockref_count(l), want_ = (want);                                    \
		if (got_ != want_)                                                                 \
			fail_msg("lockref count is %d, expected %d (%s)", got_, want_, #want);     \
	} while (0)

#endif /* HOTLINE_TESTS_SUPPORT_LOCKREF_WORD_H */
