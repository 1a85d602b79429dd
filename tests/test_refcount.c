// SPDX-License-Identifier: MIT
/*
 * test_refcount.c - hl_refcount_t in one thread, against the kernel's
 * refcount_t semantics (v6.17; docs/sources.md, refcount).
 *
 * Every case runs with a recording handler installed, so each test can say
 * which kind of bug must have been reported (or that none was), that it was
 * reported exactly once, and that the counter was already saturated when the
 * handler ran. Threads, the default handler and HOTLINE_REFCOUNT are tested
 * in test_refcount_threads.c and test_refcount_handler.c.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/refcount_check.h"
#include "support/watchdog.h"

#include <hotline/refcount.h>

#define SAT HL_REFCOUNT_SATURATED
#define NO_REPORT (-1)

/* What the recording handler saw since the last reset. */
static struct {
	int calls;
	hl_refcount_t *r;			/* r of the last call */
	int type;				/* type of the last call */
	int value;				/* hl_refcount_read(r) inside the last call */
	int unsaturated_calls;			/* calls that found r not saturated */
} seen;

static void record_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	seen.calls++;
	seen.r = r;
	seen.type = (int)t;
	seen.value = hl_refcount_read(r);
	if (seen.value != SAT)
		seen.unsaturated_calls++;
}

static const char *type_name(int t)
{
	switch (t) {
	case NO_REPORT:
		return "no report";
	case HL_REFCOUNT_ADD_NOT_ZERO_OVF:
		return "HL_REFCOUNT_ADD_NOT_ZERO_OVF";
	case HL_REFCOUNT_ADD_OVF:
		return "HL_REFCOUNT_ADD_OVF";
	case HL_REFCOUNT_ADD_UAF:
		return "HL_REFCOUNT_ADD_UAF";
	case HL_REFCOUNT_SUB_UAF:
		return "HL_REFCOUNT_SUB_UAF";
	case HL_REFCOUNT_DEC_LEAK:
		return "HL_REFCOUNT_DEC_LEAK";
	}
	return "(not a saturation type)";
}

/*
 * Check that exactly one report of type want about r happened since the
 * last check (or none, for want == NO_REPORT), then forget it. A macro
 * passes the caller's line, so a failure points at the test.
 */
static void check_reports(const hl_refcount_t *r, int want, const char *file, int line)
{
	int calls = seen.calls, type = seen.type, value = seen.value;
	const hl_refcount_t *got_r = seen.r;
	int unsaturated = seen.unsaturated_calls;

	memset(&seen, 0, sizeof(seen));
	if (want == NO_REPORT) {
		if (calls)
			fail_msg("%s:%d: expected no report, got %d (last: %s)", file, line, calls,
				 type_name(type));
		return;
	}
	if (calls != 1)
		fail_msg("%s:%d: expected exactly one %s report, got %d (last: %s)", file, line,
			 type_name(want), calls, calls ? type_name(type) : "none");
	if (type != want)
		fail_msg("%s:%d: expected a %s report, got %s", file, line, type_name(want),
			 type_name(type));
	if (got_r != r)
		fail_msg("%s:%d: handler got r=%p, expected the counter at %p", file, line,
			 (const void *)got_r, (const void *)r);
	if (unsaturated)
		fail_msg("%s:%d: handler read the count as %d; it must already be "
			 "HL_REFCOUNT_SATURATED (%d) when the handler runs", file, line, value,
			 SAT);
}

#define assert_reported(r, t) check_reports((r), (t), __FILE__, __LINE__)
#define assert_not_reported() check_reports(NULL, NO_REPORT, __FILE__, __LINE__)

static int reset_reports(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof(seen));
	return 0;
}

static int install_recorder(void **state)
{
	(void)state;
	hl_refcount_set_handler(record_report);
	return 0;
}

/* ---- 7. Type, constants, initialiser, set/read ---- */

