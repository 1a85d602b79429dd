"""The ratio plots' data: paired per-repetition ratios per point, with stats.py's interval.

report.md's one plot per scenario (each scenario module's brief, scenario.py) is a ratio to
a baseline: each point is the median of the per-repetition ratios run[k] / base_run[k] of
two results run side by side (criteria.side_by_side, as the criteria and the summary pair
them), with the order-statistic interval of that median (stats.median_interval).  The
interval is drawn only where it reaches stats.MIN_LEVEL (5 repetitions and more): below
that the summary cannot tell either, and a band from 2 or 3 repetitions would look like a
measurement of the noise it is not.  Where the runs do not pair, the point is left out.

  Point(x, values)             .median, .lo, .hi (None: no interval), .n
  Series(label, key, points, threshold)
                               .plot(): the dict plots.ratio_plot takes
  point(x, a, b, metric)       the Point of results a over b, or None when they do not pair
  find(results, subject, threads), int_threads(results)   look-ups the series are made with
  repetitions(series)          the repetitions behind the points

Each scenario makes its own series (contend.ratio_series, zeroing.ratio_series, ...); names
of subjects come from data/questions.json (criteria.py) and the file's facts, none is
written here.
"""

from . import criteria, stats


class Point:
    """One x of a series: the median of the paired ratios and its interval (None below
    stats.MIN_LEVEL)."""

    def __init__(self, x, values):
        self.x = x
        self.comparison = c = stats.Comparison(values)
        self.n = c.n
        self.median = c.median
        shown = c.lo is not None and c.level >= stats.MIN_LEVEL
        self.lo, self.hi = (c.lo, c.hi) if shown else (None, None)
        self.level = c.level if shown else None


class Series:
    def __init__(self, label, key, points, threshold=None, subject=None, base=None):
        self.label, self.key, self.points = label, key, points
        self.threshold, self.subject, self.base = threshold, subject, base

    def plot(self):
        return {"label": self.label, "key": self.key,
                "points": [(p.x, p.median, p.lo, p.hi) for p in self.points]}

    def at(self, x):
        return next((p for p in self.points if p.x == x), None)


def point(x, a, b, metric):
    if a is None or b is None:
        return None
    values = criteria.side_by_side(a, b, metric)
    return Point(x, values) if values else None


def find(results, subject, threads):
    return next((r for r in results if r["subject"] == subject and r.get("threads") == threads),
                None)


def int_threads(results):
    return sorted({r["threads"] for r in results
                   if isinstance(r.get("threads"), int) and not isinstance(r["threads"], bool)})


def repetitions(series):
    """The repetitions behind SERIES' points: a sorted list of the distinct counts."""
    return sorted({p.n for s in series for p in s.points})
