// SPDX-License-Identifier: MIT
/*
 * generic/fault.c - the fault layer's architecture side where hotline has
 * no assembly (neither x86-64 nor arm64): no exception table, but each
 * try_* function's recovery point (recovery.h), to which the fixup
 * siglongjmps when the fault lies in a range it is working on; the byte
 * loop that clears and copies under it; and a portable guess at the user
 * address space.
 */
#include <setjmp.h>
#include <stdint.h>

#include "../arch.h"
#include "recovery.h"

_Thread_local struct hl_recovery hl__recovery __attribute__((tls_model("initial-exec")));

bool hl__generic_always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

unsigned int hl_arch_user_bits_max(void)
{
	return sizeof(void *) * 8 - 8;
}

uintptr_t hl_arch_user_top_min(void)
{
	return (uintptr_t)1 << (sizeof(void *) == 8 ? 47 : 31);
}

bool hl_arch_fault_fixup(void *uc, uintptr_t addr)
{
	const struct hl_recovery *r = &hl__recovery;

	(void)uc;
	if (r->jump && ((addr >= r->lo && addr < r->hi) || (addr >= r->lo2 && addr < r->hi2)))
		siglongjmp(*r->jump, 1);
	return false;
}

size_t hl__generic_bytes(void *dst, const void *src, size_t n, bool clear)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;
	struct hl_recovery outer = hl__recovery;
	volatile size_t i = 0;
	sigjmp_buf here;

	if (sigsetjmp(here, 0)) {
		hl__recovery = outer;
		return n - i;
	}
	hl__recovery =
		(struct hl_recovery){.jump = &here, .lo = (uintptr_t)dst, .hi = (uintptr_t)dst + n};
	if (!clear) {
		hl__recovery.lo2 = (uintptr_t)src;
		hl__recovery.hi2 = (uintptr_t)src + n;
	}
	hl__recovery_fence();
	for (; i < n; i++)
		d[i] = clear ? 0 : s[i];
	hl__recovery_fence();
	hl__recovery = outer;
	return 0;
}
