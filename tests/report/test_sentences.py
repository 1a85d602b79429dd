#!/usr/bin/python3
"""test_sentences.py - generated sentences that say only what the figures show.

    /usr/bin/python3 test_sentences.py TOOL [unittest options]

TOOL is tools/hotline-report; the package beside it is imported and the
functions that write these sentences are called directly (issue 16: "wrong
generated sentences"):
  - a plot's subtitle does not say "median of 1 runs";
  - refcount-timing says the out-of-line call "accounts for the rest" only
    when the inlined loop is faster than the out-of-line one;
  - a calibration whose typical figure is off by more than 1.4x is said to
    fit poorly, one that fits is not;
  - issue 17's zero sentences: hl_zero against glibc at every size says where
    the whole interval is below 0.95x and where only the median is; the
    geometric mean names the sizes it covers; beyond the cache, hl_zero and
    glibc against the store bandwidth limit taken per repetition, glibc's as a
    figure.
"""

import math
import os
import sys
import unittest

sys.dont_write_bytecode = True

import reportlib  # noqa: E402


class Doc:
    """The little of a loaded document that subtitle() reads."""

    def __init__(self, quick=False, simulated=False):
        self.env = {"cpu": "Some CPU"}
        self.quick = quick
        self.simulated = simulated


class Subtitle(unittest.TestCase):
    def test_one_run_is_not_called_a_median(self):
        from hotline_report import common
        text = common.subtitle(Doc(), [{"runs": [5.0]}, {"runs": [6.0]}])
        self.assertNotIn("median of 1", text)
        self.assertIn("one run each, no median", text)

    def test_five_runs_are_a_median_of_5(self):
        from hotline_report import common
        text = common.subtitle(Doc(), [{"runs": [1.0, 2, 3, 4, 5]}])
        self.assertIn("median of 5 runs", text)


class InlineLoop(unittest.TestCase):
    def test_faster_inlined_loop_leaves_the_rest_to_the_call(self):
        from hotline_report import refcount_timing
        text = refcount_timing.call_says("refcount_full", 1.08, 0.94)
        self.assertIn("accounts for the rest", text)

    def test_slower_inlined_loop_does_not_blame_the_call(self):
        from hotline_report import refcount_timing
        text = refcount_timing.call_says("refcount_full", 1.00, 1.05)
        self.assertNotIn("accounts for the rest", text)
        self.assertIn("costs nothing measurable", text)


class Slices(unittest.TestCase):
    def test_slices_are_named(self):
        from hotline_report import refcount_timing
        text = refcount_timing.slices_says([{"subject": "atomic"},
                                            {"subject": "refcount", "slices": 64}])
        self.assertIn("by turns", text)
        self.assertIn("64 slices", text)

    def test_one_slice_or_none_says_nothing(self):
        from hotline_report import refcount_timing
        self.assertEqual(refcount_timing.slices_says([{"subject": "atomic", "slices": 1}]), "")
        self.assertEqual(refcount_timing.slices_says([{"subject": "atomic"}]), "")


class Calibration(unittest.TestCase):
    def test_rms_057_is_a_poor_fit(self):
        from hotline_report import manycore
        warn = manycore.calibration_warning(0.57)
        self.assertIsNotNone(warn)
        self.assertIn("poor fit", warn)
        self.assertIn(f"{math.exp(0.57):.2f}x", warn)

    def test_good_fit_and_missing_figure_say_nothing(self):
        from hotline_report import manycore
        self.assertIsNone(manycore.calibration_warning(0.10))
        self.assertIsNone(manycore.calibration_warning(None))
        self.assertIsNone(manycore.calibration_warning(True))


MIB = 1 << 20


