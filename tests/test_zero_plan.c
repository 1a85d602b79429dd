// SPDX-License-Identifier: MIT
/*
 * test_zero_plan.c - hl_zero's thresholds: derived from described machines
 * (a pure function, so any machine can be described here, on any
 * architecture), read from sysfs, set by HOTLINE_ZERO_TUNABLES, and
 * reported by hl_zero_plan_sources(); and hl_zero exact at sizes around
 * every threshold in force (docs/zero.md, "The thresholds").
 *
 * HOTLINE_ZERO_TUNABLES is read once, when the library is loaded, so the
 * cases that set it run this program again as a child ("--child
 * SCENARIO") and judge its stdout and stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/pattern.h"
#include "support/watchdog.h"

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../src/plan.h"
#include "../src/zero_plan.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define KIB	((size_t)1 << 10)
#define MIB	((size_t)1 << 20)

/* ---- Described machines ---- */

static struct hl_zero_machine x86(enum hl_zero_vendor vendor, unsigned family, size_t l2, size_t l3,
				  unsigned sharing)
{
	struct hl_zero_machine m = {.isa = HL_ZERO_ISA_X86_64,
				    .vendor = vendor,
				    .family = family,
				    .erms = true,
				    .fsrm = true,
				    .avx2 = true,
				    .avx512 = true,
				    .l1d = 48 * KIB,
				    .l2 = l2,
				    .l3 = l3,
				    .l3_sharing = sharing};

	snprintf(m.caches_from, sizeof(m.caches_from), "described");
	return m;
}

static void expect(const char *machine, const char *name, const struct hl_zero_threshold *t,
		   size_t value, enum hl_zero_source source, const char *why_has)
{
	print_message("%s: %s=%zu (%d: %s)\n", machine, name, t->value, (int)t->source, t->why);
	if (t->value != value || t->source != source)
		fail_msg("%s: %s is %zu (source %d, '%s'), expected %zu (source %d)", machine, name,
			 t->value, (int)t->source, t->why, value, (int)source);
	if (why_has && !strstr(t->why, why_has))
		fail_msg("%s: %s's reason '%s' does not say '%s'", machine, name, t->why, why_has);
}

/* Zen 4 (family 0x19): vec_max a quarter of L2; rep stosb beyond, no streaming class. */
static void zen4_quarter_l2_and_no_streaming(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_AMD, 0x19, MIB, 32 * MIB, 16);
	struct hl_zero_thresholds t;

	(void)state;
	m.model = 0x11;
	hl__zero_derive(&m, &t);
	expect("zen4", "vec_max", &t.vec_max, 256 * KIB, HL_ZERO_DERIVED,
	       "L2 1 MiB (described) / 4");
	expect("zen4", "rep_max", &t.rep_max, SIZE_MAX, HL_ZERO_DERIVED, "family 0x19");
}

/*
 * Zen 5 (family 0x1A): streaming from a share of the chiplet's L3: a
 * quarter of it on the bare chip (16 CPUs share it), 3/4 of each CPU's
 * share in a 2-vCPU VM that reports 2 sharers.
 */
static void zen5_streaming_from_a_share_of_l3(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_AMD, 0x1a, MIB, 32 * MIB, 16);
	struct hl_zero_thresholds t;

	(void)state;
	hl__zero_derive(&m, &t);
	expect("zen5", "vec_max", &t.vec_max, 256 * KIB, HL_ZERO_DERIVED, "/ 4");
	expect("zen5", "rep_max", &t.rep_max, 8 * MIB, HL_ZERO_DERIVED, "16 CPUs share it");
	m.l3_sharing = 2;
	hl__zero_derive(&m, &t);
	expect("zen5 vm", "rep_max", &t.rep_max, 12 * MIB, HL_ZERO_DERIVED, "L3 per CPU 16 MiB");
}

/* An Intel server core: 1.25 MiB L2, 48 MiB L3 shared by 64 CPUs. */
static void intel_vectors_to_a_page_and_512_b_streaming_from_a_quarter_of_l3(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_INTEL, 6, 1280 * KIB, 48 * MIB, 64);
	struct hl_zero_thresholds t;

	(void)state;
	m.model = 0x6a;
	hl__zero_derive(&m, &t);
	expect("icx", "vec_max", &t.vec_max, 4 * KIB + 512, HL_ZERO_DERIVED, "Intel with ERMS");
	expect("icx", "rep_max", &t.rep_max, 12 * MIB, HL_ZERO_DERIVED, "L3 48 MiB / 4");
	m.l3_sharing = 0; /* sysconf only: the sharing is not known */
	hl__zero_derive(&m, &t);
	expect("icx, sharing unknown", "rep_max", &t.rep_max, 12 * MIB, HL_ZERO_DERIVED,
	       "sharing unknown");
}

