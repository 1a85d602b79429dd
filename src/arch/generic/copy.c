// SPDX-License-Identifier: MIT
/*
 * generic/copy.c - copying where hotline has no assembly variants (neither
 * x86-64 nor arm64): one variant, `bytes`, byte by byte through volatile
 * pointers under a recovery point of its own (recovery.h), as
 * generic/zero.c clears; hl_try_load64 is one aligned word read in one
 * load under the same recovery.
 */
#include <setjmp.h>
#include <stdint.h>

#include <hotline/copy.h>

#include "../../fault.h"
#include "../arch.h"
#include "recovery.h"

static size_t try_copy_bytes(void *dst, const void *src, size_t n)
{
	return hl__generic_bytes(dst, src, n, false);
}

/* hl_try_copy loads its redirect for every size. */
const size_t hl_arch_copy_direct_max = 0;

/* The plan (plan.c: bytes for every size) is the entry point's own body. */
const struct hl_copy_impl hl_arch_copy_impls[] = {
	{{"bytes", hl__generic_always}, try_copy_bytes, {.inline_entry = true}},
	{{NULL, NULL}, NULL, {0}},
};

/* A check that fails goes to the fault layer (hl__try_copy_slow's work, without a call up). */
size_t hl_try_copy(void *dst, const void *src, size_t n)
{
	if (!hl__generic_range_checked(dst, n) || !hl__generic_range_checked(src, n))
		return hl__fault_slow(hl__try_copy_checked, dst, src, n);
	return hl__try_copy_checked(dst, src, n);
}

static size_t load64_checked(void *out, const void *p, size_t n)
{
	return hl__try_load64_checked(p, out) ? 0 : n;
}

size_t hl__try_copy_checked(void *dst, const void *src, size_t n)
{
	hl_copy_fn redirect = __atomic_load_n(&hl__try_copy_redirect, __ATOMIC_ACQUIRE);

	return redirect ? redirect(dst, src, n) : try_copy_bytes(dst, src, n);
}

bool hl_try_load64(const void *p, uint64_t *out)
{
	if ((uintptr_t)p % 8)
		return false;
	if (!hl__generic_range_checked(p, 8))
		return hl__user_range(p, 8) && hl__fault_call(load64_checked, out, p, 8) == 0;
	return hl__try_load64_checked(p, out);
}

bool hl__try_load64_checked(const void *p, uint64_t *out)
{
	struct hl_recovery outer = hl__recovery;
	sigjmp_buf here;
	uint64_t v;

	if (sigsetjmp(here, 0)) {
		hl__recovery = outer;
		return false;
	}
	hl__recovery = (struct hl_recovery){&here, (uintptr_t)p, (uintptr_t)p + 8, 0, 0};
	hl__recovery_fence();
	v = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
	hl__recovery_fence();
	hl__recovery = outer;
	*out = v;
	return true;
}
