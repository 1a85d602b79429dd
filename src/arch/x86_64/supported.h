/* SPDX-License-Identifier: MIT */
/*
 * x86_64/supported.h - which variants this CPU can run: the `supported`
 * predicates the clearing (zero.c) and copying (copy.c) tables share.
 */
#ifndef HOTLINE_SRC_X86_64_SUPPORTED_H
#define HOTLINE_SRC_X86_64_SUPPORTED_H

#include <stdbool.h>

#include <hotline/cpu.h>

/* The string and scalar variants run on every x86-64. */
static inline bool hl__x86_always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

static inline bool hl__x86_avx2(const struct hl_cpu *cpu)
{
	return cpu->avx2;
}

/*
 * The avx512 variants also use xmm16/ymm16 for small sizes (AVX512VL) and
 * a byte-masked store for a last partial line, at 129-256 B and after the
 * loop (AVX512BW). Every CPU with
 * VL so far has BW too.
 */
static inline bool hl__x86_avx512(const struct hl_cpu *cpu)
{
	return cpu->avx512f && cpu->avx512vl && cpu->avx512bw;
}

#endif
