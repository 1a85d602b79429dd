// SPDX-License-Identifier: MIT
/*
 * test_refcount.c - hl_refcount_t in one thread, against the kernel's
 * refcount_t semantics (v6.17; docs/sources.md, refcount).
 *
 * The semantics are one table, rows[] below: a count to start from, an
 * operation (and its i), what it must return, the count it must leave and
 * the report it must make, or none. One runner, run_row, checks a row; each
 * row is its own cmocka test, named from its fields, so that a failure says
 * which case broke, e.g. "sub_and_test(5) on 3: returns false, count SAT,
 * reports SUB_UAF". SAT is HL_REFCOUNT_SATURATED, reports are named without
 * their HL_REFCOUNT_ prefix.
 *
 * Every case runs with a recording handler installed, so a row says which
 * kind of bug must have been reported (or that none was), and the runner
 * checks that it was reported exactly once, about this counter, and that
 * the handler already read the count the operation leaves: SATURATED, but
 * for the underflow dec_not_one reports at 0 and leaves at 0. The rows of
 * dec_and_mutex_lock also check that the mutex is held exactly when it
 * returns true.
 *
 * Beside the table: the type and constants, the initialiser, set and read,
 * and a long mixed sequence from SATURATED whose expectations are the
 * table's rows that start there. Threads, the default handler and
 * HOTLINE_REFCOUNT are tested in test_refcount_threads.c and
 * test_refcount_handler.c.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/refcount_check.h"
#include "support/watchdog.h"

#include <hotline/refcount.h>

#define SAT	  HL_REFCOUNT_SATURATED
#define NO_REPORT (-1)
#define N_OF(a)	  (sizeof(a) / sizeof((a)[0]))

/* The kinds of report, as the table writes them: the kernel's names. */
#define ADD_NOT_ZERO_OVF HL_REFCOUNT_ADD_NOT_ZERO_OVF
#define ADD_OVF		 HL_REFCOUNT_ADD_OVF
#define ADD_UAF		 HL_REFCOUNT_ADD_UAF
#define SUB_UAF		 HL_REFCOUNT_SUB_UAF
#define DEC_LEAK	 HL_REFCOUNT_DEC_LEAK

/* ---- The recording handler ---- */

/* What the recording handler saw since the last reset. */
static struct {
	int calls;
	hl_refcount_t *r;      /* r of the last call */
	int type;	       /* type of the last call */
	int value;	       /* hl_refcount_read(r) inside the last call */
	int unsaturated_calls; /* calls that found r not saturated */
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
	case NO_REPORT: return "no report";
	case HL_REFCOUNT_ADD_NOT_ZERO_OVF: return "HL_REFCOUNT_ADD_NOT_ZERO_OVF";
	case HL_REFCOUNT_ADD_OVF: return "HL_REFCOUNT_ADD_OVF";
	case HL_REFCOUNT_ADD_UAF: return "HL_REFCOUNT_ADD_UAF";
	case HL_REFCOUNT_SUB_UAF: return "HL_REFCOUNT_SUB_UAF";
	case HL_REFCOUNT_DEC_LEAK: return "HL_REFCOUNT_DEC_LEAK";
	}
	return "(not a saturation type)";
}

/*
 * Check that exactly one report of type want about r happened since the
 * last check, with the handler reading the count as value (or that none
 * happened, for want == NO_REPORT), then forget it. A macro passes the
 * caller's line, so a failure points at the test.
 */
static void check_reports(const hl_refcount_t *r, int want, int value, const char *file, int line)
{
	int calls = seen.calls, type = seen.type, got_value = seen.value;
	const hl_refcount_t *got_r = seen.r;

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
	if (got_value != value)
		fail_msg("%s:%d: handler read the count as %d; it must already be %d, the count "
			 "the operation leaves (HL_REFCOUNT_SATURATED is %d)",
			 file, line, got_value, value, SAT);
}

#define assert_reported(r, t, value) check_reports((r), (t), (value), __FILE__, __LINE__)
#define assert_not_reported()	     check_reports(NULL, NO_REPORT, 0, __FILE__, __LINE__)

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

