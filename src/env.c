// SPDX-License-Identifier: MIT
/*
 * env.c - the one rule by which the library reads its environment
 * variables, and the one line by which it reports a value it does not
 * understand (env.h says what both are).
 */
#include <stdarg.h>
#include <stdio.h>

#include "env.h"

/* "\xNN" per byte, at most HL__ENV_SHOWN of them, "..." and the NUL. */
#define SHOWN_SIZE (HL__ENV_SHOWN * 4 + 4)

/* The value as the report shows it: a bounded prefix, every unclear byte as \xNN. */
static void show(const char *value, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; value[i] && i < HL__ENV_SHOWN; i++) {
		unsigned char c = (unsigned char)value[i];

		if (c > ' ' && c < 0x7f && c != '\\') {
			*out++ = (char)c;
			continue;
		}
		*out++ = '\\';
		*out++ = 'x';
		*out++ = hex[c >> 4];
		*out++ = hex[c & 15];
	}
	if (value[i]) {
		*out++ = '.';
		*out++ = '.';
		*out++ = '.';
	}
	*out = '\0';
}

void hl__env_report(const char *name, const char *value, const char *fmt, ...)
{
	char shown[SHOWN_SIZE], what[256];
	va_list ap;

	show(value, shown);
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* One call, so that the line is one write to the unbuffered stderr. */
	fprintf(stderr, "hotline: %s=%s: %s\n", name, shown, what);
}

bool hl__env_uint(const char *value, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!*value)
		return false;
	for (const char *p = value; *p; p++) {
		unsigned long digit = (unsigned long)(*p - '0');

		if (*p < '0' || *p > '9' || v > max / 10 || digit > max - v * 10)
			return false;
		v = v * 10 + digit;
	}
	*out = v;
	return true;
}
