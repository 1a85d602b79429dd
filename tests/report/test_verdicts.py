#!/usr/bin/python3
"""test_verdicts.py - the summary's intervals and verdicts, its place, its machine.

    /usr/bin/python3 test_verdicts.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report.  fixtures/verdicts.json is contend.json with five
repetitions on an AMD machine, edited so that, paired per repetition,
refcount / atomic_faa at 2 threads is clearly at 1.00 (holds, >= 0.95),
lockref / cas_loop at 2 threads clearly at 0.70 (does not hold, >= 0.85), and
qspinlock / pthread_mutex at 8 threads bimodal around the threshold: 0.30,
0.32 and 0.70, 0.71, 0.72 (cannot tell, >= 0.5).  The retry limit's row
(lockref at limit 100 / lockref_unbounded, >= 1.1x) on fixtures/lockref_sweep.json
and verdicts.json edited to 5 repetitions at 1.00x (sweep_file): "not tested here"
when no operation reached the limit, else judged by its interval.  The stats
module (hotline_report/stats.py) is also called directly.
"""

import json
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True

from reportlib import crit_rows, fixture, summary_rows  # noqa: E402
import reportlib  # noqa: E402

TOOL = None          # set from argv in __main__

# Words that name a machine (CPU vendors, models, classes) or a published figure's machine.
MACHINE_WORDS = ("Intel", "Xeon", "AMD", "EPYC", "Emerald Rapids", "Sapphire Rapids", "Zen",
                 "Neoverse", "Ampere", "ThunderX2", "Graviton", "Cascade Lake", "VM", "2 cores",
                 "machine kind")


class ToolCase(reportlib.ReportCase):
    TMP_PREFIX = "hotline-verdicts-test-"


