// SPDX-License-Identifier: MIT
/*
 * until_decided.c - hotline-bench --until-decided: more repetitions where
 * a question of questions.c is "cannot tell at this noise", within a time
 * budget. See questions.h.
 *
 * At each point (a thread count, a size and mode, refcount-timing's one
 * point), after the planned repetitions, every question of the table that
 * the point answers is judged as the report will judge it (decide.c,
 * stats.py's rule, on the values the JSON will hold: each run rounded to
 * the JSON's 10 significant digits). While one is "cannot tell", the
 * subjects of its group run one more repetition: the group is every
 * subject that a question at this point pairs with one of them (a figure
 * included), so that every pair the report reads stays paired (runs[k] of
 * each ran beside runs[k] of the other, for every k). The subjects of a
 * round run one after the other in the order bench_turn gives for the
 * repetition they take (every subject of a round has as many as the
 * others: all start with the planned ones and each round adds one), so
 * that the extra repetitions go on alternating as the planned ones did,
 * and subject and base take turns going first; where the point's
 * repetitions are cut into slices (bench_point.slices), a round takes the
 * group's slices by turns as bench_interleave_rounds does. It stops when every
 * question there is decided, when the group has the cap of repetitions
 * (BENCH_UD_CAP_FACTOR x the planned, at least BENCH_UD_CAP_MIN: 5 is the
 * fewest that can give a verdict), or when the scenario's share of the
 * budget is spent (the budget is for the whole invocation, shared as
 * bench_until_decided_scenario says): a round starts only while some is
 * left, so a share can be overrun by at most one round. Only those
 * subjects get extra runs; the others at the point keep their planned
 * ones. At several points at once (a sweep's sizes:
 * bench_until_decided_points) the rounds go round the points still
 * deciding, one round each in turn, so that a point's extra repetitions
 * are spread over the time the others take, as its planned ones are; each
 * point is decided, capped and recorded as it would be alone, and the
 * budget is spent in that order. A question with two bases (questions.h:
 * base2) joins both to its group, and its value in repetition k is over
 * the larger of the two bases' runs k.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "questions.h"

#define BENCH_UD_CAP_FACTOR 4
#define BENCH_UD_CAP_MIN    10
#define BENCH_UD_MAX_AT	    32		/* questions at one point, at most */
#define BENCH_UD_BEYOND	    (32u << 20) /* criteria.BEYOND_CACHE: no cache size known */

static struct {
	bool on;
	double budget, spent; /* seconds */
	double allowed;	      /* the running scenario may spend until spent reaches this */
	unsigned int planned;
	const char *const *scenarios;
	const double *planned_s;
	size_t nr_scenarios;
	json_t *decisions, *shares;
	json_t *share; /* the running scenario's entry of shares */
} ud;

void bench_until_decided_init(double budget_s, unsigned int planned, const char *const *scenarios,
			      const double *planned_s, size_t nr_scenarios)
{
	ud.on = budget_s > 0;
	ud.budget = budget_s;
	ud.planned = planned;
	ud.scenarios = scenarios;
	ud.planned_s = planned_s;
	ud.nr_scenarios = nr_scenarios;
	if (ud.on && !ud.decisions) {
		ud.decisions = json_array();
		ud.shares = json_array();
	}
	bench_progress_budget(bench_until_decided_left());
}

/*
 * Its share: what is left of the budget, in proportion to its planned time
 * among the scenarios still to run that have questions (the last of them
 * gets all that is left). So an early scenario (refcount-timing, whose
 * rounds take 9 s) cannot spend what the later ones may need; what one
 * leaves unspent goes to those after it.
 */
