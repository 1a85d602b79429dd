/* SPDX-License-Identifier: MIT */
/*
 * arch/x86_64/atomics.h - bench_atomics() on x86-64: NULL, for there is
 * one kind of atomic read-modify-write (LOCK-prefixed instructions) and
 * nothing to name ("atomics": null in the JSON environment). Included via
 * arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_ATOMICS_H
#define HOTLINE_BENCH_ARCH_ATOMICS_H

#include <stddef.h>

static inline const char *bench_atomics(void)
{
	return NULL;
}

#endif /* HOTLINE_BENCH_ARCH_ATOMICS_H */
