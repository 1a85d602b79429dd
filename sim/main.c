/*
 * hotline-sim: the command line. Runs every policy at every thread count on
 * one machine model, prints a table and writes the bench's JSON schema
 * (bench/README.md, "JSON"; docs/sim.md), marked simulated.
 *
 * Exit status: 0 done; 1 a run failed (the model stalled, a file could not
 * be written); 2 bad command line, with one line naming the option and value.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "calibrate.h"
#include "sim.h"
#include "tool.h"

#ifndef HOTLINE_VERSION
#define HOTLINE_VERSION "unknown"
#endif

#define NAME	    "hotline-sim"
#define MAX_THREADS 4096
#define MAX_LIST    256 /* thread counts in one --threads */
#define MAX_LIMIT   1000000
#define DEFAULT_OPS 200000
#define MAX_OPS	    1000000000ULL

static struct {
	const struct sim_preset *preset;
	struct sim_machine m;
	bool param_set[64];
	double param_value[64];
	int policies[SIM_NR_POLICIES];
	size_t nr_policies;
	unsigned int threads[MAX_LIST];
	size_t nr_threads;
	unsigned int retry_limit;
	uint64_t ops, seed;
	const char *json_path;
	struct calib *calib;	/* --calibrate: the measured points, then the fit */
	double calib_max_error; /* a fit's rms log error above this is refused */
	bool calib_max_error_set;
} opts = {.retry_limit = 100, .ops = DEFAULT_OPS, .seed = 1, .calib_max_error = CALIB_MAX_ERROR};

/*
 * One name of a list in --help, from the table that defines it (so the help
 * cannot name a preset or policy that does not exist): the names are packed
 * into lines under the option's description, comma separated.
 */
static void names_line(FILE *f, const char *name, size_t i, size_t n)
{
	static size_t col;
	const size_t indent = 21, width = 79;
	size_t len = strlen(name) + (i + 1 < n ? 1 : 0);

	if (i == 0 || col + 1 + len > width) {
		if (i != 0)
			fputc('\n', f);
		col = (size_t)fprintf(f, "%*s", (int)indent, "");
	} else {
		col += (size_t)fprintf(f, " ");
	}
	col += (size_t)fprintf(f, "%s%s", name, i + 1 < n ? "," : "");
	if (i + 1 == n)
		fputc('\n', f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " NAME " --machine PRESET --policy SUBJECT[,SUBJECT...] --threads LIST\n"
		"       [--retry-limit N] [--ops N] [--seed S] [--json FILE] [--PARAM VALUE...]\n"
		"       " NAME " --calibrate FILE [--calibrate-max-error E] [--machine PRESET]\n"
		"       [--PARAM VALUE...]\n"
		"       [--policy SUBJECT[,SUBJECT...] --threads LIST [...]]\n"
		"       " NAME " --list | --help | --version\n"
		"\n"
		"A discrete-event model of hardware threads sharing one cache line\n"
		"(docs/sim.md). Results use the bench's JSON schema, marked simulated.\n"
		"\n"
		"  --machine PRESET   a preset (see --list for their parameters):\n");
	for (size_t i = 0; i < sim_nr_presets; i++)
		names_line(f, sim_presets[i].name, i, sim_nr_presets);
	fprintf(f, "  --policy LIST      subjects, or all: every one, in this order:\n");
	for (int i = 0; i < SIM_NR_POLICIES; i++)
		names_line(f, sim_policies[i].name, (size_t)i, SIM_NR_POLICIES);
	fprintf(f,
		"  --threads LIST     thread counts, e.g. 1,2,28,224 (at most the machine's CPUs)\n"
		"  --retry-limit N    lockref's lockless attempts before the lock (default 100)\n"
		"  --ops N            operations measured per run, after a tenth more of\n"
		"                     warm-up (default %d)\n"
		"  --seed S           random seed (default 1); same arguments, same output\n"
		"  --json FILE        write the results as JSON\n"
		"  --calibrate FILE   fit the machine's costs to hotline-bench's contend figures\n"
		"                     at 1-2 threads in FILE, print the fit and the equivalent\n"
		"                     command line, then run --policy/--threads (if given) on\n"
		"                     it; --machine defaults by the file's arch, a --PARAM given\n"
		"                     is held; a fit with an rms log error above %g (a typical\n"
		"                     figure off by 2x) is refused, exit 2\n"
		"  --calibrate-max-error E  refuse only fits worse than E (0.01..1000)\n"
		"  --PARAM VALUE      override one machine parameter (names with - or _):\n",
		DEFAULT_OPS, CALIB_MAX_ERROR);
	for (size_t i = 0; i < sim_nr_params; i++)
		fprintf(f, "    --%-20s %s\n", sim_params[i].name, sim_params[i].help);
	fprintf(f, "\nExit status: 0 ok, 1 a run failed, 2 bad command line.\n");
}

