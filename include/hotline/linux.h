/* SPDX-License-Identifier: MIT */
/*
 * hotline/linux.h - the Linux kernel's names on hotline's primitives (opt-in).
 *
 * hotline's names are the kernel's with hl_. This header gives kernel-style
 * code the kernel's own names, so that it compiles in user space unchanged:
 * refcount_t and refcount_*(), struct kref, rcuref_t and rcuref_*(),
 * struct lockref and lockref_*(),
 * spinlock_t and spin_*() (hotline's queued spinlock), struct mutex and
 * mutex_*() (a pthread mutex), clear_user() (hl_try_zero), copy_from_user()
 * and copy_to_user() (hl_try_copy) and a few helpers
 * kernel code takes for granted (container_of, likely, unlikely, __user).
 * docs/linux.md has the table: every name, what it maps to, and where the
 * semantics differ from the kernel's.
 *
 * Opt-in: no other hotline header includes this one, and nothing here is
 * defined unless it is included. Its names are the kernel's, unprefixed, so
 * they may clash with a program's own; including it is the choice to use
 * them. A clash is a compile error (redefinition), never a silent mix of two
 * meanings: only the helper macros that many code bases define with the
 * same meaning (container_of, likely, unlikely, __user) are guarded with
 * #ifndef, and an existing definition of those is kept.
 *
 * Functions are static inline wrappers, type-checked as the kernel's are,
 * with the kernel's signatures (refcount_read returns unsigned int, as
 * there). Macros are used only where a name must be a type, a struct tag,
 * an initialiser or must assign to its argument (spin_lock_irqsave).
 *
 * struct lockref is struct hl_lockref (a macro renames the tag): its
 * members lock (the spinlock_t that spin_lock() takes) and count (an int)
 * are the kernel's, so d->d_lockref.count and spin_lock(&d->d_lockref.lock)
 * work. Reading count under the lock is exact; writing it with a plain
 * store while other threads may run the lockless paths is what the kernel
 * does and works on the hardware, but is a data race in C11's terms that
 * ThreadSanitizer reports: there, use hl_lockref_set_count() (lockref.h).
 */
#ifndef HOTLINE_LINUX_H
#define HOTLINE_LINUX_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include <hotline/copy.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Helpers kernel code takes for granted (kept if already defined) ---- */

#ifndef container_of
/* container_of - the struct of type that holds *ptr as its member. */
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))
#endif
#ifndef likely
#define likely(x) hl_likely(x)
#endif
#ifndef unlikely
#define unlikely(x) hl_unlikely(x)
#endif
#ifndef __user
/* The kernel's address-space annotation: nothing in user space. */
#define __user
#endif

/* ---- Spinlocks: hotline's queued spinlock ---- */

/* spinlock_t - hl_qspinlock_t, the kernel's queued spinlock (4 bytes). */
typedef hl_qspinlock_t spinlock_t;

/* Initialisers: spinlock_t l = __SPIN_LOCK_UNLOCKED(l); DEFINE_SPINLOCK(l); */
/* clang-format off */
#define __SPIN_LOCK_UNLOCKED(lockname) HL_QSPINLOCK_INIT
#define DEFINE_SPINLOCK(x) spinlock_t x = HL_QSPINLOCK_INIT
/* clang-format on */

/* spin_lock_init - unlocked (the lock must not be in use). */
static inline void spin_lock_init(spinlock_t *lock)
{
	static const spinlock_t unlocked = HL_QSPINLOCK_INIT;

	*lock = unlocked;
}

/* spin_lock - hl_qspin_lock: acquire; spins, then sleeps (not preemption-off). */
static inline void spin_lock(spinlock_t *lock)
{
	hl_qspin_lock(lock);
}

/* spin_unlock - hl_qspin_unlock: release; only the holder may call it. */
static inline void spin_unlock(spinlock_t *lock)
{
	hl_qspin_unlock(lock);
}

