#!/usr/bin/python3
"""test_machines.py - two machines' files: the summary's columns, the same ratio plots.

    /usr/bin/python3 test_machines.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report.  fixtures/verdicts.json is contend on an AMD
EPYC 9B14 (x86_64, 2 CPUs); fixtures/machine-arm64.json is the same with its
env an aarch64 machine, "ThunderX2-like" (Cavium, 4 CPUs), and other runs:
refcount / atomic_faa at 2 threads 0.80 (does not hold; x86: 1.00, holds),
lockref / cas_loop at 2 threads 0.95 (holds; x86: 0.70, does not hold), no
qspinlock (that row: x86 alone), and refcount-timing results, refcount 1.20x
atomic (those rows: aarch64 alone).  "Machines compared" (machines.py): the
contend ratios vs threads, both machines on one plot.
"""

import json
import os
import sys
import unittest

sys.dont_write_bytecode = True

from reportlib import fixture  # noqa: E402
import reportlib  # noqa: E402

TOOL = None          # set from argv in __main__

X86 = "AMD EPYC 9B14 (x86_64)"
ARM = "ThunderX2-like (aarch64)"
DASH = "\u2014"


def run_report(paths, out, env):
    return reportlib.run_report(TOOL, paths, out, env)


def summary(md):
    """(header cells, {measure: cells}) of the summary table."""
    start = md.index("## Summary")
    head, rows = None, {}
    for line in md[start:].splitlines()[1:]:
        if not line.startswith("|"):
            if head:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
        elif cells[1] != "---":
            rows[cells[1]] = cells
    return head, rows


