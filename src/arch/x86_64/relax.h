/* SPDX-License-Identifier: MIT */
/* arch/x86_64/relax.h - cpu_relax for x86-64: PAUSE. Included via arch/arch.h. */
#ifndef HOTLINE_SRC_ARCH_RELAX_H
#define HOTLINE_SRC_ARCH_RELAX_H

#include <immintrin.h>

/* PAUSE: tells the core this is a spin-wait (saves power, frees the SMT sibling). */
static inline void hl_arch_relax(void)
{
	_mm_pause();
}

#endif
