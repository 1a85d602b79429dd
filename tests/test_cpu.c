// SPDX-License-Identifier: MIT
/*
 * test_cpu.c - hl_cpu() and hl_cpu_flags(), in one thread.
 *
 * The description must be stable, name the architecture the program runs
 * on, and agree with the kernel's view of the CPU: on x86-64 the "flags"
 * line of /proc/cpuinfo (which, like hl_cpu, only lists AVX2/AVX-512 when
 * the OS saves their registers); on arm64 the HWCAP bits of the auxiliary
 * vector (what /proc/cpuinfo's "Features" line is made from; under qemu-user
 * /proc/cpuinfo is the host's). Fields of the other architecture are false.
 * test_cpu_threads.c races the first call.
 *
 * HOTLINE_EXPECT_LSE=0 or 1 (make test-arm64 sets it per qemu CPU model):
 * hl_cpu()->lse must be exactly that. On arm64, hl_zero_variant() must name
 * one of the arm64 variants.
 *
 * x86-64 under qemu-user (HOTLINE_TARGET_RUN set: make test-x86-amd)
 * /proc/cpuinfo is the host's, not the emulated CPU's; there
 * HOTLINE_EXPECT_X86="VENDOR FAMILY MODEL FLAG..." (hex family and model)
 * says what the model is, and the vendor, family, model and the six flags
 * erms, fsrm, avx2, avx512f, avx512vl and avx512bw must be exactly that.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/run_tests.h"
#include "support/watchdog.h"

#include <hotline/cpu.h>
#include <hotline/zero.h>

/* The kernel's arm64 HWCAP bits (uapi asm/hwcap.h); older headers lack the second. */
#define ARM64_HWCAP_ATOMICS (1UL << 8)
#define ARM64_HWCAP2_MOPS   (1UL << 43)

/* The boolean fields and the names hl_cpu_flags() uses for them. */
struct flag_field {
	const char *name;
	size_t offset;
};

/* clang-format off */
#define FIELD(f) { #f, offsetof(struct hl_cpu, f) }
/* clang-format on */
static const struct flag_field bool_fields[] = {
	FIELD(erms),	FIELD(fsrm),	 FIELD(fsrs),	  FIELD(fzrm), FIELD(rep_good), FIELD(avx2),
	FIELD(avx512f), FIELD(avx512vl), FIELD(avx512bw), FIELD(lse),  FIELD(mops),
};
#define NFIELDS (sizeof(bool_fields) / sizeof(bool_fields[0]))

static bool field_value(const struct hl_cpu *c, const struct flag_field *f)
{
	return *(const bool *)((const char *)c + f->offset);
}

/* The rest of the first /proc/cpuinfo line that starts with key, or NULL if none. */
static char *cpuinfo_line(const char *key)
{
	static char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)) == 0 && strchr(line, ':')) {
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

/*
 * The architecture this program was compiled for, from the compiler's own
 * macros: the witness that hl_cpu()->arch and the per-architecture fields
 * are checked against, which the library cannot be for itself.
 */
static const char *compiled_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "aarch64";
#else
	return "other";
#endif
}

static bool is_x86_64_build(void)
{
	return strcmp(compiled_arch(), "x86_64") == 0;
}

static bool is_aarch64_build(void)
{
	return strcmp(compiled_arch(), "aarch64") == 0;
}

static bool is_power_of_two(unsigned int v)
{
	return v && (v & (v - 1)) == 0;
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
	} else if (is_aarch64_build()) {
		assert_string_equal(c->arch, "aarch64");
		assert_string_equal(u.machine, "aarch64"); /* qemu-user answers for the guest */
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

static void fields_of_the_other_architecture_are_false(void **state)
{
	const struct hl_cpu *c = hl_cpu();

	(void)state;
	if (is_x86_64_build()) {
		assert_false(c->lse);
		assert_false(c->mops);
		assert_int_equal(c->dczva_block, 0);
	} else {
		const bool x86[] = {c->erms, c->fsrm,	 c->fsrs,     c->fzrm,	  c->rep_good,
				    c->avx2, c->avx512f, c->avx512vl, c->avx512bw};

		for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++)
			if (x86[i])
				fail_msg("an x86 field (%zu of erms, fsrm, fsrs, fzrm, rep_good, "
					 "avx2, "
					 "avx512f, avx512vl, avx512bw) is true on %s",
					 i, c->arch);
	}
}

/*
 * HOTLINE_EXPECT_LSE=0|1: what the CPU (model) under test must report; unset,
 * only that the flags string agrees with the field.
 */