/* No L3: L2 is the last level; streaming from 3/4 of it. */
static void no_l3_streams_from_three_quarters_of_l2(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_INTEL, 6, 2 * MIB, 0, 0);
	struct hl_zero_thresholds t;

	(void)state;
	hl__zero_derive(&m, &t);
	expect("no l3", "vec_max", &t.vec_max, 4 * KIB + 512, HL_ZERO_DERIVED, NULL);
	expect("no l3", "rep_max", &t.rep_max, 1536 * KIB, HL_ZERO_DERIVED, "no L3");
}

/* Nothing known about the caches: the defaults, said to be defaults. */
static void unknown_caches_give_the_defaults(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_OTHER, 6, 0, 0, 0);
	struct hl_zero_thresholds t;

	(void)state;
	m.caches_from[0] = '\0';
	hl__zero_derive(&m, &t);
	expect("unknown", "vec_max", &t.vec_max, 256 * KIB, HL_ZERO_DEFAULT, "L2 unknown");
	expect("unknown", "rep_max", &t.rep_max, 16 * MIB, HL_ZERO_DEFAULT, "caches unknown");
}

/* Without ERMS no rep stosb class; without AVX2 one variant, no thresholds. */
static void no_erms_and_no_avx2(void **state)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_INTEL, 6, MIB, 32 * MIB, 2);
	struct hl_zero_thresholds t;

	(void)state;
	m.erms = false;
	hl__zero_derive(&m, &t);
	expect("no erms", "vec_max", &t.vec_max, 12 * MIB, HL_ZERO_DERIVED, "no ERMS");
	expect("no erms", "rep_max", &t.rep_max, SIZE_MAX, HL_ZERO_UNUSED, "no ERMS");
	m.avx2 = m.avx512 = false;
	hl__zero_derive(&m, &t);
	expect("no avx2", "vec_max", &t.vec_max, SIZE_MAX, HL_ZERO_UNUSED, "no AVX2");
	expect("no avx2", "rep_max", &t.rep_max, SIZE_MAX, HL_ZERO_UNUSED, "no AVX2");
}

/* arm64: from the DC ZVA block; MOPS or no DC ZVA: no threshold. */
static void arm64_from_the_zva_block(void **state)
{
	struct hl_zero_machine m = {.isa = HL_ZERO_ISA_AARCH64, .dczva_block = 64, .l2 = MIB};
	struct hl_zero_thresholds t;

	(void)state;
	hl__zero_derive(&m, &t);
	expect("arm64 zva 64", "vec_max", &t.vec_max, 256, HL_ZERO_DERIVED, "block 64 B");
	expect("arm64 zva 64", "rep_max", &t.rep_max, SIZE_MAX, HL_ZERO_UNUSED, NULL);
	assert_int_equal(t.vec_floor, 127);
	m.dczva_block = 512; /* qemu's max */
	hl__zero_derive(&m, &t);
	expect("arm64 zva 512", "vec_max", &t.vec_max, 2048, HL_ZERO_DERIVED, "block 512 B");
	/* dc_zva's body needs two blocks: a smaller vec_max is refused, the least taken */
	{
		char err[160];

		assert_false(hl__zero_tunables("vec_max=1000", &t, err, sizeof(err)));
		assert_non_null(strstr(err, "vec_max 1000 is below 1023"));
		assert_true(hl__zero_tunables("vec_max=1023", &t, err, sizeof(err)));
		assert_int_equal(t.vec_max.value, 1023);
	}
	m.dczva_block = 0;
	hl__zero_derive(&m, &t);
	expect("arm64 no zva", "vec_max", &t.vec_max, SIZE_MAX, HL_ZERO_UNUSED, "DC ZVA");
	m.dczva_block = 64;
	m.mops = true;
	hl__zero_derive(&m, &t);
	expect("arm64 mops", "vec_max", &t.vec_max, SIZE_MAX, HL_ZERO_UNUSED, "MOPS");
	m.isa = HL_ZERO_ISA_OTHER;
	hl__zero_derive(&m, &t);
	expect("other", "vec_max", &t.vec_max, SIZE_MAX, HL_ZERO_UNUSED, "memset");
}

