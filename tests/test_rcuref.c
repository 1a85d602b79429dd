// SPDX-License-Identifier: MIT
/*
 * test_rcuref.c - hl_rcuref_t in one thread, against the kernel's rcuref_t
 * semantics (v6.17; docs/rcuref.md, docs/sources.md).
 *
 * The zone transitions are one table, rows[] below: a stored (biased) value
 * to start from, get or put, what it must return, the stored value it must
 * leave and the report it must make, or none. One runner checks a row; each
 * row is its own cmocka test, named from its fields, e.g. "put on
 * 0xe0000000 (DEAD): returns false, leaves 0xe0000000, reports PUT_UAF".
 *
 * Every case runs with a recording handler installed (hl_rcuref_set_handler),
 * which checks that a report is made exactly once, about this counter, and
 * that the handler already reads the count the operation leaves. Beside the
 * table: the type and constants, the initialiser, init and read, a whole
 * life in one thread (exactly one put returns true), a get reviving the
 * released count, the handler setter, and the default handler (refcount's:
 * one line per kind, or abort with HOTLINE_REFCOUNT=abort), in a child.
 * Threads are in test_rcuref_threads.c and test_ordering_threads.c.
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/watchdog.h"

#include <hotline/rcuref.h>

#define NO_REPORT (-1)
#define N_OF(a)	  (sizeof(a) / sizeof((a)[0]))
#define SAT	  HL_RCUREF_SATURATED
#define DEAD	  HL_RCUREF_DEAD
#define NOREF	  HL_RCUREF_NOREF
#define MAXREF	  HL_RCUREF_MAXREF
#define RELEASED  HL_RCUREF_RELEASED
#define GET_OVF	  HL_RCUREF_GET_OVF
#define PUT_UAF	  HL_RCUREF_PUT_UAF

/* The stored value (the count minus one, in unsigned arithmetic). */
static unsigned int stored(hl_rcuref_t *r)
{
	return atomic_load_explicit(&r->refcnt, memory_order_relaxed);
}

/* Set the stored value to v: init takes a number of references, v + 1. */
static void set_stored(hl_rcuref_t *r, unsigned int v)
{
	hl_rcuref_init(r, v + 1u);
}

/* ---- The recording handler ---- */

static struct {
	int calls;
	hl_rcuref_t *r;
	int type;
	unsigned int value; /* the stored value inside the last call */
} seen;

static void record_report(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	seen.calls++;
	seen.r = r;
	seen.type = (int)t;
	seen.value = stored(r);
}

static const char *type_name(int t)
{
	switch (t) {
	case NO_REPORT: return "no report";
	case HL_RCUREF_GET_OVF: return "GET_OVF";
	case HL_RCUREF_PUT_UAF: return "PUT_UAF";
	}
	return "(not an rcuref report)";
}

static void check_reports(hl_rcuref_t *r, int want, unsigned int value, const char *what)
{
	int calls = seen.calls, type = seen.type;
	unsigned int got_value = seen.value;
	hl_rcuref_t *got_r = seen.r;

	memset(&seen, 0, sizeof(seen));
	if (want == NO_REPORT) {
		if (calls)
			fail_msg("%s: expected no report, got %d (last: %s)", what, calls,
				 type_name(type));
		return;
	}
	if (calls != 1)
		fail_msg("%s: expected exactly one %s report, got %d", what, type_name(want),
			 calls);
	if (type != want)
		fail_msg("%s: expected %s, got %s", what, type_name(want), type_name(type));
	if (got_r != r)
		fail_msg("%s: handler got r=%p, expected %p", what, (void *)got_r, (void *)r);
	if (got_value != value)
		fail_msg("%s: handler read the stored value 0x%x; it must already be 0x%x", what,
			 got_value, value);
}

static int reset_reports(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof(seen));
	return 0;
}

static int install_recorder(void **state)
{
	(void)state;
	hl_rcuref_set_handler(record_report);
	return 0;
}

static int restore_default_handler(void **state)
{
	(void)state;
	hl_rcuref_set_handler(NULL);
	return 0;
}

/* ---- The zone table ---- */

enum op { GET, PUT };

struct row {
	unsigned int from; /* stored value before */
	enum op op;
	bool ret;
	unsigned int to; /* stored value after */
	int report;
};

