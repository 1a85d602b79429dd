/* SPDX-License-Identifier: MIT */
/*
 * arch/arch.h - the one interface between portable library code and the
 * architecture directories (src/arch/<arch>/). The build compiles exactly
 * one of them; nothing outside src/arch/ tests the architecture macros.
 */
#ifndef HOTLINE_SRC_ARCH_H
#define HOTLINE_SRC_ARCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <hotline/cpu.h>

#include "../variant.h"

/*
 * Fill what this architecture can tell about the CPU. Called once, with
 * *cpu zeroed; strings it stores must stay valid for the whole process.
 */
void hl_arch_cpu_probe(struct hl_cpu *cpu);

/*
 * Clearing (zero.c). A variant clears [dst, dst+n) and returns the number
 * of bytes it could not clear. Each comes in two forms: fn, for hl_zero,
 * in which a fault is a crash; and try_fn, for hl_try_zero, whose faults
 * hl_arch_fault_fixup() resolves, so that it returns the bytes left.
 */
typedef size_t (*hl_zero_fn)(void *dst, size_t n);

/*
 * The code of an automatic plan (plan.h: which variant up to which size,
 * the portable rules' layout for this machine): fn (and try_fn) clear
 * every size by it, reading its thresholds where zero.c publishes them,
 * in hl__zero_vec_max / hl__zero_rep_max. inline_entry: the plan is the
 * body of hl_zero and hl_try_zero themselves, so no redirect is needed
 * (fn and try_fn are then NULL).
 */
struct hl_zero_auto {
	hl_zero_fn fn, try_fn;
	bool inline_entry;
};

/*
 * A variant (its name and whether a CPU runs it: variant.h), its two
 * forms, and `leads`: the code of an automatic plan whose first class it
 * is (plan.h, the layout's name). Left empty, that plan is the variant
 * itself; a plan of several classes with code of its own (the entry
 * points' body, or an auto_* routine of the assembly) is named here. So
 * zero.c finds a plan's code in the table, by the registry's name lookup,
 * and no code compares variant names.
 */
struct hl_zero_impl {
	struct hl_variant v;
	hl_zero_fn fn, try_fn;
	struct hl_zero_auto leads;
};

/*
 * Every variant of this architecture, ending with a { NULL } entry. The
 * first is the fallback, should the plan name none of them (the plan
 * tests hold the rules to the tables).
 */
extern const struct hl_zero_impl hl_arch_zero_impls[];

/* A variant of the assembly, declared: hl__zero_<name> for hl_zero, hl__try_zero_<name> armed. */
#define HL_ZERO_VARIANT(name)                                                                      \
	size_t hl__zero_##name(void *dst, size_t n);                                               \
	size_t hl__try_zero_##name(void *dst, size_t n)
extern size_t hl__zero_vec_max, hl__zero_rep_max;

/*
 * The architecture defines the public entry points hl_zero and
 * hl_try_zero. Each loads its redirect: if it is not NULL, the call goes
 * there (a forced variant, a plan that is not inline, or zero.c's
 * resolvers before the first use); if it is NULL, the entry runs the
 * automatic plan itself. One load and a predicted branch: no extra call.
 *
 * An entry may skip that load for its smallest sizes, which a hot loop of
 * calls is bound by the instructions of: sizes up to the redirect's
 * direct_max (hl__zero_redirect_direct_max for hl__zero_redirect, and so
 * on) run the entry's own body without it. HL_REDIRECT_PUBLISH keeps the
 * pair consistent: direct_max is the architecture's hl_arch_zero_direct_max
 * while the redirect is NULL, and 0 while it is not. It stores the
 * redirect before 0 and the size before NULL, so that a call that starts
 * after it returns sees both; an entry that reads a direct_max of 0 and
 * then a NULL redirect must still send its small sizes to its small path.
 * hl_try_copy's small calls (up to hl_arch_copy_direct_max bytes: 0 where
 * the entry loads the redirect for every size) need no such variable:
 * its thread's small top (below) is 0 while the redirect is not NULL.
 */
extern hl_zero_fn hl__zero_redirect, hl__try_zero_redirect;
extern size_t hl__zero_redirect_direct_max, hl__try_zero_redirect_direct_max;
extern const size_t hl_arch_zero_direct_max, hl_arch_copy_direct_max;

