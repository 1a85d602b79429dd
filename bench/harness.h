/* SPDX-License-Identifier: MIT */
/*
 * harness.h - what every hotline-bench scenario is built from.
 *
 * A scenario (scenarios/<name>.c) is a table of subjects plus one run
 * function. A subject is data: a name, a line of description, and three
 * functions: setup (allocate the shared object under test), run (the
 * scenario's one measurement loop, instantiated for this subject's inline
 * operations) and teardown. The harness does everything around them:
 * placing and pinning threads from the machine's topology, starting them
 * together, stopping them after a duration, timing, repetitions
 * interleaved across subjects, statistics, fairness, progress, and the
 * JSON that carries the results and the environment.
 *
 * This header declares all of it, one file per job behind it:
 *   registry.c  the scenarios built in, as they register themselves
 *   schedule.c  which subjects run (--subjects), repetitions interleaved
 *   topology.c  the machine (hwloc): CPUs, placement, pinning, the LLC
 *   measure.c   one measurement: threads or processes, the gate, timing
 *   clock.c     the clock every file times with (bench_now_ns)
 *   stats.c     median and spread; a subject's series of repetitions
 *   results.c   a result's JSON fields, common to every scenario
 *   env.c       the JSON environment ("env")
 *   machine.c   the machine's state during a measurement; the timer's resolution
 *   subject_facts.c  what a subject is, and its JSON (subject_facts.h)
 *   msg.c       errors and notes on stderr
 *   progress.c  the progress on stderr: position, time left
 *   decide.c    the report's verdict rule (stats.py) in C (decide.h)
 *   questions.c the questions --until-decided decides (questions.h) ...
 *   until_decided.c  ... and the extra repetitions that decide them
 * (hist.h, hist.c: histograms cheap enough for a timed loop.)
 *
 * A subject also carries its facts (subject_facts.h: what it is, its
 * baseline, retry limit, relax policy, ...): the scenarios read those, never
 * the subject's name, and main.c writes them into the JSON's "subjects".
 *
 * Adding a scenario: a new file in scenarios/ with its struct bench_scenario
 * and one BENCH_SCENARIO line (below) that registers it; CMake compiles every
 * file there. Adding a subject: a new line in the scenario's subject table
 * (and its ops, if new).
 */
#ifndef HOTLINE_BENCH_HARNESS_H
#define HOTLINE_BENCH_HARNESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "subject_facts.h"

#define BENCH_NAME "hotline-bench"

/* Forces a measurement loop's operations into the loop that calls them. */
#define bench_always_inline inline __attribute__((always_inline))

/* ---- configuration: what the command line asked for, validated ---------- */

enum bench_pin_mode {
	BENCH_PIN_AUTO, /* one thread per core first, then SMT siblings */
	BENCH_PIN_NONE, /* leave placement to the scheduler */
	BENCH_PIN_LIST, /* the given CPUs, in order, wrapping around */
};

struct bench_pin {
	enum bench_pin_mode mode;
	const int *cpus; /* BENCH_PIN_LIST only */
	size_t nr_cpus;
	const char *text; /* as given: "auto", "none" or the list */
};

struct bench_config {
	bool quick;		     /* --quick: smaller sizes and durations */
	unsigned int repeat;	     /* repetitions of every subject (>= 1) */
	double duration;	     /* --duration in seconds; 0 = scenario default */
	const unsigned int *threads; /* --threads; NULL = scenario default */
	size_t nr_threads;
	struct bench_pin pin;
	const char *const *subjects; /* --subjects; NULL = every subject */
	size_t nr_subjects;
	unsigned long long count; /* --count; 0 = scenario default */
	const size_t *sizes;	  /* --sizes in bytes, ascending, no duplicates; */
	size_t nr_sizes;	  /* NULL = scenario default */
	unsigned int modes;	  /* --mode: BENCH_MODE_* bits; 0 = scenario default */
	/*
	 * --until-decided: seconds of budget for extra repetitions (questions.h),
	 * 0 = off. A series needs room for bench_reps_cap(repeat) repetitions.
	 */
	double until_decided;
	bool tune; /* --tune: a scenario with a tuner (BENCH_USES_TUNE) runs it instead */
};