static const struct row rows[] = {
	/* valid zone: the fast paths */
	{0, GET, true, 1, NO_REPORT},
	{1, GET, true, 2, NO_REPORT},
	{MAXREF - 1, GET, true, MAXREF, NO_REPORT},
	{1, PUT, false, 0, NO_REPORT},
	{MAXREF, PUT, false, MAXREF - 1, NO_REPORT},
	/* the last reference: released, then marked dead by the same put */
	{0, PUT, true, DEAD, NO_REPORT},
	/* a get in the released window revives the object */
	{NOREF, GET, true, 0, NO_REPORT},
	/* saturation: the get that crosses reports, the others stay quiet */
	{MAXREF, GET, true, SAT, GET_OVF},
	{MAXREF + 1, GET, true, SAT, NO_REPORT},
	{SAT, GET, true, SAT, NO_REPORT},
	{SAT - 5, GET, true, SAT, NO_REPORT},
	{RELEASED - 2, GET, true, SAT, NO_REPORT},
	{SAT, PUT, false, SAT, NO_REPORT},
	{SAT + 5, PUT, false, SAT, NO_REPORT},
	{MAXREF + 2, PUT, false, SAT, NO_REPORT},
	/* the zones' edges: the add decides, by where it lands */
	{MAXREF + 1, PUT, false, MAXREF, NO_REPORT},
	{RELEASED - 1, GET, false, DEAD, NO_REPORT},
	{RELEASED, PUT, false, SAT, NO_REPORT},
	/* dead: a get fails and parks it again; a put is a bug */
	{DEAD, GET, false, DEAD, NO_REPORT},
	{DEAD + 7, GET, false, DEAD, NO_REPORT},
	{DEAD - 7, GET, false, DEAD, NO_REPORT},
	{RELEASED, GET, false, DEAD, NO_REPORT},
	/* ... but not from NOREF, which is a last put's to mark (src/rcuref.c) */
	{NOREF - 1, GET, false, NOREF, NO_REPORT},
	{DEAD, PUT, false, DEAD, PUT_UAF},
	{DEAD + 7, PUT, false, DEAD, PUT_UAF},
	{RELEASED + 1, PUT, false, DEAD, PUT_UAF},
	{NOREF, PUT, false, DEAD, PUT_UAF},
};

#define NROWS N_OF(rows)

static const char *value_name(unsigned int v)
{
	switch (v) {
	case 0: return " (ONEREF)";
	case MAXREF: return " (MAXREF)";
	case SAT: return " (SATURATED)";
	case RELEASED: return " (RELEASED)";
	case DEAD: return " (DEAD)";
	case NOREF: return " (NOREF)";
	}
	return "";
}

struct row_case {
	const struct row *row;
	char name[160];
};

static void row_name(char *buf, size_t n, const struct row *w)
{
	snprintf(buf, n, "%s on 0x%08x%s: returns %s, leaves 0x%08x%s, %s%s",
		 w->op == GET ? "get" : "put", w->from, value_name(w->from),
		 w->ret ? "true" : "false", w->to, value_name(w->to),
		 w->report == NO_REPORT ? "" : "reports ", type_name(w->report));
}

static void run_row(void **state)
{
	const struct row_case *c = *state;
	const struct row *w = c->row;
	hl_rcuref_t r;
	bool ret;

	set_stored(&r, w->from);
	ret = w->op == GET ? hl_rcuref_get(&r) : hl_rcuref_put(&r);
	if (ret != w->ret)
		fail_msg("%s: returned %s", c->name, ret ? "true" : "false");
	if (stored(&r) != w->to)
		fail_msg("%s: left 0x%08x", c->name, stored(&r));
	check_reports(&r, w->report, w->to, c->name);
}

/* ---- Beside the table ---- */

static void type_and_constants(void **state)
{
	(void)state;
	assert_int_equal(sizeof(hl_rcuref_t), 4);
	assert_int_equal(HL_RCUREF_ONEREF, 0x00000000u);
	assert_int_equal(HL_RCUREF_MAXREF, 0x7FFFFFFFu);
	assert_int_equal(HL_RCUREF_MAXREF, (unsigned int)INT_MAX);
	assert_int_equal(HL_RCUREF_SATURATED, 0xA0000000u);
	assert_int_equal(HL_RCUREF_RELEASED, 0xC0000000u);
	assert_int_equal(HL_RCUREF_DEAD, 0xE0000000u);
	assert_int_equal(HL_RCUREF_NOREF, 0xFFFFFFFFu);
	/* the new kinds come after refcount's, which keep their values */
	assert_int_equal(HL_RCUREF_GET_OVF, HL_REFCOUNT_DEC_LEAK + 1);
	assert_int_equal(HL_RCUREF_PUT_UAF, HL_REFCOUNT_DEC_LEAK + 2);
}