#define HL_REDIRECT_PUBLISH(redirect, direct_max, fn, max)                                         \
	do {                                                                                       \
		if (fn) {                                                                          \
			__atomic_store_n(redirect, fn, __ATOMIC_RELEASE);                          \
			__atomic_store_n(direct_max, (size_t)0, __ATOMIC_RELEASE);                 \
		} else {                                                                           \
			__atomic_store_n(direct_max, max, __ATOMIC_RELEASE);                       \
			__atomic_store_n(redirect, fn, __ATOMIC_RELEASE);                          \
		}                                                                                  \
	} while (0)

/*
 * The fault resolution, called from the SIGSEGV/SIGBUS handler (fault.c)
 * for a kernel-raised access fault at addr: if the interrupted instruction
 * is an armed variant's load or store (in the exception table), and addr
 * lies in what it may touch (hl__extable_fixup), redirect
 * the signal context uc to the store's fixup and return true (or do not
 * return at all, where the architecture recovers by siglongjmp); otherwise
 * return false and leave uc alone. addr is HL_FAULT_ADDR_UNKNOWN for a
 * fault the kernel reports without one (a general-protection fault): then
 * the instruction alone decides, and the fixup finds the address.
 * It must call nothing outside the library (fault.c says why).
 */
#define HL_FAULT_ADDR_UNKNOWN UINTPTR_MAX
bool hl_arch_fault_fixup(void *uc, uintptr_t addr);

/*
 * hl_try_zero's entry checks, done by the architecture's entry point
 * before it stores anything: the range [dst, dst + n) must not wrap and
 * must end at or below hl__try_thread_tops.top. That is a thread-local
 * copy of the end of the user address space, 0 until fault.c has found
 * that this thread does not block SIGSEGV/SIGBUS (so one comparison checks
 * both: fault.h, hl__fault_open). When a check fails the entry tail-calls
 * hl__try_zero_slow (zero.c), which returns n or calls
 * hl__try_zero_checked: the entry point just after its checks. An entry
 * written in C (arch/generic/) calls the fault layer's hl__fault_slow
 * itself instead, so that it calls nothing above it.
 *
 * small_top serves an entry's smallest calls, those of at most
 * hl_arch_copy_direct_max bytes (hl_try_copy's on x86-64): top minus that
 * size, plus 1, so that a pointer below it starts a range of that many
 * bytes that ends at or below top. One compare of dst | src with it
 * checks both ranges of such a call (each pointer is at most their OR),
 * and nothing can wrap. It also says that the entry's own small path is
 * the plan: it is 0 with top, where the architecture has no such path,
 * and in every thread while hl_try_copy's redirect is not NULL (a variant
 * forced, or a plan that is not the entry's body): fault.c keeps the
 * threads it knows on a list and rewrites each one's small top when
 * copy.c opens or shuts the small calls (fault.h). A small call that
 * fails the compare takes the entry's longer path, which checks exactly
 * and loads the redirect. The struct is one TLS block: an entry reaches
 * both fields from one offset, top first.
 */
struct hl__try_tops {
	uintptr_t top;
	uintptr_t small_top;
};
extern _Thread_local struct hl__try_tops hl__try_thread_tops
	__attribute__((tls_model("initial-exec")));
size_t hl__try_zero_slow(void *dst, size_t n);
size_t hl__try_zero_checked(void *dst, size_t n);

/*
 * hl_try_zero's gate, for an entry that checks its range and its redirect
 * with one comparison (x86-64's): the range may end at or below what this
 * thread's gate points to. That is hl__try_zero_open_top once fault.c has
 * found that the thread does not block SIGSEGV/SIGBUS, and a 0 before;
 * hl__try_zero_open_top is the end of user space while hl_try_zero's
 * redirect is NULL and its handler is in, and 0 otherwise (zero.c). So
 * while a variant is forced, or before the handler is in, every call goes
 * past the gate to the entry's checks and its redirect, as it would
 * without a gate; the gate only spares the automatic plan's calls the
 * redirect's load, where that plan is the entry's own body. The slow path
 * comes back to hl__try_zero_checked, which loads the redirect.
 */
extern uintptr_t hl__try_zero_open_top;
extern _Thread_local const uintptr_t *hl__try_zero_gate __attribute__((tls_model("initial-exec")));

/*
 * The user address space, for fault.c's search of its end: the most
 * address bits it can have on this architecture (the search starts
 * there), and the end to assume if the kernel cannot be asked.
 */