static void list(void)
{
	for (size_t i = 0; i < sim_nr_presets; i++) {
		const struct sim_preset *p = &sim_presets[i];

		printf("%s: %s\n", p->name, p->description);
		for (size_t k = 0; k < sim_nr_params; k++) {
			struct sim_machine m = p->m;

			printf("  %-20s %g\n", sim_params[k].name,
			       *sim_param_ref(&m, &sim_params[k]));
		}
		printf("  sources: %s\n", p->sources);
	}
	printf("policies:");
	for (int i = 0; i < SIM_NR_POLICIES; i++)
		printf(" %s", sim_policies[i].name);
	printf("\n");
}

/* A number: digits with at most one decimal point. No signs, exponents, "inf". */
static double parse_number(const char *opt, const char *s, double min, double max)
{
	int dots = 0, digits = 0;
	double v;

	for (const char *p = s; *p; p++) {
		if (*p == '.')
			dots++;
		else if (*p >= '0' && *p <= '9')
			digits++;
		else
			digits = -1000;
	}
	if (!digits || digits < 0 || dots > 1)
		tool_bad_usage("%s: '%s' is not a number", opt, s);
	v = strtod(s, NULL);
	if (!(v >= min && v <= max))
		tool_bad_usage("%s: '%s' is out of range (%g..%g)", opt, s, min, max);
	return v;
}

static void parse_threads(const char *value)
{
	char *buf, **items;
	size_t n;

	items = tool_split_list(value, &buf, &n);
	if (n > MAX_LIST)
		tool_bad_usage("--threads: '%s' has more than %d items", value, MAX_LIST);
	for (size_t i = 0; i < n; i++)
		opts.threads[i] =
			(unsigned int)tool_parse_uint("--threads", items[i], value, 1, MAX_THREADS);
	opts.nr_threads = n;
	free(items);
	free(buf);
}

static void parse_policies(const char *value)
{
	char *buf, **items;
	size_t n;

	opts.nr_policies = 0;
	if (strcmp(value, "all") == 0) {
		for (int p = 0; p < SIM_NR_POLICIES; p++)
			opts.policies[opts.nr_policies++] = p;
		return;
	}
	items = tool_split_list(value, &buf, &n);
	for (size_t i = 0; i < n; i++) {
		int p = sim_find_policy(items[i]);

		if (!*items[i])
			tool_bad_usage("--policy: '%s' has an empty subject name", value);
		if (p < 0)
			tool_bad_usage("--policy: unknown subject '%s' (see --list)", items[i]);
		for (size_t k = 0; k < opts.nr_policies; k++) {
			if (opts.policies[k] == p)
				tool_bad_usage("--policy: subject '%s' given twice in '%s'",
					       items[i], value);
		}
		opts.policies[opts.nr_policies++] = p;
	}
	free(items);
	free(buf);
}

