// SPDX-License-Identifier: MIT
/*
 * measure.c - one measurement: a subject's threads (or processes) placed,
 * pinned, released together, stopped after a duration and timed; and the
 * placement it used, for the JSON environment. Timed with clock.c's
 * bench_now_ns(). See harness.h.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "harness.h"

/* ---- running threads ---------------------------------------------------- */

/*
 * Threads are created one by one and wait at the gate until all exist (or
 * creating one failed: then they leave). Released, they all meet at the
 * barrier, with the main thread, so that they start together.
 */
struct bench_gate {
	pthread_mutex_t lock;
	pthread_cond_t open_cond;
	int state; /* 0 closed, 1 open, -1 abandoned */
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

	if (w->cpu >= 0 && bench_pin_self(w->cpu) != 0) {
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
	struct sched_param sp = {.sched_priority = 0};

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

static int run_threads(const struct bench_subject *s, void *state, unsigned int n, double duration,
		       struct bench_run *r)
{
	struct bench_gate g = {.state = 0, .subject = s};
	struct bench_machine_sample m0, m1;
	struct bench_stop end = {0};
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
	bench_machine_sample(&m0);
	open_gate(&g, err ? -1 : 1);
	if (!err) {
		pthread_barrier_wait(&g.start);
		if (duration > 0)
			stop_after(duration, &g.stop, &end);
	}
	timer_priority_drop(raised);
	for (unsigned int i = 0; i < created; i++)
		pthread_join(tid[i], NULL);
	bench_machine_sample(&m1);
	if (!err) {
		collect(r, w, n, &end);
		bench_machine_interval(&r->machine, &m0, &m1);
	}

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

int bench_measure(const struct bench_subject *s, const struct bench_params *p, unsigned int threads,
		  const struct bench_pin *pin, double duration, struct bench_run *out)
{
	void *state;
	int ret;

	*out = (struct bench_run){.threads = threads};
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
	pthread_barrier_t start; /* process-shared: workers + parent */
	atomic_bool stop;
	struct bench_worker w[];
};

static void __attribute__((noreturn))
process_main(const struct bench_subject *s, struct bench_worker *w, pthread_barrier_t *start)
{
	if (w->cpu >= 0 && bench_pin_self(w->cpu) != 0) {
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
	_exit(0); /* no atexit handlers, no stdio flush: the parent owns those */
}

/* A worker process ended: anything but exit status 0 fails the run. */
static void check_exit(struct bench_worker *w, pid_t pid, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	w->failed = true;
	if (WIFSIGNALED(status))
		snprintf(w->why, sizeof(w->why),
			 "worker process %u (pid %d) was killed by signal %d", w->index, (int)pid,
			 WTERMSIG(status));
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

/* The memory the worker processes share with this one: the barrier, the stop, the workers. */
static struct proc_shared *proc_shared_map(unsigned int threads, size_t size)
{
	pthread_barrierattr_t attr;
	struct proc_shared *sh;

	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		bench_error("cannot map memory to share with worker processes: %s",
			    strerror(errno));
		return NULL;
	}
	pthread_barrierattr_init(&attr);
	pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&sh->start, &attr, threads + 1);
	pthread_barrierattr_destroy(&attr);
	atomic_init(&sh->stop, false);
	return sh;
}

/*
 * Fork the workers, each to wait at the barrier. 0, or -1 after
 * bench_error (those started are ended again).
 */
static int fork_workers(const struct bench_subject *s, struct proc_shared *sh, void *state,
			const struct bench_run *out, double duration, pid_t *pid)
{
	unsigned int created = 0;
	int status, err = 0;

	fflush(NULL); /* nothing buffered gets written by a child too */
	for (; created < out->threads; created++) {
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
	if (!err)
		return 0;
	/* The others wait at a barrier that will never fill: end them. */
	for (unsigned int i = 0; i < created; i++) {
		kill(pid[i], SIGKILL);
		wait_for(pid[i], &status);
	}
	bench_error("cannot start worker process %u of %u: %s", created + 1, out->threads,
		    strerror(err));
	return -1;
}

/* Release the workers, stop them after duration, wait for each, and gather the run. */
static void time_workers(struct proc_shared *sh, const pid_t *pid, double duration,
			 struct bench_run *out)
{
	struct bench_machine_sample m0, m1;
	struct bench_stop end = {0};
	bool raised = duration > 0 && timer_priority_raise();
	int status;

	bench_machine_sample(&m0);
	pthread_barrier_wait(&sh->start);
	if (duration > 0)
		stop_after(duration, &sh->stop, &end);
	timer_priority_drop(raised);
	for (unsigned int i = 0; i < out->threads; i++) {
		if (wait_for(pid[i], &status) < 0) {
			sh->w[i].failed = true;
			snprintf(sh->w[i].why, sizeof(sh->w[i].why),
				 "cannot wait for worker process %u: %s", i, strerror(errno));
			continue;
		}
		check_exit(&sh->w[i], pid[i], status);
	}
	bench_machine_sample(&m1);
	collect(out, sh->w, out->threads, &end);
	bench_machine_interval(&out->machine, &m0, &m1);
	record_placement(out);
}

int bench_measure_processes(const struct bench_subject *s, const struct bench_params *p,
			    unsigned int threads, const struct bench_pin *pin, double duration,
			    struct bench_run *out)
{
	size_t size = sizeof(struct proc_shared) + threads * sizeof(struct bench_worker);
	struct proc_shared *sh;
	void *state = NULL;
	pid_t *pid;
	int ret = -1;

	*out = (struct bench_run){.threads = threads};
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
	sh = proc_shared_map(threads, size);
	if (!sh) {
		bench_run_free(out);
		free(pid);
		return -1;
	}
	errno = 0;
	state = s->setup(p);
	if (!state) {
		bench_error("%s: setup failed: %s", s->name, strerror(errno ? errno : ENOMEM));
		goto out;
	}
	if (fork_workers(s, sh, state, out, duration, pid))
		goto out;
	time_workers(sh, pid, duration, out);
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
