// SPDX-License-Identifier: MIT
/*
 * test_try_zero.c - hl_try_zero where memory faults (include/hotline/zero.h),
 * in every variant this CPU runs and in the automatic plan.
 *
 * The contract, byte-exact: r = hl_try_zero(dst, n) is the number of bytes
 * not cleared; [dst, dst+n-r) is zero; dst+n-r is the first address whose
 * store faulted; nothing outside [dst, dst+n) is written.
 *
 * In this process (hotline's handler installed in main, on top of
 * fault_report, which names any fault hotline passes on):
 *  - a buffer ending at a PROT_NONE page, and one ending at a read-only page
 *    that holds a pattern: every distance 0..130 from dst to the page and
 *    every length 0..300 (at HOTLINE_TEST_SCALE=N > 1, every length to 15,
 *    then every sweep_step()-th and 300: support/scale.h);
 *  - faults deep inside calls of every size class of the plan, and a
 *    PROT_NONE page in the middle of a 1 MiB buffer;
 *  - a MAP_SHARED file mapping that reaches past the end of the file: the
 *    page holding EOF can be stored to, pages wholly beyond raise SIGBUS;
 *  - a fault handled on an alternate signal stack.
 * In re-executed children, the handler's manners: stray faults (a NULL or
 * read-only store, hl_zero, a load or store beyond EOF, raise/kill) still kill
 * with the right signal; a handler installed before hotline's gets them, with
 * its si_addr and mask; one installed after that chains to hotline keeps
 * hl_try_zero working; hl_try_zero_prepare is idempotent; where sigaction is
 * refused (by a seccomp filter or, under qemu-user, which has no seccomp, by
 * this program's own sigaction()), prepare fails and hl_try_zero returns n;
 * and hl_try_zero inside a timer signal's handler, interrupting a faulting
 * hl_try_zero.
 *
 * hl_try_copy and hl_try_load64 share the handler (include/hotline/copy.h):
 * the children also run in copy mode (scenario "copy:NAME", HOTLINE_COPY
 * naming the variant), where every handled fault is hl_try_copy's, on the
 * source side and on the destination side, and hl_try_load64's: the same
 * stray faults must still kill, the same handlers get them or chain, a
 * refused sigaction makes hl_try_copy return n and hl_try_load64 false, and
 * hl_try_copy in a timer signal's handler interrupts a faulting
 * hl_try_copy. A store to hl_try_load64's *out is not covered: it kills.
 *
 * Sanitizers: children that must die of a signal run with the sanitizer's
 * own SIGSEGV/SIGBUS handlers off (see children_without_sanitizer_fault_handlers
 * in support/sanitizer.h); under ASan one more child keeps ASan's handler and checks
 * that hotline passes a stray fault on to it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/fault_grid.h"
#include "support/faults.h"
#include "support/guarded.h"
#include "support/pattern.h"
#include "support/run_tests.h"
#include "support/sanitizer.h"
#include "support/scale.h"
#include "support/threads.h"
#include "support/variants.h"
#include "support/watchdog.h"

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "../src/plan.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The plan in force, as the fault grids ask for it. */
static void zero_plan(struct hl_size_plan *p)
{
	hl__zero_plan_in_force(p, NULL);
}

/* hl_try_zero as the fault grids call it (support/fault_grid.h). */
static const struct fault_api api = FAULT_API_TRY_ZERO(zero_plan);

/* The grids' states (support/fault_grid.h): only the destination can fault. */
static struct fault_grid_test grid = {.api = &api};
static struct fault_grid_test prot_none = {&api, FAULT_DST_HOLE, PROT_NONE};
static struct fault_grid_test read_only = {&api, FAULT_DST_HOLE, PROT_READ};

/*
 * The mapping of support/guarded.h's map_beyond_eof, its file truncated
 * after mapping: stores up to the end of page 2, which holds EOF, succeed;
 * page 3 raises SIGBUS (fault_grid_beyond_eof).
 */
static void file_truncated_under_a_mapping_clears_up_to_the_page_holding_eof(void **state)
{
	size_t page = page_size();
	unsigned char *map;
	int fd;

	(void)state;
	fault_handlers_restore();
	map = map_beyond_eof(&fd);
	assert_int_equal(ftruncate(fd, (off_t)(3 * page)), 0);
	fill_pattern(map, 3 * page, 0);
	assert_int_equal(msync(map, 3 * page, MS_SYNC), 0);
	assert_int_equal(ftruncate(fd, (off_t)(page + page / 2)), 0);
	fault_grid_beyond_eof(&api, fd, map);
	munmap(map, 3 * page);
	close(fd);
}

