// SPDX-License-Identifier: MIT
/*
 * policies.c - hotline-sim's policies, each declared once: the bench
 * subject it models, what the model does, and its facts (subject_facts.h),
 * which the model and the JSON's "subjects" read instead of the name.
 */
#include <string.h>

#include "sim.h"

/* The instrumented lockref, as the bench's subjects of these names. */
#define SIM_LOCKREF_UNBOUNDED_FACTS                                                                \
	.kind = SUBJECT_LOCKREF, .counts_attempts = true, .baseline = "cas_loop"
#define SIM_LOCKREF_FACTS SIM_LOCKREF_UNBOUNDED_FACTS, .fallback = true

#define SIM_POLICY(name_, description_, ...)                                                       \
	{                                                                                          \
		.name = name_, .description = description_, .facts = { __VA_ARGS__ }               \
	}

const struct sim_policy_info sim_policies[SIM_NR_POLICIES] = {
	[SIM_ATOMIC_FAA] =
		SIM_POLICY("atomic_faa",
			   "one fetch-add: far at the home with far_atomics, else an exclusive RMW",
			   .kind = SUBJECT_ATOMIC),
	[SIM_CAS_LOOP] = SIM_POLICY(
		"cas_loop", "read, then CAS until it succeeds; attempts counted",
		.kind = SUBJECT_CAS_LOOP, .counts_attempts = true, .baseline = "atomic_faa"),
	[SIM_LOCKREF] = SIM_POLICY("lockref",
				   "read; the lock if it is taken, else CAS while the lock reads "
				   "free, up to --retry-limit attempts, then the lock",
				   SIM_LOCKREF_FACTS),
	[SIM_LOCKREF_UNBOUNDED] =
		SIM_POLICY("lockref_unbounded", "the same without a limit (the kernel before 2019)",
			   SIM_LOCKREF_UNBOUNDED_FACTS),
	[SIM_LOCKREF_RELAX] = SIM_POLICY("lockref_relax",
					 "limit, and relax_ns after every failed CAS (2019-2023)",
					 SIM_LOCKREF_FACTS, .relax = SUBJECT_RELAX_EVERY),
	[SIM_LOCKREF_RELAX_ALT] =
		SIM_POLICY("lockref_relax_alt",
			   "limit, and relax_ns after every second failure (Linus's unrolled loop)",
			   SIM_LOCKREF_FACTS, .relax = SUBJECT_RELAX_EVERY_OTHER),
	[SIM_LOCKREF_SPINLOCK_ONLY] = SIM_POLICY(
		"lockref_spinlock_only",
		"always the queued lock: take it, update the count, unlock", .kind = SUBJECT_LOCK),
	[SIM_QSPINLOCK] = SIM_POLICY(
		"qspinlock", "the queued lock around the count (lock and count in one line)",
		.kind = SUBJECT_LOCK, .library = true),
	[SIM_TICKET] = SIM_POLICY(
		"ticket",
		"fetch-add a ticket; spin reading the line until served; count; store serving+1",
		.kind = SUBJECT_LOCK),
	/*
	 * A lookup's get and its put, alternating: each thread's even updates
	 * are gets, its odd ones puts (a bench get+put is two of them).
	 */
	[SIM_RCUREF] =
		SIM_POLICY("rcuref",
			   "get and put: a fetch-add each whose result is used (far, "
			   "waiting for the value, with far_atomics); never retries",
			   .kind = SUBJECT_ATOMIC, .baseline = "atomic_faa", .library = true),
	[SIM_REFCOUNT_INC_NOT_ZERO] =
		SIM_POLICY("refcount_inc_not_zero",
			   "get: read, then CAS until it succeeds (attempts counted); put: a "
			   "fetch-add whose result is used, as rcuref's",
			   .kind = SUBJECT_CAS_LOOP, .counts_attempts = true,
			   .baseline = "refcount", .library = true),
	[SIM_LOCKREF_GET_NOT_DEAD] =
		SIM_POLICY("lockref_get_not_dead",
			   "get and put: each the lockref loop with --retry-limit and the lock "
			   "(as lockref: the dead check costs the model nothing)",
			   .kind = SUBJECT_LOCKREF, .counts_attempts = true, .baseline = "rcuref",
			   .fallback = true, .library = true),
};

int sim_find_policy(const char *name)
{
	for (int i = 0; i < SIM_NR_POLICIES; i++) {
		if (strcmp(name, sim_policies[i].name) == 0)
			return i;
	}
	return -1;
}

bool sim_policy_has_limit(enum sim_policy p)
{
	return sim_policies[p].facts.fallback;
}

bool sim_policy_has_attempts(enum sim_policy p)
{
	return sim_policies[p].facts.counts_attempts;
}

bool sim_policy_has_fallback(enum sim_policy p)
{
	return sim_policies[p].facts.kind == SUBJECT_LOCKREF;
}
