// SPDX-License-Identifier: MIT
/*
 * test_zero.c - hl_zero and hl_try_zero on memory that does not fault
 * (include/hotline/zero.h), in every variant this CPU runs and in the automatic
 * plan.
 *
 * Each variant clears every size 0..1100 (fewer at HOTLINE_TEST_SCALE > 1:
 * check_small_sizes) at every alignment 0..63 from a 64-byte boundary, and
 * large sizes around each of the plan's class boundaries, in a buffer that
 * holds a non-zero pattern: every byte of
 * [dst, dst+n) must be 0 afterwards and every byte around it (at least 128
 * bytes on each side, 4 KiB for large sizes) must still hold the pattern.
 * hl_try_zero must do the same and return 0.
 *
 * Then the API: the variant list, hl_zero_supported, hl_zero_use (a bad name
 * changes nothing), hl_zero_variant, hl_zero_plan (snprintf-like), and
 * HOTLINE_ZERO, which is read once per process, so those cases re-execute
 * this program as a child with the environment they need.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/pattern.h"
#include "support/run_tests.h"
#include "support/sanitizer.h"
#include "support/scale.h"
#include "support/variants.h"
#include "support/watchdog.h"

#include <hotline/cpu.h>
#include <hotline/zero.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_SMALL    1100 /* sizes 0..MAX_SMALL at every alignment */
#define ALIGNS	     64	  /* dst offsets 0..63 from a 64-byte boundary */
#define SMALL_CANARY 128  /* pattern bytes checked on each side, small sizes */
#define LARGE_CANARY 4096 /* pattern bytes checked on each side, large sizes */
#define MAX_VARIANTS 32
#define MAX_CLASSES  8

/*
 * ---- Variants and the plan ----
 * The names to test are zeroing's (support/variants.h, filled by subjects_setup): every variant
 * this CPU runs, then "auto".
 */

static bool is_variant_name(const char *s)
{
	const char *name;

	for (unsigned int i = 0; (name = hl_zero_variant_name(i)); i++)
		if (strcmp(name, s) == 0)
			return true;
	return false;
}

/*
 * A plan: "NAME" or "NAME <= BOUND < NAME <= BOUND < NAME ...": sizes up to
 * bound[0] go to name[0], sizes in (bound[i-1], bound[i]] to name[i], the
 * rest to name[n-1].
 */
struct plan {
	char text[512];
	int n;
	char name[MAX_CLASSES][64];
	size_t bound[MAX_CLASSES];
};

static void read_plan(struct plan *p)
{
	char copy[512], *save = NULL, *tok;
	int len = hl_zero_plan(p->text, sizeof(p->text));

	if (len < 0 || (size_t)len >= sizeof(p->text))
		fail_msg("hl_zero_plan returned %d, expected the length of a short description",
			 len);
	if ((size_t)len != strlen(p->text))
		fail_msg("hl_zero_plan returned %d but wrote '%s' (%zu characters)", len, p->text,
			 strlen(p->text));
	snprintf(copy, sizeof(copy), "%s", p->text);
	p->n = 0;
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *end;

		if (p->n == MAX_CLASSES || !is_variant_name(tok) || !hl_zero_supported(tok))
			fail_msg("plan '%s': '%s' is not a variant this CPU runs (or too many "
				 "classes)",
				 p->text, tok);
		snprintf(p->name[p->n], sizeof(p->name[0]), "%s", tok);
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			break;
		if (strcmp(tok, "<=") != 0)
			fail_msg("plan '%s': expected '<=' after '%s', got '%s'", p->text,
				 p->name[p->n], tok);
		tok = strtok_r(NULL, " ", &save);
		errno = 0;
		p->bound[p->n] = tok ? strtoull(tok, &end, 10) : 0;
		if (!tok || errno || *end || !*tok)
			fail_msg("plan '%s': expected a size after '<=', got '%s'", p->text,
				 tok ? tok : "(end)");
		if (p->n > 0 && p->bound[p->n] <= p->bound[p->n - 1])
			fail_msg("plan '%s': bounds must increase, %zu follows %zu", p->text,
				 p->bound[p->n], p->bound[p->n - 1]);
		tok = strtok_r(NULL, " ", &save);
		if (!tok || strcmp(tok, "<") != 0)
			fail_msg("plan '%s': expected '<' after %zu", p->text, p->bound[p->n]);
		p->n++;
	}
	if (p->n == 0 || !p->name[p->n - 1][0])
		fail_msg("plan '%s': expected 'NAME' or 'NAME <= SIZE < NAME ...'", p->text);
	p->n++;
}

