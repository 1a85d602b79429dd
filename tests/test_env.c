// SPDX-License-Identifier: MIT
/*
 * test_env.c - the library's environment variables, HOTLINE_REFCOUNT,
 * HOTLINE_LOCKREF_RETRIES, HOTLINE_ZERO and HOTLINE_COPY, under their one
 * rule (README.md, "Environment"; src/env.h):
 *
 *  - a value is taken exactly as written: no blank is trimmed, case matters,
 *    a number is decimal digits only; unset means the default, silently;
 *  - any other value that is not understood, the empty one included, is
 *    reported in exactly one stderr line, "hotline: NAME=VALUE: what is
 *    wrong; using DEFAULT", and the default is used (never another value);
 *  - VALUE is at most the value's first 64 bytes, then "..." if there were
 *    more; printable ASCII but space and backslash as itself, every other
 *    byte as \xNN: the line is printable and bounded whatever the value.
 *
 * Each variable is read once, when the library is loaded, so every case runs
 * this program again as a child ("--child SCENARIO") with the value set, and
 * judges its stderr and what it did: the retry limit it reports, the zeroing
 * and copying variants it uses, whether a refcount bug aborts it.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/run_tests.h"
#include "support/variants.h"

#include <hotline/copy.h>
#include <hotline/lockref.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define SHOWN	   64  /* bytes of a value the report shows */
#define REPORT_MAX 400 /* no report line is longer: 64 bytes as \xNN, the name, the text */
#define LONG_LEN   3000

/* ---- The child: does one thing that depends on its variable, says what on stdout ---- */

static int child_main(const char *scenario)
{
	alarm(20);
	if (strcmp(scenario, "refcount") == 0) {
		hl_refcount_t r = HL_REFCOUNT_INIT(0);

		hl_refcount_inc(&r); /* a use after free: the default handler reports */
		printf("survived %d\n", hl_refcount_read(&r));
	} else if (strcmp(scenario, "lockref") == 0) {
		printf("limit %u\n", hl_lockref_retry_limit());
	} else if (strcmp(scenario, "zero") == 0) {
		unsigned char buf[100];

		hl_zero(buf, sizeof(buf));
		printf("variant %s\n", hl_zero_variant());
	} else if (strcmp(scenario, "copy") == 0) {
		unsigned char a[100] = {1}, b[100];

		if (hl_try_copy(b, a, sizeof(a)) != 0)
			return 6;
		printf("variant %s\n", hl_copy_variant());
	} else {
		return 5;
	}
	fflush(stdout);
	return 0;
}

/* ---- The parent side ---- */

struct child_result {
	struct child_output c;
	int nlines;
	const char *line[16]; /* into c.err, each NUL-terminated */
};

/* Values too long, or too odd, to write in a table; filled by setup(). */
static char long_abort[LONG_LEN + 1];  /* "abortabort...": starts like a valid value */
static char long_digits[LONG_LEN + 1]; /* "5555...": a number far past UINT_MAX */
static char long_bytes[LONG_LEN + 1];  /* every byte 1..255, over and over */

/*
 * A family of variants and its variable: HOTLINE_ZERO for hl_zero's, HOTLINE_COPY for
 * hl_try_copy's, under the same rule. The child's scenario is the family's name
 * (api->family); the rest is filled by setup(), from the family's own API.
 */
struct family {
	const struct variant_api *api; /* support/variants.h */
	const char *var;
	char auto_name[128];   /* the variant in automatic mode */
	const char *a_name;    /* a variant this CPU runs */
	char a_name_upper[64]; /* the same in capitals */
};
static struct family zero_family = {.api = &zero_variants, .var = "HOTLINE_ZERO"};
static struct family copy_family = {.api = &copy_variants, .var = "HOTLINE_COPY"};

/* A value for a message: printable ('?' for other bytes), cut at 40 bytes. */
static const char *pv(const char *value)
{
	static char buf[48];
	size_t i;

	for (i = 0; value[i] && i < 40; i++)
		buf[i] = value[i] >= 0x20 && value[i] < 0x7f ? value[i] : '?';
	snprintf(buf + i, sizeof(buf) - i, "%s", value[i] ? "..." : "");
	return buf;
}

static void run_child(const char *scenario, const char *var, const char *value,
		      struct child_result *res)
{
	memset(res, 0, sizeof(*res));
	run_child_output(scenario, var, value, &res->c);
	print_message("child '%s' (%s='%s'): stdout '%.*s', stderr:\n%s", scenario, var, pv(value),
		      (int)strcspn(res->c.out, "\n"), res->c.out, res->c.err);
	for (char *p = res->c.err, *nl; *p && res->nlines < 16; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			fail_msg("%s: the child's stderr does not end with a newline: '%s'", var,
				 p);
		*nl = '\0';
		/* qemu-user's own note on a guest killed by a signal is not the child's. */
		if (strncmp(p, "qemu: uncaught target signal", 28) != 0)
			res->line[res->nlines++] = p;
	}
}

