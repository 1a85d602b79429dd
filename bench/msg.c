// SPDX-License-Identifier: MIT
/*
 * msg.c - hotline-bench's messages on stderr: errors, notes and the
 * progress line. See harness.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"
#include "tool.h"

static bool progress_shown;

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

void bench_progress(const char *scenario, const char *subject, unsigned int rep, unsigned int reps)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K%s: %s: %s, repetition %u/%u", BENCH_NAME, scenario, subject, rep,
		reps);
	fflush(stderr);
	progress_shown = true;
}

void bench_progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}
