// SPDX-License-Identifier: MIT
/*
 * cpu.c - hl_cpu(): probe once, then hand out the same description.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include <hotline/cpu.h>

#include "arch/arch.h"

static struct hl_cpu cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
	long line;

	hl_arch_cpu_probe(&cpu);
	if (!cpu.cacheline) {
		line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
		cpu.cacheline = line > 0 ? (unsigned int)line : 64;
	}
	if (!cpu.arch)
		cpu.arch = "unknown";
	if (!cpu.model)
		cpu.model = "unknown";
	if (!cpu.vendor)
		cpu.vendor = "unknown";
}

const struct hl_cpu *hl_cpu(void)
{
	pthread_once(&cpu_once, probe);
	return &cpu;
}

int hl_cpu_flags(char *buf, size_t size)
{
	const struct hl_cpu *c = hl_cpu();
	const struct {
		const char *name;
		bool on;
	} flags[] = {
		{"erms", c->erms},	 {"fsrm", c->fsrm},	    {"fsrs", c->fsrs},
		{"fzrm", c->fzrm},	 {"rep_good", c->rep_good}, {"avx2", c->avx2},
		{"avx512f", c->avx512f}, {"avx512vl", c->avx512vl}, {"avx512bw", c->avx512bw},
		{"lse", c->lse},	 {"mops", c->mops},
	};
	size_t len = 0;
	int n;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (!flags[i].on)
			continue;
		n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s%s",
			     len ? " " : "", flags[i].name);
		if (n < 0)
			return n;
		len += (size_t)n;
	}
	return (int)len;
}
