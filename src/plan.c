// SPDX-License-Identifier: MIT
/*
 * plan.c - which variants hl_zero's and hl_try_copy's automatic plans use
 * on a described machine, with what thresholds, as size classes (plan.h).
 * hl_zero's thresholds themselves are derived in zero_plan.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "plan.h"

/*
 * hl_zero on x86-64 (docs/zero.md has the measurements behind the choice;
 * the thresholds come from zero_plan.c):
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
 */
static void zero_x86(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	l->large = "nontemporal";
	l->mid = "rep_stosb";
	if (m->avx512) {
		l->name = "avx512";
	} else if (m->avx2) {
		l->name = "avx2";
	} else {
		l->name = m->erms ? "rep_stosb" : "rep_stosq";
		l->mid = l->large = NULL;
		return;
	}
	if (!m->erms) /* no fast rep stosb: vectors up to the stream */
		l->mid = NULL;
}

/*
 * hl_zero on arm64. Not measured on arm64 hardware (this project's
 * machine is x86-64; qemu's timings mean nothing); it follows what the
 * architecture and the C libraries' tuned memsets do:
 *  - with FEAT_MOPS, SETP/SETM/SETE for every size: the CPU picks its own
 *    best method for the size and alignment, which is what MOPS is for;
 *  - otherwise plain stores (stp) for small buffers, and DC ZVA for whole
 *    blocks once a buffer is at least max(256 B, 4 blocks): from there the
 *    head and tail stores clear at most half of it, and DC ZVA writes a
 *    block without reading it first;
 *  - without a usable DC ZVA (allowed, with a block of 64 bytes to 2 KiB,
 *    the largest the architecture allows), stp for every size.
 */
static void zero_arm64(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	if (m->mops) {
		l->name = "mops";
		return;
	}
	l->name = "stp";
	if (m->dczva_block >= 64 && m->dczva_block <= 2048)
		l->large = "dc_zva";
}

void hl__zero_variants(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	*l = (struct hl_plan_layout){.vec_max = SIZE_MAX, .rep_max = SIZE_MAX};
	if (m->isa == HL_ZERO_ISA_X86_64)
		zero_x86(m, l);
	else if (m->isa == HL_ZERO_ISA_AARCH64)
		zero_arm64(m, l);
	else
		l->name = "memset"; /* no assembly: the C library's */
}

static void unused(struct hl_zero_threshold *t, const char *why)
{
	if (t->source != HL_ZERO_TUNABLE)
		return;
	t->source = HL_ZERO_UNUSED;
	snprintf(t->why, sizeof(t->why), "tunable ignored: %s", why);
}

/*
 * A plan of three classes switches at vec_max and rep_max; one of two (no
 * rep stosb class) at vec_max alone; one of one never.
 */
void hl__zero_apply(struct hl_plan_layout *l, struct hl_zero_thresholds *t)
{
	if (!l->mid)
		unused(&t->rep_max, "this plan has no rep stosb class");
	if (!l->mid && !l->large)
		unused(&t->vec_max, "one variant clears every size");
	if (l->mid) {
		l->vec_max = t->vec_max.value;
		l->rep_max = t->rep_max.value;
	} else if (l->large) {
		l->vec_max = l->rep_max = t->vec_max.value;
	} else {
		l->vec_max = l->rep_max = SIZE_MAX;
	}
}

/*
 * hl_try_copy on x86-64 (docs/copy.md, "Measured", has the figures behind
 * it):
 *  - vector loads and stores while source and destination fit in the L1
 *    data cache together (vec_max = L1d / 2), where the vector loop beat
 *    rep movsb by 1.1-1.3x on a Zen 4; on Intel with ERMS up to one page,
 *    as for clearing (zero_plan.c): beyond it the vector loop ran
 *    0.89-0.93x glibc cold on an Intel Xeon (family 6 model 0xcf), rep
 *    movsb 0.97-1.00x;
 *  - rep movsb beyond, when ERMS says it is fast: from L2 outwards it beat
 *    the vector loop by 1.3-1.9x on the Zen 4;
 *  - where hl_zero has a streaming class, the streaming copy, four pages
 *    side by side: beyond hl_zero's rep_max, and on Intel already beyond
 *    half the L2, where source and destination together no longer fit
 *    it. On the Intel Xeon it ran 1.1-1.7x glibc hot and 1.5-1.9x cold
 *    from 3 MiB to 64 MiB (rep movsb 0.9-1.0x), and beyond the last-level
 *    cache, where rep movsb ran 0.6-0.7x; from 1.25 MiB to 2.5 MiB (L2
 *    2 MiB there) 1.17-1.34x hot and 1.6-1.8x cold, at 1 MiB 0.84-0.95x
 *    hot, where rep movsb ran 0.98-1.01x. On AMD family 0x19 rep movsb
 *    matched streaming stores beyond the last-level cache, and hl_zero
 *    has no such class.
 * 4K aliasing: on AMD, a destination 1 to 8 vectors past the source
 * modulo 4 KiB made the vector loop's loads wait on its own stores (0.63x
 * glibc at 16 KiB on the Zen 4), so such copies take rep movsb
 * (alias_window). On the Intel Xeon the vector loop ran 1.37-1.44x glibc
 * hot at 4-4.3 KiB with the destination 64 bytes past the source modulo
 * 4 KiB, where that detour gave 0.93-1.00x: no window there.
 * Without ERMS, vectors for every size; without AVX2, one variant.
 */
