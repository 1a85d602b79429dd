"""The project's done criteria and their check: the questions about named subjects.

The questions themselves are data, once, by name, in data/questions.json (loaded by
questions.py, which the bench's table is generated from too); this module gives them their
old names (CRITERIA, ZERO_CRITERIA, COPY_CRITERIA, QUESTIONS, ZERO_VS_GLIBC ...) and checks
them against a file's results.

Contention (CRITERIA): each compares two throughputs from the contend scenario:

    SUBJECT's ops/s at THREADS  >=  FACTOR x  BASE's ops/s at BASE_THREADS

Clearing memory (ZERO_CRITERIA), and copying it (COPY_CRITERIA, of the copy
scenario, written the same way): each compares two subjects of the
zero scenario, in one mode (hot or cold), at every size of a range, and
holds only if it holds at each of them:

    SUBJECT's GB/s  >=  FACTOR x  BASE's GB/s             ("ratio")
    SUBJECT's ns per call  <=  BASE's + LIMIT_NS          ("ns")

Each is met, not met, or not checked (a figure is missing from the file).

When both figures come from the same thread count, the bench ran their
repetitions interleaved (repetition k of every subject close together in
time), so the ratio is taken side by side: the median over k of
runs[k] / base_runs[k], which the machine's drift affects least. Otherwise
(or when the runs do not pair up) it is the ratio of the two medians.  The
zero scenario interleaves its subjects at each size and mode the same way;
its differences in ns per call are side by side too.

The criteria name the subjects they are about: that is the question asked,
not a fact about the subjects.  The zero section's comparisons are these
criteria's (ZERO_RATIOS and the sentences' ZERO_VS_GLIBC ...), and the other
comparisons between named subjects are here too (INLINE_LOOP, OPENCLOSE_RATIO); what a
subject *is* (its kind, baseline, variants, loop, fallback) the report reads
from the file's "subjects" object (facts.py), and the published figures name
the subject they are set beside (data/published.json).
"""

import math
import statistics

from . import fmt, questions, stats
from .questions import by_id
from .load import is_number

SCENARIO = "contend"

CRITERIA = questions.CONTEND


def contend_subjects():
    """The subjects the contention criteria are about, in order: the paragraph of "What this
    machine says" sets each beside its baseline (a fact of the file)."""
    return list(dict.fromkeys(c["subject"] for c in CRITERIA))


def question_subjects(kind="contend"):
    """The subjects the summary's questions compare in KIND's scenario (subject and base of
    each measure), in the order asked: the lines a plot of every subject draws thick."""
    out = []
    for q in QUESTIONS:
        for m in q["measures"]:
            if m.get("kind") == kind:
                out += [x for x in (m.get("subject"), m.get("base")) if x]
    return list(dict.fromkeys(out))


def scaling():
    """(subject, rival): the subject a criterion holds to its own figure at fewer threads, and
    what another criterion compares it with at one thread count (None when there is none)."""
    own = next((c for c in CRITERIA if c["subject"] == c["base"]), None)
    if own is None:
        return None, None
    rival = next((c["base"] for c in CRITERIA if c["subject"] == own["subject"]
                  and c["base"] != own["subject"] and c["threads"] == c["base_threads"]), None)
    return own["subject"], rival


def _digits(v, holds):
    """Decimals (2 or more) enough that rounding V cannot hide whether HOLDS(V)."""
    digits = 2
    while digits < 6 and holds(round(v, digits)) != holds(v):
        digits += 1
    return digits


class Verdict:
    """What every check shows: met is True, False or None (not checked), from the median; and
    the three-valued verdict from the interval over the paired repetitions (stats.py), None
    when the figures do not pair up or the check is not checked."""

    met = None
    interval_verdict = None
    interval_why = ""

    @property
    def verdict(self):
        return {True: "**met**", False: "**not met**", None: "not checked"}[self.met]

    def interval_text(self):
        """The interval's verdict in words, for the criteria table."""
        if self.met is None:
            return fmt.DASH
        if self.interval_verdict is None:
            return "no interval: the repetitions do not pair up"
        return self.interval_verdict + (f" ({self.interval_why})" if self.interval_why else "")


