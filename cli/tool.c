// SPDX-License-Identifier: MIT
/* cli/tool.c - see tool.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

/* Until tool_init: the name the program was run by. */
static const char *program;
static void (*before)(void);
/* The status tool_die / tool_bad_usage are exiting with; 0 otherwise. */
static int exiting_with;
/* stdout was closed when the tool started (hold_stdout). */
static bool stdout_closed;

/*
 * At exit: the results on stdout must have been written. A full disk, a
 * closed descriptor or a broken device shows only here (an error set by an
 * earlier write, or the last buffer failing to flush or close), and a tool
 * that lost its output must not exit 0. As gnulib's close_stdout: a close
 * that fails with EBADF when nothing was written or pending is not an error
 * (stdout closed, nothing lost). Status 1, or the status the tool was
 * already failing with; _exit, since exit() may not be called again here.
 */
static void check_stdout(void)
{
	bool pending = __fpending(stdout) != 0;
	bool failed = ferror(stdout) != 0;
	const char *why = stdout_closed ? "it is closed" : "a write failed";

	errno = 0;
	if (fclose(stdout) != 0 && (failed || pending || errno != EBADF)) {
		failed = true;
		if (errno && !stdout_closed)
			why = strerror(errno);
	}
	if (!failed)
		return;
	if (before)
		before();
	fprintf(stderr, "%s: cannot write the output to stdout: %s\n",
		program ? program : program_invocation_short_name, why);
	_exit(exiting_with ? exiting_with : 1);
}

/*
 * A closed stdout (>&-) must stay unusable: otherwise the next file the tool
 * opens becomes descriptor 1 and the results land in it. A read-only
 * /dev/null in its place makes every write to stdout fail (EBADF).
 */
static void hold_stdout(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF)
		return;
	stdout_closed = true;
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

void tool_init(const char *name, void (*before_message)(void))
{
	program = name;
	before = before_message;
	hold_stdout();
	atexit(check_stdout);
}

void tool_vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	/* One line, whatever the user typed into a value. */
	for (char *c = line; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	}
	if (before)
		before();
	fprintf(stderr, "%s: %s%s\n", program ? program : program_invocation_short_name, prefix,
		line);
}

/* The message, then exit(status): the status check_stdout keeps if stdout fails at exit. */
static void __attribute__((noreturn)) message_and_exit(int status, const char *fmt, va_list ap)
{
	tool_vmessage("", fmt, ap);
	exiting_with = status;
	exit(status);
}

void tool_bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message_and_exit(2, fmt, ap);
}

void tool_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message_and_exit(1, fmt, ap);
}

unsigned long long tool_parse_uint(const char *opt, const char *item, const char *whole,
				   unsigned long long min, unsigned long long max)
{
	const char *kind = min > 0 ? "a positive integer" : "a non-negative integer";
	char where[300] = "";
	unsigned long long v = 0;
	bool overflow = false;

	if (strcmp(whole, item) != 0)
		snprintf(where, sizeof(where), " in '%s'", whole);
	if (!*item)
		tool_bad_usage("%s: '%s'%s is not %s", opt, item, where, kind);
	for (const char *p = item; *p; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (*p < '0' || *p > '9')
			tool_bad_usage("%s: '%s'%s is not %s", opt, item, where, kind);
		if (v > (ULLONG_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	if (!overflow && v == 0 && min > 0)
		tool_bad_usage("%s: '%s'%s is not %s", opt, item, where, kind);
	if (overflow || v < min || v > max)
		tool_bad_usage("%s: '%s'%s is out of range (%llu..%llu)", opt, item, where, min,
			       max);
	return v;
}

char **tool_split_list(const char *value, char **buf, size_t *n)
{
	size_t cap = 2;
	char **items;
	char *p;

	for (const char *c = value; *c; c++)
		cap += *c == ',';
	*buf = strdup(value);
	items = calloc(cap, sizeof(*items));
	if (!*buf || !items)
		tool_die("out of memory");
	*n = 0;
	p = *buf;
	for (;;) {
		char *comma = strchr(p, ',');

		items[(*n)++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return items;
}

const char *tool_option_name(const struct option *options, int val)
{
	for (const struct option *o = options; o->name; o++) {
		if (o->val == val)
			return o->name;
	}
	return "?";
}

void tool_unknown_option(const struct option *options, const char *arg)
{
	size_t len;

	if (arg && strncmp(arg, "--", 2) == 0) {
		len = strcspn(arg, "=");
		for (const struct option *o = options; o->name; o++) {
			if (arg[len] == '=' && strlen(o->name) == len - 2 &&
			    strncmp(o->name, arg + 2, len - 2) == 0)
				tool_bad_usage("--%s: takes no value ('%s')", o->name, arg);
		}
		tool_bad_usage("unknown option '%.*s' (try --help)", (int)len, arg);
	}
	if (optopt > 0 && optopt < 256)
		tool_bad_usage("unknown option '-%c' (try --help)", optopt);
	tool_bad_usage("unknown option '%s' (try --help)", arg ? arg : "?");
}

void tool_bad_option(int c, const struct option *options, int first_long, int argc, char *argv[])
{
	if (c == ':') {
		if (optopt >= first_long)
			tool_bad_usage("--%s: missing value", tool_option_name(options, optopt));
		tool_bad_usage("-%c: missing value", optopt);
	}
	tool_unknown_option(options, optind > 0 && optind <= argc ? argv[optind - 1] : NULL);
}

double tool_jain(const uint64_t *v, size_t n)
{
	double sum = 0, sum_sq = 0;

	for (size_t i = 0; i < n; i++) {
		sum += (double)v[i];
		sum_sq += (double)v[i] * (double)v[i];
	}
	if (n == 0 || sum_sq == 0)
		return 1.0;
	return sum * sum / ((double)n * sum_sq);
}
