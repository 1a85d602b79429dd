// SPDX-License-Identifier: MIT
/*
 * main.c - hotline-bench's command line: parse and check every option,
 * run the chosen scenarios, print their tables, write the JSON (the
 * results, and the facts of every subject measured: "subjects").
 *
 * Exit status: 0 done; 1 a run failed (one line says why); 2 bad command
 * line (one line names the option and the value).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "questions.h"
#include "tool.h"

#ifndef HOTLINE_VERSION
#define HOTLINE_VERSION "unknown"
#endif

/*
 * Every scenario built in, as they registered themselves (BENCH_SCENARIO),
 * in their order: `all` runs them so, but for those run only by name.
 */
#define MAX_SCENARIOS 64
static const struct bench_scenario *scenarios[MAX_SCENARIOS];
static size_t nr_scenarios;

#define DEFAULT_REPEAT 5
/*
 * zero --tune: 11 repetitions, about 30 s on a 2-vCPU Zen 4 (44 samples
 * of 0.03 s per repetition for vec_max, 36 for rep_max): an interval at
 * 98.8% of the median of each paired ratio.
 */
#define DEFAULT_TUNE_REPEAT 11
#define MAX_REPEAT	    100000
#define MAX_THREADS	    1024
#define MAX_CPU		    65535
#define MAX_DURATION	    86400.0
#define MIN_COUNT	    2
#define MAX_SIZE	    (1ull << 30) /* --sizes: 1 GiB, the largest buffer zero allocates */
/*
 * --until-decided without a value: two minutes for the whole invocation,
 * shared among the scenarios by their planned time (until_decided.c). A
 * round at the slowest point (refcount-timing: atomic, refcount and
 * refcount_full, about 3 s each) fits a dozen times, a contend round (two
 * to six subjects of 0.5 s) forty to a hundred times; and `make bench`
 * (about ten minutes) grows by a fifth at most.
 */
#define DEFAULT_UNTIL_DECIDED 120.0

enum {
	OPT_HELP = 'h',
	OPT_THREADS = 256,
	OPT_PIN,
	OPT_DURATION,
	OPT_REPEAT,
	OPT_QUICK,
	OPT_JSON,
	OPT_SUBJECTS,
	OPT_COUNT,
	OPT_SIZES,
	OPT_MODE,
	OPT_LIST,
	OPT_VERSION,
	OPT_UNTIL_DECIDED,
	OPT_TUNE,
};

static const struct option long_options[] = {
	{"threads", required_argument, NULL, OPT_THREADS},
	{"pin", required_argument, NULL, OPT_PIN},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"repeat", required_argument, NULL, OPT_REPEAT},
	{"quick", no_argument, NULL, OPT_QUICK},
	{"json", required_argument, NULL, OPT_JSON},
	{"subjects", required_argument, NULL, OPT_SUBJECTS},
	{"count", required_argument, NULL, OPT_COUNT},
	{"sizes", required_argument, NULL, OPT_SIZES},
	{"mode", required_argument, NULL, OPT_MODE},
	{"until-decided", optional_argument, NULL, OPT_UNTIL_DECIDED},
	{"tune", no_argument, NULL, OPT_TUNE},
	{"list", no_argument, NULL, OPT_LIST},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

/*
 * Everything parsed from the command line. Static, so that what it points
 * to stays reachable whichever way the program exits.
 */
static struct {
	struct bench_config cfg;
	unsigned int *threads;
	size_t *sizes;
	int *pin_cpus;
	char *subjects_buf;
	const char **subjects;
	const char *json_path;
	const char *scenario;
	char **argv; /* the command line as given (getopt permutes argv) */
	bool threads_set, duration_set, count_set, sizes_set, mode_set, repeat_set, list;
	bool subjects_set;
} opts;

