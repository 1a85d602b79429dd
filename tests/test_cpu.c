// SPDX-License-Identifier: MIT
/*
 * test_cpu.c - hl_cpu() and hl_cpu_flags(), in one thread.
 *
 * The description must be stable, name the architecture the program runs
 * on, and on x86-64 agree with the kernel's view of the CPU: the "flags"
 * line of /proc/cpuinfo (which, like hl_cpu, only lists AVX2/AVX-512 when
 * the OS saves their registers). test_cpu_threads.c races the first call.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <hotline/cpu.h>

/* The boolean fields and the names hl_cpu_flags() uses for them. */
struct flag_field {
	const char *name;
	size_t offset;
};

#define FIELD(f) { #f, offsetof(struct hl_cpu, f) }
static const struct flag_field bool_fields[] = {
	FIELD(erms), FIELD(fsrm), FIELD(fsrs), FIELD(fzrm), FIELD(rep_good),
	FIELD(avx2), FIELD(avx512f), FIELD(avx512vl), FIELD(lse), FIELD(mops),
};
#define NFIELDS (sizeof(bool_fields) / sizeof(bool_fields[0]))

static bool field_value(const struct hl_cpu *c, const struct flag_field *f)
{
	return *(const bool *)((const char *)c + f->offset);
}

/* The "flags" line of /proc/cpuinfo, or NULL if it cannot be read. */
static char *cpuinfo_flags(void)
{
	static char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) == 0 && strchr(line, ':')) {
			found = strchr(line, ':') + 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Whether word appears as a whole space-separated word in list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';

		if (start && end)
			return true;
	}
	return false;
}

static bool is_x86_64_build(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

static void cpu_returns_same_non_null_pointer_every_call(void **state)
{
	const struct hl_cpu *first = hl_cpu();

	(void)state;
	assert_non_null(first);
	for (int i = 0; i < 1000; i++)
		assert_ptr_equal(hl_cpu(), first);
}

static void cpu_description_does_not_change_between_calls(void **state)
{
	struct hl_cpu copy = *hl_cpu();
	char flags_before[256], flags_after[256];

	(void)state;
	hl_cpu_flags(flags_before, sizeof(flags_before));
	for (int i = 0; i < 100; i++)
		hl_cpu_flags(flags_after, sizeof(flags_after));
	assert_memory_equal(&copy, hl_cpu(), sizeof(copy));
	assert_string_equal(flags_before, flags_after);
}

static void arch_names_the_machine_we_run_on(void **state)
{
	const struct hl_cpu *c = hl_cpu();
	struct utsname u;

	(void)state;
	assert_non_null(c->arch);
	assert_int_equal(uname(&u), 0);
	print_message("hl_cpu: arch %s, vendor %s, model '%s', uname machine %s\n", c->arch,
		      c->vendor, c->model, u.machine);
	if (is_x86_64_build()) {
		assert_string_equal(c->arch, "x86_64");
		assert_string_equal(u.machine, "x86_64");
	} else if (strcmp(u.machine, "aarch64") == 0) {
		assert_string_equal(c->arch, "aarch64");
	}
}

static void model_and_vendor_are_non_empty_strings(void **state)
{
	const struct hl_cpu *c = hl_cpu();

	(void)state;
	assert_non_null(c->model);
	assert_non_null(c->vendor);
	if (c->model[0] == '\0')
		fail_msg("hl_cpu()->model is empty; expected a brand string or \"unknown\"");
	if (c->vendor[0] == '\0')
		fail_msg("hl_cpu()->vendor is empty; expected a vendor or \"unknown\"");
	/* Leading/trailing spaces of the x86 brand string are trimmed. */
	assert_true(c->model[0] != ' ');
	assert_true(c->model[strlen(c->model) - 1] != ' ');
}

static void cacheline_is_a_power_of_two_between_16_and_512(void **state)
{
	unsigned int line = hl_cpu()->cacheline;

	(void)state;
	if (line < 16 || line > 512 || (line & (line - 1)) != 0)
		fail_msg("cacheline is %u; expected a power of two in [16, 512]", line);
}

static void arm64_fields_are_false_on_x86_64(void **state)
{
	const struct hl_cpu *c = hl_cpu();

	(void)state;
	if (!is_x86_64_build())
		skip();
	assert_false(c->lse);
	assert_false(c->mops);
	assert_int_equal(c->dczva_block, 0);
}

/* erms, fsrm, avx2, avx512f, avx512vl: exactly what the kernel lists. */
static void x86_flags_match_proc_cpuinfo(void **state)
{
	static const char *const names[] = { "erms", "fsrm", "avx2", "avx512f", "avx512vl" };
	const struct hl_cpu *c = hl_cpu();
	const bool values[] = { c->erms, c->fsrm, c->avx2, c->avx512f, c->avx512vl };
	const char *flags = cpuinfo_flags();
	int mismatches = 0;

	(void)state;
	if (!is_x86_64_build() || !flags)
		skip();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		bool listed = has_word(flags, names[i]);

		if (listed != values[i]) {
			print_error("%s: hl_cpu says %d, /proc/cpuinfo %s it\n", names[i],
				    values[i], listed ? "lists" : "does not list");
			mismatches++;
		}
	}
	assert_int_equal(mismatches, 0);
}

/*
 * fsrs, fzrm and rep_good: older kernels do not list the first two, and
 * REP_GOOD is the kernel's own judgement; so only "listed implies true".
 */