class VerdictReportTests(ToolCase):
    """The three verdicts, from fixtures/verdicts.json, in the summary table."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.md, cls.app = cls.render("v", [fixture("verdicts.json")])
        cls.rows = summary_rows(cls.md)

    def test_clear_result_holds(self):
        self.assertRowHas("refcount / atomic_faa ops/s, 2 threads",
                          "1.00x [0.99x, 1.01x]",
                          "**holds** (\u2265 0.95x)")

    def test_clearly_below_does_not_hold(self):
        self.assertRowHas("lockref / cas_loop ops/s, 2 threads",
                          "0.70x [0.70x, 0.70x]",
                          "**does not hold** (\u2265 0.85x)")

    def test_bimodal_around_threshold_cannot_tell(self):
        self.assertRowHas("qspinlock / pthread_mutex ops/s",
                          "0.70x [0.30x, 0.72x] 8 threads on 2 CPUs",
                          "**cannot tell at this noise** (\u2265 0.5x)",
                          "bimodal: 2 values at 0.30\u20130.32 and 3 at 0.70\u20130.72")

    def test_level_said(self):
        self.assertIn("93.75% with 5 repetitions", self.md)

    def test_done_criteria_interval_column(self):
        sec = self.app[self.app.index("#### Done criteria"):]
        self.assertIn("| **met** | cannot tell at this noise (its two clusters lie on both "
                      "sides of the threshold) |", sec)
        self.assertIn("| **not met** | does not hold |", sec)

    def test_three_repetitions_cannot_tell(self):
        """contend.json has 3 repetitions: a 75% interval gives no verdict."""
        md, _ = self.render("c3", [fixture("contend.json")])
        r = [v for m, v in summary_rows(md).items() if m.startswith("lockref / cas_loop")][0]
        self.assertIn("**cannot tell at this noise** (\u2265 0.85x): 3 repetitions: the interval "
                      "reaches only 75.0%", r)


def sweep_file(path, fallback_rate, top, source="lockref_sweep.json", scenario="lockref-sweep"):
    """fixtures/SOURCE with lockref at limit 100 and lockref_unbounded at 8 threads (the most,
    on 2 CPUs) in SCENARIO run 5 times side by side at 0.99x-1.02x of each other (does not
    hold 1.1x), lockref's fallback_rate FALLBACK_RATE and most attempts per success TOP (each
    left out when None, as in a file from before them), written to PATH."""
    with open(fixture(source)) as f:
        data = json.load(f)
    base = [12.0e6, 12.1e6, 11.9e6, 12.2e6, 11.8e6]
    for r in data["results"]:
        if r["scenario"] != scenario or r["threads"] != 8:
            continue
        if r["subject"] == "lockref_unbounded":
            runs = base
        elif r["subject"] == "lockref" and r.get("retry_limit") == 100:
            runs = [b * k for b, k in zip(base, (1.0, 1.01, 0.99, 1.0, 1.02))]
            for key, v in (("fallback_rate", fallback_rate), ("attempts_per_success", top)):
                if v is None:
                    r.pop(key, None)
                elif key == "fallback_rate":
                    r[key] = v
                else:
                    r[key] = {"mean": 1.2, "p50": 1, "p99": 4, "max": v}
        else:
            continue
        r.update(runs=runs, ops_per_sec=sorted(runs)[2])
    with open(path, "w") as f:
        json.dump(data, f)
    return path


class RetryLimitReachedTests(ToolCase):
    """The retry limit's row: "not tested here" when no operation reached the limit (no
    fallback, fewer attempts per success than the limit), with the counts; judged by its
    interval as before when operations fell back, took the limit's attempts, or the file has
    no such counts."""

    SWEEP = "lockref (limit 100) / lockref_unbounded"
    FIGURE = "1.00x [0.99x, 1.02x] 8 threads, "
    CLAIM = "the claimed gain of \u2265 1.1x"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.got = {}
        for name, fb, top, src, scen in (
                ("unreached", 0.0, 15, "lockref_sweep.json", "lockref-sweep"),
                ("fallbacks", 0.0009, 44, "lockref_sweep.json", "lockref-sweep"),
                ("at-limit", 0.0, 100, "lockref_sweep.json", "lockref-sweep"),
                ("older", None, None, "lockref_sweep.json", "lockref-sweep"),
                ("contend", 0.0, 15, "verdicts.json", "contend")):
            path = sweep_file(os.path.join(cls.tmp, name + ".json"), fb, top, src, scen)
            md, _ = cls.render(name, [path])
            cls.got[name] = md

    def row(self, name):
        self.rows = summary_rows(self.got[name])
        return self.summary_row(self.SWEEP)

    def test_not_reached_not_tested(self):
        r = self.row("unreached")
        self.assertIn(self.FIGURE + "lockref-sweep", r)
        self.assertIn("**not tested here** (\u2265 1.1x); no operation reached the limit of 100 "
                      "(at most 15 attempts per success, no fallback in any of its 5 "
                      "repetitions): the limited and the unbounded loop ran the same code; the "
                      "claim needs more contention than 8 threads on 2 CPUs give", r)
        self.assertNotIn("does not hold", r)
        md = self.got["unreached"]
        self.assertIn("but no operation reached the limit (at most 15 attempts per success, no "
                      "fallback in any of its 5 repetitions): the limited and the unbounded loop "
                      f"ran the same code, so {self.CLAIM} is not tested here", md)
        self.assertNotIn(f"{self.CLAIM} does not hold", md)
        self.assertIn('It is "not tested here" when the run never did what the claim is about',
                      md)

    def test_not_reached_in_contend(self):
        """Without lockref-sweep, contend's lockref at its limit answers, with the same rule."""
        r = self.row("contend")
        self.assertIn(self.FIGURE + "contend", r)
        self.assertIn("**not tested here** (\u2265 1.1x); no operation reached the limit of 100 "
                      "(at most 15 attempts per success", r)

    def test_fallbacks_judged_by_the_interval(self):
        r = self.row("fallbacks")
        self.assertIn(self.FIGURE + "lockref-sweep", r)
        self.assertIn("**does not hold** (\u2265 1.1x)", r)
        self.assertNotIn("not tested", r)
        self.assertNotIn("reached the limit", r)
        md = self.got["fallbacks"]
        self.assertIn(f"the unbounded loop's throughput, so {self.CLAIM} does not hold", md)
        self.assertNotIn("but no operation reached", md)

    def test_limit_reached_without_fallback_judged(self):
        """An operation took the limit's 100 attempts: the limit was reached."""
        r = self.row("at-limit")
        self.assertIn("**does not hold** (\u2265 1.1x)", r)
        self.assertNotIn("reached the limit", r)

    def test_older_file_judged(self):
        """No fallback_rate or attempts_per_success: judged as before."""
        r = self.row("older")
        self.assertIn("**does not hold** (\u2265 1.1x)", r)
        self.assertNotIn("reached the limit", r)


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
        cls.md, cls.app = cls.render("all", paths)

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

    def test_combine_not_reached(self):
        """A row's fourth verdict (never a Comparison's): not tested where nothing else is
        against it or undecided."""
        s = self.s
        h = s.Comparison([1.0] * 5, 0.5)
        n = s.Comparison([0.1] * 5, 0.5)
        u = s.Comparison([0.1, 0.2, 0.9, 1.0, 1.1], 0.5)
        x = s.Comparison([1.0] * 5, 0.5)
        x.verdict = s.NOT_REACHED
        self.assertEqual(s.combine([x]), s.NOT_REACHED)
        self.assertEqual(s.combine([h, x]), s.NOT_REACHED)
        self.assertEqual(s.combine([u, x]), s.CANNOT_TELL)
        self.assertEqual(s.combine([n, x]), s.DOES_NOT_HOLD)
        self.assertNotIn(s.NOT_REACHED, (s.HOLDS, s.DOES_NOT_HOLD, s.CANNOT_TELL))


