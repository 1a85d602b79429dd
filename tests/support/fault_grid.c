// SPDX-License-Identifier: MIT
/*
 * support/fault_grid.c - the fault grids of hl_try_zero's and hl_try_copy's tests, over a call
 * pointer (support/fault_grid.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../../src/plan.h"
#include "support/fault_grid.h"
#include "support/faults.h"
#include "support/guarded.h"
#include "support/pattern.h"
#include "support/scale.h"
#include "support/variants.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define MAX_D	    130 /* distances 0..MAX_D from the start to the protected page */
#define MAX_N	    300 /* lengths 0..MAX_N */
#define EDGE_CANARY 192 /* canary bytes checked before dst, per call */

/* hl_try_zero through the call pointer of the grids (support/fault_case.h): src unused. */
size_t fault_try_zero(void *dst, const void *src, size_t n)
{
	(void)src;
	return hl_try_zero(dst, n);
}

static const char *side_name(enum fault_side side)
{
	return side == FAULT_SRC_HOLE ? "source" : "destination";
}

/* The sides a hole may be on: the source only where the call reads one. */
static int first_side(const struct fault_api *api)
{
	return api->reads_src ? FAULT_SRC_HOLE : FAULT_DST_HOLE;
}

/* One call, checked (support/fault_case.h); a failure names the variant and the case. */
static void run_case(const struct fault_api *api, const char *v, const char *what,
		     struct fault_case *c)
{
	const char *args = api->reads_src ? "dst, src" : "dst";
	char why[256];

	fault_note("%s: %s(%s, %zu): %s", v, api->name, args, c->n, what);
	if (!fault_run(api->call, c, why, sizeof(why)))
		fail_msg("%s: %s(%s, %zu), %s: %s (the first faulting address must be the hole's "
			 "first byte)",
			 v, api->name, args, c->n, what, why);
}

/* The page after buf + len must still hold the pattern (read, unprotected if need be). */
static void check_guard(const char *v, unsigned char *buf, size_t len, int prot)
{
	size_t page = page_size(), i;

	if (prot == PROT_NONE)
		assert_int_equal(mprotect(buf + len, page, PROT_READ), 0);
	i = first_unlike_pattern(buf + len, page, len);
	if (i < page)
		fail_msg("%s: the protected page after the destination changed: byte %zu is "
			 "0x%02x",
			 v, i, buf[len + i]);
	if (prot == PROT_NONE)
		assert_int_equal(mprotect(buf + len, page, PROT_NONE), 0);
}

/*
 * The side without the hole: for a call that reads a source, len bytes of
 * the pattern, writable; for one that does not, len bytes of zeros, which
 * is what it must write.
 */
static unsigned char *map_plain(const struct fault_api *api, size_t len)
{
	int prot = api->reads_src ? PROT_READ | PROT_WRITE : PROT_READ;
	unsigned char *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail_msg("mmap of %zu bytes: %s", len, strerror(errno));
	if (api->reads_src)
		fill_pattern(p, len, 7);
	return p;
}

/* One case of the edge grid: the side's range starts d bytes before the page after guarded[len]. */
static void edge_case(struct fault_case *c, enum fault_side side, unsigned char *guarded,
		      size_t len, unsigned char *plain, size_t d)
{
	size_t off = 256 + (d * 37) % 64;

	if (side == FAULT_SRC_HOLE) {
		c->src = guarded + len - d;
		c->dst = plain + off;
		c->lo = c->dst - EDGE_CANARY;
		c->hi = c->dst + MAX_N + 64;
	} else {
		c->src = plain + off;
		c->dst = guarded + len - d;
		c->lo = c->dst - EDGE_CANARY;
		c->hi = guarded + len;
	}
}

