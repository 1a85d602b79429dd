// SPDX-License-Identifier: MIT
/*
 * test_try_zero_threads.c - hl_try_zero's faults in several threads at once
 * (include/hotline/zero.h: the handler is thread-safe and acts only for a thread
 * that is inside hl_try_zero).
 *
 * In this process: three threads, each clearing its own buffer across the
 * edge of a PROT_NONE page at its own distances, all faulting at the same
 * time, in every variant and auto; the same while the main thread switches
 * variants under them; and each thread on its own alternate signal stack.
 * Workers only count (cmocka's assertions are not thread-safe); the main
 * thread asserts after joining. Their iterations are scaled() (support/scale.h).
 *
 * In re-executed children, faults that are not hl_try_zero's own while other
 * threads are inside it: a plain store by another thread, even at the very
 * address another thread's hl_try_zero faults on; hl_zero at that address;
 * SIGSEGV sent by pthread_kill, or queued with a forged si_addr, to a thread
 * inside hl_try_zero. Each must kill the process with SIGSEGV. And threads
 * racing into hl_try_zero_prepare() must install hotline's handler once, so
 * the handler installed before it still gets stray faults. The children
 * also run in copy mode ("copy:" scenarios, HOTLINE_COPY naming the
 * variant), where the other threads are inside hl_try_copy, whose
 * destination ends at the PROT_NONE page, instead.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"
#include "support/fault_threads.h"
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

#define N_THREADS 3

/* ---- Three threads faulting at once ---- */

struct worker {
	struct worker_counts counts; /* first: support/fault_threads.h */
	int id;
	unsigned char *buf; /* len bytes, then a PROT_NONE page */
	size_t len;
	long iters;
	pthread_barrier_t *start;
	atomic_bool *stop; /* if set, run until it is true instead of `iters` times */
	bool own_alt_stack;
	/* results */
	long wrong;
	size_t bad_d, bad_n, bad_r, bad_want;
	bool alt_stack_used;
};

/* One call: d bytes before the edge, n long; false (and the case noted) if not exact. */
static bool one_clear(struct worker *w, size_t d, size_t n)
{
	unsigned char *dst = w->buf + w->len - d;
	size_t want = n > d ? n - d : 0, r;

	memset(dst - 64, 0x5a, 64 + d);
	r = hl_try_zero(dst, n);
	if (r == want && first_nonzero(dst, n - r) == n - r && dst[-1] == 0x5a &&
	    (n >= d || dst[n] == 0x5a))
		return true;
	if (!w->wrong++) {
		w->bad_d = d;
		w->bad_n = n;
		w->bad_r = r;
		w->bad_want = want;
	}
	return false;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = 0x9e3779b9u * (unsigned int)(w->id + 1);
	unsigned char *alt = NULL;
	size_t alt_size = (size_t)sysconf(_SC_SIGSTKSZ);

	if (w->own_alt_stack) {
		stack_t ss = {.ss_size = alt_size};

		alt = malloc(alt_size);
		if (!alt)
			return NULL;
		memset(alt, 0xa5, alt_size);
		ss.ss_sp = alt;
		if (sigaltstack(&ss, NULL))
			return NULL;
	}
	pthread_barrier_wait(w->start);
	for (long i = 0; w->stop ? !atomic_load(w->stop) : i < w->iters; i++) {
		/* each thread its own distances: 0..40, 41..81, 82..122 */
		size_t d = (size_t)w->id * 41 + next_rand(&seed) % 41;
		size_t n = next_rand(&seed) % 300;

		one_clear(w, d, n);
		worker_count_call(&w->counts, &zero_variants, i);
	}
	if (alt) {
		stack_t off = {.ss_flags = SS_DISABLE};

		for (size_t i = 0; i < alt_size; i++)
			w->alt_stack_used |= alt[i] != 0xa5;
		sigaltstack(&off, NULL);
		free(alt);
	}
	return NULL;
}

static void setup_workers(struct worker *w, pthread_barrier_t *start, long iters, atomic_bool *stop,
			  bool alt)
{
	for (int i = 0; i < N_THREADS; i++) {
		w[i] = (struct worker){.id = i,
				       .len = page_size(),
				       .iters = iters,
				       .start = start,
				       .stop = stop,
				       .own_alt_stack = alt};
		w[i].buf = map_guarded(w[i].len, PROT_NONE);
	}
}

/* Each worker's own results (support/fault_threads.h checks its counts); its buffer unmapped. */
static void check_workers(void *workers, const char *what)
{
	struct worker *w = workers;

	for (int i = 0; i < N_THREADS; i++) {
		if (w[i].wrong)
			fail_msg("%s: thread %d got %ld of %ld results wrong; the first: "
				 "hl_try_zero(edge - %zu, %zu) returned %zu, expected %zu (or the "
				 "bytes around it were wrong)",
				 what, i, w[i].wrong, w[i].counts.done, w[i].bad_d, w[i].bad_n,
				 w[i].bad_r, w[i].bad_want);
		unmap_guarded(w[i].buf, w[i].len);
	}
}