# -- issue 17's zero criteria, on synthetic files -----------------------------------------------

MIB = 1 << 20
LLC = 32 * MIB


def zero_result(subject, size, runs, mode="hot", llc=LLC):
    """A zero result of SUBJECT at SIZE with these GB/s RUNS (the median is the headline)."""
    return reportlib.sized_result("zero", subject, size, runs, mode, llc=llc,
                                  variant=subject if subject in ("nontemporal", "rep_stosb")
                                  else None)


def zero_file(path, results):
    """fixtures/zero.json's env and facts with RESULTS, written to PATH."""
    return reportlib.with_results("zero.json", path, results)


def geomean_results():
    """hl_zero / glibc_memset at 64 B: runs 1, 1, 1, 9, 9 (median 1); at 4 KiB: 9, 9, 1, 1, 1
    (median 1), and at 64 B two more repetitions (--until-decided) at 0.01.  Per repetition
    the geometric mean over the two sizes is 3, 3, 1, 3, 3: median 3.00x (the geometric mean
    of the sizes' medians would be 1.00x).  2 GiB (ratio 100) is outside 1 B to 1 GiB."""
    g = [10.0] * 5
    return [zero_result("hl_zero", 64, [10, 10, 10, 90, 90, 0.1, 0.1]),
            zero_result("glibc_memset", 64, g + [10, 10]),
            zero_result("hl_zero", 4096, [90, 90, 10, 10, 10]),
            zero_result("glibc_memset", 4096, g),
            zero_result("hl_zero", 2 << 30, [1000] * 5),
            zero_result("glibc_memset", 2 << 30, g)]


