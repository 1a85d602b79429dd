// SPDX-License-Identifier: MIT
/*
 * support/child.h - this test program re-executed as a child for one scenario, and its status.
 *
 * run_self_child(scenario, env_name, env_value, out, out_size, err,
 * err_size) re-executes this program as "PROGRAM --child SCENARIO", with
 * env_name set to env_value (unset if NULL) and no core dumps, and returns
 * its waitpid() status. The child's stderr is read into err and, if out is
 * not NULL, its stdout into out (else it is this program's); each is
 * NUL-terminated and cut to fit. stderr is read to its end first: for
 * children that write less than a pipe holds to stdout.
 *
 * HOTLINE_TARGET_RUN, in the environment: the command that runs a program
 * built for the target; empty or unset: run it directly. Under emulation
 * (qemu-user, where a guest cannot execve another guest binary) CTest sets
 * it to the cross-compiling emulator for every test (tests/CMakeLists.txt),
 * and run_self_child then executes "HOTLINE_TARGET_RUN PATH --child
 * SCENARIO", PATH being readlink("/proc/self/exe") (qemu answers with the
 * guest program's path). The command is split at blanks (no quoting) and
 * looked up in PATH; children inherit the variable, so they can re-execute
 * in turn. tests/build's scripts run the programs they build through it too.
 *
 * run_child_output(scenario, env_name, env_value, c) is run_self_child
 * into a struct child_output: its status, its stdout and stderr (each cut
 * to fit) and how many lines stderr has.
 *
 * emulated() is whether this program runs under an emulator: HOTLINE_TARGET_RUN
 * set and not empty (make test-arm64, make test-x86-amd).
 *
 * describe_status(status, buf, size) says what a waitpid() status means
 * ("exited with 3", "was killed by signal 11 (Segmentation fault)") and
 * returns buf.
 */
#ifndef HOTLINE_TESTS_SUPPORT_CHILD_H
#define HOTLINE_TESTS_SUPPORT_CHILD_H

#include <stdbool.h>
#include <stddef.h>

bool emulated(void);

int run_self_child(const char *scenario, const char *env_name, const char *env_value, char *out,
		   size_t out_size, char *err, size_t err_size);

struct child_output {
	int status; /* waitpid()'s */
	char out[2048], err[8192];
	int err_lines;
};

void run_child_output(const char *scenario, const char *env_name, const char *env_value,
		      struct child_output *c);

const char *describe_status(int status, char *buf, size_t size);

#endif /* HOTLINE_TESTS_SUPPORT_CHILD_H */
