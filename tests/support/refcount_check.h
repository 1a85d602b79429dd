// SPDX-License-Identifier: MIT
/*
 * support/refcount_check.h - checking a refcount's value, and putting its default handler back.
 *
 * assert_count(r, want) fails unless the refcount r reads exactly want,
 * printing both in decimal (cmocka would print negative ints as 64-bit
 * hex). Include after <cmocka.h>.
 *
 * restore_default_handler is a cmocka group teardown that puts back the
 * default refcount handler, hl_refcount_set_handler(NULL).
 */
#ifndef HOTLINE_TESTS_SUPPORT_REFCOUNT_CHECK_H
#define HOTLINE_TESTS_SUPPORT_REFCOUNT_CHECK_H

#include <hotline/refcount.h>

int restore_default_handler(void **state);

/* A macro: cmocka's failure then names the test's line. */
#define assert_count(r, want)                                                                      \
	do {                                                                                       \
		int got_ = hl_refcount_read(r), want_ = (want);                                    \
		if (got_ != want_)                                                                 \
			fail_msg("count is %d, expected %d (%s)", got_, want_, #want);             \
	} while (0)

#endif /* HOTLINE_TESTS_SUPPORT_REFCOUNT_CHECK_H */
