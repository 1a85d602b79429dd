/* SPDX-License-Identifier: MIT */
/*
 * hist.h - the two histograms of the contention scenarios, cheap enough to
 * fill inside a measurement loop: a few instructions on thread-local
 * memory, no division, no allocation.
 *
 * bench_attempts: how many compare-and-swap attempts each success took.
 * Exact for 1..255 attempts; one bucket for 256 or more, plus the exact sum
 * (so the mean is exact) and the maximum.
 *
 * bench_latency: durations in counter ticks (arch/arch.h), log-linear: exact
 * below 32 ticks, then 32 buckets per power of two (a bucket is at most
 * 1/32 of its value wide, so a quantile is within about 3%), plus the
 * exact maximum and count. Any uint64_t fits.
 *
 * Both merge by adding (threads, repetitions). The quantile functions give
 * the value at rank ceil(q * n) among the n recorded, for 0 < q <= 1.
 */
#ifndef HOTLINE_BENCH_HIST_H
#define HOTLINE_BENCH_HIST_H

#include <stdint.h>

#define BENCH_ATTEMPTS_EXACT 256u /* bucket[n] for n < 256; bucket[0] is 256 or more */

struct bench_attempts {
	uint64_t bucket[BENCH_ATTEMPTS_EXACT];
	uint64_t sum; /* attempts of every success: the exact mean */
	uint64_t max;
};

static inline void bench_attempts_add(struct bench_attempts *a, unsigned int attempts)
{
	a->bucket[attempts < BENCH_ATTEMPTS_EXACT ? attempts : 0]++;
	a->sum += attempts;
	if (attempts > a->max)
		a->max = attempts;
}

/* Successes recorded. */
uint64_t bench_attempts_count(const struct bench_attempts *a);
void bench_attempts_merge(struct bench_attempts *into, const struct bench_attempts *from);
/*
 * The q-quantile in attempts: exact when it is below 256; when it lies in
 * the 256-or-more bucket, the maximum (an upper bound). 0 when empty.
 */
double bench_attempts_quantile(const struct bench_attempts *a, double q);

#define BENCH_LATENCY_SUB_BITS 5u /* 32 buckets per power of two */
#define BENCH_LATENCY_BUCKETS  ((64u - BENCH_LATENCY_SUB_BITS + 1u) << BENCH_LATENCY_SUB_BITS)

struct bench_latency {
	uint64_t bucket[BENCH_LATENCY_BUCKETS];
	uint64_t n, max;
};

static inline unsigned int bench_latency_bucket(uint64_t ticks)
{
	unsigned int e;

	if (ticks < (1u << BENCH_LATENCY_SUB_BITS))
		return (unsigned int)ticks;
	e = 63u - (unsigned int)__builtin_clzll(ticks); /* >= SUB_BITS */
	return ((e - BENCH_LATENCY_SUB_BITS + 1u) << BENCH_LATENCY_SUB_BITS) |
	       (unsigned int)((ticks >> (e - BENCH_LATENCY_SUB_BITS)) &
			      ((1u << BENCH_LATENCY_SUB_BITS) - 1u));
}

static inline void bench_latency_add(struct bench_latency *h, uint64_t ticks)
{
	h->bucket[bench_latency_bucket(ticks)]++;
	h->n++;
	if (ticks > h->max)
		h->max = ticks;
}

void bench_latency_merge(struct bench_latency *into, const struct bench_latency *from);
/*
 * The q-quantile in ticks: the middle of its bucket (exact below 32 ticks),
 * never above the maximum. 0 when empty.
 */
double bench_latency_quantile(const struct bench_latency *h, double q);

#endif /* HOTLINE_BENCH_HIST_H */
