// SPDX-License-Identifier: MIT
/*
 * support/scale.c - reads and checks HOTLINE_TEST_SCALE; scaled counts and sweep strides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <hotline/compiler.h> /* HL_TSAN */

#include "support/scale.h"

long test_env_scale(void)
{
	static long scale;
	const char *v = getenv("HOTLINE_TEST_SCALE");
	char *end;
	long n = 1;

	if (scale)
		return scale;
	if (v && *v) {
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || end == v || *end || n < 1 || n > 1000000) {
			fprintf(stderr,
				"%s: HOTLINE_TEST_SCALE=%s: expected a positive integer "
				"(at most 1000000)\n",
				program_invocation_short_name, v);
			exit(1);
		}
	}
	return scale = n;
}

/* Every test program: a value not understood stops it before its first test. */
__attribute__((constructor)) static void test_scale_check(void)
{
	test_env_scale();
}

long test_scale(void)
{
#ifdef HL_TSAN
	return 4 * test_env_scale();
#else
	return test_env_scale();
#endif
}

long scaled(long n)
{
	return n / test_scale() > 0 ? n / test_scale() : 1;
}

size_t sweep_step(void)
{
	return (size_t)(test_env_scale() | 1);
}

size_t sweep_next(size_t v, size_t dense, size_t last)
{
	if (v + 1 < dense || v >= last)
		return v + 1;
	return v + sweep_step() < last ? v + sweep_step() : last;
}