enum {
	OPT_MACHINE = 256,
	OPT_POLICY,
	OPT_THREADS,
	OPT_LIMIT,
	OPT_OPS,
	OPT_SEED,
	OPT_JSON,
	OPT_LIST,
	OPT_HELP,
	OPT_VERSION,
	OPT_CALIBRATE,
	OPT_CALIB_MAX_ERROR,
	OPT_PARAM
};

/* the fixed options, then two per parameter (its name with _ and with -) */
static struct option long_options[16 + 2 * 64 + 1];
static char param_dashed[64][32];

static void build_options(void)
{
	static const struct option fixed[] = {
		{"machine", required_argument, NULL, OPT_MACHINE},
		{"policy", required_argument, NULL, OPT_POLICY},
		{"threads", required_argument, NULL, OPT_THREADS},
		{"retry-limit", required_argument, NULL, OPT_LIMIT},
		{"ops", required_argument, NULL, OPT_OPS},
		{"seed", required_argument, NULL, OPT_SEED},
		{"json", required_argument, NULL, OPT_JSON},
		{"list", no_argument, NULL, OPT_LIST},
		{"help", no_argument, NULL, OPT_HELP},
		{"version", no_argument, NULL, OPT_VERSION},
		{"calibrate", required_argument, NULL, OPT_CALIBRATE},
		{"calibrate-max-error", required_argument, NULL, OPT_CALIB_MAX_ERROR},
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		long_options[n++] = fixed[i];
	for (size_t i = 0; i < sim_nr_params; i++) {
		int val = OPT_PARAM + (int)i;

		snprintf(param_dashed[i], sizeof(param_dashed[i]), "%s", sim_params[i].name);
		for (char *c = param_dashed[i]; *c; c++)
			*c = *c == '_' ? '-' : *c;
		long_options[n++] =
			(struct option){sim_params[i].name, required_argument, NULL, val};
		if (strcmp(param_dashed[i], sim_params[i].name) != 0)
			long_options[n++] =
				(struct option){param_dashed[i], required_argument, NULL, val};
	}
	long_options[n] = (struct option){0};
}

/* What the command line asked for besides opts: --calibrate's file, --list. */
struct asked {
	const char *calib_path;
	bool list;
};

/* One option getopt_long returned (c), with its value in optarg, into opts or *asked. */
static void parse_option(int c, int argc, char *argv[], struct asked *asked)
{
	if (c >= OPT_PARAM && c < OPT_PARAM + (int)sim_nr_params) {
		const struct sim_param *p = &sim_params[c - OPT_PARAM];
		char opt[64];

		snprintf(opt, sizeof(opt), "--%s", p->name);
		opts.param_value[c - OPT_PARAM] = parse_number(opt, optarg, p->min, p->max);
		opts.param_set[c - OPT_PARAM] = true;
		return;
	}
	switch (c) {
	case OPT_MACHINE:
		opts.preset = sim_find_preset(optarg);
		if (!opts.preset)
			tool_bad_usage("--machine: unknown preset '%s' (see --list)", optarg);
		break;
	case OPT_POLICY: parse_policies(optarg); break;
	case OPT_THREADS: parse_threads(optarg); break;
	case OPT_LIMIT:
		opts.retry_limit = (unsigned int)tool_parse_uint("--retry-limit", optarg, optarg, 1,
								 MAX_LIMIT);
		break;
	case OPT_OPS: opts.ops = tool_parse_uint("--ops", optarg, optarg, 10, MAX_OPS); break;
	case OPT_SEED: opts.seed = tool_parse_uint("--seed", optarg, optarg, 0, INT64_MAX); break;
	case OPT_JSON:
		if (!*optarg)
			tool_bad_usage("--json: '' is not a file name");
		opts.json_path = optarg;
		break;
	case OPT_LIST: asked->list = true; break;
	case OPT_CALIBRATE: asked->calib_path = optarg; break;
	case OPT_CALIB_MAX_ERROR:
		opts.calib_max_error = parse_number("--calibrate-max-error", optarg, 0.01, 1000);
		opts.calib_max_error_set = true;
		break;
	case 'h':
	case OPT_HELP: usage(stdout); exit(0);
	case OPT_VERSION: printf(NAME " %s\n", HOTLINE_VERSION); exit(0);
	default: tool_bad_option(c, long_options, OPT_MACHINE, argc, argv);
	}
}

/*
 * opts.m: the preset with the command line's overrides; the topology in
 * whole numbers, and room for every thread count asked for.
 */
static void set_machine(void)
{
	opts.m = opts.preset->m;
	for (size_t i = 0; i < sim_nr_params; i++) {
		if (opts.param_set[i])
			*sim_param_ref(&opts.m, &sim_params[i]) = opts.param_value[i];
	}
	for (size_t i = 0; i < sim_nr_params; i++) {
		double v = *sim_param_ref(&opts.m, &sim_params[i]);

		if ((sim_params[i].kind & SIM_PARAM_WHOLE) && v != floor(v))
			tool_bad_usage("--%s: '%g' is not a whole number", sim_params[i].name, v);
	}
	for (size_t i = 0; i < opts.nr_threads; i++) {
		double cpus = opts.m.sockets * opts.m.cores * opts.m.smt;

		if (opts.threads[i] > cpus)
			tool_bad_usage("--threads: '%u' is more than the %s machine's %.0f CPUs",
				       opts.threads[i], opts.preset->name, cpus);
	}
}

static void parse_args(int argc, char *argv[])
{
	struct asked asked = {0};
	int c;

	build_options();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1)
		parse_option(c, argc, argv, &asked);
	if (optind < argc)
		tool_bad_usage("unexpected argument '%s' (try --help)", argv[optind]);
	if (asked.list) {
		list();
		exit(0);
	}
	if (opts.calib_max_error_set && !asked.calib_path)
		tool_bad_usage("--calibrate-max-error: only with --calibrate FILE");
	if (asked.calib_path) {
		/* a bad file is a bad command line; the base follows its arch unless given */
		opts.calib = calib_load(asked.calib_path);
		if (!opts.preset)
			opts.preset = calib_default_base(opts.calib);
	}
	if (!opts.preset) {
		char names[1024];

		sim_preset_names(names, sizeof(names));
		tool_bad_usage("--machine: missing (one of %s)", names);
	}
	/* with --calibrate, runs are optional: both or neither */
	if (!opts.nr_policies && (!opts.calib || opts.nr_threads))
		tool_bad_usage("--policy: missing (a subject list, see --list)");
	if (!opts.nr_threads && (!opts.calib || opts.nr_policies))
		tool_bad_usage("--threads: missing (a list of thread counts)");
	set_machine();
}

