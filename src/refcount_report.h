/* SPDX-License-Identifier: MIT */
/*
 * refcount_report.h - the default bug report shared by hl_refcount and
 * hl_rcuref: one line per kind on stderr, or abort with
 * HOTLINE_REFCOUNT=abort (hotline/refcount.h, Reporting).
 *
 * Internal to the library: hidden in libhotline.so, not in any public header.
 */
#ifndef HOTLINE_SRC_REFCOUNT_REPORT_H
#define HOTLINE_SRC_REFCOUNT_REPORT_H

#include <hotline/refcount.h>

/* Report t about counter, named what ("refcount", "rcuref") in the line. */
void hl__refcount_default_report(const char *what, const void *counter,
				 enum hl_refcount_saturation t);

#endif /* HOTLINE_SRC_REFCOUNT_REPORT_H */