/* ---- The operations ---- */

/* The operations, in the order the mixed sequence from SATURATED cycles through them. */
enum op {
	INC,
	ADD,
	INC_NOT_ZERO,
	ADD_NOT_ZERO,
	DEC,
	DEC_AND_TEST,
	SUB_AND_TEST,
	DEC_NOT_ONE,
	DEC_IF_ONE,
	DEC_AND_MUTEX_LOCK,
	N_OPS
};

static const struct {
	const char *name;
	bool takes_i; /* add/sub(i, r); the others ignore a row's i */
	bool returns; /* bool; the others are void */
} ops[N_OPS] = {
	[INC] = {"inc", false, false},
	[ADD] = {"add", true, false},
	[INC_NOT_ZERO] = {"inc_not_zero", false, true},
	[ADD_NOT_ZERO] = {"add_not_zero", true, true},
	[DEC_AND_TEST] = {"dec_and_test", false, true},
	[SUB_AND_TEST] = {"sub_and_test", true, true},
	[DEC] = {"dec", false, false},
	[DEC_IF_ONE] = {"dec_if_one", false, true},
	[DEC_NOT_ONE] = {"dec_not_one", false, true},
	[DEC_AND_MUTEX_LOCK] = {"dec_and_mutex_lock", false, true},
};

/* What an operation returned: false or true, or NOTHING for a void one. */
enum ret { NOTHING = -1, RET_FALSE = 0, RET_TRUE = 1 };

/* Run op on r (with i, and m for dec_and_mutex_lock). */
static enum ret apply(enum op op, hl_refcount_t *r, int i, pthread_mutex_t *m)
{
	switch (op) {
	case INC: hl_refcount_inc(r); return NOTHING;
	case ADD: hl_refcount_add(i, r); return NOTHING;
	case INC_NOT_ZERO: return hl_refcount_inc_not_zero(r);
	case ADD_NOT_ZERO: return hl_refcount_add_not_zero(i, r);
	case DEC_AND_TEST: return hl_refcount_dec_and_test(r);
	case SUB_AND_TEST: return hl_refcount_sub_and_test(i, r);
	case DEC: hl_refcount_dec(r); return NOTHING;
	case DEC_IF_ONE: return hl_refcount_dec_if_one(r);
	case DEC_NOT_ONE: return hl_refcount_dec_not_one(r);
	case DEC_AND_MUTEX_LOCK: return hl_refcount_dec_and_mutex_lock(r, m);
	case N_OPS: break;
	}
	fail_msg("operation %d is not in the table of operations", (int)op);
	return NOTHING;
}

/* ---- The semantics table ---- */

struct row {
	int start;    /* the count before */
	enum op op;   /* the operation */
	int i;	      /* its i (add, add_not_zero, sub_and_test); 0 for the others */
	enum ret ret; /* what it returns */
	int end;      /* the count after */
	int report;   /* the one report it makes, or NO_REPORT */
};

