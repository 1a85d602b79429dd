#!/usr/bin/python3
"""test_lookups.py - issue 19's lookups in the report: rcuref's criteria and the simulated ratio.

    /usr/bin/python3 test_lookups.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report.  The files are made here from fixtures/verdicts.json (five
repetitions) with known answers: the contend subjects rcuref, refcount_inc_not_zero and
lockref_get_not_dead added at every thread count, their runs set from atomic_faa's so that,
paired per repetition at 2 threads,

    rcuref / atomic_faa                   0.97 0.98 0.99 0.99 1.00   holds (>= 0.95x)
    rcuref / refcount_inc_not_zero        1.18 1.20 1.21 1.22 1.25   does not hold (>= 1.3x)
    lockref_get_not_dead / rcuref         0.79 0.80 0.80 0.81 0.82   a figure, no threshold

and a simulated thunderx2 file (fixtures/full-sim-thunderx2.json) with rcuref and
refcount_inc_not_zero at 224 threads added, 8.8 and 0.88 Mops/s: 10.00x.  The unedited files
(an older bench, an older hotline-sim) must say in one line what they cannot answer.
"""

import copy
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True

from reportlib import fixture  # noqa: E402
import reportlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))
from hotline_report import criteria  # noqa: E402

# per repetition k: rcuref = atomic_faa x A[k]; refcount_inc_not_zero = rcuref / B[k];
# lockref_get_not_dead = rcuref x C[k] (the order of the values is scrambled on purpose)
A = (0.99, 0.97, 1.00, 0.98, 0.99)
B = (1.21, 1.18, 1.25, 1.20, 1.22)
C = (0.80, 0.82, 0.79, 0.80, 0.81)

FACTS = {
    "rcuref": {"kind": "atomic", "description": "hl_rcuref_get + hl_rcuref_put",
               "baseline": "atomic_faa", "variant_of": None, "variant": None, "loop": False,
               "counts_attempts": False, "retry_limit": None, "fallback": False, "relax": None,
               "library": True},
    "refcount_inc_not_zero": {"kind": "cas_loop",
                              "description": "hl_refcount_inc_not_zero + dec_and_test",
                              "baseline": "refcount", "variant_of": None, "variant": None,
                              "loop": True, "counts_attempts": False, "retry_limit": None,
                              "fallback": False, "relax": "never", "library": True},
    "lockref_get_not_dead": {"kind": "lockref",
                             "description": "hl_lockref_get_not_dead + put_return, else the lock",
                             "baseline": "rcuref", "variant_of": None, "variant": None,
                             "loop": True, "counts_attempts": False, "retry_limit": 100,
                             "fallback": True, "relax": "never", "library": True},
}


