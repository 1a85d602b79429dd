// SPDX-License-Identifier: MIT
/*
 * support/pattern.c - writes and checks the 251-byte pattern and the canary; finds non-zero bytes.
 */
#include <stdint.h>
#include <string.h>

#include "support/pattern.h"

/* The pattern repeats every 251 bytes: write one period, then copy what is written. */
void fill_pattern(unsigned char *p, size_t n, size_t from)
{
	size_t done = n < 251 ? n : 251;

	for (size_t i = 0; i < done; i++)
		p[i] = (unsigned char)((from + i) % 251 + 1);
	while (done < n) {
		size_t c = n - done < done ? n - done : done;

		memcpy(p + done, p, c);
		done += c;
	}
}

size_t first_nonzero(const unsigned char *p, size_t n)
{
	static const unsigned char zeros[4096];
	size_t i = 0;

	for (; i + sizeof(zeros) <= n; i += sizeof(zeros))
		if (memcmp(p + i, zeros, sizeof(zeros)))
			break;
	for (; i < n; i++)
		if (p[i])
			return i;
	return n;
}

size_t first_unlike_pattern(const unsigned char *p, size_t n, size_t from)
{
	size_t i = 0, head = n < 251 ? n : 251;

	for (; i < head; i++)
		if (p[i] != (unsigned char)((from + i) % 251 + 1))
			return i;
	/* p[0, 251) is right: each later 251-byte block must equal it */
	for (; i + 251 <= n; i += 251)
		if (memcmp(p + i, p, 251))
			break;
	for (; i < n; i++)
		if (p[i] != (unsigned char)((from + i) % 251 + 1))
			return i;
	return n;
}

static unsigned char canary_at(const unsigned char *p)
{
	return (unsigned char)(0xfc + (uintptr_t)p % 4);
}

void fill_canary(unsigned char *p, size_t n)
{
	size_t i = 0;

	for (; i < n && i < 4; i++)
		p[i] = canary_at(p + i);
	/* p[0, 4) is right: copy what is written, doubling, as the period is 4 */
	while (i < n) {
		size_t c = n - i < i ? n - i : i;

		memcpy(p + i, p, c);
		i += c;
	}
}

size_t first_unlike_canary(const unsigned char *p, size_t n)
{
	static const unsigned char word[8] = {0xfc, 0xfd, 0xfe, 0xff, 0xfc, 0xfd, 0xfe, 0xff};
	size_t i = 0;

	for (; i < n && (uintptr_t)(p + i) % 8; i++)
		if (p[i] != canary_at(p + i))
			return i;
	for (; i + 8 <= n; i += 8) /* from an 8-aligned address: whole words */
		if (memcmp(p + i, word, 8))
			break;
	for (; i < n; i++)
		if (p[i] != canary_at(p + i))
			return i;
	return n;
}
