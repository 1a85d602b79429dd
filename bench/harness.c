// SPDX-License-Identifier: MIT
/*
 * harness.c - topology, placement, threads, statistics and progress for
 * every scenario of hotline-bench (see harness.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>

#include "arch/arch.h"
#include "harness.h"
#include "tool.h"

/* ---- messages ----------------------------------------------------------- */

static bool progress_shown;

/*
 * Messages go through tool_vmessage: "hotline-bench: ...", one line, after
 * the progress line is cleared (main's tool_init).
 */
void bench_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmessage("", fmt, ap);
	va_end(ap);
}

void bench_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmessage("note: ", fmt, ap);
	va_end(ap);
}

void bench_progress(const char *scenario, const char *subject, unsigned int rep,
		    unsigned int reps)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K%s: %s: %s, repetition %u/%u", BENCH_NAME, scenario, subject,
		rep, reps);
	fflush(stderr);
	progress_shown = true;
}

void bench_progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- topology and placement --------------------------------------------- */

static hwloc_topology_t topology;
static int *auto_order;		/* OS CPU numbers in "auto" placement order */
static size_t nr_auto;
static char cpus_text[256];

/*
 * Auto order: the first PU of every core, in core order; then the second
 * PU of every core that has one; and so on. Threads beyond the end wrap.
 */
static int build_auto_order(void)
{
	int nr_pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
	int nr_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
	bool added = true;

	if (nr_pus <= 0) {
		bench_error("hwloc found no processing units");
		return -1;
	}
	auto_order = calloc((size_t)nr_pus, sizeof(*auto_order));
	if (!auto_order) {
		bench_error("out of memory");
		return -1;
	}
	for (unsigned int round = 0; nr_cores > 0 && added; round++) {
		added = false;
		for (int c = 0; c < nr_cores; c++) {
			hwloc_obj_t core = hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE,
								 (unsigned int)c);
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(
				topology, core->cpuset, HWLOC_OBJ_PU, round);

			if (pu && nr_auto < (size_t)nr_pus) {
				auto_order[nr_auto++] = (int)pu->os_index;
				added = true;
			}
		}
	}
	/* No core objects (or PUs outside them): take the PUs in order. */
	for (int i = 0; i < nr_pus && nr_auto < (size_t)nr_pus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PU, (unsigned int)i);
		bool seen = false;

		for (size_t j = 0; j < nr_auto; j++)
			seen |= auto_order[j] == (int)pu->os_index;
		if (!seen)
			auto_order[nr_auto++] = (int)pu->os_index;
	}
	return 0;
}

int bench_topology_init(void)
{
	char *text = NULL;

	if (hwloc_topology_init(&topology) != 0) {
		bench_error("hwloc: cannot initialise the topology: %s", strerror(errno));
		return -1;
	}
	if (hwloc_topology_load(topology) != 0) {
		bench_error("hwloc: cannot load the topology: %s", strerror(errno));
		hwloc_topology_destroy(topology);
		topology = NULL;
		return -1;
	}
	if (hwloc_bitmap_list_asprintf(&text, hwloc_get_root_obj(topology)->cpuset) >= 0 && text)
		snprintf(cpus_text, sizeof(cpus_text), "%s", text);
	free(text);
	return build_auto_order();
}

void bench_topology_fini(void)
{
	free(auto_order);
	auto_order = NULL;
	nr_auto = 0;
	if (topology)
		hwloc_topology_destroy(topology);
	topology = NULL;
}

bool bench_cpu_available(int cpu)
{
	return cpu >= 0 && hwloc_get_pu_obj_by_os_index(topology, (unsigned int)cpu) != NULL;
}

const char *bench_cpus_text(void)
{
	return cpus_text;
}

void bench_place(const struct bench_pin *pin, unsigned int n, int *cpus)
{
	for (unsigned int i = 0; i < n; i++) {
		switch (pin->mode) {
		case BENCH_PIN_AUTO:
			cpus[i] = auto_order[i % nr_auto];
			break;
		case BENCH_PIN_LIST:
			cpus[i] = pin->cpus[i % pin->nr_cpus];
			break;
		case BENCH_PIN_NONE:
		default:
			cpus[i] = -1;
			break;
		}
	}
}