/* spin_trylock - hl_qspin_trylock: 1 with the lock held, 0 without waiting. */
static inline int spin_trylock(spinlock_t *lock)
{
	return hl_qspin_trylock(lock);
}

/* spin_is_locked - hl_qspin_is_locked: held, pending or queued (a snapshot). */
static inline int spin_is_locked(spinlock_t *lock)
{
	return hl_qspin_is_locked(lock);
}

/* User space has no interrupts and no softirqs: the _irq and _bh forms lock. */
static inline void spin_lock_irq(spinlock_t *lock)
{
	hl_qspin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	hl_qspin_unlock(lock);
}

static inline void spin_lock_bh(spinlock_t *lock)
{
	hl_qspin_lock(lock);
}

static inline void spin_unlock_bh(spinlock_t *lock)
{
	hl_qspin_unlock(lock);
}

/* spin_lock_irqsave(lock, flags): flags (an unsigned long lvalue) = 0, then lock. */
#define spin_lock_irqsave(lock, flags)                                                             \
	do {                                                                                       \
		(flags) = 0;                                                                       \
		spin_lock(lock);                                                                   \
	} while (0)

/* spin_unlock_irqrestore(lock, flags): unlock; flags is evaluated, unused. */
#define spin_unlock_irqrestore(lock, flags)                                                        \
	do {                                                                                       \
		(void)(flags);                                                                     \
		spin_unlock(lock);                                                                 \
	} while (0)

/* ---- Mutexes: a pthread mutex ---- */

/* struct mutex - a default pthread mutex; kernel code never reads its members. */
struct mutex {
	pthread_mutex_t hl_mutex;
};

/* clang-format off */
#define DEFINE_MUTEX(name) struct mutex name = { PTHREAD_MUTEX_INITIALIZER }
/* clang-format on */

/* mutex_init - pthread_mutex_init with default attributes; aborts if it fails. */
static inline void mutex_init(struct mutex *lock)
{
	if (pthread_mutex_init(&lock->hl_mutex, NULL) != 0)
		abort();
}

/* mutex_destroy - pthread_mutex_destroy (the kernel's is a debugging aid). */
static inline void mutex_destroy(struct mutex *lock)
{
	(void)pthread_mutex_destroy(&lock->hl_mutex);
}

/* mutex_lock - sleep until held. A failure (misuse) aborts: the kernel's returns void. */
static inline void mutex_lock(struct mutex *lock)
{
	if (pthread_mutex_lock(&lock->hl_mutex) != 0)
		abort();
}

/* mutex_unlock - release; a failure (not the holder) aborts. */
static inline void mutex_unlock(struct mutex *lock)
{
	if (pthread_mutex_unlock(&lock->hl_mutex) != 0)
		abort();
}

/* mutex_trylock - 1 with the mutex held, 0 when it is taken (the kernel's convention). */
static inline int mutex_trylock(struct mutex *lock)
{
	return pthread_mutex_trylock(&lock->hl_mutex) == 0;
}

/* ---- refcount_t: hl_refcount_t ---- */

/* refcount_t - hl_refcount_t: saturating signed 32-bit count, valid 1..INT_MAX. */
typedef hl_refcount_t refcount_t;

/* refcount_t r = REFCOUNT_INIT(1); also inside a struct's initialiser. */
#define REFCOUNT_INIT(n)   HL_REFCOUNT_INIT(n)
#define REFCOUNT_MAX	   HL_REFCOUNT_MAX
#define REFCOUNT_SATURATED HL_REFCOUNT_SATURATED

/* refcount_set - relaxed store, for an object nobody else references yet. */
static inline void refcount_set(refcount_t *r, int n)
{
	hl_refcount_set(r, n);
}

/* refcount_read - the count, unsigned as in the kernel (saturated reads 0xc0000000). */
static inline unsigned int refcount_read(const refcount_t *r)
{
	return HL__CAST(unsigned int, hl_refcount_read(r));
}