def bandwidth_results():
    """Above a 32 MiB LLC, at 64 MiB hot: nontemporal 20, 30, 20, 30, 20 (median 20) and
    rep_stosb 30, 20, 30, 20, 20 (median 20): the faster switches from one repetition to the
    next, and the limit per repetition is 30, 30, 30, 30, 20 (median 30).  hl_zero 24, 24,
    24, 24, 16: 0.80x of it in every repetition (does not hold at 0.90x), where against the
    larger median (20) it would be 1.20x and against nontemporal or rep_stosb alone, taken
    per repetition, 0.80x only at the median.  glibc_memset 15 throughout: 0.50x, 0.50x,
    0.50x, 0.50x, 0.75x.  Cold at 64 MiB: hl_zero 0.95x of a steady limit (holds)."""
    nt, rep = [20, 30, 20, 30, 20], [30, 20, 30, 20, 20]
    return [zero_result("nontemporal", 64 * MIB, nt), zero_result("rep_stosb", 64 * MIB, rep),
            zero_result("hl_zero", 64 * MIB, [24, 24, 24, 24, 16]),
            zero_result("glibc_memset", 64 * MIB, [15] * 5),
            zero_result("nontemporal", 64 * MIB, [20] * 5, "cold"),
            zero_result("rep_stosb", 64 * MIB, [10] * 5, "cold"),
            zero_result("hl_zero", 64 * MIB, [19] * 5, "cold"),
            zero_result("glibc_memset", 64 * MIB, [18] * 5, "cold"),
            # below the cache: not counted (hl_zero at 0.10x of the variants)
            zero_result("nontemporal", 16 * MIB, [50] * 5),
            zero_result("rep_stosb", 16 * MIB, [50] * 5),
            zero_result("hl_zero", 16 * MIB, [5] * 5),
            zero_result("glibc_memset", 16 * MIB, [5] * 5)]


