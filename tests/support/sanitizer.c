// SPDX-License-Identifier: MIT
/*
 * support/sanitizer.c - turns sanitizers' fault handlers off for children; keeps the old options.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/sanitizer.h"

static char sanitizer_asan_options[1024], sanitizer_tsan_options[1024];
static bool sanitizer_asan_set, sanitizer_tsan_set;

const char *sanitizer_options_at_start(const char *var)
{
	if (strcmp(var, "ASAN_OPTIONS") == 0)
		return sanitizer_asan_set ? sanitizer_asan_options : NULL;
	return sanitizer_tsan_set ? sanitizer_tsan_options : NULL;
}

void children_without_sanitizer_fault_handlers(void)
{
	static const char *const vars[] = {"ASAN_OPTIONS", "TSAN_OPTIONS"};
	char *saved[] = {sanitizer_asan_options, sanitizer_tsan_options};
	bool *set[] = {&sanitizer_asan_set, &sanitizer_tsan_set};
	char value[1100];

	for (int i = 0; i < 2; i++) {
		const char *was = getenv(vars[i]);

		*set[i] = was != NULL;
		snprintf(saved[i], sizeof(sanitizer_asan_options), "%s", was ? was : "");
		snprintf(value, sizeof(value), "%s%shandle_segv=0:handle_sigbus=0", saved[i],
			 *saved[i] ? ":" : "");
		setenv(vars[i], value, 1);
	}
}