static void lse_is_what_the_environment_expects(void **state)
{
	const char *want = getenv("HOTLINE_EXPECT_LSE");
	const struct hl_cpu *c = hl_cpu();
	char flags[512];

	(void)state;
	hl_cpu_flags(flags, sizeof(flags));
	if (has_word(flags, "lse") != c->lse)
		fail_msg("hl_cpu()->lse is %d but hl_cpu_flags() is '%s'", c->lse, flags);
	if (!want || !*want) {
		print_message("HOTLINE_EXPECT_LSE unset: lse is %d, not compared\n", c->lse);
		return;
	}
	if (strcmp(want, "0") != 0 && strcmp(want, "1") != 0)
		fail_msg("HOTLINE_EXPECT_LSE=%s: expected 0 or 1", want);
	if (c->lse != (want[0] == '1'))
		fail_msg("hl_cpu()->lse is %d, HOTLINE_EXPECT_LSE=%s (hl_cpu_flags: '%s')", c->lse,
			 want, flags);
}

/* DC ZVA's block: 0 (prohibited) or 2^n bytes with n = 2..9 (DCZID_EL0.BS is 4 bits of words). */
static void dczva_block_is_0_or_a_power_of_two_between_4_and_2048(void **state)
{
	unsigned int b = hl_cpu()->dczva_block;

	(void)state;
	print_message("dczva_block %u, cacheline %u\n", b, hl_cpu()->cacheline);
	if (b != 0 && (!is_power_of_two(b) || b < 4 || b > 2048))
		fail_msg("dczva_block is %u; expected 0 or a power of two in [4, 2048]", b);
	if (!is_aarch64_build())
		assert_int_equal(b, 0);
}

/* On arm64 hl_zero runs an arm64 variant, and its plan names only arm64 variants. */
static bool is_arm64_variant(const char *name, size_t len)
{
	static const char *const names[] = {"stp", "dc_zva", "mops"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && strncmp(name, names[i], len) == 0)
			return true;
	return false;
}

static void zero_variant_is_one_of_this_architecture(void **state)
{
	const char *v = hl_zero_variant();
	char plan[512];

	(void)state;
	assert_non_null(v);
	hl_zero_plan(plan, sizeof(plan));
	print_message("hl_zero_variant '%s', plan '%s'\n", v, plan);
	if (!is_aarch64_build())
		return; /* test_zero.c checks the x86-64 names */
	if (!is_arm64_variant(v, strlen(v)))
		fail_msg("hl_zero_variant() is '%s' on aarch64; expected stp, dc_zva or mops", v);
	/* "NAME" or "NAME <= SIZE < NAME ...": every word but "<=", "<" and sizes is a variant. */
	for (const char *p = plan; *p;) {
		size_t len = strcspn(p, " ");

		if (!(len == 2 && strncmp(p, "<=", 2) == 0) && !(len == 1 && *p == '<') &&
		    strspn(p, "0123456789") != len && !is_arm64_variant(p, len))
			fail_msg(
				"hl_zero_plan '%s' names '%.*s'; expected stp, dc_zva or mops only",
				plan, (int)len, p);
		p += len;
		p += strspn(p, " ");
	}
}

/* x86-64: erms, fsrm, avx2, avx512f, avx512vl, avx512bw: exactly the words of FLAGS (WHOSE). */
static void x86_flags_match(const struct hl_cpu *c, const char *flags, const char *whose)
{
	static const char *const names[] = {"erms",    "fsrm",	   "avx2",
					    "avx512f", "avx512vl", "avx512bw"};
	const bool values[] = {c->erms, c->fsrm, c->avx2, c->avx512f, c->avx512vl, c->avx512bw};
	int mismatches = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		bool listed = has_word(flags, names[i]);

		if (listed != values[i]) {
			print_error("%s: hl_cpu says %d, %s %s it\n", names[i], values[i], whose,
				    listed ? "lists" : "does not list");
			mismatches++;
		}
	}
	assert_int_equal(mismatches, 0);
}

/*
 * fsrs, fzrm and rep_good: older kernels do not list the first two, and
 * REP_GOOD is the kernel's own judgement; so only "listed implies true".
 */
