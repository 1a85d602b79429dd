/* SPDX-License-Identifier: MIT */
/*
 * cli/tool.h - what hotline's C tools (hotline-bench, hotline-sim)
 * share on their command lines: the one-line refusal of bad input (one
 * line naming the option or value, exit 2), decimal and list
 * parsing, getopt's errors put in those terms, and Jain's fairness index,
 * which both report for every result. Needs only libc.
 *
 * tool_init(name, before) names the program for every message ("name: ...";
 * until then, the name it was run by) and, if before is not NULL, calls it
 * before each message is written (the bench clears its progress line
 * there). Messages are one line: control characters a user typed into a
 * value are shown as '?'. It also makes sure the output got out: at exit,
 * if anything written to stdout was lost (a full disk, /dev/full, a closed
 * descriptor), one line says so on stderr and the status is 1 (or the
 * failing status the tool was already exiting with), never 0.
 */
#ifndef HOTLINE_CLI_TOOL_H
#define HOTLINE_CLI_TOOL_H

#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

void tool_init(const char *name, void (*before_message)(void));

/* "name: <prefix><message>" on stderr, one line. */
void tool_vmessage(const char *prefix, const char *fmt, va_list ap);

/* The command line is wrong: one line, exit 2. */
void __attribute__((noreturn, format(printf, 1, 2))) tool_bad_usage(const char *fmt, ...);

/* Something failed that is not the user's input (memory, a file): one line, exit 1. */
void __attribute__((noreturn, format(printf, 1, 2))) tool_die(const char *fmt, ...);

/*
 * A decimal integer in [min, max]: digits only, no sign or blanks. item is
 * the text to parse; whole is the option's whole value, to show where item
 * came from in a list (pass item itself otherwise). Refuses with
 * tool_bad_usage, naming opt.
 */
unsigned long long tool_parse_uint(const char *opt, const char *item, const char *whole,
				   unsigned long long min, unsigned long long max);

/*
 * Split a comma-separated value into a NULL-terminated array of *n items
 * pointing into a copy of the text (*buf); free both when done. Empty items
 * are kept, so that callers can refuse them by name.
 */
char **tool_split_list(const char *value, char **buf, size_t *n);

/* The long option whose val is val, for messages; "?" if none. */
const char *tool_option_name(const struct option *options, int val);

/*
 * getopt_long reported an unknown option (arg is the argv element), or a
 * value given to an option that takes none: say which, and exit 2.
 */
void __attribute__((noreturn)) tool_unknown_option(const struct option *options, const char *arg);

/*
 * getopt_long (with opterr 0 and a leading ':' in its short options)
 * returned c for a bad option: ':' a missing value, anything else an unknown
 * option. Say which, naming the option, and exit 2. first_long is the lowest
 * val of the long options (below it, optopt is a short option's letter).
 */
void __attribute__((noreturn))
tool_bad_option(int c, const struct option *options, int first_long, int argc, char *argv[]);

/* Jain's fairness index of n per-thread counts: 1 when all are equal (or all 0). */
double tool_jain(const uint64_t *v, size_t n);

#endif
