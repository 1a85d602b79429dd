// SPDX-License-Identifier: MIT
/*
 * support/variants.h - the variants of hl_zero and hl_try_copy this CPU runs, choosing one,
 * and the tests of their variant API, once for both.
 *
 * struct variant_api is one family's API (include/hotline/zero.h, copy.h):
 * zero_variants (hl_zero_*) and copy_variants (hl_copy_*). Nothing here
 * names a variant: the list is the library's (variant_name), so the same
 * tests run on every architecture.
 *
 * variant_subjects(api, names, max) fills names with every variant
 * api->supported says this CPU runs, then "auto", and returns how many;
 * variant_use(api, name) is api->use that fails the test unless it returns
 * 0. zero_subjects, zero_use, copy_subjects and copy_use are these for
 * each family. zeroing and copying hold each family's subjects for the
 * programs that test every variant; subjects_setup(state), a cmocka group
 * setup, fills both.
 *
 * The checks, each of which fails the cmocka test that calls it:
 *  - variant_check_use_each(api, subjects, n, after): for each subject but
 *    the last ("auto"), use makes it the variant and the whole plan; then
 *    after(name), if not NULL; ends in "auto";
 *  - variant_check_bad_use(api, bad, n_bad, first): in the mode of the
 *    variant first and in "auto", use(NULL), use of each bad name and of
 *    each unsupported variant return -1 and change neither the variant nor
 *    the plan; ends in "auto";
 *  - variant_check_plan_cut(api, first): in "auto" and in the variant
 *    first, plan(buf, size) for every size up to the full length + 2, and
 *    plan(NULL, 0): returns the full length (like snprintf), writes its
 *    first size - 1 characters and a NUL, nothing past size; ends in "auto".
 */
#ifndef HOTLINE_TESTS_SUPPORT_VARIANTS_H
#define HOTLINE_TESTS_SUPPORT_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>

struct variant_api {
	const char *family; /* "zero", "copy": messages name hl_<family>_use, ... */
	const char *(*variant_name)(unsigned int i);
	bool (*supported)(const char *name);
	int (*use)(const char *name);
	const char *(*variant)(void);
	int (*plan)(char *buf, size_t size);
};

extern const struct variant_api zero_variants, copy_variants;

int variant_subjects(const struct variant_api *api, const char **names, int max);
void variant_use(const struct variant_api *api, const char *name);

int zero_subjects(const char **names, int max);
void zero_use(const char *name);
int copy_subjects(const char **names, int max);
void copy_use(const char *name);

/* Every variant of a family this CPU runs, then "auto": up to 32 variants. */
#define SUBJECTS_MAX 33
struct subjects {
	const char *name[SUBJECTS_MAX];
	int n;
};
extern struct subjects zeroing, copying;
int subjects_setup(void **state);

void variant_check_use_each(const struct variant_api *api, const char **subjects, int n,
			    void (*after)(const char *name));
void variant_check_bad_use(const struct variant_api *api, const char *const *bad, size_t n_bad,
			   const char *first);
void variant_check_plan_cut(const struct variant_api *api, const char *first);

#endif /* HOTLINE_TESTS_SUPPORT_VARIANTS_H */
