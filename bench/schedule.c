// SPDX-License-Identifier: MIT
/*
 * schedule.c - which subjects a scenario runs (--subjects) and in what
 * order: repetitions interleaved across them. See harness.h.
 */
#include <string.h>

#include "harness.h"

size_t bench_select_subjects(const struct bench_scenario *sc, const struct bench_config *cfg,
			     const struct bench_subject **out)
{
	size_t n = 0;

	for (size_t i = 0; i < sc->nr_subjects + sc->nr_selftests; i++) {
		const struct bench_subject *s = i < sc->nr_subjects
							? &sc->subjects[i]
							: &sc->selftests[i - sc->nr_subjects];
		bool want = !cfg->subjects && i < sc->nr_subjects;

		for (size_t j = 0; cfg->subjects && j < cfg->nr_subjects; j++)
			want |= strcmp(cfg->subjects[j], s->name) == 0;
		if (want)
			out[n++] = s;
	}
	return n;
}

int bench_interleave(const char *scenario, const struct bench_subject *const *subjects,
		     size_t nr_subjects, unsigned int reps,
		     int (*measure)(void *ctx, size_t subject, unsigned int rep), void *ctx)
{
	for (unsigned int rep = 0; rep < reps; rep++) {
		for (size_t i = 0; i < nr_subjects; i++) {
			int ret;

			bench_progress(scenario, subjects[i]->name, rep + 1, reps);
			ret = measure(ctx, i, rep);
			if (ret)
				return ret;
		}
	}
	bench_progress_done();
	return 0;
}
