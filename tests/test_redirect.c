// SPDX-License-Identifier: MIT
/*
 * test_redirect.c - the entries' redirects and their direct_max (src/arch/arch.h),
 * read from the library's own variables: a forced variant gets every size
 * but 0 (direct_max 0, the redirect set), and the automatic plan takes
 * its small sizes back (direct_max the architecture's, the redirect NULL)
 * or, where its code is not the entry's, leaves the redirect to every size.
 * The x86-64 entries compare n with direct_max before they load the
 * redirect: were it left above 0 under a forced variant, small calls would
 * run the automatic plan instead, and no result would show it.
 *
 * hl_try_copy's small calls have no direct_max: each thread's small top
 * (arch.h) is 0 while the redirect is set, and its top less the small
 * calls' size, plus 1, while it is NULL, in every thread the library
 * knows, not only in the one that forces a variant; a thread that exits,
 * or that a fork() left behind, is no longer known (its small top may be
 * gone with its stack).
 *
 * hl_try_zero's gate (arch.h) likewise: open (the end of user space) only
 * while the redirect is NULL, shut (0) while a variant is forced; and a
 * thread's pointer at it only once the thread is known not to block the
 * fault signals. x86-64's entry runs its own body for any call the gate
 * lets through: an open gate under a forced variant would run the
 * automatic plan instead, and no result would show that either.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hotline/copy.h>
#include <hotline/zero.h>

#include "support/faults.h"
#include "support/run_tests.h"
#include "support/threads.h"
#include "support/variants.h"

/* The library's (src/arch/arch.h, src/zero.c, src/copy.c). */
extern size_t (*hl__zero_redirect)(void *, size_t);
extern size_t (*hl__try_zero_redirect)(void *, size_t);
extern size_t (*hl__try_copy_redirect)(void *, const void *, size_t);
extern size_t hl__zero_redirect_direct_max, hl__try_zero_redirect_direct_max;
extern const size_t hl_arch_zero_direct_max, hl_arch_copy_direct_max;
extern uintptr_t hl__try_zero_open_top, hl__try_zero_top;
extern _Thread_local const uintptr_t *hl__try_zero_gate __attribute__((tls_model("initial-exec")));
struct tops {
	uintptr_t top, small_top;
};
extern _Thread_local struct tops hl__try_thread_tops __attribute__((tls_model("initial-exec")));

struct entry {
	const char *name;
	bool (*is_null)(void);
	size_t *direct_max;
	const size_t *arch_max;
};

static bool zero_null(void)
{
	return hl__zero_redirect == NULL;
}

static bool try_zero_null(void)
{
	return hl__try_zero_redirect == NULL;
}

static bool try_copy_null(void)
{
	return hl__try_copy_redirect == NULL;
}

static const struct entry zero_entries[] = {
	{"hl_zero", zero_null, &hl__zero_redirect_direct_max, &hl_arch_zero_direct_max},
	{"hl_try_zero", try_zero_null, &hl__try_zero_redirect_direct_max, &hl_arch_zero_direct_max},
};
static const struct entry copy_entry = {"hl_try_copy", try_copy_null, NULL, NULL};

/*
 * Another thread the library knows (it has copied), waiting while the
 * test forces variants in this one: its small top must follow too.
 */
static struct {
	pthread_t tid;
	struct tops *tops;
	pthread_barrier_t known, done;
} other;

static void *other_thread(void *arg)
{
	unsigned char a[8], b[8] = {1};

	(void)arg;
	hl_try_copy(a, b, sizeof(a));
	other.tops = &hl__try_thread_tops;
	pthread_barrier_wait(&other.known);
	pthread_barrier_wait(&other.done);
	return NULL;
}

static void other_start(void)
{
	barriers_init(2, &other.known, &other.done);
	start_threads(&other.tid, 1, other_thread, NULL, 0);
	pthread_barrier_wait(&other.known);
}

