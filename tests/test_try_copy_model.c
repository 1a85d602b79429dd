// SPDX-License-Identifier: MIT
/*
 * test_try_copy_model.c - hl_try_copy checked from outside: against a
 * model of the hole geometry, and against the kernel's own copy.
 *
 * test_try_copy.c walks chosen grids; this one draws cases at random
 * (a fixed seed, so a failure can be replayed; scaled() by
 * HOTLINE_TEST_SCALE): a source arena and a destination arena of several
 * pages, a source offset, a destination offset and a length anywhere in
 * them, and a hole (a PROT_NONE page; on the destination side sometimes
 * a read-only one) on the source side, the destination side, both, or
 * neither, anywhere in the arena: before the range, inside it, after it.
 *
 *  - The model: the expected r is computed from the hole geometry alone
 *    (support/fault_case.h, fault_expected: the bytes from the first hole
 *    byte the range meets, the larger count of the two sides), with
 *    nothing of the library in it; hl_try_copy must return exactly that,
 *    copy the bytes before it and write nothing outside [dst, dst+n).
 *  - The kernel: process_vm_readv on this process, over the same source
 *    range, returns the bytes it could read before the hole (or fails with
 *    EFAULT when it could read none); where the source has the hole, that
 *    is n - r, and the bytes it read are the bytes hl_try_copy copied.
 *    Skipped, with a note, where the system call is not there (ENOSYS,
 *    EPERM: qemu-user, some sandboxes).
 * Every variant this CPU runs, and auto.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/fault_case.h"
#include "support/faults.h"
#include "support/guarded.h"
#include "support/pattern.h"
#include "support/run_tests.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/variants.h"
#include "support/watchdog.h"

#include <hotline/copy.h>

#define MAX_SUBJECTS 32
#define PAGES	     6 /* pages in each arena */

enum { HOLE_SRC = 1, HOLE_DST = 2 };

struct arenas {
	unsigned char *src, *dst, *kernel; /* PAGES pages each */
	size_t len;
};

/* One random case: where the ranges and the holes are. */
struct draw {
	int holes;		   /* HOLE_SRC | HOLE_DST */
	size_t so, dof, n;	   /* source and destination offsets, length */
	size_t src_hole, dst_hole; /* page numbers */
	int dst_prot;		   /* PROT_NONE or PROT_READ */
};

static size_t pick_len(unsigned int *seed, size_t room)
{
	unsigned int k = next_rand(seed) % 8;
	size_t n;

	if (k < 3)
		n = next_rand(seed) % 300; /* small: the variants' short paths */
	else if (k < 5)
		n = next_rand(seed) % 4096;
	else
		n = next_rand(seed) % (room + 1);
	return n < room ? n : room;
}

static struct draw draw_case(unsigned int *seed, size_t page)
{
	struct draw d;
	size_t len = PAGES * page, k;

	d.holes = (int)(next_rand(seed) % 4);
	d.src_hole = next_rand(seed) % PAGES;
	d.dst_hole = next_rand(seed) % PAGES;
	d.dst_prot = next_rand(seed) % 3 ? PROT_NONE : PROT_READ;
	/* Offsets: often just before a hole, where the interesting bytes are. */
	k = next_rand(seed) % 4;
	d.so = k == 0 ? d.src_hole * page - next_rand(seed) % 300 % (d.src_hole * page + 1)
		      : next_rand(seed) % len;
	k = next_rand(seed) % 4;
	d.dof = k == 0 ? d.dst_hole * page - next_rand(seed) % 300 % (d.dst_hole * page + 1)
		       : next_rand(seed) % len;
	d.n = pick_len(seed, len - (d.so > d.dof ? d.so : d.dof));
	return d;
}

/* The model: r from the geometry alone. */
static size_t model_r(const struct draw *d, size_t page, size_t *r_src)
{
	size_t rs = 0, rd = 0;

	if (d->holes & HOLE_SRC)
		rs = fault_expected(d->so, d->n, d->src_hole * page, (d->src_hole + 1) * page);
	if (d->holes & HOLE_DST)
		rd = fault_expected(d->dof, d->n, d->dst_hole * page, (d->dst_hole + 1) * page);
	*r_src = rs;
	return rs > rd ? rs : rd;
}

/* 1: process_vm_readv works here; 0: not there (ENOSYS, EPERM); checked once. */
static int kernel_copy_works = -1;

static ssize_t kernel_copy(void *to, const void *from, size_t n)
{
	struct iovec local = {to, n}, remote = {(void *)from, n};

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
}

