"""Paired-repetition statistics that say when they cannot tell: intervals, verdicts, bimodality.

Every headline comparison of the summary is a list of paired values, one per
repetition: hotline-bench interleaves its subjects (repetition i of the
subject and of its baseline run side by side), so value i is subject run i
over baseline run i (or, for a time budget, subject minus baseline).  The
summary gives their median with a confidence interval, and a three-valued
verdict from that interval against the question's threshold.

The interval: the exact distribution-free order-statistic interval for the
median (the binomial CDF, scipy.special.bdtr).  For n values sorted
x(1) <= ... <= x(n), the pair (x(k), x(n+1-k)) covers the true median
with probability 1 - 2 P(Bin(n, 1/2) <= k - 1), whatever the distribution, provided the n
paired values are independent draws of the same thing.  We take the
narrowest such pair whose level is at least 95%; when no pair reaches it
(n <= 5: with n = 5, the widest pair, min and max, gives 1 - 2/32 = 93.75%)
we take the widest and report the level it achieves.  Why not a bootstrap
(scipy.stats.bootstrap): with the 3 to 5 repetitions the bench takes, the
bootstrap distribution of a median takes a handful of values and its
percentile interval covers the truth far less often than its nominal 95%;
the order-statistic interval is exact at any n, needs no random numbers (the
same file gives the same report) and states honestly the level it reaches.

A verdict is one of HOLDS, DOES_NOT_HOLD and CANNOT_TELL:

  * holds when the whole interval is on the claim's side of the threshold,
  * does not hold when the whole interval is on the other side,
  * cannot tell at this noise when the interval straddles the threshold,
    when it reaches less than MIN_LEVEL (fewer than 5 repetitions), or when
    the values split into two clusters (bimodal, below) on both sides of it.

A fourth, NOT_REACHED, is never a Comparison's: a summary row gives it when the
run never exercised what the claim is about, whatever the interval says (the
retry limit's row, when no operation reached the limit: lockref_sweep.py).  The
figure and its interval stay; the verdict says the claim was not tested.

Bimodality: a gap test.  Sort the values and take the largest gap between
neighbours; the series is bimodal when each side holds at least two values,
and the gap is more than GAP_K times the wider side's range and more than
GAP_MIN_REL of the median (so that identical values are not "bimodal").  It
is a flag for a person to look at (a machine that changed state during the
run), not a test with a stated error rate.

numpy and scipy: Debian's python3-numpy and python3-scipy (scripts/deps.sh).
"""

try:
    import numpy as np
    from scipy.special import bdtr  # the binomial CDF; scipy.stats costs 3x the import time
except ImportError as e:
    raise ImportError(f"{e}: install Debian's python3-numpy and python3-scipy "
                      "(scripts/deps.sh)") from None

LEVEL = 0.95        # the level asked of every interval
MIN_LEVEL = 0.90    # below this (n <= 4), no verdict: cannot tell
GAP_K = 2.0         # bimodal: the gap exceeds GAP_K x the wider cluster's range ...
GAP_MIN_REL = 0.05  # ... and GAP_MIN_REL of the median

HOLDS = "holds"
DOES_NOT_HOLD = "does not hold"
CANNOT_TELL = "cannot tell at this noise"
# The run never exercised what the claim is about (set by a summary row, not by Comparison).
NOT_REACHED = "not tested here"


def median_interval(values, level=LEVEL):
    """(lo, hi, achieved level) of the order-statistic interval for the median of VALUES.

    The narrowest symmetric pair of order statistics reaching LEVEL, else the widest (min,
    max) with the level it achieves; (None, None, 0.0) for fewer than two values."""
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n < 2:
        return None, None, 0.0
    best = None
    for k in range(1, n // 2 + 1):      # k = 1 is (min, max), the widest
        achieved = 1.0 - 2.0 * float(bdtr(k - 1, n, 0.5))
        if k == 1 or achieved >= level:
            best = (float(x[k - 1]), float(x[n - k]), float(achieved))
        if achieved < level:
            break
    return best


def bimodal(values):
    """(low cluster, high cluster) when VALUES split into two by the gap test, else None."""
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n < 4:
        return None
    gaps = np.diff(x)
    i = int(np.argmax(gaps))            # the gap is between x[i] and x[i + 1]
    low, high = x[:i + 1], x[i + 1:]
    if len(low) < 2 or len(high) < 2:
        return None
    spread = max(low[-1] - low[0], high[-1] - high[0])
    med = abs(float(np.median(x)))
    if gaps[i] > GAP_K * spread and gaps[i] > GAP_MIN_REL * med:
        return [float(v) for v in low], [float(v) for v in high]
    return None


class Comparison:
    """Paired values (one per repetition) judged against a threshold.

    VALUES: the paired values; THRESHOLD: the figure the claim is about (None: a figure with
    no claim, no verdict); HIGHER: the claim is value >= threshold (else value <= threshold).
    SERIES: other series to test for bimodality (the subject's and the baseline's runs)."""

    def __init__(self, values, threshold=None, higher=True, series=()):
        self.values = [float(v) for v in values]
        self.n = len(self.values)
        self.median = float(np.median(self.values)) if self.values else None
        self.lo, self.hi, self.level = median_interval(self.values)
        self.threshold, self.higher = threshold, higher
        self.split = bimodal(self.values)
        self.bimodal_series = any(bimodal(s) for s in series if s)
        self.verdict, self.why = self._verdict()

    def _holds(self, v):
        return v >= self.threshold if self.higher else v <= self.threshold

    def _verdict(self):
        if self.threshold is None:
            return None, ""
        if self.n < 2:
            return CANNOT_TELL, "one repetition: no interval"
        if self.level < MIN_LEVEL:
            return CANNOT_TELL, (f"{self.n} repetitions: the interval reaches only "
                                 f"{self.level:.1%}")
        if self.split and self._holds(max(self.split[0])) != self._holds(min(self.split[1])):
            return CANNOT_TELL, "its two clusters lie on both sides of the threshold"
        lo, hi = self._holds(self.lo), self._holds(self.hi)
        if lo and hi:
            return HOLDS, ""
        if not lo and not hi:
            return DOES_NOT_HOLD, ""
        return CANNOT_TELL, "the interval straddles the threshold"

    def notes(self):
        """Words on the series' shape: bimodal ratios or runs (empty when none)."""
        out = []
        if self.split:
            a, b = self.split
            out.append(f"bimodal: {len(a)} values at {_span(a)} and {len(b)} at {_span(b)}")
        elif self.bimodal_series:
            out.append("the runs are bimodal")
        return out


def _span(v):
    return f"{v[0]:.2f}" if len(v) == 1 or v[0] == v[-1] else f"{v[0]:.2f}\u2013{v[-1]:.2f}"


def combine(comparisons):
    """One verdict over several (a claim that must hold at each): does not hold if it does not
    at one, holds if it holds at all, cannot tell if it cannot at one, else (holds where
    tested, not tested at the others) not tested here.  None when none has a verdict."""
    verdicts = [c.verdict for c in comparisons if c.verdict is not None]
    if not verdicts:
        return None
    if DOES_NOT_HOLD in verdicts:
        return DOES_NOT_HOLD
    if all(v == HOLDS for v in verdicts):
        return HOLDS
    if CANNOT_TELL in verdicts:
        return CANNOT_TELL
    return NOT_REACHED