static void prepare_returns_0_every_time(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		if (hl_try_zero_prepare() != 0)
			fail_msg("hl_try_zero_prepare() call %d returned -1 (%s), expected 0",
				 i + 2, strerror(errno));
}

/* ---- Children: how the handler treats faults that are not its own ---- */

/* Exit codes of the children; the handlers installed before hotline's use 40..49. */
enum child_exit {
	CHILD_OK = 0,
	CHILD_SURVIVED = 20,	   /* the stray access did not end the process */
	CHILD_TRY_WRONG = 21,	   /* hl_try_zero returned the wrong count */
	CHILD_PREPARE_FAILED = 22, /* hl_try_zero_prepare() != 0 */
	CHILD_BAD_SCENARIO = 23,
	CHILD_NOT_INSTALLED = 24,     /* no SA_SIGINFO | SA_ONSTACK handler after prepare */
	CHILD_REINSTALLED = 25,	      /* a second prepare or hl_try_zero replaced it */
	CHILD_LATER_NOT_CALLED = 26,  /* the later handler never saw hl_try_zero's fault */
	CHILD_NOT_NESTED = 27,	      /* the timer never interrupted an hl_try_zero */
	CHILD_NO_SECCOMP = 28,	      /* the seccomp filter could not be installed */
	CHILD_PREPARE_SUCCEEDED = 29, /* prepare returned 0 though sigaction was refused */
	CHILD_WRONG_ERRNO = 30,	      /* ... or -1 without sigaction's errno (EPERM) */
	CHILD_CLEARED_ANYWAY = 31,    /* hl_try_zero did not return n, or wrote */
	CHILD_HL_ZERO_FAILED = 32,    /* hl_zero did not clear without the handler */
	PRIOR_OK = 42,		      /* the earlier handler got the stray fault */
	PRIOR_WRONG_SIGNAL = 43,
	PRIOR_WRONG_ADDR = 44,
	PRIOR_WRONG_CODE = 45,
	PRIOR_MASK_NOT_APPLIED = 46, /* its sa_mask (SIGUSR1) was not blocked while it ran */
};

static const char *exit_meaning(int code)
{
	switch (code) {
	case CHILD_OK: return "all went as expected";
	case CHILD_SURVIVED: return "the stray access did not end the process";
	case CHILD_TRY_WRONG: return "hl_try_zero returned a wrong count";
	case CHILD_PREPARE_FAILED: return "hl_try_zero_prepare() failed";
	case CHILD_BAD_SCENARIO: return "unknown scenario";
	case CHILD_NOT_INSTALLED: return "no SA_SIGINFO|SA_ONSTACK handler installed";
	case CHILD_REINSTALLED: return "prepare or hl_try_zero replaced the handler again";
	case CHILD_LATER_NOT_CALLED: return "the later handler never saw hl_try_zero's fault";
	case CHILD_NOT_NESTED: return "no timer signal arrived inside hl_try_zero";
	case CHILD_NO_SECCOMP: return "the seccomp filter could not be installed";
	case CHILD_PREPARE_SUCCEEDED: return "hl_try_zero_prepare() returned 0";
	case CHILD_WRONG_ERRNO: return "hl_try_zero_prepare() failed without errno EPERM";
	case CHILD_CLEARED_ANYWAY: return "hl_try_zero did not return n untouched";
	case CHILD_HL_ZERO_FAILED: return "hl_zero did not clear";
	case PRIOR_OK: return "the earlier handler got the fault";
	case PRIOR_WRONG_SIGNAL: return "the earlier handler got the wrong signal";
	case PRIOR_WRONG_ADDR: return "the earlier handler got the wrong si_addr";
	case PRIOR_WRONG_CODE:
		return "the earlier handler got the wrong si_code, or hl_try_zero's own fault";
	case PRIOR_MASK_NOT_APPLIED: return "the earlier handler ran without its sa_mask";
	case 255: return "a test helper failed (see stderr)";
	case 127: return "exec failed";
	}
	return "?";
}

/* What the earlier handler expects: set before the stray access. */
static volatile int prior_sig;
static void *volatile prior_addr;
static volatile int prior_code;
static char *volatile null_ptr;

static bool prior_mask_applied(void)
{
	sigset_t now;

	pthread_sigmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, SIGUSR1);
}

static void prior_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig != prior_sig)
		_exit(PRIOR_WRONG_SIGNAL);
	if (si->si_code != prior_code)
		_exit(PRIOR_WRONG_CODE);
	if (si->si_code > 0 && si->si_addr != prior_addr)
		_exit(PRIOR_WRONG_ADDR);
	_exit(prior_mask_applied() ? PRIOR_OK : PRIOR_MASK_NOT_APPLIED);
}