/* ---- Clearing and checking ---- */

enum how { HL_ZERO, HL_TRY_ZERO };
static const char *const how_names[] = {"hl_zero", "hl_try_zero"};

/* One pattern source, as long as the largest buffer: buffers are copies of it. */
static unsigned char *pattern;
static size_t pattern_len;

static void need_pattern(size_t len)
{
	if (pattern_len >= len)
		return;
	if (pattern)
		munmap(pattern, pattern_len);
	pattern = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pattern == MAP_FAILED)
		fail_msg("mmap of %zu bytes: %s", len, strerror(errno));
	fill_pattern(pattern, len, 0);
	pattern_len = len;
}

static size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n)
{
	if (!memcmp(a, b, n))
		return n;
	for (size_t i = 0;; i++)
		if (a[i] != b[i])
			return i;
}

/*
 * buf[lo, hi) held pattern[lo, hi); `how` has just cleared n bytes at
 * buf + off (variant `v`) and returned r. Check r, the cleared bytes and the
 * pattern on both sides.
 */
static void check_cleared(const char *v, enum how how, const unsigned char *buf, size_t lo,
			  size_t hi, size_t off, size_t n, size_t r)
{
	size_t i;

	if (r != 0)
		fail_msg("%s: hl_try_zero(dst, %zu) on writable memory returned %zu, expected 0", v,
			 n, r);
	i = first_nonzero(buf + off, n);
	if (i < n)
		fail_msg("%s: %s(dst, %zu) with dst %% 64 == %zu: dst[%zu] is 0x%02x, expected 0",
			 v, how_names[how], n, off % 64, i, buf[off + i]);
	i = first_difference(buf + lo, pattern + lo, off - lo);
	if (i < off - lo)
		fail_msg("%s: %s(dst, %zu) with dst %% 64 == %zu wrote before dst: dst[-%zu] is "
			 "0x%02x, expected 0x%02x (untouched)",
			 v, how_names[how], n, off % 64, off - lo - i, buf[lo + i],
			 pattern[lo + i]);
	i = first_difference(buf + off + n, pattern + off + n, hi - off - n);
	if (i < hi - off - n)
		fail_msg("%s: %s(dst, %zu) with dst %% 64 == %zu wrote past the end: dst[%zu] is "
			 "0x%02x, expected 0x%02x (untouched)",
			 v, how_names[how], n, off % 64, n + i, buf[off + n + i],
			 pattern[off + n + i]);
}

static size_t clear(enum how how, void *dst, size_t n)
{
	if (how == HL_TRY_ZERO)
		return hl_try_zero(dst, n);
	hl_zero(dst, n);
	return 0;
}

/*
 * Every size 0..MAX_SMALL at every alignment, in every subject; at
 * HOTLINE_TEST_SCALE=N > 1, every size to 129, then every sweep_step()-th and
 * MAX_SMALL (support/scale.h), still at every alignment.
 */
static void check_small_sizes(enum how how)
{
	/* base is 64-byte aligned with SMALL_CANARY bytes before it */
	size_t len = SMALL_CANARY + ALIGNS + MAX_SMALL + SMALL_CANARY;
	unsigned char *buf;

	need_pattern(len);
	buf = aligned_alloc(64, len + 64 - len % 64);
	assert_non_null(buf);
	for (int s = 0; s < zeroing.n; s++) {
		zero_use(zeroing.name[s]);
		for (size_t a = 0; a < ALIGNS; a++) {
			size_t off = SMALL_CANARY + a;

			for (size_t n = 0; n <= MAX_SMALL; n = sweep_next(n, 130, MAX_SMALL)) {
				size_t lo = off - SMALL_CANARY, hi = off + n + SMALL_CANARY;

				memcpy(buf + lo, pattern + lo, hi - lo);
				check_cleared(zeroing.name[s], how, buf, lo, hi, off, n,
					      clear(how, buf + off, n));
			}
		}
	}
	free(buf);
	zero_use("auto");
}