static void sizeof_refcount_is_4_bytes(void **state)
{
	(void)state;
	assert_int_equal(sizeof(hl_refcount_t), 4);
	assert_int_equal(sizeof(hl_refcount_t), sizeof(int));
}

static void saturated_is_int_min_half_and_max_is_int_max(void **state)
{
	(void)state;
	assert_true(HL_REFCOUNT_SATURATED == INT_MIN / 2);
	assert_true(HL_REFCOUNT_SATURATED == -0x40000000);
	assert_true(HL_REFCOUNT_MAX == INT_MAX);
}

static void saturation_types_have_kernel_values(void **state)
{
	(void)state;
	assert_int_equal(HL_REFCOUNT_ADD_NOT_ZERO_OVF, 0);
	assert_int_equal(HL_REFCOUNT_ADD_OVF, 1);
	assert_int_equal(HL_REFCOUNT_ADD_UAF, 2);
	assert_int_equal(HL_REFCOUNT_SUB_UAF, 3);
	assert_int_equal(HL_REFCOUNT_DEC_LEAK, 4);
}

static void init_macro_sets_the_initial_count(void **state)
{
	static hl_refcount_t file_scope_like = HL_REFCOUNT_INIT(1);
	hl_refcount_t r = HL_REFCOUNT_INIT(7);
	hl_refcount_t big = HL_REFCOUNT_INIT(INT_MAX);
	hl_refcount_t zero = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_count(&file_scope_like, 1);
	assert_count(&r, 7);
	assert_count(&big, INT_MAX);
	assert_count(&zero, 0);
	assert_not_reported();
}

static void set_then_read_round_trips_every_value(void **state)
{
	static const int values[] = {
		0, 1, 2, 1000, INT_MAX - 1, INT_MAX, -1, SAT - 1, SAT, SAT + 1, INT_MIN,
	};
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		hl_refcount_set(&r, values[i]);
		assert_count(&r, values[i]);
	}
	assert_not_reported();
}

/* ---- 1. The semantics table, row by row ---- */

/* add(i) / inc */

static void inc_from_1_gives_2_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	hl_refcount_inc(&r);
	assert_count(&r, 2);
	assert_not_reported();
}

static void add_to_valid_count_adds_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(3);

	(void)state;
	hl_refcount_add(5, &r);
	assert_count(&r, 8);
	hl_refcount_add(0, &r);
	assert_count(&r, 8);
	assert_not_reported();
}

static void inc_on_zero_reports_add_uaf_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	hl_refcount_inc(&r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);
}

static void add_on_zero_reports_add_uaf_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	hl_refcount_add(4, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);
}

/* old == 0 is checked before overflow: a zero count is always ADD_UAF. */
static void add_on_zero_reports_add_uaf_before_overflow(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	hl_refcount_add(INT_MAX, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, 0);
	hl_refcount_add(-1, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, 0);
	hl_refcount_add(0, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);
}

static void inc_on_negative_count_reports_add_ovf_and_saturates(void **state)
{
	static const int negatives[] = { -1, -2, SAT + 1, SAT - 1, INT_MIN };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(negatives) / sizeof(negatives[0]); i++) {
		hl_refcount_set(&r, negatives[i]);
		hl_refcount_inc(&r);
		assert_reported(&r, HL_REFCOUNT_ADD_OVF);
		assert_count(&r, SAT);
	}
}

