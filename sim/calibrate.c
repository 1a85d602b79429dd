/*
 * hotline-sim --calibrate FILE: fit the model's cost parameters to what
 * hotline-bench measured on this machine (docs/sim.md, "Calibrating to this
 * machine").
 *
 * The points are the file's contend results at 1 and 2 threads (and not
 * above env.cpus: an oversubscribed figure measures the scheduler) of the
 * subjects the model knows. The bench's op is a get and a put, two of the
 * model's count updates, so a model figure is twice the simulated ns per
 * update. The objective is the sum of squared log errors of ns per op, plus
 * a quarter weight for attempts per success at 2 threads, plus a faint pull
 * towards the base preset so that a parameter the figures barely see stays
 * where the preset put it instead of wandering. It is searched in log space
 * (every fitted value is a positive time whose scale we do not know): see
 * search() for how. Every evaluation simulates the same ops with the same
 * seeds, so the objective is a deterministic function of the parameters and
 * so is the fit; no randomness but the model's own, seeded.
 *
 * A fit is judged by its rms log error over the ns figures: above the
 * limit (CALIB_MAX_ERROR, calibrate.h, or --calibrate-max-error) the file
 * is refused as bad input, since its costs would describe nothing. A fitted
 * value that ends at a bound of its range (the picosecond floor, or the
 * parameter's maximum) is reported: the figures asked for more than the
 * model allows, and the other values bent to make up for it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calibrate.h"
#include "tool.h"

#define CALIB_OPS	    5000 /* per run per evaluation: the model is regular, 1% is plenty */
#define CALIB_MAX_POINTS    (SIM_NR_POLICIES * 2)
#define CALIB_MAX_PARAMS    64	 /* as main.c's table of overrides */
#define CALIB_ATT_WEIGHT    0.25 /* attempts: a check on the shape, not the target */
#define CALIB_PRIOR	    1e-3 /* per parameter, per unit of log distance from the base, squared */
#define CALIB_FLOOR	    0.001      /* ns: one picosecond, the model's resolution */
#define CALIB_ROUNDS	    5	       /* of quasi-random samples, each box half the last */
#define CALIB_SAMPLES	    50	       /* per round */
#define CALIB_MAX_EVALS	    400	       /* in all: about a second here, ten under ASan */
#define CALIB_BOX_LOW	    (1.0 / 32) /* the box, around the base's values */
#define CALIB_BOX_HIGH	    4.0
#define CALIB_DEFAULT_LIMIT 100 /* as main.c's --retry-limit, if the file has none */

/*
 * The candidates are the costs a 1-2 thread figure can show: the parameters
 * sim/presets.c marks SIM_PARAM_COST. Topology, the behaviour switches
 * (cas_fail_takes_line, far_atomics, home_rr) and the noise (jitter...) say
 * what the machine is, not how fast: they come from the base. Of the costs,
 * the ones that change nothing in the file's figures on the base topology
 * (lat_cross when both threads share a socket, lat_smt when they do not
 * share a core, far_occupancy without far atomics, relax_ns without a relax
 * subject that fails a CAS) are found by trying them and kept at the base's
 * value.
 */

struct calib_point {
	int policy;
	unsigned int threads, retry_limit;
	double updates;			  /* count updates per bench op (get+put: 2) */
	double measured_ns, measured_att; /* att 0: not compared */
	double model_ns, model_att;
};

struct calib {
	const char *path;
	char *arch;
	struct calib_point pt[CALIB_MAX_POINTS];
	size_t n;

	/* the fit */
	const struct sim_preset *base;
	struct sim_machine m;
	uint64_t seed;
	size_t fit[CALIB_MAX_PARAMS], nr_fit; /* indices into sim_params */
	size_t no_effect[CALIB_MAX_PARAMS], nr_no_effect;
	bool held[CALIB_MAX_PARAMS];
	double u0[CALIB_MAX_PARAMS];			/* log of the start values */
	size_t at_bound[CALIB_MAX_PARAMS], nr_at_bound; /* indices into sim_params */
	unsigned int evals;
	double rms, max_error;
};

/* ---- the file ---- */