/* Sizes that cross the plan's classes in any variant, and every plan bound +-1. */
static void check_large_sizes(enum how how)
{
	static const size_t fixed[] = {
		2047, 2048, 2049, 4095, 4096, 4097, 65536 + 7, (1 << 20) + 3, (33 << 20) + 5,
	};
	static const size_t aligns[] = {0, 1, 63};
	size_t sizes[N_OF(fixed) + 3 * MAX_CLASSES], n_sizes = 0, max = 0, len;
	struct plan plan;
	unsigned char *buf;

	zero_use("auto");
	read_plan(&plan);
	for (size_t i = 0; i < N_OF(fixed); i++)
		sizes[n_sizes++] = fixed[i];
	for (int c = 0; c + 1 < plan.n; c++) {
		sizes[n_sizes++] = plan.bound[c] - 1;
		sizes[n_sizes++] = plan.bound[c];
		sizes[n_sizes++] = plan.bound[c] + 1;
	}
	for (size_t i = 0; i < n_sizes; i++)
		max = sizes[i] > max ? sizes[i] : max;
	len = LARGE_CANARY + 64 + max + LARGE_CANARY;
	need_pattern(len);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	print_message("auto plan '%s'; %zu large sizes up to %zu\n", plan.text, n_sizes, max);
	for (int s = 0; s < zeroing.n; s++) {
		zero_use(zeroing.name[s]);
		for (size_t i = 0; i < n_sizes; i++) {
			size_t off = LARGE_CANARY + aligns[i % N_OF(aligns)], n = sizes[i];
			size_t lo = off - LARGE_CANARY, hi = off + n + LARGE_CANARY;

			memcpy(buf + lo, pattern + lo, hi - lo);
			check_cleared(zeroing.name[s], how, buf, lo, hi, off, n,
				      clear(how, buf + off, n));
		}
	}
	munmap(buf, len);
	zero_use("auto");
}

/*
 * Buffers above 512 B that end 0-320 bytes past a page boundary, where the
 * avx512 loop's tail switches to aligned stores and a byte-masked one (so
 * that no store splits across the page), and where it does not.
 */
static void check_ends_past_a_page(enum how how)
{
	static const size_t sizes[] = {513, 577, 1000, 4128, 4192, 4256, 4320, 8224, 12287};
	static const size_t pasts[] = {0, 1, 31, 32, 63, 64, 65, 96, 160, 224, 255, 256, 257, 320};
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 5 * page;
	unsigned char *buf;

	need_pattern(len);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(buf != MAP_FAILED);
	for (int s = 0; s < zeroing.n; s++) {
		zero_use(zeroing.name[s]);
		for (size_t i = 0; i < N_OF(sizes); i++) {
			for (size_t e = 0; e < N_OF(pasts); e++) {
				size_t n = sizes[i], off = 4 * page + pasts[e] - n;
				size_t lo = off - SMALL_CANARY, hi = off + n + SMALL_CANARY;

				memcpy(buf + lo, pattern + lo, hi - lo);
				check_cleared(zeroing.name[s], how, buf, lo, hi, off, n,
					      clear(how, buf + off, n));
			}
		}
	}
	munmap(buf, len);
	zero_use("auto");
}

static void ends_0_to_320_bytes_past_a_page_clear_exactly(void **state)
{
	(void)state;
	check_ends_past_a_page(HL_ZERO);
	check_ends_past_a_page(HL_TRY_ZERO);
}

static void hl_zero_clears_sizes_to_1100_at_every_alignment_and_nothing_else(void **state)
{
	(void)state;
	check_small_sizes(HL_ZERO);
}

static void hl_try_zero_clears_sizes_to_1100_at_every_alignment_returning_0(void **state)
{
	(void)state;
	check_small_sizes(HL_TRY_ZERO);
}

static void hl_zero_clears_large_sizes_and_each_plan_bound_plus_minus_1(void **state)
{
	(void)state;
	check_large_sizes(HL_ZERO);
}

static void hl_try_zero_clears_large_sizes_and_each_plan_bound_returning_0(void **state)
{
	(void)state;
	check_large_sizes(HL_TRY_ZERO);
}

/* In a child per variant (HOTLINE_ZERO), so that a crash names the variant and the call. */
static void null_with_length_0_is_fine_in_every_variant(void **state)
{
	char out[256], err[4096], how[128];

	(void)state;
	for (int s = 0; s < zeroing.n; s++) {
		int status = run_self_child("null", "HOTLINE_ZERO", zeroing.name[s], out,
					    sizeof(out), err, sizeof(err));

		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("%s: in %s the child %s; expected hl_zero(NULL, 0) to do "
				 "nothing and hl_try_zero(NULL, 0) to return 0 (exit 3: it "
				 "returned another value); stderr '%s'",
				 zeroing.name[s],
				 strstr(out, "hl_zero(NULL, 0) returned") ? "hl_try_zero(NULL, 0)"
									  : "hl_zero(NULL, 0)",
				 describe_status(status, how, sizeof(how)), err);
	}
}