/* One row per line, its fields in columns: clang-format would undo the columns. */
/* clang-format off */
static const struct row rows[] = {
	/* inc, add(i): ADD_UAF on 0, for any i (checked before overflow); ADD_OVF from a
	 * negative count, past INT_MAX, or for i < 0 */
	{1,               INC,          0,               NOTHING,   2,           NO_REPORT},
	{INT_MAX - 1,     INC,          0,               NOTHING,   INT_MAX,     NO_REPORT},
	{0,               INC,          0,               NOTHING,   SAT,         ADD_UAF},
	{INT_MAX,         INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{-1,              INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{-2,              INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{SAT + 1,         INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{SAT - 1,         INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{INT_MIN,         INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{SAT,             INC,          0,               NOTHING,   SAT,         ADD_OVF},
	{3,               ADD,          5,               NOTHING,   8,           NO_REPORT},
	{8,               ADD,          0,               NOTHING,   8,           NO_REPORT},
	{INT_MAX,         ADD,          0,               NOTHING,   INT_MAX,     NO_REPORT},
	{0,               ADD,          4,               NOTHING,   SAT,         ADD_UAF},
	{0,               ADD,          INT_MAX,         NOTHING,   SAT,         ADD_UAF},
	{0,               ADD,          -1,              NOTHING,   SAT,         ADD_UAF},
	{0,               ADD,          0,               NOTHING,   SAT,         ADD_UAF},
	{1,               ADD,          INT_MAX,         NOTHING,   SAT,         ADD_OVF},
	{INT_MAX / 2 + 1, ADD,          INT_MAX / 2 + 1, NOTHING,   SAT,         ADD_OVF},
	{INT_MAX - 1,     ADD,          2,               NOTHING,   SAT,         ADD_OVF},
	{5,               ADD,          -1,              NOTHING,   SAT,         ADD_OVF},
	{5,               ADD,          INT_MIN,         NOTHING,   SAT,         ADD_OVF},
	{SAT,             ADD,          1000,            NOTHING,   SAT,         ADD_OVF},

	/* inc_not_zero, add_not_zero(i): false, unwritten, on 0; else true, ADD_NOT_ZERO_OVF when
	 * the count was negative, passes INT_MAX, or i < 0 (-1 from 1 writes 0 for a moment) */
	{1,               INC_NOT_ZERO, 0,               RET_TRUE,  2,           NO_REPORT},
	{0,               INC_NOT_ZERO, 0,               RET_FALSE, 0,           NO_REPORT},
	{INT_MAX,         INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{-1,              INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT + 3,         INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT - 3,         INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{INT_MIN,         INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT,             INC_NOT_ZERO, 0,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{2,               ADD_NOT_ZERO, 10,              RET_TRUE,  12,          NO_REPORT},
	{INT_MAX - 1,     ADD_NOT_ZERO, 1,               RET_TRUE,  INT_MAX,     NO_REPORT},
	{INT_MAX,         ADD_NOT_ZERO, 0,               RET_TRUE,  INT_MAX,     NO_REPORT},
	{0,               ADD_NOT_ZERO, 3,               RET_FALSE, 0,           NO_REPORT},
	{0,               ADD_NOT_ZERO, INT_MAX,         RET_FALSE, 0,           NO_REPORT},
	{1,               ADD_NOT_ZERO, INT_MAX,         RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{INT_MAX - 1,     ADD_NOT_ZERO, 2,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{-1,              ADD_NOT_ZERO, 2,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT + 3,         ADD_NOT_ZERO, 2,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT - 3,         ADD_NOT_ZERO, 2,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{INT_MIN,         ADD_NOT_ZERO, 2,               RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{5,               ADD_NOT_ZERO, -1,              RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{1,               ADD_NOT_ZERO, -1,              RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},
	{SAT,             ADD_NOT_ZERO, 1000,            RET_TRUE,  SAT,         ADD_NOT_ZERO_OVF},

	/* dec_and_test, sub_and_test(i): true only on reaching exactly 0; SUB_UAF, false, from
	 * <= 0 (for any i), below 0, or i < 0 */
	{1,               DEC_AND_TEST, 0,               RET_TRUE,  0,           NO_REPORT},
	{2,               DEC_AND_TEST, 0,               RET_FALSE, 1,           NO_REPORT},
	{INT_MAX,         DEC_AND_TEST, 0,               RET_FALSE, INT_MAX - 1, NO_REPORT},
	{0,               DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{-1,              DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{SAT + 1,         DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{SAT - 1,         DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{INT_MIN,         DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{SAT,             DEC_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{5,               SUB_AND_TEST, 2,               RET_FALSE, 3,           NO_REPORT},
	{3,               SUB_AND_TEST, 0,               RET_FALSE, 3,           NO_REPORT},
	{3,               SUB_AND_TEST, 3,               RET_TRUE,  0,           NO_REPORT},
	{1,               SUB_AND_TEST, 1,               RET_TRUE,  0,           NO_REPORT},
	{2,               SUB_AND_TEST, 2,               RET_TRUE,  0,           NO_REPORT},
	{7,               SUB_AND_TEST, 7,               RET_TRUE,  0,           NO_REPORT},
	{1 << 20,         SUB_AND_TEST, 1 << 20,         RET_TRUE,  0,           NO_REPORT},
	{INT_MAX - 1,     SUB_AND_TEST, INT_MAX - 1,     RET_TRUE,  0,           NO_REPORT},
	{INT_MAX,         SUB_AND_TEST, INT_MAX,         RET_TRUE,  0,           NO_REPORT},
	{0,               SUB_AND_TEST, 0,               RET_FALSE, SAT,         SUB_UAF},
	{3,               SUB_AND_TEST, 5,               RET_FALSE, SAT,         SUB_UAF},
	{10,              SUB_AND_TEST, 11,              RET_FALSE, SAT,         SUB_UAF},
	{1,               SUB_AND_TEST, INT_MAX,         RET_FALSE, SAT,         SUB_UAF},
	{5,               SUB_AND_TEST, -1,              RET_FALSE, SAT,         SUB_UAF},
	{5,               SUB_AND_TEST, INT_MIN,         RET_FALSE, SAT,         SUB_UAF},
	{SAT,             SUB_AND_TEST, 1000,            RET_FALSE, SAT,         SUB_UAF},
	/* x86-64 decides i > 0 from the flags of lock sub (old < i): below zero as a negative
	 * result, and past INT_MIN as a wrap to a positive one; i <= 0 from the old value, where
	 * old - i reaching exactly 0 is no last reference */
	{0,               SUB_AND_TEST, 1,               RET_FALSE, SAT,         SUB_UAF},
	{1,               SUB_AND_TEST, 2,               RET_FALSE, SAT,         SUB_UAF},
	{-1,              SUB_AND_TEST, INT_MAX,         RET_FALSE, SAT,         SUB_UAF},
	{INT_MIN + 1,     SUB_AND_TEST, 2,               RET_FALSE, SAT,         SUB_UAF},
	{INT_MIN,         SUB_AND_TEST, INT_MAX,         RET_FALSE, SAT,         SUB_UAF},
	{-5,              SUB_AND_TEST, -5,              RET_FALSE, SAT,         SUB_UAF},
	{SAT,             SUB_AND_TEST, SAT,             RET_FALSE, SAT,         SUB_UAF},

	/* dec: DEC_LEAK from 1 or less */
	{2,               DEC,          0,               NOTHING,   1,           NO_REPORT},
	{INT_MAX,         DEC,          0,               NOTHING,   INT_MAX - 1, NO_REPORT},
	{1,               DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{0,               DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{-1,              DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{SAT + 1,         DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{SAT - 1,         DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{INT_MIN,         DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{INT_MIN + 1,     DEC,          0,               NOTHING,   SAT,         DEC_LEAK},
	{SAT,             DEC,          0,               NOTHING,   SAT,         DEC_LEAK},

	/* dec_if_one: 1 -> 0, true; any other count false and unchanged, never a report */
	{1,               DEC_IF_ONE,   0,               RET_TRUE,  0,           NO_REPORT},
	{0,               DEC_IF_ONE,   0,               RET_FALSE, 0,           NO_REPORT},
	{2,               DEC_IF_ONE,   0,               RET_FALSE, 2,           NO_REPORT},
	{3,               DEC_IF_ONE,   0,               RET_FALSE, 3,           NO_REPORT},
	{INT_MAX,         DEC_IF_ONE,   0,               RET_FALSE, INT_MAX,     NO_REPORT},
	{-1,              DEC_IF_ONE,   0,               RET_FALSE, -1,          NO_REPORT},
	{SAT,             DEC_IF_ONE,   0,               RET_FALSE, SAT,         NO_REPORT},
	{SAT + 1,         DEC_IF_ONE,   0,               RET_FALSE, SAT + 1,     NO_REPORT},
	{INT_MIN,         DEC_IF_ONE,   0,               RET_FALSE, INT_MIN,     NO_REPORT},

	/* dec_not_one: false on 1; SATURATED stays, true; 0 is the kernel's exception, reported
	 * as SUB_UAF but left at 0; any other count is decremented, unreported: the kernel's
	 * unsigned "new > old" test catches only 0 - 1, so INT_MIN wraps to INT_MAX (a
	 * saturated counter is 2^30 operations away from it) */
	{3,               DEC_NOT_ONE,  0,               RET_TRUE,  2,           NO_REPORT},
	{2,               DEC_NOT_ONE,  0,               RET_TRUE,  1,           NO_REPORT},
	{INT_MAX,         DEC_NOT_ONE,  0,               RET_TRUE,  INT_MAX - 1, NO_REPORT},
	{1,               DEC_NOT_ONE,  0,               RET_FALSE, 1,           NO_REPORT},
	{SAT,             DEC_NOT_ONE,  0,               RET_TRUE,  SAT,         NO_REPORT},
	{0,               DEC_NOT_ONE,  0,               RET_TRUE,  0,           SUB_UAF},
	{-5,              DEC_NOT_ONE,  0,               RET_TRUE,  -6,          NO_REPORT},
	{SAT + 1,         DEC_NOT_ONE,  0,               RET_TRUE,  SAT,         NO_REPORT},
	{INT_MIN,         DEC_NOT_ONE,  0,               RET_TRUE,  INT_MAX,     NO_REPORT},

	/* dec_and_mutex_lock: through dec_not_one; true, with the mutex held, only from 1 */
	{1,               DEC_AND_MUTEX_LOCK, 0,         RET_TRUE,  0,           NO_REPORT},
	{3,               DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, 2,           NO_REPORT},
	{2,               DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, 1,           NO_REPORT},
	{SAT,             DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, SAT,         NO_REPORT},
	{0,               DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, 0,           SUB_UAF},
	{-5,              DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, -6,          NO_REPORT},
	{INT_MIN,         DEC_AND_MUTEX_LOCK, 0,         RET_FALSE, INT_MAX,     NO_REPORT},
};
/* clang-format on */
#define NROWS N_OF(rows)

/* A count as the table writes it: SAT+1, INT_MAX-1, ... */
static const char *count_name(char *buf, size_t size, int v)
{
	if (v == INT_MAX)
		snprintf(buf, size, "INT_MAX");
	else if (v == INT_MAX - 1)
		snprintf(buf, size, "INT_MAX-1");
	else if (v == INT_MIN)
		snprintf(buf, size, "INT_MIN");
	else if (v == SAT)
		snprintf(buf, size, "SAT");
	else if (v > SAT - 10 && v < SAT + 10)
		snprintf(buf, size, "SAT%+d", v - SAT);
	else
		snprintf(buf, size, "%d", v);
	return buf;
}

/* What a case's name says the operation returns: nothing for a void one. */
static const char *returns_text(enum ret ret)
{
	if (ret == NOTHING)
		return "";
	return ret == RET_TRUE ? "returns true, " : "returns false, ";
}

/* The case's name: "OP[(I)] on START: [returns B, ]count END, REPORT". */
static void row_name(char *buf, size_t size, const struct row *row)
{
	char start[16], i[16], i_text[20], end[16], report[40];

	snprintf(i_text, sizeof(i_text), "(%s)", count_name(i, sizeof(i), row->i));
	if (row->report == NO_REPORT)
		snprintf(report, sizeof(report), "no report");
	else
		snprintf(report, sizeof(report), "reports %s",
			 type_name(row->report) + strlen("HL_REFCOUNT_"));
	snprintf(buf, size, "%s%s on %s: %scount %s, %s", ops[row->op].name,
		 ops[row->op].takes_i ? i_text : "", count_name(start, sizeof(start), row->start),
		 returns_text(row->ret), count_name(end, sizeof(end), row->end), report);
}

/* ---- The runner ---- */

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

/* Held by this thread: trylock is refused, and an errorcheck mutex unlocks only for its holder. */
static void assert_mutex_held_and_unlock(pthread_mutex_t *m)
{
	int err = pthread_mutex_trylock(m);

	if (err != EBUSY)
		fail_msg("trylock after dec_and_mutex_lock returned %d (%s), expected EBUSY: "
			 "the mutex must be held",
			 err, strerror(err));
	err = pthread_mutex_unlock(m);
	if (err)
		fail_msg("unlock after dec_and_mutex_lock returned %d (%s): mutex was not held",
			 err, strerror(err));
}

/* What each row's cmocka test gets as its state: the row, and the name it runs under. */
struct row_case {
	const struct row *row;
	char name[128];
};

static const char *ret_name(enum ret ret)
{
	return ret == NOTHING ? "nothing" : ret == RET_TRUE ? "true" : "false";
}

static void run_row(void **state)
{
	const struct row *row = ((const struct row_case *)*state)->row;
	pthread_mutex_t m;
	hl_refcount_t r;
	enum ret ret;

	if (row->op == DEC_AND_MUTEX_LOCK)
		init_errorcheck_mutex(&m);
	hl_refcount_set(&r, row->start);
	ret = apply(row->op, &r, row->i, &m);
	if (ret != row->ret)
		fail_msg("%s returned %s, expected %s", ops[row->op].name, ret_name(ret),
			 ret_name(row->ret));
	assert_count(&r, row->end);
	assert_reported(&r, row->report, row->end);
	if (row->op == DEC_AND_MUTEX_LOCK) {
		if (ret == RET_TRUE)
			assert_mutex_held_and_unlock(&m);
		else
			assert_mutex_not_held(&m);
		pthread_mutex_destroy(&m);
	}
}

/*
 * The table itself: a row's ret says nothing exactly for a void operation,
 * its i is 0 unless the operation takes one, its report is a saturation
 * type or NO_REPORT, and no two rows share start, operation and i (they
 * would share a name). Every operation has a row from SATURATED.
 */
static void semantics_table_rows_are_well_formed_and_distinct(void **state)
{
	bool from_sat[N_OPS] = {false};

	(void)state;
	for (size_t k = 0; k < NROWS; k++) {
		const struct row *row = &rows[k];

		if ((row->ret == NOTHING) == ops[row->op].returns)
			fail_msg("row %zu (%s): ret %s for an operation that %s", k,
				 ops[row->op].name, ret_name(row->ret),
				 ops[row->op].returns ? "returns a bool" : "returns nothing");
		if (row->i != 0 && !ops[row->op].takes_i)
			fail_msg("row %zu (%s): i is %d; the operation takes none", k,
				 ops[row->op].name, row->i);
		if (row->report != NO_REPORT &&
		    (row->report < ADD_NOT_ZERO_OVF || row->report > DEC_LEAK))
			fail_msg("row %zu (%s): report %d is not a saturation type", k,
				 ops[row->op].name, row->report);
		for (size_t j = 0; j < k; j++)
			if (rows[j].start == row->start && rows[j].op == row->op &&
			    rows[j].i == row->i)
				fail_msg("rows %zu and %zu: the same start, operation and i", j, k);
		if (row->start == SAT)
			from_sat[row->op] = true;
	}
	for (int op = 0; op < N_OPS; op++)
		if (!from_sat[op])
			fail_msg("no row of %s starts from SATURATED", ops[op].name);
}

/* ---- Type, constants, initialiser, set/read ---- */

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
	for (size_t i = 0; i < N_OF(values); i++) {
		hl_refcount_set(&r, values[i]);
		assert_count(&r, values[i]);
	}
	assert_not_reported();
}

/* ---- sub_and_test and add with a constant i ---- */

/*
 * The table passes i at run time. A constant i is folded into the
 * instruction (an immediate on x86-64, and i <= 0 takes its own path at
 * compile time): the same cases with the constant in the call.
 */
static void constant_i_is_the_same_as_i_at_run_time(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(7);

	(void)state;
	assert_false(hl_refcount_sub_and_test(2, &r));
	assert_count(&r, 5);
	assert_true(hl_refcount_sub_and_test(5, &r));
	assert_count(&r, 0);
	assert_not_reported();

	hl_refcount_set(&r, 3);
	assert_false(hl_refcount_sub_and_test(0, &r));
	assert_count(&r, 3);
	assert_not_reported();
	assert_false(hl_refcount_sub_and_test(4, &r));
	assert_reported(&r, SUB_UAF, SAT);

	hl_refcount_set(&r, 0);
	assert_false(hl_refcount_sub_and_test(0, &r));
	assert_reported(&r, SUB_UAF, SAT);

	hl_refcount_set(&r, 2);
	assert_false(hl_refcount_sub_and_test(-1, &r));
	assert_reported(&r, SUB_UAF, SAT);

	hl_refcount_set(&r, INT_MIN + 1);
	assert_false(hl_refcount_sub_and_test(2, &r));
	assert_reported(&r, SUB_UAF, SAT);

	hl_refcount_set(&r, 3);
	hl_refcount_add(4, &r);
	assert_count(&r, 7);
	assert_not_reported();
	hl_refcount_set(&r, 0);
	hl_refcount_add(4, &r);
	assert_reported(&r, ADD_UAF, SAT);
	hl_refcount_set(&r, INT_MAX - 3);
	hl_refcount_add(4, &r);
	assert_reported(&r, ADD_OVF, SAT);
}

/* ---- A long mixed sequence from SATURATED ---- */

/* The table's row of op from SATURATED: what op must return and report there. */
static const struct row *row_from_saturated(enum op op)
{
	for (size_t k = 0; k < NROWS; k++)
		if (rows[k].start == SAT && rows[k].op == op)
			return &rows[k];
	fail_msg("no row of %s starts from SATURATED", ops[op].name);
	return NULL;
}

/* After every single operation, whatever its i, the count is SATURATED. */
static void saturated_stays_saturated(void **state)
{
	static pthread_mutex_t op_mutex = PTHREAD_MUTEX_INITIALIZER;
	hl_refcount_t r = HL_REFCOUNT_INIT(SAT);
	int reports = 0;

	(void)state;
	for (int i = 1; i <= 3000; i++) {
		enum op op = (enum op)((unsigned int)i % N_OPS);
		const struct row *want = row_from_saturated(op);
		enum ret ret = apply(op, &r, i, &op_mutex);

		if (ret != want->ret)
			fail_msg("operation %d, %s(%d): returned %s on a saturated counter, "
				 "expected %s",
				 i, ops[op].name, i, ret_name(ret), ret_name(want->ret));
		if (hl_refcount_read(&r) != SAT)
			fail_msg("operation %d, %s(%d): the count is %d, expected %d", i,
				 ops[op].name, i, hl_refcount_read(&r), SAT);
		reports += want->report != NO_REPORT;
	}
	assert_int_equal(seen.calls, reports);
	assert_int_equal(seen.unsaturated_calls, 0);
}

#define T(f) cmocka_unit_test_setup(f, reset_reports)

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		T(sizeof_refcount_is_4_bytes),
		T(saturated_is_int_min_half_and_max_is_int_max),
		T(saturation_types_have_kernel_values),
		T(init_macro_sets_the_initial_count),
		T(set_then_read_round_trips_every_value),
		T(semantics_table_rows_are_well_formed_and_distinct),
		T(saturated_stays_saturated),
		T(constant_i_is_the_same_as_i_at_run_time),
	};
	static struct row_case cases[NROWS];
	struct CMUnitTest tests[N_OF(fixed) + NROWS];

	memcpy(tests, fixed, sizeof(fixed));
	for (size_t k = 0; k < NROWS; k++) {
		cases[k].row = &rows[k];
		row_name(cases[k].name, sizeof(cases[k].name), &rows[k]);
		tests[N_OF(fixed) + k] = (struct CMUnitTest){
			.name = cases[k].name,
			.test_func = run_row,
			.setup_func = reset_reports,
			.initial_state = &cases[k],
		};
	}
	watchdog_start(60, "test_refcount");
	return cmocka_run_group_tests(tests, install_recorder, restore_default_handler);
}
