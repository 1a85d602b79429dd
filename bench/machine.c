// SPDX-License-Identifier: MIT
/*
 * machine.c - what the machine was doing while a measurement ran (load
 * average, busy and steal CPU time from /proc, the bench's own CPU time)
 * and the resolution of the clock the bench times with. See harness.h.
 *
 * Samples are taken outside the timed loop: before the workers are released
 * and after they are done (measure.c). /proc/stat counts in ticks of
 * USER_HZ (10 ms), so one short repetition says little; the figures of a
 * result are summed over its repetitions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static bool proc_noted;

/* Once: the fields that come from /proc are null, and why. */
static void note_no_proc(const char *file, int err)
{
	if (proc_noted)
		return;
	proc_noted = true;
	bench_note("cannot read %s: %s; the results' machine_state load and busy figures are null",
		   file, strerror(err));
}

/* The aggregate "cpu" line of /proc/stat: busy and steal seconds. */
static bool read_stat(double *busy_s, double *steal_s)
{
	unsigned long long v[8] = {0};
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f) {
		note_no_proc("/proc/stat", errno);
		return false;
	}
	/* user nice system idle iowait irq softirq steal (guest is within user) */
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4 || hz <= 0) {
		note_no_proc("/proc/stat", EINVAL);
		return false;
	}
	*busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz;
	*steal_s = (double)v[7] / (double)hz;
	return true;
}

static bool read_loadavg(double *load1)
{
	FILE *f = fopen("/proc/loadavg", "r");
	int n;

	if (!f) {
		note_no_proc("/proc/loadavg", errno);
		return false;
	}
	n = fscanf(f, "%lf", load1);
	fclose(f);
	if (n != 1 || !(*load1 >= 0)) {
		note_no_proc("/proc/loadavg", EINVAL);
		return false;
	}
	return true;
}

/* CPU time of this process and of its children waited for, in seconds. */
static double own_cpu_s(void)
{
	struct timespec ts = {0};
	struct rusage ru = {0};

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (double)ru.ru_utime.tv_sec +
	       (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

void bench_machine_sample(struct bench_machine_sample *s)
{
	*s = (struct bench_machine_sample){0};
	s->proc_ok = read_loadavg(&s->load1) && read_stat(&s->busy_s, &s->steal_s);
	s->own_cpu_s = own_cpu_s();
	s->wall_ns = bench_now_ns();
}

void bench_machine_interval(struct bench_machine *m, const struct bench_machine_sample *a,
			    const struct bench_machine_sample *b)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	*m = (struct bench_machine){
		.intervals = 1,
		.proc_ok = a->proc_ok && b->proc_ok,
		.cpus = cpus > 0 ? (unsigned int)cpus : 0,
		.load_start = a->load1,
		.load_end = b->load1,
		.wall_s = b->wall_ns > a->wall_ns ? (double)(b->wall_ns - a->wall_ns) / 1e9 : 0,
		.own_cpu_s = b->own_cpu_s > a->own_cpu_s ? b->own_cpu_s - a->own_cpu_s : 0,
	};
	if (m->proc_ok) {
		m->busy_s = b->busy_s > a->busy_s ? b->busy_s - a->busy_s : 0;
		m->steal_s = b->steal_s > a->steal_s ? b->steal_s - a->steal_s : 0;
	}
}

void bench_machine_add(struct bench_machine *sum, const struct bench_machine *m)
{
	if (!m->intervals)
		return;
	if (!sum->intervals) {
		*sum = *m;
		return;
	}
	sum->intervals += m->intervals;
	sum->proc_ok = sum->proc_ok && m->proc_ok;
	if (m->cpus > sum->cpus)
		sum->cpus = m->cpus;
	sum->load_end = m->load_end;
	sum->wall_s += m->wall_s;
	sum->own_cpu_s += m->own_cpu_s;
	sum->busy_s += m->busy_s;
	sum->steal_s += m->steal_s;
}

static json_t *proc_real(const struct bench_machine *m, double v)
{
	return m->proc_ok && isfinite(v) ? json_real(v) : json_null();
}

json_t *bench_machine_json(const struct bench_machine *m)
{
	long hz = sysconf(_SC_CLK_TCK);
	double others = NAN, resolution = NAN;
	json_t *o = json_object();

	if (m->proc_ok && m->wall_s > 0 && m->cpus) {
		double own = m->busy_s - m->own_cpu_s;

		others = ((own > 0 ? own : 0) + m->steal_s) / (m->wall_s * m->cpus);
		if (others > 1)
			others = 1;
		/*
		 * Each interval's busy and steal deltas can each be about a tick per
		 * CPU off: 2 x intervals x cpus ticks, over wall x cpus.
		 */
		resolution = hz > 0 ? 2.0 * m->intervals / (double)hz / m->wall_s : NAN;
		if (resolution > 1)
			resolution = 1;
	}
	json_object_set_new(o, "cpus", m->cpus ? json_integer(m->cpus) : json_null());
	json_object_set_new(o, "intervals", json_integer(m->intervals));
	json_object_set_new(o, "wall_s", json_real(m->wall_s));
	json_object_set_new(o, "loadavg",
			    json_pack("{s:o, s:o}", "start", proc_real(m, m->load_start), "end",
				      proc_real(m, m->load_end)));
	json_object_set_new(o, "busy_s", proc_real(m, m->busy_s));
	json_object_set_new(o, "stat_tick_s", proc_real(m, hz > 0 ? 1.0 / (double)hz : NAN));
	json_object_set_new(o, "steal_s", proc_real(m, m->steal_s));
	json_object_set_new(o, "bench_cpu_s", json_real(m->own_cpu_s));
	json_object_set_new(o, "others_busy_fraction", proc_real(m, others));
	json_object_set_new(o, "others_busy_resolution", proc_real(m, resolution));
	return o;
}

/*
 * The smallest step bench_now_ns() is seen to take (the clock's tick, or the
 * cost of reading it where that is longer), and never less than what
 * clock_getres says. Measured once.
 */
double bench_timer_resolution_ns(void)
{
	static double res;
	struct timespec ts;
	uint64_t best = UINT64_MAX, start = bench_now_ns();

	if (res > 0)
		return res;
	/* 1000 steps, or 5 ms of them where the clock is coarse. */
	for (int i = 0; i < 1000 && (i < 2 || bench_now_ns() - start < 5000000); i++) {
		uint64_t a = bench_now_ns(), b;

		while ((b = bench_now_ns()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	res = (double)best;
	if (clock_getres(CLOCK_MONOTONIC, &ts) == 0) {
		double getres = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;

		if (getres > res)
			res = getres;
	}
	return res;
}
