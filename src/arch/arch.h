/* SPDX-License-Identifier: MIT */
/*
 * arch/arch.h - the one interface between portable library code and the
 * architecture directories (src/arch/<arch>/). The build compiles exactly
 * one of them; nothing outside src/arch/ tests the architecture macros.
 */
#ifndef HOTLINE_SRC_ARCH_H
#define HOTLINE_SRC_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include <hotline/cpu.h>

/*
 * Fill what this architecture can tell about the CPU. Called once, with
 * *cpu zeroed; strings it stores must stay valid for the whole process.
 */
void hl_arch_cpu_probe(struct hl_cpu *cpu);

/*
 * Clearing (zero.c). A variant clears [dst, dst+n) and returns the number
 * of bytes it could not clear. Each comes in two forms: fn, for hl_zero,
 * in which a fault is a crash; and try_fn, for hl_try_zero, whose faults
 * hl_arch_zero_fixup() resolves, so that it returns the bytes left.
 */
typedef size_t (*hl_zero_fn)(void *dst, size_t n);

struct hl_zero_impl {
	const char *name;
	hl_zero_fn fn, try_fn;
	bool (*supported)(const struct hl_cpu *cpu);
};

/* Every variant of this architecture, ending with a { NULL } entry. */
extern const struct hl_zero_impl hl_arch_zero_impls[];

/*
 * The automatic plan for this CPU: fn (and try_fn) clear every size, by the
 * variant `name` up to vec_max bytes, by `mid` up to rep_max, by `large`
 * beyond (mid NULL when there is no middle class; both NULL when one
 * variant does every size; never mid without large). The architecture
 * fills in the variants; zero.c sets vec_max and rep_max from zero_plan.c
 * and publishes them in hl__zero_vec_max / hl__zero_rep_max,
 * where the plan's code reads them. inline_entry: the plan is the body of
 * hl_zero and hl_try_zero themselves, so no redirect is needed (fn and
 * try_fn may then be NULL).
 */
struct hl_zero_auto {
	hl_zero_fn fn, try_fn;
	const char *name, *mid, *large;
	size_t vec_max, rep_max;
	bool inline_entry;
};
void hl_arch_zero_auto(const struct hl_cpu *cpu, struct hl_zero_auto *plan);
extern size_t hl__zero_vec_max, hl__zero_rep_max;

/*
 * The architecture defines the public entry points hl_zero and
 * hl_try_zero. Each first loads its redirect: if it is not NULL, the call
 * goes there (a forced variant, a plan that is not inline, or zero.c's
 * resolvers before the first use); if it is NULL, the entry runs the
 * automatic plan itself. One load and a predicted branch: no extra call.
 */
extern hl_zero_fn hl__zero_redirect, hl__try_zero_redirect;

/*
 * hl_try_zero's fault resolution, called from the SIGSEGV/SIGBUS handler
 * for a kernel-raised access fault at addr: if the interrupted instruction
 * is a store of a try_fn, and addr lies in what it is clearing, redirect
 * the signal context uc to the store's fixup and return true (or do not
 * return at all, where the architecture recovers by siglongjmp); otherwise
 * return false and leave uc alone. addr is HL_FAULT_ADDR_UNKNOWN for a
 * fault the kernel reports without one (a general-protection fault): then
 * the instruction alone decides, and the fixup finds the address.
 * It must call nothing outside the library (zero.c says why).
 */
#define HL_FAULT_ADDR_UNKNOWN UINTPTR_MAX
bool hl_arch_zero_fixup(void *uc, uintptr_t addr);

/*
 * hl_try_zero's entry checks, done by the architecture's entry point
 * before it stores anything: the range [dst, dst + n) must not wrap and
 * must end at or below hl__try_zero_thread_top. That is a thread-local
 * copy of the end of the user address space, 0 until zero.c has found
 * that this thread does not block SIGSEGV/SIGBUS (so one comparison checks
 * both). When a check fails the entry tail-calls hl__try_zero_slow
 * (zero.c), which returns n or calls hl__try_zero_checked: the entry point
 * just after its checks.
 */
extern _Thread_local uintptr_t hl__try_zero_thread_top __attribute__((tls_model("initial-exec")));
size_t hl__try_zero_slow(void *dst, size_t n);
size_t hl__try_zero_checked(void *dst, size_t n);

/*
 * The user address space, for zero.c's search of its end: the most
 * address bits it can have on this architecture (the search starts
 * there), and the end to assume if the kernel cannot be asked.
 */
unsigned int hl_arch_user_bits_max(void);
uintptr_t hl_arch_user_top_min(void);

/*
 * An exception table as the variants' assembly emits it: each store range
 * [start, end) and its fixup, as 32-bit offsets from the field itself (so
 * the table needs no relocation). hl__zero_extable_find (zero.c) returns
 * the fixup for pc in the table [begin, end), or 0.
 */
struct hl_zero_extable {
	int32_t start, end, fixup;
};
uintptr_t hl__zero_extable_find(const struct hl_zero_extable *begin,
				const struct hl_zero_extable *end, uintptr_t pc);

/*
 * static inline void hl_arch_relax(void): the spin-wait hint (cpu_relax),
 * from arch/<arch>/relax.h; the build puts that directory on the path.
 */
#include "relax.h"

#endif