static void x86_flags_listed_in_proc_cpuinfo_are_reported(void **state)
{
	static const char *const names[] = { "fsrs", "fzrm", "rep_good" };
	const struct hl_cpu *c = hl_cpu();
	const bool values[] = { c->fsrs, c->fzrm, c->rep_good };
	const char *flags = cpuinfo_flags();
	int missing = 0;

	(void)state;
	if (!is_x86_64_build() || !flags)
		skip();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (has_word(flags, names[i]) && !values[i]) {
			print_error("%s: /proc/cpuinfo lists it, hl_cpu says false\n", names[i]);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
	/* The header: ERMS implies REP_GOOD. */
	if (c->erms)
		assert_true(c->rep_good);
}

static void flags_string_lists_exactly_the_true_fields(void **state)
{
	const struct hl_cpu *c = hl_cpu();
	char buf[512], copy[512];
	bool listed[NFIELDS] = { false };
	int len, words = 0, expected_words = 0;

	(void)state;
	len = hl_cpu_flags(buf, sizeof(buf));
	print_message("hl_cpu_flags: '%s'\n", buf);
	assert_int_equal(len, (int)strlen(buf));
	if (len) {
		assert_true(buf[0] != ' ');
		assert_true(buf[len - 1] != ' ');
		assert_null(strstr(buf, "  "));
	}
	strcpy(copy, buf);
	for (char *save, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t i;

		words++;
		for (i = 0; i < NFIELDS; i++)
			if (strcmp(w, bool_fields[i].name) == 0)
				break;
		if (i == NFIELDS)
			fail_msg("hl_cpu_flags names '%s', not a field of struct hl_cpu", w);
		if (listed[i])
			fail_msg("hl_cpu_flags names '%s' twice", w);
		if (!field_value(c, &bool_fields[i]))
			fail_msg("hl_cpu_flags names '%s' but hl_cpu()->%s is false", w, w);
		listed[i] = true;
	}
	for (size_t i = 0; i < NFIELDS; i++) {
		if (!field_value(c, &bool_fields[i]))
			continue;
		expected_words++;
		if (!listed[i])
			fail_msg("hl_cpu()->%s is true but hl_cpu_flags does not name it",
				 bool_fields[i].name);
	}
	assert_int_equal(words, expected_words);
}

static void flags_size_0_writes_nothing_and_returns_full_length(void **state)
{
	char full[512], buf[8];
	int len;

	(void)state;
	len = hl_cpu_flags(full, sizeof(full));
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(hl_cpu_flags(buf, 0), len);
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i] != 'X')
			fail_msg("hl_cpu_flags(buf, 0) wrote buf[%zu]", i);
	assert_int_equal(hl_cpu_flags(NULL, 0), len);
}

static void flags_size_1_writes_only_the_terminator(void **state)
{
	char full[512], buf[8];
	int len;

	(void)state;
	len = hl_cpu_flags(full, sizeof(full));
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(hl_cpu_flags(buf, 1), len);
	assert_int_equal(buf[0], '\0');
	for (size_t i = 1; i < sizeof(buf); i++)
		if (buf[i] != 'X')
			fail_msg("hl_cpu_flags(buf, 1) wrote buf[%zu]", i);
}

/* Every size from 1 to past the end: a NUL-terminated prefix, like snprintf. */
static void flags_truncate_like_snprintf_at_every_size(void **state)
{
	char full[512], buf[600];
	int len;

	(void)state;
	len = hl_cpu_flags(full, sizeof(full));
	assert_true(len >= 0 && len < (int)sizeof(full));
	for (size_t size = 1; size <= (size_t)len + 2; size++) {
		size_t want = (size_t)len < size - 1 ? (size_t)len : size - 1;
		int ret;

		memset(buf, 'X', sizeof(buf));
		ret = hl_cpu_flags(buf, size);
		if (ret != len)
			fail_msg("size %zu: returned %d, expected the full length %d", size, ret,
				 len);
		if (memcmp(buf, full, want) != 0 || buf[want] != '\0')
			fail_msg("size %zu: wrote '%.*s', expected the %zu-byte prefix '%.*s' "
				 "and a NUL", size, (int)want, buf, want, (int)want, full);
		for (size_t i = size; i < sizeof(buf); i++)
			if (buf[i] != 'X')
				fail_msg("size %zu: wrote buf[%zu], past the buffer", size, i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_returns_same_non_null_pointer_every_call),
		cmocka_unit_test(cpu_description_does_not_change_between_calls),
		cmocka_unit_test(arch_names_the_machine_we_run_on),
		cmocka_unit_test(model_and_vendor_are_non_empty_strings),
		cmocka_unit_test(cacheline_is_a_power_of_two_between_16_and_512),
		cmocka_unit_test(arm64_fields_are_false_on_x86_64),
		cmocka_unit_test(x86_flags_match_proc_cpuinfo),
		cmocka_unit_test(x86_flags_listed_in_proc_cpuinfo_are_reported),
		cmocka_unit_test(flags_string_lists_exactly_the_true_fields),
		cmocka_unit_test(flags_size_0_writes_nothing_and_returns_full_length),
		cmocka_unit_test(flags_size_1_writes_only_the_terminator),
		cmocka_unit_test(flags_truncate_like_snprintf_at_every_size),
	};

	watchdog_start(30, "test_cpu");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
