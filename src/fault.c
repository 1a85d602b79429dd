// SPDX-License-Identifier: MIT
/*
 * fault.c - the fault layer beneath hl_try_zero, hl_try_copy and
 * hl_try_load64: the SIGSEGV/SIGBUS handler, the end of the user address
 * space, and each thread's leave to fault (fault.h). The exception-table
 * decision that the architecture's fixup makes is extable.c's. It calls nothing above it: zero.c
 * and copy.c, which choose the variants, ask to hear when the handler is in
 * (hl__fault_when_installed).
 *
 * The fault path, step by step:
 *  0. An armed entry (hl_try_zero, hl_try_copy, hl_try_load64) checks that
 *     its ranges lie in the user address space and that this thread does
 *     not block SIGSEGV and SIGBUS (the kernel kills a thread that faults
 *     with them blocked), both with one comparison against a thread-local
 *     end of user space (hl__try_thread_tops); when that fails, its
 *     slow path (zero.c, copy.c) refuses the range (hl__user_range) or
 *     unblocks the signals for the call (hl__fault_open).
 *  1. The entry runs a variant whose loads and stores are in the exception
 *     table: being that copy is what arms it, so the armed path costs
 *     nothing.
 *  2. An access faults; the kernel delivers SIGSEGV or SIGBUS to this
 *     thread.
 *  3. on_fault() accepts it only if the kernel raised it for a memory
 *     access (si_code) and the architecture confirms that the interrupted
 *     instruction is in the exception table, at an address inside what
 *     that entry may touch (extable.c); it then moves the
 *     context's pc to the fixup and returns. The fixup finishes byte by
 *     byte and returns the bytes left.
 *  4. Anything else goes to the handler that was installed before ours,
 *     as the kernel would have called it, or to the default action.
 *
 * The handler must run on a small alternate signal stack, and the first
 * fault may come before the program has called anything else: so the
 * fixup path (on_fault, the architecture's fixup, the table search) calls
 * no function outside this library, and the C library functions the rest
 * of the fault path and the slow paths use are bound once at load
 * (bind_now): a lazily bound call would run the dynamic linker's resolver,
 * which needs kilobytes of stack, inside the handler. zero.h states the
 * stack the handler needs (HL_TRY_ZERO_HANDLER_STACK).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <hotline/zero.h>

#include "arch/arch.h"
#include "fault.h"

/*
 * The end of the user address space, as the kernel's access_ok() sees it
 * (TASK_SIZE): no byte at or above it can be written. Found by asking the
 * kernel for one page just below each candidate power of two, from the
 * largest this architecture allows down: a page it maps, or one that is
 * mapped already, lies inside. On x86-64 the kernel keeps the last page
 * below 2^47 (2^56) out of reach, so the page below that is tried too.
 * Falls back to the architecture's usual end (hl_arch_user_top_min) if
 * mmap cannot say (a kernel without MAP_FIXED_NOREPLACE).
 *
 * The page is asked of the kernel itself, by system call, not through
 * mmap(): a sanitizer's mmap interceptor may rewrite a hint outside the
 * range it shadows (gcc 12's ThreadSanitizer replaces it with NULL), and
 * the kernel then places the page elsewhere; as root (CAP_SYS_RAWIO) it
 * may even map page 0, which ThreadSanitizer takes for memory corruption
 * and dies. The kernel sees the address exactly as asked, and with
 * MAP_FIXED_NOREPLACE maps that page or nothing. A kernel older than
 * that flag (4.17) takes the address as a hint and may map the page
 * elsewhere: such a page is unmapped again and counts as an answer of no.
 * The page is PROT_NONE and gone before the call returns, so nothing (a
 * sanitizer's shadow included) needs to know it existed.
 */
static bool page_is_user(uintptr_t addr)
{
	long page = getpagesize();
	long p = syscall(SYS_mmap, addr, page, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0L);

	if (p == -1)
		return errno == EEXIST;
	syscall(SYS_munmap, p, page);
	return (uintptr_t)p == addr;
}

static uintptr_t probe_user_top(void)
{
	uintptr_t page = (uintptr_t)getpagesize();
	int saved_errno = errno;
	uintptr_t top = 0;

	for (unsigned int bits = hl_arch_user_bits_max(); bits >= 32 && !top; bits--) {
		uintptr_t end = (uintptr_t)1 << bits;

		if (page_is_user(end - page))
			top = end;
		else if (page_is_user(end - 2 * page))
			top = end - page;
	}
	errno = saved_errno;
	return top ? top : hl_arch_user_top_min();
}

