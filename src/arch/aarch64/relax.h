/* SPDX-License-Identifier: MIT */
/* arch/aarch64/relax.h - cpu_relax for arm64: YIELD. Included via arch/arch.h. */
#ifndef HOTLINE_SRC_ARCH_RELAX_H
#define HOTLINE_SRC_ARCH_RELAX_H

/* YIELD, as the kernel's cpu_relax(): a hint to an SMT sibling or hypervisor. */
static inline void hl_arch_relax(void)
{
	__asm__ __volatile__("yield" ::: "memory");
}

#endif
