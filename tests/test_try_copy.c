// SPDX-License-Identifier: MIT
/*
 * test_try_copy.c - hl_try_copy and hl_try_load64 where memory faults
 * (include/hotline/copy.h), in every variant this CPU runs and in the
 * automatic plan.
 *
 * The contract, byte-exact: r = hl_try_copy(dst, src, n) is the number of
 * bytes not copied; [dst, dst+n-r) equals [src, src+n-r); src+n-r (a load)
 * or dst+n-r (a store) is the first address that faulted; nothing outside
 * [dst, dst+n) is written. Every expected r here comes from where the hole
 * is (support/fault_case.h), so checking r is checking that the faulting
 * address is the hole's first byte, on the side that has the hole.
 *
 * In this process (hotline's handler installed in main, on top of
 * fault_report, which names any fault hotline passes on):
 *  - a source that ends at a PROT_NONE page; a destination that ends at a
 *    PROT_NONE page, and one that ends at a read-only page holding a
 *    pattern: every distance 0..130 from the start to the page and every
 *    length 0..300 (at HOTLINE_TEST_SCALE=N > 1, every length to 15, then
 *    every sweep_step()-th and 300), source and destination at relative
 *    alignments that change with the distance;
 *  - faults deep inside calls of every size class of the plan
 *    (hl_copy_plan's thresholds, each and one more), on either side, and a
 *    PROT_NONE page in the middle of a 1 MiB copy, on either side;
 *  - a MAP_SHARED file mapping that reaches past the end of the file (the
 *    page holding EOF can be read and written, the next raises SIGBUS), as
 *    the source and as the destination;
 *  - a fault handled on an alternate signal stack;
 *  - n = 0 with NULL pointers; the variant API (hl_copy_variant_name,
 *    hl_copy_supported, hl_copy_use, hl_copy_variant, hl_copy_plan) and
 *    HOTLINE_COPY naming a variant, none, or one this CPU cannot run
 *    (test_env.c has the rule's odd values);
 *  - hl_try_load64: a good word, PROT_NONE, misaligned, beyond user space,
 *    past the end of a file mapping (SIGBUS).
 * The handler's manners for hl_try_copy (stray faults, chaining, blocked
 * signals, small stacks, calls from signal handlers) are in the children
 * of test_try_zero.c and in test_try_zero_context.c, which run each case
 * for hl_try_copy too; threads in test_try_copy_threads.c; an outside
 * check (a model and process_vm_readv) in test_try_copy_model.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/fault_case.h"
#include "support/fault_grid.h"
#include "support/faults.h"
#include "support/guarded.h"
#include "support/pattern.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/variants.h"
#include "support/watchdog.h"

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../src/plan.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* hl_try_copy as the fault grids call it (support/fault_grid.h). */
static const struct fault_api api = FAULT_API_TRY_COPY(hl__copy_plan_in_force);

/* The grids' states (support/fault_grid.h): either side can fault. */
static struct fault_grid_test grid = {.api = &api};
static struct fault_grid_test src_none = {&api, FAULT_SRC_HOLE, PROT_NONE};
static struct fault_grid_test dst_none = {&api, FAULT_DST_HOLE, PROT_NONE};
static struct fault_grid_test dst_read_only = {&api, FAULT_DST_HOLE, PROT_READ};

static unsigned char *map_plain(size_t len)
{
	unsigned char *p =
		mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail_msg("mmap of %zu bytes: %s", len, strerror(errno));
	fill_pattern(p, len, 7);
	return p;
}

/*
 * Copies past the vector loop (above 512 B), whose tail ends on the
 * destination's last 64-byte boundary and copies the partial line after it
 * with a byte-masked load and store where the destination ends 1-255
 * bytes past a page boundary (not on a line): every destination alignment
 * modulo 64, the source at the same and at a different one; then every
 * size with the destination ending 0-320 bytes past a page boundary. Every
 * byte copied, none outside written.
 */
