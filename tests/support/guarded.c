// SPDX-License-Identifier: MIT
/*
 * support/guarded.c - maps a buffer before a guard page, and a file past its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/guarded.h"
#include "support/pattern.h"

size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

unsigned char *map_guarded(size_t len, int prot)
{
	size_t page = page_size();
	unsigned char *p =
		mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail_msg("mmap of %zu bytes: %s", len + page, strerror(errno));
	fill_pattern(p, len + page, 0);
	if (mprotect(p + len, page, prot))
		fail_msg("mprotect of the guard page: %s", strerror(errno));
	return p;
}

void unmap_guarded(unsigned char *p, size_t len)
{
	munmap(p, len + page_size());
}

unsigned char *map_beyond_eof(int *fd)
{
	const char *dir = getenv("TMPDIR");
	size_t page = page_size();
	char path[4096];
	unsigned char *p;

	snprintf(path, sizeof(path), "%s/hotline-test-XXXXXX", dir && *dir ? dir : "/tmp");
	*fd = mkstemp(path);
	if (*fd < 0)
		fail_msg("mkstemp(%s): %s", path, strerror(errno));
	unlink(path);
	if (ftruncate(*fd, (off_t)(page + page / 2)))
		fail_msg("ftruncate: %s", strerror(errno));
	p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED)
		fail_msg("mmap of 3 pages of a file of 1.5: %s", strerror(errno));
	fill_pattern(p, page + page / 2, 0);
	return p;
}
