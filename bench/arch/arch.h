/* SPDX-License-Identifier: MIT */
/*
 * arch/arch.h - the bench's one interface to architecture code.
 *
 * Nothing else in bench/ tests the architecture macros. The build puts two
 * directories on the include path, both for the one architecture it builds
 * (HOTLINE_ARCH, chosen in the top-level CMakeLists.txt; bench/CMakeLists.txt,
 * target hotline_bench_arch):
 *
 *   src/arch/<arch>/    the library's relax.h: hl_arch_relax(), the
 *                       kernel's cpu_relax (x86-64 PAUSE, arm64 YIELD). The
 *                       bench spins with the library's own definition.
 *   bench/arch/<arch>/  what only the bench needs (generic/ for any other):
 *     cycles.h          bench_cycles(), BENCH_CYCLES_LABEL: a cheap counter
 *                       (TSC, CNTVCT_EL0, CLOCK_MONOTONIC)
 *     atomics.h         bench_atomics(): which atomic instructions the
 *                       run-time choice took (arm64 "lse" / "llsc"), or NULL
 *     relax_insn.h      BENCH_RELAX_LABEL, BENCH_RELAX_VARIANTS and the
 *                       other instructions the relax subjects compare
 *                       (arm64: bench_relax_isb())
 */
#ifndef HOTLINE_BENCH_ARCH_H
#define HOTLINE_BENCH_ARCH_H

#include "relax.h"
#include "cycles.h"
#include "atomics.h"
#include "relax_insn.h"

/* The instruction a relax subject spins with. */
enum bench_relax_insn {
	BENCH_RELAX_DEFAULT, /* cpu_relax: BENCH_RELAX_LABEL */
	BENCH_RELAX_ISB,     /* ISB: arm64 */
	BENCH_RELAX_NOTHING, /* no instruction */
};

/* cpu_relax, the spin-wait hint: the library's, so that both spin alike. */
static inline void bench_relax(void)
{
	hl_arch_relax();
}

#if !BENCH_RELAX_VARIANTS
/* No subject asks for it here; the default, to keep the switch total. */
static inline void bench_relax_isb(void)
{
	bench_relax();
}
#endif

/*
 * The relax subjects' instruction: cpu_relax, ISB, or nothing at all (the
 * loop's shape without the hint). Called with a constant, it folds to one
 * instruction or none.
 */
static inline __attribute__((always_inline)) void bench_relax_insn(enum bench_relax_insn insn)
{
	switch (insn) {
	case BENCH_RELAX_DEFAULT: bench_relax(); break;
	case BENCH_RELAX_ISB: bench_relax_isb(); break;
	case BENCH_RELAX_NOTHING:
		/* Still a compiler barrier, as the others are: only the instruction goes. */
		__asm__ volatile("" : : : "memory");
		break;
	}
}

#endif /* HOTLINE_BENCH_ARCH_H */
