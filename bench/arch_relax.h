/* SPDX-License-Identifier: MIT */
/*
 * arch_relax.h - cpu_relax for the bench: the spin-wait hint, per architecture.
 *
 * With arch_cycles.h and arch_atomics.h, the only files of the bench that
 * test architecture macros. bench_relax() is what the kernel's cpu_relax()
 * is on each:
 *   x86-64   PAUSE (_mm_pause): on Zen and recent Intel cores tens to
 *            over a hundred cycles;
 *   arm64    YIELD (a hint; on most cores a no-op that costs an issue slot);
 *   others   nothing.
 * bench_relax_insn() gives the relax subjects their instruction: the
 * default above, ISB (arm64 only: an instruction barrier, which stalls
 * until the pipeline drains, tens of cycles; what several arm64 spin loops
 * use instead of a YIELD that does nothing), or nothing at all (the loop's
 * shape without the hint). Called with a constant, it folds to one
 * instruction or none. BENCH_RELAX_VARIANTS says whether contend has the
 * subjects that compare them (_isb, _none): on arm64, where the kernel's
 * choice (YIELD) is debated; not on x86-64, where PAUSE is settled.
 *
 * The bench needs its own: the library's (src/arch/) is private to it. Used
 * by the ticket-lock baseline and by the cpu_relax policies of the
 * instrumented lockref (lockref_relax, lockref_relax_alt and their variants).
 */
#ifndef HOTLINE_BENCH_ARCH_RELAX_H
#define HOTLINE_BENCH_ARCH_RELAX_H

/* The instruction a relax subject spins with. */
enum bench_relax_insn {
	BENCH_RELAX_DEFAULT,	/* cpu_relax: BENCH_RELAX_LABEL */
	BENCH_RELAX_ISB,	/* ISB: arm64 */
	BENCH_RELAX_NOTHING,	/* no instruction */
};

#if defined(__x86_64__)

#include <immintrin.h>

#define BENCH_RELAX_LABEL    "pause"
#define BENCH_RELAX_VARIANTS 0

static inline void bench_relax(void)
{
	_mm_pause();
}

#elif defined(__aarch64__)

#define BENCH_RELAX_LABEL    "yield"
#define BENCH_RELAX_VARIANTS 1

static inline void bench_relax(void)
{
	__asm__ volatile("yield" : : : "memory");
}

static inline void bench_relax_isb(void)
{
	__asm__ volatile("isb" : : : "memory");
}

#else

#define BENCH_RELAX_LABEL    "nothing"
#define BENCH_RELAX_VARIANTS 0

static inline void bench_relax(void)
{
}

#endif

#if !BENCH_RELAX_VARIANTS
/* No subject asks for it here; the default, to keep the switch total. */
static inline void bench_relax_isb(void)
{
	bench_relax();
}
#endif

static inline __attribute__((always_inline)) void bench_relax_insn(enum bench_relax_insn insn)
{
	switch (insn) {
	case BENCH_RELAX_DEFAULT:
		bench_relax();
		break;
	case BENCH_RELAX_ISB:
		bench_relax_isb();
		break;
	case BENCH_RELAX_NOTHING:
		/* Still a compiler barrier, as the others are: only the instruction goes. */
		__asm__ volatile("" : : : "memory");
		break;
	}
}

#endif /* HOTLINE_BENCH_ARCH_RELAX_H */
