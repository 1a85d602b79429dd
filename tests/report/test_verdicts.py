#!/usr/bin/python3
"""test_verdicts.py - the summary's intervals and three-valued verdicts, its place, its machine.

    /usr/bin/python3 test_verdicts.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report.  fixtures/verdicts.json is contend.json with five
repetitions on an AMD machine, edited so that, paired per repetition,
refcount / atomic_faa at 2 threads is clearly at 1.00 (holds, >= 0.95),
lockref / cas_loop at 2 threads clearly at 0.70 (does not hold, >= 0.85), and
qspinlock / pthread_mutex at 8 threads bimodal around the threshold: 0.30,
0.32 and 0.70, 0.71, 0.72 (cannot tell, >= 0.5).  The stats module
(hotline_report/stats.py) is also called directly.
"""

import json
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True

from reportlib import fixture  # noqa: E402
import reportlib  # noqa: E402

TOOL = None          # set from argv in __main__

# Words that name a machine (CPU vendors, models, classes) or a published figure's machine.
MACHINE_WORDS = ("Intel", "Xeon", "AMD", "EPYC", "Emerald Rapids", "Sapphire Rapids", "Zen",
                 "Neoverse", "Ampere", "ThunderX2", "Graviton", "Cascade Lake", "VM", "2 cores",
                 "machine kind")


def run_report(paths, out, env):
    return reportlib.run_report(TOOL, paths, out, env)