/* ---- The variant API ---- */

static void variant_names_end_with_null_and_are_unique(void **state)
{
	const char *name, *names[MAX_VARIANTS];
	unsigned int n = 0;

	(void)state;
	while ((name = hl_zero_variant_name(n))) {
		if (n == MAX_VARIANTS)
			fail_msg("hl_zero_variant_name lists more than %d names; expected a NULL "
				 "after the last",
				 MAX_VARIANTS);
		if (!*name || strcmp(name, "auto") == 0)
			fail_msg("hl_zero_variant_name(%u) is '%s', expected a variant's name", n,
				 name);
		for (unsigned int j = 0; j < n; j++)
			if (strcmp(names[j], name) == 0)
				fail_msg("hl_zero_variant_name(%u) and (%u) are both '%s'", j, n,
					 name);
		names[n++] = name;
	}
	if (n == 0)
		fail_msg("hl_zero_variant_name(0) is NULL, expected at least one variant");
	if (hl_zero_variant_name(n + 1) || hl_zero_variant_name(1000) || hl_zero_variant_name(~0u))
		fail_msg("hl_zero_variant_name past the NULL at %u returned a name, expected NULL",
			 n);
	if (strcmp(hl_cpu()->arch, "x86_64") == 0) {
		static const char *const documented[] = {"rep_stosb", "rep_stosq", "movq_unrolled",
							 "avx2",      "avx512",	   "nontemporal"};

		for (size_t i = 0; i < N_OF(documented); i++)
			if (!is_variant_name(documented[i]))
				fail_msg("x86-64: '%s' is not among hl_zero_variant_name's names; "
					 "docs/zero.md lists it",
					 documented[i]);
	}
}

static void supported_is_false_for_null_auto_unknown_and_missing_cpu_features(void **state)
{
	static const char *const unknown[] = {"auto",	    "",	     "bogus",	  "rep_stos",
					      "rep_stosbx", "AVX2 ", "rep_stosb "};
	const struct hl_cpu *cpu = hl_cpu();

	(void)state;
	if (hl_zero_supported(NULL))
		fail_msg("hl_zero_supported(NULL) is true, expected false");
	for (size_t i = 0; i < N_OF(unknown); i++)
		if (hl_zero_supported(unknown[i]))
			fail_msg("hl_zero_supported(\"%s\") is true, expected false", unknown[i]);
	if (zeroing.n < 2)
		fail_msg("this CPU runs none of the variants, expected at least one");
	if (strcmp(cpu->arch, "x86_64") != 0)
		return;
	if (!hl_zero_supported("movq_unrolled"))
		fail_msg("movq_unrolled (plain 64-bit stores) unsupported, expected every x86-64 "
			 "to run it");
	if (hl_zero_supported("avx2") && !cpu->avx2)
		fail_msg("avx2 is supported but hl_cpu()->avx2 is false");
	if (hl_zero_supported("avx512") && !cpu->avx512f)
		fail_msg("avx512 is supported but hl_cpu()->avx512f is false");
}

static void use_of_each_supported_variant_makes_it_the_variant_and_the_plan(void **state)
{
	(void)state;
	variant_check_use_each(&zero_variants, zeroing.name, zeroing.n, NULL);
}

static void use_of_null_unknown_or_unsupported_fails_and_changes_nothing(void **state)
{
	static const char *const bad[] = {"",		"bogus", "rep_stos",
					  "rep_stosbx", "auto ", "avx2,rep_stosb"};

	(void)state;
	variant_check_bad_use(&zero_variants, bad, N_OF(bad), zeroing.name[0]);
}

static void use_auto_returns_0_and_plans_only_supported_variants(void **state)
{
	struct plan plan;
	const char *v;
	bool in_plan = false;

	(void)state;
	zero_use(zeroing.name[0]);
	if (hl_zero_use("auto") != 0)
		fail_msg("hl_zero_use(\"auto\") returned -1, expected 0");
	v = hl_zero_variant();
	if (!v || !is_variant_name(v) || !hl_zero_supported(v))
		fail_msg("in auto mode hl_zero_variant() is '%s', expected a supported variant",
			 v ? v : "NULL");
	read_plan(&plan);
	for (int c = 0; c < plan.n; c++)
		in_plan |= strcmp(plan.name[c], v) == 0;
	if (!in_plan)
		fail_msg("in auto mode hl_zero_variant() is '%s', not one of plan '%s'", v,
			 plan.text);
	print_message("auto: variant '%s', plan '%s'\n", v, plan.text);
}

