// SPDX-License-Identifier: MIT
/*
 * x86_64/copy.c - which copy variants this CPU can run, and the automatic
 * plan. The variants themselves are in copy.inc, assembled inside zero.S
 * so that they share its exception table.
 */
#include <stdint.h>

#include "../../zero_plan.h"
#include "../arch.h"

size_t hl__try_copy_rep_movsb(void *dst, const void *src, size_t n);
size_t hl__try_copy_movq(void *dst, const void *src, size_t n);
size_t hl__try_copy_nontemporal(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_auto_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx512(void *dst, const void *src, size_t n);

static bool always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

static bool has_avx2(const struct hl_cpu *cpu)
{
	return cpu->avx2;
}

static bool has_avx512(const struct hl_cpu *cpu)
{
	return cpu->avx512f && cpu->avx512vl;
}

const struct hl_copy_impl hl_arch_copy_impls[] = {
	{"rep_movsb", hl__try_copy_rep_movsb, always},
	{"movq", hl__try_copy_movq, always},
	{"avx2", hl__try_copy_avx2, has_avx2},
	{"avx512", hl__try_copy_avx512, has_avx512},
	{"nontemporal", hl__try_copy_nontemporal, always},
	{NULL, NULL, NULL},
};

/*
 * The automatic plan (docs/copy.md has the measurements behind it):
 * vector loads and stores up to vec_max, rep movsb up to rep_max when the
 * CPU says it is fast (ERMS), the vector loop again beyond.
 */
void hl_arch_copy_auto(const struct hl_cpu *cpu, struct hl_copy_auto *plan)
{
	struct hl_zero_machine m;

	hl__zero_machine_probe(cpu, &m);
	plan->mid = "rep_movsb";
	plan->vec_max = 2048;
	plan->rep_max = m.l2 ? m.l2 : SIZE_MAX;
	if (has_avx512(cpu)) {
		plan->inline_entry = true; /* hl_try_copy is this plan */
		plan->name = "avx512";
		plan->large = "avx512";
	} else if (cpu->avx2) {
		plan->try_fn = hl__try_copy_auto_avx2;
		plan->name = "avx2";
		plan->large = "avx2";
	} else {
		plan->try_fn = cpu->erms ? hl__try_copy_rep_movsb : hl__try_copy_movq;
		plan->name = cpu->erms ? "rep_movsb" : "movq";
		plan->mid = plan->large = NULL;
		return;
	}
	if (!cpu->erms) { /* no fast rep movsb: vectors for every size */
		plan->mid = plan->large = NULL;
		plan->vec_max = plan->rep_max = SIZE_MAX;
	}
}
