// SPDX-License-Identifier: MIT
/*
 * clock.c - the harness's clock, bench_now_ns(): CLOCK_MONOTONIC in
 * nanoseconds. Beneath measure.c (which times a measurement with it) and
 * machine.c (which samples the machine's state and the clock's resolution
 * with it), so that neither needs the other for it. See harness.h.
 */
#include <stdint.h>
#include <time.h>

#include "harness.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