static void copies_past_512_every_alignment_end_exactly(void **state)
{
	static const size_t sizes[] = {513,  520,  575,	 576,  577,  640,  700,	 767,
				       1000, 1100, 4128, 4192, 4256, 4320, 8224, 12287};
	static const size_t pasts[] = {0, 1, 31, 32, 63, 64, 65, 96, 160, 224, 255, 256, 257, 320};
	size_t page = page_size(), len = 5 * page;
	unsigned char *src = map_plain(len), *dst = map_plain(len);
	char why[256];

	(void)state;
	for (int s = 0; s < copying.n; s++) {
		copy_use(copying.name[s]);
		for (size_t i = 0; i < N_OF(sizes); i++) {
			for (size_t a = 0; a < 64; a += sweep_step()) {
				for (int same = 0; same < 2; same++) {
					struct fault_case c = {.n = sizes[i], .want = 0};

					c.dst = dst + 256 + a;
					c.src = src + 256 + (same ? a : (a * 37 + 11) % 64);
					c.lo = c.dst - 192;
					c.hi = c.dst + sizes[i] + 192;
					fault_note("%s: %zu bytes, dst %% 64 = %zu",
						   copying.name[s], sizes[i], a);
					if (!fault_run(hl_try_copy, &c, why, sizeof(why)))
						fail_msg("%s: hl_try_copy of %zu bytes, dst %% 64 "
							 "= %zu, src %% 64 = %zu: %s",
							 copying.name[s], sizes[i], a,
							 (size_t)(c.src - src) % 64, why);
				}
			}
			for (size_t e = 0; e < N_OF(pasts); e++) {
				struct fault_case c = {.n = sizes[i], .want = 0};

				c.dst = dst + 4 * page + pasts[e] - sizes[i];
				c.src = src + 256 + (e * 37 + 11) % 64;
				c.lo = c.dst - 192;
				c.hi = c.dst + sizes[i] + 192;
				fault_note("%s: %zu bytes ending %zu past a page", copying.name[s],
					   sizes[i], pasts[e]);
				if (!fault_run(hl_try_copy, &c, why, sizeof(why)))
					fail_msg("%s: hl_try_copy of %zu bytes ending %zu bytes "
						 "past a "
						 "page: %s",
						 copying.name[s], sizes[i], pasts[e], why);
			}
		}
	}
	copy_use("auto");
	munmap(src, len);
	munmap(dst, len);
}

static void zero_bytes_with_null_pointers_copy_nothing_and_return_0(void **state)
{
	unsigned char buf[16];

	(void)state;
	for (int s = 0; s < copying.n; s++) {
		copy_use(copying.name[s]);
		memset(buf, 0x5a, sizeof(buf));
		if (hl_try_copy(NULL, NULL, 0) != 0 || hl_try_copy(buf, NULL, 0) != 0 ||
		    hl_try_copy(NULL, buf, 0) != 0)
			fail_msg("%s: hl_try_copy with n = 0 and a NULL pointer did not return 0",
				 copying.name[s]);
		for (size_t i = 0; i < sizeof(buf); i++)
			assert_int_equal(buf[i], 0x5a);
	}
	copy_use("auto");
}

/* ---- The variant API ---- */

static void variant_names_are_distinct_and_end_with_null(void **state)
{
	const char *name;
	unsigned int n = 0, supported = 0;

	(void)state;
	while ((name = hl_copy_variant_name(n))) {
		assert_true(*name);
		if (strcmp(name, "auto") == 0)
			fail_msg("hl_copy_variant_name(%u) is 'auto', which is not a variant", n);
		for (unsigned int j = 0; j < n; j++)
			if (strcmp(hl_copy_variant_name(j), name) == 0)
				fail_msg("variant '%s' is listed twice (%u and %u)", name, j, n);
		supported += hl_copy_supported(name);
		n++;
		assert_true(n < 64);
	}
	if (!n || !supported)
		fail_msg("%u copy variants, %u supported: expected at least one of each", n,
			 supported);
	assert_null(hl_copy_variant_name(n + 1));
	assert_null(hl_copy_variant_name(~0u));
	assert_false(hl_copy_supported(NULL));
	assert_false(hl_copy_supported("auto"));
	assert_false(hl_copy_supported("bogus"));
	print_message("%u copy variants, %u supported here\n", n, supported);
}

/* After hl_copy_use(name): the variant copies 100 bytes exactly. */
static void copies_exactly(const char *name)
{
	unsigned char a[100], b[100];

	fill_pattern(a, sizeof(a), 0);
	memset(b, 0, sizeof(b));
	if (hl_try_copy(b, a, sizeof(a)) != 0)
		fail_msg("%s: hl_try_copy of 100 plain bytes did not return 0", name);
	assert_memory_equal(a, b, sizeof(a));
}

