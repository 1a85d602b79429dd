// SPDX-License-Identifier: MIT
/*
 * x86_64/zero.c - which clearing variants this CPU can run, the automatic
 * plan, and the signal-context side of hl_try_zero's fixups. The variants
 * themselves, and their exception table, are in zero.S beside this file.
 */
#include <cpuid.h>
#include <signal.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

#include "../../zero_plan.h"
#include "../arch.h"
#include "supported.h"

/* zero.S: each variant for hl_zero, and its copy in the exception table for hl_try_zero. */
#define VARIANT(name)                                                                              \
	size_t hl__zero_##name(void *dst, size_t n);                                               \
	size_t hl__try_zero_##name(void *dst, size_t n)
VARIANT(rep_stosb);
VARIANT(rep_stosq);
VARIANT(movq_unrolled);
VARIANT(avx2);
VARIANT(avx512);
VARIANT(evex256);
VARIANT(nontemporal);
VARIANT(auto_avx2);

extern const struct hl_zero_extable hl__zero_extable_start[], hl__zero_extable_end[];

/*
 * The string variants run on every x86-64; ERMS, FSRM and REP_GOOD only
 * say whether they are fast, which is the plan's business, not a reason to
 * refuse them.
 */
const struct hl_zero_impl hl_arch_zero_impls[] = {
/* clang-format off */
#define IMPL(name, supported) { #name, hl__zero_##name, hl__try_zero_##name, supported }
	/* clang-format on */
	IMPL(rep_stosb, hl__x86_always),     IMPL(rep_stosq, hl__x86_always),
	IMPL(movq_unrolled, hl__x86_always), IMPL(avx2, hl__x86_avx2),
	IMPL(avx512, hl__x86_avx512),	     IMPL(evex256, hl__x86_avx512),
	IMPL(nontemporal, hl__x86_always),   {NULL, NULL, NULL, NULL},
};

/*
 * The automatic plan's variants; its thresholds come from zero_plan.c
 * (docs/zero.md has the measurements behind both).
 *  - Up to vec_max, vector stores: a few overlapping stores and no
 *    start-up cost for small sizes; for buffers in L1 or L2 the vector loop
 *    runs 1.5-2x faster than rep stosb. With AVX-512VL that is avx512, the
 *    body of hl_zero itself: zmm16 needs no vzeroupper, and in the bench
 *    64-byte stores beat 32-byte ones (evex256) by 1.2-1.4x from 256 B up,
 *    as glibc's own AVX-512 memset does here. The price: a cold
 *    buffer is cleared 0.6-0.8x as fast as by rep stosb, which (like
 *    streaming stores) avoids reading lines it will overwrite.
 *  - Up to rep_max, rep stosb when ERMS says it is fast.
 *  - Beyond rep_max, streaming stores, where the CPU gains by them.
 * Only the variants are chosen here: zero.c sets vec_max and rep_max from
 * the derived (or tunable) thresholds of zero_plan.c.
 */
void hl_arch_zero_auto(const struct hl_cpu *cpu, struct hl_zero_auto *plan)
{
	plan->large = "nontemporal";
	plan->mid = "rep_stosb";
	if (hl__x86_avx512(cpu)) {
		plan->inline_entry = true; /* hl_zero and hl_try_zero are this plan */
		plan->name = "avx512";
	} else if (cpu->avx2) {
		plan->fn = hl__zero_auto_avx2;
		plan->try_fn = hl__try_zero_auto_avx2;
		plan->name = "avx2";
	} else {
		plan->fn = cpu->erms ? hl__zero_rep_stosb : hl__zero_rep_stosq;
		plan->try_fn = cpu->erms ? hl__try_zero_rep_stosb : hl__try_zero_rep_stosq;
		plan->name = cpu->erms ? "rep_stosb" : "rep_stosq";
		plan->mid = plan->large = NULL;
		return;
	}
	if (!cpu->erms) /* no fast rep stosb: vectors up to the stream */
		plan->mid = NULL;
}

/*
 * The deterministic cache parameters: CPUID leaf 4 on Intel, 0x8000001D on
 * AMD (with TOPOEXT), the same layout. Each subleaf is one cache of this
 * core: its type, level, the logical CPUs that share it, and its geometry.
 */
void hl_arch_zero_caches(struct hl_zero_machine *m)
{
	unsigned int a, b, c, d, leaf;
	const char *from;

	if (m->vendor == HL_ZERO_VENDOR_INTEL && __get_cpuid_max(0, NULL) >= 4) {
		leaf = 4;
		from = "CPUID leaf 4";
	} else if (m->vendor == HL_ZERO_VENDOR_AMD &&
		   __get_cpuid_max(0x80000000, NULL) >= 0x8000001d &&
		   __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 22))) {
		leaf = 0x8000001d;
		from = "CPUID 0x8000001D";
	} else {
		return;
	}
	for (unsigned int i = 0; i < 16; i++) {
		unsigned int type, level, sharing;
		size_t size;

		__cpuid_count(leaf, i, a, b, c, d);
		type = a & 0x1f;
		if (!type)
			break;
		if (type == 2) /* instruction cache */
			continue;
		level = (a >> 5) & 7;
		sharing = ((a >> 14) & 0xfff) + 1;
		size = (size_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) * ((b & 0xfff) + 1) *
		       ((size_t)c + 1);
		if (level == 1)
			m->l1d = size;
		else if (level == 2)
			m->l2 = size;
		else if (level == 3) {
			m->l3 = size;
			m->l3_sharing = sharing;
		}
	}
	if (m->l1d || m->l2 || m->l3)
		snprintf(m->caches_from, sizeof(m->caches_from), "%s", from);
}

/* 48-bit addresses with 4-level paging, 57 with 5-level (CPUID.7.0:ECX.LA57). */
unsigned int hl_arch_user_bits_max(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 16)))
		return 56;
	return 47;
}

/* The kernel's TASK_SIZE_MAX with 4-level paging: the last page below 2^47 is not user's. */
uintptr_t hl_arch_user_top_min(void)
{
	return ((uintptr_t)1 << 47) - 4096;
}

/*
 * The protocols of zero.S and copy.inc: only the armed variants' loads and
 * stores are in the table, and each kind of entry names the registers
 * that bound what may fault: hl_try_zero stores in [rdi, rdx); hl_try_copy
 * stores in [rdi, rdx) and loads in [rsi, rsi + (rdx - rdi)); hl_try_load64
 * loads [rdi, rdi + 8). A fault elsewhere is not ours.
 */
bool hl_arch_zero_fixup(void *uc, uintptr_t addr)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uintptr_t fixup = hl__zero_extable_fixup(hl__zero_extable_start, hl__zero_extable_end,
						 (uintptr_t)r[REG_RIP], addr, (uintptr_t)r[REG_RDI],
						 (uintptr_t)r[REG_RSI], (uintptr_t)r[REG_RDX]);

	if (!fixup)
		return false;
	r[REG_RIP] = (greg_t)fixup;
	return true;
}