class Check(Verdict):
    """One contention criterion against one file."""

    def __init__(self, crit, value=None, base=None, missing=None, paired=None):
        self.crit = crit
        self.value = value          # Mops/s of the subject
        self.base = base            # Mops/s of the base
        self.missing = missing      # what is missing when not checked
        self.paired = paired        # per-repetition ratios, when they pair up
        if paired:
            self.ratio = statistics.median(paired)
        else:
            self.ratio = value / base if value is not None and base else None
        self.met = None if self.ratio is None else self.ratio >= crit["factor"]
        if paired:
            c = stats.Comparison(paired, crit["factor"])
            self.interval_verdict, self.interval_why = c.verdict, c.why

    def ratio_text(self):
        """The ratio with enough digits that its rounding cannot hide the verdict."""
        f = self.crit["factor"]
        return f"{self.ratio:.{_digits(self.ratio, lambda x: x >= f)}f}x"

    def figures(self):
        c = self.crit
        if self.met is None:
            return f"no {self.missing} result in this file"
        if c["base"] == c["subject"]:
            base = f"its {c['base_threads']}-thread {fmt.num(self.base)}"
        else:
            base = f"{c['base']} {fmt.num(self.base)}"
        how = (f", the median of {len(self.paired)} side-by-side repetitions"
               if self.paired else "")
        return (f"{c['subject']} {fmt.num(self.value)} vs {base} Mops/s = {self.ratio_text()}"
                f"{how} (needs \u2265 {c['factor']:g}x)")


def _result(results, subject, threads):
    for r in results:
        if r["scenario"] == SCENARIO and r["subject"] == subject and r["threads"] == threads:
            return r
    return None


def _mops(results, subject, threads):
    r = _result(results, subject, threads)
    v = r.get("ops_per_sec") if r else None
    return v * 1e-6 if is_number(v) else None


def _paired_runs(a, b, how):
    """[(x, y)]: repetition k of a with repetition k of b, each turned into a figure by HOW(r)
    (a list, or None when it cannot); None when a and b were not run side by side.

    Runs of unequal length pair up to the shorter: the bench runs every subject at a point
    in each planned round, and with --until-decided every subject still deciding there in
    each extra round (bench/until_decided.c), so a subject that stopped earlier has its
    runs[k] beside the other's runs[k] for every k it has."""
    if a is None or b is None or a.get("threads") != b.get("threads"):
        return None
    ra, rb = how(a), how(b)
    if (not isinstance(ra, list) or not isinstance(rb, list) or not ra or not rb
            or not all(is_number(x) for x in ra + rb)):
        return None
    return list(zip(ra, rb))


def _runs_of(metric):
    """A HOW for _paired_runs: a result's runs when its headline is METRIC."""
    return lambda r: r.get("runs") if r.get("headline") == metric else None


def side_by_side(a, b, metric="ops_per_sec"):
    """Per-repetition ratios of result a to result b (both with headline METRIC, a throughput),
    run side by side; None if they do not pair."""
    pairs = _paired_runs(a, b, _runs_of(metric))
    if not pairs or not all(y > 0 for _, y in pairs):
        return None
    return [x / y for x, y in pairs]


def ratio(a, b, metric="ops_per_sec"):
    """(ratio, n): a's METRIC over b's, side by side when the runs pair (n of them), else of
    medians (n 0)."""
    paired = side_by_side(a, b, metric)
    if paired:
        return statistics.median(paired), len(paired)
    va, vb = a.get(metric), b.get(metric)
    return (va / vb if is_number(va) and is_number(vb) and vb else None), 0


def ns_runs(r):
    """A zero result's ns per call in each repetition: its runs, or size / GB/s (1 GB/s is one
    byte per ns); None when neither is known."""
    runs = r.get("runs")
    if r.get("headline") == "ns_per_op":
        return runs
    size = r.get("size")
    if r.get("headline") == "gb_per_sec" and size and runs and all(
            is_number(x) and x > 0 for x in runs):
        return [size / x for x in runs]
    return None


def ns_difference(a, b):
    """(difference, n): a's ns per call minus b's, the median of the per-repetition differences
    when the runs pair (n of them), else of the medians (n 0)."""
    pairs = _paired_runs(a, b, ns_runs)
    if pairs:
        return statistics.median(x - y for x, y in pairs), len(pairs)
    va, vb = a.get("ns_per_op"), b.get("ns_per_op")
    return (va - vb if is_number(va) and is_number(vb) else None), 0


