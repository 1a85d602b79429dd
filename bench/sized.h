/* SPDX-License-Identifier: MIT */
/*
 * sized.h - the sized-scenario engine: what zero and copy (and any
 * scenario that times one call on a buffer of n bytes) declare, and what
 * the engine does with it.
 *
 * A sized scenario declares, in one struct sized_def: its name, the
 * library's variant list (each variant becomes a subject that forces it),
 * its fixed subjects (each with a struct sized_facts: the sweeps that
 * measure it, whether it runs the automatic plan, what host-kernel work it
 * measures), its sweeps (hot, cold, used, or its own, with their tables'
 * units and their extra JSON fields), its size lists, and what a correct
 * call leaves in the buffer; hooks add what is its own (zero's dd runs,
 * copy's pipe). The engine does the rest: sized.c the last-level cache,
 * the cold arena and its scattered walk, the mapping, the subjects'
 * setups, the measurement of every subject at every size with
 * repetitions interleaved and cut into slices, --until-decided, the
 * tables, the paired ratios and the JSON rows; sized_run.c the run (sizes,
 * subjects per sweep, memory, the sweeps asked for, the progress's
 * estimate). The timed loop is sized_loop.h, inlined into each subject's
 * run function with its operation.
 */
#ifndef HOTLINE_BENCH_SIZED_H
#define HOTLINE_BENCH_SIZED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

#define SIZED_ALIGN	   64 /* every buffer starts on a cache line */
#define SIZED_PAGE	   4096
#define SIZED_HUGE_PAGE	   (2u << 20)
#define SIZED_ARENA_LLCS   4  /* the cold arena: this many times the last-level cache */
#define SIZED_MAX_SUBJECTS 32 /* variants and fixed subjects of one scenario */
#define SIZED_MAX_VARIANTS 16
#define SIZED_MAX_SWEEPS   8
/*
 * A repetition's sample is cut into this many slices, taken by turns
 * across the subjects (bench_interleave_rounds), at most one per
 * SIZED_MIN_SLICE of the sample (--quick: fewer).
 */
#define SIZED_SLICES	8
#define SIZED_MIN_SLICE 0.001 /* seconds */
/* Hot, fewer: each slice at least this many calls at sized_def.rate (sized_set_size). */
#define SIZED_SLICE_CALLS 16

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

struct sized_def;
struct sized_ctx;
struct sized_run;

/* What a sized scenario declares about a subject (bench_subject.extra). */
struct sized_facts {
	unsigned int sweeps;  /* bit k: sweep k of the scenario's sweeps measures it */
	bool automatic;	      /* runs the library's automatic plan: its results carry it */
	const char *measures; /* the host kernel's work it measures, or NULL: hotline code */
	unsigned int flags;   /* the scenario's own (e.g. copy's: reads through the pipe) */
	/*
	 * What a correct call of this subject leaves at byte at of dst (as
	 * sized_def.expect), where it differs from the scenario's: NULL.
	 */
	unsigned char (*expect)(const unsigned char *src, size_t at);
};

/* One sweep: a state of the buffers, a row per size. */
struct sized_sweep {
	const char *name; /* the JSON's "mode" and the table's title */
	const char *unit; /* of the table: "GB/s", "ns per word" */
	enum bench_headline headline;
	unsigned int mode; /* the --mode bit that asks for it */
	bool cold;	   /* a new place of the arena per call */
	bool used;	   /* the loop's "used" state (the scenario's sized_loop says what) */
	bool fixed_size;   /* one row, at the first size of the list it is given */
	/* Only when a subject no other sweep measures is selected. */
	bool only_if_own;
	/* Its sizes: NULL for the scenario's list; else its own (cfg's --sizes in [min, max]). */
	const size_t *sizes;
	size_t nr_sizes, min, max;
	/* Fields its results carry beside the engine's, or NULL. */
	void (*json)(const struct sized_ctx *ctx, size_t i, json_t *r);
	/* Just before it runs (e.g. fill the memory it reads), or NULL. */
	void (*before)(const struct sized_run *run);
};

/* The library's variants: each is a subject that forces it. */
struct sized_variants {
	const char *(*name)(unsigned int i); /* the i-th variant's name, NULL after the last */
	int (*use)(const char *name);	     /* force it ("auto": the automatic plan); 0 or -1 */
	bool (*supported)(const char *name); /* whether this CPU runs it */
	const char *const (*text)[2];	     /* {name, description} of the known ones ... */
	size_t nr_text;			     /* ... and their number */
	const char *generic;		     /* the description of any other */
	void (*run)(struct bench_worker *w); /* the loop over the forced variant */
	struct subject_facts facts;	     /* every variant's (variant_of: the function) */
	const struct sized_facts *extra;     /* every variant's (the sweeps that measure it) */
	/* The library's automatic plan, as text. */
	void (*plan)(char *buf, size_t len);
};

