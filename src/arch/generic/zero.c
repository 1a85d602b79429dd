// SPDX-License-Identifier: MIT
/*
 * generic/zero.c - clearing where hotline has no assembly variants (neither
 * x86-64 nor arm64): one variant, `memset`, the C library's.
 *
 * Without assembly there is no exception table. hl_try_zero here makes its
 * own recovery point with sigsetjmp and clears byte by byte through a
 * volatile pointer, keeping its progress where the handler's siglongjmp
 * can find it: byte-exact, but slow and not free when nothing faults. It
 * exists so that every build has a correct hl_zero and hl_try_zero.
 */
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../../zero_plan.h"
#include "../arch.h"

/*
 * This thread's recovery point and ranges while try_zero_bytes (one range)
 * or try_copy_bytes (the destination, then the source) runs.
 */
struct recovery {
	sigjmp_buf *jump;
	uintptr_t lo, hi, lo2, hi2;
};
static _Thread_local struct recovery recovery __attribute__((tls_model("initial-exec")));

static size_t zero_memset(void *dst, size_t n)
{
	memset(dst, 0, n);
	return 0;
}

static size_t try_zero_bytes(void *dst, size_t n)
{
	volatile unsigned char *p = dst;
	struct recovery outer = recovery;
	volatile size_t i = 0;
	sigjmp_buf here;

	if (sigsetjmp(here, 0)) {
		recovery = outer;
		return n - i;
	}
	recovery = (struct recovery){&here, (uintptr_t)dst, (uintptr_t)dst + n, 0, 0};
	for (; i < n; i++)
		p[i] = 0;
	recovery = outer;
	return 0;
}

static bool always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

const struct hl_zero_impl hl_arch_zero_impls[] = {
	{"memset", zero_memset, try_zero_bytes, always},
	{NULL, NULL, NULL, NULL},
};

/* The plan (plan.c: memset for every size) is the entry points' own body. */
void hl_arch_zero_auto(const struct hl_plan_layout *l, struct hl_zero_auto *plan)
{
	(void)l;
	plan->fn = zero_memset;
	plan->try_fn = try_zero_bytes;
	plan->inline_entry = true;
}

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

/* The entry checks of arch.h, in C: no wrap, and below this thread's top. */
static bool range_checked(const void *p, size_t n)
{
	uintptr_t end = (uintptr_t)p + n;

	return end >= (uintptr_t)p && end <= hl__try_zero_thread_top;
}

size_t hl_try_zero(void *dst, size_t n)
{
	if (!range_checked(dst, n))
		return hl__try_zero_slow(dst, n);
	return hl__try_zero_checked(dst, n);
}

size_t hl__try_zero_checked(void *dst, size_t n)
{
	hl_zero_fn redirect = __atomic_load_n(&hl__try_zero_redirect, __ATOMIC_ACQUIRE);

	return redirect ? redirect(dst, n) : try_zero_bytes(dst, n);
}

unsigned int hl_arch_user_bits_max(void)
{
	return sizeof(void *) * 8 - 8;
}

uintptr_t hl_arch_user_top_min(void)
{
	return (uintptr_t)1 << (sizeof(void *) == 8 ? 47 : 31);
}

bool hl_arch_zero_fixup(void *uc, uintptr_t addr)
{
	(void)uc;
	if (recovery.jump && ((addr >= recovery.lo && addr < recovery.hi) ||
			      (addr >= recovery.lo2 && addr < recovery.hi2)))
		siglongjmp(*recovery.jump, 1);
	return false;
}

/*
 * Copying: the same recovery, byte by byte through volatile pointers, one
 * variant. hl_try_load64 is a copy of one aligned word read in one load.
 */
static size_t try_copy_bytes(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;
	struct recovery outer = recovery;
	volatile size_t i = 0;
	sigjmp_buf here;

	if (sigsetjmp(here, 0)) {
		recovery = outer;
		return n - i;
	}
	recovery = (struct recovery){&here, (uintptr_t)dst, (uintptr_t)dst + n, (uintptr_t)src,
				     (uintptr_t)src + n};
	for (; i < n; i++)
		d[i] = s[i];
	recovery = outer;
	return 0;
}

const struct hl_copy_impl hl_arch_copy_impls[] = {
	{"bytes", try_copy_bytes, always},
	{NULL, NULL, NULL},
};

/* The plan (plan.c: bytes for every size) is the entry point's own body. */
void hl_arch_copy_auto(const struct hl_plan_layout *l, struct hl_copy_auto *plan)
{
	(void)l;
	plan->try_fn = try_copy_bytes;
	plan->inline_entry = true;
}

size_t hl_try_copy(void *dst, const void *src, size_t n)
{
	if (!range_checked(dst, n) || !range_checked(src, n))
		return hl__try_copy_slow(dst, src, n);
	return hl__try_copy_checked(dst, src, n);
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
	if (!range_checked(p, 8))
		return hl__try_load64_slow(p, out);
	return hl__try_load64_checked(p, out);
}

bool hl__try_load64_checked(const void *p, uint64_t *out)
{
	struct recovery outer = recovery;
	sigjmp_buf here;
	uint64_t v;

	if (sigsetjmp(here, 0)) {
		recovery = outer;
		return false;
	}
	recovery = (struct recovery){&here, (uintptr_t)p, (uintptr_t)p + 8, 0, 0};
	v = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
	recovery = outer;
	*out = v;
	return true;
}
