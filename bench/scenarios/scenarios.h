/* SPDX-License-Identifier: MIT */
/*
 * scenarios/scenarios.h - what every scenario file of hotline-bench
 * includes: the harness (../harness.h) and the sized-scenario engine
 * (../sized.h). Each scenario registers itself from its own file
 * (BENCH_SCENARIO): nothing here lists them.
 */
#ifndef HOTLINE_BENCH_SCENARIOS_H
#define HOTLINE_BENCH_SCENARIOS_H

#include "../sized.h"

#endif /* HOTLINE_BENCH_SCENARIOS_H */