static void usage(FILE *f)
{
	bool by_name = false;

	for (size_t i = 0; i < nr_scenarios; i++)
		by_name |= scenarios[i]->by_name_only;
	fprintf(f,
		"usage: %s SCENARIO [options]\n"
		"       %s --list | --help | --version\n\n"
		"Scenarios:\n",
		BENCH_NAME, BENCH_NAME);
	for (size_t i = 0; i < nr_scenarios; i++)
		fprintf(f, "  %-16s %s%s\n", scenarios[i]->name, scenarios[i]->description,
			scenarios[i]->by_name_only ? " (only by name: not in all)" : "");
	fprintf(f, "  %-16s %s\n", "all",
		by_name ? "every scenario above but those only by name, in this order"
			: "every scenario above, in this order");
	fprintf(f,
		"\nOptions:\n"
		"  --threads LIST     thread counts to run, e.g. 1,2,4,8 (contend and openclose\n"
		"                     default 1,2,4,8; lockref-sweep 2,4,8)\n"
		"  --pin MODE         auto (default: one thread per core, then SMT siblings),\n"
		"                     none (no pinning) or a CPU list such as 0-3,6\n"
		"  --duration SECS    how long each timed run lasts (decimals allowed;\n"
		"                     default 0.5, --quick 0.05; zero: each sample, 0.03 and "
		"0.002;\n"
		"                     copy: each sample, 0.01 and 0.002)\n"
		"  --repeat N         repetitions of every subject (default %d, --quick 1),\n"
		"                     interleaved\n"
		"  --quick            smaller counts, shorter runs, one repetition\n"
		"  --count N          refcount-timing: count up to N (default 2^26 = 67108864;\n"
		"                     --quick: 16777216)\n"
		"  --sizes LIST       zero, copy: buffer sizes in bytes, K/M/G suffixes allowed\n"
		"                     (powers of 1024), e.g. 64,4K,1M; 1..1G (default 1 B..1 GiB;\n"
		"                     copy's probe sweep: those from 8 B to 1 MiB)\n"
		"  --mode MODE        zero: hot (one buffer, reused), cold (a different place\n"
		"                     per call, beyond the cache), both (default), used (cold,\n"
		"                     then each line read once: what a caller does next) or\n"
		"                     all three; copy: hot (with its probe and word sweeps),\n"
		"                     cold or both\n"
		"  --subjects LIST    only these subjects (see --list)\n"
		"  --json FILE        also write the results as JSON to FILE\n"
		"  --until-decided[=SECS]\n"
		"                     where a question of the report cannot tell at this\n"
		"                     noise, run its subjects more (up to 4x the repetitions,\n"
		"                     at least 10) within SECS for the whole run (default %.0f)\n"
		"  --tune             zero only: measure where hl_zero's automatic plan should\n"
		"                     switch on this machine, hot and cold (about 30 s; --quick\n"
		"                     a few seconds), and print HOTLINE_ZERO_TUNABLES=vec_max=N:\n"
		"                     rep_max=M (bytes, or max). vec_max: the largest size up to\n"
		"                     which the plan's vector variant is, at every size of a grid\n"
		"                     from L2/16 to 2 x L2, not 3%% slower than rep_stosb hot\n"
		"                     (paired median ratio >= 0.97 or its interval reaching it)\n"
		"                     and not below 0.95x cold. rep_max: the grid size (L3/4 ..\n"
		"                     8 x L3) just below the smallest from which nontemporal\n"
		"                     beats rep_stosb hot and cold by over 3%% (median and\n"
		"                     interval above 1.03) at every larger size; max if it does\n"
		"                     not at the largest. Not with --sizes, --subjects or\n"
		"                     --until-decided; default --repeat %d\n"
		"  --list             list scenarios and their subjects\n"
		"  --help             this text\n"
		"  --version          print the version\n\n"
		"A table is printed on stdout. Progress goes to stderr: on a terminal one\n"
		"updating line (position, time left); otherwise a line per finished subject.\n"
		"Exit status: 0 ok, 1 a run failed, 2 bad command line.\n",
		DEFAULT_REPEAT, DEFAULT_UNTIL_DECIDED, DEFAULT_TUNE_REPEAT);
}

static void list_scenarios(void)
{
	for (size_t i = 0; i < nr_scenarios; i++) {
		const struct bench_scenario *sc = scenarios[i];

		printf("%s: %s\n", sc->name, sc->description);
		for (size_t j = 0; j < sc->nr_subjects; j++)
			printf("  %-22s %s\n", sc->subjects[j].name, sc->subjects[j].description);
	}
}

/*
 * Seconds, for option opt (--duration, --until-decided): digits with at
 * most one decimal point, > 0. No signs, exponents, "inf".
 */
