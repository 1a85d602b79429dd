// SPDX-License-Identifier: MIT
/*
 * support/copy_variants.h - the hl_try_copy variants this CPU runs, and choosing one.
 *
 * copy_subjects(names, max) fills names with every variant
 * hl_copy_supported() says this CPU runs, then "auto", and returns how
 * many; copy_use(name) is hl_copy_use that fails the test unless it returns
 * 0. Nothing here names a variant: the list is the library's
 * (hl_copy_variant_name), so the same tests run on every architecture.
 */
#ifndef HOTLINE_TESTS_SUPPORT_COPY_VARIANTS_H
#define HOTLINE_TESTS_SUPPORT_COPY_VARIANTS_H

int copy_subjects(const char **names, int max);
void copy_use(const char *name);

#endif /* HOTLINE_TESTS_SUPPORT_COPY_VARIANTS_H */