static json_t *env_json(int argc, char *argv[])
{
	json_t *env = json_object(), *model = json_object();
	const struct sim_machine *m = &opts.m;
	char cpu[200], cmd[2048] = "";
	size_t len = 0;

	snprintf(cpu, sizeof(cpu), "simulated: %.0f socket%s x %.0f cores x SMT%.0f (preset %s)",
		 m->sockets, m->sockets == 1 ? "" : "s", m->cores, m->smt, opts.preset->name);
	for (int i = 0; i < argc && len < sizeof(cmd) - 1; i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, "%s%s", i ? " " : "",
					i ? argv[i] : NAME);
	for (size_t i = 0; i < sim_nr_params; i++) {
		struct sim_machine copy = *m;

		json_object_set_new(model, sim_params[i].name,
				    json_real(*sim_param_ref(&copy, &sim_params[i])));
	}
	json_object_set_new(env, "cpu", json_string(cpu));
	json_object_set_new(env, "arch", json_string(opts.preset->arch));
	json_object_set_new(env, "cpus",
			    json_integer((json_int_t)(m->sockets * m->cores * m->smt)));
	json_object_set_new(env, "placement", json_null());
	json_object_set_new(env, "simulated", json_true());
	json_object_set_new(env, "preset",
			    json_string(opts.calib ? "calibrated" : opts.preset->name));
	if (opts.calib)
		json_object_set_new(env, "calibration", calib_json(opts.calib));
	json_object_set_new(env, "model", model);
	json_object_set_new(env, "sources", json_string(opts.preset->sources));
	json_object_set_new(env, "command", json_string(cmd));
	return env;
}

