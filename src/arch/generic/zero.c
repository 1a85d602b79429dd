// SPDX-License-Identifier: MIT
/*
 * generic/zero.c - clearing where hotline has no assembly variants (neither
 * x86-64 nor arm64): one variant, `memset`, the C library's.
 *
 * Without assembly there is no exception table. hl_try_zero here makes its
 * own recovery point with sigsetjmp and clears byte by byte through a
 * volatile pointer, keeping its progress where the fault layer's fixup
 * (fault.c beside this file) can find it: byte-exact, but slow and not
 * free when nothing faults. It exists so that every build has a correct
 * hl_zero and hl_try_zero.
 */
#include <string.h>

#include <hotline/zero.h>

#include "../../zero_plan.h"
#include "../../fault.h"
#include "../arch.h"
#include "recovery.h"

static size_t zero_memset(void *dst, size_t n)
{
	memset(dst, 0, n);
	return 0;
}

static size_t try_zero_bytes(void *dst, size_t n)
{
	return hl__generic_bytes(dst, NULL, n, true);
}

/* The entries load their redirect for every size. */
const size_t hl_arch_zero_direct_max = 0;

/* The plan (plan.c: memset for every size) is the entry points' own body. */
const struct hl_zero_impl hl_arch_zero_impls[] = {
	{{"memset", hl__generic_always}, zero_memset, try_zero_bytes, {.inline_entry = true}},
	{{NULL, NULL}, NULL, NULL, {0}},
};

/* No cache enumeration of its own: sysfs or sysconf (the plan uses none). */
void hl_arch_zero_caches(struct hl_zero_machine *m)
{
	(void)m;
}

/* The entry points (arch.h): memset is the plan, inline. */
void hl_zero(void *dst, size_t n)
{
	hl_zero_fn redirect = __atomic_load_n(&hl__zero_redirect, __ATOMIC_ACQUIRE);

	if (redirect)
		redirect(dst, n);
	else
		memset(dst, 0, n);
}

static size_t zero_checked(void *dst, const void *src, size_t n)
{
	(void)src;
	return hl__try_zero_checked(dst, n);
}

/* A check that fails goes to the fault layer (hl__try_zero_slow's work, without a call up). */
size_t hl_try_zero(void *dst, size_t n)
{
	if (!hl__generic_range_checked(dst, n))
		return hl__fault_slow(zero_checked, dst, dst, n);
	return hl__try_zero_checked(dst, n);
}

size_t hl__try_zero_checked(void *dst, size_t n)
{
	hl_zero_fn redirect = __atomic_load_n(&hl__try_zero_redirect, __ATOMIC_ACQUIRE);

	return redirect ? redirect(dst, n) : try_zero_bytes(dst, n);
}