void fault_grid_edges(const struct fault_api *api, enum fault_side side, int prot)
{
	size_t page = page_size(), len = 2 * page;
	unsigned char *guarded = map_guarded(len, prot), *plain = map_plain(api, len);
	char what[96];

	for (int s = 0; s < api->subjects->n; s++) {
		api->use(api->subjects->name[s]);
		for (size_t d = 0; d <= MAX_D; d++) {
			for (size_t n = 0; n <= MAX_N; n = sweep_next(n, 16, MAX_N)) {
				struct fault_case c = {.n = n, .want = n > d ? n - d : 0};

				edge_case(&c, side, guarded, len, plain, d);
				snprintf(what, sizeof(what), "%s %zu bytes before a %s page",
					 side_name(side), d,
					 prot == PROT_NONE ? "PROT_NONE" : "read-only");
				run_case(api, api->subjects->name[s], what, &c);
			}
		}
		if (side == FAULT_DST_HOLE)
			check_guard(api->subjects->name[s], guarded, len, prot);
		else if (first_unlike_pattern(guarded, len, 0) < len)
			fail_msg("%s: the source changed", api->subjects->name[s]);
	}
	api->use("auto");
	unmap_guarded(guarded, len);
	munmap(plain, len);
}

/*
 * The sizes of the deep grid: fixed ones for every variant (the first
 * *n_fixed), then each class bound of the plan in force and one more, and
 * a size well inside the last class; returns how many.
 */
static size_t deep_sizes(const struct fault_api *api, size_t *sizes, size_t max_sizes,
			 size_t *n_fixed)
{
	static const size_t fixed[] = {64, 1000, 2049, 4096 + 100, 65536 + 7, (1 << 20) + 3};
	size_t n = 0, max = 0;
	struct hl_size_plan plan;

	api->use("auto");
	api->plan(&plan);
	for (size_t i = 0; i < N_OF(fixed); i++)
		sizes[n++] = fixed[i];
	*n_fixed = n;
	for (unsigned int i = 0; i < plan.n && n + 3 < max_sizes; i++) {
		if (plan.c[i].max == SIZE_MAX)
			continue;
		sizes[n++] = plan.c[i].max;
		sizes[n++] = plan.c[i].max + 1;
	}
	for (size_t i = 0; i < n; i++)
		max = sizes[i] > max ? sizes[i] : max;
	sizes[n++] = max + max / 4 + 5; /* well inside the last class */
	return n;
}

/* n bytes with a hole d bytes in, on each side the call has. */
static void deep_cases(const struct fault_api *api, const char *v, unsigned char *guarded,
		       size_t len, unsigned char *plain, size_t n)
{
	size_t ds[] = {1, 63, 64, 65, 4095, 4097, n / 2 + 3, n - 64, n - 1, n};
	char what[96];

	for (size_t k = 0; k < N_OF(ds); k++) {
		size_t d = ds[k], off = 64 + (k * 13) % 64;
		struct fault_case c = {.n = n, .want = n - d};

		if (d > n)
			continue;
		for (int side = first_side(api); side <= FAULT_DST_HOLE; side++) {
			if (side == FAULT_SRC_HOLE) {
				c.src = guarded + len - d;
				c.dst = plain + off;
				c.lo = plain;
				c.hi = c.dst + n + 64;
			} else {
				c.src = plain + off;
				c.dst = guarded + len - d;
				c.lo = c.dst - (len - d < 4096 ? len - d : 4096);
				c.hi = guarded + len;
			}
			snprintf(what, sizeof(what), "%s hole %zu bytes in", side_name(side), d);
			run_case(api, v, what, &c);
		}
	}
}

void fault_grid_deep(const struct fault_api *api)
{
	size_t sizes[64], n_fixed, n_sizes, max, len, page = page_size();
	unsigned char *guarded, *plain;

	n_sizes = deep_sizes(api, sizes, N_OF(sizes), &n_fixed);
	max = sizes[n_sizes - 1];
	len = (max + 2 * page) / page * page;
	guarded = map_guarded(len, PROT_NONE);
	plain = map_plain(api, len + page);
	print_message("%s: sizes up to %zu\n", api->name, max);
	for (int s = 0; s < api->subjects->n; s++) {
		api->use(api->subjects->name[s]);
		for (size_t i = 0; i < n_sizes; i++)
			/* only auto needs the plan's sizes; every variant gets the fixed ones */
			if (i < n_fixed || strcmp(api->subjects->name[s], "auto") == 0)
				deep_cases(api, api->subjects->name[s], guarded, len, plain,
					   sizes[i]);
	}
	api->use("auto");
	unmap_guarded(guarded, len);
	munmap(plain, len + page);
}