static void check_kernel(const char *v, const struct draw *d, struct arenas *a, size_t r,
			 size_t r_src, const unsigned char *copied)
{
	size_t n = d->n, want = n - r_src;
	ssize_t got;

	if (kernel_copy_works <= 0)
		return;
	errno = 0;
	got = kernel_copy(a->kernel, a->src + d->so, n);
	if (want == 0 && n > 0 ? !(got == -1 && errno == EFAULT) : got != (ssize_t)want)
		fail_msg("%s: process_vm_readv of %zu bytes at src + %zu (a hole at page %zu: "
			 "%s) returned %zd (%s), expected %zu; hl_try_copy returned %zu",
			 v, n, d->so, d->src_hole, d->holes & HOLE_SRC ? "yes" : "no", got,
			 got < 0 ? strerror(errno) : "-", want, r);
	if (!(d->holes & HOLE_DST) && r != r_src)
		fail_msg("%s: the model disagrees with itself", v);
	/* The bytes both copied agree (hl_try_copy's may stop earlier, at a destination hole). */
	if (got > 0 && memcmp(a->kernel, copied, n - r) != 0)
		fail_msg("%s: hl_try_copy and process_vm_readv copied different bytes from src + "
			 "%zu",
			 v, d->so);
}

static void one_case(const char *v, const struct draw *d, struct arenas *a, size_t page)
{
	size_t len = a->len, r_src, r = model_r(d, page, &r_src);
	unsigned char *dhole = a->dst + d->dst_hole * page;
	struct fault_case c = {.dst = a->dst + d->dof, .src = a->src + d->so, .n = d->n, .want = r};
	char why[256];

	c.lo = a->dst;
	c.hi = a->dst + len;
	if (d->holes & HOLE_DST) {
		/* the canary on this side of the hole only */
		if (dhole + page <= c.dst)
			c.lo = dhole + page;
		else if (dhole <= c.dst)
			c.lo = c.hi = c.dst; /* dst in the hole: nothing around it to check */
		else
			c.hi = dhole;
		assert_int_equal(mprotect(dhole, page, d->dst_prot), 0);
	}
	if (d->holes & HOLE_SRC)
		assert_int_equal(mprotect(a->src + d->src_hole * page, page, PROT_NONE), 0);
	fault_note("%s: hl_try_copy(dst + %zu, src + %zu, %zu), holes %d at %zu / %zu", v, d->dof,
		   d->so, d->n, d->holes, d->src_hole, d->dst_hole);
	if (!fault_run(hl_try_copy, &c, why, sizeof(why)))
		fail_msg("%s: hl_try_copy(dst + %zu, src + %zu, %zu) with %s%s%s (pages of %zu "
			 "bytes): %s",
			 v, d->dof, d->so, d->n,
			 d->holes & HOLE_SRC ? "a PROT_NONE source page " : "",
			 d->holes == 3 ? "and "
			 : d->holes    ? ""
				       : "no hole",
			 d->holes & HOLE_DST
				 ? (d->dst_prot == PROT_NONE ? "a PROT_NONE destination page"
							     : "a read-only destination page")
				 : "",
			 page, why);
	if (d->holes & HOLE_SRC || !d->holes)
		check_kernel(v, d, a, r, r_src, c.dst);
	if (d->holes & HOLE_SRC)
		assert_int_equal(
			mprotect(a->src + d->src_hole * page, page, PROT_READ | PROT_WRITE), 0);
	if (d->holes & HOLE_DST)
		assert_int_equal(mprotect(dhole, page, PROT_READ | PROT_WRITE), 0);
}

static void random_holes_either_side_agree_with_the_model_and_the_kernel(void **state)
{
	size_t page = page_size();
	struct arenas a = {.len = PAGES * page};
	long cases = scaled(4000), with_hole = 0, faulted = 0;
	const char *subjects[MAX_SUBJECTS];
	int n_subjects = copy_subjects(subjects, MAX_SUBJECTS);

	(void)state;
	fault_handlers_restore();
	a.src = mmap(NULL, 3 * a.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(a.src != MAP_FAILED);
	a.dst = a.src + a.len;
	a.kernel = a.dst + a.len;
	fill_pattern(a.src, a.len, 0);
	errno = 0;
	kernel_copy_works = kernel_copy(a.kernel, a.src, 64) == 64;
	if (!kernel_copy_works)
		print_message("process_vm_readv is not available here (%s): the cross-check with "
			      "the kernel's copy is skipped; the model's still runs\n",
			      strerror(errno));
	for (int s = 0; s < n_subjects; s++) {
		unsigned int seed = 0x2545f491u + (unsigned int)s;

		copy_use(subjects[s]);
		for (long i = 0; i < cases; i++) {
			struct draw d = draw_case(&seed, page);
			size_t r_src;

			one_case(subjects[s], &d, &a, page);
			with_hole += d.holes != 0;
			faulted += model_r(&d, page, &r_src) != 0;
		}
	}
	print_message("%ld cases per variant, %d variants: %ld with a hole, %ld of them "
		      "faulting; process_vm_readv %s\n",
		      cases, n_subjects, with_hole, faulted,
		      kernel_copy_works ? "cross-checked" : "not available");
	if (faulted < cases * n_subjects / 4)
		fail_msg("only %ld of %ld cases faulted: the draw does not test what it should",
			 faulted, cases * n_subjects);
	copy_use("auto");
	munmap(a.src, 3 * a.len);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_holes_either_side_agree_with_the_model_and_the_kernel),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_try_copy_model", 240,
			 RUN_FAULT_HANDLERS);
}