static double parse_seconds(const char *opt, const char *s)
{
	unsigned int digits = 0, points = 0;
	double v;

	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.')
			points++;
		else
			digits = 0, points = 2; /* anything else: reject below */
		if (points > 1)
			break;
	}
	if (!digits || points > 1)
		tool_bad_usage("%s: '%s' is not a number of seconds", opt, s);
	v = strtod(s, NULL);
	if (!(v > 0))
		tool_bad_usage("%s: '%s' is not a positive number of seconds", opt, s);
	if (v > MAX_DURATION)
		tool_bad_usage("%s: '%s' is out of range (at most %.0f seconds)", opt, s,
			       MAX_DURATION);
	return v;
}

/*
 * --until-decided[=SECS]: the budget is optional, so it must follow '=';
 * "--until-decided 30" would take 30 for the scenario: say so instead.
 */
static void parse_until_decided(const char *value, int argc, char *argv[])
{
	const char *next = optind < argc ? argv[optind] : NULL;

	if (value) {
		opts.cfg.until_decided = parse_seconds("--until-decided", value);
		return;
	}
	if (next && *next >= '0' && *next <= '9')
		tool_bad_usage("--until-decided: '%s' must follow '=' (--until-decided=%s)", next,
			       next);
	opts.cfg.until_decided = DEFAULT_UNTIL_DECIDED;
}

static void parse_threads(const char *value)
{
	char *buf;
	size_t n;
	char **items = tool_split_list(value, &buf, &n);

	free(opts.threads);
	opts.threads = calloc(n, sizeof(*opts.threads));
	if (!opts.threads)
		tool_die("out of memory");
	for (size_t i = 0; i < n; i++)
		opts.threads[i] =
			(unsigned int)tool_parse_uint("--threads", items[i], value, 1, MAX_THREADS);
	opts.cfg.threads = opts.threads;
	opts.cfg.nr_threads = n;
	opts.threads_set = true;
	free(items);
	free(buf);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The multiplier a --sizes suffix stands for (powers of 1024), 0 for anything else. */
static unsigned long long size_unit(char c)
{
	switch (c) {
	case 'K':
	case 'k': return 1ull << 10;
	case 'M':
	case 'm': return 1ull << 20;
	case 'G':
	case 'g': return 1ull << 30;
	default: return 0;
	}
}

/* One size of --sizes: digits, then at most one K, M or G; 1..MAX_SIZE bytes. */
static size_t parse_size(const char *item, const char *whole)
{
	char where[300] = "";
	unsigned long long v = 0, unit = 1;
	const char *p = item;

	if (strcmp(whole, item) != 0)
		snprintf(where, sizeof(where), " in '%s'", whole);
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v <= MAX_SIZE) /* beyond it, only "out of range" remains to say */
			v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (*p)
		unit = p[1] ? 0 : size_unit(*p);
	if (p == item || !unit)
		tool_bad_usage("--sizes: '%s'%s is not a size (bytes, or a number with K, M or G)",
			       item, where);
	if (v == 0 || v > MAX_SIZE / unit)
		tool_bad_usage("--sizes: '%s'%s is out of range (1..1G)", item, where);
	return (size_t)(v * unit);
}

/* --sizes: sorted, duplicates dropped (the results come in size order anyway). */
static void parse_sizes(const char *value)
{
	char *buf;
	size_t n, kept = 0;
	char **items = tool_split_list(value, &buf, &n);

	free(opts.sizes);
	opts.sizes = calloc(n, sizeof(*opts.sizes));
	if (!opts.sizes)
		tool_die("out of memory");
	for (size_t i = 0; i < n; i++)
		opts.sizes[i] = parse_size(items[i], value);
	qsort(opts.sizes, n, sizeof(*opts.sizes), cmp_size);
	for (size_t i = 0; i < n; i++) {
		if (!kept || opts.sizes[i] != opts.sizes[kept - 1])
			opts.sizes[kept++] = opts.sizes[i];
	}
	opts.cfg.sizes = opts.sizes;
	opts.cfg.nr_sizes = kept;
	opts.sizes_set = true;
	free(items);
	free(buf);
}

