// SPDX-License-Identifier: MIT
/*
 * zero.c - hl_zero's and hl_try_zero's variant choice, and hl_try_zero's
 * slow path.
 *
 * The variants live in src/arch/<arch>/; this file makes the automatic
 * plan (plan.c chooses its variants, zero_plan.c its thresholds), lets the
 * shared choice (variant.c) pick it or a forced variant, and publishes
 * that in the redirects hl_zero and hl_try_zero jump through. A fault in a
 * variant is the fault layer's (fault.c): hl_try_zero's redirect stays at
 * install_and_try_zero until it says the handler is in.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <hotline/zero.h>

#include "arch/arch.h"
#include "env.h"
#include "fault.h"
#include "plan.h"
#include "variant.h"
#include "zero_plan.h"

/* Thresholds of the automatic plan, read by the architecture's code. */
size_t hl__zero_vec_max = SIZE_MAX;
size_t hl__zero_rep_max = SIZE_MAX;

/* The automatic plan: its layout (plan.h), and its code (arch.h). */
static struct hl_plan_layout layout;
static struct hl_zero_auto auto_plan;

/* The automatic plan's thresholds and where each came from (zero_plan.h). */
static struct hl_zero_thresholds thresholds;

/*
 * Where hl_zero and hl_try_zero go (arch.h): resolvers until init() has
 * run; hl_try_zero's stays at install_and_try_zero until the fault handler
 * is in place. Written under the choice's lock; read with one load per
 * call.
 */
static size_t resolve_and_zero(void *dst, size_t n);
static size_t install_and_try_zero(void *dst, size_t n);
hl_zero_fn hl__zero_redirect = resolve_and_zero;
hl_zero_fn hl__try_zero_redirect = install_and_try_zero;
size_t hl__zero_redirect_direct_max, hl__try_zero_redirect_direct_max;

static void init(void);
static void publish(const struct hl_variant *chosen, bool installed);
static struct hl_choice choice = {
	.env = "HOTLINE_ZERO",
	.variants = {&hl_arch_zero_impls[0].v, sizeof(struct hl_zero_impl)},
	.init = init,
	.publish = publish,
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/* The choice's hook: the variant chosen (NULL: the automatic plan) into the redirects. */
static void publish(const struct hl_variant *chosen, bool installed)
{
	const struct hl_zero_impl *v = (const struct hl_zero_impl *)chosen;
	bool inline_plan = !v && auto_plan.inline_entry;
	hl_zero_fn fn = inline_plan ? NULL : v ? v->fn : auto_plan.fn;
	hl_zero_fn try_fn = inline_plan ? NULL : v ? v->try_fn : auto_plan.try_fn;

	HL_REDIRECT_PUBLISH(&hl__zero_redirect, &hl__zero_redirect_direct_max, fn,
			    hl_arch_zero_direct_max);
	if (!installed)
		return;
	/* hl_try_zero's gate (arch.h): shut before a redirect is set, open after it is NULL. */
	if (try_fn)
		__atomic_store_n(&hl__try_zero_open_top, (uintptr_t)0, __ATOMIC_RELEASE);
	HL_REDIRECT_PUBLISH(&hl__try_zero_redirect, &hl__try_zero_redirect_direct_max, try_fn,
			    hl_arch_zero_direct_max);
	if (!try_fn)
		__atomic_store_n(&hl__try_zero_open_top, hl__user_top(), __ATOMIC_RELEASE);
}

/*
 * The code of the plan of layout l: what its first variant leads (arch.h),
 * or that variant alone; the table's first variant if l names none.
 */
static struct hl_zero_auto plan_code(const struct hl_plan_layout *l)
{
	const struct hl_variant *head = hl__variant_find(&choice.variants, l->name);
	const struct hl_zero_impl *v =
		head ? (const struct hl_zero_impl *)head : &hl_arch_zero_impls[0];