static void prior_plain(int sig)
{
	if (sig != prior_sig)
		_exit(PRIOR_WRONG_SIGNAL);
	_exit(prior_mask_applied() ? PRIOR_OK : PRIOR_MASK_NOT_APPLIED);
}

static void install_prior(int sig, bool siginfo)
{
	struct sigaction sa = {0};

	if (siginfo) {
		sa.sa_sigaction = prior_siginfo;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = prior_plain;
	}
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sigaction(sig, &sa, NULL);
}

/* A later handler, installed after hotline's, that passes everything on as it should. */
static struct sigaction later_old;
static volatile int later_calls;

static void later_handler(int sig, siginfo_t *si, void *uc)
{
	later_calls++;
	if (later_old.sa_flags & SA_SIGINFO)
		later_old.sa_sigaction(sig, si, uc);
	else if (later_old.sa_handler != SIG_DFL && later_old.sa_handler != SIG_IGN)
		later_old.sa_handler(sig);
	else
		signal(sig, SIG_DFL); /* return: the fault repeats, now fatal */
}

/* Plain accesses of application code, with no sanitizer check in front of them. */
__attribute__((noinline, no_sanitize("address", "undefined"))) static void stray_store(char *p)
{
	*(volatile char *)p = 1;
}

__attribute__((noinline, no_sanitize("address", "undefined"))) static char stray_load(const char *p)
{
	return *(const volatile char *)p;
}

/* Copy mode ("copy:" scenarios): the children's handled faults are hl_try_copy's and
 * hl_try_load64's. */
static bool copy_mode;

/*
 * hl_try_zero across an edge, in a child: the count must be exact. In copy
 * mode, hl_try_copy with the edge at the destination's end and, for
 * PROT_NONE, at the source's, and hl_try_load64 of the PROT_NONE page.
 */
static void child_try(int prot)
{
	size_t len = page_size();
	unsigned char *buf = map_guarded(len, prot), other[64];
	uint64_t word = 0;

	if (!copy_mode) {
		if (hl_try_zero(buf + len - 8, 64) != 56)
			_exit(CHILD_TRY_WRONG);
	} else {
		if (hl_try_copy(buf + len - 8, other, 64) != 56)
			_exit(CHILD_TRY_WRONG);
		if (prot == PROT_NONE && (hl_try_copy(other, buf + len - 8, 64) != 56 ||
					  hl_try_load64(buf + len, &word) || word != 0))
			_exit(CHILD_TRY_WRONG);
	}
	unmap_guarded(buf, len);
}

static char *read_only_page(void)
{
	size_t len = page_size();
	unsigned char *p = map_guarded(len, PROT_READ);

	return (char *)p + len;
}

static bool handler_installed(int sig, struct sigaction *sa)
{
	sigaction(sig, NULL, sa);
	return (sa->sa_flags & (SA_SIGINFO | SA_ONSTACK)) == (SA_SIGINFO | SA_ONSTACK) &&
	       sa->sa_sigaction != NULL;
}

/* Timer signals, each running a faulting hl_try_zero, while the main loop runs big ones. */
static unsigned char *inner_buf, inner_src[200];
static volatile int in_outer;
static volatile long inner_calls, nested_calls, inner_wrong;

static void inner_clear(int sig)
{
	size_t len = page_size();

	(void)sig;
	inner_calls++;
	nested_calls += in_outer;
	if (copy_mode ? hl_try_copy(inner_buf + len - 13, inner_src, 200) != 187
		      : hl_try_zero(inner_buf + len - 13, 200) != 187)
		inner_wrong++;
}

static int child_nested(void)
{
	struct sigaction sa = {.sa_handler = inner_clear};
	struct sigevent sev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1};
	/*
	 * Every 200 us: often enough to land inside the outer call many times,
	 * rare enough that a loaded VM under ASan (a signal and a fault per
	 * tick) cannot spend the whole period in handlers and starve the loop.
	 */
	struct itimerspec its = {{0, 200000}, {0, 200000}};
	size_t len = 4 << 20;
	unsigned char *buf = map_guarded(len, PROT_NONE), *other = NULL;
	double end = now() + 0.2;
	timer_t timer;
	long outer = 0;

	inner_buf = map_guarded(page_size(), PROT_NONE);
	/*
	 * hl_try_zero is async-signal-safe once its handler is installed (zero.h):
	 * install it before the first tick, which could otherwise interrupt the
	 * installation by the outer call and wait for it forever (seen under qemu,
	 * where installing takes longer than the period).
	 */
	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	/*
	 * hl_try_copy makes its own choice on its first call, under a lock:
	 * that first call too must come before the first tick.
	 */
	if (copy_mode) {
		other = map_guarded(len, PROT_READ);
		if (hl_try_copy(inner_src, other, sizeof(inner_src)) != 0)
			return CHILD_TRY_WRONG;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) || timer_settime(timer, 0, &its, NULL))
		return CHILD_BAD_SCENARIO;
	while (now() < end || (nested_calls < 20 && now() < end + 5)) {
		size_t r;

		in_outer = 1;
		if (!copy_mode)
			r = hl_try_zero(buf + 100, len);
		else if (outer % 2)
			r = hl_try_copy(buf + 100, other, len);
		else
			r = hl_try_copy(other, buf + 100, len);
		in_outer = 0;
		outer++;
		if (r != 100)
			return CHILD_TRY_WRONG;
	}
	timer_delete(timer);
	printf("outer %ld, inner %ld, inner inside outer %ld, inner wrong %ld\n", outer,
	       inner_calls, nested_calls, inner_wrong);
	fflush(stdout);
	if (inner_wrong)
		return CHILD_TRY_WRONG;
	return nested_calls ? CHILD_OK : CHILD_NOT_NESTED;
}

