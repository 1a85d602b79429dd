// SPDX-License-Identifier: MIT
/*
 * A user of the installed library: includes the public headers from the
 * install prefix, links libhotline, and checks a few results so that a
 * broken install fails rather than merely links.
 */
#include <stdio.h>
#include <string.h>

#include <hotline/cpu.h>
#include <hotline/refcount.h>

int main(void)
{
	hl_refcount_t r = HL_REFCOUNT_INIT(1);
	const struct hl_cpu *cpu = hl_cpu();

	hl_refcount_inc(&r);
	if (hl_refcount_dec_and_test(&r) || !hl_refcount_dec_and_test(&r)) {
		fprintf(stderr, "consumer: refcount did not reach zero on the second drop\n");
		return 1;
	}
	if (!cpu || !cpu->arch || !strlen(cpu->arch)) {
		fprintf(stderr, "consumer: hl_cpu() gave no architecture\n");
		return 1;
	}
	printf("consumer ok: %s, %s\n", cpu->arch, cpu->model);
	return 0;
}
