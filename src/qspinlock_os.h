/* SPDX-License-Identifier: MIT */
/*
 * qspinlock_os.h - the Linux glue of hl_qspinlock_t's algorithm
 * (qspinlock.c, which includes it once; the interface is in
 * qspinlock_node.h): the table of per-thread queue-node slots, the fork()
 * generation, the futex, sched_yield and the CPU's spin hint.
 *
 * Queue nodes live in slots, one per thread that has ever had to queue and
 * is still alive: four nodes per slot (nesting, as the kernel's per-CPU
 * nodes) in one cache line. Slots are allocated in chunks that are never
 * freed, so a waker may touch a node whose thread has moved on (at worst a
 * spurious futex wake, which waiters tolerate); a slot returns to a free
 * list when its thread exits (a pthread key's destructor) and is reused by
 * the next thread.
 */
#ifndef HOTLINE_SRC_QSPINLOCK_OS_H
#define HOTLINE_SRC_QSPINLOCK_OS_H

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <hotline/compiler.h>

#include "arch/arch.h"
#include "qspinlock_node.h"

#define CHUNK_SLOTS 256
#define NR_CHUNKS   ((MAX_SLOTS + CHUNK_SLOTS - 1) / CHUNK_SLOTS)

static _Atomic(struct qslot *) chunks[NR_CHUNKS];

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int slots_used; /* slots ever handed out (high-water mark) */
static unsigned int free_slots[MAX_SLOTS];
static unsigned int nr_free;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static bool key_ok;

/*
 * This process's fork generation: 0, one more than the parent's in a child.
 * Written only by the atfork handler, while the child has a single thread.
 */
static unsigned int fork_gen;

static _Thread_local struct qslot *my_slot;
static _Thread_local unsigned int my_slot_nr;

static struct qslot *slot_addr(unsigned int nr)
{
	struct qslot *chunk = atomic_load_explicit(&chunks[nr / CHUNK_SLOTS], memory_order_acquire);

	return &chunk[nr % CHUNK_SLOTS];
}

/* Thread exit: the slot goes back to the free list. */
static void slot_release(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&slots_lock);
	free_slots[nr_free++] = my_slot_nr;
	pthread_mutex_unlock(&slots_lock);
	my_slot = NULL;
}

/*
 * fork(): the slot table is consistent in the child (no thread was in the
 * middle of taking or returning a slot), and the child is a generation on.
 */
static void fork_prepare(void)
{
	pthread_mutex_lock(&slots_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&slots_lock);
}

static void fork_child(void)
{
	pthread_mutex_unlock(&slots_lock);
	fork_gen++;
}

__attribute__((constructor)) static void fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static void key_init(void)
{
	key_ok = pthread_key_create(&slot_key, slot_release) == 0;
}

/* This thread's slot and its number, taken on first use; NULL when none can be had. */
static struct qslot *this_slot(unsigned int *slot_nr)
{
	struct qslot *chunk;
	unsigned int nr;

	if (hl_likely(my_slot)) {
		*slot_nr = my_slot_nr;
		return my_slot;
	}

	pthread_once(&key_once, key_init);
	if (!key_ok)
		return NULL;

	pthread_mutex_lock(&slots_lock);
	if (nr_free) {
		nr = free_slots[--nr_free];
	} else if (slots_used < MAX_SLOTS) {
		nr = slots_used;
		chunk = atomic_load_explicit(&chunks[nr / CHUNK_SLOTS], memory_order_relaxed);
		if (!chunk) {
			chunk = aligned_alloc(_Alignof(struct qslot),
					      CHUNK_SLOTS * sizeof(struct qslot));
			if (!chunk) {
				pthread_mutex_unlock(&slots_lock);
				return NULL;
			}
			for (unsigned int i = 0; i < CHUNK_SLOTS; i++)
				for (unsigned int j = 0; j < MAX_NODES; j++) {
					atomic_init(&chunk[i].node[j].next, NULL);
					atomic_init(&chunk[i].node[j].state, NODE_WAITING);
					atomic_init(&chunk[i].node[j].gen, 0);
				}
			atomic_store_explicit(&chunks[nr / CHUNK_SLOTS], chunk,
					      memory_order_release);
		}
		slots_used++;
	} else {
		pthread_mutex_unlock(&slots_lock);
		return NULL;
	}
	pthread_mutex_unlock(&slots_lock);

	if (pthread_setspecific(slot_key, slot_addr(nr)) != 0) {
		pthread_mutex_lock(&slots_lock);
		free_slots[nr_free++] = nr;
		pthread_mutex_unlock(&slots_lock);
		return NULL;
	}
	my_slot_nr = nr;
	my_slot = slot_addr(nr);
	*slot_nr = nr;
	return my_slot;
}

static void futex_wait(atomic_uint *word, unsigned int val)
{
	/* EINTR, EAGAIN and spurious wake-ups all just send the caller round again. */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void yield_cpu(void)
{
	sched_yield();
}

static inline void cpu_relax(void)
{
	hl_arch_relax();
}

#endif /* HOTLINE_SRC_QSPINLOCK_OS_H */
