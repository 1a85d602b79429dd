// SPDX-License-Identifier: MIT
/*
 * copy.c - hl_try_copy's variant choice and the slow paths of hl_try_copy
 * and hl_try_load64.
 *
 * The variants live in src/arch/<arch>/, in the exception table that the
 * fault layer (fault.c) consults: a fault in one goes to the variant's
 * fixup. This file makes the automatic plan (plan.c), lets the shared
 * choice (variant.c) pick it or HOTLINE_COPY's variant, publishes that in
 * the redirect hl_try_copy jumps through once the fault layer says the
 * handler is in, and handles what the entry checks turn away: ranges
 * outside the user address space and threads that block SIGSEGV/SIGBUS.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include <hotline/copy.h>

#include "arch/arch.h"
#include "fault.h"
#include "plan.h"
#include "variant.h"
#include "zero_plan.h"

/* Thresholds of the automatic plan, read by the architecture's code. */
size_t hl__copy_vec_max = SIZE_MAX;
size_t hl__copy_rep_max = SIZE_MAX;
unsigned hl__copy_alias_window = 512;
/*
 * The largest n the vector loop of the automatic plan copies without
 * testing the alias window and vec_max: vec_max where the window is 0
 * (Intel), 0 where there is one (every size is tested) and until the plan
 * is made.
 */
size_t hl__copy_plain_max;

/* The automatic plan: its layout (plan.h), and its code (arch.h). */
static struct hl_plan_layout layout;
static struct hl_copy_auto auto_plan;

/*
 * Where hl_try_copy goes (arch.h): install_and_try_copy until the fault
 * handler is in place and the choice made; then NULL (the automatic plan
 * is the entry's own body) or a variant.
 */
static size_t install_and_try_copy(void *dst, const void *src, size_t n);
hl_copy_fn hl__try_copy_redirect = install_and_try_copy;

static void init(void);
static void publish(const struct hl_variant *chosen, bool installed);
static struct hl_choice choice = {
	.env = "HOTLINE_COPY",
	.variants = {&hl_arch_copy_impls[0].v, sizeof(struct hl_copy_impl)},
	.init = init,
	.publish = publish,
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/* The choice's hook: the variant chosen (NULL: the automatic plan), once the handler is in. */
static void publish(const struct hl_variant *chosen, bool installed)
{
	const struct hl_copy_impl *v = (const struct hl_copy_impl *)chosen;
	hl_copy_fn fn = v ? v->try_fn : auto_plan.inline_entry ? NULL : auto_plan.try_fn;

	/*
	 * The redirect first, then every thread's small top (arch.h): open
	 * only while the redirect is NULL, since small calls that pass it do
	 * not load the redirect.
	 */
	if (installed) {
		__atomic_store_n(&hl__try_copy_redirect, fn, __ATOMIC_RELEASE);
		hl__fault_small_calls(!fn);
	}
}

/* The code of the plan of layout l, as zero.c's plan_code. */
static struct hl_copy_auto plan_code(const struct hl_plan_layout *l)
{
	const struct hl_variant *head = hl__variant_find(&choice.variants, l->name);
	const struct hl_copy_impl *v =
		head ? (const struct hl_copy_impl *)head : &hl_arch_copy_impls[0];

	if (v->leads.inline_entry || v->leads.try_fn)
		return v->leads;
	return (struct hl_copy_auto){.try_fn = v->try_fn};
}

/* First use: the automatic plan, then HOTLINE_COPY if it names a variant this CPU runs. */
static void init(void)
{
	const struct hl_cpu *cpu = hl_cpu();
	struct hl_zero_machine machine;

	hl__zero_machine_probe(cpu, &machine);
	hl__copy_layout(&machine, &layout);
	auto_plan = plan_code(&layout);
	hl__copy_vec_max = layout.vec_max;
	hl__copy_rep_max = layout.rep_max;
	hl__copy_alias_window = layout.alias_window;
	hl__copy_plain_max = layout.alias_window ? 0 : layout.vec_max;
	hl__choice_start(&choice, cpu);
}

/* Read the environment at load, before any thread races to the choice. */
__attribute__((constructor)) static void init_at_load(void)
{
	hl__choice_at_load(&choice);
}

/* Until then every call comes here: n (nothing copied) if it cannot be installed. */
static size_t install_and_try_copy(void *dst, const void *src, size_t n)
{
	if (hl__fault_install() != 0)
		return n;
	return hl__try_copy_checked(dst, src, n);
}

/*
 * hl_try_copy when its entry check failed: a range outside the user
 * address space is refused whole (n); otherwise the fault signals are
 * opened for the call (fault.c, hl__fault_open), as for hl_try_zero.
 */
size_t hl__try_copy_slow(void *dst, const void *src, size_t n)
{
	return hl__fault_slow(hl__try_copy_checked, dst, src, n);
}

/* hl_try_load64 as a call of the fault layer: 0 if it loaded *out, else 8. */
static size_t load64_checked(void *out, const void *p, size_t n)
{
	return hl__try_load64_checked(p, out) ? 0 : n;
}

/* hl_try_load64 when its entry check failed: the same, for 8 bytes. */
bool hl__try_load64_slow(const void *p, uint64_t *out)
{
	if (!hl__user_range(p, 8) || hl__fault_install() != 0)
		return false;
	return hl__fault_call(load64_checked, out, p, 8) == 0;
}

const char *hl_copy_variant(void)
{
	return hl__choice_name(&choice, &layout);
}

int hl_copy_use(const char *name)
{
	return hl__choice_use(&choice, name);
}

static int size_text(char *buf, size_t size, size_t n)
{
	return n == SIZE_MAX ? snprintf(buf, size, "max") : snprintf(buf, size, "%zu", n);
}

int hl_copy_plan(char *buf, size_t size)
{
	const struct hl_variant *v;
	char a[24], b[24];

	hl__choice_ready(&choice);
	v = hl__choice_forced(&choice);
	if (v)
		return snprintf(buf, size, "%s", v->name);
	if (!layout.mid)
		return snprintf(buf, size, "%s", layout.name);
	size_text(a, sizeof(a), layout.vec_max);
	size_text(b, sizeof(b), layout.rep_max);
	if (layout.rep_max == SIZE_MAX)
		return snprintf(buf, size, "%s <= %s < %s", layout.name, a, layout.mid);
	return snprintf(buf, size, "%s <= %s < %s <= %s < %s", layout.name, a, layout.mid, b,
			layout.large);
}

void hl__copy_plan_in_force(struct hl_size_plan *p)
{
	hl__choice_classes(&choice, &layout, p);
}

const char *hl_copy_variant_name(unsigned i)
{
	return hl__variant_name(&choice.variants, i);
}

bool hl_copy_supported(const char *name)
{
	return hl__variant_supported(&choice.variants, name);
}