static void add_past_int_max_reports_add_ovf_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	hl_refcount_add(INT_MAX, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, INT_MAX / 2 + 1);
	hl_refcount_add(INT_MAX / 2 + 1, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

/* add_not_zero(i) / inc_not_zero */

static void inc_not_zero_on_valid_count_returns_true_and_increments(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_true(hl_refcount_inc_not_zero(&r));
	assert_count(&r, 2);
	assert_true(hl_refcount_add_not_zero(10, &r));
	assert_count(&r, 12);
	assert_not_reported();
}

static void add_not_zero_on_zero_returns_false_without_write_or_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_false(hl_refcount_add_not_zero(3, &r));
	assert_count(&r, 0);
	assert_false(hl_refcount_add_not_zero(INT_MAX, &r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void add_not_zero_on_negative_returns_true_and_reports_add_not_zero_ovf(void **state)
{
	static const int negatives[] = { -1, SAT + 3, SAT - 3, INT_MIN };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(negatives) / sizeof(negatives[0]); i++) {
		hl_refcount_set(&r, negatives[i]);
		assert_true(hl_refcount_add_not_zero(2, &r));
		assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
		assert_count(&r, SAT);

		hl_refcount_set(&r, negatives[i]);
		assert_true(hl_refcount_inc_not_zero(&r));
		assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
		assert_count(&r, SAT);
	}
}

static void add_not_zero_past_int_max_returns_true_and_reports_add_not_zero_ovf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_true(hl_refcount_add_not_zero(INT_MAX, &r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

/* sub_and_test(i) / dec_and_test */

static void sub_and_test_is_true_only_at_exactly_zero(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(5);

	(void)state;
	assert_false(hl_refcount_sub_and_test(2, &r));
	assert_count(&r, 3);
	assert_false(hl_refcount_sub_and_test(0, &r));
	assert_count(&r, 3);
	assert_true(hl_refcount_sub_and_test(3, &r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void dec_and_test_from_1_returns_true_and_leaves_0(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_true(hl_refcount_dec_and_test(&r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void dec_and_test_from_2_returns_false_and_leaves_1(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(2);

	(void)state;
	assert_false(hl_refcount_dec_and_test(&r));
	assert_count(&r, 1);
	assert_not_reported();
}

static void dec_and_test_from_int_max_counts_down_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX);

	(void)state;
	assert_false(hl_refcount_dec_and_test(&r));
	assert_count(&r, INT_MAX - 1);
	assert_true(hl_refcount_sub_and_test(INT_MAX - 1, &r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void dec_and_test_on_negative_reports_sub_uaf_and_returns_false(void **state)
{
	static const int negatives[] = { -1, SAT + 1, SAT - 1, INT_MIN };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(negatives) / sizeof(negatives[0]); i++) {
		hl_refcount_set(&r, negatives[i]);
		assert_false(hl_refcount_dec_and_test(&r));
		assert_reported(&r, HL_REFCOUNT_SUB_UAF);
		assert_count(&r, SAT);
	}
}

static void sub_and_test_below_zero_reports_sub_uaf_and_returns_false(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(3);

	(void)state;
	assert_false(hl_refcount_sub_and_test(5, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, 1);
	assert_false(hl_refcount_sub_and_test(INT_MAX, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

/* dec */

static void dec_from_2_leaves_1_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(2);

	(void)state;
	hl_refcount_dec(&r);
	assert_count(&r, 1);
	hl_refcount_set(&r, INT_MAX);
	hl_refcount_dec(&r);
	assert_count(&r, INT_MAX - 1);
	assert_not_reported();
}

static void dec_from_1_reports_dec_leak_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	hl_refcount_dec(&r);
	assert_reported(&r, HL_REFCOUNT_DEC_LEAK);
	assert_count(&r, SAT);
}

static void dec_from_0_or_negative_reports_dec_leak_and_saturates(void **state)
{
	static const int bad[] = { 0, -1, SAT + 1, SAT - 1, INT_MIN };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hl_refcount_set(&r, bad[i]);
		hl_refcount_dec(&r);
		assert_reported(&r, HL_REFCOUNT_DEC_LEAK);
		assert_count(&r, SAT);
	}
}

/* dec_if_one */

static void dec_if_one_from_1_returns_true_and_leaves_0(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_true(hl_refcount_dec_if_one(&r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void dec_if_one_on_any_other_count_returns_false_unchanged_without_report(void **state)
{
	static const int others[] = { 0, 2, 3, INT_MAX, -1, SAT, SAT + 1, INT_MIN };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		hl_refcount_set(&r, others[i]);
		if (hl_refcount_dec_if_one(&r))
			fail_msg("dec_if_one returned true on count %d", others[i]);
		assert_count(&r, others[i]);
		assert_not_reported();
	}
}

/* dec_not_one */

static void dec_not_one_above_1_returns_true_and_decrements(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(3);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, 2);
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, 1);
	hl_refcount_set(&r, INT_MAX);
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, INT_MAX - 1);
	assert_not_reported();
}

static void dec_not_one_on_1_returns_false_unchanged(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_false(hl_refcount_dec_not_one(&r));
	assert_count(&r, 1);
	assert_not_reported();
}

static void dec_not_one_on_saturated_returns_true_unchanged_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, SAT);
	assert_not_reported();
}

/* The kernel's exception: underflow is reported but the count stays at 0. */
static void dec_not_one_on_zero_reports_sub_uaf_returns_true_and_stays_zero(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, 0);
	if (seen.calls != 1 || seen.type != HL_REFCOUNT_SUB_UAF || seen.r != &r)
		fail_msg("expected one HL_REFCOUNT_SUB_UAF report about r, got %d (last: %s)",
			 seen.calls, type_name(seen.calls ? seen.type : NO_REPORT));
	if (seen.value != 0)
		fail_msg("handler read the count as %d; dec_not_one must leave 0 alone",
			 seen.value);
}

/*
 * The kernel's loop only stops early at exactly SATURATED, 1 and 0: any other
 * negative count is decremented like a positive one, without a report.
 */
static void dec_not_one_on_other_negative_count_decrements_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(-5);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, -6);
	hl_refcount_set(&r, SAT + 1);
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, SAT);
	assert_not_reported();
}

/*
 * The same loop at the bottom of the range: INT_MIN - 1 wraps to INT_MAX,
 * which reads as a valid count, and nothing is reported (the kernel's
 * unsigned "new > old" test catches only 0 - 1). A saturated counter is 2^30
 * operations away from INT_MIN.
 */
static void dec_not_one_at_int_min_wraps_to_int_max_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MIN);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, INT_MAX);
	assert_not_reported();
}

/* dec_and_mutex_lock */

static void init_errorcheck_mutex(pthread_mutex_t *m)
{
	pthread_mutexattr_t attr;

	assert_int_equal(pthread_mutexattr_init(&attr), 0);
	assert_int_equal(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK), 0);
	assert_int_equal(pthread_mutex_init(m, &attr), 0);
	pthread_mutexattr_destroy(&attr);
}

