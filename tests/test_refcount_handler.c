// SPDX-License-Identifier: MIT
/*
 * test_refcount_handler.c - who hears about a refcount bug, and how.
 *
 * hl_refcount_set_handler(): return values, NULL restoring the default, and
 * a custom handler being called once per detection. The default handler
 * (one stderr line per kind, once per process; HOTLINE_REFCOUNT=abort) keeps
 * process-wide state, so each of its tests re-executes this program as a
 * fresh child ("--child SCENARIO") with stderr on a pipe and the environment
 * it needs, and judges the child's exit and output.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/run_tests.h"
#include "support/watchdog.h"

#include <hotline/refcount.h>

#define SAT HL_REFCOUNT_SATURATED

static int calls_a, calls_b;
static hl_refcount_t *last_r;
static int last_type = -1;

static void handler_a(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	calls_a++;
	last_r = r;
	last_type = (int)t;
}

static void handler_b(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	calls_b++;
}

/* Make one detection of kind t on r; the count is then SATURATED. */
static void trigger(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	switch (t) {
	case HL_REFCOUNT_ADD_NOT_ZERO_OVF:
		hl_refcount_set(r, INT_MAX);
		(void)hl_refcount_inc_not_zero(r);
		break;
	case HL_REFCOUNT_ADD_OVF:
		hl_refcount_set(r, INT_MAX);
		hl_refcount_inc(r);
		break;
	case HL_REFCOUNT_ADD_UAF:
		hl_refcount_set(r, 0);
		hl_refcount_inc(r);
		break;
	case HL_REFCOUNT_SUB_UAF:
		hl_refcount_set(r, 0);
		(void)hl_refcount_dec_and_test(r);
		break;
	case HL_REFCOUNT_DEC_LEAK:
		hl_refcount_set(r, 1);
		hl_refcount_dec(r);
		break;
	case HL_RCUREF_GET_OVF:
	case HL_RCUREF_PUT_UAF: /* hl_rcuref's kinds: test_rcuref.c */ break;
	}
}

/* ---- The child side: one scenario, result in the exit status ---- */

enum child_exit {
	CHILD_OK = 0,
	CHILD_NOT_SATURATED = 3, /* the default handler returned, but r was not saturated */
	CHILD_WRONG_CALLS = 4,	 /* a custom handler saw the wrong number of calls */
	CHILD_BAD_SCENARIO = 5,
};

static int child_main(const char *scenario)
{
	hl_refcount_t r[10];
	int n = 0;

	alarm(20);
	if (strcmp(scenario, "same_kind_twice_other_once") == 0) {
		trigger(&r[n++], HL_REFCOUNT_ADD_UAF);
		trigger(&r[n++], HL_REFCOUNT_ADD_UAF);
		trigger(&r[n++], HL_REFCOUNT_DEC_LEAK);
	} else if (strcmp(scenario, "every_kind_twice") == 0) {
		for (int t = HL_REFCOUNT_ADD_NOT_ZERO_OVF; t <= HL_REFCOUNT_DEC_LEAK; t++) {
			trigger(&r[n++], (enum hl_refcount_saturation)t);
			trigger(&r[n++], (enum hl_refcount_saturation)t);
		}
	} else if (strcmp(scenario, "none") == 0) {
		/* no bug: only what the library says at start-up */
	} else if (strcmp(scenario, "one") == 0) {
		trigger(&r[n++], HL_REFCOUNT_ADD_UAF);
	} else if (strcmp(scenario, "custom_then_null") == 0) {
		hl_refcount_set_handler(handler_a);
		hl_refcount_set_handler(NULL);
		trigger(&r[n++], HL_REFCOUNT_ADD_UAF);
		if (calls_a != 0)
			return CHILD_WRONG_CALLS;
	} else if (strcmp(scenario, "custom") == 0) {
		hl_refcount_set_handler(handler_a);
		trigger(&r[n++], HL_REFCOUNT_ADD_UAF);
		trigger(&r[n++], HL_REFCOUNT_DEC_LEAK);
		if (calls_a != 2)
			return CHILD_WRONG_CALLS;
	} else {
		return CHILD_BAD_SCENARIO;
	}
	for (int i = 0; i < n; i++)
		if (hl_refcount_read(&r[i]) != SAT)
			return CHILD_NOT_SATURATED;
	return CHILD_OK;
}

/* ---- The parent side ---- */

struct child_result {
	int status;	/* from waitpid */
	char err[8192]; /* what the child wrote to stderr */
	int nlines;
	const char *line[16]; /* pointers into err, each line NUL-terminated */
};

