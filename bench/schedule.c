// SPDX-License-Identifier: MIT
/*
 * schedule.c - which subjects a scenario runs (--subjects) and in what
 * order: repetitions interleaved across them, and across several points
 * (a sweep's sizes) in rounds, each repetition cut into slices where the
 * scenario asks. See harness.h.
 */
#include <stdlib.h>
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

int bench_interleave_rounds(const struct bench_round_point *points, size_t nr_points,
			    const struct bench_subject *const *subjects, const char *const *names,
			    size_t nr_subjects, unsigned int reps, bench_measure_fn measure)
{
	size_t nr = nr_points * nr_subjects;
	double *seconds = calloc(nr ? nr : 1, sizeof(*seconds));

	if (!seconds) {
		bench_error("out of memory");
		return 1;
	}
	for (unsigned int rep = 0; rep < reps; rep++) {
		for (size_t p = 0; p < nr_points; p++) {
			const unsigned int slices = points[p].slices ? points[p].slices : 1;

			for (unsigned int slice = 0; slice < slices; slice++) {
				const bool whole = slice + 1 == slices;

				for (size_t k = 0; k < nr_subjects; k++) {
					size_t i = bench_slice_turn(k, nr_subjects, rep, slice,
								    slices);
					const char *name = names ? names[i] : subjects[i]->name;
					double *took = &seconds[p * nr_subjects + i];
					int ret;

					bench_progress(points[p].label, name, rep + 1, reps);
					ret = measure(points[p].ctx, i, rep, slice);
					if (ret) {
						free(seconds);
						return ret;
					}
					*took += bench_progress_item_done(whole);
					if (whole && rep + 1 == reps)
						bench_progress_subject_done(points[p].label, name,
									    reps, *took);
				}
			}
		}
	}
	bench_progress_done();
	free(seconds);
	return 0;
}

int bench_interleave(const char *label, const struct bench_subject *const *subjects,
		     const char *const *names, size_t nr_subjects, unsigned int reps,
		     bench_measure_fn measure, void *ctx)
{
	const struct bench_round_point one = {.label = label, .ctx = ctx};

	return bench_interleave_rounds(&one, 1, subjects, names, nr_subjects, reps, measure);
}
