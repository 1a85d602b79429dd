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
    fit poorly, one that fits is not.
"""

import math
import os
import sys
import unittest

sys.dont_write_bytecode = True


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


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_sentences.py TOOL [unittest options]")
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:])
