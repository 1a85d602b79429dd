// SPDX-License-Identifier: MIT
/*
 * scenarios/contend_register.c - contend's entry in the scenario registry
 * (BENCH_SCENARIO, ../harness.h): contend.c defines the scenario object,
 * this file registers it, at its place among the others.
 */
#include "scenarios.h"

extern const struct bench_scenario bench_contend; /* contend.c */

BENCH_SCENARIO(bench_contend, 20);
