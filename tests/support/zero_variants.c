// SPDX-License-Identifier: MIT
/*
 * support/zero_variants.c - lists the supported hl_zero variants; hl_zero_use that must succeed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hotline/zero.h>

#include "support/zero_variants.h"

int zero_subjects(const char **names, int max)
{
	const char *name;
	int n = 0;

	for (unsigned int i = 0; (name = hl_zero_variant_name(i)) && n < max - 1; i++)
		if (hl_zero_supported(name))
			names[n++] = name;
	names[n++] = "auto";
	return n;
}

void zero_use(const char *name)
{
	if (hl_zero_use(name) != 0)
		fail_msg("hl_zero_use(\"%s\") returned -1, expected 0 (hl_zero_supported says %s)",
			 name, hl_zero_supported(name) ? "true" : "false");
}