/*
 * Make every rt_sigaction that installs a handler (new action not NULL) fail
 * with EPERM, as a sandbox might; queries still work. args[1] is read as two
 * little-endian 32-bit halves.
 */
static int refuse_sigaction(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigaction, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1]) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/*
 * Where a seccomp filter cannot be installed (qemu-user does not offer
 * seccomp to the programs it runs), the refusal is made at the C library's
 * boundary instead: this program's own sigaction(), to which hotline's calls
 * bind (libhotline.a is linked in), refuses to install a handler once
 * refuse_installs is set, and otherwise passes every call on to the next
 * definition (the C library's, or a sanitizer's interceptor).
 */
static volatile sig_atomic_t refuse_installs;

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*next)(int, const struct sigaction *, struct sigaction *);

	if (act && refuse_installs) {
		errno = EPERM;
		return -1;
	}
	if (!next)
		next = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
			RTLD_NEXT, "sigaction");
	return next(sig, act, old);
}

static int child_sigaction_refused(void)
{
	unsigned char buf[100];

	if (refuse_sigaction()) {
		if (errno != EINVAL) /* seccomp exists but refused us: a real failure */
			return CHILD_NO_SECCOMP;
		refuse_installs = 1;
	}
	errno = 0;
	if (hl_try_zero_prepare() != -1)
		return CHILD_PREPARE_SUCCEEDED;
	if (errno != EPERM)
		return CHILD_WRONG_ERRNO;
	memset(buf, 0x5a, sizeof(buf));
	if (copy_mode) {
		unsigned char src[80] = {1};

		if (hl_try_copy(buf + 10, src, 80) != 80)
			return CHILD_CLEARED_ANYWAY;
		for (size_t i = 0; i < sizeof(buf); i++)
			if (buf[i] != 0x5a)
				return CHILD_CLEARED_ANYWAY;
		return CHILD_OK;
	}
	if (hl_try_zero(buf + 10, 80) != 80)
		return CHILD_CLEARED_ANYWAY;
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i] != 0x5a)
			return CHILD_CLEARED_ANYWAY;
	hl_zero(buf + 10, 80);
	for (size_t i = 0; i < sizeof(buf); i++)
		if (buf[i] != (i >= 10 && i < 90 ? 0 : 0x5a))
			return CHILD_HL_ZERO_FAILED;
	return CHILD_OK;
}

/*
 * The children's scenarios, one function each, chosen by name in child_main.
 * Those that end in a stray access return CHILD_SURVIVED if it did not end
 * the process.
 */
static int child_null_store_after_prepare(void)
{
	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	stray_store(null_ptr);
	return CHILD_SURVIVED;
}

static int child_null_store_after_first_use(void)
{
	char buf[64], src[64] = {1};

	if (copy_mode ? hl_try_copy(buf, src, sizeof(buf)) : hl_try_zero(buf, sizeof(buf)))
		return CHILD_TRY_WRONG;
	stray_store(null_ptr);
	return CHILD_SURVIVED;
}

static int child_load64_store_to_read_only_out(void)
{
	uint64_t word = 1;

	/* copy.h: *out must be valid; a fault storing to it is not caught */
	child_try(PROT_NONE);
	hl_try_load64(&word, (uint64_t *)(void *)(read_only_page() + 8));
	return CHILD_SURVIVED;
}

static int child_null_store_after_a_handled_fault(void)
{
	child_try(PROT_NONE);
	stray_store(null_ptr);
	return CHILD_SURVIVED;
}

static int child_read_only_store_after_a_handled_fault(void)
{
	child_try(PROT_READ);
	stray_store(read_only_page() + 5);
	return CHILD_SURVIVED;
}