def _paired(results, c):
    if c["subject"] == c["base"]:
        return None
    return side_by_side(_result(results, c["subject"], c["threads"]),
                        _result(results, c["base"], c["base_threads"]))


def evaluate(results):
    """Check every criterion against RESULTS; a list of Check, in CRITERIA order."""
    out = []
    for c in CRITERIA:
        v = _mops(results, c["subject"], c["threads"])
        b = _mops(results, c["base"], c["base_threads"])
        missing = None
        if v is None:
            missing = f"{c['threads']}-thread {c['subject']}"
        elif not b:
            missing = f"{c['base_threads']}-thread {c['base']}"
        out.append(Check(c, v, b, missing, _paired(results, c)) if missing is None
                   else Check(c, missing=missing))
    return out


# -- clearing memory ------------------------------------------------------------------------

ZERO = "zero"

# Modes of the zero scenario: "hot" clears the same buffer call after call
# (cache-resident when it fits), "cold" one the caches do not hold; "dd" marks
# the host kernel's dd-style experiments.  A result without a mode (an older
# bench) counts as hot.
DEFAULT_MODE = "hot"

# "Beyond the cache" when the file does not record the last-level cache's size.
BEYOND_CACHE = 32 << 20

# Each zero criterion compares SUBJECT with BASE in MODE at every size of "sizes" and holds
# only if it holds at each:
#   sizes: (lo, hi), every size of the file in that range, bounds included (None: open);
#          [s, ...]: each of these sizes, all required; "beyond_cache": every size above the
#          last-level cache (the file's llc_bytes, else BEYOND_CACHE);
#   factor: a ratio of GB/s that must hold at each size; limit_ns: ns per call that SUBJECT
#          may cost over BASE at each size;
#   bases: when given, BASE is the larger of these in each repetition k (run k of every one
#          ran in the same round), "base" naming that maximum;
#   also_modes: other modes counted too, where the file measured the criterion's sizes in
#          them (MODE is required);
#   figure: another subject set against the same base, a figure with no threshold;
#   aggregate "geomean": not a claim at each size but one over all of them: in each
#          repetition k, the geometric mean over the sizes of SUBJECT's run k / BASE's run k
#          (the first n repetitions at every size, n the fewest any size has: with
#          --until-decided some sizes have more); judged is the median of those
#          per-repetition means, with stats.py's interval.
# The zero criteria (data/questions.json, "sized"/"zero"): hl_zero >= 0.95x glibc from 1 B (not
# 64 B, as first), hot and cold; the
# geometric mean; and beyond the cache, the store bandwidth limit in place of the first
# "hl_zero >= 1.2x glibc_memset beyond the cache" (what glibc reaches is a figure beside it,
# no longer the bar).
GIB = 1 << 30
ZERO_CRITERIA = questions.SIZED["zero"]


def bases_of(c):
    """The subjects criterion C's base is made of: its "bases", else its one "base"."""
    return tuple(c.get("bases") or (c["base"],))


def modes_of(c):
    """The modes criterion C counts: its own (required), then its "also_modes"."""
    return (c["mode"],) + tuple(c.get("also_modes", ()))


def mode_of(r):
    return r.get("mode") or DEFAULT_MODE


def zero_index(results, scenario=ZERO):
    """{(subject, mode, size): result} of SCENARIO's results with a size (the first wins): zero's,
    or copy's (the size sweeps have the same shape)."""
    idx = {}
    for r in results:
        if r["scenario"] == scenario and r.get("size") is not None:
            idx.setdefault((r["subject"], mode_of(r), r["size"]), r)
    return idx


def _gb_runs(r):
    return r.get("runs") if r.get("headline") == "gb_per_sec" else None


def limit_runs(bases):
    """Per repetition k, the largest of the BASES' runs k (GB/s), up to the shortest; None when
    one has no runs or they were not run side by side (another thread count)."""
    if not bases or len({b.get("threads") for b in bases}) > 1:
        return None
    runs = [_gb_runs(b) for b in bases]
    if not all(isinstance(x, list) and x and all(is_number(v) for v in x) for x in runs):
        return None
    return [max(x[k] for x in runs) for k in range(min(len(x) for x in runs))]


