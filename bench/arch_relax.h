/* SPDX-License-Identifier: MIT */
/*
 * arch_relax.h - cpu_relax for the bench: the spin-wait hint, per architecture.
 *
 * With arch_cycles.h, the only files of the bench that test architecture
 * macros. bench_relax() is what the kernel's cpu_relax() is on each:
 *   x86-64   PAUSE (_mm_pause): on Zen and recent Intel cores tens to
 *            over a hundred cycles;
 *   arm64    YIELD (a hint; on most cores a no-op that costs an issue slot);
 *   others   nothing.
 * The bench needs its own: the library's (src/arch/) is private to it. Used
 * by the ticket-lock baseline and by the cpu_relax policies of the
 * instrumented lockref (lockref_relax, lockref_relax_alt).
 */
#ifndef HOTLINE_BENCH_ARCH_RELAX_H
#define HOTLINE_BENCH_ARCH_RELAX_H

#if defined(__x86_64__)

#include <immintrin.h>

static inline void bench_relax(void)
{
	_mm_pause();
}

#elif defined(__aarch64__)

static inline void bench_relax(void)
{
	__asm__ volatile("yield" : : : "memory");
}

#else

static inline void bench_relax(void)
{
}

#endif

#endif /* HOTLINE_BENCH_ARCH_RELAX_H */