/* One thread only: if trylock takes the mutex, nobody (in particular we) held it. */
static void assert_mutex_not_held(pthread_mutex_t *m)
{
	int err = pthread_mutex_trylock(m);

	if (err != 0)
		fail_msg("mutex: trylock returned %d (%s), expected 0: the mutex is still held",
			 err, strerror(err));
	assert_int_equal(pthread_mutex_unlock(m), 0);
}

static void dec_and_mutex_lock_from_1_returns_true_with_mutex_held_and_count_0(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);
	pthread_mutex_t m;
	int err;

	(void)state;
	init_errorcheck_mutex(&m);
	assert_true(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 0);
	err = pthread_mutex_trylock(&m);
	if (err != EBUSY)
		fail_msg("trylock after dec_and_mutex_lock returned %d (%s), expected EBUSY: "
			 "the mutex must be held", err, strerror(err));
	/* An errorcheck mutex: unlock succeeds only for the thread that holds it. */
	err = pthread_mutex_unlock(&m);
	if (err)
		fail_msg("unlock after dec_and_mutex_lock returned %d (%s): mutex was not held",
			 err, strerror(err));
	assert_not_reported();
	pthread_mutex_destroy(&m);
}

static void dec_and_mutex_lock_from_3_returns_false_count_2_mutex_not_held(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(3);
	pthread_mutex_t m;

	(void)state;
	init_errorcheck_mutex(&m);
	assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 2);
	assert_mutex_not_held(&m);
	assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 1);
	assert_mutex_not_held(&m);
	assert_not_reported();
	pthread_mutex_destroy(&m);
}

