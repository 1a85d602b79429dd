// SPDX-License-Identifier: MIT
/*
 * test_cxx.cpp - every public header, included and used from C++.
 *
 * Built once per C++ standard (17, 20, 23) and compiler (g++, clang++),
 * linked against the static and against the shared library
 * (tests/cxx/CMakeLists.txt). Checks that the types have the layout C gives
 * them (at compile time where the header fixes the value, and at run time
 * against layout.c, compiled as C), then uses each header's API: refcount
 * (with a saturation handler), rcuref (a life, saturation and a put too
 * many, with its handler), lockref (lockless and locked paths), qspinlock
 * (two std::threads, mutual exclusion), hl_zero and hl_try_zero (with a
 * fault on a PROT_NONE page), hl_cpu.
 */
#include <hotline/compiler.h>
#include <hotline/cpu.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/rcuref.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "layout.h"

#ifndef HL_CXX_NAME
#define HL_CXX_NAME "c++"
#endif

// What the headers fix, checked by the compiler.
static_assert(sizeof(hl_refcount_t) == 4 && alignof(hl_refcount_t) == 4, "hl_refcount_t");
static_assert(sizeof(hl_rcuref_t) == 4 && alignof(hl_rcuref_t) == 4, "hl_rcuref_t");
static_assert(offsetof(hl_rcuref_t, refcnt) == 0, "rcuref word at 0");
static_assert(std::is_standard_layout<hl_rcuref_t>::value && std::is_trivial<hl_rcuref_t>::value,
	      "hl_rcuref_t is a trivial standard-layout type");
static_assert(sizeof(hl_qspinlock_t) == 4 && alignof(hl_qspinlock_t) == 4, "hl_qspinlock_t");
static_assert(sizeof(struct hl_lockref) == 8 && alignof(struct hl_lockref) == 8, "hl_lockref");
static_assert(offsetof(struct hl_lockref, lock_count) == 0, "lockref word at 0");
static_assert(offsetof(struct hl_lockref, lock) == 0, "lockref lock at 0");
static_assert(offsetof(struct hl_lockref, count) == 4, "lockref count at 4");
static_assert(offsetof(hl_refcount_t, refs) == 0 && offsetof(hl_qspinlock_t, val) == 0, "words");
// C aggregates in C++ too: zeroed memory, memcpy, static initialisers.
static_assert(std::is_standard_layout<hl_refcount_t>::value &&
		      std::is_trivial<hl_refcount_t>::value,
	      "hl_refcount_t is a trivial standard-layout type");
static_assert(std::is_standard_layout<hl_qspinlock_t>::value &&
		      std::is_trivial<hl_qspinlock_t>::value,
	      "hl_qspinlock_t is a trivial standard-layout type");
static_assert(std::is_standard_layout<hl_lockref>::value && std::is_trivial<hl_lockref>::value,
	      "struct hl_lockref is a trivial standard-layout type");
static_assert(std::is_standard_layout<struct hl_cpu>::value, "struct hl_cpu is standard-layout");

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			std::fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__,  \
				     HL_CXX_NAME, #cond);                                          \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

// The layout list evaluated here, in C++, against layout.c's, in C.
#define HL_LAYOUT_ITEM(e) {#e, static_cast<long long>(e)},
static const hl_layout_value cxx_layout[] = {HL_LAYOUT_LIST(HL_LAYOUT_ITEM)};

static void test_layout()
{
	const size_t n = sizeof(cxx_layout) / sizeof(cxx_layout[0]);

	CHECK(n == hl_c_layout_n);
	for (size_t i = 0; i < n && i < hl_c_layout_n; i++) {
		CHECK(std::strcmp(cxx_layout[i].name, hl_c_layout[i].name) == 0);
		if (cxx_layout[i].value != hl_c_layout[i].value) {
			std::fprintf(stderr, "%s: %s is %lld in C++, %lld in C\n", HL_CXX_NAME,
				     cxx_layout[i].name, cxx_layout[i].value, hl_c_layout[i].value);
			failures++;
		}
	}
}

// Saturation reports of refcount and rcuref, from the library (C) into handlers defined here:
// how many, and the last one's kind.
struct report_count {
	std::atomic<int> n;
	enum hl_refcount_saturation last;

	void note(enum hl_refcount_saturation t)
	{
		last = t;
		n.fetch_add(1);
	}
	bool was(int count, enum hl_refcount_saturation kind) const
	{
		return n.load() == count && last == kind;
	}
};
static report_count reports, rcuref_reports;

extern "C" {
static void count_report(hl_refcount_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	reports.note(t);
}

static void count_rcuref_report(hl_rcuref_t *r, enum hl_refcount_saturation t)
{
	(void)r;
	rcuref_reports.note(t);
}
}