/* --mode: the buffer states a size sweep measures (zero). */
#define BENCH_MODE_HOT	0x1u /* one buffer, reused: in cache when it fits */
#define BENCH_MODE_COLD 0x2u /* a different place per call: out of cache */
#define BENCH_MODE_USED 0x4u /* cold, then the buffer read back: what clearing is for */

/* Options a scenario uses (struct bench_scenario.uses); others get a note. */
#define BENCH_USES_THREADS  0x1u
#define BENCH_USES_DURATION 0x2u
#define BENCH_USES_COUNT    0x4u
#define BENCH_USES_SIZES    0x8u
#define BENCH_USES_MODE	    0x10u
#define BENCH_USES_TUNE	    0x20u /* it has a tuner: --tune runs it (zero's) */

/* ---- subjects and scenarios --------------------------------------------- */

/* What setup gets: the shape of one measurement. Unused fields are 0. */
struct bench_params {
	unsigned int threads;
	unsigned long long count; /* count-defined scenarios */
	size_t size;		  /* bytes, for size sweeps */
	unsigned int retry_limit;
	/* The subject measured (its facts); NULL where the scenario does not need it. */
	const struct bench_subject *subject;
	/*
	 * Scenario-private: where the subject leaves figures beyond the op
	 * counts (e.g. attempt histograms, gathered at teardown). NULL if none.
	 */
	void *sink;
};

/* One thread of one measurement, as the subject's run function sees it. */
struct bench_worker {
	unsigned int index;	 /* 0 .. threads-1 */
	int cpu;		 /* CPU it is pinned to, -1 if not pinned */
	void *state;		 /* what the subject's setup returned */
	const atomic_bool *stop; /* duration runs: set when time is up */
	bool timed;		 /* true: run until *stop; false: run to completion */

	/*
	 * Set by run. A timed run counts only the operations it completed
	 * before it saw *stop set, and starts none after: the measured
	 * interval ends when stop is set (bench_measure).
	 */
	uint64_t ops;  /* operations completed */
	bool failed;   /* a correctness check failed ... */
	char why[200]; /* ... and why, one line */

	/* Harness private. */
	uint64_t t0_ns, t1_ns, c0, c1;
	struct bench_gate *gate;
};

struct bench_subject {
	const char *name;
	const char *description;
	/* Allocate and initialise the shared object; NULL on failure (errno). */
	void *(*setup)(const struct bench_params *p);
	/* The measurement loop; every thread calls it once, between the clocks. */
	void (*run)(struct bench_worker *w);
	void (*teardown)(void *state);
	/* What it is: what the scenario and the JSON's "subjects" read, never the name. */
	struct subject_facts facts;
	/* Measured with processes (bench_measure_processes), not threads. */
	bool processes;
	/* What its scenario declares about it beside the facts (sized.h's struct sized_facts). */
	const void *extra;
};

/*
 * What a scenario will measure, for the progress: how many measurements
 * (bench_interleave's: subject x repetition, over every thread count, size,
 * ...) and about how many seconds they take.
 */
struct bench_plan {
	unsigned long items;
	double seconds;
};

struct bench_scenario {
	const char *name;
	const char *description;
	unsigned int uses;	 /* BENCH_USES_* */
	const char *ignores_why; /* note text for the options it does not use */
	const struct bench_subject *subjects;
	size_t nr_subjects;
	/*
	 * Self-tests of the scenario itself (e.g. a lock that does not lock, to
	 * prove that its correctness check can fail), and other checks to be
	 * asked for (contend's twins built without the library's probes): run
	 * only when --subjects names them, and not shown by --list.
	 */
	const struct bench_subject *selftests;
	size_t nr_selftests;
	/*
	 * Measure the selected subjects, print a table on stdout, append one
	 * object per result to results. Returns 0, or 1 after printing a
	 * one-line reason (bench_error).
	 */
	int (*run)(const struct bench_scenario *sc, const struct bench_config *cfg,
		   json_t *results);
	/* What run will measure under cfg (struct bench_plan); an estimate is fine. */
	void (*plan)(const struct bench_scenario *sc, const struct bench_config *cfg,
		     struct bench_plan *plan);
	/*
	 * A section of the JSON document beside "results", of the scenario's
	 * own (zero --tune's "tune"): its value once run has written it, else
	 * NULL; *key gets its name. NULL: none.
	 */
	json_t *(*section)(const char **key);
	/*
	 * Run only when named on the command line, not by `all` (a scenario
	 * that measures no hotline code, or takes too long for make bench).
	 */
	bool by_name_only;
};