unsigned int hl_arch_user_bits_max(void);
uintptr_t hl_arch_user_top_min(void);

/*
 * An exception table as the variants' assembly emits it: each range of
 * instructions that may fault [start, end), its fixup, as 32-bit offsets
 * from the field itself (so the table needs no relocation), and its kind:
 * which registers bound what the code at that address may touch.
 */
enum hl_extable_kind {
	HL_EXTABLE_ZERO = 0,   /* hl_try_zero's stores: [dst, end) */
	HL_EXTABLE_COPY = 1,   /* hl_try_copy's: stores [dst, end), loads [src, src + end - dst) */
	HL_EXTABLE_LOAD64 = 2, /* hl_try_load64's load: [dst, dst + 8) */
	HL_EXTABLE_COPY_N = 3, /* hl_try_copy's, n where the end was: [dst, dst + n), [src, ...) */
};
struct hl_extable {
	int32_t start, end, fixup, kind;
};

/*
 * The one decision every architecture's hl_arch_fault_fixup makes (extable.c):
 * the fixup for a fault at pc in the table [begin, end), given the
 * interrupted code's progress registers (dst, src and the destination's
 * end, as the variants' protocol keeps them; for HL_EXTABLE_COPY_N the
 * register where the end would be holds the bytes from dst instead), or
 * 0 when pc is not in the
 * table or addr (unless HL_FAULT_ADDR_UNKNOWN) lies outside what that
 * entry's kind may touch.
 */
uintptr_t hl__extable_fixup(const struct hl_extable *begin, const struct hl_extable *end,
			    uintptr_t pc, uintptr_t addr, uintptr_t dst, uintptr_t src,
			    uintptr_t dst_end);

/*
 * Copying (copy.c): hl_try_copy's variants, in the exception table like
 * hl_try_zero's, so that a fault in a load or a store comes back as the
 * number of bytes not copied. Each copies [src, src+n) to [dst, dst+n)
 * (no overlap) and returns the bytes it did not copy. There is no
 * unarmed form: hotline has no plain memcpy to offer.
 */
typedef size_t (*hl_copy_fn)(void *dst, const void *src, size_t n);

/*
 * The code of hl_try_copy's automatic plan, as hl_zero's (above): try_fn
 * copies every size by the plan's layout (plan.h); copy.c publishes its
 * thresholds in hl__copy_vec_max and hl__copy_rep_max, where the plan's
 * code reads them. inline_entry: the plan is the body of hl_try_copy
 * itself, so no redirect is needed (try_fn is then NULL).
 */
struct hl_copy_auto {
	hl_copy_fn try_fn;
	bool inline_entry;
};

/* A copy variant, and the code of the plans it leads, as hl_zero_impl's. */
struct hl_copy_impl {
	struct hl_variant v;
	hl_copy_fn try_fn;
	struct hl_copy_auto leads;
};

/* Every copy variant of this architecture, ending with a { NULL } entry; the first is the fallback.
 */
extern const struct hl_copy_impl hl_arch_copy_impls[];
extern size_t hl__copy_vec_max, hl__copy_rep_max;
extern unsigned hl__copy_alias_window; /* plan.h, struct hl_plan_layout */
extern size_t hl__copy_plain_max;      /* copy.c: up to it, neither of those is tested */

/*
 * hl_try_copy's redirect, as hl_try_zero's (above): NULL runs the
 * automatic plan in the entry itself; otherwise the call goes there.
 * The entry's checks are hl_try_zero's, on both ranges, and a check that
 * fails tail-calls hl__try_copy_slow (copy.c), which returns n or calls
 * hl__try_copy_checked. hl_try_load64 checks p the same way and calls
 * hl__try_load64_slow when the check fails.
 */
extern hl_copy_fn hl__try_copy_redirect;
size_t hl__try_copy_slow(void *dst, const void *src, size_t n);
size_t hl__try_copy_checked(void *dst, const void *src, size_t n);
bool hl__try_load64_slow(const void *p, uint64_t *out);
bool hl__try_load64_checked(const void *p, uint64_t *out);

/*
 * static inline void hl_arch_relax(void): the spin-wait hint (cpu_relax),
 * from arch/<arch>/relax.h; the build puts that directory on the path.
 */
#include "relax.h"

#endif
