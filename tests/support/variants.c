// SPDX-License-Identifier: MIT
/*
 * support/variants.c - hl_zero's and hl_try_copy's variants: listing, choosing, and the checks
 * of their variant API (support/variants.h).
 */
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "support/variants.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_VARIANT_INDEX 64 /* variant_name(i) is looked at for i below this */

/* The API of the family hl_<fam>_*: zero, copy. */
#define VARIANT_API(fam)                                                                           \
	{                                                                                          \
		.family = #fam, .variant_name = hl_##fam##_variant_name,                           \
		.supported = hl_##fam##_supported, .use = hl_##fam##_use,                          \
		.variant = hl_##fam##_variant, .plan = hl_##fam##_plan,                            \
	}

const struct variant_api zero_variants = VARIANT_API(zero);
const struct variant_api copy_variants = VARIANT_API(copy);

int variant_subjects(const struct variant_api *api, const char **names, int max)
{
	const char *name;
	int n = 0;

	for (unsigned int i = 0; (name = api->variant_name(i)) && n < max - 1; i++)
		if (api->supported(name))
			names[n++] = name;
	names[n++] = "auto";
	return n;
}

void variant_use(const struct variant_api *api, const char *name)
{
	if (api->use(name) != 0)
		fail_msg("hl_%s_use(\"%s\") returned -1, expected 0 (hl_%s_supported says %s)",
			 api->family, name, api->family, api->supported(name) ? "true" : "false");
}

int zero_subjects(const char **names, int max)
{
	return variant_subjects(&zero_variants, names, max);
}

void zero_use(const char *name)
{
	variant_use(&zero_variants, name);
}

int copy_subjects(const char **names, int max)
{
	return variant_subjects(&copy_variants, names, max);
}

struct subjects zeroing, copying;

int subjects_setup(void **state)
{
	(void)state;
	zeroing.n = zero_subjects(zeroing.name, SUBJECTS_MAX);
	copying.n = copy_subjects(copying.name, SUBJECTS_MAX);
	return 0;
}

void copy_use(const char *name)
{
	variant_use(&copy_variants, name);
}

void variant_check_use_each(const struct variant_api *api, const char **subjects, int n,
			    void (*after)(const char *name))
{
	const char *f = api->family;
	char plan[512];

	for (int s = 0; s + 1 < n; s++) {
		variant_use(api, subjects[s]);
		if (strcmp(api->variant(), subjects[s]) != 0)
			fail_msg("after hl_%s_use(\"%s\"), hl_%s_variant() is '%s'", f, subjects[s],
				 f, api->variant());
		api->plan(plan, sizeof(plan));
		if (strcmp(plan, subjects[s]) != 0)
			fail_msg("after hl_%s_use(\"%s\"), hl_%s_plan is '%s', expected just the "
				 "name",
				 f, subjects[s], f, plan);
		if (after)
			after(subjects[s]);
	}
	variant_use(api, "auto");
}

/* The i-th name variant_check_bad_use tries: NULL, the bad ones, then the unsupported. */
static bool bad_name(const struct variant_api *api, const char *const *bad, size_t n_bad, size_t i,
		     const char **name)
{
	if (i == 0) {
		*name = NULL;
		return true;
	}
	if (i <= n_bad) {
		*name = bad[i - 1];
		return true;
	}
	*name = api->variant_name((unsigned int)(i - 1 - n_bad));
	return *name && !api->supported(*name);
}

void variant_check_bad_use(const struct variant_api *api, const char *const *bad, size_t n_bad,
			   const char *first)
{
	const char *modes[] = {first, "auto"}, *f = api->family, *name, *variant_before;
	char before[512], after[512];
	int unsupported = 0;

	for (size_t m = 0; m < N_OF(modes); m++) {
		variant_use(api, modes[m]);
		api->plan(before, sizeof(before));
		variant_before = api->variant();
		for (size_t i = 0; i <= n_bad + MAX_VARIANT_INDEX; i++) {
			if (!bad_name(api, bad, n_bad, i, &name))
				continue;
			unsupported += i > n_bad;
			if (api->use(name) != -1)
				fail_msg("hl_%s_use(%s%s%s) returned 0, expected -1", f,
					 name ? "\"" : "", name ? name : "NULL", name ? "\"" : "");
			api->plan(after, sizeof(after));
			if (strcmp(before, after) || strcmp(variant_before, api->variant()))
				fail_msg("hl_%s_use(%s) failed but changed the variant from '%s' "
					 "(plan '%s') to '%s' (plan '%s')",
					 f, name ? name : "NULL", variant_before, before,
					 api->variant(), after);
		}
	}
	if (!unsupported)
		print_message("every %s variant is supported on this CPU: hl_%s_use of an "
			      "unsupported one not exercised here\n",
			      f, f);
	variant_use(api, "auto");
}

/* plan(buf, size) of the plan FULL (LEN characters) in MODE, for one SIZE. */
static void check_plan_cut_at(const struct variant_api *api, const char *mode, const char *full,
			      int len, size_t size)
{
	size_t fits = size <= (size_t)len ? size - 1 : (size_t)len;
	char buf[520];
	int got;

	memset(buf, '#', sizeof(buf));
	got = api->plan(buf, size);
	if (got != len)
		fail_msg("%s: hl_%s_plan(buf, %zu) returned %d, expected %d (the full length, like "
			 "snprintf)",
			 mode, api->family, size, got, len);
	if (size > 0 && (strlen(buf) != fits || strncmp(buf, full, fits)))
		fail_msg("%s: hl_%s_plan(buf, %zu) wrote '%s', expected the first %zu characters "
			 "of '%s'",
			 mode, api->family, size, buf, fits, full);
	for (size_t i = size; i < sizeof(buf); i++)
		if (buf[i] != '#')
			fail_msg("%s: hl_%s_plan(buf, %zu) wrote buf[%zu]", mode, api->family, size,
				 i);
}

void variant_check_plan_cut(const struct variant_api *api, const char *first)
{
	const char *modes[] = {"auto", first};
	char full[512];

	for (size_t m = 0; m < N_OF(modes); m++) {
		int len;

		variant_use(api, modes[m]);
		len = api->plan(full, sizeof(full));
		assert_true(len > 0 && (size_t)len < sizeof(full));
		assert_int_equal(len, (int)strlen(full));
		if (api->plan(NULL, 0) != len)
			fail_msg("%s: hl_%s_plan(NULL, 0) returned %d, expected %d", modes[m],
				 api->family, api->plan(NULL, 0), len);
		for (size_t size = 0; size <= (size_t)len + 2; size++)
			check_plan_cut_at(api, modes[m], full, len, size);
	}
	variant_use(api, "auto");
}
