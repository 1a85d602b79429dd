// SPDX-License-Identifier: MIT
/*
 * support/scale.h - HOTLINE_TEST_SCALE: how much the stress tests and sweeps shrink.
 *
 * HOTLINE_TEST_SCALE=N (a positive integer, at most 1000000; 1 if unset or
 * empty) is the one knob by which the stress tests shrink for slow runs
 * (make test-arm64 runs them under qemu with 8). A value that is not one
 * fails the program at start with one line naming it: scale.c checks it in
 * a constructor, and tests/CMakeLists.txt links this library whole into
 * every test program so that the check runs in each.
 *
 * test_scale() is N, times 4 in a ThreadSanitizer build (HL_TSAN: several
 * times slower per atomic operation); scaled(n) is n / test_scale(), at
 * least 1: the iteration, round and thread counts of the stress tests are
 * written scaled(COUNT), and a threshold that depends on a count is scaled
 * with it.
 *
 * Exhaustive sweeps (every size, alignment, distance) instead visit every
 * sweep_step()-th value past the first few, and always the last:
 * sweep_next(v, dense, last) is the value after v. sweep_step() is N, or
 * N + 1 when N is even (1 at scale 1; ThreadSanitizer does not slow a
 * sweep): an odd stride over a long enough range meets every residue
 * modulo any power of two, so every tail length and alignment class is
 * still visited.
 */
#ifndef HOTLINE_TESTS_SUPPORT_SCALE_H
#define HOTLINE_TESTS_SUPPORT_SCALE_H

#include <stddef.h>

/* HOTLINE_TEST_SCALE as given (1 if unset or empty). */
long test_env_scale(void);

/* HOTLINE_TEST_SCALE, times 4 under ThreadSanitizer. */
long test_scale(void);

/* n / test_scale(), at least 1. */
long scaled(long n);

/* The stride of a sweep past its dense part: HOTLINE_TEST_SCALE made odd. */
size_t sweep_step(void);

/*
 * The value after v in a sweep up to last: v + 1 below dense, then every
 * sweep_step()-th value, and last itself (v + 1 > last ends the sweep).
 */
size_t sweep_next(size_t v, size_t dense, size_t last);

#endif /* HOTLINE_TESTS_SUPPORT_SCALE_H */