static void other_stop(void)
{
	pthread_barrier_wait(&other.done);
	join_threads(&other.tid, 1);
	barriers_destroy(&other.known, &other.done);
}

/* The small top t should have now: its top less the small calls' size, plus 1, if open. */
static uintptr_t small_top_wanted(const struct tops *t, bool open)
{
	uintptr_t top = __atomic_load_n(&t->top, __ATOMIC_RELAXED);

	if (!open || !hl_arch_copy_direct_max || top < hl_arch_copy_direct_max)
		return 0;
	return top - hl_arch_copy_direct_max + 1;
}

static void expect_small_top(const char *who, const struct tops *t, bool open, const char *when)
{
	uintptr_t got = __atomic_load_n(&t->small_top, __ATOMIC_RELAXED);
	uintptr_t want = small_top_wanted(t, open);

	if (got != want)
		fail_msg("hl_try_copy, %s, %s: small top %#jx, expected %#jx", when, who,
			 (uintmax_t)got, (uintmax_t)want);
}

/* Both threads' small tops: open exactly while the redirect is NULL. */
static void expect_small_tops(const char *when)
{
	bool open = try_copy_null();

	expect_small_top("this thread", &hl__try_thread_tops, open, when);
	if (other.tops)
		expect_small_top("the other thread", other.tops, open, when);
}

/* hl_try_zero's gate as its redirect has it: open (the end of user space) while NULL, else shut. */
static void expect_gate(const char *when)
{
	uintptr_t want = try_zero_null() ? hl__try_zero_top : 0;

	if (hl__try_zero_open_top != want)
		fail_msg("hl_try_zero, %s, redirect %s: gate %#jx, expected %#jx", when,
			 try_zero_null() ? "NULL" : "set", (uintmax_t)hl__try_zero_open_top,
			 (uintmax_t)want);
}

/* Forced: the redirect set and no size kept by the entry. */
static void expect_forced(const struct entry *e, const char *variant)
{
	if (e->is_null())
		fail_msg("%s with %s forced: its redirect is NULL", e->name, variant);
	if (e == &copy_entry)
		expect_small_tops("a variant forced");
	else if (*e->direct_max != 0)
		fail_msg("%s with %s forced: sizes up to %zu still skip the redirect", e->name,
			 variant, *e->direct_max);
	if (e->is_null == try_zero_null && hl__try_zero_open_top != 0)
		fail_msg("hl_try_zero with %s forced: its gate is open", variant);
}

/* Automatic: the entry's own body with its small sizes, or the redirect for all. */
static void expect_auto(const struct entry *e)
{
	size_t want;

	if (e == &copy_entry) {
		expect_small_tops("automatic plan");
		return;
	}
	want = e->is_null() ? *e->arch_max : 0;
	if (*e->direct_max != want)
		fail_msg("%s, automatic plan, redirect %s: direct_max %zu, expected %zu", e->name,
			 e->is_null() ? "NULL" : "set", *e->direct_max, want);
	if (e->is_null == try_zero_null)
		expect_gate("automatic plan");
}

/* A call of each entry, so that hl_try_zero's and hl_try_copy's handlers are in. */
static void call_each(void)
{
	unsigned char a[64], b[64] = {1};

	hl_zero(a, sizeof(a));
	assert_int_equal(hl_try_zero(a, sizeof(a)), 0);
	assert_int_equal(hl_try_copy(a, b, sizeof(a)), 0);
	assert_int_equal(a[0], 1);
}

/*
 * Each variant of the family api this CPU runs (support/variants.h), forced,
 * then "auto": the family's entries as expect_forced and expect_auto say.
 */
static void forced_then_auto(const struct variant_api *api, const struct entry *entries,
			     size_t n_entries)
{
	const char *subjects[64];
	int n = variant_subjects(api, subjects, 64);

	call_each();
	assert_true(n > 1); /* at least one variant, then "auto" */
	for (int i = 0; i + 1 < n; i++) {
		variant_use(api, subjects[i]);
		for (size_t k = 0; k < n_entries; k++)
			expect_forced(&entries[k], subjects[i]);
		variant_use(api, "auto");
		for (size_t k = 0; k < n_entries; k++)
			expect_auto(&entries[k]);
	}
}

