// SPDX-License-Identifier: MIT
/*
 * registry.c - the scenarios built into hotline-bench, as each registers
 * itself from its own file (BENCH_SCENARIO, harness.h): a list kept in
 * their order, which main.c reads for --help, --list, the scenario named
 * and `all`.
 */
#include <stddef.h>

#include "harness.h"

static struct bench_scenario_entry *registry;

void bench_register_scenario(struct bench_scenario_entry *e)
{
	struct bench_scenario_entry **at = &registry;

	while (*at && (*at)->order <= e->order)
		at = &(*at)->next;
	e->next = *at;
	*at = e;
}

const struct bench_scenario_entry *bench_scenario_entries(void)
{
	return registry;
}