	if (v->leads.inline_entry || v->leads.fn)
		return v->leads;
	return (struct hl_zero_auto){.fn = v->fn, .try_fn = v->try_fn};
}

/*
 * The thresholds: derived from the machine, then HOTLINE_ZERO_TUNABLES
 * (all of it, or, if any of it is not understood, none), then put into the
 * plan's layout (hl__zero_apply).
 */
static void plan_thresholds(const struct hl_zero_machine *machine)
{
	const char *env = getenv("HOTLINE_ZERO_TUNABLES");
	char err[160];

	hl__zero_derive(machine, &thresholds);
	if (env && !hl__zero_tunables(env, &thresholds, err, sizeof(err)))
		hl__env_report("HOTLINE_ZERO_TUNABLES", env, "%s; using the derived plan", err);
	hl__zero_apply(&layout, &thresholds);
}

/* First use: the automatic plan, then HOTLINE_ZERO if it names a variant this CPU runs. */
static void init(void)
{
	const struct hl_cpu *cpu = hl_cpu();
	struct hl_zero_machine machine;

	hl__zero_machine_probe(cpu, &machine);
	hl__zero_variants(&machine, &layout);
	auto_plan = plan_code(&layout);
	plan_thresholds(&machine);
	hl__zero_vec_max = layout.vec_max;
	hl__zero_rep_max = layout.rep_max;
	hl__choice_start(&choice, cpu);
}

/* Read the environment at load time, so the choice is made before any thread races to it. */
__attribute__((constructor)) static void init_at_load(void)
{
	hl__choice_at_load(&choice);
}

/* hl_zero before init(): choose, then clear through the entry point. */
static size_t resolve_and_zero(void *dst, size_t n)
{
	hl__choice_ready(&choice);
	hl_zero(dst, n);
	return 0;
}

/*
 * hl_try_zero until the handler is in place (its entry checks done); n
 * (nothing cleared) if it cannot be.
 */
static size_t install_and_try_zero(void *dst, size_t n)
{
	if (hl__fault_install() != 0)
		return n;
	return hl__try_zero_checked(dst, n);
}

/*
 * hl_try_zero when its entry check failed (arch.h). A range that wraps or
 * ends beyond the user address space is refused whole, as the kernel's
 * clear_user refuses it: nothing written, n returned. Otherwise the fault
 * layer opens the fault signals for the call if this thread blocks them
 * (fault.c, hl__fault_open).
 */
static size_t zero_checked(void *dst, const void *src, size_t n)
{
	(void)src;
	return hl__try_zero_checked(dst, n);
}

size_t hl__try_zero_slow(void *dst, size_t n)
{
	return hl__fault_slow(zero_checked, dst, dst, n);
}

const char *hl_zero_variant(void)
{
	return hl__choice_name(&choice, &layout);
}

int hl_zero_use(const char *name)
{
	return hl__choice_use(&choice, name);
}

int hl_zero_plan(char *buf, size_t size)
{
	const struct hl_variant *v;

	hl__choice_ready(&choice);
	v = hl__choice_forced(&choice);
	if (v)
		return snprintf(buf, size, "%s", v->name);
	if (!layout.mid && !layout.large)
		return snprintf(buf, size, "%s", layout.name);
	if (!layout.mid)
		return snprintf(buf, size, "%s <= %zu < %s", layout.name, layout.rep_max,
				layout.large);
	if (layout.rep_max == SIZE_MAX) /* no streaming class */
		return snprintf(buf, size, "%s <= %zu < %s", layout.name, layout.vec_max,
				layout.mid);
	return snprintf(buf, size, "%s <= %zu < %s <= %zu < %s", layout.name, layout.vec_max,
			layout.mid, layout.rep_max, layout.large);
}

int hl_zero_plan_sources(char *buf, size_t size)
{
	hl__choice_ready(&choice);
	return hl__zero_sources(&thresholds, buf, size);
}

void hl__zero_plan_in_force(struct hl_size_plan *p, struct hl_zero_thresholds *t)
{
	hl__choice_classes(&choice, &layout, p);
	if (t)
		*t = thresholds;
}

const char *hl_zero_variant_name(unsigned i)
{
	return hl__variant_name(&choice.variants, i);
}

bool hl_zero_supported(const char *name)
{
	return hl__variant_supported(&choice.variants, name);
}