/* ---- The plans: which variant does which sizes (plan.h) ---- */

/* A size plan as hl_zero_plan() and hl_copy_plan() print one: "a <= N < b <= M < c". */
static void plan_text(const struct hl_size_plan *p, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->n && len < size; i++) {
		if (i + 1 < p->n)
			len += (size_t)snprintf(buf + len, size - len, "%s <= %zu < ",
						p->c[i].variant, p->c[i].max);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s", p->c[i].variant);
	}
}

static void expect_plans(const char *machine, const struct hl_zero_machine *m, const char *zero,
			 const char *copy)
{
	struct hl_size_plan p;
	char z[160], c[160];

	hl__zero_plan_for(m, &p);
	plan_text(&p, z, sizeof(z));
	assert_int_equal(p.c[p.n - 1].max, SIZE_MAX);
	hl__copy_plan_for(m, &p);
	plan_text(&p, c, sizeof(c));
	assert_int_equal(p.c[p.n - 1].max, SIZE_MAX);
	print_message("%s: zero '%s', copy '%s'\n", machine, z, c);
	if (strcmp(z, zero) != 0 || strcmp(c, copy) != 0)
		fail_msg("%s: zero '%s', copy '%s'; expected '%s', '%s'", machine, z, c, zero,
			 copy);
}

/* The machines the plan's rules tell apart, each with the plans it gets (docs/zero.md, copy.md). */
static const struct described {
	const char *name;
	struct hl_zero_machine m;
	const char *zero, *copy;
} described[] = {
	{"intel 6/0xcf (data/machines)",
	 {.isa = HL_ZERO_ISA_X86_64,
	  .vendor = HL_ZERO_VENDOR_INTEL,
	  .family = 6,
	  .model = 0xcf,
	  .erms = true,
	  .fsrm = true,
	  .avx2 = true,
	  .avx512 = true,
	  .l1d = 48 * KIB,
	  .l2 = 2 * MIB,
	  .l3 = 300 * MIB,
	  .l3_sharing = 2},
	 "avx512 <= 4608 < rep_stosb <= 117964800 < nontemporal",
	 "avx512 <= 4096 < rep_movsb <= 1048576 < nontemporal"},
	{"zen 4",
	 {.isa = HL_ZERO_ISA_X86_64,
	  .vendor = HL_ZERO_VENDOR_AMD,
	  .family = 0x19,
	  .model = 0x11,
	  .erms = true,
	  .fsrm = true,
	  .avx2 = true,
	  .avx512 = true,
	  .l1d = 32 * KIB,
	  .l2 = MIB,
	  .l3 = 32 * MIB,
	  .l3_sharing = 2},
	 "avx512 <= 262144 < rep_stosb",
	 "avx512 <= 16384 < rep_movsb"},
	{"avx2, erms",
	 {.isa = HL_ZERO_ISA_X86_64,
	  .vendor = HL_ZERO_VENDOR_INTEL,
	  .family = 6,
	  .erms = true,
	  .avx2 = true,
	  .l1d = 32 * KIB,
	  .l2 = MIB,
	  .l3 = 32 * MIB,
	  .l3_sharing = 16},
	 "avx2 <= 4608 < rep_stosb <= 8388608 < nontemporal",
	 "avx2 <= 4096 < rep_movsb <= 524288 < nontemporal"},
	{"avx512, no erms",
	 {.isa = HL_ZERO_ISA_X86_64,
	  .vendor = HL_ZERO_VENDOR_INTEL,
	  .family = 6,
	  .avx2 = true,
	  .avx512 = true,
	  .l1d = 32 * KIB,
	  .l2 = MIB,
	  .l3 = 32 * MIB,
	  .l3_sharing = 16},
	 "avx512 <= 8388608 < nontemporal",
	 "avx512"},
	{"no avx2, erms",
	 {.isa = HL_ZERO_ISA_X86_64,
	  .vendor = HL_ZERO_VENDOR_INTEL,
	  .family = 6,
	  .erms = true,
	  .l1d = 32 * KIB,
	  .l2 = MIB,
	  .l3 = 32 * MIB,
	  .l3_sharing = 16},
	 "rep_stosb",
	 "rep_movsb"},
	{"no avx2, no erms",
	 {.isa = HL_ZERO_ISA_X86_64, .vendor = HL_ZERO_VENDOR_OTHER, .family = 6},
	 "rep_stosq",
	 "movq"},
	{"arm64, dc zva 64 B",
	 {.isa = HL_ZERO_ISA_AARCH64, .dczva_block = 64, .l2 = MIB},
	 "stp <= 256 < dc_zva",
	 "ldp_stp"},
	{"arm64, no dc zva", {.isa = HL_ZERO_ISA_AARCH64}, "stp", "ldp_stp"},
	{"arm64, mops",
	 {.isa = HL_ZERO_ISA_AARCH64, .dczva_block = 64, .mops = true},
	 "mops",
	 "ldp_stp <= 64 < mops"},
	{"other", {.isa = HL_ZERO_ISA_OTHER}, "memset", "bytes"},
};