/*
 * Run this program as "--child scenario" with HOTLINE_REFCOUNT set to env
 * (unset if NULL), capturing its stderr. Fresh process, fresh library state.
 */
static void run_child(const char *scenario, const char *env, struct child_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = run_self_child(scenario, "HOTLINE_REFCOUNT", env, NULL, 0, res->err,
				     sizeof(res->err));
	print_message("child '%s' (HOTLINE_REFCOUNT=%s) wrote to stderr:\n%s", scenario,
		      env ? env : "(unset)", res->err);
	for (char *p = res->err, *nl; *p && res->nlines < 16; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			res->line[res->nlines++] = p;
			break;
		}
		*nl = '\0';
		res->line[res->nlines++] = p;
	}
}

static void assert_exited_ok(const struct child_result *res)
{
	if (WIFSIGNALED(res->status))
		fail_msg("child was killed by signal %d, expected a normal exit 0",
			 WTERMSIG(res->status));
	if (!WIFEXITED(res->status) || WEXITSTATUS(res->status) != CHILD_OK)
		fail_msg("child exited with %d, expected 0 (3: a counter was not saturated; "
			 "4: wrong handler call count; 127: exec failed)",
			 WEXITSTATUS(res->status));
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int count_report_lines(const struct child_result *res)
{
	int n = 0;

	for (int i = 0; i < res->nlines; i++)
		n += starts_with(res->line[i], "hotline: refcount");
	return n;
}

static void assert_lines_distinct(const struct child_result *res)
{
	for (int i = 0; i < res->nlines; i++)
		for (int j = i + 1; j < res->nlines; j++)
			if (strcmp(res->line[i], res->line[j]) == 0)
				fail_msg("lines %d and %d are the same: '%s'", i, j, res->line[i]);
}

/* Must run first: nothing has set a handler in this process yet. */
static void set_handler_returns_previous_and_null_for_default(void **state)
{
	(void)state;
	assert_null(hl_refcount_set_handler(handler_a));
	assert_ptr_equal(hl_refcount_set_handler(handler_b), handler_a);
	assert_ptr_equal(hl_refcount_set_handler(handler_b), handler_b);
	assert_ptr_equal(hl_refcount_set_handler(NULL), handler_b);
	assert_null(hl_refcount_set_handler(NULL));
}

static void custom_handler_runs_once_per_detection_not_once_per_kind(void **state)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(0);

	(void)state;
	calls_a = 0;
	hl_refcount_set_handler(handler_a);
	for (int i = 0; i < 5; i++) {
		trigger(&r, HL_REFCOUNT_ADD_UAF);
		assert_int_equal(calls_a, i + 1);
	}
	assert_ptr_equal(last_r, &r);
	assert_int_equal(last_type, HL_REFCOUNT_ADD_UAF);
	assert_ptr_equal(hl_refcount_set_handler(NULL), handler_a);
}