static void copy_x86(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	struct hl_zero_thresholds zero;
	bool intel = m->vendor == HL_ZERO_VENDOR_INTEL;

	hl__zero_derive(m, &zero);
	l->mid = "rep_movsb";
	if (intel && m->erms)
		l->vec_max = 4096;
	else
		l->vec_max = m->l1d >= 1024 ? m->l1d / 2 : 16384;
	l->rep_max = zero.rep_max.value;
	l->large = l->rep_max == SIZE_MAX ? NULL : "nontemporal";
	if (l->large && intel && m->l2 && m->l2 / 2 < l->rep_max)
		l->rep_max = m->l2 / 2;
	if (l->rep_max < l->vec_max)
		l->rep_max = l->vec_max;
	if (m->avx512) {
		l->name = "avx512";
	} else if (m->avx2) {
		l->name = "avx2";
	} else {
		l->name = m->erms ? "rep_movsb" : "movq";
		l->mid = l->large = NULL;
		l->vec_max = l->rep_max = SIZE_MAX;
		return;
	}
	l->alias_window = intel ? 0 : 8 * (m->avx512 ? 64 : 32);
	if (!m->erms) { /* no fast rep movsb: vectors for every size */
		l->mid = l->large = NULL;
		l->vec_max = l->rep_max = SIZE_MAX;
	}
}

/*
 * Up to this many bytes the arm64 plan copies with ldp_stp even where
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

/* hl_try_copy on arm64: ldp_stp for every size, or, with FEAT_MOPS, ldp_stp up to COPY_MOPS_ABOVE
 * bytes and mops beyond. */
static void copy_arm64(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	l->name = "ldp_stp";
	l->vec_max = l->rep_max = SIZE_MAX;
	if (m->mops) {
		l->mid = l->large = "mops";
		l->vec_max = COPY_MOPS_ABOVE;
	}
}

void hl__copy_layout(const struct hl_zero_machine *m, struct hl_plan_layout *l)
{
	*l = (struct hl_plan_layout){.vec_max = SIZE_MAX, .rep_max = SIZE_MAX};
	if (m->isa == HL_ZERO_ISA_X86_64)
		copy_x86(m, l);
	else if (m->isa == HL_ZERO_ISA_AARCH64)
		copy_arm64(m, l);
	else
		l->name = "bytes"; /* no assembly: byte by byte, with its own recovery */
}

static void add_class(struct hl_size_plan *p, const char *variant, size_t max)
{
	if (p->n && p->c[p->n - 1].max >= max)
		return; /* empty: the class before covers these sizes */
	p->c[p->n].variant = variant;
	p->c[p->n].max = max;
	p->n++;
}

/* The classes as hl_zero_plan() and hl_copy_plan() print them, less the empty ones. */
void hl__plan_classes(const struct hl_plan_layout *l, struct hl_size_plan *p)
{
	p->n = 0;
	if (!l->mid && !l->large) {
		add_class(p, l->name, SIZE_MAX);
		return;
	}
	add_class(p, l->name, l->mid ? l->vec_max : l->rep_max);
	if (l->mid)
		add_class(p, l->mid, l->rep_max);
	if (l->large)
		add_class(p, l->large, SIZE_MAX);
	p->c[p->n - 1].max = SIZE_MAX;
}

void hl__zero_plan_for(const struct hl_zero_machine *m, struct hl_size_plan *p)
{
	struct hl_plan_layout l;
	struct hl_zero_thresholds t;

	hl__zero_variants(m, &l);
	hl__zero_derive(m, &t);
	hl__zero_apply(&l, &t);
	hl__plan_classes(&l, p);
}

void hl__copy_plan_for(const struct hl_zero_machine *m, struct hl_size_plan *p)
{
	struct hl_plan_layout l;

	hl__copy_layout(m, &l);
	hl__plan_classes(&l, p);
}

const char *hl__plan_variant(const struct hl_size_plan *p, size_t n)
{
	for (unsigned i = 0; i < p->n; i++)
		if (n <= p->c[i].max)
			return p->c[i].variant;
	return p->n ? p->c[p->n - 1].variant : NULL;
}
