// SPDX-License-Identifier: MIT
/*
 * questions.c - the questions hotline-bench can decide as it runs, as
 * data: the paired comparisons of hotline-report's criteria.py (CRITERIA,
 * ZERO_CRITERIA, COPY_CRITERIA) and of its summary's QUESTIONS, with the same subjects,
 * points and thresholds. See questions.h; until_decided.c decides them.
 *
 * Only the paired ones: both figures from the same point (thread count;
 * size and mode; refcount-timing's one point), whose repetitions the bench
 * runs side by side, so that the report judges the median of the
 * per-repetition ratios (or differences) with its interval (stats.py).
 * Left out:
 *  - CRITERIA's "qspinlock at 8 threads >= 0.5x its own 2-thread figure":
 *    two points, never run side by side, so not paired (the report takes
 *    the ratio of the two medians and gives it no interval);
 *  - INLINE_LOOP (refcount_full_inline against refcount_full): the report
 *    sets the two ratios to atomic beside each other, each one paired with
 *    atomic's own repetitions, not with each other;
 *  - ZERO_CRITERIA[2], the geometric mean over sizes of hl_zero / glibc_memset
 *    (summary QUESTIONS[5].measures[2]): one figure over every size, not a
 *    question at a point, so nothing here can run it further; its sizes' own
 *    ratios are ZERO_CRITERIA[0]'s question, which does.
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
 * config.until_decided.questions shows it, with criteria.py and summary.py:
 * change one, change the other.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "questions.h"

#define Q_KIB (1ul << 10)
#define Q_MIB (1ul << 20)
#define Q_GIB (1ul << 30)

/* clang-format off */
const struct bench_question bench_questions[] = {
	/* contend at 2 threads: criteria.CRITERIA[0], [1]; summary QUESTIONS[0], [1], [2]. */
	{.scenario = "contend", .subject = "refcount", .base = "atomic_faa", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 0.95,
	 .text = "refcount >= 0.95x atomic_faa at 2 threads",
	 .from = {"CRITERIA[0]", "QUESTIONS[0].measures[1]"}},
	{.scenario = "contend", .subject = "refcount_full", .base = "atomic_faa", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_FIGURE, .threshold = NAN,
	 .text = "refcount_full / atomic_faa ops/s at 2 threads (a figure, no claim)",
	 .from = {"QUESTIONS[1].measures[1]"}},
	{.scenario = "contend", .subject = "lockref", .base = "cas_loop", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 0.85,
	 .text = "lockref >= 0.85x cas_loop at 2 threads",
	 .from = {"CRITERIA[1]", "QUESTIONS[2].measures[0]"}},
	/*
	 * The lookups at 2 threads: rcuref against the floor and against the
	 * cmpxchg lookup (CRITERIA[4], [5]; summary QUESTIONS[9]), and the lockref's
	 * lookup against rcuref, a figure.
	 */
	{.scenario = "contend", .subject = "rcuref", .base = "atomic_faa", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 0.95,
	 .text = "rcuref >= 0.95x atomic_faa at 2 threads",
	 .from = {"CRITERIA[4]", "QUESTIONS[9].measures[0]"}},
	{.scenario = "contend", .subject = "rcuref", .base = "refcount_inc_not_zero", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 1.3,
	 .text = "rcuref >= 1.3x refcount_inc_not_zero at 2 threads",
	 .from = {"CRITERIA[5]", "QUESTIONS[9].measures[1]"}},
	{.scenario = "contend", .subject = "lockref_get_not_dead", .base = "rcuref", .threads = 2,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_FIGURE, .threshold = NAN,
	 .text = "lockref_get_not_dead / rcuref ops/s at 2 threads (a figure, no claim)",
	 .from = {"QUESTIONS[9].measures[2]"}},
	/* The queued lock against the mutex: CRITERIA[3] at 8, summary QUESTIONS[4] at the most. */
	{.scenario = "contend", .subject = "qspinlock", .base = "pthread_mutex", .threads = 8,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 0.5,
	 .text = "qspinlock >= 0.5x pthread_mutex at 8 threads", .from = {"CRITERIA[3]"}},
	{.scenario = "contend", .subject = "qspinlock", .base = "pthread_mutex",
	 .threads = BENCH_Q_MOST_THREADS, .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST,
	 .threshold = 0.5, .text = "qspinlock >= 0.5x pthread_mutex at the most threads",
	 .from = {"QUESTIONS[4].measures[0]"}},
	/*
	 * The retry limit (summary QUESTIONS[3], "sweep"): lockref-sweep's lockref at
	 * limit 100 against lockref_unbounded at the most threads; the report asks
	 * contend's (whose lockref has limit 100) only when lockref-sweep has no answer.
	 */
	{.scenario = "lockref-sweep", .subject = "lockref", .subject_limit = 100,
	 .base = "lockref_unbounded", .threads = BENCH_Q_MOST_THREADS,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 1.1,
	 .text = "lockref (retry limit 100) >= 1.1x lockref_unbounded at the most threads",
	 .from = {"QUESTIONS[3].measures[0]"}},
	{.scenario = "contend", .subject = "lockref", .subject_limit = 100,
	 .base = "lockref_unbounded", .threads = BENCH_Q_MOST_THREADS,
	 .value = BENCH_Q_OPS_RATIO, .claim = BENCH_Q_AT_LEAST, .threshold = 1.1,
	 .unless_run = "lockref-sweep",
	 .text = "lockref (retry limit 100) >= 1.1x lockref_unbounded at the most threads "
		 "(contend's, when lockref-sweep does not run)",
	 .from = {"QUESTIONS[3].measures[0]"}},
	/* refcount-timing, its one point: summary QUESTIONS[0], [1] ("timing": ratio_runs). */
	{.scenario = "refcount-timing", .subject = "refcount", .base = "atomic",
	 .value = BENCH_Q_TIME_RATIO, .claim = BENCH_Q_AT_MOST, .threshold = 1.05,
	 .text = "refcount's time <= 1.05x atomic's, one thread",
	 .from = {"QUESTIONS[0].measures[0]"}},
	{.scenario = "refcount-timing", .subject = "refcount_full", .base = "atomic",
	 .value = BENCH_Q_TIME_RATIO, .claim = BENCH_Q_FIGURE, .threshold = NAN,
	 .text = "refcount_full's time / atomic's, one thread (a figure, no claim)",
	 .from = {"QUESTIONS[1].measures[0]"}},
	/*
	 * zero, at each size of a range: criteria.ZERO_CRITERIA; summary
	 * QUESTIONS[5..8]. hl_zero against glibc_memset at every size, hot and cold.
	 */
	{.scenario = "zero", .subject = "hl_zero", .base = "glibc_memset", .mode = "hot",
	 .size_from = 1, .size_to = Q_GIB, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 0.95,
	 .text = "hl_zero >= 0.95x glibc_memset at every size from 1 B to 1 GiB (hot)",
	 .from = {"ZERO_CRITERIA[0]", "QUESTIONS[5].measures[0]"}},
	{.scenario = "zero", .subject = "hl_zero", .base = "glibc_memset", .mode = "cold",
	 .size_from = 1, .size_to = Q_GIB, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 0.95,
	 .text = "hl_zero >= 0.95x glibc_memset at every size from 1 B to 1 GiB (cold)",
	 .from = {"ZERO_CRITERIA[1]", "QUESTIONS[5].measures[1]"}},
	/*
	 * Beyond the last-level cache, against the store bandwidth limit: the larger of
	 * nontemporal's and rep_stosb's GB/s in each repetition (base2), hot and cold;
	 * glibc_memset against the same limit is a figure (and runs along).
	 */
	{.scenario = "zero", .subject = "hl_zero", .base = "nontemporal", .base2 = "rep_stosb",
	 .mode = "hot", .beyond_cache = true, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 0.90,
	 .text = "hl_zero >= 0.90x max(nontemporal, rep_stosb) per repetition above the "
		 "last-level cache (hot)",
	 .from = {"ZERO_CRITERIA[3]", "QUESTIONS[6].measures[0]"}},
	{.scenario = "zero", .subject = "hl_zero", .base = "nontemporal", .base2 = "rep_stosb",
	 .mode = "cold", .beyond_cache = true, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 0.90,
	 .text = "hl_zero >= 0.90x max(nontemporal, rep_stosb) per repetition above the "
		 "last-level cache (cold)",
	 .from = {"ZERO_CRITERIA[3]", "QUESTIONS[6].measures[0]"}},
	{.scenario = "zero", .subject = "glibc_memset", .base = "nontemporal",
	 .base2 = "rep_stosb", .mode = "hot", .beyond_cache = true, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_FIGURE, .threshold = NAN,
	 .text = "glibc_memset / max(nontemporal, rep_stosb) above the last-level cache (hot; "
		 "a figure, no claim)",
	 .from = {"QUESTIONS[6].measures[1]"}},
	{.scenario = "zero", .subject = "glibc_memset", .base = "nontemporal",
	 .base2 = "rep_stosb", .mode = "cold", .beyond_cache = true, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_FIGURE, .threshold = NAN,
	 .text = "glibc_memset / max(nontemporal, rep_stosb) above the last-level cache (cold; "
		 "a figure, no claim)",
	 .from = {"QUESTIONS[6].measures[1]"}},
	{.scenario = "zero", .subject = "hl_zero", .base = "memcpy_zero_page", .mode = "hot",
	 .size_each = {4 * Q_KIB, Q_MIB}, .value = BENCH_Q_GB_RATIO, .claim = BENCH_Q_AT_LEAST,
	 .threshold = 1.2, .text = "hl_zero >= 1.2x memcpy_zero_page at 4 KiB and 1 MiB (hot)",
	 .from = {"ZERO_CRITERIA[4]", "QUESTIONS[7].measures[0]"}},
	{.scenario = "zero", .subject = "hl_try_zero", .base = "hl_zero", .mode = "hot",
	 .size_from = 256, .value = BENCH_Q_GB_RATIO, .claim = BENCH_Q_AT_LEAST,
	 .threshold = 0.95,
	 .text = "hl_try_zero >= 0.95x hl_zero at every size from 256 B up (hot)",
	 .from = {"ZERO_CRITERIA[5]", "QUESTIONS[8].measures[0]"}},
	{.scenario = "zero", .subject = "hl_try_zero", .base = "hl_zero", .mode = "hot",
	 .size_from = 1, .size_to = 255, .value = BENCH_Q_NS_DIFF, .claim = BENCH_Q_AT_MOST,
	 .threshold = 2.0,
	 .text = "hl_try_zero within 2 ns per call of hl_zero at every size below 256 B (hot)",
	 .from = {"ZERO_CRITERIA[6]", "QUESTIONS[8].measures[1]"}},
	/*
	 * copy: criteria.COPY_CRITERIA; summary QUESTIONS[10]. hl_try_copy against
	 * glibc_memcpy hot, from 64 B in GB/s and below it in ns per call; against one
	 * process_vm_readv per copy at 4 KiB (the probe sweep, hot buffers).
	 */
	{.scenario = "copy", .subject = "hl_try_copy", .base = "glibc_memcpy", .mode = "hot",
	 .size_from = 64, .size_to = Q_GIB, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 0.95,
	 .text = "hl_try_copy >= 0.95x glibc_memcpy at every size from 64 B to 1 GiB (hot)",
	 .from = {"COPY_CRITERIA[0]", "QUESTIONS[10].measures[0]"}},
	{.scenario = "copy", .subject = "hl_try_copy", .base = "glibc_memcpy", .mode = "hot",
	 .size_from = 1, .size_to = 63, .value = BENCH_Q_NS_DIFF, .claim = BENCH_Q_AT_MOST,
	 .threshold = 2.0,
	 .text = "hl_try_copy within 2 ns per call of glibc_memcpy at every size below 64 B (hot)",
	 .from = {"COPY_CRITERIA[1]", "QUESTIONS[10].measures[1]"}},
	{.scenario = "copy", .subject = "hl_try_copy", .base = "process_vm_readv",
	 .mode = "probe", .size_each = {4 * Q_KIB}, .value = BENCH_Q_GB_RATIO,
	 .claim = BENCH_Q_AT_LEAST, .threshold = 20.0,
	 .text = "hl_try_copy >= 20x process_vm_readv at 4 KiB (hot)",
	 .from = {"COPY_CRITERIA[2]", "QUESTIONS[10].measures[2]"}},
};
/* clang-format on */

const size_t bench_nr_questions = sizeof(bench_questions) / sizeof(bench_questions[0]);

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
		json_t *from = json_array(), *threads, *bases, *e;
		char base[96];

		for (size_t k = 0; k < 3 && q->from[k]; k++)
			json_array_append_new(from, json_string(q->from[k]));
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
		json_array_append_new(a, e);
	}
	return a;
}