static void x86_flags_listed_in_proc_cpuinfo_are_reported(const struct hl_cpu *c, const char *flags)
{
	static const char *const names[] = {"fsrs", "fzrm", "rep_good"};
	const bool values[] = {c->fsrs, c->fzrm, c->rep_good};
	int missing = 0;

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

/*
 * arm64: lse and mops are the kernel's HWCAP_ATOMICS and HWCAP2_MOPS; where
 * /proc/cpuinfo is the guest's own (not under qemu-user), its "Features"
 * line lists "atomics" exactly when lse is true.
 */
static void arm64_flags_match_hwcap(const struct hl_cpu *c)
{
	bool atomics = getauxval(AT_HWCAP) & ARM64_HWCAP_ATOMICS;
	bool mops = getauxval(AT_HWCAP2) & ARM64_HWCAP2_MOPS;
	const char *features = cpuinfo_line("Features");

	if (c->lse != atomics)
		fail_msg("hl_cpu()->lse is %d, HWCAP_ATOMICS says %d", c->lse, atomics);
	if (c->mops != mops)
		fail_msg("hl_cpu()->mops is %d, HWCAP2_MOPS says %d", c->mops, mops);
	if (features && has_word(features, "atomics") != c->lse)
		fail_msg("hl_cpu()->lse is %d, /proc/cpuinfo Features:%s", c->lse, features);
}

/*
 * x86-64 under qemu-user: hl_cpu against HOTLINE_EXPECT_X86 ("AuthenticAMD 19 1
 * erms avx2": vendor, display family and model in hex, then the flags of
 * x86_flags_match that are true). Unset: not compared.
 */
static void x86_emulated_cpu_is_the_model_asked_for(const struct hl_cpu *c)
{
	const char *want = getenv("HOTLINE_EXPECT_X86");
	char vendor[32], flags[256] = "";
	unsigned int family, model;
	int used = 0;

	if (!want || !*want) {
		print_message("under emulation and HOTLINE_EXPECT_X86 unset: flags not compared\n");
		return;
	}
	if (sscanf(want, "%31s %x %x %n", vendor, &family, &model, &used) != 3)
		fail_msg("HOTLINE_EXPECT_X86='%s': expected 'VENDOR FAMILY MODEL FLAG...'", want);
	snprintf(flags, sizeof(flags), " %s ", want + used);
	print_message("emulated: %s family %#x model %#x; expected %s\n", c->vendor, c->family,
		      c->model_id, want);
	if (strcmp(c->vendor, vendor) != 0 || c->family != family || c->model_id != model)
		fail_msg("hl_cpu: %s family %#x model %#x; HOTLINE_EXPECT_X86 says %s %#x %#x",
			 c->vendor, c->family, c->model_id, vendor, family, model);
	x86_flags_match(c, flags, "HOTLINE_EXPECT_X86");
}

static void flags_agree_with_what_the_kernel_reports(void **state)
{
	const struct hl_cpu *c = hl_cpu();
	const char *flags = cpuinfo_line("flags");

	(void)state;
	if (is_x86_64_build() && emulated()) {
		x86_emulated_cpu_is_the_model_asked_for(c);
	} else if (is_x86_64_build()) {
		if (!flags)
			fail_msg("cannot read the flags line of /proc/cpuinfo");
		x86_flags_match(c, flags, "/proc/cpuinfo");
		x86_flags_listed_in_proc_cpuinfo_are_reported(c, flags);
	} else if (is_aarch64_build()) {
		arm64_flags_match_hwcap(c);
	}
}

static void flags_string_lists_exactly_the_true_fields(void **state)
{
	const struct hl_cpu *c = hl_cpu();
	char buf[512], copy[512];
	bool listed[NFIELDS] = {false};
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

/*
 * hl_cpu_flags(buf, size), size (intptr_t)*state, 0 or 1 (the table's rows), into 8 bytes of
 * 'X': returns the full length (as hl_cpu_flags(NULL, 0) does), writes the terminator if size
 * is 1 and nothing from buf[size] on.
 */
static void flags_cut_at(void **state)
{
	size_t size = (size_t)(intptr_t)*state;
	char full[512], buf[8];
	int len = hl_cpu_flags(full, sizeof(full));

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(hl_cpu_flags(buf, size), len);
	if (size)
		assert_int_equal(buf[size - 1], '\0');
	for (size_t i = size; i < sizeof(buf); i++)
		if (buf[i] != 'X')
			fail_msg("hl_cpu_flags(buf, %zu) wrote buf[%zu]", size, i);
	assert_int_equal(hl_cpu_flags(NULL, 0), len);
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
				 "and a NUL",
				 size, (int)want, buf, want, (int)want, full);
		for (size_t i = size; i < sizeof(buf); i++)
			if (buf[i] != 'X')
				fail_msg("size %zu: wrote buf[%zu], past the buffer", size, i);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_returns_same_non_null_pointer_every_call),
		cmocka_unit_test(cpu_description_does_not_change_between_calls),
		cmocka_unit_test(arch_names_the_machine_we_run_on),
		cmocka_unit_test(model_and_vendor_are_non_empty_strings),
		cmocka_unit_test(cacheline_is_a_power_of_two_between_16_and_512),
		cmocka_unit_test(fields_of_the_other_architecture_are_false),
		cmocka_unit_test(flags_agree_with_what_the_kernel_reports),
		cmocka_unit_test(lse_is_what_the_environment_expects),
		cmocka_unit_test(dczva_block_is_0_or_a_power_of_two_between_4_and_2048),
		cmocka_unit_test(zero_variant_is_one_of_this_architecture),
		cmocka_unit_test(flags_string_lists_exactly_the_true_fields),
		UNIT_TEST_WITH(flags_size_0_writes_nothing_and_returns_full_length, flags_cut_at,
			       (intptr_t)0),
		UNIT_TEST_WITH(flags_size_1_writes_only_the_terminator, flags_cut_at, (intptr_t)1),
		cmocka_unit_test(flags_truncate_like_snprintf_at_every_size),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_cpu", 30, 0);
}