static void use_of_each_supported_variant_makes_it_the_variant_and_the_plan(void **state)
{
	(void)state;
	variant_check_use_each(&copy_variants, copying.name, copying.n, copies_exactly);
}

static void use_of_null_unknown_or_unsupported_fails_and_changes_nothing(void **state)
{
	static const char *const bad[] = {"", "bogus", "AUTO", "auto ", "rep_movsb,movq", "x"};

	(void)state;
	variant_check_bad_use(&copy_variants, bad, N_OF(bad), copying.name[0]);
}

/*
 * In auto mode: the variant is a supported one and names the plan's first
 * class; every name in the plan is a supported variant; its numbers rise.
 */
/* copy.c and arch.h: the automatic plan's thresholds, as copy.S reads them. */
extern size_t hl__copy_vec_max, hl__copy_plain_max;
extern unsigned hl__copy_alias_window;

/*
 * The entry's loop skips its alias-window and vec_max tests up to
 * plain_max: that must be vec_max where the plan has no window and 0 where
 * it has one (copy.S), whatever variant was forced in between.
 */
static void plain_max_is_vec_max_without_an_alias_window_else_0(void **state)
{
	char buf[64];

	(void)state;
	copy_use(copying.name[0]);
	if (hl_copy_use("auto") != 0 || hl_try_copy(buf, buf + 32, 32) != 0)
		fail_msg("hl_copy_use(\"auto\") or a copy failed");
	print_message("alias window %u, vec_max %zu, plain_max %zu\n", hl__copy_alias_window,
		      hl__copy_vec_max, hl__copy_plain_max);
	if (hl__copy_plain_max != (hl__copy_alias_window ? 0 : hl__copy_vec_max))
		fail_msg("plain_max is %zu with alias window %u and vec_max %zu: expected %zu",
			 hl__copy_plain_max, hl__copy_alias_window, hl__copy_vec_max,
			 hl__copy_alias_window ? (size_t)0 : hl__copy_vec_max);
}

static void auto_plan_names_supported_variants_with_rising_bounds(void **state)
{
	char plan[512], *save, *word;
	const char *v;
	size_t last = 0;
	int words = 0;

	(void)state;
	copy_use(copying.name[0]);
	if (hl_copy_use("auto") != 0)
		fail_msg("hl_copy_use(\"auto\") returned -1, expected 0");
	v = hl_copy_variant();
	if (!v || !hl_copy_supported(v))
		fail_msg("in auto mode hl_copy_variant() is '%s', expected a supported variant",
			 v ? v : "NULL");
	hl_copy_plan(plan, sizeof(plan));
	print_message("auto: variant '%s', plan '%s'\n", v, plan);
	for (word = strtok_r(plan, " ", &save); word; word = strtok_r(NULL, " ", &save), words++) {
		if (words % 4 == 0) {
			if (!hl_copy_supported(word))
				fail_msg("the plan names '%s', not a supported variant", word);
			if (words == 0 && strcmp(word, v) != 0)
				fail_msg("the plan starts with '%s', hl_copy_variant() is '%s'",
					 word, v);
		} else if (words % 4 == 1 && strcmp(word, "<=") != 0) {
			fail_msg("plan word %d is '%s', expected '<='", words, word);
		} else if (words % 4 == 3 && strcmp(word, "<") != 0) {
			fail_msg("plan word %d is '%s', expected '<'", words, word);
		} else if (words % 4 == 2) {
			size_t bound = strtoull(word, NULL, 10);

			if (bound <= last)
				fail_msg("plan bound %zu does not rise above %zu", bound, last);
			last = bound;
		}
	}
	if (words % 4 != 1)
		fail_msg("the plan has %d words: expected NAME (<= BOUND < NAME)...", words);
}

static void plan_is_cut_to_size_and_returns_the_full_length(void **state)
{
	(void)state;
	variant_check_plan_cut(&copy_variants, copying.name[0]);
}

