// SPDX-License-Identifier: MIT
/*
 * aarch64/zero.c - which clearing variants this CPU can run, the code of
 * the automatic plans they lead (src/plan.c chooses the plan), and the
 * signal-context side of the fault layer's fixups (src/fault.c). The
 * variants themselves, and their entries in the exception table, are in
 * zero.S beside this file.
 */
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "../../zero_plan.h"
#include "../arch.h"
#include "supported.h"

/* zero.S: each variant for hl_zero, and its copy in the exception table for hl_try_zero. */
HL_ZERO_VARIANT(stp);
HL_ZERO_VARIANT(dc_zva);
HL_ZERO_VARIANT(mops);

/*
 * The exception table's bounds (../asm.h): the linker names them after the
 * section hl_extable, which every .S file of this directory adds to.
 */
extern const struct hl_extable __start_hl_extable[] __attribute__((visibility("hidden")));
extern const struct hl_extable __stop_hl_extable[] __attribute__((visibility("hidden")));

/* The largest DC ZVA block the architecture allows: DCZID_EL0.BS = 9, 2 KiB. */
#define ZVA_MAX_BLOCK 2048u

/*
 * dc_zva needs DC ZVA allowed (DCZID_EL0.DZP clear) and a block of at
 * least 64 bytes, the step of its head and tail stores; every arm64 server
 * core has 64 (qemu's `max` model has 512).
 */
static bool has_zva(const struct hl_cpu *cpu)
{
	return cpu->dczva_block >= 64 && cpu->dczva_block <= ZVA_MAX_BLOCK;
}

/* The entries load their redirect for every size (zero.S). */
const size_t hl_arch_zero_direct_max = 0;

/*
 * The code of the automatic plan (plan.c chooses its variants, zero_plan.c
 * the threshold), by its first variant: the stp plan, with or without its
 * dc_zva class, is the body of hl_zero and hl_try_zero themselves
 * (zero.S); a plan of one other variant (mops) is that variant, through
 * the redirect. stp comes first: the fallback.
 */
#define IMPL(name, supported, ...)                                                                 \
	{                                                                                          \
		{#name, supported}, hl__zero_##name, hl__try_zero_##name, __VA_ARGS__              \
	}
const struct hl_zero_impl hl_arch_zero_impls[] = {
	IMPL(stp, hl__arm64_always, {.inline_entry = true}),
	IMPL(dc_zva, has_zva, {0}),
	IMPL(mops, hl__arm64_mops, {0}),
	{{NULL, NULL}, NULL, NULL, {0}},
};

/* arm64 has no user-space cache enumeration that Linux lets us read: sysfs says. */
void hl_arch_zero_caches(struct hl_zero_machine *m)
{
	(void)m;
}

/* 48-bit user addresses, 52 with FEAT_LVA; some kernels use 39 or 42. */
unsigned int hl_arch_user_bits_max(void)
{
	return 52;
}

/* Where the search cannot ask the kernel: the common 48-bit configuration. */
uintptr_t hl_arch_user_top_min(void)
{
	return (uintptr_t)1 << 48;
}

/*
 * The protocols of zero.S and copy.S: only the armed variants' loads and
 * stores are in the table, and each kind of entry names the registers
 * that bound what may fault: hl_try_zero stores in [x0, x2); hl_try_copy
 * stores in [x0, x2) and loads in [x1, x1 + (x2 - x0)); hl_try_load64
 * loads [x0, x0 + 8). A fault elsewhere is not ours.
 */
bool hl_arch_fault_fixup(void *uc, uintptr_t addr)
{
	mcontext_t *m = &((ucontext_t *)uc)->uc_mcontext;
	uintptr_t fixup = hl__extable_fixup(__start_hl_extable, __stop_hl_extable, (uintptr_t)m->pc,
					    addr, (uintptr_t)m->regs[0], (uintptr_t)m->regs[1],
					    (uintptr_t)m->regs[2]);

	if (!fixup)
		return false;
	m->pc = fixup;
	return true;
}
