// SPDX-License-Identifier: MIT
/*
 * aarch64/copy.c - which copy variants this CPU can run, and the automatic
 * plan. The variants themselves are in copy.inc, assembled inside zero.S
 * so that they share its exception table.
 */
#include <stdint.h>

#include "../arch.h"
#include "supported.h"

size_t hl__try_copy_ldp_stp(void *dst, const void *src, size_t n);
size_t hl__try_copy_mops(void *dst, const void *src, size_t n);

const struct hl_copy_impl hl_arch_copy_impls[] = {
	{"ldp_stp", hl__try_copy_ldp_stp, hl__arm64_always},
	{"mops", hl__try_copy_mops, hl__arm64_mops},
	{NULL, NULL, NULL},
};

/*
 * Up to this many bytes the automatic plan copies with ldp_stp even where
 * the CPU has MOPS. Not measured: this project's arm64 is qemu, whose
 * timings mean nothing, and qemu 7.2 has no FEAT_MOPS at all. It rests on
 * counting instructions: up to 64 bytes ldp_stp is at most two compares,
 * four loads and four stores with no loop, fewer instructions than the
 * CPYFP/CPYFM/CPYFE sequence and its register set-up, and nothing for the
 * CPU to choose an algorithm for; above 64 bytes ldp_stp loops, and the
 * copy instructions, which the CPU runs its own best way for the size and
 * alignment, are what FEAT_MOPS is for (the C libraries that use them copy
 * every size so).
 */
#define COPY_MOPS_ABOVE 64

/*
 * The automatic plan is the body of hl_try_copy itself (copy.inc):
 * ldp_stp for every size, or, with FEAT_MOPS, ldp_stp up to
 * COPY_MOPS_ABOVE bytes and mops beyond.
 */
void hl_arch_copy_auto(const struct hl_cpu *cpu, struct hl_copy_auto *plan)
{
	plan->inline_entry = true;
	plan->name = "ldp_stp";
	plan->vec_max = plan->rep_max = SIZE_MAX;
	if (hl__arm64_mops(cpu)) {
		plan->mid = plan->large = "mops";
		plan->vec_max = COPY_MOPS_ABOVE;
	}
}