/* Each described machine gets its plans, and each size the variant of its class. */
static void plans_for_described_machines(void **state)
{
	struct hl_size_plan p;

	(void)state;
	for (size_t i = 0; i < N_OF(described); i++)
		expect_plans(described[i].name, &described[i].m, described[i].zero,
			     described[i].copy);
	hl__zero_plan_for(&described[0].m, &p);
	assert_string_equal(hl__plan_variant(&p, 0), "avx512");
	assert_string_equal(hl__plan_variant(&p, 4608), "avx512");
	assert_string_equal(hl__plan_variant(&p, 4609), "rep_stosb");
	assert_string_equal(hl__plan_variant(&p, 8192), "rep_stosb");
	assert_string_equal(hl__plan_variant(&p, 117964800), "rep_stosb");
	assert_string_equal(hl__plan_variant(&p, 117964801), "nontemporal");
	assert_string_equal(hl__plan_variant(&p, SIZE_MAX), "nontemporal");
}

static bool names_a_variant(const char *name, const char *(*variant_name)(unsigned))
{
	for (unsigned i = 0; variant_name(i); i++)
		if (strcmp(variant_name(i), name) == 0)
			return true;
	return false;
}

/*
 * The library runs the plans hl__zero_plan_for and hl__copy_plan_for give
 * for the machine it runs on (no second copy of the rules); and every
 * variant the rules name for a machine of this architecture is one of its
 * variants (the architecture finds a plan's code by those names).
 */
static void library_runs_the_plans_for_this_machine(void **state)
{
	const char *arch = hl_cpu()->arch;
	enum hl_zero_isa isa = strcmp(arch, "x86_64") == 0    ? HL_ZERO_ISA_X86_64
			       : strcmp(arch, "aarch64") == 0 ? HL_ZERO_ISA_AARCH64
							      : HL_ZERO_ISA_OTHER;
	struct hl_zero_machine m;
	struct hl_size_plan p;
	char want[256], got[256];

	(void)state;
	if (getenv("HOTLINE_ZERO_TUNABLES") || getenv("HOTLINE_ZERO") || getenv("HOTLINE_COPY"))
		skip();
	hl__zero_machine_probe(hl_cpu(), &m);
	hl__zero_plan_for(&m, &p);
	plan_text(&p, want, sizeof(want));
	hl_zero_plan(got, sizeof(got));
	print_message("this machine: zero '%s'\n", got);
	assert_string_equal(got, want);
	assert_string_equal(hl_zero_variant(), p.c[0].variant);
	hl__copy_plan_for(&m, &p);
	plan_text(&p, want, sizeof(want));
	hl_copy_plan(got, sizeof(got));
	print_message("this machine: copy '%s'\n", got);
	assert_string_equal(got, want);
	assert_string_equal(hl_copy_variant(), p.c[0].variant);
	for (size_t i = 0; i < N_OF(described); i++) {
		if (described[i].m.isa != isa)
			continue;
		hl__zero_plan_for(&described[i].m, &p);
		for (unsigned c = 0; c < p.n; c++)
			if (!names_a_variant(p.c[c].variant, hl_zero_variant_name))
				fail_msg("%s: zero plan names '%s', not a variant of %s",
					 described[i].name, p.c[c].variant, arch);
		hl__copy_plan_for(&described[i].m, &p);
		for (unsigned c = 0; c < p.n; c++)
			if (!names_a_variant(p.c[c].variant, hl_copy_variant_name))
				fail_msg("%s: copy plan names '%s', not a variant of %s",
					 described[i].name, p.c[c].variant, arch);
	}
}

/* ---- sysfs ---- */

