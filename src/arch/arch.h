/* SPDX-License-Identifier: MIT */
/*
 * arch/arch.h - the one interface between portable library code and the
 * architecture directories (src/arch/<arch>/). The build compiles exactly
 * one of them; nothing outside src/arch/ tests the architecture macros.
 */
#ifndef HOTLINE_SRC_ARCH_H
#define HOTLINE_SRC_ARCH_H

#include <hotline/cpu.h>

/*
 * Fill what this architecture can tell about the CPU. Called once, with
 * *cpu zeroed; strings it stores must stay valid for the whole process.
 */
void hl_arch_cpu_probe(struct hl_cpu *cpu);

/*
 * static inline void hl_arch_relax(void): the spin-wait hint (cpu_relax),
 * from arch/<arch>/relax.h; the build puts that directory on the path.
 */
#include "relax.h"

#endif
