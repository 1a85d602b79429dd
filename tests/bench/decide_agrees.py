#!/usr/bin/python3
"""decide_agrees.py - bench/decide.c and the report's stats.py give the same intervals and verdicts.

    /usr/bin/python3 decide_agrees.py TEST_DECIDE

TEST_DECIDE is tests/bench/test_decide (bench/decide.c on values from stdin).
hotline-bench --until-decided stops when decide.c says a question is decided;
the report judges the same values with stats.py.  Both must agree on:

  * the interval's rank k, its ends and its level, for every n from 1 to 60
    and for a few larger n (100, 200, 400, 1000), values in shuffled order;
  * the bimodality flag, the verdict and its why, for the paired series of
    tests/report/fixtures/verdicts.json (every pair of contend results at one
    thread count), zero.json's and refcount.json's ratio_runs, zero.json's
    ratios to the store bandwidth limit (the larger of two bases in each
    repetition, criteria.ZERO_BANDWIDTH), and a few made
    to be bimodal or tied, each against thresholds at every value, between
    every two, beyond both ends, in both directions, and with no threshold.

Exit status 0 when they agree everywhere; otherwise every difference is
printed (the first 30), with the values.
"""

import json
import math
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from hotline_report import criteria, stats  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "report", "fixtures")


def fixture_series():
    """[values]: the paired series of the report's fixtures."""
    out = []
    with open(os.path.join(FIXTURES, "verdicts.json")) as f:
        rs = [r for r in json.load(f)["results"] if r.get("scenario") == "contend"]
    for a in rs:
        for b in rs:
            if a is not b and a.get("threads") == b.get("threads"):
                vals = criteria.side_by_side(a, b)
                if vals:
                    out.append(vals)
    with open(os.path.join(FIXTURES, "zero.json")) as f:
        rs = json.load(f)["results"]
    # the store bandwidth limit's ratios: to the larger of two bases in each repetition
    llc = next((r["llc_bytes"] for r in rs if isinstance(r.get("llc_bytes"), int)), None)
    out += [p.values for p in criteria.zero_pairs(rs, criteria.ZERO_BANDWIDTH, llc)]
    for name in ("zero.json", "refcount.json"):
        with open(os.path.join(FIXTURES, name)) as f:
            for r in json.load(f)["results"]:
                rr = r.get("ratio_runs")
                if isinstance(rr, list) and rr and all(isinstance(x, (int, float)) for x in rr):
                    out.append([float(x) for x in rr])
    # Made to be bimodal (clusters far apart, one threshold between them), tied, constant.
    out += [[0.30, 0.32, 0.70, 0.71, 0.72], [1.0, 1.01, 1.02, 2.0, 2.01, 2.02],
            [1.0, 1.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.5] * 7,
            [1.0, 1.1, 1.0, 1.1, 5.0, 5.1, 5.0], [-3.0, -2.9, 2.9, 3.0, 3.1]]
    return out


def thresholds(vals):
    """Thresholds at every value, between every two, beyond both ends."""
    x = sorted(set(vals))
    ts = list(x) + [(p + q) / 2 for p, q in zip(x, x[1:])]
    span = (x[-1] - x[0]) or abs(x[0]) or 1.0
    return ts + [x[0] - span, x[-1] + span]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    rnd = random.Random(16)
    cases = []          # (values, threshold or None, higher, check the rank)
    for n in list(range(1, 61)) + [100, 200, 400, 1000]:
        v = [float(i) for i in range(n)]
        rnd.shuffle(v)
        cases.append((v, None, True, True))
    for vals in fixture_series():
        cases.append((vals, None, True, False))
        for t in thresholds(vals):
            for higher in (True, False):
                cases.append((vals, t, higher, False))
    text = "".join(f"{'nan' if t is None else repr(t)} {int(h)} {' '.join(map(repr, v))}\n"
                   for v, t, h, _ in cases)
    run = os.environ.get("HOTLINE_TARGET_RUN", "")  # an emulator in a cross build
    p = subprocess.run(([run] if run else []) + [sys.argv[1]], input=text, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        print(f"FAIL: {sys.argv[1]} exited {p.returncode}: {p.stderr}")
        return 1
    lines = p.stdout.splitlines()
    bad = []
    if len(lines) != len(cases):
        print(f"FAIL: expected {len(cases)} lines from {sys.argv[1]}, got {len(lines)}")
        return 1
    for (v, t, h, rank), line in zip(cases, lines):
        k, lo, hi, level, bimodal, verdict, *why = line.split("\t")
        why = why[0] if why else ""
        lo, hi, level = float(lo), float(hi), float(level)
        plo, phi, plevel = stats.median_interval(v)
        c = stats.Comparison(v, t, h)
        want = (plo, phi, plevel, c.split is not None, c.verdict or "none", c.why)
        same = ((plo is None and math.isnan(lo) and math.isnan(hi)) or
                (plo == lo and phi == hi)) and abs(plevel - level) < 1e-12
        if rank and len(v) >= 2:
            # values 0..n-1: the interval's low end is x(k) = k - 1
            same = same and int(k) == int(plo) + 1
        same = same and want[3:] == (bimodal == "1", verdict, why)
        if not same:
            bad.append(f"n={len(v)} threshold={t} higher={h}: C says k={k} [{lo}, {hi}] "
                       f"{level} bimodal={bimodal} {verdict!r} {why!r}; stats.py says "
                       f"[{plo}, {phi}] {plevel} bimodal={want[3]} {want[4]!r} {want[5]!r}; "
                       f"values {v}")
    for b in bad[:30]:
        print("FAIL:", b)
    if bad:
        print(f"FAIL: {len(bad)} of {len(cases)} cases differ")
        return 1
    print(f"decide.c and stats.py agree on {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
