/*
 * hotline-sim --calibrate FILE: fit a machine preset's cost parameters to
 * the contend figures hotline-bench measured at 1 and 2 threads (docs/sim.md,
 * "Calibrating to this machine").
 *
 * calib_load reads and checks the file, refusing a bad one as a bad command
 * line (one line naming --calibrate, exit 2). calib_fit then fits, prints
 * what it did on stdout and leaves the calibrated machine in *m;
 * calib_json describes the calibration for the JSON's env.calibration.
 */
#ifndef HOTLINE_SIM_CALIBRATE_H
#define HOTLINE_SIM_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "sim.h"

struct calib;

/* The measured points of path; exits 2 on a bad file. */
struct calib *calib_load(const char *path);

/* The preset to start from when --machine is not given: by the file's env.arch. */
const struct sim_preset *calib_default_base(const struct calib *c);

/*
 * Fit: *m is base with the command line's overrides applied; held[i] says
 * sim_params[i] was given on the command line (kept as it is). On return
 * *m is the calibrated machine. Deterministic for a given file, machine and
 * seed. Exits 1 if the model fails.
 */
void calib_fit(struct calib *c, const struct sim_preset *base, struct sim_machine *m,
	       const bool *held, uint64_t seed);

/* env.calibration: file, base, fitted, held, fit points, rms_log_error. */
json_t *calib_json(const struct calib *c);

void calib_free(struct calib *c);

#endif