def side_by_side_max(a, bases):
    """Per-repetition ratios of zero result a's GB/s to the largest of BASES' in the same
    repetition (the runs of one round); None if they do not pair."""
    if len(bases) == 1:
        return side_by_side(a, bases[0], "gb_per_sec")
    lim = limit_runs(bases)
    ra = _gb_runs(a)
    if (lim is None or not isinstance(ra, list) or not ra or not all(is_number(x) for x in ra)
            or a.get("threads") != bases[0].get("threads") or not all(y > 0 for y in lim)):
        return None
    return [x / y for x, y in zip(ra, lim)]


class Point:
    """One size (and mode) of a zero criterion: the two figures shown and the value judged."""

    def __init__(self, size, a, b, value, n, values=None, mode=None, series=(), base=None):
        self.size, self.a, self.b, self.value, self.n = size, a, b, value, n
        self.values = values        # the per-repetition ratios or differences, when they pair
        self.mode = mode
        self.series = series        # the runs of the subject and of the base, for bimodality
        self.base = base            # of several bases, the one whose median is the larger


class SizeCheck(Verdict):
    """One zero criterion against one file, over the sizes (and modes) it covers."""

    def __init__(self, crit, points=(), missing=None, scope="", figure=()):
        self.crit = crit
        self.points = list(points)
        self.missing = missing      # what is missing when not checked
        self.scope = scope          # which sizes, in words ("26 sizes from 64 B to 1 GiB")
        self.figure = list(figure)  # the points of crit["figure"] against the same base
        self.ns = "limit_ns" in crit
        self.modes = len({p.mode for p in self.points}) > 1
        self.worst = None
        if self.points and missing is None:
            pick = max if self.ns else min
            self.worst = pick(self.points, key=lambda p: p.value)
            self.met = all(self.holds(p.value) for p in self.points)
            self._interval()

    def _interval(self):
        c = self.crit
        comps = [stats.Comparison(p.values, c["limit_ns"] if self.ns else c["factor"],
                                  not self.ns) for p in self.points if p.values]
        v = stats.combine(comps)
        if v is None:
            return
        if v == stats.HOLDS and len(comps) < len(self.points):
            v = stats.CANNOT_TELL
            self.interval_why = "some sizes do not pair up"
        elif v == stats.CANNOT_TELL:
            whys = [x.why for x in comps if x.verdict == stats.CANNOT_TELL]
            self.interval_why = whys[0] if len(set(whys)) == 1 else ""
        self.interval_verdict = v

    def holds(self, v):
        c = self.crit
        return v <= c["limit_ns"] if self.ns else v >= c["factor"]

    def value_text(self, v):
        """A ratio or a difference with digits enough that rounding cannot hide the verdict."""
        d = _digits(v, self.holds)
        if self.ns:
            return f"{v:+.{d}f} ns".replace("-", "\u2212")
        return f"{v:.{d}f}x"

    def _at(self, p):
        return fmt.size_exact(p.size) + (f" ({p.mode})" if self.modes else "")

    def _point_text(self, p):
        c = self.crit
        unit = "ns per call" if self.ns else "GB/s"
        if c.get("bases"):
            faster = f" ({p.base} the faster)" if p.base else ""
            return (f"{c['subject']} {fmt.num(p.a)} vs the limit {fmt.num(p.b)} {unit}{faster} = "
                    f"{self.value_text(p.value)}")
        return (f"{c['subject']} {fmt.num(p.a)} vs {c['base']} {fmt.num(p.b)} {unit} = "
                f"{self.value_text(p.value)}")

    def _how(self):
        ns = {p.n for p in self.points}
        what = "differences" if self.ns else "ratios"
        bases = self.crit.get("bases")
        if bases:
            what += f" to the larger of {common_names(bases)}"
        if ns == {0}:
            return f"{what} of the medians"
        if ns == {1}:
            return f"{what} from one repetition each"
        if len(ns) == 1:
            if bases:
                return (f"each the median of {ns.pop()} side-by-side {what} in the same "
                        "repetition")
            return f"each the median of {ns.pop()} side-by-side repetitions"
        return f"{what} side by side where the repetitions pair, else of the medians"

    def figures(self):
        c = self.crit
        if self.met is None:
            return f"no {self.missing} in this file"
        need = (f"needs \u2264 +{c['limit_ns']:g} ns at each" if self.ns
                else f"needs \u2265 {c['factor']:g}x at each")
        if isinstance(c["sizes"], list):
            each = "; ".join(f"{fmt.size_exact(p.size)}: {self._point_text(p)}"
                             for p in self.points)
            return f"{each}; {self._how()} ({need})"
        s = f"worst at {self._at(self.worst)}: {self._point_text(self.worst)}"
        last = max(self.points, key=lambda p: (p.mode == c["mode"], p.size))
        if last is not self.worst and not self.ns:
            s += f"; at {self._at(last)}, the largest: {self.value_text(last.value)}"
        s = f"{s}; {self.scope}, {self._how()} ({need})"
        if self.figure:
            f = min(self.figure, key=lambda p: p.value)
            s += (f"; beside it, {c['figure']} at worst {f.value:.2f}x the limit, at "
                  f"{self._at(f)} (a figure, no threshold)")
        return s