void bench_until_decided_scenario(const char *scenario)
{
	double mine = 0, all = 0, left = ud.budget - ud.spent;
	size_t at = ud.nr_scenarios, asked = 0;

	if (!ud.on)
		return;
	for (size_t i = 0; i < ud.nr_scenarios; i++) {
		if (at == ud.nr_scenarios && strcmp(ud.scenarios[i], scenario) == 0)
			at = i;
	}
	for (size_t i = at; i < ud.nr_scenarios; i++) {
		if (!bench_questions_asked(ud.scenarios[i]))
			continue;
		asked++;
		all += ud.planned_s[i] > 0 ? ud.planned_s[i] : 0;
		if (i == at)
			mine = ud.planned_s[i] > 0 ? ud.planned_s[i] : 0;
	}
	if (at == ud.nr_scenarios || !bench_questions_asked(scenario))
		left = 0;
	else if (asked > 1 && all > 0)
		left *= mine / all;
	ud.allowed = ud.spent + (left > 0 ? left : 0);
	ud.share = json_pack("{s:s, s:f, s:f}", "scenario", scenario, "allowed_s",
			     left > 0 ? left : 0.0, "spent_s", 0.0);
	json_array_append_new(ud.shares, ud.share);
}

bool bench_until_decided_on(void)
{
	return ud.on;
}

unsigned int bench_reps_cap(unsigned int planned)
{
	unsigned int cap = planned * BENCH_UD_CAP_FACTOR;

	if (!ud.on)
		return planned;
	return cap > BENCH_UD_CAP_MIN ? cap : BENCH_UD_CAP_MIN;
}

double bench_until_decided_left(void)
{
	return ud.on && ud.spent < ud.budget ? ud.budget - ud.spent : 0;
}

/* Whether the running scenario may start another round. */
static bool may_spend(void)
{
	return ud.spent < ud.allowed && ud.spent < ud.budget;
}

/* ---- which questions a point answers -------------------------------------- */

static bool scenario_runs(const char *name)
{
	for (size_t i = 0; i < ud.nr_scenarios; i++) {
		if (strcmp(ud.scenarios[i], name) == 0)
			return true;
	}
	return false;
}

static bool size_matches(const struct bench_question *q, const struct bench_point *p)
{
	if (q->beyond_cache)
		return p->size > (p->llc ? p->llc : BENCH_UD_BEYOND);
	if (q->size_each[0]) {
		for (size_t i = 0; i < 4 && q->size_each[i]; i++) {
			if (q->size_each[i] == p->size)
				return true;
		}
		return false;
	}
	return p->size >= q->size_from && (!q->size_to || p->size <= q->size_to);
}

/* The first subject of p named name (at retry limit limit, unless 0), or -1. */
static int find_subject(const struct bench_point *p, const char *name, unsigned int limit)
{
	for (size_t i = 0; i < p->n; i++) {
		unsigned int got = p->retry_limits ? p->retry_limits[i] : 0;

		if (strcmp(p->subjects[i]->name, name) == 0 && (!limit || got == limit))
			return (int)i;
	}
	return -1;
}

static bool point_matches(const struct bench_question *q, const struct bench_point *p)
{
	if (strcmp(q->scenario, p->scenario) != 0)
		return false;
	if (q->unless_run && scenario_runs(q->unless_run))
		return false;
	if (q->threads == BENCH_Q_MOST_THREADS ? !p->most_threads
	    : q->threads		       ? q->threads != p->threads
					       : false)
		return false;
	if (q->mode && (!p->mode || strcmp(q->mode, p->mode) != 0))
		return false;
	if ((q->beyond_cache || q->size_each[0] || q->size_from || q->size_to) &&
	    (!p->size || !size_matches(q, p)))
		return false;
	return true;
}

/* ---- the values the report will judge ------------------------------------- */

/* x as the JSON carries it (JSON_REAL_PRECISION(10) in main.c: 10 significant digits). */
static double as_in_json(double x)
{
	char buf[40];

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof(buf), "%.10g", x);
	return strtod(buf, NULL);
}

/*
 * The per-repetition values of question q between subjects s and b (and
 * b2, the second base, unless NO_BASE2), into out (room for the series'
 * n); their number, 0 when they do not pair (as criteria.side_by_side and
 * side_by_side_max: numbers everywhere, a ratio's base above 0).
 */
#define NO_BASE2 SIZE_MAX