static void init_macro(void **state)
{
	hl_rcuref_t one = HL_RCUREF_INIT(1), three = HL_RCUREF_INIT(3);

	(void)state;
	assert_int_equal(stored(&one), 0);
	assert_int_equal(hl_rcuref_read(&one), 1);
	assert_int_equal(stored(&three), 2);
	assert_int_equal(hl_rcuref_read(&three), 3);
}

static void init_and_read(void **state)
{
	static const unsigned int ns[] = {1, 2, 3, 1000, 0x7FFFFFFFu, 0x80000000u};
	hl_rcuref_t r;

	(void)state;
	for (size_t k = 0; k < N_OF(ns); k++) {
		hl_rcuref_init(&r, ns[k]);
		assert_int_equal(stored(&r), ns[k] - 1);
		assert_int_equal(hl_rcuref_read(&r), ns[k]);
	}
	/* released and dead read as 0, the whole zone */
	for (unsigned int v = RELEASED; v >= RELEASED; v += 0x1000000u) {
		set_stored(&r, v);
		assert_int_equal(hl_rcuref_read(&r), 0);
	}
	set_stored(&r, NOREF);
	assert_int_equal(hl_rcuref_read(&r), 0);
	set_stored(&r, DEAD);
	assert_int_equal(hl_rcuref_read(&r), 0);
	/* saturated reads as more than 2^31 */
	set_stored(&r, SAT);
	assert_int_equal(hl_rcuref_read(&r), SAT + 1);
	check_reports(&r, NO_REPORT, 0, "init and read");
}

/* init(3), two gets, then five puts: only the fifth returns true; then dead. */
static void one_life(void **state)
{
	hl_rcuref_t r;
	int trues = 0;

	(void)state;
	hl_rcuref_init(&r, 3);
	assert_true(hl_rcuref_get(&r));
	assert_true(hl_rcuref_get(&r));
	assert_int_equal(hl_rcuref_read(&r), 5);
	for (int k = 0; k < 5; k++) {
		bool last = hl_rcuref_put(&r);

		assert_int_equal(last, k == 4);
		trues += last;
		assert_int_equal(hl_rcuref_read(&r), 4 - k);
	}
	assert_int_equal(trues, 1);
	assert_int_equal(stored(&r), DEAD);
	for (int k = 0; k < 3; k++) {
		assert_false(hl_rcuref_get(&r));
		assert_int_equal(stored(&r), DEAD);
	}
	check_reports(&r, NO_REPORT, 0, "one life");
	/* one put too many: reported, still dead, not true */
	assert_false(hl_rcuref_put(&r));
	check_reports(&r, PUT_UAF, DEAD, "one life, extra put");
	assert_int_equal(hl_rcuref_read(&r), 0);
	/* reuse of the memory: init makes it alive again */
	hl_rcuref_init(&r, 1);
	assert_true(hl_rcuref_put(&r));
}

/*
 * The race the released value exists for, played in one thread: the last
 * put has subtracted (NOREF) but not yet marked the count dead when a get
 * revives it. The put's mark-dead then fails (false), and the reviver's
 * own put is the last.
 */
static void revive_in_the_released_window(void **state)
{
	hl_rcuref_t r;

	(void)state;
	hl_rcuref_init(&r, 1);
	/* the put's subtract, as hl_rcuref_put does it */
	unsigned int v = atomic_fetch_sub_explicit(&r.refcnt, 1, memory_order_release) - 1;
	assert_int_equal(v, NOREF);
	assert_true(hl_rcuref_get(&r)); /* revived: one reference */
	assert_int_equal(hl_rcuref_read(&r), 1);
	assert_false(hl__rcuref_put_slow(&r, v)); /* the first put's mark-dead fails */
	assert_int_equal(stored(&r), 0);
	assert_true(hl_rcuref_put(&r));
	assert_int_equal(stored(&r), DEAD);
	check_reports(&r, NO_REPORT, 0, "revive");
}

