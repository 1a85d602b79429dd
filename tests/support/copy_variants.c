// SPDX-License-Identifier: MIT
/*
 * support/copy_variants.c - lists the supported hl_try_copy variants; hl_copy_use that must
 * succeed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <hotline/copy.h>

#include "support/copy_variants.h"

int copy_subjects(const char **names, int max)
{
	const char *name;
	int n = 0;

	for (unsigned int i = 0; (name = hl_copy_variant_name(i)) && n < max - 1; i++)
		if (hl_copy_supported(name))
			names[n++] = name;
	names[n++] = "auto";
	return n;
}

void copy_use(const char *name)
{
	if (hl_copy_use(name) != 0)
		fail_msg("hl_copy_use(\"%s\") returned -1, expected 0 (hl_copy_supported says %s)",
			 name, hl_copy_supported(name) ? "true" : "false");
}