/* hl_zero_plan(buf, size) for every size up to the full length + 2, and NULL, 0. */
static void plan_is_cut_to_size_and_returns_the_full_length(void **state)
{
	(void)state;
	variant_check_plan_cut(&zero_variants, zeroing.name[0]);
}

/* ---- HOTLINE_ZERO, in re-executed children ---- */

/*
 * The child clears a little with both functions, then prints its variant and
 * plan on stdout; "use-auto" then switches to auto and prints them again.
 */
static int child_main(const char *scenario)
{
	unsigned char buf[300];
	char plan[512];

	alarm(20);
	if (strcmp(scenario, "null") == 0) {
		hl_zero(NULL, 0);
		printf("hl_zero(NULL, 0) returned; ");
		fflush(stdout);
		return hl_try_zero(NULL, 0) == 0 ? 0 : 3;
	}
	for (int i = 0; i < 3; i++) {
		hl_zero(buf, sizeof(buf));
		if (hl_try_zero(buf, sizeof(buf)) != 0)
			return 3;
		hl_zero_variant();
	}
	hl_zero_plan(plan, sizeof(plan));
	printf("variant %s\nplan %s\n", hl_zero_variant(), plan);
	if (strcmp(scenario, "use-auto") == 0) {
		if (hl_zero_use("auto") != 0)
			return 4;
		hl_zero_plan(plan, sizeof(plan));
		printf("variant %s\nplan %s\n", hl_zero_variant(), plan);
	}
	fflush(stdout);
	return 0;
}

struct child_result {
	struct child_output c;
	char variant[2][128], plan[2][512]; /* as printed: first, after "use-auto" */
};

static void run_child(const char *scenario, const char *env, struct child_result *res)
{
	char how[128];
	const char *p;

	memset(res, 0, sizeof(*res));
	run_child_output(scenario, "HOTLINE_ZERO", env, &res->c);
	print_message("child (HOTLINE_ZERO=%s): stdout '%s', stderr '%s'\n", env ? env : "(unset)",
		      res->c.out, res->c.err);
	if (!WIFEXITED(res->c.status) || WEXITSTATUS(res->c.status) != 0)
		fail_msg("child (HOTLINE_ZERO=%s) %s, expected exit 0 (3: hl_try_zero failed on "
			 "writable memory; 4: hl_zero_use(\"auto\") failed; 127: exec failed)",
			 env ? env : "(unset)", describe_status(res->c.status, how, sizeof(how)));
	p = res->c.out;
	for (int i = 0;
	     i < 2 && p &&
	     sscanf(p, "variant %127[^\n]\nplan %511[^\n]", res->variant[i], res->plan[i]) == 2;
	     i++) {
		p = strstr(p, "\nplan ");
		p = p ? strchr(p + 1, '\n') : NULL;
		p = p ? p + 1 : NULL;
	}
	if (!res->plan[0][0])
		fail_msg("child printed '%s', expected 'variant NAME' and 'plan ...'", res->c.out);
}

static void auto_plan(char *plan, size_t size)
{
	zero_use("auto");
	hl_zero_plan(plan, size);
}

static void env_unset_or_auto_gives_the_auto_plan_silently(void **state)
{
	const char *envs[] = {NULL, "auto"};
	struct child_result res;
	char plan[512];

	(void)state;
	auto_plan(plan, sizeof(plan));
	for (size_t i = 0; i < N_OF(envs); i++) {
		run_child("print", envs[i], &res);
		if (strcmp(res.plan[0], plan) != 0)
			fail_msg("HOTLINE_ZERO=%s: the child's plan is '%s', expected the auto "
				 "plan '%s'",
				 envs[i] ? envs[i] : "(unset)", res.plan[0], plan);
		if (res.c.err_lines)
			fail_msg("HOTLINE_ZERO=%s: the child wrote %d lines to stderr, expected "
				 "none",
				 envs[i] ? envs[i] : "(unset)", res.c.err_lines);
	}
}