class TwoMachinesTests(reportlib.ReportCase):
    TMP_PREFIX = "hotline-machines-test-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.md, cls.app = cls.render("two", [fixture("verdicts.json"),
                                             fixture("machine-arm64.json")])
        cls.head, cls.rows = summary(cls.md)

    def row(self, rows, measure):
        hit = [c for m, c in rows.items() if m.startswith(measure)]
        self.assertEqual(len(hit), 1, f"one summary row for {measure!r}; rows: {list(rows)}")
        return hit[0]

    def test_machines_are_columns(self):
        self.assertEqual(self.head, ["question", "measure", f"{X86}: median [interval]",
                                     "verdict", f"{ARM}: median [interval]", "verdict",
                                     "published"])
        self.assertIn("## Summary: the questions, answered on each machine", self.md)
        self.assertIn(f"**{X86}** (", self.md)
        self.assertIn(f"**{ARM}** (", self.md)
        self.assertIn("The contention ratios at every thread count, the machines on one plot: "
                      "the contend section below, and \"Machines compared\" in the appendix.",
                      self.md)
        self.assertEqual(self.md.splitlines()[2],
                         "Machines: AMD EPYC 9B14 (AuthenticAMD), 2 CPUs, x86_64; "
                         "ThunderX2-like (Cavium), 4 CPUs, aarch64.")

    def test_figures_from_the_right_file(self):
        r = self.row(self.rows, "refcount / atomic_faa ops/s, 2 threads")
        self.assertEqual(r[2], "1.00x [0.99x, 1.01x] 2 threads on 2 CPUs")
        self.assertEqual(r[3], "**holds** (\u2265 0.95x)")
        self.assertEqual(r[4], "0.80x [0.79x, 0.81x] 2 threads on 4 CPUs")
        self.assertEqual(r[5], "**does not hold** (\u2265 0.95x)")
        r = self.row(self.rows, "lockref / cas_loop ops/s, 2 threads")
        self.assertEqual(r[2:6], ["0.70x [0.70x, 0.70x] 2 threads on 2 CPUs",
                                  "**does not hold** (\u2265 0.85x)",
                                  "0.95x [0.94x, 0.96x] 2 threads on 4 CPUs",
                                  "**holds** (\u2265 0.85x)"])

    def test_one_machine_answers_a_dash_for_the_other(self):
        r = self.row(self.rows, "qspinlock / pthread_mutex ops/s")
        self.assertTrue(r[2].startswith("0.70x [0.30x, 0.72x] 8 threads on 2 CPUs"), r)
        self.assertEqual(r[4:6], [DASH, DASH])
        r = self.row(self.rows, "refcount / atomic time, one thread")
        self.assertEqual(r[2:4], [DASH, DASH])
        self.assertTrue(r[4].startswith("1.20x [1.19x, 1.22x]"), r)
        self.assertEqual(r[5], "**does not hold** (\u2264 1.05x)")
        self.assertIn("published on arm64", r[6])

    def test_on_the_first_screen(self):
        lines = self.md.splitlines()
        last = max(i for i, l in enumerate(lines) if l.startswith("| Does the queued lock"))
        self.assertLess(last, 40, "the summary table ends within the first 40 lines")

    def test_ratio_plots(self):
        """"Machines compared": each contend question's ratio vs threads, both machines on one
        plot, and its table; a dash row for the machine without the subject."""
        sec = self.app[self.app.index("## Machines compared"):]
        sec = sec[:sec.find("\n## ", 1)]
        out = os.path.join(self.tmp, "two")
        for s, b in (("refcount", "atomic_faa"), ("refcount_full", "atomic_faa"),
                     ("lockref", "cas_loop"), ("qspinlock", "pthread_mutex")):
            name = f"machines-{s}-{b}.png"
            self.assertIn(f"]({name})", sec)
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertIn(f"| {X86} | 0.99x [0.99, 0.99] | 1.00x [0.99, 1.01] |", sec)
        self.assertIn(f"| {ARM} | 0.99x [0.99, 0.99] | 0.80x [0.79, 0.81] |", sec)
        self.assertIn(f"| {ARM} | 0.95x [0.95, 0.95] | 0.95x [0.94, 0.96] |", sec)
        self.assertIn(f"| {ARM} | {DASH} | {DASH} | {DASH} | {DASH} |", sec)

    def test_order_follows_the_files(self):
        md = run_report([fixture("machine-arm64.json"), fixture("verdicts.json")],
                        os.path.join(self.tmp, "swapped"), self.env)
        head, rows = summary(md)
        self.assertEqual(head[2], f"{ARM}: median [interval]")
        self.assertEqual(head[4], f"{X86}: median [interval]")
        r = self.row(rows, "refcount / atomic_faa ops/s, 2 threads")
        self.assertTrue(r[2].startswith("0.80x"), r)
        self.assertTrue(r[4].startswith("1.00x"), r)

    def test_one_machine_two_files_one_column(self):
        """Two files with the same env are one machine: the single-machine table."""
        with open(fixture("verdicts.json")) as f:
            data = json.load(f)
        path = os.path.join(self.tmp, "again.json")
        with open(path, "w") as f:
            json.dump(data, f)
        md = run_report([fixture("verdicts.json"), path], os.path.join(self.tmp, "same"),
                        self.env)
        head, _ = summary(md)
        self.assertEqual(head[2:5], ["this machine: median [interval]", "verdict", "published"])
        self.assertIn("## Summary: the questions, answered on this machine", md)
        self.assertNotIn("## Machines compared", md)


class MachinesUnitTests(unittest.TestCase):
    """summary.machines() and short_name() called directly."""

    class Doc:
        def __init__(self, env, path, simulated=False):
            self.env, self.path, self.simulated = env, path, simulated

    def test_grouping_and_names(self):
        from hotline_report import summary
        a = self.Doc({"cpu": "X", "arch": "x86_64", "cpus": 2}, "a.json")
        b = self.Doc({"cpu": "Y", "arch": "aarch64", "cpus": 4}, "b.json")
        a2 = self.Doc({"cpu": "X", "arch": "x86_64", "cpus": 2}, "a2.json")
        sim = self.Doc({"cpu": "Z"}, "s.json", simulated=True)
        got = summary.machines([a, sim, b, a2])
        self.assertEqual([(n, [d.path for d in ds]) for n, ds in got],
                         [("X (x86_64)", ["a.json", "a2.json"]), ("Y (aarch64)", ["b.json"])])
        # same CPU and arch, different CPU counts: named in full
        c = self.Doc({"cpu": "X", "arch": "x86_64", "cpus": 8}, "c.json")
        self.assertEqual([n for n, _ in summary.machines([a, c])],
                         ["X, 2 CPUs, x86_64", "X, 8 CPUs, x86_64"])
        self.assertEqual(summary.short_name({}), "CPU not recorded")


if __name__ == "__main__":
    TOOL = reportlib.tool_argument()
    unittest.main(verbosity=2)
