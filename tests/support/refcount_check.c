// SPDX-License-Identifier: MIT
/*
 * support/refcount_check.c - the cmocka group teardown that restores the default refcount handler.
 */
#include "support/refcount_check.h"

int restore_default_handler(void **state)
{
	(void)state;
	hl_refcount_set_handler(NULL);
	return 0;
}
