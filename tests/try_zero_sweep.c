// SPDX-License-Identifier: MIT
/*
 * try_zero_sweep.c - hl_try_zero against a hole, every variant, a spread of
 * sizes and of distances into the hole: a plain program (no cmocka), for
 * running under a tool that changes how code executes. CTest runs it under
 * valgrind's memcheck (tests/CMakeLists.txt), which hides AVX-512 and runs
 * each variant as translated code: there, too, the count must be exact and
 * no byte outside the range written. The hole is a PROT_NONE page, then an
 * unmapped one, whose stores memcheck reports unless hotline's
 * suppressions name them.
 *
 * Prints one line per variant; exits 0 when every case held, 1 at the first
 * that did not, with what was expected and what happened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hotline/zero.h>

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i % 251 + 1);
}

int main(void)
{
	static const size_t sizes[] = {1,   2,	 7,    16,   31,   64,	 65,	100,  255,
				       256, 511, 1000, 4095, 4096, 4097, 12287, 65536};
	static const size_t pasts[] = {0, 1, 3, 64, 4095};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = 80 * 1024;
	size_t len = (span + page - 1) / page * page;
	unsigned char *p = mmap(NULL, len + 2 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *name;
	unsigned long cases = 0;

	if (p == MAP_FAILED || mprotect(p + len, 2 * page, PROT_NONE)) {
		fprintf(stderr, "try_zero_sweep: mmap: %s\n", strerror(errno));
		return 1;
	}
	/*
	 * The hole: a PROT_NONE page, which memcheck counts as addressable (it
	 * reports nothing there); then the same page unmapped (the PROT_NONE
	 * page after it keeps it free), whose stores memcheck does report, so
	 * that the suppressions are put to the test.
	 */
	for (int unmapped = 0; unmapped < 2; unmapped++) {
		if (unmapped && munmap(p + len, page)) {
			fprintf(stderr, "try_zero_sweep: munmap: %s\n", strerror(errno));
			return 1;
		}
		for (unsigned int v = 0; (name = v ? hl_zero_variant_name(v - 1) : "auto"); v++) {
			if (v && !hl_zero_supported(name))
				continue;
			if (hl_zero_use(name) != 0) {
				fprintf(stderr, "try_zero_sweep: hl_zero_use(%s) failed\n", name);
				return 1;
			}
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				for (size_t q = 0; q < sizeof(pasts) / sizeof(pasts[0]); q++) {
					size_t in = sizes[s], past = pasts[q], got;
					unsigned char *dst = p + len - in;

					for (size_t i = 0; i < len; i++)
						p[i] = pattern(i);
					got = hl_try_zero(dst, in + past);
					for (size_t i = 0; i < len; i++) {
						unsigned char want = i < len - in ? pattern(i) : 0;

						if (p[i] != want) {
							fprintf(stderr,
								"try_zero_sweep: %s, %zu bytes + "
								"%zu past "
								"the "
								"hole: byte %zd from dst is %u, "
								"expected "
								"%u\n",
								name, in, past,
								(ssize_t)i - (ssize_t)(len - in),
								p[i], want);
							return 1;
						}
					}
					if (got != past) {
						fprintf(stderr,
							"try_zero_sweep: %s, %zu bytes + %zu past "
							"the "
							"hole: "
							"returned %zu, expected %zu\n",
							name, in, past, got, past);
						return 1;
					}
					cases++;
				}
			}
			printf("%s, %s hole: exact\n", name, unmapped ? "unmapped" : "PROT_NONE");
		}
	}
	printf("try_zero_sweep: %lu cases exact (plan: %s)\n", cases, hl_zero_variant());
	return 0;
}