class ZeroCriteriaUnitTests(unittest.TestCase):
    """Issue 17's zero criteria in criteria.py, on results with a known answer."""

    @classmethod
    def setUpClass(cls):
        from hotline_report import criteria
        cls.c = criteria

    def check(self, criterion, results, llc=LLC):
        i = self.c.ZERO_CRITERIA.index(criterion)
        return self.c.evaluate_zero(results, llc)[i]

    def test_geomean_per_repetition_known_answer(self):
        g, missing = self.c.geomean(geomean_results(), self.c.ZERO_GEOMEAN)
        self.assertIsNone(missing)
        self.assertEqual(g.sizes, [64, 4096])
        self.assertEqual(g.n, 5)        # the first 5 repetitions: 64 B's extra two are left out
        self.assertEqual([round(v, 12) for v in g.values], [3.0, 3.0, 1.0, 3.0, 3.0])
        self.assertAlmostEqual(g.value, 3.0)
        self.assertAlmostEqual(g.of_medians, 1.0)
        ck = self.check(self.c.ZERO_GEOMEAN, geomean_results())
        self.assertIs(ck.met, True)
        # [1, 3]: the 5 repetitions' interval (min, max) straddles 1.05
        self.assertEqual(ck.interval_verdict, "cannot tell at this noise")
        self.assertIn("= 3.00x over 2 sizes from 64 B to 4 KiB, each size weighted alike; the "
                      "median of 5 per-repetition geometric means, each over the first 5 "
                      "repetitions at every size (needs \u2265 1.05x); the geometric mean of "
                      "the sizes' own medians is 1.00x", ck.figures())

    def test_geomean_below_and_holds(self):
        rs = [zero_result("hl_zero", 64, [9.0, 9.1, 9.2, 9.3, 9.4]),
              zero_result("glibc_memset", 64, [10.0] * 5),
              zero_result("hl_zero", 4096, [10.0] * 5),
              zero_result("glibc_memset", 4096, [10.0] * 5)]
        ck = self.check(self.c.ZERO_GEOMEAN, rs)
        # sqrt(0.92 * 1) = 0.959...: not met, and the whole interval is below 1.05
        self.assertIs(ck.met, False)
        self.assertEqual(ck.interval_verdict, "does not hold")
        rs = [zero_result("hl_zero", 64, [11.0, 11.1, 11.2, 11.3, 11.4]),
              zero_result("glibc_memset", 64, [10.0] * 5)]
        ck = self.check(self.c.ZERO_GEOMEAN, rs)
        self.assertEqual((ck.met, ck.interval_verdict), (True, "holds"))

    def test_geomean_is_hot_only(self):
        rs = [dict(r, mode="cold") for r in geomean_results()]
        ck = self.check(self.c.ZERO_GEOMEAN, rs)
        self.assertIsNone(ck.met)
        self.assertEqual(ck.figures(), "no hot hl_zero and glibc_memset results at any size "
                                       "from 1 B to 1 GiB in this file")

    def test_cold_criterion_judged(self):
        rs = [zero_result("hl_zero", 4096, [9.0, 9.0, 9.1, 9.0, 9.2], "cold"),
              zero_result("glibc_memset", 4096, [10.0] * 5, "cold"),
              zero_result("hl_zero", 4096, [10.0] * 5),
              zero_result("glibc_memset", 4096, [10.0] * 5)]
        hot = self.check(self.c.ZERO_VS_GLIBC, rs)
        cold = self.check(self.c.ZERO_VS_GLIBC_COLD, rs)
        self.assertEqual(self.c.ZERO_VS_GLIBC_COLD["mode"], "cold")
        self.assertEqual((hot.met, hot.interval_verdict), (True, "holds"))
        self.assertEqual((cold.met, cold.interval_verdict), (False, "does not hold"))
        self.assertIn("worst at 4 KiB: hl_zero 9.00 vs glibc_memset 10.0 GB/s = 0.90x",
                      cold.figures())
        # 1 B counts (issue 4's criterion started at 64 B)
        rs = [zero_result("hl_zero", 1, [0.5] * 5, "cold"),
              zero_result("glibc_memset", 1, [1.0] * 5, "cold")]
        self.assertIs(self.check(self.c.ZERO_VS_GLIBC_COLD, rs).met, False)

    def test_bandwidth_max_per_repetition(self):
        ck = self.check(self.c.ZERO_BANDWIDTH, bandwidth_results())
        hot = [p for p in ck.points if p.mode == "hot"]
        self.assertEqual([p.size for p in hot], [64 * MIB])     # 16 MiB is below the LLC
        p = hot[0]
        self.assertEqual([round(v, 12) for v in p.values], [0.8] * 5)
        self.assertAlmostEqual(p.b, 30.0)       # the median of the per-repetition limit
        self.assertIs(ck.met, False)
        self.assertEqual(ck.interval_verdict, "does not hold")
        cold = [q for q in ck.points if q.mode == "cold"]
        self.assertEqual([round(v, 12) for v in cold[0].values], [0.95] * 5)
        self.assertEqual(ck.worst, p)
        text = ck.figures()
        self.assertIn("worst at 64 MiB (hot): hl_zero 24.0 vs the limit 30.0 GB/s", text)
        self.assertIn("1 size 64 MiB hot and 1 size 64 MiB cold (above the 32 MiB last-level "
                      "cache)", text)
        # glibc's distance from the limit: a figure beside it, its lowest point
        self.assertIn("beside it, glibc_memset at worst 0.50x the limit, at 64 MiB (hot) (a "
                      "figure, no threshold)", text)
        fig = self.c.zero_points(bandwidth_results(), self.c.ZERO_BANDWIDTH, LLC,
                                 "glibc_memset")[0]
        self.assertEqual([round(v, 12) for v in fig[0].values], [0.5, 0.5, 0.5, 0.5, 0.75])
        self.assertAlmostEqual(fig[1].value, 0.9)      # cold: 18 / max(20, 10)

    def test_bandwidth_holds_when_max_is_reached(self):
        rs = [r for r in bandwidth_results() if r["mode"] == "hot"]
        for r in rs:
            if r["subject"] == "hl_zero" and r["size"] == 64 * MIB:
                r["runs"] = [29.0, 29.5, 29.0, 29.5, 19.5]
        ck = self.check(self.c.ZERO_BANDWIDTH, rs)
        self.assertEqual((ck.met, ck.interval_verdict), (True, "holds"))
        self.assertIn("1 size 64 MiB hot and no cold ones", ck.figures())

    def test_bandwidth_uses_the_llc(self):
        self.assertIsNone(self.check(self.c.ZERO_BANDWIDTH, bandwidth_results(),
                                     llc=128 * MIB).met)
        ck = self.check(self.c.ZERO_BANDWIDTH, bandwidth_results(), llc=None)
        self.assertIn("(above 32 MiB, the file recording no cache size)", ck.figures())

    def test_bandwidth_not_checked_without_a_base(self):
        rs = [r for r in bandwidth_results() if r["subject"] != "nontemporal"]
        ck = self.check(self.c.ZERO_BANDWIDTH, rs)
        self.assertIsNone(ck.met)
        self.assertEqual(ck.figures(), "no hot hl_zero, nontemporal and rep_stosb results at "
                                       "any size above the 32 MiB last-level cache in this file")

    def test_summary_measures(self):
        """The summary asks each of issue 17's zero criteria; glibc against the limit as a
        figure (no threshold)."""
        asked = [(m["criterion"], m.get("subject")) for q in self.c.QUESTIONS
                 for m in q["measures"] if m["kind"] == "zero"]
        for c in (self.c.ZERO_VS_GLIBC, self.c.ZERO_VS_GLIBC_COLD, self.c.ZERO_GEOMEAN,
                  self.c.ZERO_BANDWIDTH):
            self.assertIn((self.c.ZERO_CRITERIA.index(c), None), asked)
        fig = [m for q in self.c.QUESTIONS for m in q["measures"]
               if m["kind"] == "zero" and m.get("subject")]
        self.assertEqual(len(fig), 1)
        c = self.c.zero_measure(fig[0])
        self.assertEqual((c["subject"], c["factor"], c["base"]),
                         ("glibc_memset", None, self.c.ZERO_BANDWIDTH["base"]))


