// SPDX-License-Identifier: MIT
/*
 * x86_64/cpu.c - CPUID and XCR0: what this x86-64 processor offers.
 *
 * A vector feature counts only if the OS also saves its registers (XCR0),
 * as the kernel and glibc decide it.
 */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

#include "../arch.h"

static char brand[49];
static char vendor[13];

static void cpuid(unsigned int leaf, unsigned int sub, unsigned int r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void read_brand(void)
{
	unsigned int r[4], max_ext = __get_cpuid_max(0x80000000, NULL);
	char *p = brand;

	if (max_ext < 0x80000004)
		return;
	for (unsigned int leaf = 0x80000002; leaf <= 0x80000004; leaf++) {
		cpuid(leaf, 0, r);
		memcpy(p, r, 16);
		p += 16;
	}
	brand[48] = '\0';
	/* Brand strings are often padded with leading or trailing spaces. */
	for (p = brand; *p == ' '; p++)
		;
	memmove(brand, p, strlen(p) + 1);
	for (size_t n = strlen(brand); n && brand[n - 1] == ' '; n--)
		brand[n - 1] = '\0';
}

void hl_arch_cpu_probe(struct hl_cpu *cpu)
{
	unsigned int r[4], max, fam, model;
	uint64_t xcr0 = 0;
	bool intel, amd;

	cpu->arch = "x86_64";
	max = __get_cpuid_max(0, NULL);
	cpuid(0, 0, r);
	memcpy(vendor, &r[1], 4); /* EBX, EDX, ECX spell the vendor */
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	cpu->vendor = vendor;
	intel = strcmp(vendor, "GenuineIntel") == 0;
	amd = strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0;

	cpuid(1, 0, r);
	fam = (r[0] >> 8) & 0xf;
	model = (r[0] >> 4) & 0xf;
	if (fam == 0xf)
		fam += (r[0] >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((r[0] >> 16) & 0xf) << 4;
	cpu->family = fam;
	cpu->model_id = model;
	cpu->stepping = r[0] & 0xf;
	cpu->cacheline = ((r[1] >> 8) & 0xff) * 8; /* CLFLUSH line size */
	if (r[2] & (1u << 27))			   /* OSXSAVE */
		xcr0 = xgetbv0();

	if (max >= 7) {
		cpuid(7, 0, r);
		cpu->erms = r[1] & (1u << 9);
		cpu->fsrm = r[3] & (1u << 4);
		/* YMM needs XCR0 bits 1-2; ZMM also needs opmask and upper ZMM (5-7). */
		cpu->avx2 = (r[1] & (1u << 5)) && (xcr0 & 0x6) == 0x6;
		cpu->avx512f = (r[1] & (1u << 16)) && (xcr0 & 0xe6) == 0xe6;
		cpu->avx512vl = cpu->avx512f && (r[1] & (1u << 31));
		cpu->avx512bw = cpu->avx512f && (r[1] & (1u << 30));
		if (r[0] >= 1) {
			cpuid(7, 1, r);
			cpu->fzrm = r[0] & (1u << 10);
			cpu->fsrs = r[0] & (1u << 11);
		}
	}

	/*
	 * REP_GOOD is the kernel's judgement, not a CPUID bit: string
	 * instructions are fast on Intel since family 6 and on AMD since
	 * family 0x10. ERMS implies it everywhere.
	 */
	cpu->rep_good = cpu->erms || (intel && fam >= 6) || (amd && fam >= 0x10);

	read_brand();
	cpu->model = brand[0] ? brand : NULL;
}