static int child_hl_zero_on_read_only_after_a_handled_fault(void)
{
	child_try(PROT_READ);
	hl_zero(read_only_page() - 100, 300);
	return CHILD_SURVIVED;
}

static int child_store_beyond_eof_after_a_handled_fault(void)
{
	int fd;

	child_try(PROT_NONE);
	stray_store((char *)map_beyond_eof(&fd) + 2 * page_size() + 5);
	return CHILD_SURVIVED;
}

static int child_load_beyond_eof_after_a_handled_fault(void)
{
	int fd;

	child_try(PROT_NONE);
	stray_load((char *)map_beyond_eof(&fd) + 2 * page_size() + 5);
	return CHILD_SURVIVED;
}

static int child_raise_segv_after_prepare(void)
{
	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	raise(SIGSEGV);
	return CHILD_SURVIVED;
}

static int child_kill_bus_after_prepare(void)
{
	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	kill(getpid(), SIGBUS);
	return CHILD_SURVIVED;
}

static int child_sig_ign_before_then_null_store(void)
{
	signal(SIGSEGV, SIG_IGN);
	child_try(PROT_NONE);
	stray_store(null_ptr);
	return CHILD_SURVIVED;
}

/* The stray fault that a handler installed before hotline's must get. */
enum prior_stray {
	STRAY_READ_ONLY_STORE, /* SIGSEGV, SEGV_ACCERR */
	STRAY_BEYOND_EOF,      /* SIGBUS, BUS_ADRERR */
	STRAY_RAISE,	       /* SIGSEGV, SI_TKILL */
};

/* prior-{siginfo,plain}-{segv,bus,raise}: installed first, then hotline's */
static int child_prior(bool siginfo, enum prior_stray stray)
{
	char *p;
	int fd;

	prior_sig = stray == STRAY_BEYOND_EOF ? SIGBUS : SIGSEGV;
	install_prior(prior_sig, siginfo);
	if (hl_try_zero_prepare() || hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	child_try(PROT_NONE);
	child_try(PROT_READ);
	if (stray == STRAY_BEYOND_EOF) {
		p = (char *)map_beyond_eof(&fd) + 2 * page_size() + 5;
		prior_addr = p;
		prior_code = BUS_ADRERR;
		stray_store(p);
	} else if (stray == STRAY_RAISE) {
		prior_code = SI_TKILL;
		raise(SIGSEGV);
	} else {
		p = read_only_page() + 5;
		prior_addr = p;
		prior_code = SEGV_ACCERR;
		stray_store(p);
	}
	return CHILD_SURVIVED;
}

static int child_prior_siginfo_segv(void)
{
	return child_prior(true, STRAY_READ_ONLY_STORE);
}

static int child_prior_siginfo_bus(void)
{
	return child_prior(true, STRAY_BEYOND_EOF);
}

static int child_prior_siginfo_raise(void)
{
	return child_prior(true, STRAY_RAISE);
}

static int child_prior_plain_segv(void)
{
	return child_prior(false, STRAY_READ_ONLY_STORE);
}

static int child_prior_plain_bus(void)
{
	return child_prior(false, STRAY_BEYOND_EOF);
}

static int child_prior_plain_raise(void)
{
	return child_prior(false, STRAY_RAISE);
}

static int child_later_handler_chains_to_hotline(void)
{
	struct sigaction sa = {.sa_sigaction = later_handler, .sa_flags = SA_SIGINFO};

	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &later_old);
	child_try(PROT_NONE);
	child_try(PROT_READ);
	if (!later_calls)
		return CHILD_LATER_NOT_CALLED;
	stray_store(null_ptr);
	return CHILD_SURVIVED;
}

static int child_prepare_twice_and_use_keep_one_handler(void)
{
	struct sigaction first, again;

	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	if (!handler_installed(SIGSEGV, &first) || !handler_installed(SIGBUS, &again))
		return CHILD_NOT_INSTALLED;
	if (hl_try_zero_prepare())
		return CHILD_PREPARE_FAILED;
	child_try(PROT_NONE);
	if (!handler_installed(SIGSEGV, &again) || again.sa_sigaction != first.sa_sigaction)
		return CHILD_REINSTALLED;
	return CHILD_OK;
}

static int child_first_use_installs_the_handler(void)
{
	struct sigaction first, again;

	child_try(PROT_NONE);
	child_try(PROT_READ);
	if (!handler_installed(SIGSEGV, &first) || !handler_installed(SIGBUS, &again))
		return CHILD_NOT_INSTALLED;
	return CHILD_OK;
}

