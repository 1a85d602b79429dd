// SPDX-License-Identifier: MIT
/*
 * zero.c - hl_zero's variant choice and hl_try_zero's fault handler.
 *
 * The variants live in src/arch/<arch>/; this file picks one (or the
 * architecture's automatic plan), publishes it in one atomic pointer that
 * hl_zero jumps through, and turns a fault inside a variant into a return
 * value for hl_try_zero.
 *
 * The fault path, step by step:
 *  1. hl_try_zero calls the variant through hl_arch_try_zero, which arms
 *     it (on x86-64: by being the variant's return address; nothing is
 *     stored anywhere, so the armed path costs one call).
 *  2. A store faults; the kernel delivers SIGSEGV or SIGBUS to this thread.
 *  3. on_fault() accepts it only if the kernel raised it for a memory
 *     access (si_code) and the architecture confirms that the interrupted
 *     instruction is an armed variant's store, in its exception table, at
 *     an address inside what it clears; it then moves the context's pc to
 *     the fixup and returns. The fixup finishes byte by byte and returns
 *     the bytes not cleared.
 *  4. Anything else goes to the handler that was installed before ours,
 *     as the kernel would have called it, or to the default action.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotline/zero.h>

#include "arch/arch.h"
#include "env.h"

/* Thresholds of the automatic plan, read by the architecture's code. */
size_t hl__zero_vec_max = SIZE_MAX;
size_t hl__zero_rep_max = SIZE_MAX;

static struct hl_zero_auto auto_plan;

/*
 * Where hl_zero and hl_try_zero go (arch.h): resolvers until init() has
 * run; hl_try_zero's stays at install_and_try_zero until the fault handler
 * is in place. Written under choice_lock; read with one load per call.
 */
static size_t resolve_and_zero(void *dst, size_t n);
static size_t install_and_try_zero(void *dst, size_t n);
hl_zero_fn hl__zero_redirect = resolve_and_zero;
hl_zero_fn hl__try_zero_redirect = install_and_try_zero;

/* The choice itself: a forced variant, or NULL for the automatic plan. */
static const struct hl_zero_impl *_Atomic forced;
static pthread_mutex_t choice_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_bool installed;