static void run_workers(struct worker *w, pthread_barrier_t *start)
{
	pthread_t tids[N_THREADS];

	start_threads(tids, N_THREADS, worker_fn, w, sizeof(*w));
	pthread_barrier_wait(start);
	join_threads(tids, N_THREADS);
}

static void setup_clearers(void *w, pthread_barrier_t *start, long iters, atomic_bool *stop)
{
	setup_workers(w, start, iters, stop, false);
}

static struct worker workers[N_THREADS];
static const struct fault_workers clearers = {
	N_THREADS, workers, sizeof(workers[0]), worker_fn, setup_clearers, check_workers,
};

/* The two tests' cases (support/fault_threads.h): at once in each variant, and switching. */
static struct fault_workers_test at_once = {&zero_variants, &zeroing, &clearers,
					    "three threads clearing across PROT_NONE edges at once",
					    2000};
static struct fault_workers_test switching = {
	&zero_variants, &zeroing, &clearers,
	"three threads clearing across PROT_NONE edges while variants switch", 0};

static void three_threads_each_on_its_own_alternate_stack_get_exact_results(void **state)
{
	struct worker *w = workers;
	pthread_barrier_t start;

	(void)state;
	fault_handlers_restore();
	fault_note("three threads on alternate signal stacks clearing across PROT_NONE edges");
	pthread_barrier_init(&start, NULL, N_THREADS + 1);
	setup_workers(w, &start, scaled(500), NULL, true);
	run_workers(w, &start);
	for (int i = 0; i < N_THREADS; i++)
		if (!w[i].alt_stack_used && !w[i].wrong && w[i].counts.done)
			fail_msg("thread %d: faults resolved but its alternate signal stack is "
				 "untouched: the handler did not run on it",
				 i);
	fault_workers_check(&zero_variants, &clearers, "alternate stacks");
	pthread_barrier_destroy(&start);
}

/* ---- Children: faults that are not hl_try_zero's own, while threads are inside it ---- */

enum child_exit {
	CHILD_OK = 0,
	CHILD_SURVIVED = 20,  /* the stray fault or signal did not end the process */
	CHILD_TRY_WRONG = 21, /* a clearing thread got a wrong count */
	CHILD_BAD_SCENARIO = 23,
	CHILD_NO_PROGRESS = 24, /* the clearing thread did not get going */
	PRIOR_OK = 42,		/* the handler installed first got the stray fault */
	PRIOR_WRONG = 43,	/* ... but with the wrong signal or address */
};

static const char *exit_meaning(int code)
{
	switch (code) {
	case CHILD_OK: return "all went as expected";
	case CHILD_SURVIVED: return "the stray fault or signal did not end the process";
	case CHILD_TRY_WRONG: return "a clearing thread got a wrong count";
	case CHILD_BAD_SCENARIO: return "unknown scenario";
	case CHILD_NO_PROGRESS: return "the clearing thread made no progress";
	case PRIOR_OK: return "the earlier handler got the fault";
	case PRIOR_WRONG: return "the earlier handler got the wrong signal or address";
	case 255: return "a test helper failed (see stderr)";
	case 127: return "exec failed";
	}
	return "?";
}

/* Copy mode ("copy:" scenarios): the threads inside are copying, not clearing. */
static bool copy_mode;

/*
 * A thread clearing [buf + off, buf + off + n) again and again (in copy
 * mode, copying to it from src), until the process ends; buf is len bytes
 * followed by a PROT_NONE page.
 */
struct clearer {
	unsigned char *buf, *src; /* src: copy mode's source, len bytes */
	size_t len, off, n;
	atomic_long calls;
	pid_t tid;
};

static void *clearer_fn(void *arg)
{
	struct clearer *c = arg;
	size_t want = c->off + c->n > c->len ? c->off + c->n - c->len : 0;

	c->tid = (pid_t)gettid_();
	for (;;) {
		if ((copy_mode ? hl_try_copy(c->buf + c->off, c->src, c->n)
			       : hl_try_zero(c->buf + c->off, c->n)) != want)
			_exit(CHILD_TRY_WRONG);
		atomic_fetch_add(&c->calls, 1);
	}
	return NULL;
}

/*
 * Start n clearers over buffers of len bytes, return once each has made 10
 * calls. Faulting ones clear all but the last 8 * (i + 1) bytes and 64 bytes
 * beyond; the others clear all but the last page and never fault.
 */
