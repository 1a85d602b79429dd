// SPDX-License-Identifier: MIT
/*
 * env.c - the "env" object of hotline-bench's JSON: where the numbers came
 * from (CPU, kernel, libc, compiler, placement, date, command line, and
 * on arm64 which atomics the run-time choice took).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include <hotline/cpu.h>
#include <hotline/zero.h>

#include "../src/zero_plan.h"
#include "arch/arch.h"
#include "harness.h"

#if defined(__clang__)
#define BENCH_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown"
#endif

/* A string, or "unknown" when there is none or it is not valid UTF-8. */
static json_t *string_json(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;

	return j ? j : json_string("unknown");
}

static json_t *flags_json(void)
{
	json_t *a = json_array();
	int len = hl_cpu_flags(NULL, 0);
	char *buf, *save = NULL;

	if (len <= 0)
		return a;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return a;
	hl_cpu_flags(buf, (size_t)len + 1);
	for (char *f = strtok_r(buf, " ", &save); f; f = strtok_r(NULL, " ", &save))
		json_array_append_new(a, json_string(f));
	free(buf);
	return a;
}

void bench_zero_caches(struct bench_zero_caches *c)
{
	struct hl_zero_machine m;

	hl__zero_machine_probe(hl_cpu(), &m);
	*c = (struct bench_zero_caches){
		.l1d = m.l1d, .l2 = m.l2, .l3 = m.l3, .l3_sharing = m.l3_sharing};
	snprintf(c->from, sizeof(c->from), "%s", m.caches_from);
}

/* hl_zero_plan_sources(): the automatic plan's thresholds and where each came from. */
static json_t *zero_sources_json(void)
{
	char buf[512];

	hl_zero_plan_sources(buf, sizeof(buf));
	return string_json(buf);
}

/* A CPU identification number as it is usually written, e.g. "0x19". */
static json_t *hex_json(unsigned int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%x", v);
	return json_string(buf);
}

/*
 * hl__zero_machine_probe(): the description of this machine that hl_zero's
 * and hl_try_copy's automatic plans are derived from (src/plan.h), as
 * data/machines/ records it and tests/bench/test_plans.c reads it back.
 */
static json_t *plan_machine_json(void)
{
	static const char *const isa[] = {"other", "x86_64", "aarch64"};
	static const char *const vendor[] = {"other", "intel", "amd"};
	struct hl_zero_machine m;
	json_t *j = json_object();

	hl__zero_machine_probe(hl_cpu(), &m);
	json_object_set_new(j, "isa", json_string(isa[m.isa]));
	json_object_set_new(j, "vendor", json_string(vendor[m.vendor]));
	json_object_set_new(j, "family", hex_json(m.family));
	json_object_set_new(j, "model", hex_json(m.model));
	json_object_set_new(j, "erms", json_boolean(m.erms));
	json_object_set_new(j, "fsrm", json_boolean(m.fsrm));
	json_object_set_new(j, "avx2", json_boolean(m.avx2));
	json_object_set_new(j, "avx512", json_boolean(m.avx512));
	json_object_set_new(j, "dczva_block", json_integer(m.dczva_block));
	json_object_set_new(j, "mops", json_boolean(m.mops));
	json_object_set_new(j, "l1d", json_integer((json_int_t)m.l1d));
	json_object_set_new(j, "l2", json_integer((json_int_t)m.l2));
	json_object_set_new(j, "l3", json_integer((json_int_t)m.l3));
	json_object_set_new(j, "l3_sharing", json_integer(m.l3_sharing));
	json_object_set_new(j, "caches_from",
			    m.caches_from[0] ? json_string(m.caches_from) : json_null());
	return j;
}

static json_t *kernel_json(void)
{
	struct utsname u;
	char text[sizeof(u.release) + sizeof(u.version) + 2];

	if (uname(&u) != 0)
		return json_string("unknown");
	snprintf(text, sizeof(text), "%s %s", u.release, u.version);
	return string_json(text);
}

static json_t *libc_json(void)
{
#ifdef __GLIBC__
	char text[64];

	snprintf(text, sizeof(text), "glibc %s", gnu_get_libc_version());
	return string_json(text);
#else
	return json_string("unknown");
#endif
}

static json_t *compiler_json(void)
{
	char text[128];
	size_t n;

	snprintf(text, sizeof(text), "%s", BENCH_COMPILER);
	n = strlen(text);
	while (n && text[n - 1] == ' ')
		text[--n] = '\0';
	return json_string(text);
}

static json_t *date_json(long long start_time)
{
	time_t t = (time_t)start_time;
	struct tm tm;
	char text[32];

	if (!gmtime_r(&t, &tm) || !strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(text);
}

/* True if s needs quoting to be read back by a POSIX shell as one word. */
static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_./=,:+@%",
			    *s))
			return true;
	}
	return false;
}

/* argv as one shell command line. */
static json_t *command_json(int argc, char *const argv[])
{
	size_t cap = 1;
	char *line, *p;
	json_t *j;

	for (int i = 0; i < argc; i++)
		cap += 4 * strlen(argv[i]) + 3;
	line = malloc(cap);
	if (!line)
		return json_null();
	p = line;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (i)
			*p++ = ' ';
		if (!needs_quotes(a)) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = '\0';
	/* Not valid UTF-8 (an odd byte in an argument): json_string refuses it. */
	j = json_string(line);
	if (!j)
		j = json_string("(command line not valid UTF-8)");
	free(line);
	return j;
}

json_t *bench_env_json(long long start_time, int argc, char *const argv[])
{
	const struct hl_cpu *cpu = hl_cpu();
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	json_t *env = json_object();

	json_object_set_new(env, "cpu", string_json(cpu->model));
	json_object_set_new(env, "flags", flags_json());
	json_object_set_new(env, "arch", string_json(cpu->arch));
	json_object_set_new(env, "vendor", string_json(cpu->vendor));
	/* x86: display family and model (the figures' machine is named by them); arm64: MIDR's. */
	json_object_set_new(env, "family", hex_json(cpu->family));
	json_object_set_new(env, "model_id", hex_json(cpu->model_id));
	json_object_set_new(env, "stepping", json_integer(cpu->stepping));
	json_object_set_new(env, "atomics",
			    bench_atomics() ? json_string(bench_atomics()) : json_null());
	json_object_set_new(env, "zero_plan_sources", zero_sources_json());
	json_object_set_new(env, "plan_machine", plan_machine_json());
	json_object_set_new(env, "kernel", kernel_json());
	json_object_set_new(env, "libc", libc_json());
	json_object_set_new(env, "compiler", compiler_json());
	json_object_set_new(env, "cpus", json_integer(online > 0 ? online : 1));
	json_object_set_new(env, "placement", bench_placement_json());
	json_object_set_new(env, "date", date_json(start_time));
	json_object_set_new(env, "command", command_json(argc, argv));
	return env;
}
