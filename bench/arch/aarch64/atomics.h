/* SPDX-License-Identifier: MIT */
/*
 * arch/aarch64/atomics.h - which atomic instructions this program's C11
 * atomics use on arm64, for the JSON environment ("atomics").
 *
 * "lse" (LDADD, CAS, SWP: ARMv8.1) or "llsc" (LDXR/STXR loops: ARMv8.0).
 * With GCC's -moutline-atomics (the default of Debian's aarch64 gcc) every
 * atomic is a call to a libgcc helper (__aarch64_ldadd4_relax, ...) that
 * tests a flag set at start-up from HWCAP_ATOMICS: the flag is the answer.
 * Built without the helpers, the compiler's choice is: LSE when the target
 * has it (-march=armv8.1-a or later), else exclusives. The library is
 * built with the same compiler and flags, so this is its choice too.
 * Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_ATOMICS_H
#define HOTLINE_BENCH_ARCH_ATOMICS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * libgcc's flag (lse-init.c; compiler-rt has the same): hidden, so only
 * reachable from a program linked with libgcc.a. Weak: absent when nothing
 * in the program uses the helpers.
 */
extern _Bool __aarch64_have_lse_atomics __attribute__((weak, visibility("hidden")));

static inline const char *bench_atomics(void)
{
	if (&__aarch64_have_lse_atomics)
		return __aarch64_have_lse_atomics ? "lse" : "llsc";
#ifdef __ARM_FEATURE_ATOMICS
	return "lse";
#else
	return "llsc";
#endif
}

#endif /* HOTLINE_BENCH_ARCH_ATOMICS_H */
