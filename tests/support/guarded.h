// SPDX-License-Identifier: MIT
/*
 * support/guarded.h - mappings whose end faults: a guard page, or a file mapped past its end.
 *
 * map_guarded(len, prot) maps len bytes (a multiple of the page size) read-
 * write, filled with fill_pattern() (support/pattern.h), followed by one
 * page that holds the pattern too and is then given prot (PROT_NONE or
 * PROT_READ); the guard page starts at the returned pointer + len.
 * unmap_guarded(p, len) undoes it.
 *
 * map_beyond_eof(&fd) makes a file (unlinked at once) of 1.5 pages in
 * $TMPDIR or /tmp and maps 3 pages of it MAP_SHARED, read-write: the second
 * page holds the end of the file, so a store anywhere in it succeeds, and
 * the third lies wholly beyond the end, where an access raises SIGBUS. The
 * file's bytes hold the pattern; *fd stays open for pread.
 *
 * page_size() is the page size. Failures fail the cmocka test.
 */
#ifndef HOTLINE_TESTS_SUPPORT_GUARDED_H
#define HOTLINE_TESTS_SUPPORT_GUARDED_H

#include <stddef.h>

size_t page_size(void);
unsigned char *map_guarded(size_t len, int prot);
void unmap_guarded(unsigned char *p, size_t len);
unsigned char *map_beyond_eof(int *fd);

#endif /* HOTLINE_TESTS_SUPPORT_GUARDED_H */
