// SPDX-License-Identifier: MIT
/*
 * x86_64/zero.c - which clearing variants this CPU can run, the code of
 * the automatic plans they lead (src/plan.c chooses the plan), and the
 * signal-context side of the fault layer's fixups (src/fault.c). The
 * variants themselves, and their entries in the exception table, are in
 * zero.S beside this file.
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
HL_ZERO_VARIANT(rep_stosb);
HL_ZERO_VARIANT(rep_stosq);
HL_ZERO_VARIANT(movq_unrolled);
HL_ZERO_VARIANT(avx2);
HL_ZERO_VARIANT(avx512);
HL_ZERO_VARIANT(evex256);
HL_ZERO_VARIANT(nontemporal);
HL_ZERO_VARIANT(auto_avx2);

/*
 * The exception table's bounds (../asm.h): the linker names them after the
 * section hl_extable, which every .S file of this directory adds to.
 */
extern const struct hl_extable __start_hl_extable[] __attribute__((visibility("hidden")));
extern const struct hl_extable __stop_hl_extable[] __attribute__((visibility("hidden")));

/*
 * The string variants run on every x86-64; ERMS, FSRM and REP_GOOD only
 * say whether they are fast, which is the plan's business, not a reason to
 * refuse them.
 *
 * The code of the automatic plan (plan.c chooses its variants, zero_plan.c
 * its thresholds; docs/zero.md has the measurements behind both), by its
 * first variant: the avx512 plan is the body of hl_zero and hl_try_zero
 * themselves; the avx2 plan is zero.S's auto_avx2; a plan of one variant
 * is that variant. rep_stosb comes first: the fallback.
 */
#define IMPL(name, supported, ...)                                                                 \
	{                                                                                          \
		{#name, supported}, hl__zero_##name, hl__try_zero_##name, __VA_ARGS__              \
	}
const struct hl_zero_impl hl_arch_zero_impls[] = {
	IMPL(rep_stosb, hl__x86_always, {0}),
	IMPL(rep_stosq, hl__x86_always, {0}),
	IMPL(movq_unrolled, hl__x86_always, {0}),
	IMPL(avx2, hl__x86_avx2, {hl__zero_auto_avx2, hl__try_zero_auto_avx2, false}),
	IMPL(avx512, hl__x86_avx512, {.inline_entry = true}),
	IMPL(evex256, hl__x86_avx512, {0}),
	IMPL(nontemporal, hl__x86_always, {0}),
	{{NULL, NULL}, NULL, NULL, {0}},
};

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
 * The protocols of zero.S and copy.S: only the armed variants' loads and
 * stores are in the table, and each kind of entry names the registers
 * that bound what may fault: hl_try_zero stores in [rdi, rdx); hl_try_copy
 * stores in [rdi, rdx) and loads in [rsi, rsi + (rdx - rdi)), or, on its
 * small paths (kind copy_n), [rdi, rdi + rdx) and [rsi, rsi + rdx);
 * hl_try_load64 loads [rdi, rdi + 8). A fault elsewhere is not ours.
 */
bool hl_arch_fault_fixup(void *uc, uintptr_t addr)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uintptr_t fixup = hl__extable_fixup(__start_hl_extable, __stop_hl_extable,
					    (uintptr_t)r[REG_RIP], addr, (uintptr_t)r[REG_RDI],
					    (uintptr_t)r[REG_RSI], (uintptr_t)r[REG_RDX]);

	if (!fixup)
		return false;
	r[REG_RIP] = (greg_t)fixup;
	return true;
}
