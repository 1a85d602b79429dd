// SPDX-License-Identifier: MIT
/*
 * scenarios/copy_output.c - what copy prints and writes: the lines before
 * the tables, one table per sweep (GB/s, or ns per word for the word
 * sweep; a row per size, a column per subject), and one JSON result per
 * subject, sweep and size with copy's own fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../questions.h"
#include "copy.h"
#include "zero.h"

void cp_print_intro(const struct cp_run *run, const char *unsupported)
{
	char llc[32], arena[32], pipe[32];

	printf("%s: copying one buffer per call, one thread; %.3f s per sample, %u repetition%s "
	       "interleaved; placement %s\n"
	       "hl_try_copy's automatic plan: %s\n"
	       "cold: each call copies another %d-byte-aligned place of the first half of a %s "
	       "arena (%d x the %s last-level cache%s) to the same place of its second half, in "
	       "scattered order; every page faulted in first\n",
	       CP_NAME, run->duration, run->reps, run->reps == 1 ? "" : "s", run->cfg->pin.text,
	       run->plan, CP_ALIGN, zt_size_text(run->arena, arena, sizeof(arena)), ZT_ARENA_LLCS,
	       zt_size_text(run->llc, llc, sizeof(llc)), run->llc_guessed ? ", guessed" : "");
	if (run->pipe_rd >= 0)
		printf("probe: hot buffers; pipe_probe writes at most %s (the pipe's capacity) "
		       "before it reads back\n",
		       zt_size_text(run->pipe_bytes, pipe, sizeof(pipe)));
	printf("word: one 8-byte word per call from a hot %u KiB array, round and round\n",
	       CP_WORDS_BYTES >> 10);
	if (bench_until_decided_on())
		printf("(--until-decided: more repetitions where a question cannot tell; "
		       "config.until_decided in the JSON says which)\n");
	if (unsupported[0])
		printf("variants this CPU cannot run (not measured): %s\n", unsupported);
	fflush(stdout);
}

/* Column width of a subject in the tables: its name, at least 7 characters. */
static int cp_width(const struct bench_subject *s)
{
	int len = (int)strlen(s->name);

	return len < 7 ? 7 : len;
}

void cp_print_header(const struct bench_subject *const *subjects, size_t n, enum cp_sweep sweep)
{
	printf("\n%s, %s (median):\n%-9s", cp_sweep_name(sweep),
	       sweep == CP_WORD ? "ns per word" : "GB/s", "size");
	for (size_t i = 0; i < n; i++)
		printf(" %*s", cp_width(subjects[i]), subjects[i]->name);
	putchar('\n');
}

void cp_print_row(const struct cp_ctx *ctx)
{
	bool word = ctx->sample.sweep == CP_WORD;
	char size[32];

	printf("%-9s", zt_size_text(ctx->sample.size, size, sizeof(size)));
	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_series *s = &ctx->series[i];

		printf(" %*.3g", cp_width(ctx->subjects[i]),
		       bench_median(word ? s->ns_per_op : s->gb_per_sec, s->n));
	}
	putchar('\n');
	fflush(stdout);
}

void cp_print_skipped(const struct cp_run *run, size_t skipped)
{
	char text[32];

	printf("(cold skips %zu size%s over %s: two such buffers do not fit half the arena "
	       "twice, and hot already finds them beyond the last-level cache)\n",
	       skipped, skipped == 1 ? "" : "s", zt_size_text(run->arena / 4, text, sizeof(text)));
}

/*
 * Subject i's throughput / its baseline's in each repetition both ran,
 * into ratio[] (--until-decided may give one more than the other); their
 * number.
 */
static unsigned int cp_ratio(const struct cp_ctx *ctx, size_t i, double *ratio)
{
	const struct bench_series *s = &ctx->series[i], *b = &ctx->series[ctx->base[i]];
	unsigned int n = s->n < b->n ? s->n : b->n;

	for (unsigned int rep = 0; rep < n; rep++)
		ratio[rep] = s->gb_per_sec[rep] / b->gb_per_sec[rep];
	return n;
}

static json_t *cp_string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void cp_results(const struct cp_ctx *ctx, json_t *results)
{
	const struct cp_run *run = ctx->run;
	enum cp_sweep sweep = ctx->sample.sweep;
	double *ratio = calloc(bench_reps_cap(run->reps), sizeof(*ratio));

	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_subject *s = ctx->subjects[i];
		const char *base = s->facts.baseline ? s->facts.baseline : s->name;
		json_t *r = bench_result_json(CP_NAME, s->name, &ctx->series[i],
					      sweep == CP_WORD ? BENCH_HEADLINE_NS_PER_OP
							       : BENCH_HEADLINE_GB_PER_SEC,
					      ctx->sample.size, 0);
		bool self = strcmp(base, s->name) == 0;

		json_object_set_new(r, "mode", json_string(cp_sweep_name(sweep)));
		json_object_set_new(r, "duration", json_real(run->duration));
		json_object_set_new(r, "llc_bytes", json_integer((json_int_t)run->llc));
		json_object_set_new(r, "arena_bytes",
				    sweep == CP_COLD ? json_integer((json_int_t)run->arena)
						     : json_null());
		json_object_set_new(r, "variant", cp_string_or_null(cp_variant(s)));
		json_object_set_new(r, "plan", cp_string_or_null(cp_is_auto(s) ? run->plan : NULL));
		json_object_set_new(r, "measures", cp_string_or_null(cp_measures(s)));
		if (sweep == CP_PROBE)
			json_object_set_new(r, "pipe_bytes",
					    cp_is_pipe(s)
						    ? json_integer((json_int_t)run->pipe_bytes)
						    : json_null());
		if (sweep == CP_WORD)
			json_object_set_new(r, "array_bytes", json_integer(CP_WORDS_BYTES));
		json_object_set_new(r, "ratio_to", json_string(base));
		if ((self || ctx->base[i] >= 0) && ratio) {
			unsigned int nr = self ? ctx->series[i].n : cp_ratio(ctx, i, ratio);

			for (unsigned int k = 0; self && k < nr; k++)
				ratio[k] = 1.0;
			json_object_set_new(r, "ratio", json_real(bench_median(ratio, nr)));
			json_object_set_new(r, "ratio_runs", bench_json_reals(ratio, nr));
		} else {
			json_object_set_new(r, "ratio", json_null());
			json_object_set_new(r, "ratio_runs", json_null());
		}
		json_array_append_new(results, r);
	}
	free(ratio);
}
