// SPDX-License-Identifier: MIT
/*
 * topology.c - the machine's topology (hwloc): available CPUs, placement
 * of threads, pinning, and the last-level cache's size.
 *
 * Loaded once by bench_topology_init (main.c); everything else here reads
 * it. See harness.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "harness.h"

static hwloc_topology_t topology;
static int *auto_order; /* OS CPU numbers in "auto" placement order */
static size_t nr_auto;
static char cpus_text[256];

/*
 * Auto order: the first PU of every core, in core order; then the second
 * PU of every core that has one; and so on. Threads beyond the end wrap.
 */
static int build_auto_order(void)
{
	int nr_pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
	int nr_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
	bool added = true;

	if (nr_pus <= 0) {
		bench_error("hwloc found no processing units");
		return -1;
	}
	auto_order = calloc((size_t)nr_pus, sizeof(*auto_order));
	if (!auto_order) {
		bench_error("out of memory");
		return -1;
	}
	for (unsigned int round = 0; nr_cores > 0 && added; round++) {
		added = false;
		for (int c = 0; c < nr_cores; c++) {
			hwloc_obj_t core =
				hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, (unsigned int)c);
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topology, core->cpuset,
									     HWLOC_OBJ_PU, round);

			if (pu && nr_auto < (size_t)nr_pus) {
				auto_order[nr_auto++] = (int)pu->os_index;
				added = true;
			}
		}
	}
	/* No core objects (or PUs outside them): take the PUs in order. */
	for (int i = 0; i < nr_pus && nr_auto < (size_t)nr_pus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, (unsigned int)i);
		bool seen = false;

		for (size_t j = 0; j < nr_auto; j++)
			seen |= auto_order[j] == (int)pu->os_index;
		if (!seen)
			auto_order[nr_auto++] = (int)pu->os_index;
	}
	return 0;
}

int bench_topology_init(void)
{
	char *text = NULL;

	if (hwloc_topology_init(&topology) != 0) {
		bench_error("hwloc: cannot initialise the topology: %s", strerror(errno));
		return -1;
	}
	if (hwloc_topology_load(topology) != 0) {
		bench_error("hwloc: cannot load the topology: %s", strerror(errno));
		hwloc_topology_destroy(topology);
		topology = NULL;
		return -1;
	}
	if (hwloc_bitmap_list_asprintf(&text, hwloc_get_root_obj(topology)->cpuset) >= 0 && text)
		snprintf(cpus_text, sizeof(cpus_text), "%s", text);
	free(text);
	return build_auto_order();
}

void bench_topology_fini(void)
{
	free(auto_order);
	auto_order = NULL;
	nr_auto = 0;
	if (topology)
		hwloc_topology_destroy(topology);
	topology = NULL;
}

bool bench_cpu_available(int cpu)
{
	return cpu >= 0 && hwloc_get_pu_obj_by_os_index(topology, (unsigned int)cpu) != NULL;
}

const char *bench_cpus_text(void)
{
	return cpus_text;
}

void bench_place(const struct bench_pin *pin, unsigned int n, int *cpus)
{
	for (unsigned int i = 0; i < n; i++) {
		switch (pin->mode) {
		case BENCH_PIN_AUTO: cpus[i] = auto_order[i % nr_auto]; break;
		case BENCH_PIN_LIST: cpus[i] = pin->cpus[i % pin->nr_cpus]; break;
		case BENCH_PIN_NONE:
		default: cpus[i] = -1; break;
		}
	}
}

int bench_pin_self(int cpu)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ret;

	if (!set)
		return -1;
	hwloc_bitmap_only(set, (unsigned int)cpu);
	ret = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
	return ret;
}

/*
 * The data or unified cache of the highest level above CPU 0 (the first
 * available CPU if 0 is not): what hwloc read from the kernel (on Linux
 * /sys/devices/system/cpu/cpuN/cache), as `lscpu -C` shows it.
 */
size_t bench_llc_bytes(void)
{
	hwloc_obj_t pu;
	unsigned int best_depth = 0;
	size_t best = 0;

	if (!topology)
		return 0;
	pu = hwloc_get_pu_obj_by_os_index(topology, 0);
	if (!pu)
		pu = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, 0);
	for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent) {
		if (!hwloc_obj_type_is_dcache(o->type) || !o->attr->cache.size)
			continue;
		if (o->attr->cache.depth > best_depth) {
			best_depth = o->attr->cache.depth;
			best = (size_t)o->attr->cache.size;
		}
	}
	return best;
}