/* One run of a sized scenario. */
struct sized_run {
	const struct sized_def *def;
	const struct bench_config *cfg;
	unsigned int reps, modes; /* modes: the BENCH_MODE_* bits asked and offered */
	double duration;	  /* seconds per sample */
	unsigned int slices;	  /* a sample's at most, each duration / slices: SIZED_SLICES */
	size_t llc, arena;	  /* bytes */
	bool llc_guessed;
	unsigned char *region; /* the hot buffers, the cold arena, the scenario's own */
	size_t region_bytes;
	char plan[256];	       /* the library's automatic plan */
	char unsupported[256]; /* the variants this CPU cannot run, ", "-separated */
	/* The selected subjects each sweep measures (those it can run) ... */
	const struct bench_subject *swept[SIZED_MAX_SWEEPS][SIZED_MAX_SUBJECTS];
	size_t nr_swept[SIZED_MAX_SWEEPS];
	/* ... and those no sweep measures: the scenario's own (zero's dd). */
	const struct bench_subject *rest[SIZED_MAX_SUBJECTS];
	size_t nr_rest;
	void *own; /* the scenario's own state of the run */
};

/* One sample: what the loop is told, and what it leaves. */
struct sized_sample {
	/* Set by the engine before the measurement. */
	const struct sized_def *def;
	const char *subject;		 /* a variant subject: the variant to force */
	const struct sized_facts *facts; /* the subject's; NULL: the scenario's expect */
	unsigned char *src, *dst; /* hot: the buffers; cold: the arena (src: its first half) */
	size_t size;		  /* bytes per call */
	size_t slot_bytes, nr_slots, step; /* cold: the walk over the arena */
	size_t cursor;			   /* cold: the next slot, carried from sample to sample */
	bool cold, used;
	bool warm_up;	      /* hot: untimed calls first (the buffers fit a cache) */
	uint64_t duration_ns; /* the sample's; one measurement's: its slice's */
	int fd;		      /* a file the subject reads (its setup opens it), or -1 */
	const void *own;      /* the scenario's state of the run (sized_run.own) */
	/* Left by the loop. */
	uint64_t calls, bytes, elapsed_ns, cycles;
};

/* A subject's repetition so far: the sum of its slices (SIZED_SLICES). */
struct sized_sum {
	uint64_t calls, bytes, elapsed_ns, cycles;
	struct bench_machine_sample start; /* the machine before its first slice */
	int cpu;			   /* where its last slice ran */
};

/* One sweep at one size: its subjects, repetitions interleaved. */
struct sized_ctx {
	const struct sized_run *run;
	const struct sized_sweep *sweep;
	const struct bench_subject **subjects;
	size_t n;
	struct sized_sample sample;   /* this sweep and size; each measurement copies it */
	struct bench_series *series;  /* [n] */
	struct sized_sum *sum;	      /* [n]: the repetition being measured */
	unsigned int slices;	      /* a sample's at this size (sized_set_size) */
	int base[SIZED_MAX_SUBJECTS]; /* each subject's baseline's index here, or -1 */
};

/* A sized scenario, as it declares itself. */
struct sized_def {
	const char *name;
	const char *noun, *undone;	 /* for the failure lines: "buffer", "uncleared" */
	unsigned int buffers;		 /* 1: a destination; 2: a source and a destination */
	unsigned int modes;		 /* the --mode bits it offers */
	const char *modes_note;		 /* what it says of the others */
	double duration, quick_duration; /* seconds per sample */
	double rate; /* bytes/s a call is assumed to reach: the progress's estimate, hot slices */
	uint64_t max_size;
	const size_t *odd_sizes, *quick_sizes; /* beside the powers of two; --quick */
	size_t nr_odd, nr_quick;
	const struct sized_sweep *sweeps;
	size_t nr_sweeps;
	const struct sized_variants *variants; /* NULL: the library has none of this */
	const struct bench_subject *fixed;
	size_t nr_fixed;
	struct bench_subject *subjects; /* room for SIZED_MAX_SUBJECTS: built before main() */
	struct bench_scenario *scenario;
	/* The byte a correct call leaves at byte at of dst, its source being src. */
	unsigned char (*expect)(const unsigned char *src, size_t at);
	/* The line a wrong byte gets (got at byte at of n, want expected). */
	void (*wrong)(char *why, size_t len, size_t at, size_t n, unsigned int got,
		      unsigned int want);
	/* Fill the mapping before the run; NULL: one byte per page. */
	void (*fill)(unsigned char *region, size_t bytes);
	/* The run's own preparation after the mapping (files, pipes); NULL. 0 or 1. */
	int (*prepare)(struct sized_run *run);
	/* The flags of the subjects this system cannot run, and why; NULL: all run. */
	unsigned int (*unusable)(char *why, size_t len);
	/* The bytes the scenario's own sweeps and state need beside the engine's. */
	size_t (*need)(const struct sized_run *run);
	/* The lines before the tables (the engine adds the common last ones). */
	void (*intro)(const struct sized_run *run);
	/* The note under a sweep's table that skipped sizes. */
	void (*skipped)(const struct sized_run *run, const struct sized_sweep *sweep,
			size_t skipped);
	/* After the sweeps: run->rest, the subjects no sweep measures (zero's dd); NULL. 0 or 1. */
	int (*after)(struct sized_run *run, json_t *results);
	/* The seconds per repetition run->rest takes, for the progress; NULL. */
	double (*rest_seconds)(const struct sized_run *run);
	/* Undo prepare; NULL. */
	void (*finish)(struct sized_run *run);
};

