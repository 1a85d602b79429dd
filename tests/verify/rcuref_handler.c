/* SPDX-License-Identifier: MIT */
/*
 * rcuref_handler.c - GenMC client of hl_rcuref_set_handler() against a
 * report (src/rcuref.c as it ships). A handler reads what its installer
 * wrote before installing it, from whichever thread calls it: one thread
 * installs a handler while another reports a put on a dead count (the
 * report's acquire load of the pointer against the exchange's release),
 * and a third installs its own and calls the handler it replaced, as a
 * chaining handler would (the exchange's acquire). The state is plain
 * memory, so a missing ordering is a data race.
 */
#include <hotline/rcuref.h>

#include "rcuref_stubs.h"
#include "verify.h"

static hl_rcuref_t r;
static int state_first, state_second; /* what each installer set up */
static atomic_int calls;

static void base(hl_rcuref_t *c, enum hl_refcount_saturation t)
{
	assert(c == &r && t == HL_RCUREF_PUT_UAF);
	atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

static void first(hl_rcuref_t *c, enum hl_refcount_saturation t)
{
	assert(state_first == 1);
	base(c, t);
}

static void second(hl_rcuref_t *c, enum hl_refcount_saturation t)
{
	assert(state_second == 1);
	base(c, t);
}

static void *worker(void *arg)
{
	hl_rcuref_handler_t prev;

	switch (VERIFY_ID(arg)) {
	case 0:
		state_first = 1;
		hl_rcuref_set_handler(first);
		break;
	case 1:
		state_second = 1;
		prev = hl_rcuref_set_handler(second);
		prev(&r, HL_RCUREF_PUT_UAF); /* chain to the one replaced */
		break;
	default:
		assert(!hl_rcuref_put(&r)); /* on a dead count: reported */
		break;
	}
	return NULL;
}

int main(void)
{
	hl_rcuref_set_handler(base);
	hl_rcuref_init(&r, 1);
	assert(hl_rcuref_put(&r)); /* dead */
	verify_run(3, worker);
	assert(atomic_load_explicit(&calls, memory_order_relaxed) == 2);
	return 0;
}
