// SPDX-License-Identifier: MIT
/*
 * support/pattern.c - writes and checks the 251-byte pattern, and finds non-zero bytes, fast.
 */
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