/* The scenarios by name; "copy:NAME" runs NAME in copy mode. */
static const struct child_scenario {
	const char *name;
	int (*run)(void);
} child_scenarios[] = {
	{"null-store-after-prepare", child_null_store_after_prepare},
	{"null-store-after-first-use", child_null_store_after_first_use},
	{"load64-store-to-read-only-out", child_load64_store_to_read_only_out},
	{"null-store-after-a-handled-fault", child_null_store_after_a_handled_fault},
	{"read-only-store-after-a-handled-fault", child_read_only_store_after_a_handled_fault},
	{"hl_zero-on-read-only-after-a-handled-fault",
	 child_hl_zero_on_read_only_after_a_handled_fault},
	{"store-beyond-eof-after-a-handled-fault", child_store_beyond_eof_after_a_handled_fault},
	{"load-beyond-eof-after-a-handled-fault", child_load_beyond_eof_after_a_handled_fault},
	{"raise-segv-after-prepare", child_raise_segv_after_prepare},
	{"kill-bus-after-prepare", child_kill_bus_after_prepare},
	{"sig_ign-before-then-null-store", child_sig_ign_before_then_null_store},
	{"prior-siginfo-segv", child_prior_siginfo_segv},
	{"prior-siginfo-bus", child_prior_siginfo_bus},
	{"prior-siginfo-raise", child_prior_siginfo_raise},
	{"prior-plain-segv", child_prior_plain_segv},
	{"prior-plain-bus", child_prior_plain_bus},
	{"prior-plain-raise", child_prior_plain_raise},
	{"later-handler-chains-to-hotline", child_later_handler_chains_to_hotline},
	{"prepare-twice-and-use-keep-one-handler", child_prepare_twice_and_use_keep_one_handler},
	{"first-use-installs-the-handler", child_first_use_installs_the_handler},
	{"sigaction-refused", child_sigaction_refused},
	{"nested", child_nested},
};

static int child_main(const char *scenario)
{
	alarm(20);
	if (!strncmp(scenario, "copy:", 5)) {
		copy_mode = true;
		scenario += 5;
	}
	for (size_t i = 0; i < N_OF(child_scenarios); i++)
		if (!strcmp(scenario, child_scenarios[i].name))
			return child_scenarios[i].run();
	return CHILD_BAD_SCENARIO;
}

/* The variable that names the child's variant: HOTLINE_COPY for "copy:" scenarios. */
static const char *variant_env(const char *scenario)
{
	return strncmp(scenario, "copy:", 5) ? "HOTLINE_ZERO" : "HOTLINE_COPY";
}

/* Run a child with HOTLINE_ZERO (or _COPY)=variant (unset if NULL); its waitpid status. */
static int run_child(const char *scenario, const char *variant, char *out, size_t out_size,
		     char *err, size_t err_size)
{
	int status = run_self_child(scenario, variant_env(scenario), variant, out, out_size, err,
				    err_size);

	print_message("child '%s' (%s=%s): stderr '%s'\n", scenario, variant_env(scenario),
		      variant ? variant : "(unset)", err);
	return status;
}

static void expect_killed_by(const char *scenario, const char *variant, int sig)
{
	char err[4096], how[128];
	int status = run_child(scenario, variant, NULL, 0, err, sizeof(err));

	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
		fail_msg("child '%s' (%s=%s) %s (%s), expected it to be killed by "
			 "signal %d (%s); stderr: '%s'",
			 scenario, variant_env(scenario), variant ? variant : "(unset)",
			 describe_status(status, how, sizeof(how)),
			 WIFEXITED(status) ? exit_meaning(WEXITSTATUS(status)) : "-", sig,
			 strsignal(sig), err);
}

static void expect_exit(const char *scenario, const char *variant, int code)
{
	char err[4096], how[128];
	int status = run_child(scenario, variant, NULL, 0, err, sizeof(err));

	if (!WIFEXITED(status) || WEXITSTATUS(status) != code)
		fail_msg("child '%s' (%s=%s) %s (%s), expected exit %d (%s); stderr: "
			 "'%s'",
			 scenario, variant_env(scenario), variant ? variant : "(unset)",
			 describe_status(status, how, sizeof(how)),
			 WIFEXITED(status) ? exit_meaning(WEXITSTATUS(status)) : "-", code,
			 exit_meaning(code), err);
}

static void stray_null_store_still_dies_of_sigsegv(void **state)
{
	(void)state;
	expect_killed_by("null-store-after-prepare", NULL, SIGSEGV);
	expect_killed_by("null-store-after-first-use", NULL, SIGSEGV);
	expect_killed_by("null-store-after-a-handled-fault", NULL, SIGSEGV);
}

