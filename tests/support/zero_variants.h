// SPDX-License-Identifier: MIT
/*
 * support/zero_variants.h - the hl_zero variants this CPU runs, and choosing one.
 *
 * zero_subjects(names, max) fills names with every variant
 * hl_zero_supported() says this CPU runs, then "auto", and returns how many;
 * zero_use(name) is hl_zero_use that fails the test unless it returns 0.
 */
#ifndef HOTLINE_TESTS_SUPPORT_ZERO_VARIANTS_H
#define HOTLINE_TESTS_SUPPORT_ZERO_VARIANTS_H

int zero_subjects(const char **names, int max);
void zero_use(const char *name);

#endif /* HOTLINE_TESTS_SUPPORT_ZERO_VARIANTS_H */