static void forced_zero_variants_take_every_size_and_auto_takes_back_the_small(void **state)
{
	(void)state;
	forced_then_auto(&zero_variants, zero_entries,
			 sizeof(zero_entries) / sizeof(zero_entries[0]));
}

static void forced_copy_variants_take_every_size_and_auto_takes_back_the_small(void **state)
{
	(void)state;
	other_start();
	forced_then_auto(&copy_variants, &copy_entry, 1);
	other_stop();
	other.tops = NULL;
}

/* Where the automatic plan is the entries' own body, its small sizes skip the redirect. */
static void inline_plan_keeps_the_architectures_small_sizes(void **state)
{
	(void)state;
	call_each();
	assert_int_equal(hl_zero_use("auto"), 0);
	assert_int_equal(hl_copy_use("auto"), 0);
	if (zero_null())
		assert_int_equal(hl__zero_redirect_direct_max, hl_arch_zero_direct_max);
	if (try_copy_null())
		expect_small_tops("automatic plan");
	if (!zero_null() && !try_copy_null())
		skip(); /* neither plan is inline on this CPU: nothing to see */
}

/* What a thread's gate reads before and after its first hl_try_zero call, and what that returned.
 */
struct gate_seen {
	bool block;		 /* block SIGSEGV and SIGBUS in the thread first */
	uintptr_t before, after; /* *hl__try_zero_gate */
	const uintptr_t *points; /* hl__try_zero_gate after the call */
	size_t left;
	unsigned char buf[256];
};

static void *first_call(void *arg)
{
	struct gate_seen *g = arg;

	if (g->block)
		fault_signals_mask(SIG_BLOCK);
	g->before = *hl__try_zero_gate;
	memset(g->buf, 0xa5, sizeof(g->buf));
	g->left = hl_try_zero(g->buf, sizeof(g->buf));
	g->after = *hl__try_zero_gate;
	g->points = hl__try_zero_gate;
	return NULL;
}

static void run_first_call(struct gate_seen *g)
{
	pthread_t t;

	start_threads(&t, 1, first_call, g, 0);
	join_threads(&t, 1);
	assert_int_equal(g->left, 0);
	for (size_t i = 0; i < sizeof(g->buf); i++)
		if (g->buf[i])
			fail_msg("byte %zu not cleared", i);
}

/*
 * A new thread's gate is shut until its first call finds it does not block
 * the fault signals, then points at hl__try_zero_open_top; a thread that
 * blocks them keeps it shut (each of its calls unblocks them for itself on
 * the slow path) and is still cleared for.
 */
static void a_thread_passes_the_gate_once_known(void **state)
{
	struct gate_seen open = {.block = false}, blocked = {.block = true};

	(void)state;
	call_each();
	assert_int_equal(hl_zero_use("auto"), 0);
	run_first_call(&open);
	assert_int_equal(open.before, 0);
	assert_ptr_equal(open.points, &hl__try_zero_open_top);
	assert_int_equal(open.after, hl__try_zero_open_top);
	run_first_call(&blocked);
	assert_int_equal(blocked.before, 0);
	assert_int_equal(blocked.after, 0);
	assert_ptr_not_equal(blocked.points, &hl__try_zero_open_top);
	expect_gate("after the threads");
}

/* A thread's small top after its first copy, and that copy's result. */
struct copy_seen {
	bool block; /* block SIGSEGV and SIGBUS in the thread first */
	uintptr_t small_top, wanted;
	size_t left;
	unsigned char a[64], b[64];
};

