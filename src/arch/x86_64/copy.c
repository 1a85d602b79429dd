// SPDX-License-Identifier: MIT
/*
 * x86_64/copy.c - which copy variants this CPU can run, and the automatic
 * plan. The variants themselves are in copy.inc, assembled inside zero.S
 * so that they share its exception table.
 */
#include <stdint.h>

#include "../../zero_plan.h"
#include "../arch.h"
#include "supported.h"

size_t hl__try_copy_rep_movsb(void *dst, const void *src, size_t n);
size_t hl__try_copy_movq(void *dst, const void *src, size_t n);
size_t hl__try_copy_nontemporal(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_auto_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx512(void *dst, const void *src, size_t n);

const struct hl_copy_impl hl_arch_copy_impls[] = {
	{"rep_movsb", hl__try_copy_rep_movsb, hl__x86_always},
	{"movq", hl__try_copy_movq, hl__x86_always},
	{"avx2", hl__try_copy_avx2, hl__x86_avx2},
	{"avx512", hl__try_copy_avx512, hl__x86_avx512},
	{"nontemporal", hl__try_copy_nontemporal, hl__x86_always},
	{NULL, NULL, NULL},
};

/*
 * The automatic plan (docs/copy.md, "Measured", has the figures behind
 * it): vector loads and stores while source and destination fit in the
 * L1 data cache together (vec_max = L1d / 2), where the vector loop beat
 * rep movsb by 1.1-1.3x on a Zen 4; rep movsb beyond, when ERMS says it
 * is fast: from L2 outwards it beat the vector loop by 1.3-1.9x. Beyond
 * the start of hl_zero's streaming class (rep_max, zero_plan.c), the
 * streaming copy, page-interleaved, where that class exists: on an Intel
 * Xeon it ran 1.1-1.6x glibc memcpy from 4 MiB to 64 MiB and matched it
 * beyond, where rep movsb ran 0.6-0.7x; on AMD family 0x19 rep movsb
 * matched streaming stores beyond the last-level cache, and there is no
 * such class. Without ERMS, vectors for every size; without AVX2, one
 * variant.
 */
void hl_arch_copy_auto(const struct hl_cpu *cpu, struct hl_copy_auto *plan)
{
	struct hl_zero_machine m;
	struct hl_zero_thresholds zero;

	hl__zero_machine_probe(cpu, &m);
	hl__zero_derive(&m, &zero);
	plan->mid = "rep_movsb";
	plan->vec_max = m.l1d >= 1024 ? m.l1d / 2 : 16384;
	plan->rep_max = zero.rep_max.value;
	plan->large = "nontemporal";
	if (plan->rep_max < plan->vec_max)
		plan->rep_max = plan->vec_max;
	if (hl__x86_avx512(cpu)) {
		plan->inline_entry = true; /* hl_try_copy is this plan */
		plan->name = "avx512";
	} else if (cpu->avx2) {
		plan->try_fn = hl__try_copy_auto_avx2;
		plan->name = "avx2";
	} else {
		plan->try_fn = cpu->erms ? hl__try_copy_rep_movsb : hl__try_copy_movq;
		plan->name = cpu->erms ? "rep_movsb" : "movq";
		plan->mid = NULL;
		plan->vec_max = plan->rep_max = SIZE_MAX;
		return;
	}
	if (!cpu->erms) { /* no fast rep movsb: vectors for every size */
		plan->mid = NULL;
		plan->vec_max = plan->rep_max = SIZE_MAX;
	}
}
