// SPDX-License-Identifier: MIT
/*
 * support/faults.c - installs the fault reporter under hotline's handler; notes what a test does.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotline/zero.h>

#include "support/faults.h"

static char fault_what[512];
static struct sigaction fault_hotline_segv, fault_hotline_bus;

void fault_signals_mask(int how)
{
	sigset_t faults;

	sigemptyset(&faults);
	sigaddset(&faults, SIGSEGV);
	sigaddset(&faults, SIGBUS);
	pthread_sigmask(how, &faults, NULL);
}

void fault_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fault_what, sizeof(fault_what), fmt, ap);
	va_end(ap);
}

/* Append v in hex (base 16) or decimal to *p; async-signal-safe. */
static void fault_put_num(char **p, unsigned long v, unsigned int base)
{
	char digits[24];
	int n = 0;

	if (base == 16) {
		*(*p)++ = '0';
		*(*p)++ = 'x';
	}
	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		*(*p)++ = digits[--n];
}

static void fault_put_str(char **p, const char *s, size_t max)
{
	while (*s && max--)
		*(*p)++ = *s++;
}

static void fault_report(int sig, siginfo_t *si, void *uc)
{
	char msg[1024], *p = msg;

	(void)uc;
	fault_put_str(&p, program_invocation_short_name, 64);
	fault_put_str(&p, ": unexpected ", 64);
	fault_put_str(&p, sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "signal ", 16);
	if (sig != SIGSEGV && sig != SIGBUS)
		fault_put_num(&p, (unsigned long)sig, 10);
	fault_put_str(&p, " (si_code ", 16);
	if (si->si_code < 0) {
		*p++ = '-';
		fault_put_num(&p, (unsigned long)-(long)si->si_code, 10);
	} else {
		fault_put_num(&p, (unsigned long)si->si_code, 10);
	}
	fault_put_str(&p, ") at ", 16);
	fault_put_num(&p, (unsigned long)(uintptr_t)si->si_addr, 16);
	fault_put_str(&p, " that hl_try_zero's handler passed on, while: ", 64);
	fault_put_str(&p, fault_what, sizeof(fault_what));
	*p++ = '\n';
	if (write(STDERR_FILENO, msg, (size_t)(p - msg)) < 0)
		_exit(2);
	_exit(1);
}

void fault_handlers_setup(void)
{
	struct sigaction sa = {.sa_sigaction = fault_report, .sa_flags = SA_SIGINFO | SA_ONSTACK};

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL) ||
	    hl_try_zero_prepare() != 0) {
		fprintf(stderr, "%s: cannot install the fault handlers: %s\n",
			program_invocation_short_name, strerror(errno));
		exit(1);
	}
	sigaction(SIGSEGV, NULL, &fault_hotline_segv);
	sigaction(SIGBUS, NULL, &fault_hotline_bus);
}

void fault_handlers_restore(void)
{
	sigaction(SIGSEGV, &fault_hotline_segv, NULL);
	sigaction(SIGBUS, &fault_hotline_bus, NULL);
}
