/* SPDX-License-Identifier: MIT */
/*
 * arch/aarch64/cycles.h - bench_cycles() on arm64: the virtual counter.
 *
 * CNTVCT_EL0 runs at a fixed frequency (CNTFRQ_EL0), often far below the
 * core clock, the same on every CPU of the machine. Differences between
 * two reads are meaningful; absolute values are not. Included via
 * arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_CYCLES_H
#define HOTLINE_BENCH_ARCH_CYCLES_H

#include <stdint.h>

#define BENCH_CYCLES_LABEL "cntvct"

static inline uint64_t bench_cycles(void)
{
	uint64_t v;

	/* isb: do not let the read run ahead of the code before it. */
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

#endif /* HOTLINE_BENCH_ARCH_CYCLES_H */