def _zero_sizes(c, sizes, llc):
    """(sizes of the file C covers, scope in words, what is missing when a listed one is absent)."""
    got, words, note, gone = _zero_scope(c, sizes, llc)
    return got, words + note, gone


def _zero_scope(c, sizes, llc):
    """(sizes of the file C covers, those in words, a note on the range (" (above the 32 MiB
    last-level cache)") or "", what is missing when a listed one is absent)."""
    spec = c["sizes"]
    if isinstance(spec, list):
        gone = [s for s in spec if s not in sizes]
        return ([s for s in spec if s in sizes], "", "",
                f"at {fmt.size_exact(gone[0])}" if gone else None)
    note = None
    if spec == "beyond_cache":
        lo, hi = (llc or BEYOND_CACHE) + 1, None
        note = (f"above the {fmt.size_exact(llc)} last-level cache" if llc else
                f"above {fmt.size_exact(BEYOND_CACHE)}, the file recording no cache size")
    else:
        lo, hi = spec
    got = [s for s in sizes if (lo is None or s >= lo) and (hi is None or s <= hi)]
    if not got:
        return [], "", "", "at any size " + (note or _range_words(lo, hi))
    if note:
        note = f" ({note})"
    elif hi is not None and sizes[-1] < hi:
        note = f" (this file's sizes stop at {fmt.size_exact(sizes[-1])})"
    return got, _sizes_words(got), note or "", None


def _sizes_words(got):
    """"26 sizes from 64 B to 1 GiB", "1 size (64 MiB)"."""
    first, last = fmt.size_exact(got[0]), fmt.size_exact(got[-1])
    return fmt.plural(len(got), "size") + " " + (
        f"from {first} to {last}" if len(got) > 1 else first)


def _range_words(lo, hi):
    if lo is None:
        return f"up to {fmt.size_exact(hi)}"
    if hi is None:
        return f"from {fmt.size_exact(lo)} up"
    return f"from {fmt.size_exact(lo)} to {fmt.size_exact(hi)}"


def _zero_point(c, a, bases, mode=None):
    """The Point of criterion C at one size, from results a (subject) and BASES (the base, or
    the bases whose larger run is the base), or None."""
    if "limit_ns" in c:
        b = bases[0]
        d, n = ns_difference(a, b)
        va, vb = a.get("ns_per_op"), b.get("ns_per_op")
        pairs = _paired_runs(a, b, ns_runs)
        values = [x - y for x, y in pairs] if pairs else None
        return Point(a["size"], va, vb, d, n, values, mode,
                     (a.get("runs"), b.get("runs"))) if d is not None else None
    if len(bases) == 1:
        b = bases[0]
        v, n = ratio(a, b, "gb_per_sec")
        return Point(a["size"], a.get("gb_per_sec"), b.get("gb_per_sec"), v, n,
                     side_by_side(a, b, "gb_per_sec"), mode,
                     (a.get("runs"), b.get("runs"))) if v is not None else None
    meds = [b.get("gb_per_sec") for b in bases]
    top = max((b for b, m in zip(bases, meds) if is_number(m) and m > 0),
              key=lambda b: b["gb_per_sec"], default=None)
    values = side_by_side_max(a, bases)
    lim = limit_runs(bases)
    if values:
        return Point(a["size"], a.get("gb_per_sec"), statistics.median(lim[:len(values)]),
                     statistics.median(values), len(values), values, mode,
                     (a.get("runs"), lim), top and top["subject"])
    va = a.get("gb_per_sec")
    if top is None or not is_number(va):
        return None
    return Point(a["size"], va, top["gb_per_sec"], va / top["gb_per_sec"], 0, None, mode,
                 (), top["subject"])


