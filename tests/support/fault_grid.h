// SPDX-License-Identifier: MIT
/*
 * support/fault_grid.h - the fault grids that hl_try_zero's and hl_try_copy's tests share,
 * over a call pointer (support/fault_case.h), in every variant the caller lists.
 *
 * struct fault_api describes the function under test: its name (for
 * messages), the call, whether it reads a source (hl_try_copy: a hole may
 * lie on either side; hl_try_zero: only the destination, and the bytes it
 * writes must equal a source of zeros), how to choose a variant, the
 * variants to run (every supported one, then "auto": zeroing or copying,
 * support/variants.h, filled by subjects_setup before the tests run), and
 * the plan in force (hl__zero_plan_in_force, hl__copy_plan_in_force:
 * src/plan.h), whose class bounds the deep grid calls at.
 *
 * Each grid runs every subject and ends with "auto" chosen; a failure
 * fails the cmocka test, naming the variant and the case:
 *  - fault_grid_edges: the side's range ends at a page given prot
 *    (PROT_NONE or PROT_READ): every distance 0..130 from its start to the
 *    page, every length 0..300 (at HOTLINE_TEST_SCALE=N > 1 every length
 *    to 15, then every sweep_step()-th and 300); the other side is plain
 *    memory at an offset that moves with the distance;
 *  - fault_grid_deep: calls of many sizes, and for "auto" of every class
 *    bound of the plan and one more, fault at distances from the start
 *    to the end of the call, on each side;
 *  - fault_grid_hole: a PROT_NONE page in the middle of a 1 MiB call;
 *  - fault_grid_beyond_eof: the 3-page mapping of a 1.5-page file
 *    (support/guarded.h, map_beyond_eof): the page holding EOF reads and
 *    writes, the third raises SIGBUS; as the destination the file's bytes
 *    must be those written, its size unchanged;
 *  - fault_grid_alt_stack: a fault handled on an alternate signal stack of
 *    sysconf(_SC_SIGSTKSZ) bytes, which the signal frame must have marked.
 * A test that calls a grid starts with fault_handlers_restore()
 * (support/faults.h). The grids are also cmocka tests of their own, named
 * in the caller's table (FAULT_GRID_TEST below): the *_test functions
 * take a struct fault_grid_test as their state, restore the handlers and
 * run the grid; fault_grid_beyond_eof_test on a fresh map_beyond_eof().
 */
#ifndef HOTLINE_TESTS_SUPPORT_FAULT_GRID_H
#define HOTLINE_TESTS_SUPPORT_FAULT_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include <hotline/copy.h>

#include "support/fault_case.h"
#include "support/variants.h"

struct hl_size_plan;

struct fault_api {
	const char *name; /* "hl_try_zero" */
	fault_call call;
	bool reads_src;
	void (*use)(const char *variant); /* zero_use, copy_use: fails the test unless 0 */
	void (*plan)(struct hl_size_plan *p);
	const struct subjects *subjects;
};

enum fault_side { FAULT_SRC_HOLE, FAULT_DST_HOLE };

/*
 * FAULT_API_TRY_ZERO(plan) and FAULT_API_TRY_COPY(plan), initialisers of a struct fault_api:
 * hl_try_zero (through fault_try_zero, a call that ignores src) and hl_try_copy as the grids
 * call them, in the variants of zeroing and of copying, with plan the plan in force (src/plan.h:
 * internal to the library, so the test, which links the static library, passes it).
 */
size_t fault_try_zero(void *dst, const void *src, size_t n);
#define FAULT_API_TRY_ZERO(plan)                                                                   \
	{                                                                                          \
		"hl_try_zero", fault_try_zero, false, zero_use, plan, &zeroing                     \
	}
#define FAULT_API_TRY_COPY(plan)                                                                   \
	{                                                                                          \
		"hl_try_copy", hl_try_copy, true, copy_use, plan, &copying                         \
	}

void fault_grid_edges(const struct fault_api *api, enum fault_side side, int prot);
void fault_grid_deep(const struct fault_api *api);
void fault_grid_hole(const struct fault_api *api);
void fault_grid_beyond_eof(const struct fault_api *api, int fd, unsigned char *map);
void fault_grid_alt_stack(const struct fault_api *api);

struct fault_grid_test {
	const struct fault_api *api;
	enum fault_side side; /* for fault_grid_edges_test */
	int prot;	      /* for fault_grid_edges_test */
};

/* An entry of a cmocka table: the test named test_name runs grid (a *_test below) on *state. */
#define FAULT_GRID_TEST(test_name, grid, state)                                                    \
	{                                                                                          \
		.name = test_name, .test_func = grid, .initial_state = state                       \
	}

void fault_grid_edges_test(void **state);
void fault_grid_deep_test(void **state);
void fault_grid_hole_test(void **state);
void fault_grid_beyond_eof_test(void **state);
void fault_grid_alt_stack_test(void **state);

#endif /* HOTLINE_TESTS_SUPPORT_FAULT_GRID_H */