/* HOTLINE_COPY=<variant>, in a child: the child's variant and plan are that name. */
static int child_main(const char *scenario)
{
	unsigned char a[300], b[300];
	char plan[512];

	alarm(20);
	if (strcmp(scenario, "print") != 0)
		return 2;
	fill_pattern(a, sizeof(a), 0);
	if (hl_try_copy(b, a, sizeof(a)) != 0 || memcmp(a, b, sizeof(a)))
		return 3;
	hl_copy_plan(plan, sizeof(plan));
	printf("variant %s\nplan %s\n", hl_copy_variant(), plan);
	fflush(stdout);
	return 0;
}

static void env_naming_a_supported_variant_forces_it_silently(void **state)
{
	char out[1024], err[4096], want[1024], how[128];

	(void)state;
	for (int s = 0; s < copying.n; s++) {
		int status = run_self_child("print", "HOTLINE_COPY", copying.name[s], out,
					    sizeof(out), err, sizeof(err));
		char plan[512];

		copy_use(copying.name[s]);
		hl_copy_plan(plan, sizeof(plan));
		snprintf(want, sizeof(want), "variant %s\nplan %s\n", hl_copy_variant(), plan);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strcmp(out, want) || *err)
			fail_msg("HOTLINE_COPY=%s: the child %s, printed '%s' and '%s' on stderr; "
				 "expected exit 0, '%s' and nothing on stderr",
				 copying.name[s], describe_status(status, how, sizeof(how)), out,
				 err, want);
	}
	copy_use("auto");
}

/* HOTLINE_COPY naming no variant, or one this CPU cannot run: one stderr line, the auto plan. */
static void env_unknown_or_unsupported_prints_one_line_and_keeps_auto(void **state)
{
	const char *envs[64] = {"bogus", "rep_movs", "movq,rep_movsb", "AUTO"}, *name;
	char out[1024], err[4096], want[1024], plan[512], how[128];
	size_t n = 4, lines;

	(void)state;
	for (unsigned int i = 0; (name = hl_copy_variant_name(i)) && n < 64; i++)
		if (!hl_copy_supported(name))
			envs[n++] = name;
	if (n == 4)
		print_message("every copy variant is supported on this CPU: HOTLINE_COPY naming "
			      "an unsupported one not exercised here\n");
	copy_use("auto");
	hl_copy_plan(plan, sizeof(plan));
	snprintf(want, sizeof(want), "variant %s\nplan %s\n", hl_copy_variant(), plan);
	for (size_t i = 0; i < n; i++) {
		int status = run_self_child("print", "HOTLINE_COPY", envs[i], out, sizeof(out), err,
					    sizeof(err));

		lines = 0;
		for (const char *p = err; *p; p++)
			lines += *p == '\n';
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strcmp(out, want))
			fail_msg("HOTLINE_COPY=%s: the child %s and printed '%s', expected exit 0 "
				 "and '%s'",
				 envs[i], describe_status(status, how, sizeof(how)), out, want);
		if (lines != 1 || !strstr(err, "HOTLINE_COPY") || !strstr(err, envs[i]))
			fail_msg(
				"HOTLINE_COPY=%s: expected one stderr line naming HOTLINE_COPY and "
				"'%s', got %zu lines: '%s'",
				envs[i], envs[i], lines, err);
	}
}

/* ---- hl_try_load64 ---- */

