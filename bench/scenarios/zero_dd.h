/* SPDX-License-Identifier: MIT */
/*
 * scenarios/zero_dd.h - zero's experiments on the host kernel
 * (zero_dd.c): the files read from (/dev/zero, a sparse tmpfs file), the
 * dd subjects' run and setups, and the dd runs with their table and
 * results. zero.c declares the dd subjects and calls these; this file
 * knows nothing of zero.c.
 */
#ifndef HOTLINE_BENCH_ZERO_DD_H
#define HOTLINE_BENCH_ZERO_DD_H

#include <stdint.h>

#include "../sized.h"

#define ZT_NAME		  "zero"
#define ZT_DD_BLOCK	  (1u << 20)
#define ZT_DD_TOTAL	  (4ull << 30) /* bytes read per dd run */
#define ZT_DD_QUICK_TOTAL (256ull << 20)
#define ZT_DD_SPARSE	  0x1u /* sized_facts.flags: the dd subject reads the sparse file */

/* The dd subjects' run function and setups (the file each reads). */
void run_dd(struct bench_worker *w);
void *zt_dd_setup_dev_zero(const struct bench_params *p);
void *zt_dd_setup_sparse(const struct bench_params *p);
/* /dev/zero, open while the scenario runs (zt_files_open), else -1. */
int zt_dev_zero_fd(void);

/*
 * Open /dev/zero and, if dd[0..*nr_dd) holds the tmpfs subject, make the
 * sparse file; without a tmpfs, a note says so and that subject is
 * dropped from dd. 0, or -1 after bench_error.
 */
int zt_files_open(const struct bench_config *cfg, const struct bench_subject **dd, size_t *nr_dd);
void zt_files_close(void);

/* The dd experiments: measure, print their table, append their results. 0 or 1. */
int zt_run_dd(const struct sized_run *run, const struct bench_subject **subjects, size_t n,
	      json_t *results);

#endif /* HOTLINE_BENCH_ZERO_DD_H */