def zero_points(results, c, llc=None, subject=None):
    """(points, scope in words, what is missing or None) of zero criterion C (an "aggregate"
    one too: its sizes) against RESULTS, with SUBJECT in place of C's when given (its
    "figure").  The first of C's modes is required; the others count where the file has
    results at the sizes C covers."""
    idx = results if isinstance(results, dict) else \
        zero_index(results, c.get("scenario", ZERO))
    subject = subject or c["subject"]
    bases = bases_of(c)
    points, scopes, notes = [], [], []
    for i, mode in enumerate(modes_of(c)):
        both = sorted(s for (subj, m, s) in idx if subj == subject and m == mode
                      and all((b, m, s) in idx for b in bases))
        sizes, words, note, gone = _zero_scope(c, both, llc)
        pts = [zero_point_at(idx, c, subject, s, mode) for s in sizes] if not gone else []
        pts = [p for p in pts if p is not None]
        if not pts:
            if i == 0:
                return [], "", (f"{mode} {common_names((subject,) + bases)} results "
                                f"{gone or 'with figures'}")
            scopes.append(f"no {mode} ones")
            continue
        points += pts
        scopes.append(words if len(modes_of(c)) == 1 else f"{words} {mode}")
        notes.append(note)
    return points, " and ".join(scopes) + notes[0], None


def zero_point_at(results, c, subject, size, mode):
    """The Point of criterion C with SUBJECT in place of C's at one SIZE and MODE, whatever
    sizes C lists; None when the file lacks the subject or a base there."""
    idx = results if isinstance(results, dict) else \
        zero_index(results, c.get("scenario", ZERO))
    a = idx.get((subject, mode, size))
    bases = [idx.get((b, mode, size)) for b in bases_of(c)]
    if a is None or None in bases:
        return None
    return _zero_point(c, a, bases, mode)


def common_names(items):
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Geomean:
    """Aggregate criterion C's statistic: in each repetition k, the geometric mean over the
    sizes of the paired ratio run_k(subject) / run_k(base), over the first n repetitions at
    every size (n the fewest any size has); .values those per-repetition means (None when
    some size does not pair: then .value is the geometric mean of the ratios of the medians),
    .value their median, .sizes the sizes it covers."""

    def __init__(self, c, points, scope):
        self.crit, self.scope = c, scope
        self.sizes = [p.size for p in points]
        self.points = points
        self.values = None
        self.n = 0
        # beside it: the geometric mean of each size's median ratio (all its repetitions)
        self.of_medians = math.exp(statistics.fmean(math.log(p.value) for p in points)) \
            if points and all(p.value > 0 for p in points) else None
        if points and all(p.values and all(v > 0 for v in p.values) for p in points):
            self.n = min(len(p.values) for p in points)
            self.values = [math.exp(statistics.fmean(math.log(p.values[k]) for p in points))
                           for k in range(self.n)]
            self.value = statistics.median(self.values)
        elif points and all(p.value > 0 for p in points):
            self.value = math.exp(statistics.fmean(math.log(p.value) for p in points))
        else:
            self.value = None


def geomean(results, c, llc=None):
    """(Geomean or None, what is missing): aggregate criterion C against RESULTS."""
    points, scope, missing = zero_points(results, c, llc)
    if missing:
        return None, missing
    g = Geomean(c, points, scope)
    return (g, None) if g.value is not None else (None, "figures above zero")


class GeomeanCheck(Verdict):
    """An aggregate zero criterion (the geometric mean over sizes) against one file."""

    def __init__(self, crit, g=None, missing=None):
        self.crit, self.g, self.missing = crit, g, missing
        self.ns = False
        if g is not None:
            self.met = g.value >= crit["factor"]
            if g.values:
                comp = stats.Comparison(g.values, crit["factor"])
                self.interval_verdict, self.interval_why = comp.verdict, comp.why

    def figures(self):
        c, g = self.crit, self.g
        if self.met is None:
            return f"no {self.missing} in this file"
        f = c["factor"]
        v = f"{g.value:.{_digits(g.value, lambda x: x >= f)}f}x"
        if g.values:
            how = (f"the median of {fmt.plural(len(g.values), 'per-repetition geometric mean')}"
                   f", each over the first {g.n} repetitions at every size")
        else:
            how = "of the ratios of the medians: the repetitions do not pair up"
        s = (f"{c['subject']} / {c['base']} = {v} over {g.scope}, each size weighted alike; "
             f"{how} (needs \u2265 {f:g}x)")
        if g.values and g.of_medians is not None:
            s += f"; the geometric mean of the sizes' own medians is {g.of_medians:.2f}x"
        return s