static void put(const char *dir, const char *index, const char *leaf, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, index);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, index, leaf);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void sysfs_cache_directories_are_read(void **state)
{
	char dir[] = "/tmp/hl_zero_plan_XXXXXX", cmd[128];
	struct hl_zero_machine m = {0};
	const char *c[][5] = {
		{"index0", "1", "Data", "48K", "0"},
		{"index1", "1", "Instruction", "32K", "0"},
		{"index2", "2", "Unified", "2048K", "0"},
		{"index3", "3", "Unified", "32768K", "0-1,4,6-7"},
	};

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < N_OF(c); i++) {
		put(dir, c[i][0], "level", c[i][1]);
		put(dir, c[i][0], "type", c[i][2]);
		put(dir, c[i][0], "size", c[i][3]);
		put(dir, c[i][0], "shared_cpu_list", c[i][4]);
	}
	assert_true(hl__zero_machine_sysfs(&m, dir));
	assert_int_equal(m.l1d, 48 * KIB);
	assert_int_equal(m.l2, 2 * MIB);
	assert_int_equal(m.l3, 32 * MIB);
	assert_int_equal(m.l3_sharing, 5);
	assert_string_equal(m.caches_from, "sysfs");
	/* what CPUID said already is kept */
	memset(&m, 0, sizeof(m));
	m.l2 = MIB;
	snprintf(m.caches_from, sizeof(m.caches_from), "CPUID leaf 4");
	assert_true(hl__zero_machine_sysfs(&m, dir));
	assert_int_equal(m.l2, MIB);
	assert_int_equal(m.l3, 32 * MIB);
	assert_string_equal(m.caches_from, "CPUID leaf 4+sysfs");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	memset(&m, 0, sizeof(m));
	assert_false(hl__zero_machine_sysfs(&m, "/nonexistent/cache"));
	assert_int_equal(m.l3, 0);
}

/* ---- HOTLINE_ZERO_TUNABLES, parsed ---- */

static struct hl_zero_thresholds derived(void)
{
	struct hl_zero_machine m = x86(HL_ZERO_VENDOR_AMD, 0x1a, MIB, 32 * MIB, 16);
	struct hl_zero_thresholds t;

	hl__zero_derive(&m, &t);
	return t;
}

static void tunables_good_are_applied_as_tunable(void **state)
{
	const struct {
		const char *value;
		size_t vec_max, rep_max;
		bool vec_set, rep_set;
	} cases[] = {
		{"vec_max=512K:rep_max=64M", 512 * KIB, 64 * MIB, true, true},
		{"rep_max=1G", 256 * KIB, (size_t)1 << 30, false, true},
		{"vec_max=4096", 4096, 8 * MIB, true, false},
		{"rep_max=8M:vec_max=8M", 8 * MIB, 8 * MIB, true, true},
		{"vec_max=1", 1, 8 * MIB, true, false},
		/* "max": never switch (what hotline-bench zero --tune prints for no crossover) */
		{"rep_max=max", 256 * KIB, SIZE_MAX, false, true},
		{"vec_max=512K:rep_max=max", 512 * KIB, SIZE_MAX, true, true},
		{"rep_max=max:vec_max=max", SIZE_MAX, SIZE_MAX, true, true},
	};

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct hl_zero_thresholds t = derived();
		char err[160] = "";

		if (!hl__zero_tunables(cases[i].value, &t, err, sizeof(err)))
			fail_msg("'%s' refused: %s", cases[i].value, err);
		expect(cases[i].value, "vec_max", &t.vec_max, cases[i].vec_max,
		       cases[i].vec_set ? HL_ZERO_TUNABLE : HL_ZERO_DERIVED, NULL);
		expect(cases[i].value, "rep_max", &t.rep_max, cases[i].rep_max,
		       cases[i].rep_set ? HL_ZERO_TUNABLE : HL_ZERO_DERIVED, NULL);
	}
}

