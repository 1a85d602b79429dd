/* SPDX-License-Identifier: MIT */
/*
 * arch/generic/atomics.h - bench_atomics() where the atomic instructions
 * are not chosen at run time: NULL, nothing to name ("atomics": null in
 * the JSON environment). Included via arch/arch.h.
 */
#ifndef HOTLINE_BENCH_ARCH_ATOMICS_H
#define HOTLINE_BENCH_ARCH_ATOMICS_H

#include <stddef.h>

static inline const char *bench_atomics(void)
{
	return NULL;
}

#endif /* HOTLINE_BENCH_ARCH_ATOMICS_H */
