// SPDX-License-Identifier: MIT
/*
 * test_decide.c - bench/decide.c's verdict rule on values from stdin, for
 * decide_agrees.py to compare with tools/hotline_report/stats.py.
 *
 * Each input line: THRESHOLD HIGHER V1 V2 ... (THRESHOLD "nan" for a
 * figure with no claim; HIGHER 1 for a claim of value >= threshold, 0 for
 * value <= threshold). Each output line: the rank k of the interval, its
 * ends and level, whether the values are bimodal, the verdict and why,
 * separated by tabs, the numbers with 17 significant digits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"

#define MAX_VALUES 4096

int main(void)
{
	static char line[1 << 17];
	static double v[MAX_VALUES];

	while (fgets(line, sizeof(line), stdin)) {
		struct bench_judgement j;
		char *p = line, *end;
		double threshold, lo, hi, level;
		int higher;
		size_t n = 0, k;

		threshold = strtod(p, &end);
		if (end == p)
			return 2;
		p = end;
		higher = (int)strtol(p, &end, 10);
		if (end == p)
			return 2;
		for (p = end; n < MAX_VALUES; p = end) {
			double x = strtod(p, &end);

			if (end == p)
				break;
			v[n++] = x;
		}
		k = bench_median_interval(v, n, BENCH_LEVEL, &lo, &hi, &level);
		bench_judge(v, n, threshold, higher != 0, &j);
		printf("%zu\t%.17g\t%.17g\t%.17g\t%d\t%s\t%s\n", k, lo, hi, level, j.bimodal,
		       j.verdict == BENCH_NO_VERDICT ? "none" : bench_verdict_text(j.verdict),
		       j.why);
	}
	return 0;
}
