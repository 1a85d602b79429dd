// SPDX-License-Identifier: MIT
/*
 * support/sanitizer.h - under ASan or TSan, children that die of faults as plain programs do.
 *
 * children_without_sanitizer_fault_handlers() is for main, before any child
 * is started: ASan and TSan install SIGSEGV/SIGBUS handlers of their own at
 * start-up, so a child that must die of a fault as a plain program does
 * would otherwise end in the sanitizer's report. It appends handle_segv=0
 * and handle_sigbus=0 to ASAN_OPTIONS and TSAN_OPTIONS (keeping what the
 * Makefile set) in this process's environment, which children inherit; this
 * process's sanitizer has already read its options.
 * sanitizer_options_at_start(var) is the value var ("ASAN_OPTIONS" or
 * "TSAN_OPTIONS") had before, NULL if it was unset.
 */
#ifndef HOTLINE_TESTS_SUPPORT_SANITIZER_H
#define HOTLINE_TESTS_SUPPORT_SANITIZER_H

void children_without_sanitizer_fault_handlers(void);
const char *sanitizer_options_at_start(const char *var);

#endif /* HOTLINE_TESTS_SUPPORT_SANITIZER_H */
