/* SPDX-License-Identifier: MIT */
/*
 * env.h - how the library reads its environment variables
 * (HOTLINE_REFCOUNT, HOTLINE_LOCKREF_RETRIES, HOTLINE_ZERO,
 * HOTLINE_ZERO_TUNABLES, whose sizes may end in K, M or G): one rule for
 * all of them, written once here and in README.md's "Environment".
 *
 * A value is taken exactly as written. Nothing is trimmed (" 5" and "5 "
 * are not 5), case matters ("ABORT" is not "abort"), and a number is
 * decimal digits only (no sign, no blank, no 0x). Unset means the default,
 * silently. Any other value that is not understood, the empty one
 * included, is reported in one line on stderr and the default is used: it
 * is never read as some other value.
 *
 * The line is "hotline: NAME=VALUE: WHAT IS WRONG; using DEFAULT". VALUE
 * shows at most the first HL__ENV_SHOWN bytes of the value, followed by
 * "..." when there were more; printable ASCII other than the space and the
 * backslash stands for itself, every other byte (space, backslash, control
 * characters, newlines, bytes above 0x7e) is written \xNN. So the line is
 * one line, of bounded length, whatever the environment holds.
 *
 * Internal to the library: hidden in libhotline.so, not in any public header.
 */
#ifndef HOTLINE_SRC_ENV_H
#define HOTLINE_SRC_ENV_H

#include <stdbool.h>

#define HL__ENV_SHOWN 64

/*
 * hl__env_report - say that NAME=value is not understood: one line on
 * stderr, "hotline: NAME=<shown value>: " and then fmt (which says what is
 * wrong and "; using DEFAULT", without a newline).
 */
__attribute__((format(printf, 3, 4))) void hl__env_report(const char *name, const char *value,
							  const char *fmt, ...);

/*
 * hl__env_uint - value as a decimal number 0..max. True with *out set if
 * value is one or more digits and nothing else, and at most max; false
 * otherwise (*out unchanged).
 */
bool hl__env_uint(const char *value, unsigned long max, unsigned long *out);

#endif /* HOTLINE_SRC_ENV_H */
