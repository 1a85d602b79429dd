"""The project's done criteria for contention, as data, and their check.

Each criterion compares two throughputs from the contend scenario:

    SUBJECT's ops/s at THREADS  >=  FACTOR x  BASE's ops/s at BASE_THREADS

and is met, not met, or not checked (a figure is missing from the file).

When both figures come from the same thread count, the bench ran their
repetitions interleaved (repetition k of every subject close together in
time), so the ratio is taken side by side: the median over k of
runs[k] / base_runs[k], which the machine's drift affects least. Otherwise
(or when the runs do not pair up) it is the ratio of the two medians.
"""

import statistics

from . import fmt
from .load import is_number

SCENARIO = "contend"

CRITERIA = [
    {"subject": "refcount", "threads": 2, "base": "atomic_faa", "base_threads": 2, "factor": 0.95,
     "text": "refcount \u2265 0.95x atomic_faa at 2 threads"},
    {"subject": "lockref", "threads": 2, "base": "cas_loop", "base_threads": 2, "factor": 0.85,
     "text": "lockref \u2265 0.85x cas_loop at 2 threads"},
    {"subject": "qspinlock", "threads": 8, "base": "qspinlock", "base_threads": 2, "factor": 0.5,
     "text": "qspinlock at 8 threads \u2265 0.5x its own 2-thread figure"},
    {"subject": "qspinlock", "threads": 8, "base": "pthread_mutex", "base_threads": 8,
     "factor": 0.5, "text": "qspinlock \u2265 0.5x pthread_mutex at 8 threads"},
]


class Check:
    """One criterion against one file: met is True, False or None (not checked)."""

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

    @property
    def verdict(self):
        return {True: "**met**", False: "**not met**", None: "not checked"}[self.met]

    def ratio_text(self):
        """The ratio with enough digits that its rounding cannot hide the verdict."""
        f = self.crit["factor"]
        digits = 2
        while digits < 6 and (round(self.ratio, digits) >= f) != self.met:
            digits += 1
        return f"{self.ratio:.{digits}f}x"

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


def side_by_side(a, b):
    """Per-repetition ratios of result a to result b, run side by side; None if they do not pair."""
    ra = a.get("runs") if a else None
    rb = b.get("runs") if b else None
    if (a is None or b is None or a.get("threads") != b.get("threads")
            or a.get("headline") != "ops_per_sec" or b.get("headline") != "ops_per_sec"
            or not isinstance(ra, list) or not isinstance(rb, list)
            or not ra or len(ra) != len(rb)
            or not all(is_number(x) for x in ra + rb) or not all(y > 0 for y in rb)):
        return None
    return [x / y for x, y in zip(ra, rb)]


def ratio(a, b):
    """(ratio, n): a's ops/s over b's, side by side when the runs pair (n of them), else of medians (n 0)."""
    paired = side_by_side(a, b)
    if paired:
        return statistics.median(paired), len(paired)
    va, vb = a.get("ops_per_sec"), b.get("ops_per_sec")
    return (va / vb if is_number(va) and is_number(vb) and vb else None), 0


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