static void swapping_handlers_sends_each_detection_to_the_current_one(void **state)
{
	hl_refcount_t r;

	(void)state;
	calls_a = calls_b = 0;
	hl_refcount_set_handler(handler_a);
	trigger(&r, HL_REFCOUNT_SUB_UAF);
	assert_int_equal(last_type, HL_REFCOUNT_SUB_UAF);
	hl_refcount_set_handler(handler_b);
	trigger(&r, HL_REFCOUNT_DEC_LEAK);
	trigger(&r, HL_REFCOUNT_ADD_OVF);
	hl_refcount_set_handler(handler_a);
	trigger(&r, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_int_equal(last_type, HL_REFCOUNT_ADD_NOT_ZERO_OVF);
	assert_int_equal(calls_a, 2);
	assert_int_equal(calls_b, 2);
	hl_refcount_set_handler(NULL);
}

static void null_handler_restores_the_default(void **state)
{
	struct child_result res;

	(void)state;
	run_child("custom_then_null", NULL, &res);
	assert_exited_ok(&res);
	assert_int_equal(res.nlines, 1);
	assert_int_equal(count_report_lines(&res), 1);
}

/* A child whose reports, some kinds repeated, must come out as one distinct line per kind. */
struct once_per_kind {
	const char *scenario; /* the child's */
	int kinds;	      /* the kinds it triggers: the report lines expected */
	const char *what;     /* for the message */
};

static struct once_per_kind two_kinds = {"same_kind_twice_other_once", 2,
					 "ADD_UAF twice, DEC_LEAK once"};
static struct once_per_kind five_kinds = {"every_kind_twice", 5, "5 kinds triggered twice each"};

/* *state: the case. The default handler prints one line per kind, once per process. */
static void default_handler_prints_each_kind_once(void **state)
{
	const struct once_per_kind *c = *state;
	struct child_result res;

	run_child(c->scenario, NULL, &res);
	assert_exited_ok(&res);
	if (res.nlines != c->kinds || count_report_lines(&res) != c->kinds)
		fail_msg("expected exactly %d lines starting 'hotline: refcount' (%s), got %d "
			 "lines, %d of them reports",
			 c->kinds, c->what, res.nlines, count_report_lines(&res));
	assert_lines_distinct(&res);
}

static void abort_env_prints_then_dies_of_sigabrt(void **state)
{
	struct child_result res;

	(void)state;
	run_child("one", "abort", &res);
	if (!WIFSIGNALED(res.status) || WTERMSIG(res.status) != SIGABRT)
		fail_msg("HOTLINE_REFCOUNT=abort: expected the child to die of SIGABRT (%d); "
			 "it %s %d",
			 SIGABRT, WIFSIGNALED(res.status) ? "died of signal" : "exited with",
			 WIFSIGNALED(res.status) ? WTERMSIG(res.status) : WEXITSTATUS(res.status));
	if (count_report_lines(&res) != 1)
		fail_msg("expected the report line before abort(), got %d report lines",
			 count_report_lines(&res));
}

static void abort_env_does_not_abort_with_a_custom_handler(void **state)
{
	struct child_result res;

	(void)state;
	run_child("custom", "abort", &res);
	assert_exited_ok(&res);
	assert_int_equal(res.nlines, 0);
}

/*
 * A value that is not exactly "warn" or "abort" (the empty one, another case,
 * blanks around it) is noted in one line at start-up and means warn.
 */
static void env_not_understood_prints_one_note_and_only_warns(void **state)
{
	static const char *const envs[] = {"bogus", "", "ABORT", "Warn", " abort", "abort\n"};
	struct child_result res;
	int notes;

	(void)state;
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		run_child("same_kind_twice_other_once", envs[i], &res);
		assert_exited_ok(&res);
		notes = 0;
		for (int l = 0; l < res.nlines; l++)
			notes += starts_with(res.line[l], "hotline: HOTLINE_REFCOUNT=");
		if (notes != 1 || res.nlines != 3 || count_report_lines(&res) != 2 ||
		    !starts_with(res.line[0], "hotline: HOTLINE_REFCOUNT="))
			fail_msg(
				"HOTLINE_REFCOUNT='%s': expected the note first, then the 2 report "
				"lines; got %d lines, %d notes, %d reports",
				envs[i], res.nlines, notes, count_report_lines(&res));
	}
}

static void env_not_understood_is_noted_even_without_a_bug(void **state)
{
	struct child_result res;

	(void)state;
	run_child("none", "bogus", &res);
	assert_exited_ok(&res);
	if (res.nlines != 1 || !starts_with(res.line[0], "hotline: HOTLINE_REFCOUNT=bogus: "))
		fail_msg("HOTLINE_REFCOUNT=bogus, no refcount bug: expected one note, got %d lines",
			 res.nlines);
}

static void warn_env_prints_reports_without_a_note(void **state)
{
	struct child_result res;

	(void)state;
	run_child("same_kind_twice_other_once", "warn", &res);
	assert_exited_ok(&res);
	if (res.nlines != 2 || count_report_lines(&res) != 2)
		fail_msg("HOTLINE_REFCOUNT=warn: expected the 2 report lines only, got %d lines, "
			 "%d of them reports",
			 res.nlines, count_report_lines(&res));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(set_handler_returns_previous_and_null_for_default),
		cmocka_unit_test(custom_handler_runs_once_per_detection_not_once_per_kind),
		cmocka_unit_test(swapping_handlers_sends_each_detection_to_the_current_one),
		cmocka_unit_test(null_handler_restores_the_default),
		UNIT_TEST_WITH(default_handler_prints_one_line_per_kind_once_per_process,
			       default_handler_prints_each_kind_once, &two_kinds),
		UNIT_TEST_WITH(default_handler_prints_each_of_the_five_kinds_once,
			       default_handler_prints_each_kind_once, &five_kinds),
		cmocka_unit_test(abort_env_prints_then_dies_of_sigabrt),
		cmocka_unit_test(abort_env_does_not_abort_with_a_custom_handler),
		cmocka_unit_test(env_not_understood_prints_one_note_and_only_warns),
		cmocka_unit_test(env_not_understood_is_noted_even_without_a_bug),
		cmocka_unit_test(warn_env_prints_reports_without_a_note),
	};

	return RUN_TESTS(argc, argv, child_main, tests, NULL, "test_refcount_handler", 60, 0);
}
