/* SPDX-License-Identifier: MIT */
/*
 * arch_cycles.h - a cheap cycle-like counter for the bench, per architecture.
 *
 * The only file of the bench that tests architecture macros. bench_cycles()
 * reads a free-running counter that is cheap to read and the same on every
 * CPU of the machine:
 *   x86-64   the TSC (rdtsc): constant rate on any CPU of the last decade,
 *            i.e. nominal-frequency cycles, not the current core clock;
 *   arm64    the virtual counter CNTVCT_EL0 (a fixed frequency, often far
 *            below the core clock; see CNTFRQ_EL0);
 *   others   CLOCK_MONOTONIC in nanoseconds.
 * BENCH_CYCLES_LABEL names the one in use (for table headers).
 * Differences between two reads are meaningful; absolute values are not.
 */
#ifndef HOTLINE_BENCH_ARCH_CYCLES_H
#define HOTLINE_BENCH_ARCH_CYCLES_H

#include <stdint.h>

#if defined(__x86_64__)

#include <x86intrin.h>

#define BENCH_CYCLES_LABEL  "tsc"

static inline uint64_t bench_cycles(void)
{
	return __rdtsc();
}

#elif defined(__aarch64__)

#define BENCH_CYCLES_LABEL  "cntvct"

static inline uint64_t bench_cycles(void)
{
	uint64_t v;

	/* isb: do not let the read run ahead of the code before it. */
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

#else

#include <time.h>

#define BENCH_CYCLES_LABEL  "ns"

static inline uint64_t bench_cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif

#endif /* HOTLINE_BENCH_ARCH_CYCLES_H */
