// SPDX-License-Identifier: MIT
/*
 * msg.c - hotline-bench's messages on stderr: errors and notes (the
 * progress is progress.c's). See harness.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "harness.h"
#include "tool.h"

/*
 * Messages go through tool_vmessage: "hotline-bench: ...", one line, after
 * the progress line is cleared (main's tool_init).
 */
void bench_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmessage("", fmt, ap);
	va_end(ap);
}

void bench_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmessage("note: ", fmt, ap);
	va_end(ap);
}
