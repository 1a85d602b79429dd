/* SPDX-License-Identifier: MIT */
/*
 * plan.h - the automatic plans of hl_zero and hl_try_copy as pure
 * functions of a machine description (struct hl_zero_machine, zero_plan.h):
 * which variant clears or copies which sizes.
 *
 * The rules of every architecture are here, in portable code, so that a
 * test on any machine can derive the plans of a machine it is told about
 * (tests/bench/test_plans.c holds them against data/machines/). The
 * library derives its own plans with these very functions, from the
 * description of the machine it runs on, and then finds the code of a
 * plan in the architecture's variant table (src/arch/<arch>/, arch.h) by
 * the name of its first variant, through the registry (variant.h).
 *
 * Internal to the library: hidden in libhotline.so, not in any public
 * header (the tests link the static library).
 */
#ifndef HOTLINE_SRC_PLAN_H
#define HOTLINE_SRC_PLAN_H

#include <stddef.h>

#include "zero_plan.h"

/*
 * A plan as the library runs it: the variant `name` for sizes up to
 * vec_max bytes, `mid` up to rep_max, `large` beyond; mid NULL: no middle
 * class; mid and large NULL: `name` does every size. The names are the
 * variant tables' (hl_zero_variant_name, hl_copy_variant_name).
 */
struct hl_plan_layout {
	const char *name, *mid, *large;
	size_t vec_max, rep_max;
	/*
	 * hl_try_copy on x86-64: a copy above 8 vectors whose destination lies
	 * 1 to alias_window bytes past its source modulo 4 KiB takes rep movsb
	 * (4K aliasing); 0: never.
	 */
	unsigned alias_window;
};

/*
 * The same plan as its size classes, smallest sizes first: c[i].variant
 * does the sizes above c[i - 1].max up to c[i].max; the last max is
 * SIZE_MAX. Empty classes are left out.
 */
struct hl_size_class {
	const char *variant;
	size_t max;
};
struct hl_size_plan {
	unsigned n;
	struct hl_size_class c[3];
};

/* hl_zero's variants for machine m; vec_max and rep_max SIZE_MAX until hl__zero_apply. */
void hl__zero_variants(const struct hl_zero_machine *m, struct hl_plan_layout *l);

/*
 * Put hl_zero's thresholds t (derived, then perhaps HOTLINE_ZERO_TUNABLES)
 * into layout l, as its classes use them; a tunable threshold l has no
 * use for becomes unused in t, with the reason.
 */
void hl__zero_apply(struct hl_plan_layout *l, struct hl_zero_thresholds *t);

/* hl_try_copy's plan for machine m: its variants and thresholds. */
void hl__copy_layout(const struct hl_zero_machine *m, struct hl_plan_layout *l);

/* Layout l as size classes. */
void hl__plan_classes(const struct hl_plan_layout *l, struct hl_size_plan *p);

/*
 * hl_zero's and hl_try_copy's automatic plans for machine m, with the
 * thresholds derived from it (no HOTLINE_ZERO_TUNABLES): pure functions,
 * no CPUID, no files.
 */
void hl__zero_plan_for(const struct hl_zero_machine *m, struct hl_size_plan *p);
void hl__copy_plan_for(const struct hl_zero_machine *m, struct hl_size_plan *p);

/* The variant plan p uses for n bytes. */
const char *hl__plan_variant(const struct hl_size_plan *p, size_t n);

/*
 * The plans hl_zero and hl_try_copy run in this process now (src/zero.c,
 * src/copy.c), as size classes: the automatic plan's, or one class for a
 * variant forced by HOTLINE_ZERO / HOTLINE_COPY or hl_zero_use /
 * hl_copy_use; for hl_zero also the automatic plan's thresholds with
 * their sources (t, unless NULL). What hl_zero_plan(), hl_copy_plan() and
 * hl_zero_plan_sources() write as text, for code that needs the values
 * (the bench's zero --tune, the tests' fault grids): nobody parses the
 * text.
 */
void hl__zero_plan_in_force(struct hl_size_plan *p, struct hl_zero_thresholds *t);
void hl__copy_plan_in_force(struct hl_size_plan *p);

#endif /* HOTLINE_SRC_PLAN_H */
