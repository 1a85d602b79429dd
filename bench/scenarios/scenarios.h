/* SPDX-License-Identifier: MIT */
/*
 * scenarios/scenarios.h - every scenario built into hotline-bench.
 *
 * One line per scenario file; main.c lists them in its table, in the order
 * `hotline-bench all` runs them.
 */
#ifndef HOTLINE_BENCH_SCENARIOS_H
#define HOTLINE_BENCH_SCENARIOS_H

#include "../sized.h"

extern const struct bench_scenario bench_refcount_timing; /* refcount_timing.c */
extern const struct bench_scenario bench_contend;	  /* contend.c */
extern const struct bench_scenario bench_lockref_sweep;	  /* lockref_sweep.c */
/* Not const: their variant subjects are the library's list, read before main(). */
extern struct bench_scenario bench_zero;	    /* zero.c */
extern struct bench_scenario bench_copy;	    /* copy.c */
extern const struct bench_scenario bench_openclose; /* openclose.c */

#endif /* HOTLINE_BENCH_SCENARIOS_H */