static json_t *result_json(int policy, const struct sim_result *r, double ops_per_sec,
			   double ns_per_op, double fairness)
{
	json_t *o = json_object(), *pt = json_array();

	json_object_set_new(o, "scenario", json_string("contend"));
	json_object_set_new(o, "subject", json_string(sim_policies[policy].name));
	json_object_set_new(o, "threads", json_integer(r->threads));
	json_object_set_new(o, "size", json_null());
	json_object_set_new(o, "retry_limit",
			    sim_policy_has_limit(policy) ? json_integer(opts.retry_limit)
							 : json_null());
	json_object_set_new(o, "ops_per_sec", json_real(ops_per_sec));
	json_object_set_new(o, "ns_per_op", json_real(ns_per_op));
	json_object_set_new(o, "gb_per_sec", json_null());
	json_object_set_new(o, "headline", json_string("ops_per_sec"));
	json_object_set_new(o, "runs", json_pack("[f]", ops_per_sec));
	json_object_set_new(o, "spread",
			    json_pack("{s:f, s:f, s:f, s:f}", "min", ops_per_sec, "max",
				      ops_per_sec, "median", ops_per_sec, "rel_spread", 0.0));
	json_object_set_new(o, "op", json_string("one count update"));
	if (sim_policy_has_attempts(policy) && r->successes)
		json_object_set_new(o, "attempts_per_success",
				    json_pack("{s:f, s:I, s:I, s:I}", "mean",
					      (double)r->attempts_sum / (double)r->successes, "p50",
					      (json_int_t)sim_attempts_quantile(r, 0.5), "p99",
					      (json_int_t)sim_attempts_quantile(r, 0.99), "max",
					      (json_int_t)r->attempts_max));
	else
		json_object_set_new(o, "attempts_per_success", json_null());
	json_object_set_new(
		o, "fallback_rate",
		sim_policy_has_fallback(policy) && r->successes + r->fallbacks
			? json_real((double)r->fallbacks / (double)(r->successes + r->fallbacks))
			: json_null());
	json_object_set_new(o, "fairness", json_real(fairness));
	for (unsigned int t = 0; t < r->threads; t++)
		json_array_append_new(pt, json_pack("{s:I, s:I}", "cpu", (json_int_t)t, "ops",
						    (json_int_t)r->thread_ops[t]));
	json_object_set_new(o, "per_thread", pt);
	json_object_set_new(o, "simulated_ns", json_real(r->elapsed_ns));
	json_object_set_new(o, "events", json_integer((json_int_t)r->events));
	return o;
}

/*
 * The "subjects" object: the facts of every policy run, in the order run,
 * under the scenario its results carry (none without --policy). A policy
 * that can fall back runs with --retry-limit.
 */
static json_t *subjects_json(void)
{
	json_t *contend = json_object();

	for (size_t i = 0; i < opts.nr_policies; i++) {
		const struct sim_policy_info *p = &sim_policies[opts.policies[i]];
		struct subject_facts f = p->facts;

		if (sim_policy_has_limit(opts.policies[i]))
			f.retry_limit = opts.retry_limit;
		json_object_set_new(contend, p->name, subject_facts_json(p->description, &f));
	}
	if (!opts.nr_policies) {
		json_decref(contend);
		return json_object();
	}
	return json_pack("{s:o}", "contend", contend);
}