/* A PROT_NONE page at 512 KiB + 4096 k of a 1 MiB call, on each side: the call stops there. */
void fault_grid_hole(const struct fault_api *api)
{
	size_t page = page_size(), len = 1 << 20;
	unsigned char *holed = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				    -1, 0),
		      *plain = map_plain(api, len + page);
	char what[96];

	assert_true(holed != MAP_FAILED);
	fill_pattern(holed, len, 7);
	for (int s = 0; s < api->subjects->n; s++) {
		api->use(api->subjects->name[s]);
		for (size_t k = 0; k < 4; k++) {
			size_t hole = (512 << 10) + page * k;

			assert_int_equal(mprotect(holed + hole, page, PROT_NONE), 0);
			for (size_t a = 0; a < 80; a += 37) {
				size_t b = (a * 3 + k) % 64;
				struct fault_case c = {.n = len - a, .want = len - hole};

				for (int side = first_side(api); side <= FAULT_DST_HOLE; side++) {
					c.src = side == FAULT_SRC_HOLE ? holed + a : plain + b;
					c.dst = side == FAULT_SRC_HOLE ? plain + b : holed + a;
					c.lo = side == FAULT_SRC_HOLE ? plain : holed;
					c.hi = side == FAULT_SRC_HOLE ? plain + len + page
								      : holed + hole;
					snprintf(what, sizeof(what),
						 "%s at +%zu, a PROT_NONE page %zu bytes in",
						 side_name(side), a, hole - a);
					run_case(api, api->subjects->name[s], what, &c);
				}
			}
			assert_int_equal(mprotect(holed + hole, page, PROT_READ | PROT_WRITE), 0);
		}
	}
	api->use("auto");
	munmap(holed, len);
	munmap(plain, len + page);
}

/* After a call wrote done bytes at map + off from src: the file holds them, and the canary. */
static void check_file_dest(const struct fault_api *api, const char *v, int fd,
			    const unsigned char *src, size_t off, size_t done)
{
	size_t page = page_size(), eof = page + page / 2;
	unsigned char *file = malloc(eof);
	struct stat st;

	assert_non_null(file);
	if (pread(fd, file, eof, 0) != (ssize_t)eof)
		fail_msg("pread of the file: %s", strerror(errno));
	for (size_t i = 0; i < eof; i++) {
		bool written = i >= off && i < off + done;

		if (written ? file[i] != src[i - off] : file[i] < 0xfc)
			fail_msg("%s: after %s(map + %zu, ...) wrote %zu bytes, the file's byte "
				 "%zu is 0x%02x, expected %s",
				 v, api->name, off, done, i, file[i],
				 written ? "the one written" : "the canary");
	}
	assert_int_equal(fstat(fd, &st), 0);
	if ((size_t)st.st_size != eof)
		fail_msg("%s: the file is %lld bytes after %s, expected %zu", v,
			 (long long)st.st_size, api->name, eof);
	free(file);
}

/* n bytes at map + off, the file as the source (if the call reads one), then as the destination. */
static void beyond_eof_case(const struct fault_api *api, const char *v, int fd, unsigned char *map,
			    unsigned char *plain, size_t off, size_t n, size_t o)
{
	size_t page = page_size(), stop = 2 * page, eof = page + page / 2;
	struct fault_case c = {.n = n, .want = fault_expected(off, n, stop, 3 * page)};
	char what[96];

	if (api->reads_src) {
		fill_pattern(map, eof, 0);
		c.src = map + off;
		c.dst = plain + 64 + o;
		c.lo = plain;
		c.hi = plain + 4 * page;
		snprintf(what, sizeof(what), "source map + %zu of a file of %zu bytes", off, eof);
		run_case(api, v, what, &c);
		fill_pattern(plain, 4 * page, 3);
	}
	c.src = plain + 64 + o;
	c.dst = map + off;
	fill_canary(map, stop);
	c.lo = off <= stop ? map : c.dst; /* no canary in the SIGBUS page */
	c.hi = off <= stop ? map + stop : c.dst;
	snprintf(what, sizeof(what), "destination map + %zu of a file of %zu bytes", off, eof);
	run_case(api, v, what, &c);
	check_file_dest(api, v, fd, c.src, off, n - c.got);
}

