/*
 * hotline-sim: a discrete-event model of many hardware threads sharing one
 * cache line (docs/sim.md says what is modelled and what is not).
 *
 * A machine is a topology and a handful of latencies and behaviours; a run
 * is one policy (a bench subject name) at one thread count, simulated until
 * a number of operations has completed. Everything is deterministic for a
 * given seed: time is integer picoseconds, randomness a seeded splitmix64.
 */
#ifndef HOTLINE_SIM_H
#define HOTLINE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "subject_facts.h"

/* The simulated machine. Times in nanoseconds. */
struct sim_machine {
	const char *preset;
	double sockets, cores, smt; /* topology: sockets x cores per socket x SMT */
	double lat_smt;		    /* line transfer between SMT siblings */
	double lat_socket;	    /* between cores of one socket, or core <-> home on it */
	double lat_cross;	    /* across sockets */
	double dir_occupancy;	    /* home busy per coherence request (serialises them) */
	double home_rr;		    /* 1: the home takes turns between the sockets' queues */
	double stickiness;	    /* a fresh owner keeps the line this long before a snoop */
	double cas_fail_takes_line; /* 1: a failed CAS still takes the line exclusive (x86) */
	double far_atomics;	    /* 1: fetch-add executes at the home (Arm LSE), no migration */
	double far_occupancy;	    /* home busy per far atomic */
	double local_ns;	    /* an access that hits the own L1, or one ALU step */
	double relax_ns;	    /* cpu_relax (PAUSE / YIELD) */
	double cs_ns;		    /* work inside a lock, beyond the count update */
	double think_ns;	    /* work between two operations */
	double jitter;		    /* +- fraction of random variation of think and cs */
	double lat_jitter;	    /* +- fraction of random variation of every transfer */
};

/* What a parameter is, as the tool needs to know it (struct sim_param's kind). */
enum {
	SIM_PARAM_WHOLE = 1, /* a count (topology): whole numbers only */
	SIM_PARAM_COST = 2,  /* a time a 1-2 thread figure can show: --calibrate may fit it */
};

/* One overridable parameter: its name on the command line and in JSON. */
struct sim_param {
	const char *name;
	size_t offset; /* of the double in struct sim_machine */
	double min, max;
	const char *help;
	unsigned int kind; /* SIM_PARAM_* */
};

extern const struct sim_param sim_params[];
extern const size_t sim_nr_params;

/*
 * A preset: the machine and, per parameter, where its value comes from. What
 * the tool does with a preset follows from these declared facts, never from
 * its name: one more preset is one more entry in sim/presets.c.
 */
struct sim_preset {
	const char *name;
	const char *description;
	const char *arch; /* the machine's architecture as the bench names it (env.arch) */
	/*
	 * --calibrate without --machine starts from the preset of the file's
	 * env.arch that sets this: one per arch (the first one set wins).
	 */
	bool calibration_base;
	struct sim_machine m;
	const char *sources; /* one paragraph: provenance of every value */
};

extern const struct sim_preset sim_presets[];
extern const size_t sim_nr_presets;

const struct sim_preset *sim_find_preset(const char *name);
/* The calibration base for an arch (env.arch's spelling), or NULL. */
const struct sim_preset *sim_calibration_base(const char *arch);
/* "a, b, c": every preset's name in the table's order, into buf (cut to len). */
void sim_preset_names(char *buf, size_t len);
double *sim_param_ref(struct sim_machine *m, const struct sim_param *p);

/* The policies, by the bench's subject names. */
enum sim_policy {
	SIM_ATOMIC_FAA,
	SIM_CAS_LOOP,
	SIM_LOCKREF,
	SIM_LOCKREF_UNBOUNDED,
	SIM_LOCKREF_RELAX,
	SIM_LOCKREF_RELAX_ALT,
	SIM_LOCKREF_SPINLOCK_ONLY,
	SIM_QSPINLOCK,
	SIM_TICKET,
	/* The lookups: a get and a put alternate, each one count update. */
	SIM_RCUREF,
	SIM_REFCOUNT_INC_NOT_ZERO,
	SIM_LOCKREF_GET_NOT_DEAD,
	SIM_NR_POLICIES
};

/* A policy (policies.c): the bench subject it models, what the model does, its facts. */
struct sim_policy_info {
	const char *name;
	const char *description;
	struct subject_facts facts;
};

extern const struct sim_policy_info sim_policies[SIM_NR_POLICIES];
int sim_find_policy(const char *name); /* index, or -1 */
/* From the facts: runs with --retry-limit (can fall back after it) ... */
bool sim_policy_has_limit(enum sim_policy p);
/* ... counts its attempts per lockless success ... */
bool sim_policy_has_attempts(enum sim_policy p);
/* ... has a fallback rate (a lockref: also when it finds the lock taken). */
bool sim_policy_has_fallback(enum sim_policy p);

#define SIM_ATTEMPT_BINS 1024 /* exact counts below this; above, only the maximum */

struct sim_result {
	uint64_t ops;	      /* measured operations (after the warm-up) */
	double elapsed_ns;    /* simulated time they took */
	uint64_t *thread_ops; /* per thread, measured */
	unsigned int threads;
	/* attempts per lockless success */
	uint64_t successes, attempts_sum, attempts_max;
	uint64_t attempts_hist[SIM_ATTEMPT_BINS];
	uint64_t fallbacks;
	uint64_t events; /* events processed, for the curious */
};

/*
 * Simulate ops measured operations (after ops/10 of warm-up) of policy on
 * threads hardware threads of m. retry_limit applies to the limited lockref
 * policies. Returns 0, or -1 with a message in err if the model stalled.
 */
int sim_run(const struct sim_machine *m, enum sim_policy policy, unsigned int threads,
	    unsigned int retry_limit, uint64_t ops, uint64_t seed, struct sim_result *res,
	    char *err, size_t errlen);
void sim_result_free(struct sim_result *res);

/*
 * The seed of one run (policy at threads) from the command line's seed: each
 * run its own stream, so adding a subject or a thread count to a command
 * changes no other run's result, and --calibrate's evaluations are the runs
 * a normal command with the fitted values makes.
 */
uint64_t sim_run_seed(uint64_t seed, enum sim_policy policy, unsigned int threads);

/* Quantile q of the attempts histogram. */
uint64_t sim_attempts_quantile(const struct sim_result *res, double q);

#endif
