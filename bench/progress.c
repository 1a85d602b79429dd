// SPDX-License-Identifier: MIT
/*
 * progress.c - hotline-bench's progress on stderr: the position in the
 * whole run and the time left: on a terminal one updating line, otherwise
 * one line per finished subject and scenario. See harness.h.
 *
 * The time left is the planned time of what remains (struct bench_plan,
 * from each scenario), the current scenario's part scaled by how long its
 * finished measurements took against their plan.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness.h"

#define MAX_PLANNED 32

static struct {
	bool tty, shown;
	size_t nr;		   /* scenarios planned */
	size_t cur;		   /* the one running: its index, or nr if none */
	unsigned long total, done; /* measurements planned (every scenario), done */
	uint64_t start_ns;	   /* the first measurement's start */
	uint64_t sc_start_ns;	   /* the current scenario's */
	uint64_t sc_first_ns;	   /* its first measurement's start, 0 = none yet */
	unsigned long sc_done;	   /* its measurements done */
	uint64_t item_start_ns;	   /* the measurement running */
	struct {
		const char *name;
		struct bench_plan plan;
	} sc[MAX_PLANNED];
} pg = {.cur = MAX_PLANNED};

void bench_progress_plan(const char *scenario, const struct bench_plan *plan)
{
	if (pg.nr >= MAX_PLANNED)
		return;
	pg.sc[pg.nr].name = scenario;
	pg.sc[pg.nr].plan = *plan;
	pg.total += plan->items;
	pg.nr++;
	pg.cur = pg.nr;
}

void bench_progress_scenario(const char *scenario)
{
	pg.tty = isatty(STDERR_FILENO);
	pg.cur = pg.nr;
	for (size_t i = 0; i < pg.nr; i++) {
		if (strcmp(pg.sc[i].name, scenario) == 0)
			pg.cur = i;
	}
	pg.sc_start_ns = bench_now_ns();
	if (!pg.start_ns)
		pg.start_ns = pg.sc_start_ns;
	pg.sc_done = 0;
	pg.sc_first_ns = 0;
}

/* Seconds left, or -1 when there is no plan to tell. */
static double time_left(uint64_t now)
{
	double left = 0, ratio = 1;

	if (pg.cur >= pg.nr)
		return -1;
	{
		const struct bench_plan *p = &pg.sc[pg.cur].plan;
		double per_item = p->items ? p->seconds / (double)p->items : 0;
		unsigned long remaining = p->items > pg.sc_done ? p->items - pg.sc_done : 0;

		/*
		 * Measured against planned since the scenario's first measurement
		 * (not its set-up), with a tenth of its plan as a prior: the first
		 * few measurements do not swing the estimate.
		 */
		if (pg.sc_done && per_item > 0) {
			double prior = p->seconds / 10;

			ratio = ((double)(now - pg.sc_first_ns) / 1e9 + prior) /
				(per_item * (double)pg.sc_done + prior);
		}
		left += per_item * (double)remaining * ratio;
	}
	for (size_t i = pg.cur + 1; i < pg.nr; i++)
		left += pg.sc[i].plan.seconds;
	return left;
}

/* m:ss */
static const char *clock_text(double s, char *buf, size_t len)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
	return buf;
}

/* "[37/120]", or "[37]" without a plan; the total never below the position. */
static const char *position_text(unsigned long pos, char *buf, size_t len)
{
	unsigned long total = pg.total > pos ? pg.total : pos;

	if (pg.total)
		snprintf(buf, len, "[%lu/%lu]", pos, total);
	else
		snprintf(buf, len, "[%lu]", pos);
	return buf;
}

/* "; 1:23 elapsed, about 4:10 left" */
static const char *times_text(uint64_t now, char *buf, size_t len)
{
	char a[32], b[32];
	double left = time_left(now);

	if (left < 0)
		snprintf(buf, len, "; %s elapsed",
			 clock_text((double)(now - pg.start_ns) / 1e9, a, sizeof(a)));
	else
		snprintf(buf, len, "; %s elapsed, about %s left",
			 clock_text((double)(now - pg.start_ns) / 1e9, a, sizeof(a)),
			 clock_text(left, b, sizeof(b)));
	return buf;
}

void bench_progress(const char *label, const char *item, unsigned int rep, unsigned int reps)
{
	char pos[64], times[32], line[400];
	struct winsize ws;
	double left;
	uint64_t now = bench_now_ns();

	if (!pg.start_ns) {
		pg.tty = isatty(STDERR_FILENO);
		pg.start_ns = pg.sc_start_ns = now;
	}
	pg.item_start_ns = now;
	if (!pg.sc_first_ns)
		pg.sc_first_ns = now;
	if (!pg.tty)
		return;
	left = time_left(now);
	position_text(pg.done + 1, pos, sizeof(pos));
	if (left >= 0)
		snprintf(pos + strlen(pos) - 1, sizeof(pos) - strlen(pos) + 1, ", %s left]",
			 clock_text(left, times, sizeof(times)));
	snprintf(line, sizeof(line), "%s %s: %s, rep %u/%u", pos, label, item, rep, reps);
	/* Within one row: a line that wraps cannot be cleared by \r. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 &&
	    strlen(line) >= ws.ws_col)
		line[ws.ws_col - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	pg.shown = true;
}

double bench_progress_item_done(void)
{
	uint64_t now = bench_now_ns();

	pg.done++;
	pg.sc_done++;
	return (double)(now - pg.item_start_ns) / 1e9;
}

void bench_progress_subject_done(const char *label, const char *item, unsigned int reps,
				 double seconds)
{
	char pos[48], times[96];

	if (pg.tty)
		return;
	fprintf(stderr, "%s: %s %s: %s done, %u repetition%s in %.2f s%s\n", BENCH_NAME,
		position_text(pg.done, pos, sizeof(pos)), label, item, reps, reps == 1 ? "" : "s",
		seconds, times_text(bench_now_ns(), times, sizeof(times)));
	fflush(stderr);
}

void bench_progress_scenario_done(const char *scenario)
{
	char pos[48], times[96], took[32];
	uint64_t now = bench_now_ns();

	bench_progress_done();
	if (!pg.tty && pg.sc_done) {
		/* Past this scenario: what is left is the ones after it. */
		pg.sc_done = pg.cur < pg.nr ? pg.sc[pg.cur].plan.items : pg.sc_done;
		fprintf(stderr, "%s: %s %s done in %s%s\n", BENCH_NAME,
			position_text(pg.done, pos, sizeof(pos)), scenario,
			clock_text((double)(now - pg.sc_start_ns) / 1e9, took, sizeof(took)),
			times_text(now, times, sizeof(times)));
		fflush(stderr);
	}
	pg.cur = pg.nr;
}

void bench_progress_done(void)
{
	if (!pg.shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg.shown = false;
}
