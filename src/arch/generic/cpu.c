// SPDX-License-Identifier: MIT
/*
 * generic/cpu.c - architectures hotline has no probe for: name only.
 * cpu.c fills the cache line size from sysconf and "unknown" elsewhere.
 */
#include "../arch.h"

void hl_arch_cpu_probe(struct hl_cpu *cpu)
{
	(void)cpu;
}
