// SPDX-License-Identifier: MIT
/*
 * aarch64/cpu.c - HWCAP, DCZID_EL0 and CTR_EL0: what this arm64 CPU offers.
 *
 * Linux lets EL0 read DCZID_EL0 and CTR_EL0 directly. MIDR comes from
 * sysfs, or, where that is missing (qemu-user on another architecture's
 * kernel, containers without sysfs), from MRS MIDR_EL1, which the kernel
 * (and qemu) emulate for EL0 when HWCAP_CPUID says so.
 */
#include <stdio.h>
#include <stdint.h>
#include <sys/auxv.h>

#include "../arch.h"

#define HWCAP_LSE_ATOMICS (1UL << 8)  /* AT_HWCAP: HWCAP_ATOMICS */
#define HWCAP_CPUID_BIT	  (1UL << 11) /* AT_HWCAP: HWCAP_CPUID, MRS of ID registers emulated */
#define HWCAP2_MOPS_BIT	  (1UL << 43) /* AT_HWCAP2: HWCAP2_MOPS */

static char model[64];

static const char *implementer_name(unsigned int imp)
{
	switch (imp) {
	case 0x00: return "software"; /* reserved for software: qemu's "max" model */
	case 0x41: return "ARM";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x46: return "Fujitsu";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0xc0: return "Ampere";
	default: return "arm";
	}
}

static uint64_t read_midr(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llx", &v) != 1)
			v = 0;
		fclose(f);
	}
	if (!f && (getauxval(AT_HWCAP) & HWCAP_CPUID_BIT))
		__asm__ volatile("mrs %0, midr_el1" : "=r"(v));
	return v;
}

void hl_arch_cpu_probe(struct hl_cpu *cpu)
{
	uint64_t dczid, ctr, midr;
	unsigned int imp, part;

	cpu->arch = "aarch64";
	cpu->lse = getauxval(AT_HWCAP) & HWCAP_LSE_ATOMICS;
	cpu->mops = getauxval(AT_HWCAP2) & HWCAP2_MOPS_BIT;

	__asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
	/* Bit 4 set: DC ZVA prohibited. Bits 3:0: log2 of the block in words. */
	cpu->dczva_block = (dczid & 0x10) ? 0 : 4u << (dczid & 0xf);

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	cpu->cacheline = 4u << ((ctr >> 16) & 0xf); /* DminLine, log2 words */

	midr = read_midr();
	imp = (midr >> 24) & 0xff;
	part = (midr >> 4) & 0xfff;
	cpu->family = imp;
	cpu->model_id = part;
	cpu->stepping = ((midr >> 20) & 0xf) << 4 | (midr & 0xf);
	cpu->vendor = implementer_name(imp);
	if (midr) {
		snprintf(model, sizeof(model), "%s part 0x%03x r%up%u", cpu->vendor, part,
			 (unsigned int)(midr >> 20) & 0xf, (unsigned int)midr & 0xf);
		cpu->model = model;
	}
}
