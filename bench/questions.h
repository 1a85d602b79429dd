/* SPDX-License-Identifier: MIT */
/*
 * questions.h - the questions hotline-bench can decide while it runs
 * (--until-decided), and the driver that decides them: after the planned
 * repetitions at a point (a thread count, a size and mode, refcount-timing's
 * one point), while a question there is "cannot tell", its subject and base
 * run once more side by side, until it is decided, the time budget is
 * spent, or the cap on repetitions is reached.
 *
 * The table is the report's: data/questions.json holds the questions once,
 * by name; the report loads it (criteria.py) and bench/gen_questions.py
 * turns its "bench" list, the comparisons that are paired (both figures from
 * the same point, repetitions interleaved), into bench_questions[] at build
 * time. tests/bench/questions_match.py compares the two, entry by entry. The
 * rule is decide.c's (stats.py's, held equal by tests/bench/decide_agrees.py).
 */
#ifndef HOTLINE_BENCH_QUESTIONS_H
#define HOTLINE_BENCH_QUESTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "harness.h"

/* What a question compares, per repetition k. */
enum bench_q_value {
	BENCH_Q_OPS_RATIO,  /* subject's ops/s over base's (contend, lockref-sweep) */
	BENCH_Q_GB_RATIO,   /* subject's GB/s over base's (zero, copy) */
	BENCH_Q_TIME_RATIO, /* subject's ns/op over base's (refcount-timing's ratio_runs) */
	BENCH_Q_NS_DIFF,    /* subject's ns per call minus base's: size / GB/s (zero, copy) */
};

/* Its claim. */
enum bench_q_claim {
	BENCH_Q_FIGURE,	  /* no claim: a figure, paired, that must stay paired */
	BENCH_Q_AT_LEAST, /* value >= threshold */
	BENCH_Q_AT_MOST,  /* value <= threshold */
};

#define BENCH_Q_MOST_THREADS UINT_MAX /* the run's highest thread count */

struct bench_question {
	const char *scenario;
	const char *subject;
	unsigned int subject_limit; /* the subject's retry limit; 0 = whatever it has */
	const char *base;
	/*
	 * A second base, or NULL: the value is then over the larger of the
	 * two bases' figures in each repetition (both ran in the same round).
	 */
	const char *base2;
	/* The point: threads (0 = not a thread count), or a zero mode and sizes. */
	unsigned int threads;
	const char *mode;
	size_t size_from, size_to; /* inclusive; size_to 0 = no bound */
	size_t size_each[4];	   /* these sizes only (0-terminated), when [0] != 0 */
	bool beyond_cache;	   /* every size above the last-level cache */
	enum bench_q_value value;
	enum bench_q_claim claim;
	double threshold;
	/* Asked here only when this scenario is not run (the report asks it first). */
	const char *unless_run;
	const char *text;
	const char *from[3]; /* where the report's lists hold it: "CRITERIA[0]" */
	const char *asks[3]; /* the same by name: data/questions.json's ids */
};

extern const struct bench_question bench_questions[];
extern const size_t bench_nr_questions;

/* Whether the table has a question about scenario. */
bool bench_questions_asked(const char *scenario);

/* The base's name as the report writes it: "base", or "max(base, base2)". */
void bench_question_base(const struct bench_question *q, char *buf, size_t len);

/* The table as JSON, for config.until_decided.questions (bench/README.md). */
json_t *bench_questions_json(void);

/* ---- the driver ------------------------------------------------------------ */

/*
 * --until-decided: budget in seconds for the whole invocation (0: off), the
 * planned repetitions; the scenarios to run, in order, with their planned
 * seconds (struct bench_plan), by which the budget is shared.
 */
void bench_until_decided_init(double budget_s, unsigned int planned, const char *const *scenarios,
			      const double *planned_s, size_t nr_scenarios);
/* The scenario named starts: its share of what is left of the budget. */
void bench_until_decided_scenario(const char *scenario);
bool bench_until_decided_on(void);
/* Most repetitions a subject may get: the cap (planned when off). */
unsigned int bench_reps_cap(unsigned int planned);
/* Seconds of the budget left (0 when off or spent). */
double bench_until_decided_left(void);

/* One point of a scenario, after its planned repetitions. */
struct bench_point {
	const char *scenario;
	const char *label;    /* the progress's ("contend, 2 threads") */
	unsigned int threads; /* 0: not a thread-count point */
	bool most_threads;    /* threads is the highest this scenario runs */
	bool whole_time;      /* a whole run's time: "time", not "at N threads" */
	const char *mode;     /* zero: "hot" or "cold"; copy: also "probe", "word"; else NULL */
	size_t size, llc;     /* zero: bytes per call; the last-level cache */
	size_t n;	      /* subjects measured at this point */
	const struct bench_subject *const *subjects;
	const unsigned int *retry_limits; /* [n], or NULL: none */
	const char *const *names;	  /* [n] for the progress, or NULL: the subjects' names */
	struct bench_series *series;	  /* [n], each with room for bench_reps_cap() */
	bench_measure_fn measure;
	void *ctx;
	unsigned int slices; /* each repetition cut into this many (0: one), as measured */
};

/*
 * Decide the questions of this point: more repetitions while one is
 * "cannot tell" (see the head comment). Records a decision per question
 * with a threshold. Returns 0, or what measure returned (non-zero).
 * Does nothing when --until-decided is off.
 */
int bench_until_decided(const struct bench_point *p);

/*
 * bench_until_decided at several points at once (a sweep's sizes), in
 * rounds: one more repetition at every point still deciding, then the
 * next, so that a point's extra repetitions are spread as its planned
 * ones are (bench_interleave_rounds). Each point is decided, capped and
 * recorded as alone; the budget is spent in round order across them.
 */
int bench_until_decided_points(const struct bench_point *points, size_t n);

/* config.until_decided (bench/README.md), or NULL when the option is off. */
json_t *bench_until_decided_json(void);

#endif /* HOTLINE_BENCH_QUESTIONS_H */
