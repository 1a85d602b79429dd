/* SPDX-License-Identifier: MIT */
/*
 * scenarios/copy.h - what the files of the copy scenario share.
 *
 *   copy.c         the subjects, their measurement loops, the run (copy.c's
 *                  head comment says what the scenario measures)
 *   copy_output.c  the lines before the tables, the tables and the JSON
 *
 * The memory (the last-level cache, the cold arena and its walk) and the
 * size names are zero's (zero.h, zero_arena.c, zero_output.c).
 */
#ifndef HOTLINE_BENCH_COPY_H
#define HOTLINE_BENCH_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scenarios.h"

#define CP_NAME		  "copy"
#define CP_BASELINE	  "glibc_memcpy"
#define CP_DURATION	  0.01 /* seconds per sample */
#define CP_QUICK_DURATION 0.002
#define CP_ALIGN	  64	      /* every buffer starts on a cache line */
#define CP_PROBE_MIN	  8	      /* the probe sweep's sizes: 8 B .. */
#define CP_PROBE_MAX	  (1u << 20)  /* .. 1 MiB */
#define CP_WORDS_BYTES	  (16u << 10) /* the word sweep's hot array */
#define CP_PIPE_BYTES	  (1u << 20)  /* the pipe capacity asked for (F_SETPIPE_SZ) */

/* The sweeps, as the JSON's "mode" names them. */
enum cp_sweep {
	CP_HOT,	  /* hot buffers: the same source and destination call after call */
	CP_COLD,  /* cold: another place of an arena beyond the last-level cache per call */
	CP_PROBE, /* hot, the "read memory that may be unmapped" subjects */
	CP_WORD,  /* one 8-byte word per call from a hot array */
};

/* One sample: what the loop is told, and what it leaves. */
struct cp_sample {
	/* Set by the scenario before the measurement. */
	const char *subject;	     /* a variant subject: the variant to force */
	unsigned char *src, *dst;    /* hot: the buffers; cold: the arena's two halves */
	size_t size;		     /* bytes per call */
	size_t slot_bytes, nr_slots; /* cold: the walk over each half */
	size_t step, cursor;	     /* cold: its step; the next slot, kept between samples */
	enum cp_sweep sweep;	     /* which loop runs */
	bool warm_up;		     /* hot: one untimed call first (the buffers fit a cache) */
	uint64_t duration_ns;	     /* of the timed loop */
	pid_t pid;		     /* process_vm_readv's: this process */
	int pipe_rd, pipe_wr;	     /* pipe_probe's pipe */
	size_t pipe_bytes;	     /* its capacity: pipe_probe writes at most this per write */
	const uint64_t *words;	     /* the word sweep's array ... */
	size_t nr_words;	     /* ... and its length (a power of two) */
	/* Left by the loop. */
	uint64_t calls, bytes, elapsed_ns, cycles;
};

/* One run of the scenario. */
struct cp_run {
	const struct bench_config *cfg;
	unsigned int reps;
	double duration;
	size_t llc, arena; /* bytes */
	bool llc_guessed;
	unsigned char *region; /* the hot buffers, the cold arena, the word array */
	size_t region_bytes;
	int pipe_rd, pipe_wr;
	size_t pipe_bytes;
	char plan[256]; /* hl_try_copy's automatic plan */
};

/* One sweep at one size: its subjects, repetitions interleaved. */
struct cp_ctx {
	const struct cp_run *run;
	const struct bench_subject **subjects;
	size_t n;
	struct cp_sample sample;     /* this sweep and size; each measurement copies it */
	struct bench_series *series; /* [n] */
	int *base;		     /* [n]: the index of each subject's baseline here, or -1 */
};

/* ---- copy.c: what a subject is ------------------------------------------- */

/* The variant s forces: its own name, "auto" for the automatic plan, or NULL. */
const char *cp_variant(const struct bench_subject *s);
/* Whether s runs hl_try_copy's automatic plan (the result carries the plan). */
bool cp_is_auto(const struct bench_subject *s);
/* What s measures when it is not hotline code (the host kernel), or NULL. */
const char *cp_measures(const struct bench_subject *s);
/* Whether s is pipe_probe (its results carry the pipe's capacity). */
bool cp_is_pipe(const struct bench_subject *s);
/* The sweep's name in the JSON and the tables: "hot", "cold", "probe", "word". */
const char *cp_sweep_name(enum cp_sweep sweep);

/* ---- copy_output.c ------------------------------------------------------- */

/* The lines before the tables: settings, plan, arena, pipe, what is left out. */
void cp_print_intro(const struct cp_run *run, const char *unsupported);
/* A sweep's table: its header, one row per size, the note on skipped sizes. */
void cp_print_header(const struct bench_subject *const *subjects, size_t n, enum cp_sweep sweep);
void cp_print_row(const struct cp_ctx *ctx);
void cp_print_skipped(const struct cp_run *run, size_t skipped);
/* One result per subject of ctx, with copy's fields. */
void cp_results(const struct cp_ctx *ctx, json_t *results);

#endif /* HOTLINE_BENCH_COPY_H */
