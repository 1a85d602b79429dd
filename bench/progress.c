// SPDX-License-Identifier: MIT
/*
 * progress.c - hotline-bench's progress on stderr: the position in the
 * whole run and the time left: on a terminal one updating line, otherwise
 * one line per finished subject and scenario. See harness.h.
 *
 * The time left is the planned time of what remains (struct bench_plan,
 * from each scenario), the current scenario's part scaled by how long its
 * finished measurements took against their plan.
 *
 * --until-decided's extra repetitions (questions.h) are unplanned: they do
 * not move the position ("[37/120 +4 unplanned]" counts them apart), their
 * time is left out of the measured-against-planned scaling, and what is
 * left of the budget is said beside the time left ("up to 1:40 more to
 * decide"), never folded into it; until_decided.c says what is left
 * (bench_progress_budget) whenever it changes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness.h"
#include "questions.h"

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
	unsigned long extra;	   /* --until-decided's measurements done (unplanned) */
	uint64_t sc_extra_ns;	   /* their time in the current scenario */
	bool all_done;		   /* the last scenario planned has ended */
	bool sc_ended;		   /* the current one has (its last line) */
	double budget_left;	   /* --until-decided's, as until_decided.c last said */
	struct {
		const char *name;
		struct bench_plan plan;
	} sc[MAX_PLANNED];
} pg = {.cur = MAX_PLANNED};

void bench_progress_budget(double left)
{
	pg.budget_left = left;
}

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
	pg.sc_extra_ns = 0;
	pg.sc_ended = false;
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
			double took =
				(double)(now - pg.sc_first_ns) / 1e9 - (double)pg.sc_extra_ns / 1e9;

			ratio = ((took > 0 ? took : 0) + prior) /
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

/* ", up to 1:40 more to decide": what is left of --until-decided's budget; "" without. */
static const char *budget_text(char *buf, size_t len)
{
	char t[32];
	double left = pg.budget_left;

	buf[0] = '\0';
	bool asked = false;

	/* Only while this scenario (unless it has ended) or one after it has questions. */
	for (size_t i = pg.cur < pg.nr ? pg.cur + pg.sc_ended : 0; i < pg.nr && !pg.all_done; i++)
		asked |= bench_questions_asked(pg.sc[i].name);
	if (left > 0 && asked)
		snprintf(buf, len, ", up to %s more to decide", clock_text(left, t, sizeof(t)));
	return buf;
}

/* "; 1:23 elapsed, about 4:10 left" */
static const char *times_text(uint64_t now, char *buf, size_t len)
{
	char a[32], b[32], c[64];
	double left = time_left(now);

	if (left < 0)
		snprintf(buf, len, "; %s elapsed%s",
			 clock_text((double)(now - pg.start_ns) / 1e9, a, sizeof(a)),
			 budget_text(c, sizeof(c)));
	else
		snprintf(buf, len, "; %s elapsed, about %s left%s",
			 clock_text((double)(now - pg.start_ns) / 1e9, a, sizeof(a)),
			 clock_text(left, b, sizeof(b)), budget_text(c, sizeof(c)));
	return buf;
}

/* The updating line, cut to the terminal's width. */
static void show(const char *line)
{
	char buf[512];
	struct winsize ws;

	snprintf(buf, sizeof(buf), "%s", line);
	/* Within one row: a line that wraps cannot be cleared by \r. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && strlen(buf) >= ws.ws_col)
		buf[ws.ws_col - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", buf);
	fflush(stderr);
	pg.shown = true;
}

/*
 * "[37/120, 3:10 left]" at position at; with --until-decided
 * "[37/120 +4 unplanned, 3:10 left, +1:40 to decide]".
 */
static const char *position_left(unsigned long at, uint64_t now, char *buf, size_t len)
{
	char pos[64], t[32], extra[48] = "", budget[48] = "";
	double left = time_left(now), more = pg.budget_left;

	position_text(at, pos, sizeof(pos));
	pos[strlen(pos) - 1] = '\0'; /* the closing bracket comes last */
	if (pg.extra)
		snprintf(extra, sizeof(extra), " +%lu unplanned", pg.extra);
	if (more > 0)
		snprintf(budget, sizeof(budget), ", +%s to decide", clock_text(more, t, sizeof(t)));
	if (left >= 0)
		snprintf(buf, len, "%s%s, %s left%s]", pos, extra, clock_text(left, t, sizeof(t)),
			 budget);
	else
		snprintf(buf, len, "%s%s%s]", pos, extra, budget);
	return buf;
}

void bench_progress(const char *label, const char *item, unsigned int rep, unsigned int reps)
{
	char pos[128], line[512];
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
	snprintf(line, sizeof(line), "%s %s: %s, rep %u/%u",
		 position_left(pg.done + 1, now, pos, sizeof(pos)), label, item, rep, reps);
	show(line);
}

void bench_progress_extra(const char *text)
{
	char pos[128], line[512];
	uint64_t now = bench_now_ns();

	pg.item_start_ns = now;
	if (!pg.tty)
		return;
	snprintf(line, sizeof(line), "%s %s", position_left(pg.done, now, pos, sizeof(pos)), text);
	show(line);
}

double bench_progress_extra_done(bool whole)
{
	uint64_t took = bench_now_ns() - pg.item_start_ns;

	pg.extra += whole;
	pg.sc_extra_ns += took;
	return (double)took / 1e9;
}

void bench_progress_extra_line(const char *text)
{
	char pos[48], times[128];

	if (pg.tty)
		return;
	fprintf(stderr, "%s: %s %s%s\n", BENCH_NAME, position_text(pg.done, pos, sizeof(pos)), text,
		times_text(bench_now_ns(), times, sizeof(times)));
	fflush(stderr);
}

double bench_progress_item_done(bool whole)
{
	uint64_t now = bench_now_ns();

	pg.done += whole;
	pg.sc_done += whole;
	return (double)(now - pg.item_start_ns) / 1e9;
}

void bench_progress_subject_done(const char *label, const char *item, unsigned int reps,
				 double seconds)
{
	char pos[48], times[128];

	if (pg.tty)
		return;
	fprintf(stderr, "%s: %s %s: %s done, %u repetition%s in %.2f s%s\n", BENCH_NAME,
		position_text(pg.done, pos, sizeof(pos)), label, item, reps, reps == 1 ? "" : "s",
		seconds, times_text(bench_now_ns(), times, sizeof(times)));
	fflush(stderr);
}

void bench_progress_scenario_done(const char *scenario)
{
	char pos[48], times[128], took[32];
	uint64_t now = bench_now_ns();

	bench_progress_done();
	if (!pg.tty && pg.sc_done) {
		/* Past this scenario: what is left is the ones after it. */
		pg.sc_done = pg.cur < pg.nr ? pg.sc[pg.cur].plan.items : pg.sc_done;
		pg.all_done = pg.cur + 1 >= pg.nr;
		pg.sc_ended = true;
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
