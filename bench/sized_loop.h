/* SPDX-License-Identifier: MIT */
/*
 * sized_loop.h - the timed loop of every sized scenario (sized.h), written
 * once and inlined into one small run function per subject, with that
 * subject's operation inlined into it.
 *
 * One measurement of one subject at one size (a slice of a repetition's
 * sample, sized.c): in hot mode untimed calls first (when the buffers fit
 * the last-level cache): SIZED_WARM_CALLS of them, or fewer if they take
 * the slice's duration, at least one. Then calls in batches
 * until the slice's duration is over (at least one call), timed as a
 * whole with the harness's clock. Batches grow until one lasts
 * SIZED_BATCH_NS, so that reading the clock costs nothing next to them,
 * even at 1 byte. Cold: each call another slot of the arena, stepping by
 * the scattered walk (sized_cold_walk). The first, middle and last byte
 * of the first destination are marked before and checked after (the
 * scenario's expect), and in hot mode the byte after it must survive.
 */
#ifndef HOTLINE_BENCH_SIZED_LOOP_H
#define HOTLINE_BENCH_SIZED_LOOP_H

#include "arch/arch.h"
#include "sized.h"

#define SIZED_BATCH_NS 20000 /* a batch of calls grows until it lasts this long */
/*
 * Hot warm-up calls (at most; bench/README.md, "Warm-up"). One call was not
 * enough near the cache's capacity: on the Intel Xeon (family 6 model
 * 0xcf), whichever of two subjects ran first at a point, after another
 * size, ran at 0.88x-0.97x the second's rate at 32 MiB and at 0.79x-0.89x
 * at 64 MiB (medians per order); with 6 calls, 0.97x-1.01x and mostly
 * 0.95x-1.02x. The warm-up stops once it has taken the slice's duration,
 * so it adds at most that and one call.
 */
#define SIZED_WARM_CALLS 6

/*
 * A subject's operation on n bytes: the bytes it could not do (0: all).
 * zero's ignore src; copy's copy src to dst.
 */
typedef size_t (*sized_op_fn)(const struct sized_sample *s, unsigned char *dst,
			      const unsigned char *src, size_t n);
/* The "used" state's read-back after each call: nonzero when what it read is wrong. */
typedef size_t (*sized_after_fn)(const unsigned char *dst, size_t n);

/* Mark the first destination before the loop; check it after (sized.c). */
void sized_mark(const struct sized_sample *s, unsigned char *dst, const unsigned char *src,
		bool sentinel);
void sized_check(struct bench_worker *w, const struct sized_sample *s, const unsigned char *dst,
		 const unsigned char *src, size_t left, bool sentinel);

/* The stores of the last call are observable: nothing may be optimised away. */
static inline void sized_escape(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static bench_always_inline void sized_timed(struct bench_worker *w, bool cold, bool used,
					    sized_op_fn op, sized_after_fn after)
{
	struct sized_sample *s = w->state;
	const size_t n = s->size;
	size_t slot = cold ? s->cursor : 0, left = 0;
	unsigned char *dst0 = s->dst + slot * s->slot_bytes;
	const unsigned char *src0 = s->src + slot * s->slot_bytes;
	uint64_t calls = 0, batch = 1, t0, t1, tb, c0;

	if (!cold && s->warm_up) {
		const uint64_t w0 = bench_now_ns();
		unsigned int k = 0;

		do
			left |= op(s, s->dst, s->src, n);
		while (++k < SIZED_WARM_CALLS && bench_now_ns() - w0 < s->duration_ns);
	}
	sized_mark(s, dst0, src0, !cold);
	t0 = tb = bench_now_ns();
	c0 = bench_cycles();
	do {
		for (uint64_t k = 0; k < batch; k++) {
			size_t off = cold ? slot * s->slot_bytes : 0;

			left |= op(s, s->dst + off, s->src + off, n);
			if (used)
				left |= after(s->dst + off, n);
			sized_escape(s->dst + off);
			if (cold) {
				slot += s->step;
				if (slot >= s->nr_slots)
					slot -= s->nr_slots;
			}
		}
		calls += batch;
		t1 = bench_now_ns();
		if (t1 - tb < SIZED_BATCH_NS)
			batch *= 2;
		tb = t1;
	} while (t1 - t0 < s->duration_ns);
	s->cycles = bench_cycles() - c0;
	s->elapsed_ns = t1 - t0;
	s->calls = calls;
	s->bytes = calls * n;
	s->cursor = slot;
	w->ops = calls;
	sized_check(w, s, dst0, src0, left, !cold);
}

/* The loop for a hot or a cold sample: each compiled without the other's bookkeeping. */
static bench_always_inline void sized_loop(struct bench_worker *w, sized_op_fn op)
{
	const struct sized_sample *s = w->state;

	if (s->cold)
		sized_timed(w, true, false, op, NULL);
	else
		sized_timed(w, false, false, op, NULL);
}

/* The same, and the "used" state: cold, then after read back after each call. */
static bench_always_inline void sized_loop_used(struct bench_worker *w, sized_op_fn op,
						sized_after_fn after)
{
	const struct sized_sample *s = w->state;

	if (s->used)
		sized_timed(w, true, true, op, after);
	else if (s->cold)
		sized_timed(w, true, false, op, after);
	else
		sized_timed(w, false, false, op, after);
}

#endif /* HOTLINE_BENCH_SIZED_LOOP_H */
