/* SPDX-License-Identifier: MIT */
/*
 * scenarios/zero_tune.h - `hotline-bench zero --tune` (zero_tune.c): the
 * crossovers of hl_zero's plan, measured with the sized-scenario engine
 * over zero's declaration (the def zero.c passes in).
 */
#ifndef HOTLINE_BENCH_ZERO_TUNE_H
#define HOTLINE_BENCH_ZERO_TUNE_H

#include "../sized.h"

/* What zt_tune will measure under cfg, for the progress. */
void zt_tune_plan(const struct sized_def *zero, const struct bench_config *cfg,
		  struct bench_plan *plan);
/* Measure the crossovers, print the tables and the setting, append the results. 0 or 1. */
int zt_tune(const struct sized_def *zero, const struct bench_config *cfg, json_t *results);
/* The JSON's "tune" section, or NULL if the tuner did not run; *key: "tune". */
json_t *zt_tune_json(const char **key);

#endif /* HOTLINE_BENCH_ZERO_TUNE_H */