static void tunables_bad_change_nothing_and_say_what(void **state)
{
	const struct {
		const char *value, *err_has;
	} cases[] = {
		{"", "empty"},
		{"nt_min=1M", "unknown tunable 'nt_min'"},
		{"VEC_MAX=1M", "unknown tunable"},
		{"vec_max =1M", "unknown tunable"},
		{"vec_max=1M:", "unknown tunable ''"},
		{"vec_max=1M::rep_max=2M", "unknown tunable"},
		{"vec_max=12Q", "vec_max=12Q: not a size"},
		{"vec_max=1\nM", "vec_max=1\\x0aM: not a size"},
		{"v\tec=1", "unknown tunable 'v\\x09ec'"},
		{"vec_max=1MB", "not a size"},
		{"vec_max=", "not a size"},
		{"vec_max", "not a size"},
		{"vec_max=-1", "not a size"},
		{"vec_max= 1", "not a size"},
		{"vec_max=0x100", "not a size"},
		{"vec_max=0", "vec_max=0: not a size of 1 or more"},
		{"rep_max=0K", "not a size of 1 or more"},
		{"rep_max=99999999999999999999", "not a size"},
		{"rep_max=17179869184G", "not a size"},
		{"vec_max=1M:vec_max=2M", "vec_max given twice"},
		{"vec_max=64M:rep_max=1M", "vec_max 67108864 is above rep_max 1048576"},
		{"vec_max=16M", "above rep_max 8388608"},
		{"rep_max=64K", "vec_max 262144 is above rep_max 65536"},
		/* "max" exactly: no case, suffix, blank or abbreviation; and still at most rep_max
		 */
		{"rep_max=MAX", "rep_max=MAX: not a size of 1 or more (digits, then K, M, G or "
				"nothing) nor max"},
		{"rep_max=maxK", "not a size"},
		{"rep_max=max1", "not a size"},
		{"rep_max=ma", "not a size"},
		{"rep_max=max ", "not a size"},
		{"rep_max=maximum", "not a size"},
		{"vec_max=max", "vec_max max is above rep_max 8388608"},
		{"vec_max=max:rep_max=1G", "vec_max max is above rep_max 1073741824"},
		{"rep_max=max:rep_max=1G", "rep_max given twice"},
	};

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		struct hl_zero_thresholds before = derived(), t = before;
		char err[160] = "";

		if (hl__zero_tunables(cases[i].value, &t, err, sizeof(err)))
			fail_msg("'%s' accepted, expected refused", cases[i].value);
		print_message("'%s': %s\n", cases[i].value, err);
		if (memcmp(&t, &before, sizeof(t)) != 0)
			fail_msg("'%s' refused but changed the thresholds", cases[i].value);
		if (!strstr(err, cases[i].err_has) || strchr(err, '\n'))
			fail_msg("'%s': the reason '%s' does not say '%s' on one line",
				 cases[i].value, err, cases[i].err_has);
	}
}

/* ---- The sources string ---- */

static void sources_string_names_each_threshold_and_its_source(void **state)
{
	struct hl_zero_thresholds t = derived();
	char buf[512], small[16];
	int len;

	(void)state;
	len = hl__zero_sources(&t, buf, sizeof(buf));
	assert_string_equal(buf, "vec_max=262144 (derived: L2 1 MiB (described) / 4); "
				 "rep_max=8388608 (derived: max(L3 32 MiB / 4, 3/4 x L3 per "
				 "CPU 2 MiB; 16 CPUs share it, described))");
	assert_int_equal(len, strlen(buf));
	assert_true(hl__zero_tunables("rep_max=1G", &t, buf, sizeof(buf)));
	hl__zero_sources(&t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "; rep_max=1073741824 (tunable)"));
	t.rep_max.value = SIZE_MAX;
	len = hl__zero_sources(&t, buf, sizeof(buf));
	assert_non_null(strstr(buf, "; rep_max=max (tunable)"));
	/* like snprintf: the length always, the prefix that fits, NUL-terminated */
	assert_int_equal(hl__zero_sources(&t, NULL, 0), len);
	assert_int_equal(hl__zero_sources(&t, small, sizeof(small)), len);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, buf, sizeof(small) - 1);
}

/* The library's own: as the JSON's env has it; snprintf-like. */
static void library_sources_match_its_plan(void **state)
{
	char buf[512], plan[256];
	int len = hl_zero_plan_sources(NULL, 0);

	(void)state;
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	assert_int_equal(hl_zero_plan_sources(buf, sizeof(buf)), len);
	hl_zero_plan(plan, sizeof(plan));
	print_message("plan '%s'\nsources '%s'\n", plan, buf);
	assert_true(strncmp(buf, "vec_max=", 8) == 0);
	assert_non_null(strstr(buf, "; rep_max="));
	assert_null(strstr(buf, "(tunable"));
}

/* ---- Through the environment: children ---- */