/*
 * What calib_load has allocated so far. A bad file ends the program through
 * bad_file() (exit status 2); holding them here keeps them reachable at that
 * exit, so that LeakSanitizer does not report them (and turn the status into
 * its own) in an optimised sanitizer build.
 */
static struct {
	struct calib *volatile c; /* volatile: never read, but the stores must stay */
	json_t *volatile doc;
} loading;

static void __attribute__((noreturn, format(printf, 2, 3)))
bad_file(const char *path, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	tool_bad_usage("--calibrate: '%s': %s", path, what);
}

/* count updates per op of the bench's contend: "get+put" (its only kind) */
static double updates_per_op(const char *path, json_t *r, const char *who)
{
	json_t *op = json_object_get(r, "op");

	if (!op || json_is_null(op) ||
	    (json_is_string(op) && !strcmp(json_string_value(op), "get+put")))
		return 2;
	if (json_is_string(op) && !strcmp(json_string_value(op), "one count update"))
		return 1;
	bad_file(path, "%s: op is not \"get+put\"", who);
}

static void add_point(struct calib *c, json_t *r, int policy, unsigned int threads)
{
	json_t *ns = json_object_get(r, "ns_per_op"), *lim = json_object_get(r, "retry_limit");
	json_t *att = json_object_get(json_object_get(r, "attempts_per_success"), "mean");
	struct calib_point *p = &c->pt[c->n];
	char who[80];

	snprintf(who, sizeof(who), "contend %s at %u thread%s", sim_policies[policy].name, threads,
		 threads == 1 ? "" : "s");
	for (size_t i = 0; i < c->n; i++) {
		if (c->pt[i].policy == policy && c->pt[i].threads == threads)
			bad_file(c->path, "%s appears twice", who);
	}
	if (!ns || json_is_null(ns))
		bad_file(c->path, "%s has no ns_per_op", who);
	if (!json_is_number(ns) || !(json_number_value(ns) > 0) || !isfinite(json_number_value(ns)))
		bad_file(c->path, "%s: ns_per_op is not a positive number", who);
	*p = (struct calib_point){
		.policy = policy,
		.threads = threads,
		.retry_limit = CALIB_DEFAULT_LIMIT,
		.updates = updates_per_op(c->path, r, who),
		.measured_ns = json_number_value(ns),
	};
	if (json_is_integer(lim) && json_integer_value(lim) >= 1 &&
	    json_integer_value(lim) <= 1000000)
		p->retry_limit = (unsigned int)json_integer_value(lim);
	/* at 1 thread every attempt succeeds in both: nothing to learn */
	if (threads == 2 && sim_policy_has_attempts(policy) && json_is_number(att) &&
	    json_number_value(att) >= 1 && isfinite(json_number_value(att)))
		p->measured_att = json_number_value(att);
	c->n++;
}

struct calib *calib_load(const char *path)
{
	struct calib *c = calloc(1, sizeof(*c));
	json_t *doc, *tool, *env, *cpus, *arch, *results, *r;
	json_error_t jerr;
	json_int_t max_threads = 2;
	struct stat st;
	size_t i;
	FILE *f;

