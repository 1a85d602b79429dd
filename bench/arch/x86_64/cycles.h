/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/cycles.h - bench_cycles() on x86-64: the TSC (rdtsc).
 *
 * Constant rate on any CPU of the last decade, the same on every CPU of
 * the machine: nominal-frequency cycles, not the current core clock.
 * Differences between two reads are meaningful; absolute values are not.
 * Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_CYCLES_H
#define HOTLINE_BENCH_ARCH_CYCLES_H

#include <stdint.h>

#include <x86intrin.h>

#define BENCH_CYCLES_LABEL "tsc"

static inline uint64_t bench_cycles(void)
{
	return __rdtsc();
}

#endif /* HOTLINE_BENCH_ARCH_CYCLES_H */
