// SPDX-License-Identifier: MIT
/*
 * support/faults.h - hotline's fault handler kept in place around cmocka, and stray faults named.
 *
 * cmocka replaces SIGSEGV and SIGBUS handlers around every test and puts
 * them back with signal(), losing SA_SIGINFO; so a program whose tests
 * fault calls fault_handlers_setup() in main (it installs a reporter, then
 * hotline's handler on top of it with hl_try_zero_prepare(), and remembers
 * hotline's), and each test that faults starts with fault_handlers_restore().
 * A fault hotline passes on then reaches the reporter, which prints the
 * signal, si_code, address and the last fault_note(fmt, ...) (what the test
 * was doing), and exits 1.
 */
#ifndef HOTLINE_TESTS_SUPPORT_FAULTS_H
#define HOTLINE_TESTS_SUPPORT_FAULTS_H

void fault_handlers_setup(void);
void fault_handlers_restore(void);

/*
 * fault_signals_mask(how): pthread_sigmask(how, {SIGSEGV, SIGBUS}, NULL)
 * for the calling thread (SIG_BLOCK, SIG_UNBLOCK): a thread that blocks
 * the fault signals, which hotline's entries must notice. Async-signal-safe.
 */
void fault_signals_mask(int how);

/* Say what the program is doing, for the report of a fault nobody expected. */
__attribute__((format(printf, 1, 2))) void fault_note(const char *fmt, ...);

#endif /* HOTLINE_TESTS_SUPPORT_FAULTS_H */