static void start_clearers(struct clearer *c, int n, size_t len, bool faulting)
{
	pthread_t tid;

	for (int i = 0; i < n; i++) {
		c[i].len = len;
		c[i].buf = map_guarded(len, PROT_NONE);
		c[i].off = faulting ? len - 8 * (size_t)(i + 1) - page_size() : 0;
		c[i].n = faulting ? page_size() + 8 * (size_t)(i + 1) + 64 : len - page_size();
		c[i].src = copy_mode ? map_guarded(len, PROT_READ) : NULL;
		if (pthread_create(&tid, NULL, clearer_fn, &c[i]))
			_exit(CHILD_BAD_SCENARIO);
		pthread_detach(tid);
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; atomic_load(&c[i].calls) < 10; k++) {
			if (k > 10000)
				_exit(CHILD_NO_PROGRESS);
			usleep(1000);
		}
}

__attribute__((noinline, no_sanitize("address", "undefined"))) static void
stray_store(unsigned char *p)
{
	*(volatile unsigned char *)p = 1;
}

static volatile int prior_sig;
static void *volatile prior_addr;

static void prior_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	_exit(sig == prior_sig && si->si_code > 0 && si->si_addr == prior_addr ? PRIOR_OK
									       : PRIOR_WRONG);
}

static pthread_barrier_t prepare_start;

/* buf: 2 pages, then a PROT_NONE page */
static void *prepare_and_clear(void *arg)
{
	size_t len = 2 * page_size();
	unsigned char *buf = arg;

	pthread_barrier_wait(&prepare_start);
	if (hl_try_zero_prepare() || hl_try_zero(buf + len - 5, 50) != 45)
		_exit(CHILD_TRY_WRONG);
	return NULL;
}

static int child_main(const char *scenario)
{
	struct clearer c[2] = {0};
	size_t small = 2 * page_size(), big = 16 << 20;

	alarm(20);
	if (!strncmp(scenario, "copy:", 5)) {
		copy_mode = true;
		scenario += 5;
	}
	if (!strcmp(scenario, "store-by-another-thread-at-the-address-a-clearer-faults-on")) {
		start_clearers(c, 2, small, true);
		stray_store(c[0].buf + c[0].len);
	} else if (!strcmp(scenario, "store-by-another-thread-elsewhere")) {
		unsigned char *ro = map_guarded(small, PROT_READ);

		start_clearers(c, 2, small, true);
		stray_store(ro + small + 3);
	} else if (!strcmp(scenario, "hl_zero-by-another-thread-where-a-clearer-faults")) {
		start_clearers(c, 2, small, true);
		hl_zero(c[0].buf + c[0].off, c[0].n);
	} else if (!strcmp(scenario, "pthread_kill-sigsegv-to-a-thread-inside-try-zero")) {
		/*
		 * The target never faults: a SIGSEGV sent while its own fault's
		 * SIGSEGV is pending would be merged into that one by the kernel
		 * (standard signals do not queue), and never be seen.
		 */
		start_clearers(c, 1, big, false);
		syscall(SYS_tgkill, getpid(), c[0].tid, SIGSEGV);
		sleep(15); /* it kills the process at once; 15 s for a loaded machine */
	} else if (!strcmp(scenario, "queued-sigsegv-with-forged-address-to-a-clearer")) {
		siginfo_t si;

		/*
		 * si_code SI_QUEUE says a process sent it; si_addr is the last
		 * byte being cleared, so only si_code tells it from a fault.
		 */
		start_clearers(c, 1, big, false);
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGSEGV;
		si.si_code = SI_QUEUE;
		si.si_addr = c[0].buf + c[0].off + c[0].n - 1;
		if (syscall(SYS_rt_tgsigqueueinfo, getpid(), c[0].tid, SIGSEGV, &si))
			return CHILD_BAD_SCENARIO;
		sleep(15); /* as above */
	} else if (!strcmp(scenario, "threads-racing-into-prepare-keep-the-earlier-handler")) {
		struct sigaction sa = {.sa_sigaction = prior_siginfo, .sa_flags = SA_SIGINFO};
		unsigned char *ro = map_guarded(small, PROT_READ), *bufs[N_THREADS];
		pthread_t tids[N_THREADS];

		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, NULL);
		pthread_barrier_init(&prepare_start, NULL, N_THREADS);
		for (int i = 0; i < N_THREADS; i++) {
			bufs[i] = map_guarded(small, PROT_NONE);
			if (pthread_create(&tids[i], NULL, prepare_and_clear, bufs[i]))
				return CHILD_BAD_SCENARIO;
		}
		for (int i = 0; i < N_THREADS; i++)
			pthread_join(tids[i], NULL);
		prior_sig = SIGSEGV;
		prior_addr = ro + small + 3;
		stray_store(ro + small + 3);
	} else {
		return CHILD_BAD_SCENARIO;
	}
	return CHILD_SURVIVED;
}

