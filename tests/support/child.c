// SPDX-License-Identifier: MIT
/*
 * support/child.c - fork and re-execute this program (through HOTLINE_TARGET_RUN), read its output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/child.h"

static void read_to_end(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
}

bool emulated(void)
{
	const char *run = getenv("HOTLINE_TARGET_RUN");

	return run && *run;
}

/*
 * Replace this process by this program with argv[1...] (argv[0] is a name for
 * it): directly, or, when HOTLINE_TARGET_RUN is set and not empty, through
 * that command, with this program's real path. Returns only if exec failed.
 */
static void exec_self(char *const argv[])
{
	const char *run = getenv("HOTLINE_TARGET_RUN");
	static char cmd[4096], path[4096];
	char *words[64];
	int n = 0, argc = 0;
	ssize_t len;

	if (!emulated()) {
		execv("/proc/self/exe", argv);
		return;
	}
	/* Under qemu-user this is the guest program's path, not qemu's. */
	len = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (len <= 0)
		return;
	path[len] = '\0';
	snprintf(cmd, sizeof(cmd), "%s", run);
	while (argv[argc])
		argc++;
	for (char *save, *w = strtok_r(cmd, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n + argc + 1 >= 64)
			return; /* more words than anyone needs: fail as exec would */
		words[n++] = w;
	}
	if (n == 0)
		return;
	words[n++] = path;
	for (int i = 1; i < argc; i++)
		words[n++] = argv[i];
	words[n] = NULL;
	execvp(words[0], words);
}

int run_self_child(const char *scenario, const char *env_name, const char *env_value, char *out,
		   size_t out_size, char *err, size_t err_size)
{
	int out_fds[2] = {-1, -1}, err_fds[2];
	int status;
	pid_t pid;

	if (out)
		assert_int_equal(pipe(out_fds), 0);
	assert_int_equal(pipe(err_fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit no_core = {0, 0};
		char *argv[] = {program_invocation_short_name, "--child", (char *)scenario, NULL};

		setrlimit(RLIMIT_CORE, &no_core); /* a child that aborts need not dump core */
		if (out) {
			dup2(out_fds[1], STDOUT_FILENO);
			close(out_fds[0]);
			close(out_fds[1]);
		}
		dup2(err_fds[1], STDERR_FILENO);
		close(err_fds[0]);
		close(err_fds[1]);
		if (env_value)
			setenv(env_name, env_value, 1);
		else
			unsetenv(env_name);
		exec_self(argv);
		_exit(127);
	}
	if (out)
		close(out_fds[1]);
	close(err_fds[1]);
	read_to_end(err_fds[0], err, err_size);
	if (out)
		read_to_end(out_fds[0], out, out_size);
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	return status;
}

void run_child_output(const char *scenario, const char *env_name, const char *env_value,
		      struct child_output *c)
{
	memset(c, 0, sizeof(*c));
	c->status = run_self_child(scenario, env_name, env_value, c->out, sizeof(c->out), c->err,
				   sizeof(c->err));
	for (const char *p = c->err; *p; p++)
		c->err_lines += *p == '\n';
}

const char *describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "ended with status 0x%x", status);
	return buf;
}