static void parse_mode(const char *value)
{
	if (strcmp(value, "hot") == 0)
		opts.cfg.modes = BENCH_MODE_HOT;
	else if (strcmp(value, "cold") == 0)
		opts.cfg.modes = BENCH_MODE_COLD;
	else if (strcmp(value, "both") == 0)
		opts.cfg.modes = BENCH_MODE_HOT | BENCH_MODE_COLD;
	else if (strcmp(value, "used") == 0)
		opts.cfg.modes = BENCH_MODE_USED;
	else if (strcmp(value, "all") == 0)
		opts.cfg.modes = BENCH_MODE_HOT | BENCH_MODE_COLD | BENCH_MODE_USED;
	else
		tool_bad_usage("--mode: '%s' is not hot, cold, both, used or all", value);
	opts.mode_set = true;
}

static void bad_cpu_list(const char *item, const char *value)
{
	if (item == value)
		tool_bad_usage("--pin: '%s' is not auto, none or a CPU list such as 0-3,6", value);
	tool_bad_usage("--pin: '%s' in '%s' is not a CPU or a range of CPUs such as 0-3", item,
		       value);
}

/* One CPU number of a CPU list, 0..MAX_CPU: the len characters at s. */
static int parse_cpu(const char *s, size_t len, const char *item, const char *value)
{
	long v = 0;

	if (!len)
		bad_cpu_list(item, value);
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			bad_cpu_list(item, value);
		v = v * 10 + (s[i] - '0');
		if (v > MAX_CPU)
			tool_bad_usage("--pin: CPU '%.*s' in '%s' is out of range (0..%d)",
				       (int)len, s, value, MAX_CPU);
	}
	return (int)v;
}

/* auto, none, or a CPU list; whether the CPUs exist is checked later. */
static void parse_pin(const char *value)
{
	size_t n, count = 0;
	char *buf;
	char **items;

	free(opts.pin_cpus);
	opts.pin_cpus = NULL;
	opts.cfg.pin = (struct bench_pin){.mode = BENCH_PIN_AUTO, .text = value};
	if (strcmp(value, "auto") == 0)
		return;
	if (strcmp(value, "none") == 0) {
		opts.cfg.pin.mode = BENCH_PIN_NONE;
		return;
	}
	items = tool_split_list(value, &buf, &n);
	/* Pass 0 checks and counts the CPUs, pass 1 stores them. */
	for (int pass = 0; pass < 2; pass++) {
		count = 0;
		for (size_t i = 0; i < n; i++) {
			const char *item = n == 1 ? value : items[i];
			size_t len = strlen(items[i]);
			const char *dash = strchr(items[i], '-');
			size_t lo_len = dash ? (size_t)(dash - items[i]) : len;
			int lo = parse_cpu(items[i], lo_len, item, value);
			int hi = dash ? parse_cpu(dash + 1, len - lo_len - 1, item, value) : lo;

			if (hi < lo && n == 1)
				tool_bad_usage("--pin: '%s' is an empty range of CPUs", value);
			if (hi < lo)
				tool_bad_usage("--pin: '%s' in '%s' is an empty range of CPUs",
					       items[i], value);
			for (int cpu = lo; cpu <= hi; cpu++, count++) {
				if (pass)
					opts.pin_cpus[count] = cpu;
			}
		}
		if (!pass) {
			opts.pin_cpus = calloc(count, sizeof(*opts.pin_cpus));
			if (!opts.pin_cpus)
				tool_die("out of memory");
		}
	}
	free(items);
	free(buf);
	opts.cfg.pin.mode = BENCH_PIN_LIST;
	opts.cfg.pin.cpus = opts.pin_cpus;
	opts.cfg.pin.nr_cpus = count;
}

static void parse_subjects(const char *value)
{
	size_t n;
	char **items;

	free(opts.subjects_buf);
	free(opts.subjects);
	items = tool_split_list(value, &opts.subjects_buf, &n);
	opts.subjects = (const char **)items; /* reachable if the next line exits */
	for (size_t i = 0; i < n; i++) {
		if (!*items[i])
			tool_bad_usage("--subjects: '%s' has an empty subject name", value);
	}
	opts.cfg.subjects = opts.subjects;
	opts.cfg.nr_subjects = n;
}

/* The scenarios with a tuner (BENCH_USES_TUNE), "zero" or "zero, x", into buf. */
static const char *tuners(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr_scenarios && used < len; i++) {
		if (scenarios[i]->uses & BENCH_USES_TUNE)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 scenarios[i]->name);
	}
	return buf;
}

