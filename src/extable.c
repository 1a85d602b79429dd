// SPDX-License-Identifier: MIT
/*
 * extable.c - the exception table's one decision (arch.h,
 * hl__extable_fixup), which every architecture's fault fixup makes: is
 * the faulting instruction in the table, and does the address lie in what
 * that entry's kind may touch? A pure function of the table and the
 * interrupted registers: it calls nothing (its static probe, probes.h,
 * is a nop), so that it may run on a small signal stack (fault.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"
#include "probes.h"

static const struct hl_extable *extable_find(const struct hl_extable *begin,
					     const struct hl_extable *end, uintptr_t pc)
{
	for (const struct hl_extable *e = begin; e < end; e++) {
		uintptr_t start = (uintptr_t)&e->start + (intptr_t)e->start;
		uintptr_t stop = (uintptr_t)&e->end + (intptr_t)e->end;

		if (pc >= start && pc < stop)
			return e;
	}
	return NULL;
}

static bool inside(uintptr_t addr, uintptr_t lo, uintptr_t len)
{
	return addr - lo < len;
}

uintptr_t hl__extable_fixup(const struct hl_extable *begin, const struct hl_extable *end,
			    uintptr_t pc, uintptr_t addr, uintptr_t dst, uintptr_t src,
			    uintptr_t dst_end)
{
	const struct hl_extable *e = extable_find(begin, end, pc);
	uintptr_t left;
	bool ours;

	if (!e)
		return 0;
	left = e->kind == HL_EXTABLE_COPY_N ? dst_end : dst_end - dst;
	if (e->kind == HL_EXTABLE_LOAD64)
		ours = inside(addr, dst, 8);
	else if (e->kind == HL_EXTABLE_COPY || e->kind == HL_EXTABLE_COPY_N)
		ours = inside(addr, dst, left) || inside(addr, src, left);
	else
		ours = inside(addr, dst, left);
	if (addr != HL_FAULT_ADDR_UNKNOWN && !ours)
		return 0;
	HL_PROBE(try_fault, addr, left, e->kind, pc);
	return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
}