/*
 * The operations: hl_refcount_* under the kernel's names, with the same
 * arguments, results and ordering (refcount.h says each one's).
 */
static inline void refcount_add(int i, refcount_t *r)
{
	hl_refcount_add(i, r);
}

static inline void refcount_inc(refcount_t *r)
{
	hl_refcount_inc(r);
}

static inline bool refcount_add_not_zero(int i, refcount_t *r)
{
	return hl_refcount_add_not_zero(i, r);
}

static inline bool refcount_inc_not_zero(refcount_t *r)
{
	return hl_refcount_inc_not_zero(r);
}

static inline bool refcount_sub_and_test(int i, refcount_t *r)
{
	return hl_refcount_sub_and_test(i, r);
}

static inline bool refcount_dec_and_test(refcount_t *r)
{
	return hl_refcount_dec_and_test(r);
}

static inline void refcount_dec(refcount_t *r)
{
	hl_refcount_dec(r);
}

static inline bool refcount_dec_if_one(refcount_t *r)
{
	return hl_refcount_dec_if_one(r);
}

static inline bool refcount_dec_not_one(refcount_t *r)
{
	return hl_refcount_dec_not_one(r);
}

/* refcount_dec_and_lock - drop a reference; true with lock held if it was the last. */
static inline bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock)
{
	return hl_refcount_dec_and_lock(r, lock);
}

/* refcount_dec_and_lock_irqsave - as refcount_dec_and_lock; *flags = 0. */
static inline bool refcount_dec_and_lock_irqsave(refcount_t *r, spinlock_t *lock,
						 unsigned long *flags)
{
	*flags = 0;
	return hl_refcount_dec_and_lock(r, lock);
}

/* refcount_dec_and_mutex_lock - drop a reference; true with lock held if it was the last. */
static inline bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock)
{
	return hl_refcount_dec_and_mutex_lock(r, &lock->hl_mutex);
}

/* ---- struct kref: a refcount_t with a release callback ---- */

struct kref {
	refcount_t refcount;
};

/* Positional, so that it is also valid C++ before C++20. */
/* clang-format off */
#define KREF_INIT(n) { REFCOUNT_INIT(n) }
/* clang-format on */

static inline void kref_init(struct kref *kref)
{
	refcount_set(&kref->refcount, 1);
}

static inline unsigned int kref_read(const struct kref *kref)
{
	return refcount_read(&kref->refcount);
}

static inline void kref_get(struct kref *kref)
{
	refcount_inc(&kref->refcount);
}

/* kref_get_unless_zero - a reference unless the count is zero: nonzero if taken. */
static inline int kref_get_unless_zero(struct kref *kref)
{
	return refcount_inc_not_zero(&kref->refcount);
}

/* kref_put - drop a reference; at the last, call release(kref) and return 1. */
static inline int kref_put(struct kref *kref, void (*release)(struct kref *))
{
	if (refcount_dec_and_test(&kref->refcount)) {
		release(kref);
		return 1;
	}
	return 0;
}