/* --tune: one scenario's tuner picks its own sizes and subjects, and decides by its rule. */
static void check_tune(const struct bench_scenario *const *run, size_t nr_run)
{
	static const char *const refused[] = {"--sizes", "--subjects", "--until-decided"};
	const bool given[] = {opts.sizes_set, opts.subjects_set, opts.cfg.until_decided > 0};
	char names[128];

	if (!opts.cfg.tune)
		return;
	if (nr_run != 1 || !(run[0]->uses & BENCH_USES_TUNE))
		tool_bad_usage("--tune: only the %s scenario has a tuner, not '%s'",
			       tuners(names, sizeof(names)), opts.scenario);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (given[i])
			tool_bad_usage("--tune: %s does not apply (the tuner picks its own sizes "
				       "and subjects, and decides by its own rule)",
				       refused[i]);
	}
	if (opts.cfg.modes & BENCH_MODE_USED)
		tool_bad_usage("--tune: --mode used or all does not apply (the rule is on hot "
			       "and cold)");
}

static void parse_args(int argc, char *argv[])
{
	int c;

	opts.cfg.repeat = DEFAULT_REPEAT;
	opts.cfg.pin = (struct bench_pin){.mode = BENCH_PIN_AUTO, .text = "auto"};
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_THREADS: parse_threads(optarg); break;
		case OPT_PIN: parse_pin(optarg); break;
		case OPT_DURATION:
			opts.cfg.duration = parse_seconds("--duration", optarg);
			opts.duration_set = true;
			break;
		case OPT_REPEAT:
			opts.cfg.repeat = (unsigned int)tool_parse_uint("--repeat", optarg, optarg,
									1, MAX_REPEAT);
			opts.repeat_set = true;
			break;
		case OPT_QUICK: opts.cfg.quick = true; break;
		case OPT_JSON:
			if (!*optarg)
				tool_bad_usage("--json: '' is not a file name");
			opts.json_path = optarg;
			break;
		case OPT_SUBJECTS:
			parse_subjects(optarg);
			opts.subjects_set = true;
			break;
		case OPT_COUNT:
			opts.cfg.count =
				tool_parse_uint("--count", optarg, optarg, MIN_COUNT, INT_MAX);
			opts.count_set = true;
			break;
		case OPT_SIZES: parse_sizes(optarg); break;
		case OPT_MODE: parse_mode(optarg); break;
		case OPT_UNTIL_DECIDED: parse_until_decided(optarg, argc, argv); break;
		case OPT_LIST: opts.list = true; break;
		case OPT_TUNE: opts.cfg.tune = true; break;
		case OPT_HELP: usage(stdout); exit(0);
		case OPT_VERSION: printf("%s %s\n", BENCH_NAME, HOTLINE_VERSION); exit(0);
		case ':':
			if (optopt >= OPT_THREADS)
				tool_bad_usage("--%s: missing value",
					       tool_option_name(long_options, optopt));
			tool_bad_usage("-%c: missing value", optopt);
		case '?':
		default:
			tool_unknown_option(long_options,
					    optind > 0 && optind <= argc ? argv[optind - 1] : NULL);
		}
	}
	/* --quick: one repetition, unless --repeat says otherwise. */
	if (opts.cfg.quick && !opts.repeat_set)
		opts.cfg.repeat = 1;
	else if (opts.cfg.tune && !opts.repeat_set)
		opts.cfg.repeat = DEFAULT_TUNE_REPEAT;
	if (opts.list)
		return;
	if (optind >= argc)
		tool_bad_usage("no scenario given (try --help)");
	opts.scenario = argv[optind];
	if (optind + 1 < argc)
		tool_bad_usage("unexpected argument '%s' after scenario '%s'", argv[optind + 1],
			       opts.scenario);
}

/* The scenarios SCENARIO names, into run[]; returns how many. */
static size_t resolve_scenario(const char *name, const struct bench_scenario **run)
{
	if (strcmp(name, "all") == 0) {
		size_t n = 0;

		for (size_t i = 0; i < nr_scenarios; i++) {
			if (!scenarios[i]->by_name_only)
				run[n++] = scenarios[i];
		}
		return n;
	}
	for (size_t i = 0; i < nr_scenarios; i++) {
		if (strcmp(name, scenarios[i]->name) == 0) {
			run[0] = scenarios[i];
			return 1;
		}
	}
	tool_bad_usage("unknown scenario '%s' (try --help)", name);
}

