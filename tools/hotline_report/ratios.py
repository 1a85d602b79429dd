"""The ratio plots' data: paired per-repetition ratios per point, with stats.py's interval.

report.md's one plot per scenario (brief.py) is a ratio to a baseline: each
point is the median of the per-repetition ratios run[k] / base_run[k] of two
results run side by side (criteria.side_by_side, as the criteria and the
summary pair them), with the order-statistic interval of that median
(stats.median_interval).  The interval is drawn only where it reaches
stats.MIN_LEVEL (5 repetitions and more): below that the summary cannot tell
either, and a band from 2 or 3 repetitions would look like a measurement of
the noise it is not.  Where the runs do not pair, the point is left out.

  Point(x, comparison)         .median, .lo, .hi (None: no interval), .n
  Series(label, key, points, threshold)
                               .plot(): the dict plots.ratio_plot takes
  contend(doc)                 each contend question's subject / base (criteria.QUESTIONS)
                               against threads, with its threshold
  sweep(doc, facts)            the swept lockref at each retry limit / the unbounded loop at
                               the most threads (lockref_sweep.points), the summary's threshold
  zero(doc)                    hl_zero / glibc_memset against size (criteria.ZERO_VS_GLIBC),
                               one series per mode (hot, cold), each with its mode's
                               threshold (criteria.ZERO_VS_GLIBC_BY_MODE)
  copy(doc)                    hl_try_copy / glibc_memcpy against size (criteria.COPY_VS_GLIBC),
                               one series per mode (hot, cold), the threshold on hot's
  openclose(doc, facts)        each subject / its baseline (a fact) against N; without
                               one, criteria.OPENCLOSE_RATIO
  timing(doc)                  refcount-timing: [(subject, ratio_to, Comparison)] of its
                               ratio_runs, one thread

Names of subjects come from criteria.py (the questions) and the file's facts;
none is written here.
"""

from . import criteria, lockref_sweep, stats
from .load import is_number

SWEEP = next(m for q in criteria.QUESTIONS for m in q["measures"] if m["kind"] == "sweep")


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


def _point(x, a, b, metric):
    if a is None or b is None:
        return None
    values = criteria.side_by_side(a, b, metric)
    return Point(x, values) if values else None


def _find(results, subject, threads):
    return next((r for r in results if r["subject"] == subject and r.get("threads") == threads),
                None)


def _int_threads(results):
    return sorted({r["threads"] for r in results
                   if isinstance(r.get("threads"), int) and not isinstance(r["threads"], bool)})


def contend_pairs():
    """[(subject, base, threshold, question)]: the contend measures of criteria.QUESTIONS, each
    pair once, in the summary's order."""
    out, seen = [], set()
    for q in criteria.QUESTIONS:
        for m in q["measures"]:
            if m["kind"] == "contend" and (m["subject"], m["base"]) not in seen:
                seen.add((m["subject"], m["base"]))
                out.append((m["subject"], m["base"], m["factor"], q["question"]))
    return out


def contend(doc):
    """[Series]: each contend question's subject / base against threads, where they pair."""
    rs = [r for r in doc.results if r["scenario"] == criteria.SCENARIO]
    pairs = contend_pairs()
    out = []
    for subject, base, factor, _ in pairs:
        pts = [_point(t, _find(rs, subject, t), _find(rs, base, t), "ops_per_sec")
               for t in _int_threads(rs)]
        pts = [p for p in pts if p]
        # the subject's colour; a subject set against two bases (rcuref) a colour per pair
        twice = sum(1 for p in pairs if p[0] == subject) > 1
        if pts:
            out.append(Series(f"{subject} / {base}", f"{subject} / {base}" if twice else subject,
                              pts, factor, subject, base))
    return out


