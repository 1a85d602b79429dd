/* SPDX-License-Identifier: MIT */
/*
 * env_stubs.h - src/env.c's functions, for GenMC clients that include
 * refcount.c or lockref.c: they read HOTLINE_* variables, which a client
 * never sets, so these are never reached with a value.
 */
#ifndef HOTLINE_TESTS_VERIFY_ENV_STUBS_H
#define HOTLINE_TESTS_VERIFY_ENV_STUBS_H

#include <stdbool.h>

void hl__env_report(const char *name, const char *value, const char *fmt, ...)
{
	(void)name;
	(void)value;
	(void)fmt;
}

bool hl__env_uint(const char *s, unsigned long max, unsigned long *out)
{
	(void)s;
	(void)max;
	(void)out;
	return false;
}

#endif