static int pin_self(int cpu)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ret;

	if (!set)
		return -1;
	hwloc_bitmap_only(set, (unsigned int)cpu);
	ret = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
	return ret;
}

/* ---- running threads ---------------------------------------------------- */

/*
 * Threads are created one by one and wait at the gate until all exist (or
 * creating one failed: then they leave). Released, they all meet at the
 * barrier, with the main thread, so that they start together.
 */
struct bench_gate {
	pthread_mutex_t lock;
	pthread_cond_t open_cond;
	int state;			/* 0 closed, 1 open, -1 abandoned */
	pthread_barrier_t start;
	atomic_bool stop;
	const struct bench_subject *subject;
};

/* Placement to report in env (see bench_placement_json). */
static int *last_placement;
static unsigned int last_placement_threads;

static void *worker_main(void *arg)
{
	struct bench_worker *w = arg;
	struct bench_gate *g = w->gate;
	int state;

	if (w->cpu >= 0 && pin_self(w->cpu) != 0) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why), "cannot pin thread %u to CPU %d: %s", w->index,
			 w->cpu, strerror(errno));
	}
	pthread_mutex_lock(&g->lock);
	while (g->state == 0)
		pthread_cond_wait(&g->open_cond, &g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	if (state < 0)
		return NULL;

	pthread_barrier_wait(&g->start);
	if (w->failed)
		return NULL;
	w->t0_ns = bench_now_ns();
	w->c0 = bench_cycles();
	g->subject->run(w);
	w->c1 = bench_cycles();
	w->t1_ns = bench_now_ns();
	return NULL;
}

static void open_gate(struct bench_gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->open_cond);
	pthread_mutex_unlock(&g->lock);
}

static void sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * The end of a timed run: both clocks read just before the stop flag is
 * set. A timed run's interval ends here, not when its threads leave: the
 * workers count only the operations they completed before they saw the
 * flag (harness.h), and what a thread does after it (finish the operation
 * in flight, e.g. wait its turn in a FIFO lock's queue) is not measured.
 */
struct bench_stop {
	uint64_t t1_ns, c1;
};

/*
 * The thread that times a run asks for SCHED_FIFO while it waits for the
 * workers and the deadline, if the process may (root, CAP_SYS_NICE or
 * RLIMIT_RTPRIO; it is not an error when it may not). With more threads than
 * CPUs an ordinary thread waits its turn behind the spinning workers when it
 * wakes: the stop then came 0.3-0.9 s late at 256 threads on 2 CPUs, and with
 * it the end of every such run. It sleeps all the time it holds the priority,
 * so it takes nothing from the workers. Called after the workers exist (they
 * would inherit the policy); a policy the user chose (chrt) is left alone.
 */
static bool timer_priority_raise(void)
{
	struct sched_param sp;
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, &sp) || policy != SCHED_OTHER)
		return false;
	sp.sched_priority = sched_get_priority_min(SCHED_FIFO);
	return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) == 0;
}

static void timer_priority_drop(bool raised)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (raised)
		pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
}

static void stop_after(double duration, atomic_bool *stop, struct bench_stop *end)
{
	sleep_until(bench_now_ns() + (uint64_t)(duration * 1e9));
	end->t1_ns = bench_now_ns();
	end->c1 = bench_cycles();
	atomic_store_explicit(stop, true, memory_order_relaxed);
}

static void record_placement(const struct bench_run *r)
{
	bool pinned = r->threads > 0 && r->cpus[0] >= 0;

	if (last_placement_threads > 1 && r->threads <= 1)
		return;
	free(last_placement);
	last_placement = NULL;
	last_placement_threads = r->threads;
	if (!pinned)
		return;
	last_placement = malloc(r->threads * sizeof(*last_placement));
	if (last_placement)
		memcpy(last_placement, r->cpus, r->threads * sizeof(*last_placement));
}