static void store_to_read_only_page_plain_or_by_hl_zero_dies_of_sigsegv(void **state)
{
	(void)state;
	expect_killed_by("read-only-store-after-a-handled-fault", NULL, SIGSEGV);
	for (int s = 0; s < zeroing.n; s++)
		expect_killed_by("hl_zero-on-read-only-after-a-handled-fault", zeroing.name[s],
				 SIGSEGV);
}

static void plain_load_or_store_beyond_eof_dies_of_sigbus(void **state)
{
	(void)state;
	expect_killed_by("store-beyond-eof-after-a-handled-fault", NULL, SIGBUS);
	expect_killed_by("load-beyond-eof-after-a-handled-fault", NULL, SIGBUS);
}

static void user_sent_sigsegv_or_sigbus_kills_as_without_hotline(void **state)
{
	(void)state;
	expect_killed_by("raise-segv-after-prepare", NULL, SIGSEGV);
	expect_killed_by("kill-bus-after-prepare", NULL, SIGBUS);
}

static void stray_fault_with_sigsegv_ignored_before_still_dies_of_sigsegv(void **state)
{
	(void)state;
	/* The kernel forces the default action on a fault whose signal is ignored. */
	expect_killed_by("sig_ign-before-then-null-store", NULL, SIGSEGV);
}

static void handler_installed_before_gets_stray_faults_with_address_and_mask(void **state)
{
	static const char *const scenarios[] = {
		"prior-siginfo-segv", "prior-siginfo-bus", "prior-siginfo-raise",
		"prior-plain-segv",   "prior-plain-bus",   "prior-plain-raise",
	};

	(void)state;
	for (size_t i = 0; i < N_OF(scenarios); i++)
		expect_exit(scenarios[i], NULL, PRIOR_OK);
}

static void handler_installed_after_that_chains_keeps_try_zero_working(void **state)
{
	(void)state;
	expect_killed_by("later-handler-chains-to-hotline", NULL, SIGSEGV);
}

static void prepare_twice_then_use_leaves_one_siginfo_onstack_handler(void **state)
{
	(void)state;
	expect_exit("prepare-twice-and-use-keep-one-handler", NULL, CHILD_OK);
	expect_exit("first-use-installs-the-handler", NULL, CHILD_OK);
}

static void when_sigaction_is_refused_try_zero_returns_n_and_prepare_minus_1(void **state)
{
	(void)state;
	expect_exit("sigaction-refused", NULL, CHILD_OK);
}

static void expect_nested(const char *scenario, const char *const *variants, int n)
{
	char out[256], err[4096], how[128];

	for (int s = 0; s < n; s++) {
		int status = run_child(scenario, variants[s], out, sizeof(out), err, sizeof(err));

		print_message("%s: %s", variants[s], out);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_OK)
			fail_msg("%s: child '%s' %s (%s), expected exit 0; stdout '%s', "
				 "stderr '%s'",
				 variants[s], scenario, describe_status(status, how, sizeof(how)),
				 WIFEXITED(status) ? exit_meaning(WEXITSTATUS(status)) : "-", out,
				 err);
	}
}

static void try_zero_in_a_signal_handler_interrupting_try_zero_is_exact(void **state)
{
	(void)state;
	expect_nested("nested", zeroing.name, zeroing.n);
}

/* ---- The same manners for hl_try_copy and hl_try_load64 (copy mode) ---- */

static void copy_mode_stray_faults_still_kill_with_the_right_signal(void **state)
{
	(void)state;
	expect_killed_by("copy:null-store-after-first-use", NULL, SIGSEGV);
	for (int s = 0; s < copying.n; s++)
		expect_killed_by("copy:null-store-after-a-handled-fault", copying.name[s], SIGSEGV);
	expect_killed_by("copy:read-only-store-after-a-handled-fault", NULL, SIGSEGV);
	expect_killed_by("copy:store-beyond-eof-after-a-handled-fault", NULL, SIGBUS);
	expect_killed_by("copy:load-beyond-eof-after-a-handled-fault", NULL, SIGBUS);
	expect_killed_by("copy:sig_ign-before-then-null-store", NULL, SIGSEGV);
	expect_killed_by("copy:load64-store-to-read-only-out", NULL, SIGSEGV);
}

static void copy_mode_handler_before_gets_stray_faults_and_one_after_chains(void **state)
{
	static const char *const scenarios[] = {
		"copy:prior-siginfo-segv", "copy:prior-siginfo-bus", "copy:prior-siginfo-raise",
		"copy:prior-plain-segv",   "copy:prior-plain-bus",   "copy:prior-plain-raise",
	};

	(void)state;
	for (size_t i = 0; i < N_OF(scenarios); i++)
		expect_exit(scenarios[i], NULL, PRIOR_OK);
	expect_killed_by("copy:later-handler-chains-to-hotline", NULL, SIGSEGV);
	expect_exit("copy:first-use-installs-the-handler", NULL, CHILD_OK);
}

