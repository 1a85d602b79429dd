// SPDX-License-Identifier: MIT
/*
 * scenarios/zero_output.c - what zero prints and writes for its hot and
 * cold sweeps: the lines before the tables, one table per mode (GB/s, a
 * row per size, a column per subject), and one JSON result per subject
 * and size with zero's own fields (zero_dd.c writes the dd experiments').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../questions.h"
#include "zero.h"

const char *zt_size_text(size_t n, char *buf, size_t len)
{
	if (n >= (1u << 30) && n % (1u << 30) == 0)
		snprintf(buf, len, "%zuG", n >> 30);
	else if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, len, "%zuM", n >> 20);
	else if (n >= (1u << 10) && n % (1u << 10) == 0)
		snprintf(buf, len, "%zuK", n >> 10);
	else
		snprintf(buf, len, "%zu", n);
	return buf;
}

void zt_print_intro(const struct zt_run *run, const char *unsupported)
{
	char llc[32], arena[32];

	printf("%s: clearing one buffer per call, one thread; %.3f s per sample, %u repetition%s "
	       "interleaved; placement %s\n"
	       "hl_zero's automatic plan: %s\n"
	       "cold: each call clears another %d-byte-aligned place of a %s arena (%d x the %s "
	       "last-level cache%s), in scattered order; every page faulted in first\n",
	       ZT_NAME, run->duration, run->reps, run->reps == 1 ? "" : "s", run->cfg->pin.text,
	       run->plan, ZT_ALIGN, zt_size_text(run->arena, arena, sizeof(arena)), ZT_ARENA_LLCS,
	       zt_size_text(run->llc, llc, sizeof(llc)), run->llc_guessed ? ", guessed" : "");
	if (run->cfg->modes & BENCH_MODE_USED)
		printf("used: as cold, then one byte of each 64-byte line read back after the "
		       "clear, timed with it (what a caller of a fresh buffer does next)\n");
	if (bench_until_decided_on())
		printf("(--until-decided: more repetitions where a question cannot tell; "
		       "config.until_decided in the JSON says which)\n");
	if (unsupported[0])
		printf("variants this CPU cannot run (not measured): %s\n", unsupported);
	fflush(stdout);
}

/* Column width of a subject in the tables: its name, at least 7 characters. */
static int zt_width(const struct bench_subject *s)
{
	int len = (int)strlen(s->name);

	return len < 7 ? 7 : len;
}

void zt_print_header(const struct bench_subject *const *subjects, size_t n, const char *mode)
{
	printf("\n%s, GB/s (median):\n%-9s", mode, "size");
	for (size_t i = 0; i < n; i++)
		printf(" %*s", zt_width(subjects[i]), subjects[i]->name);
	putchar('\n');
}

void zt_print_row(const struct zt_ctx *ctx)
{
	char size[32];

	printf("%-9s", zt_size_text(ctx->sample.size, size, sizeof(size)));
	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_series *s = &ctx->series[i];

		printf(" %*.3g", zt_width(ctx->subjects[i]), bench_median(s->gb_per_sec, s->n));
	}
	putchar('\n');
	fflush(stdout);
}

void zt_print_skipped(const struct zt_run *run)
{
	char text[32];

	printf("(cold skips the sizes over %s: such a buffer is itself at least twice the "
	       "last-level cache, so hot already finds it evicted)\n",
	       zt_size_text(run->arena / 2, text, sizeof(text)));
}

/*
 * Subject i's gb_per_sec / the baseline's in each repetition both ran, into
 * ratio[] (--until-decided may give one more than the other); their number.
 */
static unsigned int zt_ratio(const struct zt_ctx *ctx, size_t i, double *ratio)
{
	const struct bench_series *s = &ctx->series[i], *b = &ctx->series[ctx->baseline];
	unsigned int n = s->n < b->n ? s->n : b->n;

	for (unsigned int rep = 0; rep < n; rep++)
		ratio[rep] = s->gb_per_sec[rep] / b->gb_per_sec[rep];
	return n;
}

static json_t *zt_string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void zt_results(const struct zt_ctx *ctx, json_t *results)
{
	const struct zt_run *run = ctx->run;
	double *ratio = calloc(bench_reps_cap(run->reps), sizeof(*ratio));

	for (size_t i = 0; i < ctx->n; i++) {
		const struct bench_subject *s = ctx->subjects[i];
		json_t *arena =
			ctx->sample.cold ? json_integer((json_int_t)run->arena) : json_null();
		json_t *r = bench_result_json(ZT_NAME, s->name, &ctx->series[i],
					      BENCH_HEADLINE_GB_PER_SEC, ctx->sample.size, 0);

		json_object_set_new(r, "mode", json_string(zt_mode(&ctx->sample)));
		json_object_set_new(r, "duration", json_real(run->duration));
		json_object_set_new(r, "llc_bytes", json_integer((json_int_t)run->llc));
		json_object_set_new(r, "arena_bytes", arena);
		json_object_set_new(r, "variant", zt_string_or_null(zt_variant(s)));
		json_object_set_new(r, "plan", zt_string_or_null(zt_is_auto(s) ? run->plan : NULL));
		json_object_set_new(r, "measures", zt_string_or_null(zt_measures(s)));
		json_object_set_new(r, "ratio_to", json_string(ZT_BASELINE));
		if (ctx->baseline >= 0 && ratio) {
			unsigned int nr = zt_ratio(ctx, i, ratio);

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
