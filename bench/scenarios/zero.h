/* SPDX-License-Identifier: MIT */
/*
 * scenarios/zero.h - what the files of the zero scenario share.
 *
 *   zero.c         the subjects, their measurement loop, the run (zero.c's
 *                  head comment says what the scenario measures)
 *   zero_arena.c   the memory: the last-level cache, the cold arena and its
 *                  walk, the mapping every sample uses
 *   zero_dd.c      the host kernel's experiments: /dev/zero, a sparse tmpfs
 *                  file, dd-style reads of both
 *   zero_output.c  the tables and the JSON of the hot and cold sweeps
 *   zero_tune.c    --tune: the crossovers of hl_zero's plan, measured with
 *                  zero.c's loop over these buffers (rule: ../tune_rule.h)
 */
#ifndef HOTLINE_BENCH_ZERO_H
#define HOTLINE_BENCH_ZERO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenarios.h"

#define ZT_NAME		  "zero"
#define ZT_BASELINE	  "glibc_memset"
#define ZT_DURATION	  0.03 /* seconds per sample */
#define ZT_QUICK_DURATION 0.002
#define ZT_ALIGN	  64 /* every buffer starts on a cache line */
#define ZT_PAGE		  4096
#define ZT_HUGE_PAGE	  (2u << 20)
#define ZT_ARENA_LLCS	  4 /* the cold arena: this many times the last-level cache */
#define ZT_DD_BLOCK	  (1u << 20)
#define ZT_DD_TOTAL	  (4ull << 30) /* bytes read per dd run */
#define ZT_DD_QUICK_TOTAL (256ull << 20)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One sample: what the loop is told, and what it leaves. */
struct zt_sample {
	/* Set by the scenario before the measurement. */
	const char *subject;		   /* a variant subject: the variant to force */
	unsigned char *base;		   /* hot: the buffer; cold: the arena; dd: the block */
	size_t size;			   /* bytes per call (dd: per read) */
	size_t slot_bytes, nr_slots, step; /* cold: the walk over the arena */
	size_t cursor;			   /* cold: the next slot, carried from sample to sample */
	bool cold;
	bool used;    /* cold, then each line of the buffer read once after the clear */
	bool warm_up; /* hot: one untimed call first (the buffer fits a cache) */
	uint64_t duration_ns;
	uint64_t total_bytes; /* dd: bytes to read per run */
	int fd;		      /* read_dev_zero and dd: the file read from */
	/* Left by the loop. */
	uint64_t calls, bytes, elapsed_ns, cycles;
};

/* One run of the scenario. */
struct zt_run {
	const struct bench_config *cfg;
	unsigned int reps;
	double duration;
	size_t llc, arena; /* bytes */
	bool llc_guessed;
	unsigned char *region; /* the hot buffers, the cold arena, the dd block */
	size_t region_bytes;
	char plan[256]; /* hl_zero's automatic plan */
};

/* One mode at one size: every buffer subject, repetitions interleaved. */
struct zt_ctx {
	const struct zt_run *run;
	const struct bench_subject **subjects;
	size_t n;
	struct zt_sample sample;     /* this mode and size; each measurement copies it */
	struct bench_series *series; /* [n] */
	int baseline;		     /* the baseline subject's index (glibc_memset), or -1 */
};

/* ---- zero.c: what a subject is ------------------------------------------ */

/* The variant s forces: its own name, "auto" for the automatic plan, or NULL. */
const char *zt_variant(const struct bench_subject *s);
/* Whether s runs hl_zero's automatic plan (the result carries the plan). */
bool zt_is_auto(const struct bench_subject *s);
/* What s measures when it is not hotline code (the host kernel), or NULL. */
const char *zt_measures(const struct bench_subject *s);
/* Whether s is one of the dd experiments, run apart from the size sweeps. */
bool zt_is_dd(const struct bench_subject *s);
/* The subject that forces the variant name, or NULL if the library lists no such variant. */
const struct bench_subject *zt_variant_subject(const char *name);

/* ---- zero.c: measuring, for the sweeps and the tuner ---------------------- */

/* A context for subjects[0..n) in one mode over run's memory (no baseline). */
void zt_ctx_init(struct zt_ctx *ctx, const struct zt_run *run,
		 const struct bench_subject **subjects, size_t n, bool cold);
/* The sample's mode as the JSON and the tables name it: "hot", "cold" or "used". */
const char *zt_mode(const struct zt_sample *s);
/* Point ctx's sample at size (the cold walk, the hot warm-up); false: cold skips it. */
bool zt_set_size(struct zt_ctx *ctx, size_t size);
/*
 * Measure every subject of ctx at its size, repetitions interleaved, into
 * ctx->series (free with zt_series_free, also after a failure); label gets
 * the progress label. 0, or 1 after bench_error.
 */
int zt_measure_size(struct zt_ctx *ctx, char *label, size_t label_size);
void zt_series_free(struct zt_ctx *ctx);

/* ---- zero_arena.c -------------------------------------------------------- */

/*
 * The last-level cache in bytes: hwloc's (bench_llc_bytes), else glibc's
 * idea of the L3, else a guess (*guessed).
 */
size_t zt_llc_bytes(bool *guessed);
/* The cold arena for a last-level cache of llc bytes. */
size_t zt_arena_bytes(size_t llc);
/* Set up s's cold walk over an arena of arena bytes at size s->size. */
void zt_cold_walk(struct zt_sample *s, size_t arena);
/* Map run->region (need bytes, every page faulted in). 0, or -1 after bench_error. */
int zt_map(struct zt_run *run, size_t need);
void zt_unmap(struct zt_run *run);

/* ---- zero_dd.c ----------------------------------------------------------- */

/* The dd subjects' run function, and the setups of the subjects that read a file. */
void run_dd(struct bench_worker *w);
void *zt_setup_dev_zero(const struct bench_params *p);
void *zt_setup_sparse(const struct bench_params *p);

/*
 * Open /dev/zero and, if dd[0..*nr_dd) holds the tmpfs subject, make the
 * sparse file; without a tmpfs, a note says so and that subject is
 * dropped from dd. 0, or -1 after bench_error.
 */
int zt_files_open(const struct bench_config *cfg, const struct bench_subject **dd, size_t *nr_dd);
void zt_files_close(void);

/* The dd experiments: measure, print their table, append their results. 0 or 1. */
int zt_run_dd(const struct zt_run *run, const struct bench_subject **subjects, size_t n,
	      json_t *results);

/* ---- zero_tune.c: --tune ------------------------------------------------- */

/* What zt_tune will measure under cfg, for the progress. */
void zt_tune_plan(const struct bench_config *cfg, struct bench_plan *plan);
/* Measure the crossovers, print the tables and the setting, append the results. 0 or 1. */
int zt_tune(const struct bench_config *cfg, json_t *results);

/* ---- zero_output.c ------------------------------------------------------- */

/* "4K", "1M", "1G" for exact multiples, else the bytes. */
const char *zt_size_text(size_t n, char *buf, size_t len);
/* The lines before the tables: settings, plan, arena, unsupported variants. */
void zt_print_intro(const struct zt_run *run, const char *unsupported);
/* A mode's table: its header, one row per size, the note on skipped sizes. */
void zt_print_header(const struct bench_subject *const *subjects, size_t n, const char *mode);
void zt_print_row(const struct zt_ctx *ctx);
void zt_print_skipped(const struct zt_run *run);
/* One result per subject of ctx, with zero's fields. */
void zt_results(const struct zt_ctx *ctx, json_t *results);

#endif /* HOTLINE_BENCH_ZERO_H */
