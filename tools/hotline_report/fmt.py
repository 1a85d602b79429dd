"""Formatting: numbers, sizes, ratios, Markdown tables; result statistics.

The formats are part of what the tests check, so they are fixed here:

  num(5.3125)    -> "5.31"     (3 significant digits, no exponent;
  num(16.44)     -> "16.4"      integers from 100 on, thousands separated
  num(144.8)     -> "145"       from 1000 on)
  num(12345.6)   -> "12,346"
  count(3)       -> "3"         (integer-valued fields: p99 attempts, ...)
  ratio(1.0123)  -> "1.01x"
  pct(0.142)     -> "14.2%"
  rate(0.00004)  -> "0.004%"   (shares that may be tiny: fallback rates)
  ns(3910000)    -> "3.91 ms"  (times in ns, scaled; bare numbers are ns)
  size(4096)     -> "4 KiB"
  size_exact(65537) -> "65,537 B" (size() unless that would round)
"""

import math
import statistics

from .load import is_number

DASH = "\u2014"      # em dash: no value
EN = "\u2013"        # en dash: ranges

# Spread (max-min over median across repetitions) above this is flagged.
LARGE_SPREAD = 0.10


def num(v):
    if v is None or not is_number(v):
        return DASH
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 999.5:
        return f"{v:,.0f}"
    v = float(f"{v:.3g}")  # round first, so 99.96 is "100", not "100.0"
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    digits = 2 - int(math.floor(math.log10(a)))
    return f"{v:.{digits}f}"


def count(v):
    """An integer-valued figure: exact when the JSON has an integer."""
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return num(v)


def ratio(v):
    """1.01x; below 0.1 two significant digits (0.0073x), so a collapse is not "0.01x"."""
    if v is None:
        return DASH
    if 0 < abs(v) < 0.095:
        return f"{v:.2g}x"
    return f"{v:.2f}x"


def pct(v):
    return DASH if v is None else f"{v * 100:.1f}%"


def rate(v):
    """A share that may be tiny: 0%, 0.004%, 0.09%, 1.2%, 100%."""
    if v is None or not is_number(v):
        return DASH
    if v == 0:
        return "0%"
    if abs(v) < 0.001:
        return f"{v * 100:.2g}%"
    return pct(v)


def ns(v):
    """A time in ns, scaled: 64, 1.2 µs, 3.91 ms, 1.5 s (bare numbers are ns)."""
    if v is None or not is_number(v):
        return DASH
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("\u00b5s", 1e3)):
        if abs(v) >= scale:
            return f"{num(v / scale)} {unit}"
    return f"{v:.0f}" if abs(v) >= 10 else num(v)


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def size(n):
    """Bytes in binary units: 64 B, 4 KiB, 1.5 MiB, 2 GiB."""
    if n is None:
        return DASH
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.3g} {unit}"
    return f"{n} B"


def size_exact(n):
    """size(n) when that names n exactly (4 KiB, 1.5 MiB), else the bytes (65,537 B), so
    that an odd size is not read as the power of two beside it."""
    if n is None:
        return DASH
    text = size(n)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if text.endswith(unit):
            return text if float(text.split()[0]) * scale == n else f"{n:,} B"
    return text


def rng(lo, hi, scale=1.0):
    if lo is None or hi is None:
        return DASH
    return f"{num(lo * scale)}{EN}{num(hi * scale)}"


def cell(s):
    """Make text safe inside a Markdown table cell."""
    return str(s).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table(headers, rows, align=None):
    """Markdown table lines; align is a string of 'l'/'r' per column."""
    align = align or "l" * len(headers)
    out = ["| " + " | ".join(cell(h) for h in headers) + " |",
           "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    for row in rows:
        out.append("| " + " | ".join(cell(c) for c in row) + " |")
    return out


# Figures a result can carry: label for tables, axis label for plots, and
# the factor from the JSON unit to the displayed one.
METRICS = {
    "ns_per_op": ("ns/op", "time per operation (ns)", 1.0),
    "ops_per_sec": ("Mops/s", "throughput, all threads (million ops/s)", 1e-6),
    "gb_per_sec": ("GB/s", "bandwidth (GB/s)", 1.0),
    "cycles_per_op": ("ticks/op", "cycle-counter ticks per operation (TSC on x86-64, CNTVCT on arm64)", 1.0),
    "attempts_per_success": ("attempts/success", "cmpxchg attempts per success (mean)", 1.0),
    "fairness": ("fairness", "Jain's fairness index (1 = perfectly fair)", 1.0),
    "fallback_rate": ("fallback rate", "share of operations that fell back to the lock", 1.0),
}


def metric_label(m):
    return METRICS.get(m, (m, m, 1.0))[0]


def metric_axis(m):
    return METRICS.get(m, (m, m, 1.0))[1]


def metric_scale(m):
    return METRICS.get(m, (m, m, 1.0))[2]


def metric_value(r, m):
    """A result's figure M in display units (None when absent)."""
    v = r.get(m)
    if isinstance(v, dict):  # e.g. attempts_per_success {"mean","p50","p99","max"}
        v = v.get("mean", v.get("p50"))
    if not is_number(v):
        return None
    return v * metric_scale(m)


class Stats:
    """Repetition statistics of a result's headline figure (JSON units)."""

    def __init__(self, r):
        runs = r.get("runs") or []
        spread = r.get("spread") or {}
        self.n = len(runs)
        self.metric = r["headline"]
        self.median = r.get(self.metric)
        if runs:
            self.lo, self.hi = min(runs), max(runs)
            if not is_number(self.median):
                self.median = statistics.median(runs)
        else:
            self.lo, self.hi = spread.get("min"), spread.get("max")
        rel = spread.get("rel_spread")
        if not is_number(rel):
            rel = None
            if self.lo is not None and self.hi is not None and self.median:
                rel = (self.hi - self.lo) / abs(self.median)
        self.rel = rel

    @property
    def large(self):
        return self.rel is not None and self.rel > LARGE_SPREAD

    def range_in(self, metric):
        """min-max as text in METRIC's display units, or with its own unit."""
        if self.metric == metric:
            return rng(self.lo, self.hi, metric_scale(metric))
        if self.lo is None:
            return DASH
        return rng(self.lo, self.hi, metric_scale(self.metric)) + " " + metric_label(self.metric)