static void env_naming_a_supported_variant_forces_it_silently(void **state)
{
	struct child_result res;

	(void)state;
	for (int s = 0; s + 1 < zeroing.n; s++) {
		run_child("print", zeroing.name[s], &res);
		if (strcmp(res.variant[0], zeroing.name[s]) || strcmp(res.plan[0], zeroing.name[s]))
			fail_msg("HOTLINE_ZERO=%s: the child's variant is '%s' and plan '%s', "
				 "expected both '%s'",
				 zeroing.name[s], res.variant[0], res.plan[0], zeroing.name[s]);
		if (res.c.err_lines)
			fail_msg("HOTLINE_ZERO=%s: the child wrote %d lines to stderr, expected "
				 "none",
				 zeroing.name[s], res.c.err_lines);
	}
}

static void env_unknown_or_unsupported_prints_one_line_and_keeps_auto(void **state)
{
	const char *envs[MAX_VARIANTS + 8] = {"bogus", "rep_stos", "avx2,rep_stosb", "rep_stosb_x"};
	size_t n = 4;
	struct child_result res;
	const char *name;
	char plan[512];

	(void)state;
	for (unsigned int i = 0; (name = hl_zero_variant_name(i)) && n < N_OF(envs); i++)
		if (!hl_zero_supported(name))
			envs[n++] = name;
	if (n == 4)
		print_message("every variant is supported on this CPU: HOTLINE_ZERO naming an "
			      "unsupported one not exercised here\n");
	auto_plan(plan, sizeof(plan));
	for (size_t i = 0; i < n; i++) {
		run_child("print", envs[i], &res);
		if (strcmp(res.plan[0], plan) != 0)
			fail_msg("HOTLINE_ZERO=%s: the child's plan is '%s', expected the auto "
				 "plan '%s'",
				 envs[i], res.plan[0], plan);
		if (res.c.err_lines != 1 || !strstr(res.c.err, envs[i]) ||
		    !strstr(res.c.err, "HOTLINE_ZERO"))
			fail_msg("HOTLINE_ZERO=%s: expected one stderr line naming HOTLINE_ZERO "
				 "and '%s', got %d lines: '%s'",
				 envs[i], envs[i], res.c.err_lines, res.c.err);
	}
}

static void env_variant_then_use_auto_returns_to_the_auto_plan(void **state)
{
	struct child_result res;
	char plan[512];

	(void)state;
	auto_plan(plan, sizeof(plan));
	run_child("use-auto", zeroing.name[0], &res);
	if (strcmp(res.plan[0], zeroing.name[0]) != 0)
		fail_msg("HOTLINE_ZERO=%s: the child's plan is '%s', expected '%s'",
			 zeroing.name[0], res.plan[0], zeroing.name[0]);
	if (strcmp(res.plan[1], plan) != 0)
		fail_msg("HOTLINE_ZERO=%s then hl_zero_use(\"auto\"): plan '%s', expected the "
			 "auto plan '%s'",
			 zeroing.name[0], res.plan[1], plan);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(variant_names_end_with_null_and_are_unique),
		cmocka_unit_test(supported_is_false_for_null_auto_unknown_and_missing_cpu_features),
		cmocka_unit_test(use_of_each_supported_variant_makes_it_the_variant_and_the_plan),
		cmocka_unit_test(use_of_null_unknown_or_unsupported_fails_and_changes_nothing),
		cmocka_unit_test(use_auto_returns_0_and_plans_only_supported_variants),
		cmocka_unit_test(plan_is_cut_to_size_and_returns_the_full_length),
		cmocka_unit_test(null_with_length_0_is_fine_in_every_variant),
		cmocka_unit_test(hl_zero_clears_sizes_to_1100_at_every_alignment_and_nothing_else),
		cmocka_unit_test(hl_try_zero_clears_sizes_to_1100_at_every_alignment_returning_0),
		cmocka_unit_test(ends_0_to_320_bytes_past_a_page_clear_exactly),
		cmocka_unit_test(hl_zero_clears_large_sizes_and_each_plan_bound_plus_minus_1),
		cmocka_unit_test(hl_try_zero_clears_large_sizes_and_each_plan_bound_returning_0),
		cmocka_unit_test(env_unset_or_auto_gives_the_auto_plan_silently),
		cmocka_unit_test(env_naming_a_supported_variant_forces_it_silently),
		cmocka_unit_test(env_unknown_or_unsupported_prints_one_line_and_keeps_auto),
		cmocka_unit_test(env_variant_then_use_auto_returns_to_the_auto_plan),
	};

	return RUN_TESTS(argc, argv, child_main, tests, subjects_setup, "test_zero", 240,
			 RUN_CHILDREN_PLAIN);
}