static void load64_reads_good_words_and_refuses_the_rest_leaving_out_alone(void **state)
{
	static const uint64_t untouched = 0x0123456789abcdefull;
	size_t page = page_size();
	unsigned char *guarded = map_guarded(page, PROT_NONE), *map;
	static const uintptr_t outside[] = {0x900000000000u, 0x8000000000000000u,
					    0xffff800000000000u, UINTPTR_MAX - 7};
	uint64_t out, want;
	int fd;

	(void)state;
	fault_handlers_restore();
	for (size_t off = 0; off < page; off += 8) {
		memcpy(&want, guarded + off, 8);
		out = untouched;
		if (!hl_try_load64(guarded + off, &out) || out != want)
			fail_msg("hl_try_load64(page + %zu) returned false or 0x%llx, expected "
				 "true and 0x%llx",
				 off, (unsigned long long)out, (unsigned long long)want);
	}
	for (size_t off = 0; off < page; off += 8) {
		out = untouched;
		fault_note("hl_try_load64 of a PROT_NONE page + %zu", off);
		if (hl_try_load64(guarded + page + off, &out) || out != untouched)
			fail_msg(
				"hl_try_load64(PROT_NONE page + %zu) returned true or changed *out",
				off);
	}
	for (size_t off = 1; off < 8; off++) {
		out = untouched;
		if (hl_try_load64(guarded + off, &out) || out != untouched)
			fail_msg("hl_try_load64 of a readable word misaligned by %zu returned true "
				 "or changed *out",
				 off);
		if (hl_try_load64(guarded + page - 8 + off, &out) || out != untouched)
			fail_msg("hl_try_load64 misaligned by %zu across a PROT_NONE page returned "
				 "true or changed *out",
				 off);
	}
	for (size_t i = 0; i < N_OF(outside); i++) {
		out = untouched;
		if (hl_try_load64((const void *)outside[i], &out) || out != untouched)
			fail_msg("hl_try_load64(%#lx) beyond user space returned true or changed "
				 "*out",
				 (unsigned long)outside[i]);
	}
	out = untouched;
	if (hl_try_load64(NULL, &out) || out != untouched)
		fail_msg("hl_try_load64(NULL) returned true or changed *out");
	map = map_beyond_eof(&fd);
	memcpy(&want, map + page + 8, 8);
	if (!hl_try_load64(map + page + 8, &out) || out != want)
		fail_msg("hl_try_load64 in the page holding EOF failed");
	out = untouched;
	if (!hl_try_load64(map + 2 * page - 8, &out) || out != 0)
		fail_msg("hl_try_load64 past EOF in the page holding it: expected true and 0");
	for (size_t off = 0; off < page; off += 512) {
		out = untouched;
		fault_note("hl_try_load64 beyond EOF + %zu", off);
		if (hl_try_load64(map + 2 * page + off, &out) || out != untouched)
			fail_msg("hl_try_load64 in the page past EOF (SIGBUS) + %zu returned true "
				 "or "
				 "changed *out",
				 off);
	}
	munmap(map, 3 * page);
	close(fd);
	unmap_guarded(guarded, page);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		FAULT_GRID_TEST(
			"source_before_prot_none_every_distance_to_130_every_length_to_300_exact",
			fault_grid_edges_test, &src_none),
		FAULT_GRID_TEST(
			"dest_before_prot_none_every_distance_to_130_every_length_to_300_exact",
			fault_grid_edges_test, &dst_none),
		FAULT_GRID_TEST(
			"dest_before_read_only_every_distance_to_130_every_length_to_300_exact",
			fault_grid_edges_test, &dst_read_only),
		cmocka_unit_test(copies_past_512_every_alignment_end_exactly),
		FAULT_GRID_TEST("faults_deep_inside_every_size_class_exact", fault_grid_deep_test,
				&grid),
		FAULT_GRID_TEST("hole_in_the_middle_of_1_mib_on_either_side_stops_exactly_at_it",
				fault_grid_hole_test, &grid),
		FAULT_GRID_TEST("mapping_beyond_eof_as_source_and_as_destination_stops_at_the_page_"
				"after_eof",
				fault_grid_beyond_eof_test, &grid),
		FAULT_GRID_TEST("fault_on_an_alternate_signal_stack_is_exact_and_uses_that_stack",
				fault_grid_alt_stack_test, &grid),
		cmocka_unit_test(zero_bytes_with_null_pointers_copy_nothing_and_return_0),
		cmocka_unit_test(variant_names_are_distinct_and_end_with_null),
		cmocka_unit_test(use_of_each_supported_variant_makes_it_the_variant_and_the_plan),
		cmocka_unit_test(use_of_null_unknown_or_unsupported_fails_and_changes_nothing),
		cmocka_unit_test(auto_plan_names_supported_variants_with_rising_bounds),
		cmocka_unit_test(plain_max_is_vec_max_without_an_alias_window_else_0),
		cmocka_unit_test(plan_is_cut_to_size_and_returns_the_full_length),
		cmocka_unit_test(env_naming_a_supported_variant_forces_it_silently),
		cmocka_unit_test(env_unknown_or_unsupported_prints_one_line_and_keeps_auto),
		cmocka_unit_test(load64_reads_good_words_and_refuses_the_rest_leaving_out_alone),
	};

	return RUN_TESTS(argc, argv, child_main, tests, subjects_setup, "test_try_copy", 280,
			 RUN_FAULT_HANDLERS);
}
