/* SPDX-License-Identifier: MIT */
/*
 * refcount_stubs.h - the refcount report functions for GenMC clients that
 * use only the inline refcount paths: a client reaches them only when a
 * count saturates or goes below zero, which is a bug, so they assert.
 */
#ifndef HOTLINE_TESTS_VERIFY_REFCOUNT_STUBS_H
#define HOTLINE_TESTS_VERIFY_REFCOUNT_STUBS_H

#include <assert.h>

#include <hotline/refcount.h>

void hl__refcount_saturate(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	assert(!"refcount saturated");
}

void hl__refcount_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	(void)t;
	assert(!"refcount bug reported");
}

bool hl__refcount_sub_and_test_uaf(hl_refcount_t *r)
{
	(void)r;
	assert(!"refcount below zero");
	return false;
}

#endif