/* The slow paths leave a count alone that left their zone (reinitialised memory). */
static void slow_paths_leave_a_reinitialised_count_alone(void **state)
{
	hl_rcuref_t r;

	(void)state;
	/* a straggling get added to a dead count, then the memory was reused */
	hl_rcuref_init(&r, 1);
	assert_false(hl__rcuref_get_slow(&r, DEAD + 1));
	assert_int_equal(stored(&r), 0);
	/* a straggling saturated get, and a put, the same */
	assert_true(hl__rcuref_get_slow(&r, SAT + 1));
	assert_int_equal(stored(&r), 0);
	assert_false(hl__rcuref_put_slow(&r, SAT - 1));
	assert_int_equal(stored(&r), 0);
	check_reports(&r, NO_REPORT, 0, "reinitialised");
}

static void dummy_handler(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
}

static void set_handler_returns_the_previous(void **state)
{
	(void)state;
	assert_ptr_equal(hl_rcuref_set_handler(dummy_handler), record_report);
	assert_ptr_equal(hl_rcuref_set_handler(NULL), dummy_handler);
	assert_ptr_equal(hl_rcuref_set_handler(record_report), NULL);
	/* refcount's handler is a separate one */
	assert_ptr_equal(hl_refcount_set_handler(NULL), NULL);
}

/* ---- The default handler, in a fresh child ---- */

/* Child: two saturations and two puts on a dead count, default handler. */
static int child_main(const char *scenario)
{
	hl_rcuref_t r[4];

	alarm(20);
	if (strcmp(scenario, "twice_each") != 0)
		return 5;
	for (int i = 0; i < 2; i++) {
		set_stored(&r[i], MAXREF);
		if (!hl_rcuref_get(&r[i]) || stored(&r[i]) != SAT)
			return 3;
	}
	for (int i = 2; i < 4; i++) {
		set_stored(&r[i], DEAD);
		if (hl_rcuref_put(&r[i]) || stored(&r[i]) != DEAD)
			return 3;
	}
	return 0;
}

static int count_lines(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static void default_handler_is_refcounts_one_line_per_kind(void **state)
{
	char err[4096], how[64];
	int status;

	(void)state;
	status = run_self_child("twice_each", "HOTLINE_REFCOUNT", NULL, NULL, 0, err, sizeof(err));
	print_message("child (HOTLINE_REFCOUNT unset) wrote:\n%s", err);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child %s, expected exit 0 (3: a count not repaired)",
			 describe_status(status, how, sizeof(how)));
	assert_int_equal(count_lines(err, "\n"), 2);
	assert_int_equal(count_lines(err, "hotline: rcuref 0x"), 2);
	assert_int_equal(count_lines(err, ": get overflowed; saturated, object leaks\n"), 1);
	assert_int_equal(count_lines(err, ": put on a dead count; use after release\n"), 1);

	status = run_self_child("twice_each", "HOTLINE_REFCOUNT", "abort", NULL, 0, err,
				sizeof(err));
	print_message("child (HOTLINE_REFCOUNT=abort) wrote:\n%s", err);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail_msg("HOTLINE_REFCOUNT=abort: child %s, expected to die of SIGABRT",
			 describe_status(status, how, sizeof(how)));
	assert_int_equal(count_lines(err, "hotline: rcuref 0x"), 1);
	assert_int_equal(count_lines(err, "get overflowed; saturated, object leaks "
					  "(HOTLINE_REFCOUNT=abort)\n"),
			 1);
}

#define T(f) cmocka_unit_test_setup(f, reset_reports)

int main(int argc, char **argv)
{
	static const struct CMUnitTest fixed[] = {
		T(type_and_constants),
		T(init_macro),
		T(init_and_read),
		T(one_life),
		T(revive_in_the_released_window),
		T(slow_paths_leave_a_reinitialised_count_alone),
		T(set_handler_returns_the_previous),
		T(default_handler_is_refcounts_one_line_per_kind),
	};
	static struct row_case cases[NROWS];
	struct CMUnitTest tests[N_OF(fixed) + NROWS];

	if (argc == 3 && strcmp(argv[1], "--child") == 0)
		return child_main(argv[2]);
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
	watchdog_start(60, "test_rcuref");
	return cmocka_run_group_tests(tests, install_recorder, restore_default_handler);
}
