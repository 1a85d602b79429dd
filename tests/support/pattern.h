// SPDX-License-Identifier: MIT
/*
 * support/pattern.h - a byte pattern that shows where a clear began and ended, to the byte.
 *
 * fill_pattern(p, n, from) writes the pattern's bytes [from, from + n) to p:
 * byte i is i % 251 + 1: never 0, and no copy shifted by 1..250 bytes
 * matches. first_nonzero(p, n) is the index of the first non-zero byte, n if
 * none; first_unlike_pattern(p, n, from) the first byte that is not the
 * pattern's, n if none.
 *
 * fill_canary(p, n) fills p with bytes the pattern never has (0xfc..0xff,
 * by address: the byte at address a is 0xfc + a % 4), for a destination
 * into which the pattern is copied: a copied byte is always told from one
 * left alone. first_unlike_canary(p, n) is the index of the first byte
 * that is not the canary, n if none.
 */
#ifndef HOTLINE_TESTS_SUPPORT_PATTERN_H
#define HOTLINE_TESTS_SUPPORT_PATTERN_H

#include <stddef.h>

void fill_pattern(unsigned char *p, size_t n, size_t from);
size_t first_nonzero(const unsigned char *p, size_t n);
size_t first_unlike_pattern(const unsigned char *p, size_t n, size_t from);
void fill_canary(unsigned char *p, size_t n);
size_t first_unlike_canary(const unsigned char *p, size_t n);

#endif /* HOTLINE_TESTS_SUPPORT_PATTERN_H */