static void *first_copy(void *arg)
{
	struct copy_seen *c = arg;

	if (c->block)
		fault_signals_mask(SIG_BLOCK);
	memset(c->b, 0x5a, sizeof(c->b));
	c->left = hl_try_copy(c->a, c->b, sizeof(c->a));
	c->small_top = hl__try_thread_tops.small_top;
	c->wanted = small_top_wanted(&hl__try_thread_tops, try_copy_null());
	return NULL;
}

/* The first variant this CPU runs, forced, then the automatic plan back. */
static void force_one_then_auto(void)
{
	const char *subjects[64];

	assert_true(variant_subjects(&copy_variants, subjects, 64) > 1);
	variant_use(&copy_variants, subjects[0]);
	variant_use(&copy_variants, "auto");
}

/*
 * A new thread's small top is open after its first copy (while the plan
 * is the entry's), and stays 0 in one that blocks the fault signals. A
 * thread that exits leaves the list: its stack, here one the test gave it
 * and unmaps after joining it, holds its small top, and forcing a
 * variant then would write to an unmapped page.
 */
static void a_thread_that_exits_is_forgotten(void **state)
{
	struct copy_seen open = {.block = false}, blocked = {.block = true};
	size_t size = 1 << 20;
	pthread_attr_t attr;
	pthread_t tid;
	void *stack;

	(void)state;
	call_each();
	assert_int_equal(hl_copy_use("auto"), 0);
	stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(stack != MAP_FAILED);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstack(&attr, stack, size), 0);
	assert_int_equal(pthread_create(&tid, &attr, first_copy, &open), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	pthread_attr_destroy(&attr);
	assert_int_equal(munmap(stack, size), 0);
	assert_int_equal(open.left, 0);
	assert_memory_equal(open.a, open.b, sizeof(open.a));
	assert_int_equal(open.small_top, open.wanted);

	start_threads(&tid, 1, first_copy, &blocked, 0);
	join_threads(&tid, 1);
	assert_int_equal(blocked.left, 0);
	assert_memory_equal(blocked.a, blocked.b, sizeof(blocked.a));
	assert_int_equal(blocked.small_top, 0);

	force_one_then_auto();
	expect_small_tops("after the threads exited");
}

/*
 * In a child of fork(), the threads of the parent are gone: only the one
 * that forked is known. The child unmaps the page of the other thread's
 * small top (still mapped in the child, as its whole stack), then forces a
 * variant and the automatic plan back: a list that kept the other thread
 * would write to that page and kill the child.
 */
static void a_child_of_fork_knows_only_itself(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	const char *subjects[64];
	int status;
	pid_t pid;

	(void)state;
	assert_true(variant_subjects(&copy_variants, subjects, 64) > 1);
	call_each();
	assert_int_equal(hl_copy_use("auto"), 0);
	other_start();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uintptr_t p = (uintptr_t)other.tops & ~(uintptr_t)(page - 1);

		if (munmap((void *)p, (size_t)page) != 0)
			_exit(3);
		if (hl_copy_use(subjects[0]) != 0)
			_exit(4);
		if (hl__try_thread_tops.small_top != 0)
			_exit(5);
		if (hl_copy_use("auto") != 0)
			_exit(6);
		if (hl__try_thread_tops.small_top !=
		    small_top_wanted(&hl__try_thread_tops, try_copy_null()))
			_exit(7);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	other_stop();
	other.tops = NULL;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("the child of fork(): %s %d", WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			forced_zero_variants_take_every_size_and_auto_takes_back_the_small),
		cmocka_unit_test(
			forced_copy_variants_take_every_size_and_auto_takes_back_the_small),
		cmocka_unit_test(inline_plan_keeps_the_architectures_small_sizes),
		cmocka_unit_test(a_thread_passes_the_gate_once_known),
		cmocka_unit_test(a_thread_that_exits_is_forgotten),
		cmocka_unit_test(a_child_of_fork_knows_only_itself),
	};

	return RUN_TESTS(argc, argv, NULL, tests, NULL, "test_redirect", 60, 0);
}
