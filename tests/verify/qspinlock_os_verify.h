/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_os_verify.h - the OS glue of hl_qspinlock_t's algorithm
 * (src/qspinlock.c; the interface is in src/qspinlock_node.h) for the
 * GenMC model checker, which qspinlock.c includes when built with
 * HL_VERIFY instead of the Linux glue, src/qspinlock_os.h.
 *
 *  - futex_wait returns at once, as a spurious wake-up may: every caller
 *    re-reads its word and waits again. A real wait that sleeps and is
 *    woken is, to memory, the same as one that returns later, so the
 *    executions of the real code are among those checked here; what this
 *    does not check is that a sleeper is always woken (the futex's own
 *    compare-and-sleep against the wake; docs/verification.md).
 *  - futex_wake, yield_cpu and cpu_relax do nothing: none touches memory.
 *  - A thread's slot is numbered by its GenMC thread id, from a static
 *    table of zeroed nodes (the Linux glue's chunks start zeroed too).
 *  - No fork(): the generation stays 0.
 *  - The spin budgets are one iteration, so that a waiter's loop is a pure
 *    re-read that GenMC turns into an assumption (no bound is needed), and
 *    the queued waiter takes both paths: the spin and the sleep.
 */
#ifndef HOTLINE_TESTS_VERIFY_QSPINLOCK_OS_VERIFY_H
#define HOTLINE_TESTS_VERIFY_QSPINLOCK_OS_VERIFY_H

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "qspinlock_node.h"

#define SPIN_QUEUED  1u
#define SPIN_WORD    1u
#define VERIFY_SLOTS 8

static unsigned int fork_gen;
static struct qslot verify_slots[VERIFY_SLOTS];

static struct qslot *this_slot(unsigned int *nr)
{
	unsigned int tid = (unsigned int)pthread_self();

	assert(tid < VERIFY_SLOTS);
	*nr = tid;
	return &verify_slots[tid];
}

static struct qslot *slot_addr(unsigned int nr)
{
	return &verify_slots[nr];
}

static void futex_wait(atomic_uint *word, unsigned int val)
{
	(void)word;
	(void)val;
}

static void futex_wake(atomic_uint *word)
{
	(void)word;
}

static void yield_cpu(void)
{
}

static void cpu_relax(void)
{
}

#endif /* HOTLINE_TESTS_VERIFY_QSPINLOCK_OS_VERIFY_H */