static void copy_mode_when_sigaction_is_refused_try_copy_returns_n(void **state)
{
	(void)state;
	expect_exit("copy:sigaction-refused", NULL, CHILD_OK);
}

static void try_copy_in_a_signal_handler_interrupting_try_copy_is_exact(void **state)
{
	(void)state;
	expect_nested("copy:nested", copying.name, copying.n);
}

/*
 * Under ASan, ASan's own SIGSEGV handler is installed at start-up, before
 * hotline's: a stray store must reach it (hotline passes it on), and ASan
 * reports the SEGV at the right address and aborts (abort_on_error=1, from
 * the Makefile) or exits 1. Without ASan there is no such handler to reach.
 */
static void asan_build_stray_store_reaches_asans_handler(void **state)
{
#ifdef ASAN_BUILD
	const char *opts = sanitizer_options_at_start("ASAN_OPTIONS");
	char err[8192], how[128], env[1100];
	int status;

	(void)state;
	snprintf(env, sizeof(env), "%s%shandle_segv=1:handle_sigbus=1", opts ? opts : "",
		 opts && *opts ? ":" : "");
	status = run_self_child("null-store-after-a-handled-fault", "ASAN_OPTIONS", env, NULL, 0,
				err, sizeof(err));
	if (!strstr(err, "AddressSanitizer: SEGV on unknown address 0x000000000000") ||
	    (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT) &&
	     !(WIFEXITED(status) && WEXITSTATUS(status) != 0)))
		fail_msg("ASan build, ASan's handler first: a NULL store %s, expected ASan's "
			 "report of a SEGV at 0x000000000000 and an abort or exit 1; stderr '%s'",
			 describe_status(status, how, sizeof(how)), err);
#else
	(void)state;
	print_message("not an ASan build: no sanitizer handler installed before hotline's\n");
	skip();
#endif
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prepare_returns_0_every_time),
		FAULT_GRID_TEST("edge_at_prot_none_every_distance_to_130_every_length_to_300_exact",
				fault_grid_edges_test, &prot_none),
		FAULT_GRID_TEST("edge_at_read_only_every_distance_to_130_every_length_to_300_exact",
				fault_grid_edges_test, &read_only),
		FAULT_GRID_TEST("faults_deep_inside_every_size_class_exact", fault_grid_deep_test,
				&grid),
		FAULT_GRID_TEST("hole_in_the_middle_of_1_mib_stops_exactly_at_it",
				fault_grid_hole_test, &grid),
		FAULT_GRID_TEST("mapping_beyond_eof_clears_up_to_the_page_holding_eof",
				fault_grid_beyond_eof_test, &grid),
		cmocka_unit_test(file_truncated_under_a_mapping_clears_up_to_the_page_holding_eof),
		FAULT_GRID_TEST("fault_on_an_alternate_signal_stack_is_exact_and_uses_that_stack",
				fault_grid_alt_stack_test, &grid),
		cmocka_unit_test(stray_null_store_still_dies_of_sigsegv),
		cmocka_unit_test(store_to_read_only_page_plain_or_by_hl_zero_dies_of_sigsegv),
		cmocka_unit_test(plain_load_or_store_beyond_eof_dies_of_sigbus),
		cmocka_unit_test(user_sent_sigsegv_or_sigbus_kills_as_without_hotline),
		cmocka_unit_test(stray_fault_with_sigsegv_ignored_before_still_dies_of_sigsegv),
		cmocka_unit_test(handler_installed_before_gets_stray_faults_with_address_and_mask),
		cmocka_unit_test(handler_installed_after_that_chains_keeps_try_zero_working),
		cmocka_unit_test(prepare_twice_then_use_leaves_one_siginfo_onstack_handler),
		cmocka_unit_test(when_sigaction_is_refused_try_zero_returns_n_and_prepare_minus_1),
		cmocka_unit_test(try_zero_in_a_signal_handler_interrupting_try_zero_is_exact),
		cmocka_unit_test(copy_mode_stray_faults_still_kill_with_the_right_signal),
		cmocka_unit_test(copy_mode_handler_before_gets_stray_faults_and_one_after_chains),
		cmocka_unit_test(copy_mode_when_sigaction_is_refused_try_copy_returns_n),
		cmocka_unit_test(try_copy_in_a_signal_handler_interrupting_try_copy_is_exact),
		cmocka_unit_test(asan_build_stray_store_reaches_asans_handler),
	};

	return RUN_TESTS(argc, argv, child_main, tests, subjects_setup, "test_try_zero", 280,
			 RUN_CHILDREN_PLAIN | RUN_FAULT_HANDLERS);
}