	if (!c)
		tool_die("--calibrate: out of memory");
	loading.c = c;
	c->path = path;
	if (!*path)
		tool_bad_usage("--calibrate: '' is not a file name");
	f = fopen(path, "r");
	if (!f)
		bad_file(path, "cannot read it: %s", strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		bad_file(path, "cannot read it: %s", strerror(EISDIR));
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	loading.doc = doc;
	if (!doc)
		bad_file(path, "not JSON (line %d: %s)", jerr.line, jerr.text);
	if (!json_is_object(doc))
		bad_file(path, "not a hotline-bench JSON document (not an object)");
	tool = json_object_get(doc, "tool");
	if (!json_is_string(tool))
		bad_file(path, "no \"tool\": not written by hotline-bench");
	if (strcmp(json_string_value(tool), "hotline-bench") != 0)
		bad_file(path, "tool is '%s', not hotline-bench", json_string_value(tool));
	env = json_object_get(doc, "env");
	cpus = json_object_get(env, "cpus");
	arch = json_object_get(env, "arch");
	if (json_is_integer(cpus) && json_integer_value(cpus) < max_threads)
		max_threads = json_integer_value(cpus);
	if (json_is_string(arch)) {
		c->arch = strdup(json_string_value(arch));
		if (!c->arch)
			tool_die("--calibrate: out of memory");
	}
	results = json_object_get(doc, "results");
	if (!json_is_array(results))
		bad_file(path, "no \"results\" list");
	json_array_foreach(results, i, r)
	{
		json_t *scenario = json_object_get(r, "scenario"),
		       *subject = json_object_get(r, "subject");
		json_t *threads = json_object_get(r, "threads");
		int policy;

		if (!json_is_string(scenario) ||
		    strcmp(json_string_value(scenario), "contend") != 0 ||
		    !json_is_string(subject) || !json_is_integer(threads))
			continue;
		policy = sim_find_policy(json_string_value(subject));
		/* pthread_mutex, refcount...: the model has no such policy */
		if (policy < 0 || json_integer_value(threads) < 1 ||
		    json_integer_value(threads) > max_threads)
			continue;
		add_point(c, r, policy, (unsigned int)json_integer_value(threads));
	}
	json_decref(doc);
	loading.doc = NULL;
	if (!c->n)
		bad_file(path,
			 "no contend result at 1-2 threads (and at most env.cpus) of a subject "
			 "the model knows");
	loading.c = NULL; /* the caller's now */
	return c;
}

const struct sim_preset *calib_default_base(const struct calib *c)
{
	const struct sim_preset *base;

	if (!c->arch)
		bad_file(c->path, "no env.arch to choose a base machine by; give --machine");
	base = sim_calibration_base(c->arch);
	if (!base)
		bad_file(c->path, "env.arch '%s' has no base machine; give --machine", c->arch);
	return base;
}

void calib_free(struct calib *c)
{
	if (c)
		free(c->arch);
	free(c);
}

/* ---- the objective ---- */

static double *param(struct sim_machine *m, size_t i)
{
	return sim_param_ref(m, &sim_params[i]);
}

static double lower(size_t i)
{
	return sim_params[i].min > CALIB_FLOOR ? sim_params[i].min : CALIB_FLOOR;
}

/* Simulate every point on m; the model's figures land in c->pt. Returns the squared errors. */
static double simulate(struct calib *c, const struct sim_machine *m, double *rms)
{
	double sse = 0, sse_ns = 0;
	char err[256];

	c->evals++;
	for (size_t i = 0; i < c->n; i++) {
		struct calib_point *p = &c->pt[i];
		struct sim_result r;
		double e;

		if (sim_run(m, p->policy, p->threads, p->retry_limit, CALIB_OPS,
			    sim_run_seed(c->seed, (enum sim_policy)p->policy, p->threads), &r, err,
			    sizeof(err)))
			tool_die("--calibrate: %s at %u threads: %s", sim_policies[p->policy].name,
				 p->threads, err);
		p->model_ns = p->updates * r.elapsed_ns / (double)r.ops;
		if (p->model_ns < 1e-6)
			p->model_ns = 1e-6; /* every cost at zero: keep the log finite */
		p->model_att = r.successes ? (double)r.attempts_sum / (double)r.successes : 0;
		sim_result_free(&r);
		e = log(p->model_ns / p->measured_ns);
		sse_ns += e * e;
		if (p->measured_att && p->model_att) {
			e = log(p->model_att / p->measured_att);
			sse += CALIB_ATT_WEIGHT * e * e;
		}
	}
	if (rms)
		*rms = sqrt(sse_ns / (double)c->n);
	return sse + sse_ns;
}

/* the fitted values at log-point u, inside each parameter's range */
static void set_point(struct calib *c, const double *u)
{
	for (size_t k = 0; k < c->nr_fit; k++) {
		size_t i = c->fit[k];
		double v = exp(u[k]);

		if (v < lower(i))
			v = lower(i);
		if (v > sim_params[i].max)
			v = sim_params[i].max;
		*param(&c->m, i) = v;
	}
}

static double objective(struct calib *c, const double *u)
{
	double prior = 0;

	set_point(c, u);
	for (size_t k = 0; k < c->nr_fit; k++)
		prior += (u[k] - c->u0[k]) * (u[k] - c->u0[k]);
	return simulate(c, &c->m, NULL) + CALIB_PRIOR * prior;
}

/* ---- Nelder-Mead in log space ---- */

#define NM_MAX (CALIB_MAX_PARAMS + 1)

/* The simplex's best, worst and second worst vertices of d + 1, by their values f. */
static void rank(const double *f, size_t d, size_t *best, size_t *worst, size_t *second)
{
	*best = *worst = 0;
	for (size_t j = 1; j <= d; j++) {
		if (f[j] < f[*best])
			*best = j;
		if (f[j] >= f[*worst])
			*worst = j;
	}
	*second = *best;
	for (size_t j = 0; j <= d; j++) {
		if (j != *worst && f[j] >= f[*second])
			*second = j;
	}
}

/* The simplex's extent: the largest distance along an axis from the best vertex. */
static double extent(double (*v)[CALIB_MAX_PARAMS], size_t d, size_t best)
{
	double size = 0;

	for (size_t j = 0; j <= d; j++) {
		for (size_t k = 0; k < d; k++)
			size = fmax(size, fabs(v[j][k] - v[best][k]));
	}
	return size;
}

/* The centre of every vertex but the worst. */
static void centroid(double (*v)[CALIB_MAX_PARAMS], size_t d, size_t worst, double *centre)
{
	for (size_t k = 0; k < d; k++) {
		centre[k] = 0;
		for (size_t j = 0; j <= d; j++) {
			if (j != worst)
				centre[k] += v[j][k] / (double)d;
		}
	}
}

/*
 * One descent from x with a simplex of side step (log units), until the
 * simplex is smaller than a fraction of a percent or the budget is spent.
 * The best point goes back in x; returns its value.
 */
static double nelder_mead(struct calib *c, double *x, double step, unsigned int budget)
{
	static double v[NM_MAX][CALIB_MAX_PARAMS], f[NM_MAX];
	double centre[CALIB_MAX_PARAMS], xr[CALIB_MAX_PARAMS], xe[CALIB_MAX_PARAMS];
	size_t d = c->nr_fit, best, worst, second;

	for (size_t j = 0; j <= d; j++) {
		memcpy(v[j], x, d * sizeof(*x));
		if (j)
			v[j][j - 1] += step;
		f[j] = objective(c, v[j]);
	}
	while (c->evals < budget) {
		double fr, fe;

		rank(f, d, &best, &worst, &second);
		if (extent(v, d, best) < 1e-2)
			break;
		centroid(v, d, worst, centre);
		for (size_t k = 0; k < d; k++)
			xr[k] = centre[k] + (centre[k] - v[worst][k]);
		fr = objective(c, xr);
		if (fr < f[best]) {
			for (size_t k = 0; k < d; k++)
				xe[k] = centre[k] + 2 * (centre[k] - v[worst][k]);
			fe = objective(c, xe);
			memcpy(v[worst], fe < fr ? xe : xr, d * sizeof(*x));
			f[worst] = fe < fr ? fe : fr;
			continue;
		}
		if (fr < f[second]) {
			memcpy(v[worst], xr, d * sizeof(*x));
			f[worst] = fr;
			continue;
		}
		/* contract towards the better of the worst and its reflection */
		for (size_t k = 0; k < d; k++)
			xe[k] = fr < f[worst] ? centre[k] + 0.5 * (xr[k] - centre[k])
					      : centre[k] + 0.5 * (v[worst][k] - centre[k]);
		fe = objective(c, xe);
		if (fe < fmin(fr, f[worst])) {
			memcpy(v[worst], xe, d * sizeof(*x));
			f[worst] = fe;
			continue;
		}
		/* shrink everything towards the best */
		for (size_t j = 0; j <= d; j++) {
			if (j == best)
				continue;
			for (size_t k = 0; k < d; k++)
				v[j][k] = v[best][k] + 0.5 * (v[j][k] - v[best][k]);
			f[j] = objective(c, v[j]);
		}
	}
	rank(f, d, &best, &worst, &second);
	memcpy(x, v[best], d * sizeof(*x));
	return f[best];
}

/* the i-th point (from 1) of the Halton sequence in a prime base: even cover, no randomness */
static double halton(unsigned int i, unsigned int base)
{
	double f = 1, r = 0;

	for (; i; i /= base) {
		f /= base;
		r += f * (i % base);
	}
	return r;
}

/*
 * The objective is rugged: at 2 threads how many operations an owner
 * completes inside its stickiness goes in whole steps, so stickiness,
 * local_ns and think_ns make ridges, and a descent from the base ends on
 * the nearest one. So: quasi-random points (Halton: even cover, no
 * randomness) over a box from 1/32 to 4 times the start values (the presets
 * describe big servers; a bench host is rarely slower), then again over a
 * box shrunk around the best so far, a few rounds; then Nelder-Mead from
 * the best point with what is left of the budget. The best point goes in u.
 */
static void search(struct calib *c, double *u)
{
	static const unsigned int primes[] = {2,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37, 41,
					      43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97};
	double centre[CALIB_MAX_PARAMS], x[CALIB_MAX_PARAMS];
	double best, lo = log(CALIB_BOX_LOW), hi = log(CALIB_BOX_HIGH);
	size_t d = c->nr_fit;
	unsigned int seq = 1;

	memcpy(u, c->u0, d * sizeof(*u));
	best = objective(c, u);
	for (int round = 0; round < CALIB_ROUNDS; round++) {
		memcpy(centre, u, d * sizeof(*u));
		for (unsigned int s = 0; s < CALIB_SAMPLES; s++, seq++) {
			double f;

			for (size_t k = 0; k < d; k++)
				x[k] = centre[k] + lo +
				       (hi - lo) * (k < sizeof(primes) / sizeof(primes[0])
							    ? halton(seq, primes[k])
							    : 0.5);
			f = objective(c, x);
			if (f < best) {
				best = f;
				memcpy(u, x, d * sizeof(*u));
			}
		}
		/* the next box: half as wide (in log), around the best */
		lo /= 2;
		hi /= 2;
	}
	nelder_mead(c, u, (hi - lo) / 4, CALIB_MAX_EVALS);
}

/* ---- the fit ---- */

/*
 * Which candidates the figures see: change each alone (double it, or make
 * it 1 ns if it is zero) and look for any figure that moves.
 */
static void choose(struct calib *c)
{
	double ns[CALIB_MAX_POINTS], att[CALIB_MAX_POINTS];

	simulate(c, &c->m, NULL);
	for (size_t i = 0; i < c->n; i++) {
		ns[i] = c->pt[i].model_ns;
		att[i] = c->pt[i].model_att;
	}
	for (size_t i = 0; i < sim_nr_params && i < CALIB_MAX_PARAMS; i++) {
		struct sim_machine probe = c->m;
		double *v = param(&probe, i);
		bool moved = false;

		if (c->held[i] || !(sim_params[i].kind & SIM_PARAM_COST))
			continue;
		*v = *v > 0 ? *v * 2 : 1;
		if (*v > sim_params[i].max)
			*v = sim_params[i].max / 2;
		simulate(c, &probe, NULL);
		for (size_t k = 0; k < c->n; k++)
			moved |= c->pt[k].model_ns != ns[k] || c->pt[k].model_att != att[k];
		if (moved)
			c->fit[c->nr_fit++] = i;
		else
			c->no_effect[c->nr_no_effect++] = i;
	}
}

/* A value as the command line takes it: plain decimals, no exponent, no trailing zeros. */
static void format_value(char *buf, size_t len, double v)
{
	char *end;

	snprintf(buf, len, "%.3f", v);
	end = buf + strlen(buf) - 1;
	while (end > buf && *end == '0')
		*end-- = 0;
	if (*end == '.')
		*end = 0;
}

static void dashed(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s", name);
	for (char *p = buf; *p; p++)
		*p = *p == '_' ? '-' : *p;
}

static void print(const struct calib *c)
{
	char val[64], opt[64];
	size_t nr_held = 0;

	printf("# calibrating %s to %s: %zu figures at 1-2 threads, %d ops per run, seed %llu\n",
	       c->base->name, c->path, c->n, CALIB_OPS, (unsigned long long)c->seed);
	printf("%-22s %7s %10s %10s %7s %9s %9s\n", "subject", "threads", "measured", "model",
	       "error", "att meas", "att model");
	for (size_t i = 0; i < c->n; i++) {
		const struct calib_point *p = &c->pt[i];
		char am[16] = "-", amod[16] = "-";

		if (p->measured_att && p->model_att) {
			snprintf(am, sizeof(am), "%.3f", p->measured_att);
			snprintf(amod, sizeof(amod), "%.3f", p->model_att);
		}
		printf("%-22s %7u %10.2f %10.2f %+6.1f%% %9s %9s\n", sim_policies[p->policy].name,
		       p->threads, p->measured_ns, p->model_ns,
		       100 * (p->model_ns / p->measured_ns - 1), am, amod);
	}
	printf("# ns per bench op (get+put: two of the model's count updates); rms log error "
	       "%.4f over %zu figures, %u evaluations\n",
	       c->rms, c->n, c->evals);
	printf("# fitted:");
	for (size_t k = 0; k < c->nr_fit; k++) {
		format_value(val, sizeof(val), *param((struct sim_machine *)&c->m, c->fit[k]));
		printf(" %s %s", sim_params[c->fit[k]].name, val);
	}
	printf("\n# held (command line):");
	for (size_t i = 0; i < sim_nr_params && i < CALIB_MAX_PARAMS; i++) {
		if (c->held[i]) {
			format_value(val, sizeof(val), *param((struct sim_machine *)&c->m, i));
			printf(" %s %s", sim_params[i].name, val);
			nr_held++;
		}
	}
	printf("%s\n# kept at %s's (no effect on these figures):", nr_held ? "" : " none",
	       c->base->name);
	for (size_t k = 0; k < c->nr_no_effect; k++) {
		format_value(val, sizeof(val),
			     *param((struct sim_machine *)&c->m, c->no_effect[k]));
		printf(" %s %s", sim_params[c->no_effect[k]].name, val);
	}
	printf("%s\nhotline-sim --machine %s", c->nr_no_effect ? "" : " none", c->base->name);
	for (size_t i = 0; i < sim_nr_params && i < CALIB_MAX_PARAMS; i++) {
		bool fitted = false;

		for (size_t k = 0; k < c->nr_fit; k++)
			fitted |= c->fit[k] == i;
		if (!fitted && !c->held[i])
			continue;
		dashed(opt, sizeof(opt), sim_params[i].name);
		format_value(val, sizeof(val), *param((struct sim_machine *)&c->m, i));
		printf(" --%s %s", opt, val);
	}
	printf("\n");
	fflush(stdout);
}

/* The fitted values at a bound of their range, into c->at_bound. */
static void find_bounds(struct calib *c)
{
	c->nr_at_bound = 0;
	for (size_t k = 0; k < c->nr_fit; k++) {
		size_t i = c->fit[k];
		double v = *param(&c->m, i);

		if (v <= lower(i) * (1 + 1e-9) || v >= sim_params[i].max)
			c->at_bound[c->nr_at_bound++] = i;
	}
}

/* "lat_socket 1000000 (its maximum), stickiness 0.001 (the floor)", or "" */
static void describe_bounds(const struct calib *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t k = 0; k < c->nr_at_bound && used < len; k++) {
		size_t i = c->at_bound[k];
		double v = *param((struct sim_machine *)&c->m, i);
		char val[64];

		format_value(val, sizeof(val), v);
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s (%s)", k ? ", " : "",
					 sim_params[i].name, val,
					 v >= sim_params[i].max ? "its maximum" : "the floor");
	}
}