json_t *bench_placement_json(void)
{
	json_t *a;

	if (!last_placement)
		return json_null();
	a = json_array();
	for (unsigned int i = 0; i < last_placement_threads; i++)
		json_array_append_new(a, json_integer(last_placement[i]));
	return a;
}

/*
 * The run's interval: from the first thread's start to the stop (end, if
 * the run was timed: end->t1_ns != 0), else to the last thread's end.
 */
static void collect(struct bench_run *r, const struct bench_worker *w, unsigned int n,
		    const struct bench_stop *end)
{
	uint64_t t0 = UINT64_MAX, t1 = 0, c0 = UINT64_MAX, c1 = 0;

	for (unsigned int i = 0; i < n; i++) {
		r->ops[i] = w[i].ops;
		r->total_ops += w[i].ops;
		if (w[i].failed && !r->failed) {
			r->failed = true;
			snprintf(r->why, sizeof(r->why), "%s", w[i].why);
		}
		if (w[i].t0_ns < t0)
			t0 = w[i].t0_ns;
		if (w[i].t1_ns > t1)
			t1 = w[i].t1_ns;
		if (w[i].c0 < c0)
			c0 = w[i].c0;
		if (w[i].c1 > c1)
			c1 = w[i].c1;
	}
	if (end->t1_ns) {
		t1 = end->t1_ns;
		c1 = end->c1;
	}
	r->elapsed_ns = t1 > t0 ? (double)(t1 - t0) : 0.0;
	r->cycles = c1 > c0 ? c1 - c0 : 0;
}

static int run_threads(const struct bench_subject *s, void *state, unsigned int n,
		       double duration, struct bench_run *r)
{
	struct bench_gate g = { .state = 0, .subject = s };
	struct bench_stop end = { 0 };
	struct bench_worker *w = calloc(n, sizeof(*w));
	pthread_t *tid = calloc(n, sizeof(*tid));
	unsigned int created = 0;
	bool raised;
	int err = 0;

	if (!w || !tid) {
		free(w);
		free(tid);
		bench_error("out of memory");
		return -1;
	}
	pthread_mutex_init(&g.lock, NULL);
	pthread_cond_init(&g.open_cond, NULL);
	pthread_barrier_init(&g.start, NULL, n + 1);
	atomic_init(&g.stop, false);

	for (; created < n; created++) {
		w[created] = (struct bench_worker){
			.index = created,
			.cpu = r->cpus[created],
			.state = state,
			.stop = &g.stop,
			.timed = duration > 0,
			.gate = &g,
		};
		err = pthread_create(&tid[created], NULL, worker_main, &w[created]);
		if (err)
			break;
	}
	raised = !err && duration > 0 && timer_priority_raise();
	open_gate(&g, err ? -1 : 1);
	if (!err) {
		pthread_barrier_wait(&g.start);
		if (duration > 0)
			stop_after(duration, &g.stop, &end);
	}
	timer_priority_drop(raised);
	for (unsigned int i = 0; i < created; i++)
		pthread_join(tid[i], NULL);
	if (!err)
		collect(r, w, n, &end);

	pthread_barrier_destroy(&g.start);
	pthread_cond_destroy(&g.open_cond);
	pthread_mutex_destroy(&g.lock);
	free(w);
	free(tid);
	if (err) {
		bench_error("cannot start thread %u of %u: %s", created + 1, n, strerror(err));
		return -1;
	}
	return 0;
}

int bench_measure(const struct bench_subject *s, const struct bench_params *p,
		  unsigned int threads, const struct bench_pin *pin, double duration,
		  struct bench_run *out)
{
	void *state;
	int ret;

	*out = (struct bench_run){ .threads = threads };
	out->cpus = calloc(threads, sizeof(*out->cpus));
	out->ops = calloc(threads, sizeof(*out->ops));
	if (!out->cpus || !out->ops) {
		bench_run_free(out);
		bench_error("out of memory");
		return -1;
	}
	bench_place(pin, threads, out->cpus);

	errno = 0;
	state = s->setup(p);
	if (!state) {
		bench_error("%s: setup failed: %s", s->name, strerror(errno ? errno : ENOMEM));
		bench_run_free(out);
		return -1;
	}
	ret = run_threads(s, state, threads, duration, out);
	s->teardown(state);
	if (ret) {
		bench_run_free(out);
		return -1;
	}
	record_placement(out);
	return 0;
}