/* Every --subjects name must be a subject of at least one scenario to run. */
static void check_subjects(const struct bench_scenario *const *run, size_t nr_run)
{
	for (size_t i = 0; i < opts.cfg.nr_subjects; i++) {
		bool found = false;

		for (size_t s = 0; s < nr_run && !found; s++) {
			for (size_t j = 0; j < run[s]->nr_subjects && !found; j++)
				found = strcmp(opts.cfg.subjects[i], run[s]->subjects[j].name) == 0;
			for (size_t j = 0; j < run[s]->nr_selftests && !found; j++)
				found = strcmp(opts.cfg.subjects[i], run[s]->selftests[j].name) ==
					0;
		}
		if (!found)
			tool_bad_usage("--subjects: unknown subject '%s' for %s (see --list)",
				       opts.cfg.subjects[i], opts.scenario);
	}
}

static void check_pin_cpus(void)
{
	if (opts.cfg.pin.mode != BENCH_PIN_LIST)
		return;
	for (size_t i = 0; i < opts.cfg.pin.nr_cpus; i++) {
		if (!bench_cpu_available(opts.pin_cpus[i]))
			tool_bad_usage("--pin: CPU %d in '%s' is not online or not available "
				       "(available: %s)",
				       opts.pin_cpus[i], opts.cfg.pin.text, bench_cpus_text());
	}
}

/* Options the chosen scenarios do not use are said to be ignored. */
static void note_ignored(const struct bench_scenario *sc)
{
	static const struct {
		unsigned int use;
		const char *option;
	} checks[] = {
		{BENCH_USES_THREADS, "--threads"}, {BENCH_USES_DURATION, "--duration"},
		{BENCH_USES_COUNT, "--count"},	   {BENCH_USES_SIZES, "--sizes"},
		{BENCH_USES_MODE, "--mode"},
	};
	const bool given[] = {opts.threads_set, opts.duration_set, opts.count_set, opts.sizes_set,
			      opts.mode_set};

	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		if (given[i] && !(sc->uses & checks[i].use))
			bench_note("%s does not apply to %s (%s); ignored", checks[i].option,
				   sc->name, sc->ignores_why);
	}
}

/* Whether a question of questions.c is about one of the scenarios named. */
static bool asks_questions(const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (bench_questions_asked(names[i]))
			return true;
	}
	return false;
}

/*
 * Find out now, not after minutes of measuring, whether FILE can be
 * written. A file created for the test is removed again.
 */
static void check_json_path(const char *path)
{
	struct stat st;
	bool existed = stat(path, &st) == 0;
	FILE *f = fopen(path, "a");

	if (!f)
		tool_bad_usage("--json: cannot write '%s': %s", path, strerror(errno));
	fclose(f);
	if (!existed)
		unlink(path);
}

static json_t *config_json(void)
{
	json_t *cfg = json_pack("{s:b, s:i, s:o, s:s}", "quick", opts.cfg.quick, "repeat",
				(int)opts.cfg.repeat, "duration",
				opts.duration_set ? json_real(opts.cfg.duration) : json_null(),
				"pin", opts.cfg.pin.text);
	json_t *ud = bench_until_decided_json();

	if (ud)
		json_object_set_new(cfg, "until_decided", ud);
	return cfg;
}

/*
 * The "subjects" entry of scenario sc: the facts of every subject it
 * measured (those with a result from results[first] on), in table order.
 */
static json_t *subjects_json(const struct bench_scenario *sc, json_t *results, size_t first)
{
	const struct bench_subject *picked[sc->nr_subjects + sc->nr_selftests];
	size_t n = bench_select_subjects(sc, &opts.cfg, picked);
	json_t *obj = json_object();

	for (size_t i = 0; i < n; i++) {
		for (size_t j = first; j < json_array_size(results); j++) {
			json_t *subject = json_object_get(json_array_get(results, j), "subject");

			if (json_is_string(subject) &&
			    strcmp(json_string_value(subject), picked[i]->name) == 0) {
				json_object_set_new(obj, picked[i]->name,
						    subject_facts_json(picked[i]->description,
								       &picked[i]->facts));
				break;
			}
		}
	}
	return obj;
}