/* kref_put_lock - as kref_put; release is called with lock held and must unlock it. */
static inline int kref_put_lock(struct kref *kref, void (*release)(struct kref *), spinlock_t *lock)
{
	if (refcount_dec_and_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/* kref_put_mutex - as kref_put_lock, with a struct mutex. */
static inline int kref_put_mutex(struct kref *kref, void (*release)(struct kref *),
				 struct mutex *lock)
{
	if (refcount_dec_and_mutex_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/* ---- rcuref_t: hl_rcuref_t ---- */

/* rcuref_t - hl_rcuref_t: biased unsigned count; get-unless-dead is one add. */
typedef hl_rcuref_t rcuref_t;

/* rcuref_t r = RCUREF_INIT(1); n >= 1 references. */
#define RCUREF_INIT(n) HL_RCUREF_INIT(n)

/* rcuref_init - n >= 1 references (relaxed store). */
static inline void rcuref_init(rcuref_t *ref, unsigned int cnt)
{
	hl_rcuref_init(ref, cnt);
}

/* rcuref_read - the references held; 0 once released or dead. */
static inline unsigned int rcuref_read(const rcuref_t *ref)
{
	return hl_rcuref_read(ref);
}

/* rcuref_get - a reference unless the object is dead; the memory must stay valid. */
static inline bool rcuref_get(rcuref_t *ref)
{
	return hl_rcuref_get(ref);
}

/* rcuref_put - drop a reference; true for the one put that was the last. */
static inline bool rcuref_put(rcuref_t *ref)
{
	return hl_rcuref_put(ref);
}

/* rcuref_put_rcusafe - as rcuref_put (no preemption to disable in user space). */
static inline bool rcuref_put_rcusafe(rcuref_t *ref)
{
	return hl_rcuref_put(ref);
}

/* ---- struct lockref: struct hl_lockref ---- */

/* struct lockref - struct hl_lockref; members lock (spinlock_t) and count (int). */
#define lockref hl_lockref

/* The operations: hl_lockref_* under the kernel's names (lockref.h says each one's). */
static inline void lockref_init(struct lockref *ref)
{
	hl_lockref_init(ref);
}

static inline void lockref_get(struct lockref *ref)
{
	hl_lockref_get(ref);
}

/* lockref_get_not_zero - a reference unless count <= 0: true if taken. */
static inline bool lockref_get_not_zero(struct lockref *ref)
{
	return hl_lockref_get_not_zero(ref);
}

/* lockref_get_not_dead - a reference unless count < 0: true if taken. */
static inline bool lockref_get_not_dead(struct lockref *ref)
{
	return hl_lockref_get_not_dead(ref);
}

/* lockref_put_return - the new count, or -1 (nothing done: take the slow path). */
static inline int lockref_put_return(struct lockref *ref)
{
	return hl_lockref_put_return(ref);
}

/* lockref_put_or_lock - true after dropping; false with lock held when count <= 1. */
static inline bool lockref_put_or_lock(struct lockref *ref)
{
	return hl_lockref_put_or_lock(ref);
}

/*
 * lockref_put_not_zero - drop a reference unless count <= 1: true if dropped.
 *
 * hl_lockref_put_or_lock, and an unlock when it declined: the same result
 * as the kernel's; when the count is <= 1 the lock is taken and released.
 */
static inline bool lockref_put_not_zero(struct lockref *ref)
{
	if (hl_lockref_put_or_lock(ref))
		return true;
	hl_qspin_unlock(&ref->lock);
	return false;
}

/* lockref_mark_dead - count = -128; the caller holds ref->lock. */
static inline void lockref_mark_dead(struct lockref *ref)
{
	hl_lockref_mark_dead(ref);
}

/* __lockref_is_dead - count < 0 (a snapshot). */
static inline bool __lockref_is_dead(const struct lockref *ref)
{
	return hl_lockref_is_dead(ref);
}

/* ---- clear_user: hl_try_zero ---- */

/* clear_user - zero n bytes at to; returns the bytes not cleared (0 when all were). */
static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	return hl_try_zero(to, n);
}

/* __clear_user - the kernel's unchecked form; the same checks here, as clear_user. */
static inline unsigned long __clear_user(void __user *to, unsigned long n)
{
	return hl_try_zero(to, n);
}

/* ---- copy_from_user, copy_to_user: hl_try_copy ---- */

/*
 * copy_from_user - copy n bytes from `from` to `to`; returns the bytes not
 * copied, and zeroes them in `to` as the kernel does (as far as `to` is
 * writable: hl_try_zero).
 */
static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long left = hl_try_copy(to, from, n);

	if (left)
		hl_try_zero(HL__CAST(char *, to) + (n - left), left);
	return left;
}

/* copy_to_user - copy n bytes from `from` to `to`; returns the bytes not copied. */
static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return hl_try_copy(to, from, n);
}

#ifdef __cplusplus
}
#endif

#endif /* HOTLINE_LINUX_H */
