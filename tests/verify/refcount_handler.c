/* SPDX-License-Identifier: MIT */
/*
 * refcount_handler.c - GenMC client of hl_refcount_set_handler() against
 * a report (src/refcount.c as it ships). A handler reads what its
 * installer wrote before installing it, from whichever thread calls it:
 * one thread installs a handler while another reports a bug (the report's
 * acquire load of the pointer against the exchange's release), and a
 * third installs its own and calls the handler it replaced, as a chaining
 * handler would (the exchange's acquire). The state is plain memory, so a
 * missing ordering is a data race.
 */
#include <hotline/refcount.h>

#include "../../src/refcount.c"
#include "env_stubs.h"
#include "verify.h"

static hl_refcount_t zero = HL_REFCOUNT_INIT(0);
static int state_first, state_second; /* what each installer set up */
static atomic_int calls;

static void base(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	assert(r == &zero && t == HL_REFCOUNT_SUB_UAF);
	atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

static void first(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	assert(state_first == 1);
	base(r, t);
}

static void second(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	assert(state_second == 1);
	base(r, t);
}

static void *worker(void *arg)
{
	hl_refcount_handler_t prev;

	switch (VERIFY_ID(arg)) {
	case 0:
		state_first = 1;
		hl_refcount_set_handler(first);
		break;
	case 1:
		state_second = 1;
		prev = hl_refcount_set_handler(second);
		prev(&zero, HL_REFCOUNT_SUB_UAF); /* chain to the one replaced */
		break;
	default:
		assert(hl_refcount_dec_not_one(&zero)); /* below zero: reported */
		break;
	}
	return NULL;
}

int main(void)
{
	hl_refcount_set_handler(base);
	verify_run(3, worker);
	assert(atomic_load_explicit(&calls, memory_order_relaxed) == 2);
	assert(hl_refcount_read(&zero) == 0);
	return 0;
}
