/* SPDX-License-Identifier: MIT */
/*
 * aarch64/supported.h - which variants this CPU can run: the `supported`
 * predicates the clearing (zero.c) and copying (copy.c) tables share.
 */
#ifndef HOTLINE_SRC_AARCH64_SUPPORTED_H
#define HOTLINE_SRC_AARCH64_SUPPORTED_H

#include <stdbool.h>

#include <hotline/cpu.h>

/* The plain load and store variants run on every arm64. */
static inline bool hl__arm64_always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

/* FEAT_MOPS: the CPY and SET memory instructions (HWCAP2_MOPS). */
static inline bool hl__arm64_mops(const struct hl_cpu *cpu)
{
	return cpu->mops;
}

#endif
