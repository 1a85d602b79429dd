// SPDX-License-Identifier: MIT
/*
 * main.cpp - a C++ user of the installed library: includes every public
 * header from the install prefix, links libhotline, and checks a few
 * results so that a broken install fails rather than merely links.
 */
#include <hotline/cpu.h>
#include <hotline/lockref.h>
#include <hotline/qspinlock.h>
#include <hotline/refcount.h>
#include <hotline/zero.h>

#include <cstdio>
#include <cstring>
#include <thread>

int main()
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);
	struct hl_lockref l = HL_LOCKREF_INIT(1);
	hl_qspinlock_t lock = HL_QSPINLOCK_INIT;
	long counter = 0;
	char buf[64];

	std::thread t([&]() {
		hl_refcount_inc(&r);
		hl_lockref_get(&l);
		hl_qspin_lock(&lock);
		counter++;
		hl_qspin_unlock(&lock);
	});
	hl_qspin_lock(&lock);
	counter++;
	hl_qspin_unlock(&lock);
	t.join();
	std::memset(buf, 1, sizeof(buf));
	hl_zero(buf, sizeof(buf));
	if (hl_refcount_dec_and_test(&r) || !hl_refcount_dec_and_test(&r) ||
	    hl_lockref_put_return(&l) != 1 || counter != 2 || buf[0] || buf[63]) {
		std::fprintf(stderr, "consumer (C++): wrong results\n");
		return 1;
	}
	const struct hl_cpu *cpu = hl_cpu();
	if (!cpu || !cpu->arch || !std::strlen(cpu->arch)) {
		std::fprintf(stderr, "consumer (C++): hl_cpu() gave no architecture\n");
		return 1;
	}
	std::printf("consumer ok: C++ %ld, %s\n", static_cast<long>(__cplusplus), cpu->arch);
	return 0;
}