static void expect_child(const char *scenario, const char *variant, int sig, int code)
{
	char err[4096], how[128];
	const char *env = strncmp(scenario, "copy:", 5) ? "HOTLINE_ZERO" : "HOTLINE_COPY";
	int status = run_self_child(scenario, env, variant, NULL, 0, err, sizeof(err));
	bool ok = sig ? WIFSIGNALED(status) && WTERMSIG(status) == sig
		      : WIFEXITED(status) && WEXITSTATUS(status) == code;

	print_message("child '%s' (%s=%s): stderr '%s'\n", scenario, env,
		      variant ? variant : "(unset)", err);
	if (!ok)
		fail_msg("child '%s' (%s=%s) %s (%s), expected %s %d (%s); stderr: '%s'", scenario,
			 env, variant ? variant : "(unset)",
			 describe_status(status, how, sizeof(how)),
			 WIFEXITED(status) ? exit_meaning(WEXITSTATUS(status)) : "-",
			 sig ? "to be killed by signal" : "exit", sig ? sig : code,
			 sig ? strsignal(sig) : exit_meaning(code), err);
}

static void store_by_a_thread_outside_try_zero_dies_while_others_are_inside(void **state)
{
	(void)state;
	expect_child("store-by-another-thread-at-the-address-a-clearer-faults-on", NULL, SIGSEGV,
		     0);
	expect_child("store-by-another-thread-elsewhere", NULL, SIGSEGV, 0);
}

static void hl_zero_where_another_threads_try_zero_faults_dies_of_sigsegv(void **state)
{
	(void)state;
	for (int s = 0; s < zeroing.n; s++)
		expect_child("hl_zero-by-another-thread-where-a-clearer-faults", zeroing.name[s],
			     SIGSEGV, 0);
}

/*
 * Also with rep_stosb forced where there is one: a thread interrupted in
 * rep stosb is always at an instruction of the exception table, with its
 * progress pointer below the forged address, so only si_code can save it.
 */
static void user_sent_sigsegv_to_a_thread_inside_try_zero_kills(void **state)
{
	const char *variants[] = {NULL, "rep_stosb"};

	(void)state;
	for (int i = 0; i < 2; i++) {
		if (variants[i] && !hl_zero_supported(variants[i]))
			continue;
		expect_child("pthread_kill-sigsegv-to-a-thread-inside-try-zero", variants[i],
			     SIGSEGV, 0);
		expect_child("queued-sigsegv-with-forged-address-to-a-clearer", variants[i],
			     SIGSEGV, 0);
	}
}

/* The same, with the other threads inside hl_try_copy: every copy variant where it matters. */
static void copy_mode_stray_faults_and_sent_sigsegv_kill_while_threads_copy(void **state)
{
	(void)state;
	expect_child("copy:store-by-another-thread-at-the-address-a-clearer-faults-on", NULL,
		     SIGSEGV, 0);
	expect_child("copy:store-by-another-thread-elsewhere", NULL, SIGSEGV, 0);
	for (int s = 0; s < copying.n; s++) {
		expect_child("copy:pthread_kill-sigsegv-to-a-thread-inside-try-zero",
			     copying.name[s], SIGSEGV, 0);
		expect_child("copy:queued-sigsegv-with-forged-address-to-a-clearer",
			     copying.name[s], SIGSEGV, 0);
	}
}

static void threads_racing_into_prepare_install_once_over_the_earlier_handler(void **state)
{
	(void)state;
	for (int i = 0; i < 10; i++)
		expect_child("threads-racing-into-prepare-keep-the-earlier-handler", NULL, 0,
			     PRIOR_OK);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		UNIT_TEST_WITH(three_threads_faulting_at_once_get_exact_results_in_every_variant,
			       fault_workers_each_variant, &at_once),
		UNIT_TEST_WITH(variant_switches_under_three_faulting_threads_leave_results_exact,
			       fault_workers_switching, &switching),
		cmocka_unit_test(three_threads_each_on_its_own_alternate_stack_get_exact_results),
		cmocka_unit_test(store_by_a_thread_outside_try_zero_dies_while_others_are_inside),
		cmocka_unit_test(hl_zero_where_another_threads_try_zero_faults_dies_of_sigsegv),
		cmocka_unit_test(user_sent_sigsegv_to_a_thread_inside_try_zero_kills),
		cmocka_unit_test(copy_mode_stray_faults_and_sent_sigsegv_kill_while_threads_copy),
		cmocka_unit_test(threads_racing_into_prepare_install_once_over_the_earlier_handler),
	};

	return RUN_TESTS(argc, argv, child_main, tests, subjects_setup, "test_try_zero_threads",
			 240, RUN_CHILDREN_PLAIN | RUN_FAULT_HANDLERS);
}
