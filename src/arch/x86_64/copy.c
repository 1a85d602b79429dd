// SPDX-License-Identifier: MIT
/*
 * x86_64/copy.c - which copy variants this CPU can run, and the code of
 * the automatic plans they lead (src/plan.c chooses the plan). The
 * variants themselves are in copy.S, whose entries join zero.S's in the
 * one exception table.
 */
#include <stdint.h>

#include "../arch.h"
#include "supported.h"

size_t hl__try_copy_rep_movsb(void *dst, const void *src, size_t n);
size_t hl__try_copy_movq(void *dst, const void *src, size_t n);
size_t hl__try_copy_nontemporal(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_auto_avx2(void *dst, const void *src, size_t n);
size_t hl__try_copy_avx512(void *dst, const void *src, size_t n);

/*
 * Whether the streaming copy may stream whole lines from zmm registers
 * (copy.S, nontemporal): set once at load, where AVX-512 runs; until
 * then, and elsewhere, it streams 16-byte xmm stores, which every x86-64
 * has.
 */
unsigned char hl__copy_nt_zmm;

__attribute__((constructor)) static void nt_width(void)
{
	hl__copy_nt_zmm = hl__x86_avx512(hl_cpu());
}

/*
 * The code of the automatic plan (plan.c chooses it; docs/copy.md,
 * "Measured", has the figures behind it), by its first variant: the
 * avx512 plan is the body of hl_try_copy itself, the avx2 plan copy.S's
 * auto_avx2 (each with or without its rep movsb class, as hl__copy_vec_max
 * says); a plan of one variant is that variant. rep_movsb comes first: the
 * fallback.
 */
const struct hl_copy_impl hl_arch_copy_impls[] = {
	{{"rep_movsb", hl__x86_always}, hl__try_copy_rep_movsb, {0}},
	{{"movq", hl__x86_always}, hl__try_copy_movq, {0}},
	{{"avx2", hl__x86_avx2}, hl__try_copy_avx2, {hl__try_copy_auto_avx2, false}},
	{{"avx512", hl__x86_avx512}, hl__try_copy_avx512, {.inline_entry = true}},
	{{"nontemporal", hl__x86_always}, hl__try_copy_nontemporal, {0}},
	{{NULL, NULL}, NULL, {0}},
};
