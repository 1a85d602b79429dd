// SPDX-License-Identifier: MIT
/*
 * support/fault_case.c - runs one call of hl_try_zero or hl_try_copy over canary-filled memory
 * and checks the contract.
 */
#include <stdio.h>
#include <string.h>

#include "support/fault_case.h"
#include "support/pattern.h"

size_t fault_expected(uintptr_t start, size_t n, uintptr_t hole, uintptr_t hole_end)
{
	if (start >= hole_end || start + n <= hole)
		return 0;
	if (start >= hole)
		return n;
	return n - (size_t)(hole - start);
}

bool fault_run(fault_call call, struct fault_case *c, char *why, size_t size)
{
	size_t done, i, before = (size_t)(c->dst - c->lo);
	unsigned char *end = c->dst + c->n;

	fill_canary(c->lo, (size_t)(c->hi - c->lo));
	c->got = call(c->dst, c->src, c->n);
	if (c->got != c->want) {
		snprintf(why, size, "returned %zu, expected %zu", c->got, c->want);
		return false;
	}
	done = c->n - c->got;
	if (memcmp(c->dst, c->src, done) != 0) {
		for (i = 0; c->dst[i] == c->src[i]; i++)
			;
		snprintf(why, size,
			 "returned %zu but dst[%zu] is 0x%02x, src[%zu] 0x%02x (copied: %zu bytes)",
			 c->got, i, c->dst[i], i, c->src[i], done);
		return false;
	}
	i = first_unlike_canary(c->lo, before);
	if (i < before) {
		snprintf(why, size, "wrote before dst: dst[-%zu] is 0x%02x", before - i, c->lo[i]);
		return false;
	}
	if (end < c->hi) {
		i = first_unlike_canary(end, (size_t)(c->hi - end));
		if (i < (size_t)(c->hi - end)) {
			snprintf(why, size, "wrote past dst+n: dst[%zu] is 0x%02x", c->n + i,
				 end[i]);
			return false;
		}
	}
	return true;
}