/* ---- subjects ------------------------------------------------------------ */

/* Build def's subject table, the library's variants first; call before main(). */
void sized_init_subjects(const struct sized_def *def);
/* What def declares about s (an empty struct for a subject without). */
const struct sized_facts *sized_facts(const struct bench_subject *s);
bool sized_is_variant(const struct bench_subject *s);
/* The variant s forces: its own name, "auto" for the automatic plan, or NULL. */
const char *sized_variant(const struct bench_subject *s);
/* The subject that forces the variant name, or NULL. */
const struct bench_subject *sized_variant_subject(const struct sized_def *def, const char *name);
/* The subjects' setups: force the sample's variant; the automatic plan; nothing. */
void *sized_setup_variant(const struct bench_params *p);
void *sized_setup_auto(const struct bench_params *p);
void *sized_setup_plain(const struct bench_params *p);
void sized_teardown(void *state);

/* ---- memory -------------------------------------------------------------- */

/* The last-level cache: hwloc's, else glibc's L3, else a guess (*guessed). */
size_t sized_llc_bytes(bool *guessed);
/* The cold arena for a last-level cache of llc bytes. */
size_t sized_arena_bytes(size_t llc);
/* The cold walk over an arena of arena bytes at s->size. */
void sized_cold_walk(struct sized_sample *s, size_t arena);
/* Map run->region (need bytes, every page faulted in). 0, or -1 after bench_error. */
int sized_map(struct sized_run *run, size_t need);
void sized_unmap(struct sized_run *run);
size_t sized_round_up(size_t n, size_t to);

/* ---- measuring ----------------------------------------------------------- */

/* "4K", "1M", "1G" for exact multiples, else the bytes. */
const char *sized_size_text(size_t n, char *buf, size_t len);
/* The seconds per sample cfg asks of def. */
double sized_duration(const struct sized_def *def, const struct bench_config *cfg);
/* A context for subjects[0..n) in sweep over run's memory. */
void sized_ctx_init(struct sized_ctx *ctx, const struct sized_run *run,
		    const struct sized_sweep *sweep, const struct bench_subject **subjects,
		    size_t n);
/* Point ctx's sample at size; false: the cold arena cannot hold it. */
bool sized_set_size(struct sized_ctx *ctx, size_t size);
/*
 * The sizes of a sweep that can run (sized_set_size), a context each with
 * its series and progress label: ctx[k] is at sizes[k] of those kept.
 */
struct sized_sizes {
	struct sized_ctx *ctx;
	struct bench_round_point *points;
	char (*labels)[64];
	size_t nr;
};

/* w for subjects[0..n) in sweep at sizes; counts those the arena cannot hold in *skipped. */
int sized_sizes_init(struct sized_sizes *w, const struct sized_run *run,
		     const struct sized_sweep *sweep, const struct bench_subject **subjects,
		     size_t n, const size_t *sizes, size_t nr_sizes, size_t *skipped);
/*
 * Measure every subject at every size of w into its series, the
 * repetitions in rounds over the sizes (bench_interleave_rounds): each
 * size's spread over the whole measurement, each still side by side
 * across the subjects.
 */
int sized_sizes_measure(const struct sized_sizes *w);
void sized_sizes_free(struct sized_sizes *w);
/* One result per subject of ctx. */
void sized_results(const struct sized_ctx *ctx, json_t *results);
/* The bytes def's hot buffers of size take, with the byte after them. */
size_t sized_hot_bytes(const struct sized_def *def, size_t size);
/*
 * Measure subjects[0..n) in sweep at each size, the repetitions in rounds
 * over the sizes: a table, a result per subject and size. 0 or 1.
 */
int sized_run_sweep(const struct sized_run *run, const struct sized_sweep *sweep,
		    const struct bench_subject **subjects, size_t n, const size_t *sizes,
		    size_t nr_sizes, json_t *results);

/* ---- the scenario ---------------------------------------------------------- */

/* What sized_scenario_run measures under cfg, for the progress. */
void sized_scenario_plan(const struct sized_def *def, const struct bench_config *cfg,
			 struct bench_plan *plan);
/* Run def's sweeps under cfg. 0, or 1 after bench_error. */
int sized_scenario_run(const struct sized_def *def, const struct bench_config *cfg,
		       json_t *results);
/* The run's settings (reps, duration, the cache and the arena), for a scenario's own run too. */
void sized_run_init(struct sized_run *run, const struct sized_def *def,
		    const struct bench_config *cfg);

#endif /* HOTLINE_BENCH_SIZED_H */
