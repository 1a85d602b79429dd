// SPDX-License-Identifier: MIT
/*
 * try_copy_sweep.c - hl_try_copy against a hole on either side, and
 * hl_try_load64 against one, every variant, a spread of sizes and of
 * distances into the hole: a plain program (no cmocka), for running under
 * a tool that changes how code executes. CTest runs it under valgrind's
 * memcheck with hotline's suppressions (tests/CMakeLists.txt), which
 * hides AVX-512 and runs each variant as translated code: there, too, the
 * count must be exact, the copied bytes the source's, and no byte outside
 * the destination written. Each case runs against two kinds of hole: a
 * PROT_NONE page, which memcheck still counts as addressable, and an
 * unmapped page (kept free by a PROT_NONE page after it), whose accesses
 * memcheck reports unless hotline's suppressions name them: so the run
 * also checks that tools/valgrind/hotline.supp covers every load and store
 * of the copy variants, their fixup and hl_try_load64.
 *
 * Prints one line per variant; exits 0 when every case held, 1 at the first
 * that did not, with what was expected and what happened.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hotline/copy.h>

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i % 251 + 1);
}

/*
 * len bytes, read-write, then a hole page: PROT_NONE, or (unmapped) no
 * mapping at all, with a PROT_NONE page after it so that nothing else is
 * mapped there. NULL on failure.
 */
static unsigned char *map_holed(size_t len, bool unmapped)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, len + 2 * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + len, 2 * page, PROT_NONE))
		return NULL;
	if (unmapped && munmap(p + len, page))
		return NULL;
	return p;
}

/*
 * Copy `in` bytes before the hole and `past` bytes of it: the hole ends the
 * source (src_side) or the destination. The destination's bytes must be
 * the source's for `in` bytes, 0xee elsewhere.
 */
static int one(const char *name, unsigned char *holed, unsigned char *plain, size_t len,
	       int src_side, size_t in, size_t past)
{
	size_t n = in + past, got, off = (in * 7) % 64;
	unsigned char *dst = src_side ? plain + off : holed + len - in;
	const unsigned char *src = src_side ? holed + len - in : plain + off;
	unsigned char *area = src_side ? plain : holed;
	size_t from = (size_t)(dst - area);

	for (size_t i = 0; i < len; i++) {
		holed[i] = src_side ? pattern(i) : 0xee;
		plain[i] = src_side ? 0xee : pattern(i);
	}
	got = hl_try_copy(dst, src, n);
	if (got != past) {
		fprintf(stderr,
			"try_copy_sweep: %s, %zu bytes + %zu past a hole at the %s's end: returned "
			"%zu, expected %zu\n",
			name, in, past, src_side ? "source" : "destination", got, past);
		return 1;
	}
	for (size_t i = 0; i < len; i++) {
		bool copied = i >= from && i < from + in;
		unsigned char want = copied ? src[i - from] : 0xee;

		if (i >= from + in && i < from + n)
			continue; /* the contract leaves [dst+n-r, dst+n) open */
		if (area[i] != want) {
			fprintf(stderr,
				"try_copy_sweep: %s, %zu bytes + %zu past a hole at the %s's end: "
				"byte %zd from dst is %u, expected %u\n",
				name, in, past, src_side ? "source" : "destination",
				(ssize_t)i - (ssize_t)from, area[i], want);
			return 1;
		}
	}
	return 0;
}

int main(void)
{
	static const size_t sizes[] = {1,   2,	 7,    16,   31,   64,	 65,	100,  255,
				       256, 511, 1000, 4095, 4096, 4097, 12287, 65536};
	static const size_t pasts[] = {0, 1, 3, 64, 4095};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (80 * 1024 + page - 1) / page * page;
	unsigned char *plain = map_holed(len + page, false);
	const char *name;
	unsigned long cases = 0;
	uint64_t word = 0x5a5a5a5a5a5a5a5aull;

	for (int unmapped = 0; unmapped < 2; unmapped++) {
		unsigned char *holed = map_holed(len, unmapped);

		word = 0x5a5a5a5a5a5a5a5aull;
		if (!holed || !plain) {
			fprintf(stderr, "try_copy_sweep: mmap: %s\n", strerror(errno));
			return 1;
		}
		for (unsigned int v = 0; (name = v ? hl_copy_variant_name(v - 1) : "auto"); v++) {
			if (v && !hl_copy_supported(name))
				continue;
			if (hl_copy_use(name) != 0) {
				fprintf(stderr, "try_copy_sweep: hl_copy_use(%s) failed\n", name);
				return 1;
			}
			for (int side = 0; side < 2; side++)
				for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
					for (size_t q = 0; q < sizeof(pasts) / sizeof(pasts[0]);
					     q++, cases++)
						if (one(name, holed, plain, len, side, sizes[s],
							pasts[q]))
							return 1;
			printf("%s, %s hole: exact\n", name, unmapped ? "unmapped" : "PROT_NONE");
		}
		for (size_t off = 0; off < page; off += 8, cases++)
			if (hl_try_load64(holed + len + off, &word) ||
			    word != 0x5a5a5a5a5a5a5a5aull) {
				fprintf(stderr,
					"try_copy_sweep: hl_try_load64 at the hole + %zu "
					"returned true or changed *out\n",
					off);
				return 1;
			}
		memset(holed + len - 8, 0xee, 8);
		if (!hl_try_load64(holed + len - 8, &word) || word != 0xeeeeeeeeeeeeeeeeull) {
			fprintf(stderr, "try_copy_sweep: hl_try_load64 before the hole failed\n");
			return 1;
		}
	}
	hl_copy_use("auto");
	printf("try_copy_sweep: %lu cases exact (plan: %s)\n", cases, hl_copy_variant());
	return 0;
}