static size_t q_values(const struct bench_question *q, const struct bench_point *p, size_t s,
		       size_t b, size_t b2, double *out)
{
	const struct bench_series *a = &p->series[s], *c = &p->series[b];
	const struct bench_series *c2 = b2 == NO_BASE2 ? NULL : &p->series[b2];

	if (a->n != c->n || !a->n || (c2 && c2->n != a->n))
		return 0;
	for (unsigned int k = 0; k < a->n; k++) {
		double x, y;

		switch (q->value) {
		case BENCH_Q_OPS_RATIO:
			x = as_in_json(a->ops_per_sec[k]);
			y = as_in_json(c->ops_per_sec[k]);
			if (!isfinite(x) || !isfinite(y) || !(y > 0))
				return 0;
			out[k] = x / y;
			break;
		case BENCH_Q_GB_RATIO:
			x = as_in_json(a->gb_per_sec[k]);
			y = as_in_json(c->gb_per_sec[k]);
			if (c2) {
				double y2 = as_in_json(c2->gb_per_sec[k]);

				if (!isfinite(y2))
					return 0;
				y = y2 > y ? y2 : y;
			}
			if (!isfinite(x) || !isfinite(y) || !(y > 0))
				return 0;
			out[k] = x / y;
			break;
		case BENCH_Q_TIME_RATIO: /* refcount-timing's ratio_runs */
			out[k] = as_in_json(a->ns_per_op[k] / c->ns_per_op[k]);
			if (!isfinite(out[k]))
				return 0;
			break;
		case BENCH_Q_NS_DIFF: /* criteria.ns_runs: size / GB/s of each run */
			x = as_in_json(a->gb_per_sec[k]);
			y = as_in_json(c->gb_per_sec[k]);
			if (!isfinite(x) || !isfinite(y) || !(x > 0) || !(y > 0))
				return 0;
			out[k] = (double)p->size / x - (double)p->size / y;
			break;
		}
	}
	return a->n;
}

/* ---- one point ------------------------------------------------------------ */

struct ud_question {
	const struct bench_question *q;
	size_t s, b;  /* subject, base: indices into the point's subjects */
	size_t b2;    /* the second base, or NO_BASE2 */
	size_t group; /* the group's representative subject */
	bool paired;  /* the values pair up */
	bool extra;   /* its group got extra repetitions */
	enum bench_verdict planned_verdict;
	struct bench_judgement j;
};