class ZeroCriteriaReportTests(ToolCase):
    """Issue 17's zero criteria in the summary and the appendix, from synthetic files; and a
    file from before them (no cold results, no nontemporal) renders with one line each."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        path = zero_file(os.path.join(cls.tmp, "geo.json"), geomean_results())
        md, cls.geo_app = cls.render("g", [path])
        cls.geo = summary_rows(md)
        path = zero_file(os.path.join(cls.tmp, "z17.json"),
                         bandwidth_results() + [
                             zero_result("hl_zero", 100, [8.0, 8.1, 8.0, 8.2, 8.1], "cold"),
                             zero_result("glibc_memset", 100, [10.0] * 5, "cold")])
        cls.md, cls.app = cls.render("z", [path])
        cls.rows = summary_rows(cls.md)

    def test_summary_cold_row(self):
        self.assertRowHas("hl_zero / glibc_memset GB/s, cold",
                          "0.81x [0.80x, 0.82x] at 100 B",
                          "**does not hold** (\u2265 0.95x)")

    def test_summary_geomean_row(self):
        hit = [r for m, r in self.geo.items()
               if m.startswith("geometric mean over sizes of hl_zero / glibc_memset")]
        self.assertEqual(len(hit), 1, self.geo)
        r = hit[0]
        self.assertIn("3.00x [1.00x, 3.00x] over 2 sizes, 64 B to 4 KiB", r)
        self.assertIn("**cannot tell at this noise** (\u2265 1.05x)", r)
        self.assertIn("each size weighted alike, the first 5 repetitions at each", r)

    def test_summary_bandwidth_rows(self):
        self.assertRowHas("hl_zero / max(nontemporal, rep_stosb)",
                          "0.80x [0.80x, 0.80x] at 64 MiB, hot",
                          "**does not hold** (\u2265 0.9x); 2 sizes: 1 do not hold, 1 hold")
        self.assertRowHas("glibc_memset / max(nontemporal, rep_stosb)",
                          "0.50x [0.50x, 0.75x] at 64 MiB, hot",
                          "a figure (no threshold); the lowest of 2 sizes")

    def test_criteria_rows(self):
        rows = crit_rows(self.app)
        self.assertIn("| **not met** | does not hold |",
                      rows["hl_zero \u2265 0.95x glibc_memset at every size from 1 B to 1 GiB "
                           "(cold)"])
        g = [v for k, v in crit_rows(self.geo_app).items()
             if k.startswith("the geometric mean")]
        self.assertEqual(len(g), 1)
        self.assertIn("| **met** | cannot tell at this noise (the interval straddles the "
                      "threshold) |", g[0])
        b = [v for k, v in rows.items() if k.startswith("hl_zero within 10% of the store")]
        self.assertEqual(len(b), 1)
        self.assertIn("| **not met** | does not hold |", b[0])

    def test_appendix_tables(self):
        sec = self.app[self.app.index("#### Beyond the cache: the store bandwidth limit"):]
        self.assertIn("| 64 MiB | hot | 20.0 | 20.0 | 24.0 | 0.80x [0.80x, 0.80x] **does not "
                      "hold** | 0.50x [0.50x, 0.75x] |", sec)
        self.assertIn("| 64 MiB | cold | 20.0 | 10.0 | 19.0 | 0.95x [0.95x, 0.95x] holds | "
                      "0.90x [0.90x, 0.90x] |", sec)
        self.assertIn("| 100 B | \u2014 | 0.81x [0.80x, 0.82x] **does not hold** |", self.app)


def variants_results():
    """Three failing points and the variants beside them, side by side per repetition:
    at 4 KiB hot hl_zero is 1.08x memcpy_zero_page and no variant reaches 1.2x (avx512 1.12x,
    rep_stosb 1.04x); at 100 B hot hl_zero is 0.90x glibc_memset where avx512 is 1.00x (the
    plan's choice falls short); at 4 KiB cold hl_zero is 0.90x and avx512 straddles 0.95x
    (0.80x..1.10x: cannot tell). At 1 MiB hot hl_zero is 2.0x memcpy_zero_page: that holds."""
    return [zero_result("memcpy_zero_page", MIB, [10.0] * 5),
            zero_result("hl_zero", MIB, [20.0] * 5),
            zero_result("glibc_memset", MIB, [20.0] * 5),
            zero_result("memcpy_zero_page", 4096, [10.0, 10.1, 10.2, 10.3, 10.4]),
            zero_result("hl_zero", 4096, [10.8, 10.9, 11.0, 11.1, 11.2]),
            zero_result("avx512", 4096, [11.2, 11.3, 11.4, 11.5, 11.6]),
            zero_result("rep_stosb", 4096, [10.4, 10.5, 10.6, 10.7, 10.8]),
            zero_result("glibc_memset", 4096, [10.8, 10.9, 11.0, 11.1, 11.2]),
            zero_result("hl_zero", 100, [9.0] * 5),
            zero_result("avx512", 100, [10.0, 10.1, 10.2, 10.3, 10.4]),
            zero_result("glibc_memset", 100, [10.0, 10.1, 10.2, 10.3, 10.4]),
            zero_result("hl_zero", 4096, [9.0] * 5, "cold"),
            zero_result("avx512", 4096, [8.0, 9.0, 10.0, 11.0, 11.0], "cold"),
            zero_result("glibc_memset", 4096, [10.0] * 5, "cold")]


class VariantsBesideTests(ToolCase):
    """Where a size criterion does not hold, the summary says whether one of the subject's
    variants (its facts' "variant_of") would have, in the same repetitions: the machine's
    limit or the plan's choice."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        path = zero_file(os.path.join(cls.tmp, "v.json"), variants_results())
        with open(path) as f:
            d = json.load(f)
        # as hotline-bench writes them (zero.json predates "variant_of" for its variants)
        for v in ("avx512", "rep_stosb"):
            d["subjects"]["zero"][v]["variant_of"] = "hl_zero"
        with open(path, "w") as f:
            json.dump(d, f)
        cls.rows = summary_rows(cls.render("v", [path])[0])
        del d["subjects"]
        with open(path, "w") as f:
            json.dump(d, f)
        cls.bare = summary_rows(cls.render("bare", [path])[0])

    def test_no_variant_reaches_it(self):
        self.assertRowHas("hl_zero / memcpy_zero_page GB/s at 4 KiB", "1.08x [1.08x, 1.08x] at 4 KiB",
                          "**does not hold** (\u2265 1.2x); "
                          "no variant of hl_zero reaches 1.2x there either (the best: avx512 "
                          "1.12x [1.12x, 1.12x])")
        self.assertRowHas("hl_zero / memcpy_zero_page GB/s at 1 MiB", "2.00x", "**holds**")

    def test_the_plan_falls_short(self):
        self.assertRowHas("hl_zero / glibc_memset GB/s, hot", "0.90x",
                          "at 100 B, avx512 1.00x [1.00x, 1.00x] holds: the plan's choice "
                          "falls short")

    def test_cannot_tell_said(self):
        self.assertRowHas("hl_zero / glibc_memset GB/s, cold", "0.90x",
                          "at 4 KiB, the best variant is avx512 1.00x [0.80x, 1.10x]: cannot "
                          "tell whether it would hold")

    def test_held_rows_say_nothing(self):
        for r in self.rows.values():
            if "**does not hold**" not in r:
                self.assertNotIn("variant", r.split("|")[4])

    def test_without_facts_nothing_said(self):
        """A file without the subjects object: no subject is known to be a variant."""
        r = [v for k, v in self.bare.items()
             if k.startswith("hl_zero / memcpy_zero_page GB/s at 4 KiB")]
        self.assertEqual(len(r), 1)
        self.assertIn("**does not hold**", r[0])
        self.assertNotIn("variant", r[0])


class OlderZeroFileTests(ToolCase):
    """A zero file without cold results and without nontemporal (as a bench run before issue
    17 with --mode hot and a few subjects): every criterion it cannot answer says so in one
    line, the rest as before."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        with open(fixture("zero.json")) as f:
            rs = [r for r in json.load(f)["results"]
                  if r.get("mode") != "cold" and r["subject"] != "nontemporal"]
        cls.md, cls.app = cls.render("old", [zero_file(os.path.join(cls.tmp, "old.json"), rs)])

    def test_not_checked_in_one_line(self):
        rows = crit_rows(self.app)
        self.assertIn("| no cold hl_zero and glibc_memset results at any size from 1 B to 1 GiB "
                      "in this file | not checked |",
                      rows["hl_zero \u2265 0.95x glibc_memset at every size from 1 B to 1 GiB "
                           "(cold)"])
        b = [v for k, v in rows.items() if k.startswith("hl_zero within 10% of the store")][0]
        self.assertIn("| no hot hl_zero, nontemporal and rep_stosb results at any size above "
                      "the 32 MiB last-level cache in this file | not checked |", b)
        self.assertIn("| **not met** |", rows["hl_zero \u2265 0.95x glibc_memset at every size "
                                              "from 1 B to 1 GiB (hot)"])

    def test_one_line_for_the_limit(self):
        sec = self.app[self.app.index("#### Beyond the cache: the store bandwidth limit"):]
        sec = sec[:sec.index("\n####", 1)]
        self.assertEqual([l for l in sec.splitlines()[1:] if l.strip()],
                         ["Not measured: no nontemporal and rep_stosb results paired with "
                          "hl_zero above the last-level cache in this file."])
        self.assertNotIn("store bandwidth", self.md)
        self.assertNotIn(", cold, 1 B to 1 GiB", self.md)


if __name__ == "__main__":
    TOOL = reportlib.tool_argument()
    unittest.main(verbosity=2)