def _scaled(r, subject, factors):
    out = copy.deepcopy(r)
    out["subject"] = subject
    out["runs"] = [x * f for x, f in zip(r["runs"], factors)]
    out["ops_per_sec"] = sorted(out["runs"])[len(out["runs"]) // 2]
    out["ns_per_op"] = 1e9 / out["ops_per_sec"] * r["threads"]
    out["spread"] = None
    return out


def bench_doc():
    """verdicts.json with the three lookups added (known answers above)."""
    with open(fixture("verdicts.json")) as f:
        d = json.load(f)
    for s, fact in FACTS.items():
        d["subjects"]["contend"][s] = fact
    add = []
    for r in d["results"]:
        if r["scenario"] != "contend" or r["subject"] != "atomic_faa":
            continue
        rcu = _scaled(r, "rcuref", A)
        add += [rcu, _scaled(rcu, "refcount_inc_not_zero", [1 / b for b in B]),
                _scaled(rcu, "lockref_get_not_dead", C)]
    d["results"] += add
    return d


def sim_doc():
    """full-sim-thunderx2.json with rcuref and refcount_inc_not_zero at 224 threads: 10x."""
    with open(fixture("full-sim-thunderx2.json")) as f:
        d = json.load(f)
    faa = next(r for r in d["results"] if r["subject"] == "atomic_faa" and r["threads"] == 224)
    for s, ops in (("rcuref", 8.8e6), ("refcount_inc_not_zero", 0.88e6)):
        r = copy.deepcopy(faa)
        r.update(subject=s, ops_per_sec=ops, ns_per_op=1e9 / ops, runs=[ops])
        d["results"].append(r)
        d.setdefault("subjects", {}).setdefault("contend", {})[s] = FACTS[s]
    return d


class ToolCase(reportlib.ReportCase):
    TMP_PREFIX = "hotline-lookups-test-"


def summary_row(md, measure):
    start = md.index("## Summary")
    hits = [l for l in md[start:].splitlines() if l.startswith("|") and f"| {measure}" in l]
    return hits


class LookupReportTests(ToolCase):
    """The new criteria and summary rows, from the edited bench file and simulated file."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.bench = os.path.join(cls.tmp, "lookups.json")
        with open(cls.bench, "w") as f:
            json.dump(bench_doc(), f)
        cls.sim = os.path.join(cls.tmp, "sim-thunderx2.json")
        with open(cls.sim, "w") as f:
            json.dump(sim_doc(), f)
        cls.md, cls.app = cls.render("both", [cls.bench, cls.sim])
        cls.rows = reportlib.summary_rows(cls.md)

    def test_rcuref_over_atomic_faa_holds(self):
        self.assertRowHas("rcuref / atomic_faa ops/s, 2 threads",
                          "0.99x [0.97x, 1.00x] 2 threads on 2 CPUs",
                          "**holds** (\u2265 0.95x)")

    def test_rcuref_over_inc_not_zero_does_not_hold(self):
        self.assertRowHas("rcuref / refcount_inc_not_zero (the cmpxchg lookup) ops/s, 2 threads",
                          "1.21x [1.18x, 1.25x] 2 threads on 2 CPUs",
                          "**does not hold** (\u2265 1.3x)")

    def test_lockref_get_not_dead_over_rcuref_a_figure(self):
        self.assertRowHas("lockref_get_not_dead / rcuref ops/s, 2 threads",
                          "0.80x [0.79x, 0.82x]",
                          "a figure (no threshold)")

    def test_one_question_side_by_side(self):
        q = "Is get-unless-dead one atomic add (rcuref)?"
        self.assertEqual(sum(1 for l in self.md.splitlines() if l.startswith(f"| {q} |")), 1)

    def test_done_criteria_rows(self):
        sec = self.app[self.app.index("#### Done criteria"):]
        for text, verdict in (("rcuref \u2265 0.95x atomic_faa at 2 threads", "**met**"),
                              ("rcuref \u2265 1.3x refcount_inc_not_zero at 2 threads",
                               "**not met**")):
            line = next((l for l in sec.splitlines() if text in l), None)
            self.assertIsNotNone(line, f"a done-criteria row {text!r}")
            self.assertIn(verdict, line)
        self.assertIn("the median of 5 side-by-side repetitions", sec)

    def test_simulated_224_thread_ratio_in_summary(self):
        summary = self.md[self.md.index("## Summary"):self.md.index("\n## ", self.md.index(
            "## Summary") + 1)]
        self.assertIn("at 224 threads rcuref's get+put has 10.00x refcount_inc_not_zero's "
                      "throughput; the claim is an order of magnitude (about 10x). A model's "
                      "figure, not a verdict on any machine.", summary)
        self.assertIn("hotline-sim's thunderx2 model", summary)

    def test_manycore_table_column(self):
        sec = self.md[self.md.index("## Many-core machines (simulated)"):]
        head = next(l for l in sec.splitlines() if l.startswith("| preset"))
        self.assertIn("rcuref / refcount_inc_not_zero", head)
        row = next(l for l in sec.splitlines() if l.startswith("| [thunderx2]"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        cols = [c.strip() for c in head.strip("|").split("|")]
        self.assertEqual(cells[cols.index("rcuref / refcount_inc_not_zero")], "10.00x")

    def test_contend_sentence_sets_rcuref_beside_its_baseline(self):
        self.assertIn("rcuref reaches 0.99x atomic_faa's throughput", self.app)


class OlderFileTests(ToolCase):
    """Files from before issue 19: one line for what they cannot answer, no crash, no row."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.md, cls.app = cls.render("old", [fixture("verdicts.json"),
                                             fixture("full-sim-thunderx2.json")])

    def test_no_lookup_rows(self):
        self.assertEqual(summary_row(self.md, "rcuref /"), [])
        self.assertNotIn("Is get-unless-dead one atomic add", self.md)

    def test_criteria_not_checked_in_one_line(self):
        sec = self.app[self.app.index("#### Done criteria"):]
        for c in criteria.CRITERIA[4:6]:
            lines = [l for l in sec.splitlines() if c["text"] in l]
            self.assertEqual(len(lines), 1, c["text"])
            self.assertIn("not checked", lines[0])
            self.assertIn("no 2-thread rcuref result in this file", lines[0])

    def test_older_sim_one_line(self):
        lines = [l for l in self.md.splitlines() if "no simulated rcuref / "
                 "refcount_inc_not_zero figure" in l]
        self.assertEqual(len(lines), 1)
        self.assertIn("has no 224-thread rcuref and refcount_inc_not_zero runs", lines[0])


if __name__ == "__main__":
    reportlib.tool_argument()
    unittest.main(verbosity=2)
