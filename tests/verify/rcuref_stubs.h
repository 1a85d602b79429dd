/* SPDX-License-Identifier: MIT */
/*
 * rcuref_stubs.h - what src/rcuref.c calls outside itself, for GenMC
 * clients: the default report (refcount.c's), which a client reaches only
 * through a bug it did not expect, so it asserts. Clients that expect a
 * report install a handler of their own.
 */
#ifndef HOTLINE_TESTS_VERIFY_RCUREF_STUBS_H
#define HOTLINE_TESTS_VERIFY_RCUREF_STUBS_H

#include <assert.h>

#include <hotline/rcuref.h>

#include "../../src/rcuref.c"

void hl__refcount_default_report(const char *what, const void *counter,
				 enum hl_refcount_saturation t)
{
	(void)what;
	(void)counter;
	(void)t;
	assert(!"unexpected rcuref report");
}

#endif