/* Clear [off, off+n) of a patterned buffer with both calls; 0 if exact. */
static int clear_exact(unsigned char *buf, size_t off, size_t n, int how)
{
	size_t total = off + n + 64;

	fill_pattern(buf, total, 0);
	if (how)
		hl_zero(buf + off, n);
	else if (hl_try_zero(buf + off, n) != 0)
		return 1;
	if (first_unlike_pattern(buf, off, 0) != off || first_nonzero(buf + off, n) != n ||
	    first_unlike_pattern(buf + off + n, 64, off + n) != 64)
		return 1;
	return 0;
}

/*
 * Print the plan and the sources; then clear sizes around every bound of
 * the plan in force (each bound -64..+64 by 1, at 3 offsets), exactly.
 */
static int child_main(const char *scenario)
{
	char plan[512], sources[512];
	size_t bounds[4], nb = 0;
	unsigned char *buf;

	alarm(60);
	hl_zero_plan(plan, sizeof(plan));
	hl_zero_plan_sources(sources, sizeof(sources));
	printf("plan %s\nsources %s\n", plan, sources);
	if (strcmp(scenario, "clear") != 0)
		return 0;
	for (const char *p = plan; *p && nb < N_OF(bounds); p++)
		if (*p >= '0' && *p <= '9' && p[-1] == ' ')
			bounds[nb++] = strtoull(p, (char **)&p, 10);
	for (size_t b = 0; b < nb; b++) {
		if (bounds[b] > 64 * MIB)
			continue;
		buf = malloc(bounds[b] + 256);
		/* (bound + 64 + an offset of 62 + 64 bytes of guard fits in bound + 256) */
		if (!buf)
			return 2;
		/* every size within 64 bytes of a small bound; 3 sizes around a large one */
		size_t d = bounds[b] <= MIB ? 64 : 1;

		for (size_t n = bounds[b] > d ? bounds[b] - d : 1; n <= bounds[b] + d; n++)
			for (size_t off = 0; off < 3; off++)
				if (clear_exact(buf, off * 31, n, (int)(n & 1)))
					return (printf("wrong at n=%zu off=%zu\n", n, off * 31), 3);
		free(buf);
	}
	printf("cleared around %zu bounds\n", nb);
	return 0;
}

struct child {
	char out[2048], err[2048], plan[512], sources[512];
	int err_lines;
};

static void run(const char *scenario, const char *value, struct child *c)
{
	char how[128];
	int status;

	memset(c, 0, sizeof(*c));
	status = run_self_child(scenario, "HOTLINE_ZERO_TUNABLES", value, c->out, sizeof(c->out),
				c->err, sizeof(c->err));
	print_message("HOTLINE_ZERO_TUNABLES=%s: stdout '%s' stderr '%s'\n",
		      value ? value : "(unset)", c->out, c->err);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child (HOTLINE_ZERO_TUNABLES=%s) %s, expected exit 0",
			 value ? value : "(unset)", describe_status(status, how, sizeof(how)));
	if (sscanf(c->out, "plan %511[^\n]\nsources %511[^\n]", c->plan, c->sources) != 2)
		fail_msg("child printed '%s', expected 'plan ...' and 'sources ...'", c->out);
	for (const char *p = c->err; *p; p++)
		c->err_lines += *p == '\n';
}

static void env_tunables_set_the_plan_silently(void **state)
{
	struct child unset, set;
	bool x86 = strstr(hl_zero_variant(), "avx") != NULL;

	(void)state;
	run("print", NULL, &unset);
	assert_int_equal(unset.err_lines, 0);
	run("print", "vec_max=4K:rep_max=64K", &set);
	assert_int_equal(set.err_lines, 0);
	if (x86 && strstr(set.plan, "rep_stosb")) {
		if (!strstr(set.plan, " <= 4096 < rep_stosb <= 65536 < nontemporal"))
			fail_msg("plan '%s', expected the tunables' 4096 and 65536", set.plan);
		assert_string_equal(set.sources, "vec_max=4096 (tunable); rep_max=65536 (tunable)");
	} else if (strchr(set.plan, '<')) { /* a plan of two classes switches at vec_max */
		if (!strstr(set.plan, " <= 4096 < "))
			fail_msg("plan '%s', expected the tunable vec_max 4096", set.plan);
		assert_non_null(strstr(set.sources, "vec_max=4096 (tunable); rep_max=65536 "
						    "(unused: tunable ignored"));
	} else {
		assert_non_null(strstr(set.sources, "(unused: tunable ignored"));
	}
	/* rep_max=max: no streaming class, as hotline-bench zero --tune may print it */
	run("print", "vec_max=4K:rep_max=max", &set);
	assert_int_equal(set.err_lines, 0);
	if (x86 && strstr(set.plan, "rep_stosb")) {
		if (!strstr(set.plan, " <= 4096 < rep_stosb") || strstr(set.plan, "nontemporal"))
			fail_msg("plan '%s', expected vec_max 4096 and no streaming class",
				 set.plan);
		assert_string_equal(set.sources, "vec_max=4096 (tunable); rep_max=max (tunable)");
	} else if (strchr(set.plan, '<')) {
		assert_non_null(strstr(set.sources, "vec_max=4096 (tunable); rep_max=max "
						    "(unused: tunable ignored"));
	}
}

