// SPDX-License-Identifier: MIT
/*
 * questions.c - the questions hotline-bench can decide as it runs: the
 * table's JSON (config.until_decided.questions) and its look-ups. The table,
 * bench_questions[], is data/questions.json's "bench" list, turned into C at
 * build time by bench/gen_questions.py (questions_table.c in the build tree):
 * the paired comparisons among the report's criteria and its summary's
 * measures, each naming what it asks by id ("asks") and, as before, by the
 * report's positions ("from"). See questions.h; until_decided.c decides them.
 *
 * Only the paired ones: both figures from the same point (thread count;
 * size and mode; refcount-timing's one point), whose repetitions the bench
 * runs side by side, so that the report judges the median of the
 * per-repetition ratios (or differences) with its interval (stats.py).
 * Left out:
 *  - the criterion "qspinlock at 8 threads >= 0.5x its own 2-thread figure"
 *    (qspinlock_scaling): two points, never run side by side, so not paired
 *    (the report takes the ratio of the two medians and gives it no interval);
 *  - inline_loop (refcount_full_inline against refcount_full): the report
 *    sets the two ratios to atomic beside each other, each one paired with
 *    atomic's own repetitions, not with each other;
 *  - zero_geomean, the geometric mean over sizes of hl_zero / glibc_memset:
 *    one figure over every size, not a question at a point, so nothing here
 *    can run it further; its sizes' own ratios are zero_vs_glibc's question,
 *    which does.
 * A question may have two bases (base2): its value is then the subject's
 * figure over the larger of the two bases' in each repetition (the store
 * bandwidth limit beyond the cache: nontemporal or rep_stosb, whichever is
 * faster in that round); the JSON names it "max(base, base2)", as criteria.py
 * does, with both in "bases".
 * The figures with no claim (summary's refcount_full rows) are here too:
 * nothing is decided about them, but their subject shares a base with a
 * question, and its runs must stay paired with that base's when the base
 * gets more (until_decided.c runs them along).
 *
 * tests/bench/questions_match.py compares this table, as the JSON's
 * config.until_decided.questions shows it, with what the report derives
 * from the same file.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "questions.h"

bool bench_questions_asked(const char *scenario)
{
	for (size_t i = 0; i < bench_nr_questions; i++) {
		if (strcmp(bench_questions[i].scenario, scenario) == 0)
			return true;
	}
	return false;
}

static json_t *q_sizes_json(const struct bench_question *q)
{
	json_t *each;

	if (q->beyond_cache)
		return json_string("beyond_cache");
	if (q->size_each[0]) {
		each = json_array();
		for (size_t i = 0; i < 4 && q->size_each[i]; i++)
			json_array_append_new(each, json_integer((json_int_t)q->size_each[i]));
		return json_pack("{s:o}", "each", each);
	}
	if (!q->size_from && !q->size_to)
		return json_null();
	/* size_from 1: the range open below (every size is at least 1 byte). */
	return json_pack("{s:o, s:o}", "from",
			 q->size_from > 1 ? json_integer((json_int_t)q->size_from) : json_null(),
			 "to", q->size_to ? json_integer((json_int_t)q->size_to) : json_null());
}

void bench_question_base(const struct bench_question *q, char *buf, size_t len)
{
	if (q->base2)
		snprintf(buf, len, "max(%s, %s)", q->base, q->base2);
	else
		snprintf(buf, len, "%s", q->base);
}

json_t *bench_questions_json(void)
{
	static const char *const value_name[] = {
		[BENCH_Q_OPS_RATIO] = "ops_per_sec ratio",
		[BENCH_Q_GB_RATIO] = "gb_per_sec ratio",
		[BENCH_Q_TIME_RATIO] = "ns_per_op ratio",
		[BENCH_Q_NS_DIFF] = "ns per call difference",
	};
	static const char *const claim_name[] = {
		[BENCH_Q_FIGURE] = "figure",
		[BENCH_Q_AT_LEAST] = "at_least",
		[BENCH_Q_AT_MOST] = "at_most",
	};
	json_t *a = json_array();

	for (size_t i = 0; i < bench_nr_questions; i++) {
		const struct bench_question *q = &bench_questions[i];
		json_t *from = json_array(), *asks = json_array(), *threads, *bases, *e;
		char base[96];

		for (size_t k = 0; k < 3 && q->from[k]; k++)
			json_array_append_new(from, json_string(q->from[k]));
		for (size_t k = 0; k < 3 && q->asks[k]; k++)
			json_array_append_new(asks, json_string(q->asks[k]));
		bases = json_array();
		json_array_append_new(bases, json_string(q->base));
		if (q->base2)
			json_array_append_new(bases, json_string(q->base2));
		threads = q->threads == BENCH_Q_MOST_THREADS ? json_string("most")
			  : q->threads			     ? json_integer(q->threads)
							     : json_null();
		bench_question_base(q, base, sizeof(base));
		e = json_pack(
			"{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:s, s:o, s:o, s:s, s:o}",
			"scenario", q->scenario, "subject", q->subject, "subject_retry_limit",
			q->subject_limit ? json_integer(q->subject_limit) : json_null(), "base",
			base, "threads", threads, "mode",
			q->mode ? json_string(q->mode) : json_null(), "sizes", q_sizes_json(q),
			"value", value_name[q->value], "claim", claim_name[q->claim], "threshold",
			isnan(q->threshold) ? json_null() : json_real(q->threshold), "unless_run",
			q->unless_run ? json_string(q->unless_run) : json_null(), "text", q->text,
			"from", from);
		json_object_set_new(e, "bases", bases);
		json_object_set_new(e, "asks", asks);
		json_array_append_new(a, e);
	}
	return a;
}