def zero(subject, size, runs, mode="hot"):
    med = sorted(runs)[len(runs) // 2]
    return {"scenario": "zero", "subject": subject, "threads": 1, "size": size, "mode": mode,
            "headline": "gb_per_sec", "gb_per_sec": med, "ns_per_op": size / med,
            "runs": list(runs), "llc_bytes": 32 * MIB}


class ZeroDoc(Doc):
    def __init__(self, results):
        super().__init__()
        self.env = {}
        self.subjects = None
        self.results = results


class ZeroSentences(unittest.TestCase):
    @staticmethod
    def data(results):
        from hotline_report import zeroing
        return zeroing.ZeroData(ZeroDoc(results), results)

    def test_glibc_below_wholly_or_at_the_median(self):
        from hotline_report import zeroing
        z = self.data([
            # 4 KiB: 0.90x in every repetition (wholly below 0.95x)
            zero("hl_zero", 4096, [9.0] * 5), zero("glibc_memset", 4096, [10.0] * 5),
            # 64 KiB: median 0.93x, the interval [0.90x, 1.10x] straddling 0.95x
            zero("hl_zero", 65536, [9.0, 9.3, 9.3, 10.0, 11.0]),
            zero("glibc_memset", 65536, [10.0] * 5),
            # 1 B: 1.20x (holds), counted from 1 B
            zero("hl_zero", 1, [1.2] * 5), zero("glibc_memset", 1, [1.0] * 5)])
        text = zeroing._glibc_sentence(z)
        self.assertIn("at worst 0.90x (4 KiB) and 0.93x at 64 KiB, the largest size, with hot "
                      "buffers (wholly below 0.95x, interval and all, at 4 KiB; below it at the "
                      "median, the interval straddling it, at 64 KiB; cannot tell at this noise "
                      "at 1 of 3 sizes)", text)

    def test_glibc_all_holding_says_no_exception(self):
        from hotline_report import zeroing
        z = self.data([zero("hl_zero", 4096, [12.0] * 5), zero("glibc_memset", 4096, [10.0] * 5)])
        text = zeroing._glibc_sentence(z)
        self.assertIn("at worst 1.20x (4 KiB), the largest size, with hot buffers.", text)
        self.assertNotIn("below", text)

    def test_geomean_names_its_sizes_and_verdict(self):
        from hotline_report import zeroing
        z = self.data([zero("hl_zero", 64, [11.0, 11.1, 11.2, 11.3, 11.4]),
                       zero("glibc_memset", 64, [10.0] * 5),
                       zero("hl_zero", 4096, [11.0] * 5), zero("glibc_memset", 4096, [10.0] * 5),
                       zero("hl_zero", 4096, [1.0] * 5, "cold"),
                       zero("glibc_memset", 4096, [10.0] * 5, "cold")])
        text = zeroing.geomean_sentence(z)
        self.assertIn("Over the 2 sizes from 64 B to 4 KiB (hot, each weighted alike)", text)
        self.assertIn("against 1.05x it holds", text)

    def test_bandwidth_per_repetition_and_glibc_figure(self):
        """The faster of nontemporal and rep_stosb switches between repetitions: the limit is
        30 GB/s in four of five, hl_zero 0.80x of it in each (does not hold), where against
        either median (20) it would be 1.20x."""
        from hotline_report import zeroing
        z = self.data([zero("nontemporal", 64 * MIB, [20, 30, 20, 30, 20]),
                       zero("rep_stosb", 64 * MIB, [30, 20, 30, 20, 20]),
                       zero("hl_zero", 64 * MIB, [24, 24, 24, 24, 16]),
                       zero("glibc_memset", 64 * MIB, [15] * 5)])
        text = zeroing.bandwidth_sentence(z)
        self.assertEqual(
            text, "Beyond the 32 MiB last-level cache (hot buffers), hl_zero runs at 0.80x of the "
                  "store bandwidth limit (the larger of nontemporal and rep_stosb in each "
                  "repetition), at worst 0.80x [0.80x, 0.80x] at 64 MiB; against 0.9x, it does "
                  "not hold at 1 size; glibc_memset runs at 0.50x of it (a figure, no "
                  "threshold).")

    def test_no_limit_no_sentence(self):
        from hotline_report import zeroing
        z = self.data([zero("hl_zero", 64 * MIB, [24] * 5),
                       zero("glibc_memset", 64 * MIB, [15] * 5)])
        self.assertEqual(zeroing.bandwidth_sentence(z), "")


if __name__ == "__main__":
    reportlib.tool_argument()
    unittest.main()