static int write_json(const char *path, json_t *results, json_t *subjects,
		      const struct bench_scenario *const *run, size_t nr_run, long long start,
		      int argc, char *argv[])
{
	json_t *doc = json_object();
	int ret = 0;

	json_object_set_new(doc, "tool", json_string(BENCH_NAME));
	json_object_set_new(doc, "version", json_string(HOTLINE_VERSION));
	json_object_set_new(doc, "env", bench_env_json(start, argc, argv));
	json_object_set_new(doc, "config", config_json());
	json_object_set(doc, "results", results);
	json_object_set(doc, "subjects", subjects);
	for (size_t i = 0; i < nr_run; i++) {
		const char *key = NULL;
		json_t *section = run[i]->section ? run[i]->section(&key) : NULL;

		if (section)
			json_object_set(doc, key, section);
	}
	if (json_dump_file(doc, path, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) != 0) {
		bench_error("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
		ret = 1;
	}
	json_decref(doc);
	return ret;
}

/* The registry into scenarios[], in its order; each scenario at an order of its own. */
static void load_scenarios(void)
{
	const struct bench_scenario_entry *prev = NULL;

	for (const struct bench_scenario_entry *e = bench_scenario_entries(); e; e = e->next) {
		if (nr_scenarios == MAX_SCENARIOS)
			tool_die("more than %d scenarios built in", MAX_SCENARIOS);
		if (prev && prev->order == e->order)
			tool_die("scenarios %s and %s are both registered at order %d",
				 prev->scenario->name, e->scenario->name, e->order);
		scenarios[nr_scenarios++] = e->scenario;
		prev = e;
	}
}

int main(int argc, char *argv[])
{
	const struct bench_scenario *run[MAX_SCENARIOS];
	static const char *run_names[MAX_SCENARIOS];
	double planned_s[MAX_SCENARIOS];
	long long start = (long long)time(NULL);
	size_t nr_run;
	json_t *results, *subjects;
	int ret = 0;

	tool_init(BENCH_NAME, bench_progress_done);
	load_scenarios();
	opts.argv = calloc((size_t)argc + 1, sizeof(*opts.argv));
	if (!opts.argv)
		tool_die("out of memory");
	memcpy(opts.argv, argv, (size_t)argc * sizeof(*argv));
	parse_args(argc, argv);
	if (opts.list) {
		list_scenarios();
		return 0;
	}
	nr_run = resolve_scenario(opts.scenario, run);
	check_tune(run, nr_run);
	check_subjects(run, nr_run);
	for (size_t i = 0; i < nr_run; i++)
		run_names[i] = run[i]->name;
	if (opts.cfg.until_decided && !asks_questions(run_names, nr_run))
		bench_note("--until-decided: the report asks no question of %s; ignored",
			   opts.scenario);
	if (opts.json_path)
		check_json_path(opts.json_path);
	if (bench_topology_init())
		return 1;
	check_pin_cpus();
	for (size_t i = 0; i < nr_run; i++)
		note_ignored(run[i]);

	for (size_t i = 0; i < nr_run; i++) {
		struct bench_plan plan = {0};

		if (run[i]->plan)
			run[i]->plan(run[i], &opts.cfg, &plan);
		bench_progress_plan(run[i]->name, &plan);
		planned_s[i] = plan.seconds;
	}
	bench_until_decided_init(opts.cfg.until_decided, opts.cfg.repeat, run_names, planned_s,
				 nr_run);

	results = json_array();
	subjects = json_object();
	for (size_t i = 0; i < nr_run && !ret; i++) {
		size_t first = json_array_size(results);

		if (i)
			putchar('\n');
		bench_progress_scenario(run[i]->name);
		bench_until_decided_scenario(run[i]->name);
		ret = run[i]->run(run[i], &opts.cfg, results);
		if (!ret)
			bench_progress_scenario_done(run[i]->name);
		json_object_set_new(subjects, run[i]->name, subjects_json(run[i], results, first));
	}
	if (!ret && opts.json_path)
		ret = write_json(opts.json_path, results, subjects, run, nr_run, start, argc,
				 opts.argv);
	json_decref(results);
	json_decref(subjects);
	bench_topology_fini();
	free(opts.argv);
	return ret;
}