void bench_run_free(struct bench_run *r)
{
	free(r->cpus);
	free(r->ops);
	r->cpus = NULL;
	r->ops = NULL;
}

/* ---- running processes ------------------------------------------------- */

/*
 * What the parent shares with its worker processes: one anonymous MAP_SHARED
 * mapping, at the same address in every process after fork(), so that the
 * workers' stop pointer and the parent's view of their counts just work.
 */
struct proc_shared {
	pthread_barrier_t start;	/* process-shared: workers + parent */
	atomic_bool stop;
	struct bench_worker w[];
};

static void __attribute__((noreturn)) process_main(const struct bench_subject *s,
						    struct bench_worker *w,
						    pthread_barrier_t *start)
{
	if (w->cpu >= 0 && pin_self(w->cpu) != 0) {
		w->failed = true;
		snprintf(w->why, sizeof(w->why), "cannot pin worker process %u to CPU %d: %s",
			 w->index, w->cpu, strerror(errno));
	}
	pthread_barrier_wait(start);
	if (!w->failed) {
		w->t0_ns = bench_now_ns();
		w->c0 = bench_cycles();
		s->run(w);
		w->c1 = bench_cycles();
		w->t1_ns = bench_now_ns();
	}
	_exit(0);	/* no atexit handlers, no stdio flush: the parent owns those */
}