static size_t group_of(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

static void judge(const struct bench_point *p, struct ud_question *u, double *values)
{
	size_t n = q_values(u->q, p, u->s, u->b, u->b2, values);

	u->paired = n > 0;
	bench_judge(values, n, u->q->threshold, u->q->claim != BENCH_Q_AT_MOST, &u->j);
}

/* The repetitions of every subject and base at the point, summed. */
static size_t reps_sum(const struct bench_point *p, const struct ud_question *u, size_t nr)
{
	size_t sum = 0;

	for (size_t i = 0; i < nr; i++) {
		sum += p->series[u[i].s].n + p->series[u[i].b].n;
		if (u[i].b2 != NO_BASE2)
			sum += p->series[u[i].b2].n;
	}
	return sum;
}

static bool deciding(const struct ud_question *u)
{
	return u->paired && u->q->claim != BENCH_Q_FIGURE && u->j.verdict == BENCH_CANNOT_TELL;
}

/* "refcount / atomic_faa at 2 threads", "hl_zero / glibc_memset, hot 4K". */
static void q_where(const struct ud_question *u, const struct bench_point *p, char *buf, size_t len)
{
	const struct bench_question *q = u->q;
	char limit[32] = "", base[96];

	bench_question_base(q, base, sizeof(base));
	if (q->subject_limit)
		snprintf(limit, sizeof(limit), " (retry limit %u)", q->subject_limit);
	if (p->mode)
		snprintf(buf, len, "%s%s / %s in %s", q->subject, limit, base, p->label);
	else if (p->threads && !p->whole_time)
		snprintf(buf, len, "%s%s / %s at %u thread%s", q->subject, limit, base, p->threads,
			 p->threads == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s / %s time", q->subject, base);
}

/*
 * "[0.93, 1.01] straddles 0.95": the interval and why it does not decide;
 * "[0.951, 1.03] at 95.1%, claim >= 0.95" when it does.
 */
static void q_state(const struct ud_question *u, char *buf, size_t len)
{
	const struct bench_judgement *j = &u->j;
	const char *unit = u->q->value == BENCH_Q_NS_DIFF ? " ns" : "";
	char iv[64];

	if (j->n < 2) {
		snprintf(buf, len, "one repetition, no interval");
		return;
	}
	snprintf(iv, sizeof(iv), "[%.4g, %.4g]%s", j->lo, j->hi, unit);
	if (j->level < BENCH_MIN_LEVEL)
		snprintf(buf, len, "%s at only %.1f%%, against %g%s", iv, 100 * j->level,
			 u->q->threshold, unit);
	else if (j->verdict == BENCH_CANNOT_TELL && strstr(j->why, "clusters"))
		snprintf(buf, len, "%s, two clusters either side of %g%s", iv, u->q->threshold,
			 unit);
	else if (j->verdict == BENCH_CANNOT_TELL)
		snprintf(buf, len, "%s straddles %g%s", iv, u->q->threshold, unit);
	else
		snprintf(buf, len, "%s at %.1f%%, claim %s %g%s", iv, 100 * j->level,
			 u->q->claim == BENCH_Q_AT_MOST ? "<=" : ">=", u->q->threshold, unit);
}

/* One round: every subject of the groups that still decide, turn about. */
static int round_of(const struct bench_point *p, struct ud_question *u, size_t nr, size_t *parent,
		    const bool *run_group)
{
	char what[512], where[160], state[120];
	uint64_t t0 = bench_now_ns();
	const unsigned int slices = p->slices ? p->slices : 1;
	unsigned int rep = 0;
	double took;

	/* The repetition this round takes: the same for every subject that runs. */
	for (size_t i = 0; i < p->n; i++) {
		if (run_group[group_of(parent, i)]) {
			rep = p->series[i].n;
			break;
		}
	}

	/* The line (not a terminal): each question this round is for. */
	for (size_t i = 0; i < nr; i++) {
		if (!deciding(&u[i]) || !run_group[u[i].group])
			continue;
		q_where(&u[i], p, where, sizeof(where));
		q_state(&u[i], state, sizeof(state));
		snprintf(what, sizeof(what), "until decided: %s, rep %u, %s", where,
			 p->series[u[i].s].n + 1, state);
		bench_progress_extra_line(what);
	}
	for (unsigned int slice = 0; slice < slices; slice++) {
		for (size_t k = 0; k < p->n; k++) {
			size_t i = bench_slice_turn(k, p->n, rep, slice, slices);
			size_t g = group_of(parent, i);
			const char *name = p->names ? p->names[i] : p->subjects[i]->name;
			const struct ud_question *why = NULL;
			int ret;

			if (!run_group[g])
				continue;
			/* The terminal's line names the first question this subject runs for. */
			for (size_t j = 0; j < nr && !why; j++) {
				if (u[j].group == g && deciding(&u[j]))
					why = &u[j];
			}
			q_where(why, p, where, sizeof(where));
			q_state(why, state, sizeof(state));
			snprintf(what, sizeof(what), "until decided: %s, rep %u: %s; %s", where,
				 rep + 1, name, state);
			bench_progress_extra(what);
			ret = p->measure(p->ctx, i, rep, slice);
			if (ret)
				return ret;
			bench_progress_extra_done(slice + 1 == slices);
		}
	}
	took = (double)(bench_now_ns() - t0) / 1e9;
	ud.spent += took;
	bench_progress_budget(bench_until_decided_left());
	if (ud.share)
		json_real_set(json_object_get(ud.share, "spent_s"),
			      json_real_value(json_object_get(ud.share, "spent_s")) + took);
	return 0;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void record(const struct bench_point *p, const struct ud_question *u, const char *stopped)
{
	const struct bench_question *q = u->q;
	unsigned int limit = p->retry_limits ? p->retry_limits[u->s] : 0;
	json_t *d = json_object(), *bases = json_array();
	char base[96];

	bench_question_base(q, base, sizeof(base));
	json_array_append_new(bases, json_string(q->base));
	if (q->base2)
		json_array_append_new(bases, json_string(q->base2));

	json_object_set_new(d, "question", json_integer(q - bench_questions));
	json_object_set_new(d, "scenario", json_string(p->scenario));
	json_object_set_new(d, "subject", json_string(q->subject));
	json_object_set_new(d, "retry_limit", limit ? json_integer(limit) : json_null());
	json_object_set_new(d, "base", json_string(base));
	json_object_set_new(d, "threads", p->threads ? json_integer(p->threads) : json_null());
	json_object_set_new(d, "size", p->size ? json_integer((json_int_t)p->size) : json_null());
	json_object_set_new(d, "mode", p->mode ? json_string(p->mode) : json_null());
	json_object_set_new(d, "repetitions", json_integer((json_int_t)u->j.n));
	json_object_set_new(d, "planned", json_integer(ud.planned));
	json_object_set_new(d, "of",
			    json_string(q->value == BENCH_Q_NS_DIFF ? "difference" : "ratio"));
	json_object_set_new(d, "median", real_or_null(u->j.median));
	json_object_set_new(d, "interval",
			    u->j.n >= 2 ? json_pack("[f, f]", u->j.lo, u->j.hi) : json_null());
	json_object_set_new(d, "confidence", json_real(u->j.level));
	json_object_set_new(d, "threshold", json_real(q->threshold));
	json_object_set_new(d, "verdict", json_string(bench_verdict_text(u->j.verdict)));
	json_object_set_new(d, "why", json_string(u->j.why));
	json_object_set_new(d, "planned_verdict",
			    json_string(bench_verdict_text(u->planned_verdict)));
	json_object_set_new(d, "stopped", json_string(stopped));
	json_object_set_new(d, "bases", bases);
	json_array_append_new(ud.decisions, d);
}

/* The line at the end (not a terminal), for a question that got extra repetitions. */
static void say_outcome(const struct bench_point *p, const struct ud_question *u,
			const char *stopped)
{
	char where[160], state[120], line[512];

	q_where(u, p, where, sizeof(where));
	q_state(u, state, sizeof(state));
	snprintf(line, sizeof(line), "until decided: %s: %s after %zu repetitions, %s%s", where,
		 bench_verdict_text(u->j.verdict), u->j.n, state,
		 strcmp(stopped, "cap") == 0	  ? " (the cap reached)"
		 : strcmp(stopped, "budget") == 0 ? " (the time budget spent)"
						  : "");
	bench_progress_extra_line(line);
}

/* The questions asked of point p whose subjects it measures, into u; their number. */
static size_t gather(const struct bench_point *p, struct ud_question *u)
{
	size_t nr = 0;

	for (size_t i = 0; i < bench_nr_questions && nr < BENCH_UD_MAX_AT; i++) {
		const struct bench_question *q = &bench_questions[i];
		int s, b, b2 = -1;

		if (!point_matches(q, p))
			continue;
		s = find_subject(p, q->subject, q->subject_limit);
		b = find_subject(p, q->base, 0);
		if (q->base2)
			b2 = find_subject(p, q->base2, 0);
		if (s < 0 || b < 0 || s == b || (q->base2 && (b2 < 0 || b2 == s)))
			continue;
		u[nr++] = (struct ud_question){.q = q,
					       .s = (size_t)s,
					       .b = (size_t)b,
					       .b2 = b2 < 0 ? NO_BASE2 : (size_t)b2};
	}
	return nr;
}

/* The groups: subjects joined by a question (figures too), union-find; the planned verdicts. */
static void join_groups(const struct bench_point *p, struct ud_question *u, size_t nr,
			size_t *parent, double *values)
{
	for (size_t i = 0; i < p->n; i++)
		parent[i] = i;
	for (size_t i = 0; i < nr; i++) {
		parent[group_of(parent, u[i].s)] = group_of(parent, u[i].b);
		if (u[i].b2 != NO_BASE2)
			parent[group_of(parent, u[i].b2)] = group_of(parent, u[i].b);
	}
	for (size_t i = 0; i < nr; i++) {
		u[i].group = group_of(parent, u[i].s);
		judge(p, &u[i], values);
		u[i].planned_verdict = u[i].j.verdict;
	}
}

/* One point's questions and the state of its rounds (until_decided_points). */
struct ud_point {
	const struct bench_point *p;
	struct ud_question u[BENCH_UD_MAX_AT];
	size_t nr, *parent;
	bool *run_group, done;
	double *values;
};

/*
 * One round at point s while a question is undecided, under the cap,
 * within the budget; s->done when none is (or no series grew: full). 0,
 * or measure's.
 */
static int next_round(struct ud_point *s, unsigned int cap)
{
	const struct bench_point *p = s->p;
	struct ud_question *u = s->u;
	bool any = false;
	size_t before;
	int ret;

	memset(s->run_group, 0, p->n * sizeof(*s->run_group));
	for (size_t i = 0; i < s->nr; i++) {
		if (deciding(&u[i]) && p->series[u[i].s].n < cap)
			s->run_group[u[i].group] = any = true;
	}
	if (!any || !may_spend()) {
		s->done = true;
		return 0;
	}
	for (size_t i = 0; i < s->nr; i++)
		u[i].extra |= s->run_group[u[i].group];
	before = reps_sum(p, u, s->nr);
	ret = round_of(p, u, s->nr, s->parent, s->run_group);
	if (ret)
		return ret;
	if (reps_sum(p, u, s->nr) == before) {
		s->done = true; /* no series grew (full): never loop for nothing */
		return 0;
	}
	for (size_t i = 0; i < s->nr; i++)
		judge(p, &u[i], s->values);
	return 0;
}

/* Each paired question's decision into the JSON, and a line where it took extra. */
static void conclude(const struct bench_point *p, const struct ud_question *u, size_t nr,
		     unsigned int cap)
{
	for (size_t i = 0; i < nr; i++) {
		const char *stopped = !deciding(&u[i])		   ? "decided"
				      : p->series[u[i].s].n >= cap ? "cap"
								   : "budget";

		if (!u[i].paired || u[i].q->claim == BENCH_Q_FIGURE)
			continue;
		record(p, &u[i], stopped);
		if (u[i].extra || strcmp(stopped, "decided") != 0)
			say_outcome(p, &u[i], stopped);
	}
}

/* s for point p: its questions gathered and grouped; done at once when it has none. 0 or 1. */
static int point_init(struct ud_point *s, const struct bench_point *p, unsigned int cap)
{
	s->p = p;
	s->nr = gather(p, s->u);
	s->done = !s->nr;
	if (s->done)
		return 0;
	s->parent = calloc(p->n, sizeof(*s->parent));
	s->run_group = calloc(p->n, sizeof(*s->run_group));
	s->values = calloc(cap, sizeof(*s->values));
	if (!s->parent || !s->run_group || !s->values) {
		bench_error("out of memory");
		return 1;
	}
	join_groups(p, s->u, s->nr, s->parent, s->values);
	return 0;
}

static void point_free(struct ud_point *s)
{
	free(s->parent);
	free(s->run_group);
	free(s->values);
}

int bench_until_decided_points(const struct bench_point *points, size_t n)
{
	unsigned int cap = bench_reps_cap(ud.planned);
	struct ud_point *s;
	bool more = true;
	int ret = 0;

	if (!ud.on || !n)
		return 0;
	s = calloc(n, sizeof(*s));
	if (!s) {
		bench_error("out of memory");
		return 1;
	}
	for (size_t k = 0; k < n && !ret; k++)
		ret = point_init(&s[k], &points[k], cap);
	/* A round at every point still deciding, then the next: each point's extra spread. */
	while (!ret && more) {
		more = false;
		for (size_t k = 0; k < n && !ret; k++) {
			if (s[k].done)
				continue;
			ret = next_round(&s[k], cap);
			more |= !s[k].done;
		}
	}
	for (size_t k = 0; k < n; k++) {
		if (!ret && s[k].nr)
			conclude(s[k].p, s[k].u, s[k].nr, cap);
		point_free(&s[k]);
	}
	free(s);
	return ret;
}

int bench_until_decided(const struct bench_point *p)
{
	return bench_until_decided_points(p, 1);
}

json_t *bench_until_decided_json(void)
{
	if (!ud.on)
		return NULL;
	return json_pack("{s:f, s:f, s:i, s:i, s:s, s:O, s:o, s:O}", "budget_s", ud.budget,
			 "spent_s", ud.spent, "planned", (int)ud.planned, "cap",
			 (int)bench_reps_cap(ud.planned), "cap_rule",
			 "4 x the planned repetitions, at least 10", "shares", ud.shares,
			 "questions", bench_questions_json(), "decisions", ud.decisions);
}
