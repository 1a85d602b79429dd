// SPDX-License-Identifier: MIT
/*
 * scenarios/zero_arena.c - zero's memory: the last-level cache's size, the
 * cold arena sized from it and the scattered walk over it, and the one
 * mapping every sample uses.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "zero.h"

#define ZT_MIN_ARENA (64ull << 20)
#define ZT_MAX_ARENA (2ull << 30)
#define ZT_LLC_GUESS (32ull << 20) /* when the machine does not say */

size_t zt_llc_bytes(bool *guessed)
{
	size_t llc = bench_llc_bytes();
	long v;

	*guessed = false;
	if (llc)
		return llc;
	v = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (v > 0)
		return (size_t)v;
	*guessed = true;
	return ZT_LLC_GUESS;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

size_t zt_arena_bytes(size_t llc)
{
	size_t arena = round_up(llc * ZT_ARENA_LLCS, ZT_HUGE_PAGE);

	if (arena < ZT_MIN_ARENA)
		arena = ZT_MIN_ARENA;
	if (arena > ZT_MAX_ARENA)
		arena = ZT_MAX_ARENA;
	return arena;
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The cold walk at size n: slots of n bytes rounded up to a cache line, and
 * a step near 0.618 of their number that is coprime with it, so that the
 * walk visits every slot once before it comes back (the whole arena, four
 * times the cache, is written between two visits of one slot) and two
 * consecutive calls are far apart.
 */
void zt_cold_walk(struct zt_sample *s, size_t arena)
{
	s->slot_bytes = round_up(s->size, ZT_ALIGN);
	s->nr_slots = arena / s->slot_bytes;
	s->step = 1;
	if (s->nr_slots > 3) {
		s->step = (size_t)((double)s->nr_slots * 0.6180339887);
		while (gcd(s->step, s->nr_slots) != 1)
			s->step++;
	}
}

/*
 * The memory every sample uses (need bytes: the largest hot buffer and the
 * byte after it, the cold arena, the dd block), every page faulted in;
 * huge pages where the kernel gives them.
 */
int zt_map(struct zt_run *run, size_t need)
{
	run->region_bytes = round_up(need, ZT_HUGE_PAGE);
	run->region = mmap(NULL, run->region_bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (run->region == MAP_FAILED) {
		run->region = NULL;
		bench_error("%s: cannot map %zu MiB: %s", ZT_NAME, run->region_bytes >> 20,
			    strerror(errno));
		return -1;
	}
	madvise(run->region, run->region_bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	for (size_t off = 0; off < run->region_bytes; off += ZT_PAGE)
		run->region[off] = 1;
	return 0;
}

void zt_unmap(struct zt_run *run)
{
	if (run->region)
		munmap(run->region, run->region_bytes);
	run->region = NULL;
}