/* A worker process ended: anything but exit status 0 fails the run. */
static void check_exit(struct bench_worker *w, pid_t pid, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	w->failed = true;
	if (WIFSIGNALED(status))
		snprintf(w->why, sizeof(w->why), "worker process %u (pid %d) was killed by signal %d",
			 w->index, (int)pid, WTERMSIG(status));
	else
		snprintf(w->why, sizeof(w->why), "worker process %u (pid %d) exited with status %d",
			 w->index, (int)pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static pid_t wait_for(pid_t pid, int *status)
{
	pid_t r;

	while ((r = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	return r;
}

int bench_measure_processes(const struct bench_subject *s, const struct bench_params *p,
			    unsigned int threads, const struct bench_pin *pin, double duration,
			    struct bench_run *out)
{
	size_t size = sizeof(struct proc_shared) + threads * sizeof(struct bench_worker);
	pthread_barrierattr_t attr;
	struct proc_shared *sh;
	struct bench_stop end = { 0 };
	unsigned int created = 0;
	bool raised;
	void *state = NULL;
	pid_t *pid;
	int status, err = 0, ret = -1;

	*out = (struct bench_run){ .threads = threads };
	out->cpus = calloc(threads, sizeof(*out->cpus));
	out->ops = calloc(threads, sizeof(*out->ops));
	pid = calloc(threads, sizeof(*pid));
	if (!out->cpus || !out->ops || !pid) {
		bench_run_free(out);
		free(pid);
		bench_error("out of memory");
		return -1;
	}
	bench_place(pin, threads, out->cpus);

	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		bench_error("cannot map memory to share with worker processes: %s", strerror(errno));
		bench_run_free(out);
		free(pid);
		return -1;
	}
	pthread_barrierattr_init(&attr);
	pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&sh->start, &attr, threads + 1);
	pthread_barrierattr_destroy(&attr);
	atomic_init(&sh->stop, false);

	errno = 0;
	state = s->setup(p);
	if (!state) {
		bench_error("%s: setup failed: %s", s->name, strerror(errno ? errno : ENOMEM));
		goto out;
	}
	fflush(NULL);		/* nothing buffered gets written by a child too */
	for (; created < threads; created++) {
		struct bench_worker *w = &sh->w[created];

		*w = (struct bench_worker){
			.index = created,
			.cpu = out->cpus[created],
			.state = state,
			.stop = &sh->stop,
			.timed = duration > 0,
		};
		pid[created] = fork();
		if (pid[created] < 0) {
			err = errno;
			break;
		}
		if (pid[created] == 0)
			process_main(s, w, &sh->start);
	}
	if (err) {
		/* The others wait at a barrier that will never fill: end them. */
		for (unsigned int i = 0; i < created; i++) {
			kill(pid[i], SIGKILL);
			wait_for(pid[i], &status);
		}
		bench_error("cannot start worker process %u of %u: %s", created + 1, threads,
			    strerror(err));
		goto out;
	}
	raised = duration > 0 && timer_priority_raise();
	pthread_barrier_wait(&sh->start);
	if (duration > 0)
		stop_after(duration, &sh->stop, &end);
	timer_priority_drop(raised);
	for (unsigned int i = 0; i < threads; i++) {
		if (wait_for(pid[i], &status) < 0) {
			sh->w[i].failed = true;
			snprintf(sh->w[i].why, sizeof(sh->w[i].why),
				 "cannot wait for worker process %u: %s", i, strerror(errno));
			continue;
		}
		check_exit(&sh->w[i], pid[i], status);
	}
	collect(out, sh->w, threads, &end);
	record_placement(out);
	ret = 0;
out:
	if (state)
		s->teardown(state);
	pthread_barrier_destroy(&sh->start);
	munmap(sh, size);
	free(pid);
	if (ret)
		bench_run_free(out);
	return ret;
}

/* ---- subjects ----------------------------------------------------------- */

size_t bench_select_subjects(const struct bench_scenario *sc, const struct bench_config *cfg,
			     const struct bench_subject **out)
{
	size_t n = 0;

	for (size_t i = 0; i < sc->nr_subjects + sc->nr_selftests; i++) {
		const struct bench_subject *s = i < sc->nr_subjects ?
							&sc->subjects[i] :
							&sc->selftests[i - sc->nr_subjects];
		bool want = !cfg->subjects && i < sc->nr_subjects;

		for (size_t j = 0; cfg->subjects && j < cfg->nr_subjects; j++)
			want |= strcmp(cfg->subjects[j], s->name) == 0;
		if (want)
			out[n++] = s;
	}
	return n;
}

int bench_interleave(const char *scenario, const struct bench_subject *const *subjects,
		     size_t nr_subjects, unsigned int reps,
		     int (*measure)(void *ctx, size_t subject, unsigned int rep), void *ctx)
{
	for (unsigned int rep = 0; rep < reps; rep++) {
		for (size_t i = 0; i < nr_subjects; i++) {
			int ret;

			bench_progress(scenario, subjects[i]->name, rep + 1, reps);
			ret = measure(ctx, i, rep);
			if (ret)
				return ret;
		}
	}
	bench_progress_done();
	return 0;
}

/* ---- statistics --------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

void bench_stats(const double *v, size_t n, struct bench_stats *st)
{
	st->min = st->max = n ? v[0] : NAN;
	for (size_t i = 1; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (v[i] > st->max)
			st->max = v[i];
	}
	st->median = bench_median(v, n);
	st->rel_spread = st->median != 0 ? (st->max - st->min) / st->median : 0;
}

/* ---- series and results ------------------------------------------------- */

int bench_series_init(struct bench_series *s, unsigned int reps, unsigned int threads)
{
	*s = (struct bench_series){ .cap = reps, .threads = threads };
	s->ns_per_op = calloc(reps, sizeof(double));
	s->ops_per_sec = calloc(reps, sizeof(double));
	s->gb_per_sec = calloc(reps, sizeof(double));
	s->fairness = calloc(reps, sizeof(double));
	s->cpus = calloc(threads, sizeof(int));
	s->thread_ops = calloc((size_t)reps * threads, sizeof(uint64_t));
	if (!s->ns_per_op || !s->ops_per_sec || !s->gb_per_sec || !s->fairness || !s->cpus ||
	    !s->thread_ops) {
		bench_series_free(s);
		bench_error("out of memory");
		return -1;
	}
	return 0;
}

void bench_series_add(struct bench_series *s, const struct bench_run *r, double bytes_per_op)
{
	unsigned int i = s->n;
	double secs = r->elapsed_ns / 1e9;

	if (i >= s->cap || r->threads != s->threads)
		return;
	s->ns_per_op[i] = r->total_ops ? r->elapsed_ns / (double)r->total_ops : NAN;
	s->ops_per_sec[i] = secs > 0 ? (double)r->total_ops / secs : NAN;
	s->gb_per_sec[i] = s->ops_per_sec[i] * bytes_per_op / 1e9;
	s->has_gb = bytes_per_op > 0;
	s->fairness[i] = tool_jain(r->ops, r->threads);
	memcpy(s->cpus, r->cpus, r->threads * sizeof(int));
	memcpy(&s->thread_ops[(size_t)i * s->threads], r->ops, r->threads * sizeof(uint64_t));
	s->n++;
}

void bench_series_free(struct bench_series *s)
{
	free(s->ns_per_op);
	free(s->ops_per_sec);
	free(s->gb_per_sec);
	free(s->fairness);
	free(s->cpus);
	free(s->thread_ops);
	*s = (struct bench_series){ 0 };
}

json_t *bench_json_reals(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, isfinite(v[i]) ? json_real(v[i]) : json_null());
	return a;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *per_thread_json(const struct bench_series *s)
{
	json_t *a = json_array();
	double *ops = calloc(s->n ? s->n : 1, sizeof(*ops));
	double median;
	json_t *cpu;

	for (unsigned int t = 0; t < s->threads; t++) {
		for (unsigned int i = 0; ops && i < s->n; i++)
			ops[i] = (double)s->thread_ops[(size_t)i * s->threads + t];
		median = ops ? bench_median(ops, s->n) : 0;
		cpu = s->cpus[t] >= 0 ? json_integer(s->cpus[t]) : json_null();
		json_array_append_new(a, json_pack("{s:o, s:I}", "cpu", cpu, "ops",
						   (json_int_t)llround(median)));
	}
	free(ops);
	return a;
}

json_t *bench_result_json(const char *scenario, const char *subject,
			  const struct bench_series *s, enum bench_headline headline, size_t size,
			  unsigned int retry_limit)
{
	static const char *const headline_name[] = {
		[BENCH_HEADLINE_NS_PER_OP] = "ns_per_op",
		[BENCH_HEADLINE_OPS_PER_SEC] = "ops_per_sec",
		[BENCH_HEADLINE_GB_PER_SEC] = "gb_per_sec",
	};
	const double *runs = headline == BENCH_HEADLINE_NS_PER_OP    ? s->ns_per_op :
			     headline == BENCH_HEADLINE_OPS_PER_SEC ? s->ops_per_sec :
								      s->gb_per_sec;
	struct bench_stats st;
	json_t *r = json_object();

	bench_stats(runs, s->n, &st);
	json_object_set_new(r, "scenario", json_string(scenario));
	json_object_set_new(r, "subject", json_string(subject));
	json_object_set_new(r, "threads", json_integer(s->threads));
	json_object_set_new(r, "size", size ? json_integer((json_int_t)size) : json_null());
	json_object_set_new(r, "retry_limit",
			    retry_limit ? json_integer(retry_limit) : json_null());
	json_object_set_new(r, "ops_per_sec", real_or_null(bench_median(s->ops_per_sec, s->n)));
	json_object_set_new(r, "ns_per_op", real_or_null(bench_median(s->ns_per_op, s->n)));
	json_object_set_new(r, "gb_per_sec",
			    s->has_gb ? real_or_null(bench_median(s->gb_per_sec, s->n)) :
					json_null());
	json_object_set_new(r, "headline", json_string(headline_name[headline]));
	json_object_set_new(r, "runs", bench_json_reals(runs, s->n));
	json_object_set_new(r, "spread",
			    json_pack("{s:o, s:o, s:o, s:o}", "min", real_or_null(st.min), "max",
				      real_or_null(st.max), "median", real_or_null(st.median),
				      "rel_spread", real_or_null(st.rel_spread)));
	json_object_set_new(r, "per_thread", per_thread_json(s));
	json_object_set_new(r, "fairness", real_or_null(bench_median(s->fairness, s->n)));
	return r;
}