static void assert_exit_0(const char *var, const char *value, const struct child_result *res)
{
	char how[128];

	if (!WIFEXITED(res->c.status) || WEXITSTATUS(res->c.status) != 0)
		fail_msg("%s='%s': the child %s, expected exit 0 (5: bad scenario; 127: exec "
			 "failed)",
			 var, pv(value), describe_status(res->c.status, how, sizeof(how)));
}

/* The report's VALUE for value, written from the rule, not from the library's code. */
static void expected_shown(const char *value, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; value[i] && i < SHOWN; i++) {
		unsigned char c = (unsigned char)value[i];

		if (c > 0x20 && c < 0x7f && c != '\\')
			n += (size_t)snprintf(out + n, size - n, "%c", c);
		else
			n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
	}
	snprintf(out + n, size - n, "%s", value[i] ? "..." : "");
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* How many of the child's stderr lines are about var ("hotline: VAR="). */
static int notes_about(const struct child_result *res, const char *var, int *which)
{
	char prefix[64];
	int n = 0;

	snprintf(prefix, sizeof(prefix), "hotline: %s=", var);
	for (int i = 0; i < res->nlines; i++)
		if (starts_with(res->line[i], prefix)) {
			*which = i;
			n++;
		}
	return n;
}

/*
 * Exactly one line about var, and it is exactly "hotline: VAR=SHOWN: ...;
 * using DEFAULT": printable, bounded, with the value shown by the rule.
 */
static void assert_one_note(const struct child_result *res, const char *var, const char *value,
			    const char *fallback)
{
	char shown[SHOWN * 4 + 8], head[SHOWN * 4 + 64], tail[64];
	int which = -1, notes = notes_about(res, var, &which);
	const char *line;
	size_t len;

	if (notes != 1)
		fail_msg("%s='%s' (%zu bytes): expected one stderr line 'hotline: %s=...', got %d "
			 "among %d lines",
			 var, pv(value), strlen(value), var, notes, res->nlines);
	line = res->line[which];
	len = strlen(line);
	expected_shown(value, shown, sizeof(shown));
	snprintf(head, sizeof(head), "hotline: %s=%s: ", var, shown);
	snprintf(tail, sizeof(tail), "; using %s", fallback);
	if (!starts_with(line, head))
		fail_msg("%s='%s': the note is '%s', expected it to start '%s'", var, pv(value),
			 line, head);
	if (len < strlen(head) + strlen(tail) || strcmp(line + len - strlen(tail), tail) != 0)
		fail_msg("%s='%s': the note is '%s', expected it to end '%s'", var, pv(value), line,
			 tail);
	if (len > REPORT_MAX)
		fail_msg("%s='%s': the note is %zu characters, expected at most %d", var, pv(value),
			 len, REPORT_MAX);
	for (size_t i = 0; i < len; i++)
		if (line[i] < 0x20 || line[i] > 0x7e)
			fail_msg("%s='%s': the note has byte 0x%02x at %zu: '%s'", var, pv,
				 (unsigned char)line[i], i, line);
}

static void assert_no_note(const struct child_result *res, const char *var, const char *value)
{
	int which;

	if (notes_about(res, var, &which) != 0)
		fail_msg("%s='%s' is understood: expected no note, got '%s'", var, pv(value),
			 res->line[which]);
}

/* ---- HOTLINE_LOCKREF_RETRIES ---- */

static unsigned int child_limit(const struct child_result *res)
{
	unsigned int v;

	if (sscanf(res->c.out, "limit %u", &v) != 1)
		fail_msg("child printed '%s', expected 'limit N'", res->c.out);
	return v;
}

static void retries_not_digits_only_or_too_big_is_one_line_and_the_default(void **state)
{
	const char *values[] = {
		" 5",
		"5 ",
		"\t5",
		"5\n",
		"",
		" ",
		"-1",
		"-5",
		"+5",
		"0x10",
		"5e2",
		"1,000",
		"4294967296",
		"18446744073709551615",
		"18446744073709551616",
		"99999999999999999999999999",
		long_digits,
		long_bytes,
		"5\x01\x7f\xff\\",
	};
	struct child_result res;

	(void)state;
	for (size_t i = 0; i < N_OF(values); i++) {
		run_child("lockref", "HOTLINE_LOCKREF_RETRIES", values[i], &res);
		assert_exit_0("HOTLINE_LOCKREF_RETRIES", values[i], &res);
		assert_one_note(&res, "HOTLINE_LOCKREF_RETRIES", values[i], "100");
		if (res.nlines != 1)
			fail_msg("HOTLINE_LOCKREF_RETRIES: expected 1 stderr line, got %d",
				 res.nlines);
		if (child_limit(&res) != HL_LOCKREF_RETRIES_DEFAULT)
			fail_msg("HOTLINE_LOCKREF_RETRIES='%s': limit %u, expected the default %u",
				 pv(values[i]), child_limit(&res), HL_LOCKREF_RETRIES_DEFAULT);
	}
}