/* On stderr, after the table: one line, "hotline-sim: warning: --calibrate: ..." */
static void __attribute__((format(printf, 1, 2))) calib_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vmessage("warning: --calibrate: ", fmt, ap);
	va_end(ap);
}

/*
 * Refuse a fit above the limit, as a bad file: one line with the error, the
 * limit, what ended at a bound and how to accept it anyway; nothing on
 * stdout, no JSON.
 */
static void judge(const struct calib *c)
{
	char bounds[300], typical[48] = "";

	if (c->rms <= c->max_error)
		return;
	describe_bounds(c, bounds, sizeof(bounds));
	if (c->rms < 10)
		snprintf(typical, sizeof(typical), " (a typical figure off by %.1fx)", exp(c->rms));
	bad_file(c->path,
		 "the model cannot fit it: rms log error %.3f%s is above %g "
		 "(--calibrate-max-error %.2f would accept it)%s%s",
		 c->rms, typical, c->max_error, ceil(c->rms * 100) / 100,
		 *bounds ? "; at a bound: " : "", bounds);
}

void calib_fit(struct calib *c, const struct sim_preset *base, struct sim_machine *m,
	       const bool *held, uint64_t seed, double max_error)
{
	double u[CALIB_MAX_PARAMS];

	c->base = base;
	c->m = *m;
	c->seed = seed;
	for (size_t i = 0; i < sim_nr_params && i < CALIB_MAX_PARAMS; i++)
		c->held[i] = held[i];
	c->max_error = max_error;
	choose(c);
	for (size_t k = 0; k < c->nr_fit; k++) {
		double v = *param(&c->m, c->fit[k]);

		/* a zero start has no log: begin at a nanosecond */
		u[k] = c->u0[k] = log(v > lower(c->fit[k]) ? v : 1.0);
	}
	if (c->nr_fit) {
		search(c, u);
		set_point(c, u);
	}
	/* to the picosecond the model counts in, so that the printed line is the machine */
	for (size_t k = 0; k < c->nr_fit; k++) {
		double *v = param(&c->m, c->fit[k]);

		*v = round(*v * 1000) / 1000;
		if (*v < sim_params[c->fit[k]].min)
			*v = sim_params[c->fit[k]].min;
	}
	simulate(c, &c->m, &c->rms);
	find_bounds(c);
	judge(c);
	print(c);
	if (c->nr_at_bound) {
		char bounds[300];

		describe_bounds(c, bounds, sizeof(bounds));
		calib_warn("fitted values at a bound of their range (the figures want them "
			   "further; the others bend to make up): %s",
			   bounds);
	}
	*m = c->m;
}