static void test_refcount()
{
	static hl_refcount_t global = HL_REFCOUNT_INIT(1); // constant initialisation
	hl_refcount_t r = HL_REFCOUNT_INIT(1);

	CHECK(hl_refcount_read(&global) == 1);
	hl_refcount_inc(&r);
	hl_refcount_add(3, &r);
	CHECK(hl_refcount_read(&r) == 5);
	hl_refcount_dec(&r);
	CHECK(!hl_refcount_sub_and_test(2, &r));
	CHECK(hl_refcount_inc_not_zero(&r));
	CHECK(hl_refcount_dec_not_one(&r));
	CHECK(hl_refcount_read(&r) == 2);
	CHECK(!hl_refcount_dec_and_test(&r));
	CHECK(hl_refcount_dec_if_one(&r));
	CHECK(hl_refcount_read(&r) == 0);
	CHECK(!hl_refcount_add_not_zero(1, &r));

	// The two locking decrements: the last reference takes the lock.
	hl_qspinlock_t lock = HL_QSPINLOCK_INIT;
	hl_refcount_set(&r, 2);
	CHECK(!hl_refcount_dec_and_lock(&r, &lock));
	CHECK(!hl_qspin_is_locked(&lock));
	CHECK(hl_refcount_dec_and_lock(&r, &lock));
	CHECK(hl_qspin_is_locked(&lock));
	hl_qspin_unlock(&lock);
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	hl_refcount_set(&r, 1);
	CHECK(hl_refcount_dec_and_mutex_lock(&r, &m));
	pthread_mutex_unlock(&m);

	// Saturation: an increment from zero is a use after free.
	hl_refcount_handler_t old = hl_refcount_set_handler(count_report);
	hl_refcount_set(&r, 0);
	hl_refcount_inc(&r);
	CHECK(reports.was(1, HL_REFCOUNT_ADD_UAF));
	CHECK(hl_refcount_read(&r) == HL_REFCOUNT_SATURATED);
	hl_refcount_set(&r, HL_REFCOUNT_MAX);
	hl_refcount_inc(&r);
	CHECK(reports.was(2, HL_REFCOUNT_ADD_OVF));
	hl_refcount_set(&r, 1);
	hl_refcount_dec(&r);
	CHECK(reports.was(3, HL_REFCOUNT_DEC_LEAK));
	CHECK(hl_refcount_read(&r) == HL_REFCOUNT_SATURATED);
	CHECK(hl_refcount_set_handler(old) == count_report);
}

static void test_rcuref()
{
	static hl_rcuref_t global = HL_RCUREF_INIT(1); // constant initialisation
	hl_rcuref_t r = HL_RCUREF_INIT(2);

	CHECK(hl_rcuref_read(&global) == 1);
	CHECK(hl_rcuref_read(&r) == 2);
	CHECK(hl_rcuref_get(&r));
	CHECK(hl_rcuref_read(&r) == 3);
	CHECK(!hl_rcuref_put(&r));
	CHECK(!hl_rcuref_put(&r));
	CHECK(hl_rcuref_put(&r)); // the last: dead
	CHECK(hl_rcuref_read(&r) == 0);
	CHECK(!hl_rcuref_get(&r));
	hl_rcuref_init(&r, 1);
	CHECK(hl_rcuref_read(&r) == 1);

	hl_rcuref_handler_t old = hl_rcuref_set_handler(count_rcuref_report);
	hl_rcuref_init(&r, HL_RCUREF_MAXREF + 1u); // 2^31 references: the most
	CHECK(hl_rcuref_get(&r));		   // saturates, and says so
	CHECK(rcuref_reports.was(1, HL_RCUREF_GET_OVF));
	CHECK(hl_rcuref_read(&r) == HL_RCUREF_SATURATED + 1u);
	CHECK(!hl_rcuref_put(&r));
	hl_rcuref_init(&r, 1);
	CHECK(hl_rcuref_put(&r));
	CHECK(!hl_rcuref_put(&r)); // one put too many
	CHECK(rcuref_reports.was(2, HL_RCUREF_PUT_UAF));
	CHECK(hl_rcuref_set_handler(old) == count_rcuref_report);
}

static void test_lockref()
{
	struct hl_lockref l = HL_LOCKREF_INIT(1);

	CHECK(hl_lockref_count(&l) == 1 && !hl_qspin_is_locked(&l.lock));
	hl_lockref_get(&l);
	CHECK(hl_lockref_get_not_zero(&l));
	CHECK(hl_lockref_get_not_dead(&l));
	CHECK(hl_lockref_count(&l) == 4);
	CHECK(hl_lockref_put_return(&l) == 3);
	CHECK(hl_lockref_put_or_lock(&l));  // 3 -> 2, lockless
	CHECK(hl_lockref_put_or_lock(&l));  // 2 -> 1
	CHECK(!hl_lockref_put_or_lock(&l)); // the last one: returns with the lock held
	CHECK(hl_qspin_is_locked(&l.lock) && hl_lockref_count(&l) == 1);
	hl_lockref_set_count(&l, 0);
	hl_lockref_mark_dead(&l);
	hl_qspin_unlock(&l.lock);
	CHECK(hl_lockref_is_dead(&l) && hl_lockref_count(&l) == HL_LOCKREF_DEAD);
	CHECK(!hl_lockref_get_not_dead(&l) && !hl_lockref_get_not_zero(&l));

	// Held lock: the lockless paths step aside.
	hl_lockref_init(&l);
	hl_qspin_lock(&l.lock);
	CHECK(hl_lockref_put_return(&l) == -1);
	hl_qspin_unlock(&l.lock);
	unsigned int limit = hl_lockref_retry_limit();
	hl_lockref_set_retry_limit(5);
	CHECK(hl_lockref_retry_limit() == 5);
	hl_lockref_set_retry_limit(limit);
}

