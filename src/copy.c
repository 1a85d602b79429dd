// SPDX-License-Identifier: MIT
/*
 * copy.c - hl_try_copy's variant choice and the slow paths of hl_try_copy
 * and hl_try_load64.
 *
 * The variants live in src/arch/<arch>/, in hl_try_zero's exception
 * table; a fault in one is resolved by hl_try_zero's handler (zero.c,
 * installed on the first call here too), which sends it to the variant's
 * fixup. This file chooses the variant once (the architecture's automatic
 * plan, or HOTLINE_COPY), publishes it in the redirect that hl_try_copy
 * jumps through, and handles what the entry checks turn away: ranges
 * outside the user address space and threads that block SIGSEGV/SIGBUS.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "arch/arch.h"
#include "env.h"
#include "plan.h"
#include "zero_plan.h"

/* Thresholds of the automatic plan, read by the architecture's code. */
size_t hl__copy_vec_max = SIZE_MAX;
size_t hl__copy_rep_max = SIZE_MAX;
unsigned hl__copy_alias_window = 512;

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

static const struct hl_copy_impl *_Atomic forced;
static pthread_mutex_t choice_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_bool ready;

const struct hl_copy_impl *hl__copy_impl(const char *name)
{
	for (const struct hl_copy_impl *v = hl_arch_copy_impls; name && v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

/* Publish a choice (NULL: automatic) once the handler is in; callers hold choice_lock. */
static void publish(const struct hl_copy_impl *v)
{
	hl_copy_fn fn = v ? v->try_fn : auto_plan.inline_entry ? NULL : auto_plan.try_fn;

	atomic_store_explicit(&forced, v, memory_order_relaxed);
	if (atomic_load_explicit(&ready, memory_order_relaxed))
		__atomic_store_n(&hl__try_copy_redirect, fn, __ATOMIC_RELEASE);
}

/* First use: the automatic plan, then HOTLINE_COPY if it names a variant this CPU runs. */
static void init(void)
{
	const struct hl_cpu *cpu = hl_cpu();
	const char *env = getenv("HOTLINE_COPY");
	const struct hl_copy_impl *v = NULL;
	struct hl_zero_machine machine;

	hl__zero_machine_probe(cpu, &machine);
	hl__copy_layout(&machine, &layout);
	hl_arch_copy_auto(&layout, &auto_plan);
	hl__copy_vec_max = layout.vec_max;
	hl__copy_rep_max = layout.rep_max;
	hl__copy_alias_window = layout.alias_window;
	if (env && strcmp(env, "auto") != 0) {
		v = hl__copy_impl(env);
		if (!v) {
			hl__env_report("HOTLINE_COPY", env, "unknown variant; using auto");
		} else if (!v->supported(cpu)) {
			hl__env_report("HOTLINE_COPY", env,
				       "not supported by this CPU; using auto");
			v = NULL;
		}
	}
	pthread_mutex_lock(&choice_lock);
	publish(v);
	pthread_mutex_unlock(&choice_lock);
}

/* Read the environment at load, before any thread races to the choice. */
__attribute__((constructor)) static void init_at_load(void)
{
	pthread_once(&init_once, init);
}

/*
 * Called by zero.c once the fault handler is in place (hl_try_zero_prepare
 * or the first hl_try_zero or hl_try_copy): from then on hl_try_copy goes
 * straight to its choice and takes no lock, so that a signal handler may
 * call it even while the thread it interrupted is inside its first call.
 */
void hl__copy_installed(void)
{
	pthread_once(&init_once, init);
	pthread_mutex_lock(&choice_lock);
	atomic_store_explicit(&ready, true, memory_order_release);
	publish(atomic_load_explicit(&forced, memory_order_relaxed));
	pthread_mutex_unlock(&choice_lock);
}

/* Until then every call comes here: n (nothing copied) if it cannot be installed. */
static size_t install_and_try_copy(void *dst, const void *src, size_t n)
{
	if (hl_try_zero_prepare() != 0)
		return n;
	return hl__try_copy_checked(dst, src, n);
}

/*
 * hl_try_copy when its entry check failed: a range outside the user
 * address space is refused whole (n); otherwise the fault signals are
 * opened for the call as hl_try_zero's slow path does (zero.c).
 */
size_t hl__try_copy_slow(void *dst, const void *src, size_t n)
{
	sigset_t old;
	size_t left;
	int open;

	if (!hl__user_range(dst, n) || !hl__user_range(src, n))
		return n;
	open = hl__fault_open(&old);
	if (open < 0)
		return n;
	left = hl__try_copy_checked(dst, src, n);
	if (open)
		hl__fault_close(&old);
	return left;
}

/* hl_try_load64 when its entry check failed: the same, for 8 bytes. */
bool hl__try_load64_slow(const void *p, uint64_t *out)
{
	sigset_t old;
	bool ok;
	int open;

	if (!hl__user_range(p, 8) || hl_try_zero_prepare() != 0)
		return false;
	open = hl__fault_open(&old);
	if (open < 0)
		return false;
	ok = hl__try_load64_checked(p, out);
	if (open)
		hl__fault_close(&old);
	return ok;
}

const char *hl_copy_variant(void)
{
	const struct hl_copy_impl *v;

	pthread_once(&init_once, init);
	v = atomic_load_explicit(&forced, memory_order_relaxed);
	return v ? v->name : layout.name;
}

int hl_copy_use(const char *name)
{
	const struct hl_copy_impl *v = hl__copy_impl(name);
	bool automatic = name && strcmp(name, "auto") == 0;

	pthread_once(&init_once, init);
	if (!automatic && (!v || !v->supported(hl_cpu())))
		return -1;
	pthread_mutex_lock(&choice_lock);
	publish(automatic ? NULL : v);
	pthread_mutex_unlock(&choice_lock);
	return 0;
}

static int size_text(char *buf, size_t size, size_t n)
{
	return n == SIZE_MAX ? snprintf(buf, size, "max") : snprintf(buf, size, "%zu", n);
}

int hl_copy_plan(char *buf, size_t size)
{
	const struct hl_copy_impl *v;
	char a[24], b[24];

	pthread_once(&init_once, init);
	v = atomic_load_explicit(&forced, memory_order_relaxed);
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

const char *hl_copy_variant_name(unsigned i)
{
	unsigned n = 0;

	while (hl_arch_copy_impls[n].name)
		n++;
	return i < n ? hl_arch_copy_impls[i].name : NULL;
}

bool hl_copy_supported(const char *name)
{
	const struct hl_copy_impl *v = hl__copy_impl(name);

	return v && v->supported(hl_cpu());
}