static const struct hl_zero_impl *find_impl(const char *name)
{
	for (const struct hl_zero_impl *v = hl_arch_zero_impls; name && v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

static void set_redirect(hl_zero_fn *redirect, hl_zero_fn fn)
{
	__atomic_store_n(redirect, fn, __ATOMIC_RELEASE);
}

/* Publish a choice (NULL: automatic); callers hold choice_lock. */
static void publish(const struct hl_zero_impl *v)
{
	bool inline_plan = !v && auto_plan.inline_entry;

	atomic_store_explicit(&forced, v, memory_order_relaxed);
	set_redirect(&hl__zero_redirect, inline_plan ? NULL : v ? v->fn : auto_plan.fn);
	if (atomic_load_explicit(&installed, memory_order_relaxed))
		set_redirect(&hl__try_zero_redirect,
			     inline_plan ? NULL : v ? v->try_fn : auto_plan.try_fn);
}

/* First use: the automatic plan, then HOTLINE_ZERO if it names a variant this CPU runs. */
static void init(void)
{
	const struct hl_cpu *cpu = hl_cpu();
	const char *env = getenv("HOTLINE_ZERO");
	const struct hl_zero_impl *v = NULL;

	hl_arch_zero_auto(cpu, &auto_plan);
	hl__zero_vec_max = auto_plan.vec_max;
	hl__zero_rep_max = auto_plan.rep_max;
	if (env && strcmp(env, "auto") != 0) {
		v = find_impl(env);
		if (!v) {
			hl__env_report("HOTLINE_ZERO", env, "unknown variant; using auto");
		} else if (!v->supported(cpu)) {
			hl__env_report("HOTLINE_ZERO", env,
				       "not supported by this CPU; using auto");
			v = NULL;
		}
	}
	pthread_mutex_lock(&choice_lock);
	publish(v);
	pthread_mutex_unlock(&choice_lock);
}

/* Read the environment at load time, so the choice is made before any thread races to it. */
__attribute__((constructor)) static void init_at_load(void)
{
	pthread_once(&init_once, init);
}

/* hl_zero before init(): choose, then clear through the entry point. */
static size_t resolve_and_zero(void *dst, size_t n)
{
	pthread_once(&init_once, init);
	hl_zero(dst, n);
	return 0;
}

const char *hl_zero_variant(void)
{
	const struct hl_zero_impl *v;

	pthread_once(&init_once, init);
	v = atomic_load_explicit(&forced, memory_order_relaxed);
	return v ? v->name : auto_plan.name;
}

int hl_zero_use(const char *name)
{
	const struct hl_zero_impl *v = find_impl(name);
	bool automatic = name && strcmp(name, "auto") == 0;

	pthread_once(&init_once, init);
	if (!automatic && (!v || !v->supported(hl_cpu())))
		return -1;
	pthread_mutex_lock(&choice_lock);
	publish(automatic ? NULL : v);
	pthread_mutex_unlock(&choice_lock);
	return 0;
}

int hl_zero_plan(char *buf, size_t size)
{
	const struct hl_zero_impl *v;

	pthread_once(&init_once, init);
	v = atomic_load_explicit(&forced, memory_order_relaxed);
	if (v)
		return snprintf(buf, size, "%s", v->name);
	if (!auto_plan.mid && !auto_plan.large)
		return snprintf(buf, size, "%s", auto_plan.name);
	if (!auto_plan.mid)
		return snprintf(buf, size, "%s <= %zu < %s", auto_plan.name, auto_plan.rep_max,
				auto_plan.large);
	return snprintf(buf, size, "%s <= %zu < %s <= %zu < %s", auto_plan.name,
			auto_plan.vec_max, auto_plan.mid, auto_plan.rep_max, auto_plan.large);
}

const char *hl_zero_variant_name(unsigned i)
{
	unsigned n = 0;

	while (hl_arch_zero_impls[n].name)
		n++;
	return i < n ? hl_arch_zero_impls[i].name : NULL;
}

bool hl_zero_supported(const char *name)
{
	const struct hl_zero_impl *v = find_impl(name);

	return v && v->supported(hl_cpu());
}

uintptr_t hl__zero_extable_find(const struct hl_zero_extable *begin,
				const struct hl_zero_extable *end, uintptr_t pc)
{
	for (const struct hl_zero_extable *e = begin; e < end; e++) {
		uintptr_t start = (uintptr_t)&e->start + (intptr_t)e->start;
		uintptr_t stop = (uintptr_t)&e->end + (intptr_t)e->end;

		if (pc >= start && pc < stop)
			return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
	}
	return 0;
}

/* The handlers that were installed before ours: [0] SIGSEGV, [1] SIGBUS. */
static struct sigaction previous[2];
static int install_errno;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/*
 * Raised by the kernel for a memory access (not sent by kill/raise/sigqueue,
 * whose si_code is <= 0, and not SI_KERNEL's general-protection faults).
 */
static bool access_fault(int sig, int code)
{
	if (sig == SIGSEGV)
		return code == SEGV_MAPERR || code == SEGV_ACCERR || code == SEGV_PKUERR;
	return code == BUS_ADRERR || code == BUS_OBJERR || code == BUS_MCEERR_AR;
}

/*
 * Hand a signal that is not ours to the previous handler, as the kernel
 * would have: with its sa_mask (and the signal itself unless SA_NODEFER)
 * blocked. With no previous handler, restore the default action; a fault
 * then happens again when the instruction restarts and kills the process
 * as it would have without hotline, and a sent signal is raised again.
 * SA_RESETHAND of the previous handler is not emulated.
 */
static void pass_on(int sig, siginfo_t *info, void *uc)
{
	const struct sigaction *prev = &previous[sig == SIGBUS];
	sigset_t mask, saved;

	if (prev->sa_handler == SIG_IGN && info->si_code <= 0)
		return;
	if (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
		if (info->si_code <= 0 || info->si_code == SI_KERNEL)
			raise(sig);
		return;
	}
	mask = prev->sa_mask;
	if (!(prev->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	pthread_sigmask(SIG_BLOCK, &mask, &saved);
	if (prev->sa_flags & SA_SIGINFO)
		prev->sa_sigaction(sig, info, uc);
	else
		prev->sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

static void on_fault(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno;
	uintptr_t addr = (uintptr_t)info->si_addr;

	if (access_fault(sig, info->si_code) && hl_arch_zero_fixup(uc, addr)) {
		errno = saved_errno;
		return;
	}
	pass_on(sig, info, uc);
	errno = saved_errno;
}

static void install(void)
{
	static const int signals[2] = { SIGSEGV, SIGBUS };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	/*
	 * SA_NODEFER: a signal handler that interrupts this one may call
	 * hl_try_zero, whose fault must reach us again rather than find
	 * SIGSEGV blocked (the kernel then kills the process). pass_on()
	 * blocks the signal itself for a previous handler that expects it.
	 */
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	/* Read the previous handlers first: a fault racing with us must find them. */
	for (int i = 0; i < 2; i++) {
		if (sigaction(signals[i], NULL, &previous[i]) != 0) {
			install_errno = errno;
			return;
		}
	}
	for (int i = 0; i < 2; i++) {
		if (sigaction(signals[i], &sa, NULL) != 0) {
			install_errno = errno;
			if (i == 1)
				sigaction(SIGSEGV, &previous[0], NULL);
			return;
		}
	}
	pthread_once(&init_once, init);
	pthread_mutex_lock(&choice_lock);
	atomic_store_explicit(&installed, true, memory_order_release);
	publish(atomic_load_explicit(&forced, memory_order_relaxed));
	pthread_mutex_unlock(&choice_lock);
}

int hl_try_zero_prepare(void)
{
	pthread_once(&install_once, install);
	if (atomic_load_explicit(&installed, memory_order_acquire))
		return 0;
	errno = install_errno;
	return -1;
}

/* hl_try_zero until the handler is in place; n (nothing cleared) if it cannot be. */
static size_t install_and_try_zero(void *dst, size_t n)
{
	if (hl_try_zero_prepare() != 0)
		return n;
	return hl_try_zero(dst, n);
}
