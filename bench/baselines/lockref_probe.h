/* SPDX-License-Identifier: MIT */
/*
 * baselines/lockref_probe.h - the bench's instrumented copy of hl_lockref,
 * as the scenarios see it.
 *
 * The bench compiles src/lockref.c a second time with
 * HL_LOCKREF_INSTRUMENT="lockref_instrumented.h" (see bench/CMakeLists.txt).
 * That copy is the library's code, unchanged (its static probes too, where
 * the library has them: hotline-trace counts the same events in it as the
 * hooks below), with two differences:
 *
 *  - its public functions are named hlb_lockref_* instead of hl_lockref_*,
 *    so both copies link into one program, and it has its own retry limit
 *    (hlb_lockref_set_retry_limit never touches the library's);
 *  - the library's hooks (HL_LR_HOOK_*) are filled in: every lockless
 *    success records its number of compare-and-swap attempts, every
 *    operation that took the locked path counts one fallback, and a failed
 *    attempt may cpu_relax according to the calling thread's policy (when,
 *    and with which instruction).
 *
 * On arm64 the bench compiles it twice more, with the atomics forced
 * (exclusives; LSE), as hlb_lockref_*_llsc and hlb_lockref_*_lse
 * (scenarios/contend_atomics.c declares what it calls of them). All copies
 * count into the same per-thread probe.
 *
 * The figures live in lockref_probe, one per thread: a measurement loop
 * resets its thread's with lockref_probe_begin() and reads them when it is
 * done. Nothing is shared between threads, so counting costs a few
 * instructions on memory only this thread touches.
 */
#ifndef HOTLINE_BENCH_LOCKREF_PROBE_H
#define HOTLINE_BENCH_LOCKREF_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <hotline/lockref.h>

#include "../arch/arch.h"
#include "../hist.h"

/* What a failed compare-and-swap does before the next attempt. */
enum lockref_relax {
	LOCKREF_RELAX_NONE,	   /* retry at once: the kernel since 2023, and hotline */
	LOCKREF_RELAX_EVERY,	   /* cpu_relax after every failure: the 2019 loop */
	LOCKREF_RELAX_EVERY_OTHER, /* after every second failure: Linus's unrolled loop */
};

struct lockref_probe {
	struct bench_attempts attempts; /* lockless successes, by attempts taken */
	uint64_t fallbacks;		/* operations that took the locked path */
	enum lockref_relax relax;
	enum bench_relax_insn insn; /* what "cpu_relax" is (arch/arch.h) */
};

extern _Thread_local struct lockref_probe lockref_probe;

/* Start counting on this thread, with this relax policy and instruction. */
static inline void lockref_probe_begin(enum lockref_relax relax, enum bench_relax_insn insn)
{
	memset(&lockref_probe, 0, sizeof(lockref_probe));
	lockref_probe.relax = relax;
	lockref_probe.insn = insn;
}

/* HL_LR_HOOK_SUCCESS: a lockless compare-and-swap worked at attempt tries. */
static inline void lockref_probe_success(unsigned int tries)
{
	bench_attempts_add(&lockref_probe.attempts, tries);
}

/*
 * HL_LR_HOOK_FAILED: attempt tries failed, under retry limit limit (0 =
 * none). As in the kernel's 2019 loop, no pause when the loop is about to
 * give up (tries reached the limit).
 */
static inline void lockref_probe_failed(unsigned int tries, unsigned int limit)
{
	struct lockref_probe *p = &lockref_probe;

	if (p->relax == LOCKREF_RELAX_NONE || (limit && tries >= limit))
		return;
	if (p->relax == LOCKREF_RELAX_EVERY || !(tries & 1))
		bench_relax_insn(p->insn);
}

/* HL_LR_HOOK_FALLBACK: the operation gave up, or found the lock taken. */
static inline void lockref_probe_fallback(unsigned int tries)
{
	(void)tries;
	lockref_probe.fallbacks++;
}

/* The instrumented copy of the library's functions (see <hotline/lockref.h>). */
void hlb_lockref_init(struct hl_lockref *l);
void hlb_lockref_get(struct hl_lockref *l);
bool hlb_lockref_get_not_zero(struct hl_lockref *l);
bool hlb_lockref_get_not_dead(struct hl_lockref *l);
int hlb_lockref_put_return(struct hl_lockref *l);
bool hlb_lockref_put_or_lock(struct hl_lockref *l);
void hlb_lockref_mark_dead(struct hl_lockref *l);
void hlb_lockref_set_count(struct hl_lockref *l, int n);
bool hlb_lockref_is_dead(const struct hl_lockref *l);
int hlb_lockref_count(const struct hl_lockref *l);
void hlb_lockref_set_retry_limit(unsigned int n);
unsigned int hlb_lockref_retry_limit(void);

#endif /* HOTLINE_BENCH_LOCKREF_PROBE_H */