/*
 * The scenarios built in register themselves, each from its own file:
 *
 *	BENCH_SCENARIO(bench_zero, 40);
 *
 * after its struct bench_scenario. order places it (lowest first): where
 * --help and --list show it and where `all` runs it. Each scenario has an
 * order of its own; those of the report's sections are the same numbers
 * (tools/hotline_report, rank): refcount-timing 10, contend 20,
 * lockref-sweep 30, zero 40, copy 50, openclose 60.
 */
struct bench_scenario_entry {
	const struct bench_scenario *scenario;
	int order;
	struct bench_scenario_entry *next; /* the registry's */
};

#define BENCH_SCENARIO(sc, ord)                                                                    \
	static struct bench_scenario_entry sc##_entry = {.scenario = &(sc), .order = (ord)};       \
	static void __attribute__((constructor)) sc##_register(void)                               \
	{                                                                                          \
		bench_register_scenario(&sc##_entry);                                              \
	}                                                                                          \
	struct bench_scenario_entry /* a declaration, for the caller's semicolon */

/* Add e to the registry, after those of a lower or the same order (registry.c). */
void bench_register_scenario(struct bench_scenario_entry *e);
/* The registered scenarios, by order (before main() they may be incomplete). */
const struct bench_scenario_entry *bench_scenario_entries(void);

/*
 * The subjects of sc that --subjects selects, in table order, into out
 * (room for sc->nr_subjects + sc->nr_selftests): every subject, or those
 * named; then the self-tests named. Returns how many.
 */
size_t bench_select_subjects(const struct bench_scenario *sc, const struct bench_config *cfg,
			     const struct bench_subject **out);

/* ---- topology and placement: topology.c ----------------------------------- */

/* Load the machine's topology (hwloc). 0, or -1 after bench_error. */
int bench_topology_init(void);
void bench_topology_fini(void);

/* Whether CPU cpu (OS number) is online and available to this process. */
bool bench_cpu_available(int cpu);

/* The available CPUs as a list string ("0-3,6"); static buffer. */
const char *bench_cpus_text(void);

/* CPUs for threads 0..n-1 under pin (-1 each for BENCH_PIN_NONE). */
void bench_place(const struct bench_pin *pin, unsigned int n, int *cpus);

/* Bind the calling thread to CPU cpu (OS number). 0, or -1 (errno). */
int bench_pin_self(int cpu);

/*
 * The last-level cache in bytes, as hwloc found it: the highest-level data
 * or unified cache of CPU 0 (or of the first available CPU). 0 when the
 * topology is not loaded or has no cache.
 */
size_t bench_llc_bytes(void);

/* ---- the machine's state: machine.c -------------------------------------- */

/* One reading, taken outside the timed loop (before the gate, after the stop). */
struct bench_machine_sample {
	bool proc_ok;		/* /proc/loadavg and /proc/stat were read */
	double load1;		/* 1-minute load average */
	double busy_s, steal_s; /* /proc/stat, every CPU: busy (not idle, iowait */
				/* or steal) and steal, since boot */
	double own_cpu_s;	/* this process's CPU time and its waited children's */
	uint64_t wall_ns;	/* bench_now_ns() */
};

/*
 * What the machine did between two samples, or summed over a result's
 * repetitions (bench_machine_add): the JSON's "machine_state".
 */
struct bench_machine {
	unsigned int intervals;	     /* samples pairs summed; 0 = none */
	bool proc_ok;		     /* every one had /proc */
	unsigned int cpus;	     /* online CPUs */
	double load_start, load_end; /* before the first, after the last */
	double wall_s, busy_s, steal_s, own_cpu_s;
};

void bench_machine_sample(struct bench_machine_sample *s);
void bench_machine_interval(struct bench_machine *m, const struct bench_machine_sample *a,
			    const struct bench_machine_sample *b);
void bench_machine_add(struct bench_machine *sum, const struct bench_machine *m);
/*
 * The "machine_state" object (bench/README.md): cpus, intervals, wall_s,
 * loadavg {start, end}, busy_s, stat_tick_s, steal_s, bench_cpu_s,
 * others_busy_fraction, others_busy_resolution;
 * the /proc figures null when /proc could not be read (one note says so).
 */
json_t *bench_machine_json(const struct bench_machine *m);

/*
 * The resolution of bench_now_ns() in ns: the smallest step it is seen to
 * take, at least clock_getres(CLOCK_MONOTONIC). Measured once, then cached.
 */
double bench_timer_resolution_ns(void);

/* ---- running threads and processes: measure.c ---------------------------- */

/* One measurement: n threads of one subject, from setup to teardown. */
struct bench_run {
	unsigned int threads;
	int *cpus;     /* [threads]: placement used, -1 = not pinned */
	uint64_t *ops; /* [threads]: operations of each thread */
	uint64_t total_ops;
	double elapsed_ns; /* first thread's start to the stop (timed), */
			   /* or to the last thread's end */
	uint64_t cycles;   /* bench_cycles() over the same interval */
	bool failed;	   /* a worker's check failed (why says which) */
	char why[200];
	/* The machine around the run: from before the gate to after the end. */
	struct bench_machine machine;
};

/*
 * bench_measure - set up subject s, run it on threads threads placed by
 * pin, tear it down.
 *
 * duration > 0: the threads run until duration seconds after they were
 * released together; 0: each runs to completion. A timed run is measured
 * from the first thread's start to the moment the stop flag is set, and
 * its threads count only operations completed before they saw the flag:
 * an operation still in flight at the stop may end much later (a FIFO
 * lock's waiters with more threads than CPUs), and neither it nor the
 * time it takes is part of the result. All threads are pinned
 * and waiting at a barrier before any starts. On return *out holds the
 * counts and times (free with bench_run_free). Returns 0 (out->failed may
 * still report a failed correctness check), or -1 after bench_error when
 * the run could not be done at all (setup, threads, pinning).
 */
int bench_measure(const struct bench_subject *s, const struct bench_params *p, unsigned int threads,
		  const struct bench_pin *pin, double duration, struct bench_run *out);
void bench_run_free(struct bench_run *r);

/*
 * bench_measure_processes - bench_measure with processes instead of threads.
 *
 * Sets s up in this process, then forks threads children; each pins itself
 * as pin says, waits at a process-shared barrier, runs s->run once (its
 * struct bench_worker and the stop flag live in a shared anonymous
 * mapping, so the parent sees its counts and can stop it) and exits. The
 * parent releases them together, stops them after duration seconds (0:
 * they run to completion), waits for them all, tears s down. A child that
 * dies or exits non-zero is a failed run (why says which). Returns as
 * bench_measure. The caller must have no other threads running.
 */
int bench_measure_processes(const struct bench_subject *s, const struct bench_params *p,
			    unsigned int threads, const struct bench_pin *pin, double duration,
			    struct bench_run *out);

/*
 * The placement to report in env: that of the last run with more than one
 * thread, or else of the last single-thread run; null when not pinned or
 * nothing ran.
 */
json_t *bench_placement_json(void);

/* Monotonic time in nanoseconds. */
uint64_t bench_now_ns(void);

/* ---- repetitions and statistics: stats.c, schedule.c ---------------------- */

struct bench_stats {
	double min, max, median;
	double rel_spread; /* (max - min) / median; 0 when median is 0 */
};

void bench_stats(const double *v, size_t n, struct bench_stats *st);
double bench_median(const double *v, size_t n);

/*
 * One subject's repetitions, in the order they ran: the standard figures
 * of every repetition, from which bench_result_json makes a result.
 */
struct bench_series {
	unsigned int cap, n; /* repetitions expected, recorded */
	unsigned int threads;
	double *ns_per_op, *ops_per_sec, *gb_per_sec, *fairness;
	bool has_gb;		      /* gb_per_sec is meaningful */
	int *cpus;		      /* [threads] placement of the last repetition */
	uint64_t *thread_ops;	      /* [cap][threads] */
	struct bench_machine machine; /* summed over the repetitions */
};

int bench_series_init(struct bench_series *s, unsigned int reps, unsigned int threads);
/* Record one repetition; bytes_per_op > 0 also gives gb_per_sec. */
void bench_series_add(struct bench_series *s, const struct bench_run *r, double bytes_per_op);
/*
 * The same for a repetition measured in slices, r its slices' sums: its
 * machine state is one interval, from start (sampled before its first
 * slice) to now, the other subjects' slices between them included.
 */
void bench_series_add_sliced(struct bench_series *s, struct bench_run *r, double bytes_per_op,
			     const struct bench_machine_sample *start);
void bench_series_free(struct bench_series *s);

/*
 * Which of n subjects runs k-th in repetition rep (from 0): table order
 * when rep is even, reverse when it is odd. Every schedule of the bench
 * (bench_interleave, bench_interleave_rounds, the extra repetitions of
 * --until-decided) takes its order from here, so a subject's repetitions
 * alternate between the two orders whichever schedule ran them.
 */
static inline size_t bench_turn(size_t k, size_t n, unsigned int rep)
{
	return rep % 2 ? n - 1 - k : k;
}

/*
 * bench_turn in slice slice of slices of repetition rep: the order
 * alternates from slice to slice, and goes on alternating into the next
 * repetition (one slice: bench_turn's).
 */
static inline size_t bench_slice_turn(size_t k, size_t n, unsigned int rep, unsigned int slice,
				      unsigned int slices)
{
	return bench_turn(k, n, rep * slices + slice);
}

/*
 * How many slices a repetition of duration seconds is cut into: one per
 * min_slice seconds of it, at most most, at least one.
 */
static inline unsigned int bench_slices_in(double duration, double min_slice, unsigned int most)
{
	double n = duration / min_slice + 1e-9;

	return n >= most ? most : n >= 1 ? (unsigned int)n : 1;
}

/*
 * A scenario's measurement: subject's repetition rep (from 0), or slice
 * slice of it (from 0) where the schedule cuts repetitions into slices
 * (bench_interleave_rounds); 0 of 1 where it does not. 0, or non-zero to
 * stop the schedule.
 */
typedef int (*bench_measure_fn)(void *ctx, size_t subject, unsigned int rep, unsigned int slice);

/*
 * Call measure(ctx, subject, rep, 0) for rep 0..reps-1 and, within each
 * repetition, every subject in bench_turn's order. Drift over time hits
 * all subjects alike, and no subject always runs first, or just after the
 * same one (a subject's figure can depend on that). Shows progress: label
 * says which scenario (and thread count, size, ...), names[i] what subject
 * i is (NULL: the subjects' names; e.g. "lockref, retry limit 15"). Stops
 * at the first non-zero return and returns it.
 */
int bench_interleave(const char *label, const struct bench_subject *const *subjects,
		     const char *const *names, size_t nr_subjects, unsigned int reps,
		     bench_measure_fn measure, void *ctx);

/*
 * A point of bench_interleave_rounds: what its progress says (label) and
 * what measure is given for it (ctx).
 */
struct bench_round_point {
	const char *label;
	void *ctx;
	unsigned int slices; /* each repetition cut into this many (0: one); below */
};

/*
 * bench_interleave over several points at once, in rounds: repetition rep
 * of every point, each point's subjects in bench_interleave's order for
 * rep, before repetition rep + 1 of any. A point's repetitions are then
 * spread over the whole run instead of taken back to back, so they sample
 * what drifts over seconds (on a shared machine the ratio of two subjects
 * itself moves from one second to the next), while each repetition still
 * runs its subjects side by side. bench_interleave is the case of one
 * point and one slice.
 *
 * A point's slices > 1 cuts each of its repetitions into that many, taken
 * back to back: every subject's slice 0, then every subject's slice 1, and
 * so on, the order of the subjects alternating from slice to slice
 * (bench_slice_turn); measure sums a subject's slices into its repetition.
 * Two subjects' times are then taken a slice apart, not a whole
 * repetition, and each repetition holds both orders alike.
 */
int bench_interleave_rounds(const struct bench_round_point *points, size_t nr_points,
			    const struct bench_subject *const *subjects, const char *const *names,
			    size_t nr_subjects, unsigned int reps, bench_measure_fn measure);

/* ---- results: results.c, env.c ------------------------------------------ */

enum bench_headline {
	BENCH_HEADLINE_NS_PER_OP,
	BENCH_HEADLINE_OPS_PER_SEC,
	BENCH_HEADLINE_GB_PER_SEC
};

/*
 * A result object with every field the JSON contract requires:
 * scenario, subject, threads, size, retry_limit (null when 0), the median
 * ops_per_sec / ns_per_op / gb_per_sec, headline, runs and spread of the
 * headline figure, per_thread (median ops of each thread and its CPU) and
 * fairness (median over repetitions), machine_state (the machine during the
 * repetitions) and timer_resolution_ns. Scenarios add their own fields.
 */
json_t *bench_result_json(const char *scenario, const char *subject, const struct bench_series *s,
			  enum bench_headline headline, size_t size, unsigned int retry_limit);

/* A JSON array of n reals. */
json_t *bench_json_reals(const double *v, size_t n);

/*
 * The "env" object: CPU, flags, arch, vendor, kernel, libc, compiler,
 * online CPUs, placement (see bench_placement_json), date (start_time,
 * UTC), command line.
 */
json_t *bench_env_json(long long start_time, int argc, char *const argv[]);

/*
 * The caches hl_zero's automatic plan is derived from, as the library reads
 * them (CPUID, then sysfs, then sysconf: src/zero_plan.h): bytes, 0 when
 * unknown; from names the sources ("CPUID 0x8000001D+sysfs"), "" if none.
 */
struct bench_zero_caches {
	size_t l1d, l2, l3;
	unsigned int l3_sharing;
	char from[48];
};

void bench_zero_caches(struct bench_zero_caches *c);

/* ---- messages: msg.c ---------------------------------------------------- */

/* "hotline-bench: <msg>" on stderr, one line (control characters masked). */
void bench_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "hotline-bench: note: <msg>" on stderr, one line. */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- progress: progress.c ----------------------------------------------- */

/*
 * Progress on stderr. On a terminal: one updating line, the position in the
 * whole run, the time left, what is measured and the repetition ("[37/120,
 * 3:10 left] contend, 4 threads: lockref, rep 2/5"), cut to the terminal's
 * width. Otherwise one line per finished subject (its repetitions' time)
 * and per finished scenario, with the time elapsed and left; no line that
 * updates.
 *
 * main.c: bench_progress_plan for every scenario to run, in order, before
 * the first; bench_progress_scenario before each, bench_progress_scenario_done
 * after it. bench_interleave does the rest.
 */
void bench_progress_plan(const char *scenario, const struct bench_plan *plan);
void bench_progress_scenario(const char *scenario);
void bench_progress_scenario_done(const char *scenario);
/* One measurement starts: label (scenario and group), item (subject), rep of reps. */
void bench_progress(const char *label, const char *item, unsigned int rep, unsigned int reps);
/*
 * It ended: returns its seconds; counts it when whole (a repetition's
 * last slice, or an uncut one), so that the position counts repetitions.
 */
double bench_progress_item_done(bool whole);
/* A subject's last repetition ended: its line, when stderr is not a terminal. */
void bench_progress_subject_done(const char *label, const char *item, unsigned int reps,
				 double seconds);
/*
 * --until-decided (questions.h): an extra, unplanned measurement starts;
 * text says which question, the subject and the interval ("until decided:
 * refcount / atomic_faa at 2 threads, rep 7: atomic_faa; [0.93, 1.01]
 * straddles 0.95"). On a terminal, the updating line.
 */
void bench_progress_extra(const char *text);
/* It ended: counted apart from the planned ones when whole (as above); returns its seconds. */
double bench_progress_extra_done(bool whole);
/* When stderr is not a terminal: a line with text, the position and the times. */
void bench_progress_extra_line(const char *text);
/* What is left of --until-decided's budget, in seconds (0: off or spent), for the times shown. */
void bench_progress_budget(double left);
/* Clear the updating line (before a message or a table). */
void bench_progress_done(void);

#endif /* HOTLINE_BENCH_HARNESS_H */