void fault_grid_beyond_eof(const struct fault_api *api, int fd, unsigned char *map)
{
	size_t page = page_size(), stop = 2 * page;
	size_t offs[] = {0, 100, page - 1, page + 5, page + page / 2, stop - 1, stop, stop + 7};
	unsigned char *plain = map_plain(api, 4 * page);

	for (int s = 0; s < api->subjects->n; s++) {
		api->use(api->subjects->name[s]);
		for (size_t o = 0; o < N_OF(offs); o++) {
			size_t off = offs[o];
			size_t lens[] = {3 * page - off, stop - off, stop - off + 1, 1, 0};

			for (size_t l = 0; l < N_OF(lens); l++)
				if (lens[l] <= 3 * page - off)
					beyond_eof_case(api, api->subjects->name[s], fd, map, plain,
							off, lens[l], o);
		}
	}
	api->use("auto");
	munmap(plain, 4 * page);
}

/* How many bytes of the alternate stack the signal frame changed from 0xa5. */
static size_t marks(const unsigned char *alt, size_t size)
{
	size_t used = 0;

	for (size_t i = 0; i < size; i++)
		used += alt[i] != 0xa5;
	return used;
}

void fault_grid_alt_stack(const struct fault_api *api)
{
	size_t size = (size_t)sysconf(_SC_SIGSTKSZ), len = page_size();
	unsigned char *alt, *guarded = map_guarded(len, PROT_NONE), *plain = map_plain(api, len);
	stack_t ss = {0}, old;

	alt = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(alt != MAP_FAILED);
	ss.ss_sp = alt;
	ss.ss_size = size;
	assert_int_equal(sigaltstack(&ss, &old), 0);
	for (int s = 0; s < api->subjects->n; s++) {
		api->use(api->subjects->name[s]);
		for (int side = first_side(api); side <= FAULT_DST_HOLE; side++) {
			struct fault_case c = {.n = 100, .want = 90};

			c.src = side == FAULT_SRC_HOLE ? guarded + len - 10 : plain + 3;
			c.dst = side == FAULT_SRC_HOLE ? plain + 3 : guarded + len - 10;
			c.lo = side == FAULT_SRC_HOLE ? plain : guarded;
			c.hi = side == FAULT_SRC_HOLE ? plain + len : guarded + len;
			memset(alt, 0xa5, size);
			run_case(api, api->subjects->name[s], "on an alternate signal stack", &c);
			if (!marks(alt, size))
				fail_msg("%s: the fault was resolved but the %zu-byte alternate "
					 "signal stack is untouched: the handler did not run on it "
					 "(SA_ONSTACK?)",
					 api->subjects->name[s], size);
		}
	}
	assert_int_equal(sigaltstack(&old, NULL), 0);
	api->use("auto");
	unmap_guarded(guarded, len);
	munmap(plain, len);
	munmap(alt, size);
}

/* ---- The grids as cmocka tests (FAULT_GRID_TEST) ---- */

void fault_grid_edges_test(void **state)
{
	const struct fault_grid_test *t = *state;

	fault_handlers_restore();
	fault_grid_edges(t->api, t->side, t->prot);
}

void fault_grid_deep_test(void **state)
{
	const struct fault_grid_test *t = *state;

	fault_handlers_restore();
	fault_grid_deep(t->api);
}

void fault_grid_hole_test(void **state)
{
	const struct fault_grid_test *t = *state;

	fault_handlers_restore();
	fault_grid_hole(t->api);
}

void fault_grid_beyond_eof_test(void **state)
{
	const struct fault_grid_test *t = *state;
	unsigned char *map;
	int fd;

	fault_handlers_restore();
	map = map_beyond_eof(&fd);
	fault_grid_beyond_eof(t->api, fd, map);
	munmap(map, 3 * page_size());
	close(fd);
}

void fault_grid_alt_stack_test(void **state)
{
	const struct fault_grid_test *t = *state;

	fault_handlers_restore();
	fault_grid_alt_stack(t->api);
}