json_t *calib_json(const struct calib *c)
{
	json_t *o = json_object(), *fitted = json_object(), *held = json_array();
	json_t *none = json_array(), *fit = json_array(), *bound = json_array(), *file;

	for (size_t k = 0; k < c->nr_fit; k++)
		json_object_set_new(fitted, sim_params[c->fit[k]].name,
				    json_real(*param((struct sim_machine *)&c->m, c->fit[k])));
	for (size_t i = 0; i < sim_nr_params && i < CALIB_MAX_PARAMS; i++) {
		if (c->held[i])
			json_array_append_new(held, json_string(sim_params[i].name));
	}
	for (size_t k = 0; k < c->nr_no_effect; k++)
		json_array_append_new(none, json_string(sim_params[c->no_effect[k]].name));
	for (size_t k = 0; k < c->nr_at_bound; k++)
		json_array_append_new(bound, json_string(sim_params[c->at_bound[k]].name));
	for (size_t i = 0; i < c->n; i++) {
		const struct calib_point *p = &c->pt[i];
		json_t *e = json_pack("{s:s, s:i, s:f, s:f}", "subject",
				      sim_policies[p->policy].name, "threads", (int)p->threads,
				      "measured_ns", p->measured_ns, "model_ns", p->model_ns);

		if (p->measured_att && p->model_att) {
			json_object_set_new(e, "measured_attempts", json_real(p->measured_att));
			json_object_set_new(e, "model_attempts", json_real(p->model_att));
		}
		json_array_append_new(fit, e);
	}
	file = json_string(c->path); /* NULL if the name is not UTF-8 */
	json_object_set_new(o, "file", file ? file : json_null());
	json_object_set_new(o, "base", json_string(c->base->name));
	json_object_set_new(o, "fitted", fitted);
	json_object_set_new(o, "held", held);
	json_object_set_new(o, "no_effect", none);
	json_object_set_new(o, "at_bound", bound);
	json_object_set_new(o, "fit", fit);
	json_object_set_new(o, "rms_log_error", json_real(c->rms));
	json_object_set_new(o, "max_rms_log_error", json_real(c->max_error));
	json_object_set_new(o, "ops_per_run", json_integer(CALIB_OPS));
	return o;
}