def sweep(doc, facts, scenario="lockref-sweep"):
    """(Series or None, threads): the swept lockref at each retry limit over the unbounded loop,
    at the most threads where both ran; SWEEP's threshold."""
    rs = [r for r in doc.results if r["scenario"] == scenario]
    pts, _ = lockref_sweep.points(facts, rs)
    for t in sorted(pts, reverse=True):
        unb = pts[t].get(None)
        if unb is None:
            continue
        got = [_point(k, r, unb, "ops_per_sec") for k, r in sorted(
            ((k, r) for k, r in pts[t].items() if k is not None), key=lambda p: p[0])]
        got = [p for p in got if p]
        if got:
            swept = next(r["subject"] for k, r in pts[t].items() if k is not None)
            return Series(f"{swept} / {unb['subject']}, {t} threads",
                          "sweep", got, SWEEP["factor"], swept, unb["subject"]), t
    return None, None


def zero(doc, modes=("hot", "cold")):
    """[Series]: ZERO_VS_GLIBC's subject / base GB/s against size, one per mode with pairs."""
    c = criteria.ZERO_VS_GLIBC
    idx = criteria.zero_index(doc.results)
    out = []
    for mode in modes:
        sizes = sorted(s for (subj, m, s) in idx if subj == c["subject"] and m == mode
                       and (c["base"], m, s) in idx)
        pts = [_point(s, idx[(c["subject"], mode, s)], idx[(c["base"], mode, s)], "gb_per_sec")
               for s in sizes]
        pts = [p for p in pts if p]
        if pts:
            # each mode's own criterion (hot and cold), else the hot one's threshold
            crit = criteria.ZERO_VS_GLIBC_BY_MODE.get(mode, c)
            out.append(Series(f"{mode} buffers", mode, pts, crit["factor"], c["subject"],
                              c["base"]))
    return out


def copy(doc, modes=("hot", "cold")):
    """[Series]: COPY_VS_GLIBC's subject / base GB/s against size, one per mode with pairs;
    the criterion's threshold on its own mode (hot), none on the other."""
    c = criteria.COPY_VS_GLIBC
    idx = criteria.zero_index(doc.results, criteria.COPY)
    out = []
    for mode in modes:
        sizes = sorted(s for (subj, m, s) in idx if subj == c["subject"] and m == mode
                       and (c["base"], m, s) in idx)
        pts = [_point(s, idx[(c["subject"], mode, s)], idx[(c["base"], mode, s)], "gb_per_sec")
               for s in sizes]
        pts = [p for p in pts if p]
        if pts:
            out.append(Series(f"{mode} buffers", mode, pts,
                              c["factor"] if mode == c["mode"] else None, c["subject"],
                              c["base"]))
    return out


def openclose(doc, facts):
    """[Series]: each openclose subject over its baseline (a fact of the file) against N."""
    rs = [r for r in doc.results if r["scenario"] == "openclose"]
    order = facts.order(rs)
    pairs = [(s, facts.baseline(s)) for s in order
             if facts.baseline(s) in order and facts.baseline(s) != s]
    q = criteria.OPENCLOSE_RATIO
    if not pairs and q["subject"] in order and q["base"] in order:
        pairs = [(q["subject"], q["base"])]
    out = []
    for s, b in pairs:
        pts = [_point(t, _find(rs, s, t), _find(rs, b, t), "ops_per_sec")
               for t in _int_threads(rs)]
        pts = [p for p in pts if p]
        if pts:
            out.append(Series(f"{s} / {b}", s, pts, None, s, b))
    return out


def timing(doc):
    """[(subject, ratio_to, Point)]: refcount-timing's one-thread ratio_runs (the bench's
    per-repetition ratios to its baseline), each subject but the baseline."""
    out = []
    for r in doc.results:
        if r["scenario"] != "refcount-timing" or r.get("threads") != 1:
            continue
        runs, to = r.get("ratio_runs"), r.get("ratio_to")
        if not to or r["subject"] == to or not isinstance(runs, list) or not runs \
                or not all(is_number(x) for x in runs):
            continue
        out.append((r["subject"], to, Point(1, runs)))
    return out


def repetitions(series):
    """The repetitions behind SERIES' points: a sorted list of the distinct counts."""
    return sorted({p.n for s in series for p in s.points})