def summary_rows(md):
    """{measure: row text} of the summary table (the first table after its heading)."""
    start = md.index("## Summary")
    rows = {}
    for line in md[start:].splitlines()[2:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 2 and cells[1] not in ("measure", "---"):
            rows[cells[1]] = line
    return rows


class ToolCase(reportlib.ReportCase):
    TMP_PREFIX = "hotline-verdicts-test-"


class VerdictReportTests(ToolCase):
    """The three verdicts, from fixtures/verdicts.json, in the summary table."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.md = run_report([fixture("verdicts.json")], os.path.join(cls.tmp, "v"), cls.env)
        cls.app = reportlib.appendix(os.path.join(cls.tmp, "v"))
        cls.rows = summary_rows(cls.md)

    def row(self, measure):
        hit = [r for m, r in self.rows.items() if m.startswith(measure)]
        self.assertEqual(len(hit), 1, f"one summary row for {measure!r}; rows: {self.rows}")
        return hit[0]

    def test_clear_result_holds(self):
        r = self.row("refcount / atomic_faa ops/s, 2 threads")
        self.assertIn("1.00x [0.99x, 1.01x]", r)
        self.assertIn("**holds** (\u2265 0.95x)", r)

    def test_clearly_below_does_not_hold(self):
        r = self.row("lockref / cas_loop ops/s, 2 threads")
        self.assertIn("0.70x [0.70x, 0.70x]", r)
        self.assertIn("**does not hold** (\u2265 0.85x)", r)

    def test_bimodal_around_threshold_cannot_tell(self):
        r = self.row("qspinlock / pthread_mutex ops/s")
        self.assertIn("0.70x [0.30x, 0.72x] 8 threads on 2 CPUs", r)
        self.assertIn("**cannot tell at this noise** (\u2265 0.5x)", r)
        self.assertIn("bimodal: 2 values at 0.30\u20130.32 and 3 at 0.70\u20130.72", r)

    def test_level_said(self):
        self.assertIn("93.75% with 5 repetitions", self.md)

    def test_done_criteria_interval_column(self):
        sec = self.app[self.app.index("#### Done criteria"):]
        self.assertIn("| **met** | cannot tell at this noise (its two clusters lie on both "
                      "sides of the threshold) |", sec)
        self.assertIn("| **not met** | does not hold |", sec)

    def test_three_repetitions_cannot_tell(self):
        """contend.json has 3 repetitions: a 75% interval gives no verdict."""
        md = run_report([fixture("contend.json")], os.path.join(self.tmp, "c3"), self.env)
        r = [v for m, v in summary_rows(md).items() if m.startswith("lockref / cas_loop")][0]
        self.assertIn("**cannot tell at this noise** (\u2265 0.85x): 3 repetitions: the interval "
                      "reaches only 75.0%", r)


class FirstScreenTests(ToolCase):
    """Every section's data, all on one AMD machine: the summary in the first 40 lines, and no
    machine named that the env does not give, but as the machine a figure was published on."""

    AMD = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        with open(fixture("verdicts.json")) as f:
            cls.AMD = json.load(f)["env"]
        paths = []
        for name in ("refcount.json", "verdicts.json", "lockref_sweep.json", "zero.json"):
            with open(fixture(name)) as f:
                data = json.load(f)
            for k in ("cpu", "vendor", "flags"):
                data["env"][k] = cls.AMD[k]
            paths.append(os.path.join(cls.tmp, name))
            with open(paths[-1], "w") as f:
                json.dump(data, f)
        cls.md = run_report(paths, os.path.join(cls.tmp, "all"), cls.env)
        cls.app = reportlib.appendix(os.path.join(cls.tmp, "all"))

    def test_summary_on_first_screen(self):
        lines = self.md.splitlines()
        self.assertEqual(lines[0], "# hotline report")
        self.assertEqual(lines[2], "Machine: AMD EPYC 9B14 (AuthenticAMD), 2 CPUs, x86_64.")
        head = "\n".join(lines[:40])
        self.assertIn("## Summary", head)
        rows = summary_rows(self.md)
        last = max(i for i, l in enumerate(lines) if l in rows.values())
        self.assertLess(last, 40, "the summary table ends within the first 40 lines")
        for q in ("Is refcount as cheap as an atomic here?", "What does the cmpxchg refcount cost?",
                  "Is lockref as fast as a bare cmpxchg loop?", "Does the retry limit matter?",
                  "Does the queued lock survive oversubscription?", "Does hl_zero beat glibc?",
                  "Clearing vs copying a zero page?", "Does hl_try_zero cost nothing?"):
            self.assertIn(f"| {q} |", head)

    def test_published_beside(self):
        rows = summary_rows(self.md)
        r = [v for m, v in rows.items() if m.startswith("refcount / atomic time")][0]
        self.assertIn("| 1.00x, published on x86 (Kees Cook 2017) (docs/sources.md, refcount) |", r)
        r = [v for m, v in rows.items() if m.startswith("lockref (limit 100)")][0]
        self.assertIn("lockref-sweep", r)
        self.assertIn("published on ThunderX2 (docs/sources.md, lockref)", r)

    def test_no_machine_the_env_does_not_give(self):
        with open(os.path.join(os.path.dirname(TOOL), "..", "data", "published.json")) as f:
            pub = json.load(f)
        published = set()

        def walk(v):
            if isinstance(v, dict):
                for k, x in v.items():
                    if k in ("machine", "what") and isinstance(x, str):
                        published.add(x)
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
        walk(pub)
        text = self.md + "\n" + self.app   # report.md and its appendix: both say nothing else
        # A published figure may name its machine, as the machine it was published on.
        for m in sorted(published, key=len, reverse=True):
            text = re.sub(r"(?i)published on " + re.escape(m), "published on <M>", text)
        text = text.replace("docs/sources.md, This project's machine kind", "<source>")
        env_text = " ".join(str(self.AMD.get(k, "")) for k in ("cpu", "vendor"))
        for word in MACHINE_WORDS:
            if word in env_text:
                continue
            for m in re.finditer(re.escape(word), text):
                line = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.end())]
                if word in ("ThunderX2", "Graviton", "Cascade Lake"):
                    # the kernel threads' machines: only ever as where a figure came from
                    self.assertRegex(line, r"on (a )?" + re.escape(word) + r"|" + re.escape(word)
                                     + r" \(|" + re.escape(word) + r"[^|]*(threads|locks took)",
                                     f"{word} named, not as a figure's machine: {line}")
                    continue
                self.fail(f"the report names {word!r}, which the env does not give: {line}")

    def test_old_machine_sentence_gone(self):
        self.assertNotIn("For this project's machine kind", self.md)
        self.assertNotIn("For this project's machine kind", self.app)
        self.assertIn("Published on an x86-64 VM, Emerald Rapids class, 2 cores "
                      "(docs/sources.md, This project's machine kind)", self.app)


class StatsUnitTests(unittest.TestCase):
    """hotline_report.stats called directly."""

    @classmethod
    def setUpClass(cls):
        from hotline_report import stats
        cls.s = stats

    def test_interval_five_is_min_max_at_93_75(self):
        lo, hi, level = self.s.median_interval([1.10, 1.03, 0.65, 1.03, 1.17])
        self.assertEqual((lo, hi), (0.65, 1.17))
        self.assertAlmostEqual(level, 0.9375)

    def test_interval_reaches_95_with_more(self):
        lo, hi, level = self.s.median_interval(list(range(1, 11)))
        self.assertEqual((lo, hi), (2.0, 9.0))     # k = 2: 1 - 2 * 11/1024 = 97.85%
        self.assertAlmostEqual(level, 1 - 2 * 11 / 1024)
        self.assertGreaterEqual(level, 0.95)

    def test_interval_one_value(self):
        self.assertEqual(self.s.median_interval([1.0]), (None, None, 0.0))

    def test_issue_example_not_met_any_more(self):
        """Issue 16: "refcount >= 0.95x atomic_faa: met" (1.03x) from 1.10, 1.03, 0.65, 1.03,
        1.17: the interval [0.65, 1.17] straddles 0.95."""
        c = self.s.Comparison([1.10, 1.03, 0.65, 1.03, 1.17], 0.95)
        self.assertEqual(c.verdict, self.s.CANNOT_TELL)
        self.assertEqual(c.why, "the interval straddles the threshold")
        self.assertIsNone(c.split, "one low value is an outlier, not a second mode")

    def test_issue_example_bimodal_runs(self):
        """Issue 16's lockref-sweep runs at 8 threads are bimodal."""
        self.assertEqual(self.s.bimodal([104.5, 99.2, 50.7, 60.3, 64.6]),
                         ([50.7, 60.3, 64.6], [99.2, 104.5]))
        c = self.s.Comparison([a / b for a, b in zip([104.5, 99.2, 50.7, 60.3, 64.6],
                                                      [103.9, 104.1, 56.6, 60.4, 102.5])],
                              0.9, series=([104.5, 99.2, 50.7, 60.3, 64.6],
                                           [103.9, 104.1, 56.6, 60.4, 102.5]))
        self.assertEqual(c.verdict, self.s.CANNOT_TELL)
        self.assertIn("the runs are bimodal", c.notes())

    def test_not_bimodal(self):
        self.assertIsNone(self.s.bimodal([1.0, 1.0, 1.0, 1.0, 1.0]))
        self.assertIsNone(self.s.bimodal([0.98, 0.99, 1.0, 1.01, 1.02]))
        self.assertIsNone(self.s.bimodal([1.0, 2.0, 3.0]))

    def test_three_verdicts(self):
        s = self.s
        self.assertEqual(s.Comparison([1.0, 1.01, 0.99, 1.02, 1.0], 0.95).verdict, s.HOLDS)
        self.assertEqual(s.Comparison([0.7, 0.71, 0.69, 0.7, 0.72], 0.85).verdict,
                         s.DOES_NOT_HOLD)
        self.assertEqual(s.Comparison([0.3, 0.32, 0.7, 0.71, 0.72], 0.5).verdict, s.CANNOT_TELL)
        # a ceiling (time, ns): value <= threshold
        self.assertEqual(s.Comparison([1.0, 1.01, 1.0, 1.02, 1.0], 1.05, higher=False).verdict,
                         s.HOLDS)
        self.assertEqual(s.Comparison([3.0, 3.1, 2.9, 3.0, 3.2], 2.0, higher=False).verdict,
                         s.DOES_NOT_HOLD)
        # bimodal with many repetitions, clusters across the threshold: cannot tell even if
        # the interval were narrow
        vals = [0.3] * 3 + [0.7] * 17
        self.assertEqual(s.Comparison(vals, 0.5).verdict, s.CANNOT_TELL)
        # too few repetitions
        c = s.Comparison([1.0, 1.0, 1.0], 0.5)
        self.assertEqual((c.verdict, c.why),
                         (s.CANNOT_TELL, "3 repetitions: the interval reaches only 75.0%"))
        self.assertIsNone(s.Comparison([1.0, 1.0, 1.0, 1.0, 1.0], None).verdict)

    def test_combine(self):
        s = self.s
        h = s.Comparison([1.0] * 5, 0.5)
        n = s.Comparison([0.1] * 5, 0.5)
        u = s.Comparison([0.1, 0.2, 0.9, 1.0, 1.1], 0.5)
        self.assertEqual(s.combine([h, h]), s.HOLDS)
        self.assertEqual(s.combine([h, u]), s.CANNOT_TELL)
        self.assertEqual(s.combine([h, u, n]), s.DOES_NOT_HOLD)
        self.assertIsNone(s.combine([]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_verdicts.py TOOL [TestClass ...] [unittest options]")
    TOOL = os.path.abspath(sys.argv[1])
    if not os.access(TOOL, os.X_OK):
        sys.exit(f"test_verdicts.py: {TOOL}: not an executable file")
    sys.path.insert(0, os.path.dirname(TOOL))
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