def evaluate_size_criteria(results, crits, llc=None):
    """Check every criterion of CRITS (ZERO_CRITERIA, COPY_CRITERIA) against RESULTS; a list of
    SizeCheck (GeomeanCheck for an aggregate one), in CRITS order."""
    out = []
    for c in crits:
        idx = zero_index(results, c.get("scenario", ZERO))
        if c.get("aggregate") == "geomean":
            g, missing = geomean(idx, c, llc)
            out.append(GeomeanCheck(c, g, missing))
            continue
        points, scope, missing = zero_points(idx, c, llc)
        if missing:
            out.append(SizeCheck(c, missing=missing))
            continue
        fig = zero_points(idx, c, llc, c["figure"])[0] if c.get("figure") else ()
        out.append(SizeCheck(c, points, scope=scope, figure=fig))
    return out


def evaluate_zero(results, llc=None):
    """Check every zero criterion against RESULTS; a list of SizeCheck (GeomeanCheck for an
    aggregate one), in ZERO_CRITERIA order.

    LLC: the last-level cache's size in bytes, when known ("beyond the cache")."""
    return evaluate_size_criteria(results, ZERO_CRITERIA, llc)


# The zero criteria the zero section's sentences answer, by what they ask.
ZERO_VS_GLIBC = by_id("zero_vs_glibc")  # hl_zero against glibc, every size, hot (ratio)
ZERO_VS_GLIBC_COLD = by_id("zero_vs_glibc_cold")  # the same, cold
ZERO_GEOMEAN = by_id("zero_geomean")  # the geometric mean over sizes of that ratio, hot
ZERO_BANDWIDTH = by_id("zero_bandwidth")  # hl_zero against the store bandwidth limit, beyond LLC
ZERO_VS_COPY = by_id("zero_vs_copy")  # hl_zero against a zero-page copy inside the L1 (4 KiB)
ZERO_VS_COPY_L2 = by_id("zero_vs_copy_l2")  # the same past the L1 (1 MiB), a lower bar
TRY_ZERO_RATIO = by_id("try_zero_ratio")  # hl_try_zero's throughput against hl_zero's, from 256 B
TRY_ZERO_NS = by_id("try_zero_ns")  # hl_try_zero's cost over hl_zero in ns, below 256 B

# hl_zero against glibc, by mode: the criterion of each mode (the zero section's ratios).
ZERO_VS_GLIBC_BY_MODE = {c["mode"]: c for c in (ZERO_VS_GLIBC, ZERO_VS_GLIBC_COLD)}

# The zero section's ratios per size and size class: the pairs of ZERO_CRITERIA, in the order
# its tables show them.
ZERO_RATIOS = tuple((c["subject"], c["base"]) for c in (ZERO_VS_GLIBC, TRY_ZERO_RATIO,
                                                         ZERO_VS_COPY))


# -- copying memory that may not be there ---------------------------------------------------

COPY = "copy"

# The copy scenario's modes: "hot" and "cold" as zero's (its size sweeps); "probe" the
# may-be-unmapped readers against hl_try_copy, hot buffers, 8 B to 1 MiB; "word" one 8-byte word
# per call (hl_try_load64 against a process_vm_readv per word).
COPY_MODES = ("hot", "cold", "probe", "word")

# The copy criteria, as ZERO_CRITERIA are written (their "scenario" says whose results): when
# nothing faults, hl_try_copy costs what memcpy costs, and it is far cheaper than the system
# call that reads memory which may not be mapped.
COPY_CRITERIA = questions.SIZED["copy"]

