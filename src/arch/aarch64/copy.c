// SPDX-License-Identifier: MIT
/*
 * aarch64/copy.c - which copy variants this CPU can run, and the code of
 * the automatic plans they lead (src/plan.c chooses the plan). The
 * variants themselves are in copy.S, whose entries join zero.S's in the
 * one exception table.
 */
#include <stdint.h>

#include "../arch.h"
#include "supported.h"

size_t hl__try_copy_ldp_stp(void *dst, const void *src, size_t n);
size_t hl__try_copy_mops(void *dst, const void *src, size_t n);

/* hl_try_copy loads its redirect for every size (copy.S). */
const size_t hl_arch_copy_direct_max = 0;

/*
 * The automatic plan (plan.c chooses it: ldp_stp for every size, or, with
 * FEAT_MOPS, ldp_stp up to 64 bytes and mops beyond) is the body of
 * hl_try_copy itself (copy.S), which reads hl__copy_vec_max: the code of
 * every plan ldp_stp leads.
 */
const struct hl_copy_impl hl_arch_copy_impls[] = {
	{{"ldp_stp", hl__arm64_always}, hl__try_copy_ldp_stp, {.inline_entry = true}},
	{{"mops", hl__arm64_mops}, hl__try_copy_mops, {0}},
	{{NULL, NULL}, NULL, {0}},
};
