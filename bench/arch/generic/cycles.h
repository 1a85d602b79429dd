/* SPDX-License-Identifier: MIT */
/*
 * arch/generic/cycles.h - bench_cycles() where there is no counter to read
 * directly: CLOCK_MONOTONIC in nanoseconds. Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_CYCLES_H
#define HOTLINE_BENCH_ARCH_CYCLES_H

#include <stdint.h>
#include <time.h>

#define BENCH_CYCLES_LABEL "ns"

static inline uint64_t bench_cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* HOTLINE_BENCH_ARCH_CYCLES_H */