static void dec_and_mutex_lock_on_saturated_returns_false_unchanged_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);
	pthread_mutex_t m;

	(void)state;
	init_errorcheck_mutex(&m);
	assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, SAT);
	assert_mutex_not_held(&m);
	assert_not_reported();
	pthread_mutex_destroy(&m);
}

/* Through dec_not_one: the underflow is reported, the count stays 0. */
static void dec_and_mutex_lock_on_zero_reports_sub_uaf_and_returns_false(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);
	pthread_mutex_t m;

	(void)state;
	init_errorcheck_mutex(&m);
	assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
	assert_count(&r, 0);
	if (seen.calls != 1 || seen.type != HL_REFCOUNT_SUB_UAF)
		fail_msg("expected one HL_REFCOUNT_SUB_UAF report, got %d (last: %s)",
			 seen.calls, type_name(seen.calls ? seen.type : NO_REPORT));
	assert_mutex_not_held(&m);
	pthread_mutex_destroy(&m);
}

/* Through dec_not_one: a negative count other than SATURATED is decremented, unreported. */
static void dec_and_mutex_lock_on_negative_count_decrements_and_returns_false(void **state)
{
	static const struct {
		int from, to;
	} cases[] = { { -5, -6 }, { INT_MIN, INT_MAX } };
	hl_refcount_t r;
	pthread_mutex_t m;

	(void)state;
	init_errorcheck_mutex(&m);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hl_refcount_set(&r, cases[i].from);
		assert_false(hl_refcount_dec_and_mutex_lock(&r, &m));
		assert_count(&r, cases[i].to);
		assert_mutex_not_held(&m);
		assert_not_reported();
	}
	pthread_mutex_destroy(&m);
}

/* ---- 2. Every operation from a saturated start ---- */

