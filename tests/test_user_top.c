// SPDX-License-Identifier: MIT
/*
 * test_user_top.c - the library's probe for the end of user space, which
 * runs when the library is loaded (src/fault.c, probe_user_top), in every
 * build: release, ASan+UBSan and ThreadSanitizer.
 *
 * The probe asks the kernel for a page just below each candidate end. It
 * must never be answered with a page anywhere else: under gcc 12's
 * ThreadSanitizer, an mmap() hint outside TSan's application range is
 * replaced with NULL, and a kernel that lets root map page 0 (CAP_SYS_RAWIO,
 * vm.mmap_min_addr) then maps it; TSan takes that for corruption and kills
 * the process before main. So on such a machine, as root, this program
 * reaching main under TSan is the first check. Then, in every build:
 *
 *  - nothing is mapped at address 0 after the probe;
 *  - the end it found is the kernel's: the page just below it is user
 *    memory (the kernel maps it, or it is mapped already), the page at it
 *    is not (the kernel refuses it);
 *  - hl_try_zero agrees: a range ending exactly there is cleared, one a byte
 *    longer is refused whole, nothing written (where the page below the end
 *    is free to be mapped for the check).
 *
 * Whether this machine lets the process map page 0 is printed, so a log
 * shows whether the first check meant anything here. Under qemu-user
 * (HOTLINE_TARGET_RUN set: make test-arm64) the guest's mmap is answered
 * by qemu's own map of the guest address space, not by the kernel, and it
 * may report the page at the end as taken: there the end is only checked
 * through hl_try_zero.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hotline/zero.h>

#include "support/child.h"

/* Hidden in the shared library; the tests link the static one. */
uintptr_t hl__user_top(void);

/* One page at exactly addr, by system call (no interceptor between): its address, or -errno. */
static long map_exactly(uintptr_t addr, int prot)
{
	long p = syscall(SYS_mmap, addr, (long)getpagesize(), prot,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0L);

	return p == -1 ? -errno : p;
}

static void unmap(long p)
{
	syscall(SYS_munmap, p, (long)getpagesize());
}

/* Whether /proc/self/maps lists a mapping that starts at address 0. */
static bool page_zero_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "00000000-", 9) == 0)
			found = true;
	fclose(f);
	return found;
}

static void probe_maps_nothing_at_page_zero(void **state)
{
	long zero;

	(void)state;
	/* The premise: could this process map page 0 at all? */
	zero = map_exactly(0, PROT_NONE);
	if (zero == 0) {
		unmap(zero);
		printf("this process may map page 0 (root, vm.mmap_min_addr): the check counts\n");
	} else {
		printf("this process may not map page 0 (%s): the check holds trivially\n",
		       strerror((int)-zero));
	}
	assert_true(hl__user_top() != 0);
	if (page_zero_mapped())
		fail_msg("page 0 is mapped after the probe for the end of user space");
}

static void probe_finds_the_kernels_end(void **state)
{
	uintptr_t top = hl__user_top(), page = (uintptr_t)getpagesize();
	long below, at;

	(void)state;
	below = map_exactly(top - page, PROT_NONE);
	at = map_exactly(top, PROT_NONE);
	if (below >= 0)
		unmap(below);
	if (at >= 0)
		unmap(at);
	printf("user space ends at %#lx\n", (unsigned long)top);
	if (below < 0 && below != -EEXIST)
		fail_msg("the page below the end found (%#lx) is not user memory: %s",
			 (unsigned long)(top - page), strerror((int)-below));
	if (below >= 0 && (uintptr_t)below != top - page)
		fail_msg("asked for %#lx, the kernel gave %#lx", (unsigned long)(top - page),
			 (unsigned long)below);
	if ((at >= 0 || at == -EEXIST) && !emulated())
		fail_msg("the page at the end found (%#lx) is user memory", (unsigned long)top);
}

/*
 * hl_try_zero(last, n) over the last 64 bytes of the page p: it must return want and leave all 64
 * bytes equal to byte; else unmap p and fail, saying what the range is and what went wrong.
 */
static void expect_last_64(long p, unsigned char *last, size_t n, size_t want, unsigned char byte,
			   const char *range, const char *wrong)
{
	size_t left = hl_try_zero(last, n);

	if (left != want || last[0] != byte || memcmp(last, last + 1, 63) != 0) {
		unmap(p);
		fail_msg("hl_try_zero of a range %s returned %zu (not %zu) or %s", range, left,
			 want, wrong);
	}
}

static void try_zero_stops_exactly_at_the_end(void **state)
{
	uintptr_t top = hl__user_top(), page = (uintptr_t)getpagesize();
	long p = map_exactly(top - page, PROT_READ | PROT_WRITE);
	unsigned char *last;

	(void)state;
	if (p < 0) {
		printf("the page below the end is taken (%s): not checked\n", strerror((int)-p));
		skip();
	}
	last = (unsigned char *)p + page - 64;
	memset(last, 0xa5, 64);
	expect_last_64(p, last, 65, 65, 0xa5, "one byte past the end", "wrote to it");
	expect_last_64(p, last, 64, 0, 0, "ending at the end", "left bytes set");
	unmap(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_maps_nothing_at_page_zero),
		cmocka_unit_test(probe_finds_the_kernels_end),
		cmocka_unit_test(try_zero_stops_exactly_at_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