static void retries_digits_only_set_the_limit_silently(void **state)
{
	static const struct {
		const char *value;
		unsigned int limit;
	} cases[] = {{"5", 5}, {"0", 0}, {"007", 7}, {"4294967295", UINT_MAX}};
	struct child_result res;

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		run_child("lockref", "HOTLINE_LOCKREF_RETRIES", cases[i].value, &res);
		assert_exit_0("HOTLINE_LOCKREF_RETRIES", cases[i].value, &res);
		if (res.nlines)
			fail_msg("HOTLINE_LOCKREF_RETRIES=%s: expected no stderr, got '%s'",
				 cases[i].value, res.line[0]);
		if (child_limit(&res) != cases[i].limit)
			fail_msg("HOTLINE_LOCKREF_RETRIES=%s: limit %u, expected %u",
				 cases[i].value, child_limit(&res), cases[i].limit);
	}
}

/* ---- HOTLINE_REFCOUNT ---- */

static bool died_of_sigabrt(const struct child_result *res)
{
	return WIFSIGNALED(res->c.status) && WTERMSIG(res->c.status) == SIGABRT;
}

static int report_lines(const struct child_result *res)
{
	int n = 0;

	for (int i = 0; i < res->nlines; i++)
		n += starts_with(res->line[i], "hotline: refcount ");
	return n;
}

static void refcount_not_exactly_abort_or_warn_is_one_line_and_warn(void **state)
{
	const char *values[] = {"ABORT",
				"Abort",
				" abort",
				"abort ",
				"abort\n",
				"abort\r",
				"",
				"bogus",
				"warn ",
				"WARN",
				"abort\x01\x7f\xff\\",
				long_abort,
				long_bytes};
	struct child_result res;
	int sat;

	(void)state;
	for (size_t i = 0; i < N_OF(values); i++) {
		run_child("refcount", "HOTLINE_REFCOUNT", values[i], &res);
		if (died_of_sigabrt(&res))
			fail_msg("HOTLINE_REFCOUNT='%s' is not 'abort', but the child aborted",
				 pv(values[i]));
		assert_exit_0("HOTLINE_REFCOUNT", values[i], &res);
		assert_one_note(&res, "HOTLINE_REFCOUNT", values[i], "warn");
		if (res.nlines != 2 || report_lines(&res) != 1)
			fail_msg("HOTLINE_REFCOUNT='%s': expected the note and one report line, "
				 "got %d lines, %d reports",
				 pv(values[i]), res.nlines, report_lines(&res));
		if (sscanf(res.c.out, "survived %d", &sat) != 1 || sat != HL_REFCOUNT_SATURATED)
			fail_msg("HOTLINE_REFCOUNT='%s': child printed '%s', expected 'survived "
				 "%d'",
				 pv(values[i]), res.c.out, HL_REFCOUNT_SATURATED);
	}
}

static void refcount_abort_aborts_and_warn_warns_without_a_note(void **state)
{
	struct child_result res;

	(void)state;
	run_child("refcount", "HOTLINE_REFCOUNT", "abort", &res);
	if (!died_of_sigabrt(&res))
		fail_msg("HOTLINE_REFCOUNT=abort: expected the child to die of SIGABRT, status "
			 "0x%x",
			 res.c.status);
	assert_no_note(&res, "HOTLINE_REFCOUNT", "abort");
	if (res.nlines != 1 || report_lines(&res) != 1)
		fail_msg("HOTLINE_REFCOUNT=abort: expected the report line only, got %d lines",
			 res.nlines);

	run_child("refcount", "HOTLINE_REFCOUNT", "warn", &res);
	assert_exit_0("HOTLINE_REFCOUNT", "warn", &res);
	assert_no_note(&res, "HOTLINE_REFCOUNT", "warn");
	if (res.nlines != 1 || report_lines(&res) != 1)
		fail_msg("HOTLINE_REFCOUNT=warn: expected the report line only, got %d lines",
			 res.nlines);
}

/* ---- HOTLINE_ZERO ---- */