/* The end of the user address space, once found; 0 before. */
uintptr_t hl__try_zero_top;

/* The armed entries' check (arch.h): hl__try_zero_top, and the top of the smallest calls, once
 * this thread is known not to block the fault signals. */
_Thread_local struct hl__try_tops hl__try_thread_tops __attribute__((tls_model("initial-exec")));

/*
 * hl_try_zero's gate (arch.h): zero.c opens hl__try_zero_open_top; a thread
 * points at it once known, and at a 0 before.
 */
uintptr_t hl__try_zero_open_top;
static const uintptr_t gate_shut;
_Thread_local const uintptr_t *hl__try_zero_gate __attribute__((tls_model("initial-exec"))) =
	&gate_shut;

/*
 * The small top (arch.h) is open only while the entry's own small paths
 * are the plan: copy.c says when (hl__fault_small_calls). Every thread that
 * has passed the entry checks is on a list, so that the thread that opens
 * or shuts them rewrites each thread's small top, not only its own; a
 * thread leaves the list when it exits (a thread-specific key's
 * destructor) and, in a child of fork(), every thread but the one that
 * forked. The list changes under known_lock, a spin lock held with every
 * signal blocked: a signal handler's call may join the list (its first
 * call in a new thread), and it must not find its own thread holding it.
 * Threads join only where the architecture has small calls
 * (hl_arch_copy_direct_max not 0), and only if the key could be made: a
 * thread not on the list keeps a small top of 0, and its small calls take
 * the entry's longer path, which is exact for any size.
 */
struct known_thread {
	struct known_thread *next, *prev;
	struct hl__try_tops *tops; /* the thread's hl__try_thread_tops */
};
static struct known_thread known = {&known, &known, NULL};
static _Thread_local struct known_thread known_self __attribute__((tls_model("initial-exec")));
static atomic_flag known_lock = ATOMIC_FLAG_INIT;
static bool small_calls_open; /* under known_lock */
static pthread_key_t known_key;
static bool known_key_made;

/* What t's small top is now: top less the small calls' size, plus 1, while they are open. */
static void set_small_top(struct hl__try_tops *t)
{
	uintptr_t top = t->top, max = hl_arch_copy_direct_max;
	uintptr_t small_top = small_calls_open && top >= max ? top - max + 1 : 0;

	__atomic_store_n(&t->small_top, small_top, __ATOMIC_RELAXED);
}

/* Signals are blocked while the lock is held, not while a thread waits for it. */
static void known_lock_take(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	for (;;) {
		pthread_sigmask(SIG_BLOCK, &all, old);
		if (!atomic_flag_test_and_set_explicit(&known_lock, memory_order_acquire))
			return;
		pthread_sigmask(SIG_SETMASK, old, NULL);
		sched_yield();
	}
}