/* One run: policy p at threads, its row of the table on stdout, its result into results. */
static void run_one(int p, unsigned int threads, json_t *results)
{
	struct sim_result r;
	double ops_per_sec, ns_per_op, fairness;
	char err[256], limit[16] = "-", att[16] = "-", p99[16] = "-", fb[16] = "-";

	if (sim_run(&opts.m, p, threads, opts.retry_limit, opts.ops,
		    sim_run_seed(opts.seed, (enum sim_policy)p, threads), &r, err, sizeof(err)))
		tool_die("%s at %u threads: %s", sim_policies[p].name, threads, err);
	ns_per_op = r.elapsed_ns / (double)r.ops;
	ops_per_sec = 1e9 / ns_per_op;
	fairness = tool_jain(r.thread_ops, r.threads);
	if (sim_policy_has_limit(p))
		snprintf(limit, sizeof(limit), "%u", opts.retry_limit);
	if (sim_policy_has_attempts(p) && r.successes) {
		snprintf(att, sizeof(att), "%.3f", (double)r.attempts_sum / (double)r.successes);
		snprintf(p99, sizeof(p99), "%llu",
			 (unsigned long long)sim_attempts_quantile(&r, 0.99));
	}
	if (sim_policy_has_fallback(p) && r.successes + r.fallbacks)
		snprintf(fb, sizeof(fb), "%.2f%%",
			 100.0 * (double)r.fallbacks / (double)(r.successes + r.fallbacks));
	printf("%-7u %-22s %5s %9.2f %9.2f %6.3f %8s %5s %7s\n", threads, sim_policies[p].name,
	       limit, ops_per_sec / 1e6, ns_per_op, fairness, att, p99, fb);
	fflush(stdout);
	json_array_append_new(results, result_json(p, &r, ops_per_sec, ns_per_op, fairness));
	sim_result_free(&r);
}

/* The --json document: the bench's schema, marked simulated; takes results. */
static void write_json(int argc, char *argv[], json_t *results)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "tool", json_string(NAME));
	json_object_set_new(doc, "version", json_string(HOTLINE_VERSION));
	json_object_set_new(doc, "env", env_json(argc, argv));
	json_object_set_new(doc, "config",
			    json_pack("{s:b, s:i, s:n, s:s, s:I, s:I, s:I}", "quick", 0, "repeat",
				      1, "duration", "pin", "model", "ops", (json_int_t)opts.ops,
				      "warmup_ops", (json_int_t)(opts.ops / 10 ? opts.ops / 10 : 1),
				      "seed", (json_int_t)opts.seed));
	json_object_set_new(doc, "results", results);
	json_object_set_new(doc, "subjects", subjects_json());
	if (json_dump_file(doc, opts.json_path, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0)
		tool_die("--json: cannot write '%s': %s", opts.json_path, strerror(errno));
	json_decref(doc);
}

int main(int argc, char *argv[])
{
	json_t *results = json_array();

	tool_init(NAME, NULL);
	parse_args(argc, argv);
	if (opts.calib)
		calib_fit(opts.calib, opts.preset, &opts.m, opts.param_set, opts.seed,
			  opts.calib_max_error);
	if (opts.nr_policies) {
		printf("# %s%s: %s (simulated)\n", opts.calib ? "calibrated from " : "",
		       opts.preset->name, opts.preset->description);
		printf("%-7s %-22s %5s %9s %9s %6s %8s %5s %7s\n", "threads", "subject", "limit",
		       "Mops/s", "ns/op", "fair", "att", "p99", "fallbk");
	}
	for (size_t t = 0; t < opts.nr_threads; t++) {
		for (size_t i = 0; i < opts.nr_policies; i++)
			run_one(opts.policies[i], opts.threads[t], results);
	}
	if (opts.json_path)
		write_json(argc, argv, results);
	else
		json_decref(results);
	calib_free(opts.calib);
	return 0;
}