static const char *child_variant(const struct child_result *res, char *buf, size_t size)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "variant %%%zu[^\n]", size - 1);
	if (sscanf(res->c.out, fmt, buf) != 1)
		fail_msg("child printed '%s', expected 'variant NAME'", res->c.out);
	return buf;
}

/* ---- HOTLINE_ZERO and HOTLINE_COPY, each test once for both (*state: the family) ---- */

static void not_exactly_a_variant_is_one_line_and_auto(void **state)
{
	const struct family *f = *state;
	char blank_before[80], blank_after[80];
	const char *values[] = {
		"AUTO",		 " auto",      "auto\n",    "",		"auto\x01\x7f\xff\\",
		f->a_name_upper, blank_before, blank_after, long_abort, long_bytes};
	struct child_result res;
	char variant[128];

	snprintf(blank_before, sizeof(blank_before), " %s", f->a_name);
	snprintf(blank_after, sizeof(blank_after), "%s ", f->a_name);
	for (size_t i = 0; i < N_OF(values); i++) {
		run_child(f->api->family, f->var, values[i], &res);
		assert_exit_0(f->var, values[i], &res);
		assert_one_note(&res, f->var, values[i], "auto");
		if (res.nlines != 1)
			fail_msg("%s: expected 1 stderr line, got %d", f->var, res.nlines);
		if (strcmp(child_variant(&res, variant, sizeof(variant)), f->auto_name) != 0)
			fail_msg("%s='%s': the child uses '%s', expected the automatic choice '%s'",
				 f->var, pv(values[i]), variant, f->auto_name);
	}
}

static void exact_names_are_taken_silently(void **state)
{
	const struct family *f = *state;
	const char *values[] = {"auto", f->a_name};
	const char *want[] = {f->auto_name, f->a_name};
	struct child_result res;
	char variant[128];

	for (size_t i = 0; i < N_OF(values); i++) {
		run_child(f->api->family, f->var, values[i], &res);
		assert_exit_0(f->var, values[i], &res);
		if (res.nlines)
			fail_msg("%s=%s: expected no stderr, got '%s'", f->var, values[i],
				 res.line[0]);
		if (strcmp(child_variant(&res, variant, sizeof(variant)), want[i]) != 0)
			fail_msg("%s=%s: the child uses '%s', expected '%s'", f->var, values[i],
				 variant, want[i]);
	}
}

/* The family's automatic choice, its first variant this CPU runs, that name in capitals. */
static int family_setup(struct family *f)
{
	const char *name;

	if (f->api->use("auto") != 0)
		return -1;
	snprintf(f->auto_name, sizeof(f->auto_name), "%s", f->api->variant());
	for (unsigned int i = 0; (name = f->api->variant_name(i)); i++)
		if (f->api->supported(name)) {
			f->a_name = name;
			break;
		}
	if (!f->a_name)
		return -1;
	for (size_t i = 0; f->a_name[i] && i + 1 < sizeof(f->a_name_upper); i++)
		f->a_name_upper[i] =
			(char)(f->a_name[i] >= 'a' && f->a_name[i] <= 'z' ? f->a_name[i] - 'a' + 'A'
									  : f->a_name[i]);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < LONG_LEN; i++) {
		long_abort[i] = "abort"[i % 5];
		long_digits[i] = '5';
		long_bytes[i] = (char)(i % 255 + 1);
	}
	/* Each child gets one variable set; the others must not come from here. */
	unsetenv("HOTLINE_REFCOUNT");
	unsetenv("HOTLINE_LOCKREF_RETRIES");
	unsetenv("HOTLINE_ZERO");
	unsetenv("HOTLINE_COPY");
	return family_setup(&zero_family) || family_setup(&copy_family) ? -1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(retries_not_digits_only_or_too_big_is_one_line_and_the_default),
		cmocka_unit_test(retries_digits_only_set_the_limit_silently),
		cmocka_unit_test(refcount_not_exactly_abort_or_warn_is_one_line_and_warn),
		cmocka_unit_test(refcount_abort_aborts_and_warn_warns_without_a_note),
		UNIT_TEST_WITH(zero_not_exactly_a_variant_is_one_line_and_auto,
			       not_exactly_a_variant_is_one_line_and_auto, &zero_family),
		UNIT_TEST_WITH(zero_exact_names_are_taken_silently, exact_names_are_taken_silently,
			       &zero_family),
		UNIT_TEST_WITH(copy_not_exactly_a_variant_is_one_line_and_auto,
			       not_exactly_a_variant_is_one_line_and_auto, &copy_family),
		UNIT_TEST_WITH(copy_exact_names_are_taken_silently, exact_names_are_taken_silently,
			       &copy_family),
	};

	return RUN_TESTS(argc, argv, child_main, tests, setup, "test_env", 120, 0);
}
