/* SPDX-License-Identifier: MIT */
/* arch/generic/relax.h - cpu_relax where there is no hint instruction. */
#ifndef HOTLINE_SRC_ARCH_RELAX_H
#define HOTLINE_SRC_ARCH_RELAX_H

#include <stdatomic.h>

/* Nothing to tell the CPU; only keep the compiler from merging the loads. */
static inline void hl_arch_relax(void)
{
	atomic_signal_fence(memory_order_seq_cst);
}

#endif
