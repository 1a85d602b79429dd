/*
 * The machine presets and the table of parameters the command line can
 * override. Every value says where it comes from: a figure in
 * docs/sources.md ("ref: ..."), a public figure of the part, or a fit
 * to one of the anchors the validation tests hold (tests/sim), and then
 * it says so. docs/sim.md has the same table for readers.
 *
 * A preset declares what the tool needs to know of it (its arch, whether it
 * is the calibration base for that arch); nothing elsewhere names a preset,
 * so one more machine is one more entry here, with its sources. Last, the
 * look-ups over the table: by name, the calibration base by arch, and the
 * list of names for messages.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

/* clang-format off */
#define P(field, lo, hi, kind, text) \
	{ #field, offsetof(struct sim_machine, field), lo, hi, text, kind }
#define WHOLE SIM_PARAM_WHOLE
#define COST  SIM_PARAM_COST
/* clang-format on */

/*
 * WHOLE: a count. COST: a time the 1-2 thread figures of --calibrate can
 * show; the topology, the behaviour switches (cas_fail_takes_line,
 * far_atomics, home_rr) and the noise (jitter...) say what the machine is,
 * not how fast, so they come from the base preset (sim/calibrate.c).
 */
const struct sim_param sim_params[] = {
	P(sockets, 1, 64, WHOLE, "sockets"),
	P(cores, 1, 1024, WHOLE, "cores per socket"),
	P(smt, 1, 8, WHOLE, "hardware threads per core"),
	P(lat_smt, 0, 1e6, COST, "ns: line transfer between SMT siblings"),
	P(lat_socket, 0, 1e6, COST, "ns: line transfer inside a socket, and core <-> home"),
	P(lat_cross, 0, 1e6, COST, "ns: line transfer across sockets"),
	P(dir_occupancy, 0, 1e6, COST, "ns: home busy per coherence request"),
	P(home_rr, 0, 1, 0, "1: the home takes turns between the sockets' request queues"),
	P(stickiness, 0, 1e6, COST, "ns: a fresh owner keeps the line before honouring a snoop"),
	P(cas_fail_takes_line, 0, 1, 0, "1: a failed CAS still takes the line exclusive (x86)"),
	P(far_atomics, 0, 1, 0, "1: fetch-add runs at the home (Arm LSE), the line stays there"),
	P(far_occupancy, 0, 1e6, COST, "ns: home busy per far atomic"),
	P(local_ns, 0, 1e6, COST, "ns: an access hitting the own L1 (one compare or add)"),
	P(relax_ns, 0, 1e6, COST, "ns: one cpu_relax (PAUSE / YIELD)"),
	P(cs_ns, 0, 1e6, COST, "ns: work inside a lock beyond the count update"),
	P(think_ns, 0, 1e6, COST, "ns: work between two operations"),
	P(jitter, 0, 0.9, 0, "fraction: random +- variation of think and cs times"),
	P(lat_jitter, 0, 0.9, 0, "fraction: random +- variation of every line transfer"),
};
const size_t sim_nr_params = sizeof(sim_params) / sizeof(sim_params[0]);

const struct sim_preset sim_presets[] = {
	{
		.name = "x86-server",
		.arch = "x86_64",
		.calibration_base = true,
		.description = "2 sockets x 28 cores x SMT2, Skylake/Cascade Lake server class",
		.m =
			{
				.sockets = 2,
				.cores = 28,
				.smt = 2,	  /* a 2-socket Xeon SP */
				.lat_smt = 7,	  /* ref: SMT siblings 4-10 ns */
				.lat_socket = 48, /* ref: same socket 44-51 ns (Intel) */
				.lat_cross = 150, /* ref: cross socket 108-197 ns */
				.dir_occupancy =
					4,    /* assumed: a few cycles of CHA/directory time */
				.home_rr = 1, /* assumed: the home's arbiter takes turns
					       * between the sockets (QPI/UPI ingress) */
				.stickiness =
					20, /* assumed; fitted so a failed cmpxchg's retry mostly
					     * wins (ref: "an immediate retry tends to succeed") */
				.cas_fail_takes_line =
					1,	  /* ref: a failing cmpxchg gains the line */
				.far_atomics = 0, /* x86 executes lock-prefixed ops in L1 */
				.far_occupancy = 0,
				.local_ns = 5,	/* a lock cmpxchg hitting L1, about 18 cycles */
				.relax_ns = 40, /* PAUSE about 140 cycles since Skylake */
				.cs_ns = 5,	/* the bench's critical sections: one add */
				.think_ns = 10, /* the bench loop between operations */
				.jitter = 0.3,
				.lat_jitter =
					0.2, /* assumed: distance on the ring/mesh, queueing */
			},
		.sources = "latencies from the core-to-core figures in docs/sources.md (Intel "
			   "same socket 44-51, cross socket 108-197, SMT 4-10 ns); "
			   "cas_fail_takes_line from the 2023 lockref thread; PAUSE cost from "
			   "Intel's published latency (~140 cycles, Skylake on); occupancy, "
			   "stickiness and the home's turns between sockets (home_rr) assumed",
	},
	{
		.name = "thunderx2",
		.arch = "aarch64",
		.description = "Cavium ThunderX2: 2 sockets x 28 cores x SMT4 (224 CPUs)",
		.m =
			{
				.sockets = 2,
				.cores = 28,
				.smt = 4,      /* ref: 2 x 28 x SMT4 = 224 */
				.lat_smt = 10, /* assumed as ref's SMT 4-10 ns */
				.lat_socket =
					60, /* assumed: ring core-to-core, a little above Intel */
				.lat_cross = 190, /* assumed: CCPI2 link, top of ref's 108-197 */
				.dir_occupancy =
					5,    /* fitted: 224-thread queued lock 2.5-3x unbounded */
				.home_rr = 1, /* assumed: the home's arbiter takes turns
					       * between the ring and the CCPI2 link */
				.stickiness = 5, /* assumed small: exclusives let others in */
				.cas_fail_takes_line =
					0, /* fitted: ~25 attempts at 28 threads (ref) */
				.far_atomics = 0,
				.far_occupancy = 0,
				.local_ns = 5,
				.relax_ns = 2, /* YIELD is a hint, about a cycle */
				.cs_ns = 5,
				.think_ns = 10,
				.jitter = 0.3,
				.lat_jitter =
					0.2, /* assumed: distance on the ring/mesh, queueing */
			},
		.sources = "topology from docs/sources.md (2 x 28 x SMT4); latencies assumed by "
			   "analogy with its Intel figures (no published ThunderX2 "
			   "core-to-core table at hand); cas_fail_takes_line=0 and dir_occupancy "
			   "fitted to the thread's 25 attempts at 28 threads and 2.5x at 224; "
			   "the home's turns between the sockets (home_rr) assumed: no published "
			   "figure says a socket starves",
	},
	{
		.name = "graviton2-lse",
		.arch = "aarch64",
		.calibration_base = true,
		.description = "AWS Graviton2: 1 socket x 64 Neoverse N1 cores, LSE far atomics",
		.m =
			{
				.sockets = 1,
				.cores = 64,
				.smt = 1,
				.lat_smt = 0,	  /* no SMT */
				.lat_socket = 40, /* assumed: mesh core-to-core, N1 class */
				.lat_cross = 40,  /* one socket */
				.dir_occupancy =
					20,   /* fitted: ticket lock +21 ns per waiter (ref) */
				.home_rr = 1, /* one socket: one queue either way */
				.stickiness =
					20, /* fitted with the next: cmpxchg 26 -> 40 ns (ref) */
				.cas_fail_takes_line =
					1,	  /* fitted: CAS executed near, in L1, once the
						   * line is there; with 0 the loop costs 75 ->
						   * 355 ns from 2 to 16 threads */
				.far_atomics = 1, /* ref: LSE STADD/LDADD at the home node */
				.far_occupancy =
					8.5, /* ref: contended fetch-add 8.5 ns/op at 2 threads */
				.local_ns = 2,
				.relax_ns = 1, /* YIELD */
				.cs_ns = 5,
				.think_ns = 5,
				.jitter = 0.3,
				.lat_jitter =
					0.2, /* assumed: distance on the ring/mesh, queueing */
			},
		.sources = "far atomics and their 8.5 ns from the Graviton 2 fetch-add figures in "
			   "docs/sources.md (8.5 -> 9.4 ns flat, 2 to 16 threads); dir_occupancy "
			   "fitted to the ticket lock's 133/170/249/428 ns at 2/4/8/16 threads; "
			   "stickiness and cas_fail_takes_line fitted to the CAS loop's 26 -> 40 "
			   "ns; mesh latency assumed",
	},
	{
		.name = "zen4-server",
		.arch = "x86_64",
		.description = "2 sockets x 96 cores x SMT2, AMD EPYC 9654 (Zen 4, Genoa) class",
		.m =
			{
				.sockets = 2,
				.cores = 96,
				.smt = 2,	/* EPYC 9654: 96 cores, 12 CCDs of 8 */
				.lat_smt = 5.3, /* ref: Zen 4 (Ryzen 9 7950X) siblings 5.3 ns */
				.lat_socket =
					107, /* ref: across CCXs of a Zen 3 EPYC (7R13) 107 ns; the
					      * model has one distance per socket, and 88 of a
					      * core's 95 neighbours are on other CCDs */
				.lat_cross = 197,   /* ref: across sockets, EPYC 7R13, 197 ns */
				.dir_occupancy = 4, /* assumed, as x86-server */
				.home_rr = 1,	    /* assumed: the home's arbiter takes turns
						     * between the sockets (xGMI ingress) */
				.stickiness = 20,   /* assumed, as x86-server: a locked
						     * cmpxchg's immediate retry tends to win */
				.cas_fail_takes_line = 1, /* x86: a lock cmpxchg takes the line
							   * exclusive whether or not it succeeds */
				.far_atomics = 0,	  /* lock-prefixed ops execute in L1 */
				.far_occupancy = 0,
				.local_ns = 5,	/* assumed, as x86-server */
				.relax_ns = 40, /* assumed, as x86-server's PAUSE */
				.cs_ns = 5,	/* the bench's critical sections: one add */
				.think_ns = 10, /* the bench loop between operations */
				.jitter = 0.3,
				.lat_jitter = 0.2, /* assumed: distance on the IO die, queueing */
			},
		.sources = "topology of the EPYC 9654 (2 x 96 cores x SMT2); SMT latency from the "
			   "Zen 4 figure and the in-socket and cross-socket latencies from the Zen "
			   "3 EPYC figures in docs/sources.md (core-to-core: no Genoa table at "
			   "hand, so Zen 3's IO-die and xGMI distances stand in for Zen 4's); the "
			   "x86 failed-CAS rule as x86-server's; occupancy, stickiness, the "
			   "home's turns between sockets, the local, PAUSE and loop costs assumed "
			   "as x86-server's; no published contention figure to fit to",
	},
};
const size_t sim_nr_presets = sizeof(sim_presets) / sizeof(sim_presets[0]);

const struct sim_preset *sim_find_preset(const char *name)
{
	for (size_t i = 0; i < sim_nr_presets; i++) {
		if (strcmp(name, sim_presets[i].name) == 0)
			return &sim_presets[i];
	}
	return NULL;
}

const struct sim_preset *sim_calibration_base(const char *arch)
{
	for (size_t i = 0; i < sim_nr_presets; i++) {
		if (sim_presets[i].calibration_base && strcmp(arch, sim_presets[i].arch) == 0)
			return &sim_presets[i];
	}
	return NULL;
}

void sim_preset_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < sim_nr_presets && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 sim_presets[i].name);
}

double *sim_param_ref(struct sim_machine *m, const struct sim_param *p)
{
	return (double *)((char *)m + p->offset);
}