static void saturated_inc_reports_add_ovf_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	hl_refcount_inc(&r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

static void saturated_add_reports_add_ovf_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	hl_refcount_add(1000, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

static void saturated_inc_not_zero_returns_true_reports_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_true(hl_refcount_inc_not_zero(&r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

static void saturated_add_not_zero_returns_true_reports_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_true(hl_refcount_add_not_zero(1000, &r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

static void saturated_dec_reports_dec_leak_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	hl_refcount_dec(&r);
	assert_reported(&r, HL_REFCOUNT_DEC_LEAK);
	assert_count(&r, SAT);
}

static void saturated_dec_and_test_returns_false_reports_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_false(hl_refcount_dec_and_test(&r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

static void saturated_sub_and_test_returns_false_reports_and_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_false(hl_refcount_sub_and_test(1000, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

static void saturated_dec_not_one_returns_true_unchanged_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_true(hl_refcount_dec_not_one(&r));
	assert_count(&r, SAT);
	assert_not_reported();
}

static void saturated_dec_if_one_returns_false_unchanged_without_report(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);

	(void)state;
	assert_false(hl_refcount_dec_if_one(&r));
	assert_count(&r, SAT);
	assert_not_reported();
}

/* Every operation as bool f(r, i), for the mixed sequence below; void ones return false. */
static pthread_mutex_t op_mutex = PTHREAD_MUTEX_INITIALIZER;

static bool op_inc(hl_refcount_t *r, int i)
{
	(void)i;
	hl_refcount_inc(r);
	return false;
}

static bool op_add(hl_refcount_t *r, int i)
{
	hl_refcount_add(i, r);
	return false;
}

static bool op_inc_not_zero(hl_refcount_t *r, int i)
{
	(void)i;
	return hl_refcount_inc_not_zero(r);
}

static bool op_add_not_zero(hl_refcount_t *r, int i)
{
	return hl_refcount_add_not_zero(i, r);
}

static bool op_dec(hl_refcount_t *r, int i)
{
	(void)i;
	hl_refcount_dec(r);
	return false;
}

static bool op_dec_and_test(hl_refcount_t *r, int i)
{
	(void)i;
	return hl_refcount_dec_and_test(r);
}

static bool op_sub_and_test(hl_refcount_t *r, int i)
{
	return hl_refcount_sub_and_test(i, r);
}

static bool op_dec_not_one(hl_refcount_t *r, int i)
{
	(void)i;
	return hl_refcount_dec_not_one(r);
}

static bool op_dec_if_one(hl_refcount_t *r, int i)
{
	(void)i;
	return hl_refcount_dec_if_one(r);
}

static bool op_dec_and_mutex_lock(hl_refcount_t *r, int i)
{
	(void)i;
	return hl_refcount_dec_and_mutex_lock(r, &op_mutex);
}

static const struct saturated_op {
	const char *name;
	bool (*run)(hl_refcount_t *r, int i);
	bool returns;		/* what it must return on a saturated counter */
	bool reports;		/* whether it reports (and resets to SATURATED) */
} saturated_ops[] = {
	{ "inc", op_inc, false, true },
	{ "add", op_add, false, true },
	{ "inc_not_zero", op_inc_not_zero, true, true },
	{ "add_not_zero", op_add_not_zero, true, true },
	{ "dec", op_dec, false, true },
	{ "dec_and_test", op_dec_and_test, false, true },
	{ "sub_and_test", op_sub_and_test, false, true },
	{ "dec_not_one", op_dec_not_one, true, false },
	{ "dec_if_one", op_dec_if_one, false, false },
	{ "dec_and_mutex_lock", op_dec_and_mutex_lock, false, false },
};
#define NSATURATED_OPS (sizeof(saturated_ops) / sizeof(saturated_ops[0]))

/* A long mixed sequence: after every single operation the count is SATURATED. */
static void saturated_stays_saturated(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);
	int reports = 0;

	(void)state;
	for (int i = 1; i <= 3000; i++) {
		const struct saturated_op *op = &saturated_ops[(unsigned int)i % NSATURATED_OPS];
		bool ret = op->run(&r, i);

		if (ret != op->returns)
			fail_msg("operation %d, %s(%d): returned %d on a saturated counter, "
				 "expected %d", i, op->name, i, ret, op->returns);
		if (hl_refcount_read(&r) != SAT)
			fail_msg("operation %d, %s(%d): the count is %d, expected %d", i, op->name,
				 i, hl_refcount_read(&r), SAT);
		reports += op->reports;
	}
	assert_int_equal(seen.calls, reports);
	assert_int_equal(seen.unsaturated_calls, 0);
}

/* ---- 3. Overflow edges ---- */

static void inc_from_int_max_minus_1_reaches_int_max(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX - 1);

	(void)state;
	hl_refcount_inc(&r);
	assert_count(&r, INT_MAX);
	assert_not_reported();
}

static void inc_from_int_max_saturates_with_add_ovf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX - 1);

	(void)state;
	hl_refcount_inc(&r);
	assert_not_reported();
	hl_refcount_inc(&r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

static void add_2_from_int_max_minus_1_saturates_with_add_ovf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX - 1);

	(void)state;
	hl_refcount_add(2, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

static void add_0_to_int_max_is_not_an_overflow(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX);

	(void)state;
	hl_refcount_add(0, &r);
	assert_count(&r, INT_MAX);
	assert_true(hl_refcount_add_not_zero(0, &r));
	assert_count(&r, INT_MAX);
	assert_not_reported();
}

static void add_not_zero_1_from_int_max_minus_1_reaches_int_max(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX - 1);

	(void)state;
	assert_true(hl_refcount_add_not_zero(1, &r));
	assert_count(&r, INT_MAX);
	assert_not_reported();
}

static void add_not_zero_2_from_int_max_minus_1_saturates_and_returns_true(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX - 1);

	(void)state;
	assert_true(hl_refcount_add_not_zero(2, &r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

static void inc_not_zero_from_int_max_saturates_and_returns_true(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(INT_MAX);

	(void)state;
	assert_true(hl_refcount_inc_not_zero(&r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

static void sub_and_test_more_than_count_saturates_with_sub_uaf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(10);

	(void)state;
	assert_false(hl_refcount_sub_and_test(11, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

static void sub_and_test_whole_count_returns_true_and_leaves_zero(void **state)
{
	static const int counts[] = { 1, 2, 7, 1 << 20, INT_MAX - 1, INT_MAX };
	hl_refcount_t r;

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		hl_refcount_set(&r, counts[i]);
		if (!hl_refcount_sub_and_test(counts[i], &r))
			fail_msg("sub_and_test(%d) from %d returned false", counts[i], counts[i]);
		assert_count(&r, 0);
		assert_not_reported();
	}
}

/* ---- 4. Zero ---- */

static void inc_not_zero_on_zero_returns_false_and_stays_zero(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_false(hl_refcount_inc_not_zero(&r));
	assert_count(&r, 0);
	assert_not_reported();
}

static void dec_and_test_on_zero_reports_sub_uaf_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_false(hl_refcount_dec_and_test(&r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

static void sub_and_test_on_zero_reports_sub_uaf_even_for_zero_i(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	assert_false(hl_refcount_sub_and_test(0, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

/* Freed, then used again: each use of the dead count is caught. */
static void dec_and_test_to_zero_then_inc_reports_add_uaf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	(void)state;
	assert_true(hl_refcount_dec_and_test(&r));
	assert_not_reported();
	hl_refcount_inc(&r);
	assert_reported(&r, HL_REFCOUNT_ADD_UAF);
	assert_count(&r, SAT);
}

/* ---- 5. Misuse the header documents: a negative i ---- */

static void add_negative_i_saturates_with_add_ovf(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(5);

	(void)state;
	hl_refcount_add(-1, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, 5);
	hl_refcount_add(INT_MIN, &r);
	assert_reported(&r, HL_REFCOUNT_ADD_OVF);
	assert_count(&r, SAT);
}

static void add_not_zero_negative_i_returns_true_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(5);

	(void)state;
	assert_true(hl_refcount_add_not_zero(-1, &r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);

	/* -1 from 1 writes 0 for a moment; it must still end saturated. */
	hl_refcount_set(&r, 1);
	assert_true(hl_refcount_add_not_zero(-1, &r));
	assert_reported(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_count(&r, SAT);
}

static void sub_and_test_negative_i_returns_false_and_saturates(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(5);

	(void)state;
	assert_false(hl_refcount_sub_and_test(-1, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);

	hl_refcount_set(&r, 5);
	assert_false(hl_refcount_sub_and_test(INT_MIN, &r));
	assert_reported(&r, HL_REFCOUNT_SUB_UAF);
	assert_count(&r, SAT);
}

#define T(f) cmocka_unit_test_setup(f, reset_reports)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(sizeof_refcount_is_4_bytes),
		T(saturated_is_int_min_half_and_max_is_int_max),
		T(saturation_types_have_kernel_values),
		T(init_macro_sets_the_initial_count),
		T(set_then_read_round_trips_every_value),

		T(inc_from_1_gives_2_without_report),
		T(add_to_valid_count_adds_without_report),
		T(inc_on_zero_reports_add_uaf_and_saturates),
		T(add_on_zero_reports_add_uaf_and_saturates),
		T(add_on_zero_reports_add_uaf_before_overflow),
		T(inc_on_negative_count_reports_add_ovf_and_saturates),
		T(add_past_int_max_reports_add_ovf_and_saturates),
		T(inc_not_zero_on_valid_count_returns_true_and_increments),
		T(add_not_zero_on_zero_returns_false_without_write_or_report),
		T(add_not_zero_on_negative_returns_true_and_reports_add_not_zero_ovf),
		T(add_not_zero_past_int_max_returns_true_and_reports_add_not_zero_ovf),
		T(sub_and_test_is_true_only_at_exactly_zero),
		T(dec_and_test_from_1_returns_true_and_leaves_0),
		T(dec_and_test_from_2_returns_false_and_leaves_1),
		T(dec_and_test_from_int_max_counts_down_without_report),
		T(dec_and_test_on_negative_reports_sub_uaf_and_returns_false),
		T(sub_and_test_below_zero_reports_sub_uaf_and_returns_false),
		T(dec_from_2_leaves_1_without_report),
		T(dec_from_1_reports_dec_leak_and_saturates),
		T(dec_from_0_or_negative_reports_dec_leak_and_saturates),
		T(dec_if_one_from_1_returns_true_and_leaves_0),
		T(dec_if_one_on_any_other_count_returns_false_unchanged_without_report),
		T(dec_not_one_above_1_returns_true_and_decrements),
		T(dec_not_one_on_1_returns_false_unchanged),
		T(dec_not_one_on_saturated_returns_true_unchanged_without_report),
		T(dec_not_one_on_zero_reports_sub_uaf_returns_true_and_stays_zero),
		T(dec_not_one_on_other_negative_count_decrements_without_report),
		T(dec_not_one_at_int_min_wraps_to_int_max_without_report),
		T(dec_and_mutex_lock_from_1_returns_true_with_mutex_held_and_count_0),
		T(dec_and_mutex_lock_from_3_returns_false_count_2_mutex_not_held),
		T(dec_and_mutex_lock_on_saturated_returns_false_unchanged_without_report),
		T(dec_and_mutex_lock_on_zero_reports_sub_uaf_and_returns_false),
		T(dec_and_mutex_lock_on_negative_count_decrements_and_returns_false),

		T(saturated_inc_reports_add_ovf_and_stays_saturated),
		T(saturated_add_reports_add_ovf_and_stays_saturated),
		T(saturated_inc_not_zero_returns_true_reports_and_stays_saturated),
		T(saturated_add_not_zero_returns_true_reports_and_stays_saturated),
		T(saturated_dec_reports_dec_leak_and_stays_saturated),
		T(saturated_dec_and_test_returns_false_reports_and_stays_saturated),
		T(saturated_sub_and_test_returns_false_reports_and_stays_saturated),
		T(saturated_dec_not_one_returns_true_unchanged_without_report),
		T(saturated_dec_if_one_returns_false_unchanged_without_report),
		T(saturated_stays_saturated),

		T(inc_from_int_max_minus_1_reaches_int_max),
		T(inc_from_int_max_saturates_with_add_ovf),
		T(add_2_from_int_max_minus_1_saturates_with_add_ovf),
		T(add_0_to_int_max_is_not_an_overflow),
		T(add_not_zero_1_from_int_max_minus_1_reaches_int_max),
		T(add_not_zero_2_from_int_max_minus_1_saturates_and_returns_true),
		T(inc_not_zero_from_int_max_saturates_and_returns_true),
		T(sub_and_test_more_than_count_saturates_with_sub_uaf),
		T(sub_and_test_whole_count_returns_true_and_leaves_zero),

		T(inc_not_zero_on_zero_returns_false_and_stays_zero),
		T(dec_and_test_on_zero_reports_sub_uaf_and_saturates),
		T(sub_and_test_on_zero_reports_sub_uaf_even_for_zero_i),
		T(dec_and_test_to_zero_then_inc_reports_add_uaf),

		T(add_negative_i_saturates_with_add_ovf),
		T(add_not_zero_negative_i_returns_true_and_saturates),
		T(sub_and_test_negative_i_returns_false_and_saturates),
	};

	watchdog_start(60, "test_refcount");
	return cmocka_run_group_tests(tests, install_recorder, restore_default_handler);
}
