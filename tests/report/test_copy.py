#!/usr/bin/python3
"""test_copy.py - the copy scenario's criteria (issue 19), section and summary rows, on files with
known answers; and a file without copy results renders as before.

    /usr/bin/python3 test_copy.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report.  fixtures/copy.json is a quick `hotline-bench copy` run (the
subjects that every architecture has: no variant is named here), whose env and facts the
synthetic files reuse with results whose paired ratios are known.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True

from reportlib import fixture  # noqa: E402
import reportlib  # noqa: E402

LLC = 32 << 20


def result(subject, size, runs, mode="hot", headline="gb_per_sec"):
    """A copy result of SUBJECT at SIZE in MODE with these RUNS of its HEADLINE."""
    return reportlib.sized_result("copy", subject, size, runs, mode, headline, LLC,
                                  "auto" if subject == "hl_try_copy" else None)


def known_results():
    """Hot, against glibc_memcpy: at 64 B 0.90x in every repetition (does not hold), at 4 KiB
    1.00x (holds); at 16 B hl_try_copy 5 ns per call against 2 ns (+3 ns: does not hold), at
    1 B 2 ns against 2 ns (+0).  Cold, against glibc_memcpy: at 8 B 40 ns per call against
    32 ns (+8 ns: does not hold), at 128 B and 4 KiB 1.00x (both hold).  Probe at 4 KiB:
    100 GB/s against process_vm_readv's 4 (25x, holds), pipe_probe's 5 (20x, a figure).  Word:
    2 ns against 1000 ns per word (500x)."""
    g = [10.0, 10.0, 10.0, 10.0, 10.0]
    return [result("hl_try_copy", 1, [0.5] * 5), result("glibc_memcpy", 1, [0.5] * 5),
            result("hl_try_copy", 16, [3.2] * 5), result("glibc_memcpy", 16, [8.0] * 5),
            result("hl_try_copy", 64, [9.0] * 5), result("glibc_memcpy", 64, g),
            result("hl_try_copy", 4096, [50.0] * 5), result("glibc_memcpy", 4096, [50.0] * 5),
            result("hl_try_copy", 8, [0.2] * 5, "cold"),
            result("glibc_memcpy", 8, [0.25] * 5, "cold"),
            result("hl_try_copy", 128, [3.0] * 5, "cold"),
            result("glibc_memcpy", 128, [3.0] * 5, "cold"),
            result("hl_try_copy", 4096, [40.0] * 5, "cold"),
            result("glibc_memcpy", 4096, [40.0] * 5, "cold"),
            result("hl_try_copy", 4096, [100.0] * 5, "probe"),
            result("process_vm_readv", 4096, [4.0] * 5, "probe"),
            result("pipe_probe", 4096, [5.0] * 5, "probe"),
            result("hl_try_load64", 8, [2.0] * 5, "word", "ns_per_op"),
            result("process_vm_readv_word", 8, [1000.0] * 5, "word", "ns_per_op")]


def copy_file(path, results):
    """fixtures/copy.json's env and facts with RESULTS, written to PATH."""
    return reportlib.with_results("copy.json", path, results)


class ToolCase(reportlib.ReportCase):
    TMP_PREFIX = "hotline-copy-test-"


