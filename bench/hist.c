// SPDX-License-Identifier: MIT
/*
 * hist.c - merging and quantiles of the bench's histograms (see hist.h).
 */
#include <math.h>

#include "hist.h"

/* Rank of the q-quantile among n values: ceil(q * n), in 1..n. */
static uint64_t rank_of(double q, uint64_t n)
{
	double r = ceil(q * (double)n);

	if (r < 1)
		return 1;
	return r > (double)n ? n : (uint64_t)r;
}

uint64_t bench_attempts_count(const struct bench_attempts *a)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < BENCH_ATTEMPTS_EXACT; i++)
		n += a->bucket[i];
	return n;
}

void bench_attempts_merge(struct bench_attempts *into, const struct bench_attempts *from)
{
	for (unsigned int i = 0; i < BENCH_ATTEMPTS_EXACT; i++)
		into->bucket[i] += from->bucket[i];
	into->sum += from->sum;
	if (from->max > into->max)
		into->max = from->max;
}

double bench_attempts_quantile(const struct bench_attempts *a, double q)
{
	uint64_t n = bench_attempts_count(a), want, seen = 0;

	if (!n)
		return 0;
	want = rank_of(q, n);
	for (unsigned int i = 1; i < BENCH_ATTEMPTS_EXACT; i++) {
		seen += a->bucket[i];
		if (seen >= want)
			return i;
	}
	return (double)a->max;
}

void bench_latency_merge(struct bench_latency *into, const struct bench_latency *from)
{
	for (unsigned int i = 0; i < BENCH_LATENCY_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->n += from->n;
	if (from->max > into->max)
		into->max = from->max;
}

/* The middle of bucket b, in ticks. */
static double bucket_middle(unsigned int b)
{
	unsigned int e, sub = 1u << BENCH_LATENCY_SUB_BITS;
	double low, width;

	if (b < sub)
		return b;
	e = (b >> BENCH_LATENCY_SUB_BITS) + BENCH_LATENCY_SUB_BITS - 1u;
	width = ldexp(1.0, (int)(e - BENCH_LATENCY_SUB_BITS));
	low = (double)(sub + (b & (sub - 1u))) * width;
	return low + (width - 1) / 2;
}

double bench_latency_quantile(const struct bench_latency *h, double q)
{
	uint64_t want, seen = 0;

	if (!h->n)
		return 0;
	want = rank_of(q, h->n);
	for (unsigned int i = 0; i < BENCH_LATENCY_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= want) {
			double v = bucket_middle(i);

			return v > (double)h->max ? (double)h->max : v;
		}
	}
	return (double)h->max;
}