static void known_lock_drop(const sigset_t *old)
{
	atomic_flag_clear_explicit(&known_lock, memory_order_release);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* This thread joins the list, its small top as the others'. Its top is set. */
static void join_known(void)
{
	sigset_t old;

	if (!known_key_made) /* no small calls (hl_arch_copy_direct_max 0), or no key */
		return;
	if (pthread_setspecific(known_key, &known_self) != 0)
		return;
	known_self.tops = &hl__try_thread_tops;
	known_lock_take(&old);
	/* Joined already, by a signal handler that interrupted this call. */
	if (!known_self.next) {
		known_self.next = known.next;
		known_self.prev = &known;
		known.next->prev = &known_self;
		known.next = &known_self;
	}
	set_small_top(&hl__try_thread_tops);
	known_lock_drop(&old);
}

/*
 * The key's destructor: this thread exits, and its TLS block with it.
 * The C library runs such destructors in up to four rounds, while values
 * are left: a thread whose first armed call comes from another key's
 * destructor in the last round joins too late to leave, and a later walk
 * writes where its small top was. Nothing here guards that case.
 */
static void leave_known(void *self)
{
	struct known_thread *node = self;
	sigset_t old;

	known_lock_take(&old);
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->next = node->prev = NULL;
	/* A later call, from another key's destructor, takes the longer path. */
	__atomic_store_n(&hl__try_thread_tops.small_top, 0, __ATOMIC_RELAXED);
	known_lock_drop(&old);
}

/* In a child of fork(), only the thread that forked is left (if it had joined). */
static void known_after_fork(void)
{
	atomic_flag_clear_explicit(&known_lock, memory_order_relaxed);
	known.next = known.prev = &known;
	if (known_self.next) {
		known_self.next = known_self.prev = &known;
		known.next = known.prev = &known_self;
	}
}

/*
 * Made once, at load or by the installation if that comes first (a
 * constructor that copies before this file's): the key, and the child's
 * reset of the list.
 */
static pthread_once_t known_once = PTHREAD_ONCE_INIT;

static void known_start(void)
{
	if (!hl_arch_copy_direct_max)
		return;
	if (pthread_key_create(&known_key, leave_known) != 0)
		return;
	if (pthread_atfork(NULL, NULL, known_after_fork) != 0) {
		pthread_key_delete(known_key);
		return;
	}
	known_key_made = true;
}

void hl__fault_small_calls(bool open)
{
	sigset_t old;

	known_lock_take(&old);
	small_calls_open = open;
	for (struct known_thread *node = known.next; node != &known; node = node->next)
		set_small_top(node->tops);
	known_lock_drop(&old);
}

/*
 * This thread passes the entry checks from now on: its tops, and its gate
 * (arch.h); its small top as the list says (above). A signal handler
 * that runs between the stores sees the first set and the later ones not:
 * its small calls, or its hl_try_zero calls, take the longer path (or the
 * checks behind the gate), which finds the thread known.
 */
static void remember_thread(void)
{
	hl__try_thread_tops.top = hl__user_top();
	join_known();
	hl__try_zero_gate = &hl__try_zero_open_top;
}

uintptr_t hl__user_top(void)
{
	uintptr_t top = __atomic_load_n(&hl__try_zero_top, __ATOMIC_RELAXED);

	if (!top) {
		top = probe_user_top();
		__atomic_store_n(&hl__try_zero_top, top, __ATOMIC_RELAXED);
	}
	return top;
}

bool hl__user_range(const void *p, size_t n)
{
	uintptr_t end = (uintptr_t)p + n;

	return end >= (uintptr_t)p && end <= hl__user_top();
}

/*
 * An entry whose check failed, for a range inside the user address space:
 * the thread's signal mask decides. A synchronous SIGSEGV or SIGBUS in a
 * thread that blocks it kills the process (the kernel resets the handler
 * to the default action), so they are unblocked for the call and the mask
 * restored after it. A thread found not to block them gets its copy of the
 * end of user space, and its later calls pass the entry check (zero.h says
 * what that means for a thread that blocks them afterwards).
 *
 * unblocked_for_a_call counts this thread's calls inside the window where
 * they may have unblocked the fault signals for themselves: a signal
 * handler that interrupts one and calls an armed entry may find them
 * unblocked, but must not remember that.
 */
static _Thread_local volatile unsigned int unblocked_for_a_call
	__attribute__((tls_model("initial-exec")));

int hl__fault_open(sigset_t *old)
{
	sigset_t faults;

	if (hl__try_thread_tops.top)
		return 0;
	/* A thread passes the entry checks only once the handler is in (arch.h). */
	if (hl__fault_install() != 0)
		return -1;
	sigemptyset(&faults);
	sigaddset(&faults, SIGSEGV);
	sigaddset(&faults, SIGBUS);
	unblocked_for_a_call++;
	if (pthread_sigmask(SIG_UNBLOCK, &faults, old) != 0) {
		unblocked_for_a_call--;
		return -1;
	}
	if (!sigismember(old, SIGSEGV) && !sigismember(old, SIGBUS)) {
		/*
		 * Open: remember it, unless that is only because a call
		 * further out (this is a signal handler interrupting it)
		 * unblocked them for itself and will block them again.
		 */
		if (!--unblocked_for_a_call)
			remember_thread();
		return 0;
	}
	return 1;
}

void hl__fault_close(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
	unblocked_for_a_call--;
}

size_t hl__fault_call(hl_fault_fn call, void *dst, const void *src, size_t n)
{
	sigset_t old;
	size_t left;
	int open = hl__fault_open(&old);

	if (open < 0)
		return n;
	left = call(dst, src, n);
	if (open)
		hl__fault_close(&old);
	return left;
}

size_t hl__fault_slow(hl_fault_fn call, void *dst, const void *src, size_t n)
{
	if (!hl__user_range(dst, n) || !hl__user_range(src, n))
		return n;
	return hl__fault_call(call, dst, src, n);
}

/*
 * Call once, at load, every C library function that the fault path and
 * the slow paths may call, with arguments that change nothing, so that
 * none of them is bound lazily later on a signal stack (the top of this
 * file). errno is a function call too.
 */
static void bind_now(void)
{
	struct sigaction sa;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	(void)sigismember(&set, SIGSEGV);
	pthread_sigmask(SIG_BLOCK, NULL, &set);
	sigaction(SIGSEGV, NULL, &sa);
	raise(0); /* signal 0: only checks that it could be sent */
	sigfillset(&set);
	sched_yield();
	if (known_key_made)
		pthread_setspecific(known_key, pthread_getspecific(known_key));
	errno = errno;
}

/* Bind what the fault path calls, and find the end of the address space, while the stack is the
 * main thread's. */
__attribute__((constructor)) static void bind_at_load(void)
{
	pthread_once(&known_once, known_start);
	bind_now();
	hl__user_top();
}

/* ---- The handler ---- */

/* The handlers that were installed before ours: [0] SIGSEGV, [1] SIGBUS. */
static struct sigaction previous[2];

/*
 * Raised by the kernel for a memory access (not sent by kill/raise/sigqueue,
 * whose si_code is <= 0): the address in addr. A general-protection fault
 * (SIGSEGV with SI_KERNEL: on x86-64 an access to a non-canonical address)
 * carries no address; it is taken as ours if the instruction is one of our
 * loads or stores, and the fixup then finds the address byte by byte. The
 * armed entries refuse ranges outside the user address space before
 * touching them, so this only backs that check up.
 */
static bool access_fault(int sig, const siginfo_t *info, uintptr_t *addr)
{
	int code = info->si_code;

	*addr = (uintptr_t)info->si_addr;
	if (sig == SIGSEGV && code == SI_KERNEL) {
		*addr = HL_FAULT_ADDR_UNKNOWN;
		return true;
	}
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
		struct sigaction dfl = {.sa_handler = SIG_DFL};

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

/* The fixup path sets no errno: only pass_on's C library calls do. */
static void on_fault(int sig, siginfo_t *info, void *uc)
{
	uintptr_t addr;
	int saved_errno;

	if (access_fault(sig, info, &addr) && hl_arch_fault_fixup(uc, addr))
		return;
	saved_errno = errno;
	pass_on(sig, info, uc);
	errno = saved_errno;
}

/* ---- Installation, and who hears of it ---- */

static int install_errno;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static atomic_bool installed;

/* The functions to call once the handler is in (hl__fault_when_installed); under hooks_lock. */
struct hook {
	void (*fn)(void *arg);
	void *arg;
};
static struct hook hooks[HL_FAULT_HOOKS];
static unsigned int nr_hooks;
static bool hooks_called;
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;

void hl__fault_when_installed(void (*fn)(void *arg), void *arg)
{
	bool now;

	pthread_mutex_lock(&hooks_lock);
	now = hooks_called;
	if (!now && nr_hooks < HL_FAULT_HOOKS)
		hooks[nr_hooks++] = (struct hook){fn, arg};
	pthread_mutex_unlock(&hooks_lock);
	if (now)
		fn(arg);
}

/* The handler is in: mark it, and call each hook once (those registered later run at once). */
static void call_hooks(void)
{
	struct hook called[HL_FAULT_HOOKS];
	unsigned int n;

	pthread_mutex_lock(&hooks_lock);
	atomic_store_explicit(&installed, true, memory_order_release);
	hooks_called = true;
	n = nr_hooks;
	memcpy(called, hooks, sizeof(called));
	pthread_mutex_unlock(&hooks_lock);
	for (unsigned int i = 0; i < n; i++)
		called[i].fn(called[i].arg);
}

static void install(void)
{
	static const int signals[2] = {SIGSEGV, SIGBUS};
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
	pthread_once(&known_once, known_start); /* before any thread is known */
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
	call_hooks();
}

int hl__fault_install(void)
{
	pthread_once(&install_once, install);
	if (atomic_load_explicit(&installed, memory_order_acquire))
		return 0;
	errno = install_errno;
	return -1;
}

int hl_try_zero_prepare(void)
{
	return hl__fault_install();
}