class CopyCriteriaUnitTests(unittest.TestCase):
    """criteria.evaluate_copy on the known results, called directly."""

    @classmethod
    def setUpClass(cls):
        from hotline_report import criteria
        cls.c = criteria
        cls.checks = dict(zip((id(c) for c in criteria.COPY_CRITERIA),
                              criteria.evaluate_copy(known_results(), LLC)))

    def check(self, crit):
        return self.checks[id(crit)]

    def test_vs_glibc_from_64_bytes(self):
        ck = self.check(self.c.COPY_VS_GLIBC)
        self.assertFalse(ck.met)
        self.assertEqual([(p.size, round(p.value, 6)) for p in ck.points],
                         [(64, 0.9), (4096, 1.0)])
        self.assertEqual(ck.worst.size, 64)
        self.assertEqual(ck.interval_verdict, "does not hold")

    def test_small_sizes_in_ns(self):
        ck = self.check(self.c.COPY_SMALL_NS)
        self.assertFalse(ck.met)
        self.assertEqual([(p.size, round(p.value, 6)) for p in ck.points], [(1, 0.0), (16, 3.0)])
        self.assertEqual(ck.worst.size, 16)

    def test_cold_from_64_bytes(self):
        ck = self.check(self.c.COPY_VS_GLIBC_COLD)
        self.assertTrue(ck.met)
        self.assertEqual([(p.size, round(p.value, 6)) for p in ck.points],
                         [(128, 1.0), (4096, 1.0)])
        self.assertEqual(ck.interval_verdict, "holds")

    def test_cold_small_sizes_in_ns(self):
        ck = self.check(self.c.COPY_SMALL_NS_COLD)
        self.assertFalse(ck.met)
        self.assertEqual([(p.size, round(p.value, 6)) for p in ck.points], [(8, 8.0)])
        self.assertEqual(ck.worst.size, 8)

    def test_against_process_vm_readv(self):
        ck = self.check(self.c.COPY_VS_SYSCALL)
        self.assertTrue(ck.met)
        self.assertEqual([(p.size, round(p.value, 6)) for p in ck.points], [(4096, 25.0)])
        self.assertEqual(ck.interval_verdict, "holds")

    def test_not_checked_without_copy_results(self):
        for ck in self.c.evaluate_copy([], LLC):
            self.assertIsNone(ck.met)
            self.assertTrue(ck.missing)
        ck = self.c.evaluate_copy([r for r in known_results()
                                   if r["subject"] != "process_vm_readv"], LLC)[2]
        self.assertEqual(ck.figures(), "no probe hl_try_copy and process_vm_readv results at "
                                       "4 KiB in this file")

    def test_summary_asks_every_criterion(self):
        asked = [m["criterion"] for q in self.c.QUESTIONS for m in q["measures"]
                 if m["kind"] == "copy"]
        self.assertEqual(sorted(asked), list(range(len(self.c.COPY_CRITERIA))))