static long iterations(long n)
{
	const char *scale = std::getenv("HOTLINE_TEST_SCALE");
	long s = scale ? std::atol(scale) : 1;

	return s > 1 ? n / s : n;
}

static void test_qspinlock()
{
	hl_qspinlock_t lock = HL_QSPINLOCK_INIT;
	std::atomic<int> inside{0};
	std::atomic<int> overlaps{0};
	long counter = 0; // plain: only the lock protects it
	const long n = iterations(200000);

	CHECK(hl_qspin_trylock(&lock));
	CHECK(!hl_qspin_trylock(&lock));
	hl_qspin_unlock(&lock);
	CHECK(!hl_qspin_is_locked(&lock));

	auto worker = [&]() {
		for (long i = 0; i < n; i++) {
			hl_qspin_lock(&lock);
			if (inside.fetch_add(1, std::memory_order_relaxed) != 0)
				overlaps.fetch_add(1, std::memory_order_relaxed);
			counter++;
			inside.fetch_sub(1, std::memory_order_relaxed);
			hl_qspin_unlock(&lock);
		}
	};
	std::thread a(worker), b(worker);
	a.join();
	b.join();
	CHECK(overlaps.load() == 0);
	CHECK(counter == 2 * n);
	CHECK(!hl_qspin_is_locked(&lock));
}

static void test_zero()
{
	const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
	std::vector<unsigned char> buf(1000, 0xaa);

	hl_zero(buf.data() + 1, 998);
	CHECK(buf[0] == 0xaa && buf[999] == 0xaa && buf[1] == 0 && buf[998] == 0);
	CHECK(hl_zero_variant() != nullptr);
	unsigned supported = 0;
	for (unsigned i = 0; hl_zero_variant_name(i); i++)
		supported += hl_zero_supported(hl_zero_variant_name(i));
	CHECK(supported > 0 && hl_zero_supported(hl_zero_variant()));
	char plan[256];
	CHECK(hl_zero_plan(plan, sizeof(plan)) > 0);
	CHECK(hl_zero_plan_sources(nullptr, 0) > 0);
	CHECK(hl_try_zero_prepare() == 0);

	// Two pages, the second PROT_NONE: clear 100 bytes before it and 100 in it.
	void *map =
		mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	unsigned char *p = static_cast<unsigned char *>(map);
	std::memset(p, 0xff, page);
	CHECK(mprotect(p + page, page, PROT_NONE) == 0);
	CHECK(hl_try_zero(p + page - 100, 200) == 100);
	for (size_t i = page - 100; i < page; i++)
		CHECK(p[i] == 0);
	CHECK(p[page - 101] == 0xff);
	CHECK(hl_try_zero(p, 64) == 0 && p[0] == 0 && p[63] == 0 && p[64] == 0xff);
	munmap(map, 2 * page);
}

static void test_cpu()
{
	const struct hl_cpu *cpu = hl_cpu();

	CHECK(cpu != nullptr && cpu == hl_cpu());
	if (!cpu)
		return;
#if defined(__x86_64__)
	CHECK(std::string(cpu->arch) == "x86_64");
#elif defined(__aarch64__)
	CHECK(std::string(cpu->arch) == "aarch64");
#endif
	CHECK(cpu->model != nullptr && cpu->vendor != nullptr);
	int len = hl_cpu_flags(nullptr, 0);
	std::vector<char> flags(static_cast<size_t>(len) + 1);
	CHECK(hl_cpu_flags(flags.data(), flags.size()) == len);
	CHECK(std::strlen(flags.data()) == static_cast<size_t>(len));
}

int main()
{
	test_layout();
	test_refcount();
	test_rcuref();
	test_lockref();
	test_qspinlock();
	test_zero();
	test_cpu();
	if (failures) {
		std::fprintf(stderr, "%s: %d check(s) failed\n", HL_CXX_NAME, failures);
		return 1;
	}
	std::printf("ok: %s (C++ %ld): every header, layout as in C, each API\n", HL_CXX_NAME,
		    static_cast<long>(__cplusplus));
	return 0;
}
