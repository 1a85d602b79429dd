// SPDX-License-Identifier: MIT
/*
 * x86_64/zero.c - which clearing variants this CPU can run, the automatic
 * plan, and the signal-context side of hl_try_zero's fixups. The variants
 * themselves, and their exception table, are in zero.S beside this file.
 */
#include <cpuid.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include "../arch.h"

/* zero.S: each variant for hl_zero, and its copy in the exception table for hl_try_zero. */
#define VARIANT(name)                                                                              \
	size_t hl__zero_##name(void *dst, size_t n);                                               \
	size_t hl__try_zero_##name(void *dst, size_t n)
VARIANT(rep_stosb);
VARIANT(rep_stosq);
VARIANT(movq_unrolled);
VARIANT(avx2);
VARIANT(avx512);
VARIANT(evex256);
VARIANT(nontemporal);
VARIANT(auto_avx2);

extern const struct hl_zero_extable hl__zero_extable_start[], hl__zero_extable_end[];

static bool always(const struct hl_cpu *cpu)
{
	(void)cpu;
	return true;
}

static bool has_avx2(const struct hl_cpu *cpu)
{
	return cpu->avx2;
}

/* The avx512 variant also stores from xmm16/ymm16 for small sizes: AVX512VL. */
static bool has_avx512(const struct hl_cpu *cpu)
{
	return cpu->avx512f && cpu->avx512vl;
}

/*
 * The string variants run on every x86-64; ERMS, FSRM and REP_GOOD only
 * say whether they are fast, which is the plan's business, not a reason to
 * refuse them.
 */
const struct hl_zero_impl hl_arch_zero_impls[] = {
/* clang-format off */
#define IMPL(name, supported) { #name, hl__zero_##name, hl__try_zero_##name, supported }
	/* clang-format on */
	IMPL(rep_stosb, always),   IMPL(rep_stosq, always),  IMPL(movq_unrolled, always),
	IMPL(avx2, has_avx2),	   IMPL(avx512, has_avx512), IMPL(evex256, has_avx512),
	IMPL(nontemporal, always), {NULL, NULL, NULL, NULL},
};

/*
 * The automatic plan; docs/zero.md has the measurements behind it (Zen 5,
 * hot = the buffer is in cache, cold = it is not).
 *  - Up to vec_max, vector stores: a few overlapping stores and no
 *    start-up cost for small sizes; for buffers in L1 or L2 the vector loop
 *    runs 1.5-2x faster than rep stosb. With AVX-512VL that is avx512, the
 *    body of hl_zero itself: zmm16 needs no vzeroupper, and in the bench
 *    64-byte stores beat 32-byte ones (evex256) by 1.2-1.4x from 256 B up,
 *    as glibc's own AVX-512 memset does here. The price: a cold
 *    buffer is cleared 0.6-0.8x as fast as by rep stosb, which (like
 *    streaming stores) avoids reading lines it will overwrite. vec_max is
 *    a quarter of L2, where the hot gain fades (at the L2 size rep stosb
 *    is ahead even hot).
 *  - Up to rep_max, rep stosb when ERMS says it is fast.
 *  - Beyond rep_max, streaming stores: the buffer cannot be in the cache
 *    any more, and streaming stores neither read the lines they write nor
 *    evict the working set. rep_max is 16 MiB, not the L3 size that
 *    sysconf reports: on a many-chiplet part (and in VMs) that is the whole
 *    socket's L3, while one core's data lives in its own chiplet's share.
 */
void hl_arch_zero_auto(const struct hl_cpu *cpu, struct hl_zero_auto *plan)
{
	long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);

	plan->vec_max = (l2 >= 65536 ? (size_t)l2 : (size_t)1 << 20) / 4;
	plan->rep_max = (size_t)16 << 20;
	plan->large = "nontemporal";
	plan->mid = "rep_stosb";
	if (has_avx512(cpu)) {
		plan->inline_entry = true; /* hl_zero and hl_try_zero are this plan */
		plan->name = "avx512";
	} else if (cpu->avx2) {
		plan->fn = hl__zero_auto_avx2;
		plan->try_fn = hl__try_zero_auto_avx2;
		plan->name = "avx2";
	} else {
		plan->fn = cpu->erms ? hl__zero_rep_stosb : hl__zero_rep_stosq;
		plan->try_fn = cpu->erms ? hl__try_zero_rep_stosb : hl__try_zero_rep_stosq;
		plan->name = cpu->erms ? "rep_stosb" : "rep_stosq";
		plan->mid = plan->large = NULL;
		return;
	}
	if (!cpu->erms) { /* no fast rep stosb: vectors up to the stream */
		plan->vec_max = plan->rep_max;
		plan->mid = NULL;
	}
}

/* 48-bit addresses with 4-level paging, 57 with 5-level (CPUID.7.0:ECX.LA57). */
unsigned int hl_arch_user_bits_max(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 16)))
		return 56;
	return 47;
}

/* The kernel's TASK_SIZE_MAX with 4-level paging: the last page below 2^47 is not user's. */
uintptr_t hl_arch_user_top_min(void)
{
	return ((uintptr_t)1 << 47) - 4096;
}

/*
 * The protocol of zero.S: only hl__try_zero_* stores are in the table, and
 * a store can fault only between the progress pointer (rdi) and the end
 * (rdx); anything else is not a fault of ours.
 */
bool hl_arch_zero_fixup(void *uc, uintptr_t addr)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uintptr_t fixup = hl__zero_extable_find(hl__zero_extable_start, hl__zero_extable_end,
						(uintptr_t)r[REG_RIP]);

	if (!fixup)
		return false;
	if (addr != HL_FAULT_ADDR_UNKNOWN &&
	    (addr < (uintptr_t)r[REG_RDI] || addr >= (uintptr_t)r[REG_RDX]))
		return false;
	r[REG_RIP] = (greg_t)fixup;
	return true;
}