class CopyReportTests(ToolCase):
    """The known file through the tool: the summary's rows, report.md's short section with its
    one ratio plot, the appendix's section and done criteria."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.out = os.path.join(cls.tmp, "k")
        cls.md, cls.app = cls.render("k", [copy_file(os.path.join(cls.tmp, "k.json"),
                                                     known_results())])
        cls.rows = reportlib.summary_rows(cls.md)

    def test_summary_rows(self):
        self.assertRowHas("hl_try_copy / glibc_memcpy GB/s from 64 B",
                          "0.90x [0.90x, 0.90x] at 64 B",
                          "**does not hold** (\u2265 0.95x); 2 sizes: 1 do not hold, 1 hold")
        self.assertRowHas("hl_try_copy \u2212 glibc_memcpy ns per call below 64 B",
                          "+3.00 ns [+3.00 ns, +3.00 ns] at 16 B",
                          "**does not hold** (\u2264 +2 ns)")
        self.assertRowHas("hl_try_copy / process_vm_readv GB/s at 4 KiB",
                          "25.00x [25.00x, 25.00x] at 4 KiB",
                          "**holds** (\u2265 20x)")
        self.assertRowHas("cold buffers: hl_try_copy / glibc_memcpy GB/s from 64 B",
                          "1.00x [1.00x, 1.00x] at 128 B", "**holds** (\u2265 0.95x)")
        self.assertRowHas("cold buffers: hl_try_copy \u2212 glibc_memcpy ns per call below 64 B",
                          "+8.00 ns [+8.00 ns, +8.00 ns] at 8 B",
                          "**does not hold** (\u2264 +2 ns)")

    def test_one_ratio_plot(self):
        sec = self.md[self.md.index("## copy: "):]
        sec = sec[:sec.index("\n## ", 1)]
        self.assertEqual(sec.count("!["), 1, sec)
        self.assertIn("](ratio-copy.png)", sec)
        self.assertTrue(os.path.exists(os.path.join(self.out, "ratio-copy.png")))
        self.assertIn("At 4 KiB hl_try_copy copies 25.00x [25.00x, 25.00x] as fast as one "
                      "process_vm_readv per copy (the criterion asks 20x; it holds).", sec)
        self.assertIn("hl_try_load64 reads a word in 2.00 ns, 500.00x faster than a "
                      "process_vm_readv per word (1,000 ns).", sec)

    def test_appendix_section(self):
        sec = self.app[self.app.index("### copy: copying memory that may not be there"):]
        self.assertIn("| 64 B | 0.90x [0.90x, 0.90x] **does not hold** | \u2014 |", sec)
        self.assertIn("| 4 KiB | 1.00x [1.00x, 1.00x] holds | 1.00x [1.00x, 1.00x] |", sec)
        self.assertIn("| 16 B | 5.00 | 2.00 | +3.00 [+3.00, +3.00] | **does not hold** |", sec)
        self.assertIn("| 4 KiB | 100 | 4.00 | 5.00 | 25.00x [25.00x, 25.00x] holds | "
                      "20.00x [20.00x, 20.00x] |", sec)
        self.assertIn("hl_try_load64 takes 2.00 ns per word, process_vm_readv_word 1,000 ns; "
                      "the load is 500.00x [500.00x, 500.00x] faster", sec)

    def test_slices_said_where_the_file_has_them(self):
        """The section says how a repetition was shared when the results carry "slices" (the
        sample cut into that many, taken by turns), and nothing of slices when they do not."""
        sec = self.app[self.app.index("### copy: copying memory that may not be there"):]
        self.assertNotIn("slices", sec[:sec.index("Modes:")])
        sliced = [dict(r, slices=8) for r in known_results()]
        _, app = self.render("s", [copy_file(os.path.join(self.tmp, "s.json"), sliced)])
        sec = app[app.index("### copy: copying memory that may not be there"):]
        self.assertIn("Each repetition's sample was cut into 8 slices, the subjects taking them "
                      "by turns, so a ratio compares times taken milliseconds apart, in both "
                      "orders. Modes:", sec)

    def test_done_criteria(self):
        rows = reportlib.crit_rows(self.app)
        self.assertIn("| **not met** | does not hold |",
                      rows["hl_try_copy \u2265 0.95x glibc_memcpy at every size from 64 B to "
                           "1 GiB (hot)"])
        self.assertIn("| **not met** |", rows["hl_try_copy within 2 ns per call of "
                                              "glibc_memcpy at every size below 64 B (hot)"])
        self.assertIn("| **met** | holds |",
                      rows["hl_try_copy \u2265 20x process_vm_readv at 4 KiB (hot)"])


class FileWithoutCopyTests(ToolCase):
    """A file from before the copy scenario (fixtures/zero.json) renders as before: no copy
    rows in the summary, no copy section, no copy plot, no copy criteria."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.out = os.path.join(cls.tmp, "z")
        cls.md, cls.app = cls.render("z", [fixture("zero.json")])

    def test_nothing_of_copy(self):
        self.assertNotIn("hl_try_copy", self.md)
        self.assertNotIn("hl_try_copy", self.app)
        self.assertFalse(os.path.exists(os.path.join(self.out, "ratio-copy.png")))

    def test_the_real_run_renders(self):
        md, _ = self.render("real", [fixture("copy.json")])
        self.assertIn("## copy: copying memory that may not be there", md)
        self.assertIn("](ratio-copy.png)", md)


if __name__ == "__main__":
    reportlib.tool_argument()
    unittest.main(verbosity=2)