static void env_tunables_bad_are_one_line_and_the_derived_plan(void **state)
{
	static const char *const bad[] = {"nt_min=1M",
					  "vec_max=12Q",
					  "vec_max=0",
					  "vec_max=1M:vec_max=2M",
					  "vec_max=64M:rep_max=1M",
					  "",
					  "vec_max=1M\nrep_max=2M"};
	struct child unset, c;

	(void)state;
	run("print", NULL, &unset);
	for (size_t i = 0; i < N_OF(bad); i++) {
		run("print", bad[i], &c);
		if (c.err_lines != 1 ||
		    strncmp(c.err, "hotline: HOTLINE_ZERO_TUNABLES=", 31) != 0 ||
		    !strstr(c.err, "; using the derived plan\n"))
			fail_msg(
				"HOTLINE_ZERO_TUNABLES='%s': stderr '%s', expected one line "
				"'hotline: HOTLINE_ZERO_TUNABLES=...: ...; using the derived plan'",
				bad[i], c.err);
		if (strcmp(c.plan, unset.plan) != 0 || strcmp(c.sources, unset.sources) != 0)
			fail_msg("HOTLINE_ZERO_TUNABLES='%s': plan '%s' (%s), expected the derived "
				 "'%s' (%s)",
				 bad[i], c.plan, c.sources, unset.plan, unset.sources);
	}
}

/* hl_zero and hl_try_zero exact around each bound: derived, and small tunables (every class). */
static void exact_around_every_threshold(void **state)
{
	struct child c;

	(void)state;
	run("clear", NULL, &c);
	assert_non_null(strstr(c.out, "cleared around"));
	run("clear", "vec_max=2K:rep_max=16K", &c);
	assert_non_null(strstr(c.out, "cleared around"));
	run("clear", "vec_max=300:rep_max=1000", &c); /* refused on arm64 with a 512 B block */
	assert_non_null(strstr(c.out, "cleared around"));
	run("clear", "vec_max=1:rep_max=2", &c);
	assert_non_null(strstr(c.out, "cleared around"));
	run("clear", "vec_max=127:rep_max=128", &c); /* the least on arm64 with a 64 B block */
	assert_non_null(strstr(c.out, "cleared around"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen4_quarter_l2_and_no_streaming),
		cmocka_unit_test(zen5_streaming_from_a_share_of_l3),
		cmocka_unit_test(intel_vectors_to_a_page_and_512_b_streaming_from_a_quarter_of_l3),
		cmocka_unit_test(no_l3_streams_from_three_quarters_of_l2),
		cmocka_unit_test(unknown_caches_give_the_defaults),
		cmocka_unit_test(no_erms_and_no_avx2),
		cmocka_unit_test(arm64_from_the_zva_block),
		cmocka_unit_test(plans_for_described_machines),
		cmocka_unit_test(library_runs_the_plans_for_this_machine),
		cmocka_unit_test(sysfs_cache_directories_are_read),
		cmocka_unit_test(tunables_good_are_applied_as_tunable),
		cmocka_unit_test(tunables_bad_change_nothing_and_say_what),
		cmocka_unit_test(sources_string_names_each_threshold_and_its_source),
		cmocka_unit_test(library_sources_match_its_plan),
		cmocka_unit_test(env_tunables_set_the_plan_silently),
		cmocka_unit_test(env_tunables_bad_are_one_line_and_the_derived_plan),
		cmocka_unit_test(exact_around_every_threshold),
	};

	if (argc == 3 && strcmp(argv[1], "--child") == 0)
		return child_main(argv[2]);
	unsetenv("HOTLINE_ZERO_TUNABLES");
	unsetenv("HOTLINE_ZERO");
	watchdog_start(240, "test_zero_plan");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