COPY_VS_GLIBC = by_id("copy_vs_glibc")  # hl_try_copy against glibc's memcpy from 64 B (ratio)
COPY_SMALL_NS = by_id("copy_small_ns")  # its cost over memcpy in ns per call, below 64 B
COPY_VS_SYSCALL = by_id("copy_vs_syscall")  # against one process_vm_readv per copy, at 4 KiB
COPY_VS_GLIBC_COLD = by_id("copy_vs_glibc_cold")  # the ratio from 64 B, cold
COPY_SMALL_NS_COLD = by_id("copy_small_ns_cold")  # ns per call below 64 B, cold

# hl_try_load64 against one process_vm_readv per word: a figure (no bar is set).
LOAD_WORD = questions.COMPARISONS["load_word"]


def evaluate_copy(results, llc=None):
    """Check every copy criterion against RESULTS; a list of SizeCheck in COPY_CRITERIA order."""
    return evaluate_size_criteria(results, COPY_CRITERIA, llc)


# -- the one other comparison between named subjects ------------------------------------------

# refcount-timing: the REFCOUNT_FULL loop inlined, against the same loop called out of line
# (what the call costs).  A question, like the criteria: no fact of the subjects says that one
# is the other inlined.
INLINE_LOOP = questions.COMPARISONS["inline_loop"]

# openclose: N processes (a file table each) against N threads of one process (one shared
# table), the ratio report.md plots (brief.py) when the file's facts give no baseline.  A
# question too: whether sharing the file table costs the threads anything.
OPENCLOSE_RATIO = questions.COMPARISONS["openclose_ratio"]


# -- the questions of the report's summary table (summary.py) ---------------------------------

# One entry per question the seed threads argued about (data/questions.json, "summary"), in
# the summary's order; each has one
# or more measures, a row each, judged with a confidence interval (stats.py).  A measure:
#   "contend": SUBJECT's ops/s over BASE's at THREADS ("most": the file's highest thread
#              count shared by both), paired per repetition; a claim of ratio >= FACTOR, or
#              no claim (FACTOR None: a figure only);
#   "timing":  refcount-timing's time of SUBJECT over its ratio_to's (ratio_runs), a claim of
#              ratio <= LIMIT (None: a figure only); PUBLISHED: beside it, the published ratio
#              of that subject (data/published.json, refcount_timing);
#   "sweep":   lockref-sweep's SUBJECT at retry limit LIMIT over BASE, at the highest thread
#              count, ratio >= FACTOR (else contend's results at their highest thread count);
#   "copy":    one of COPY_CRITERIA, as "zero" is one of ZERO_CRITERIA;
#   "zero":    one of ZERO_CRITERIA, at each size (and mode) it covers; the size shown is the
#              deciding one: the worst of the sizes whose verdict is the combined verdict.  An
#              "aggregate" criterion (the geometric mean over sizes) is one figure over all its
#              sizes.  "subject": another subject set against the criterion's base, a figure
#              with no threshold (glibc_memset against the store bandwidth limit).
# "published": the key of data/published.json set beside the row (kernel.py reads it).
QUESTIONS = questions.SUMMARY

# The size criteria a summary measure of each kind indexes ("criterion").
SIZE_CRITERIA = questions.SIZED


# The simulated lookups: rcuref's get+put over the cmpxchg lookup's on the ThunderX2
# model at its most threads, where the claim is an order of magnitude.  A model's figure,
# not this machine's: the summary states it under its table, with no verdict.
SIM_LOOKUP = questions.COMPARISONS["sim_lookup"]


def zero_measure(m):
    """The size criterion summary measure M asks: ZERO_CRITERIA[m["criterion"]] (COPY_CRITERIA's
    for a "copy" measure), with M's "subject" in place of the criterion's and no threshold when
    M names one (a figure)."""
    c = SIZE_CRITERIA[m["kind"]][m["criterion"]]
    if m.get("subject") and m["subject"] != c["subject"]:
        c = dict(c, subject=m["subject"], factor=None, text=m["what"])
        c.pop("figure", None)
    return c


def zero_pairs(results, c, llc=None):
    """[Point] of zero criterion C for each size (and mode) it covers whose runs pair: .values
    the per-repetition ratios of GB/s (to the larger base, with "bases"), or differences of ns
    per call ("limit_ns"); .series the subject's and the base's runs."""
    points, _, missing = zero_points(results, c, llc)
    return [] if missing else [p for p in points if p.values]
