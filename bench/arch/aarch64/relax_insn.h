/* SPDX-License-Identifier: MIT */
/*
 * arch/aarch64/relax_insn.h - the spin-wait instructions the arm64 relax
 * subjects compare: the library's cpu_relax (YIELD), and ISB.
 *
 * YIELD is a hint, on most cores a no-op that costs an issue slot; ISB is
 * an instruction barrier, which stalls until the pipeline drains (tens of
 * cycles): what several arm64 spin loops use instead. Which one the kernel
 * should use is debated, so contend has subjects that compare them
 * (BENCH_RELAX_VARIANTS: the _isb and _none subjects). Included via
 * arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_RELAX_INSN_H
#define HOTLINE_BENCH_ARCH_RELAX_INSN_H

#define BENCH_RELAX_LABEL    "yield"
#define BENCH_RELAX_VARIANTS 1

static inline void bench_relax_isb(void)
{
	__asm__ volatile("isb" : : : "memory");
}

#endif /* HOTLINE_BENCH_ARCH_RELAX_INSN_H */
