#!/usr/bin/python3
"""test_plots.py - the plot helpers of plots.py and manycore.py, called directly in one process.

    /usr/bin/python3 test_plots.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report (its directory holds the hotline_report package).
Each test draws small figures with the helpers and looks at what was drawn: the
PNG exists (or the helper returned None), and the figure's own artists (lines,
tick labels and their rendered boxes) as they were just before saving, caught
by wrapping plots.save.
"""

import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

TOOL = None          # set from argv in __main__


def is_hline(line):
    """Whether LINE is an axhline: x from 0 to 1 of the axes, y constant."""
    y = list(line.get_ydata())
    return len(y) == 2 and y[0] == y[1] and list(line.get_xdata()) == [0, 1]


class Drawn:
    """What plots.save was given: the last figure's axes, rendered, before it is closed."""

    def __init__(self, plots):
        self.plots = plots
        self.figs = []
        self._save = plots.save

    def __enter__(self):
        def save(fig, path):
            fig.canvas.draw()
            self.figs.append(fig)
            return self._save(fig, path)
        self.plots.save = save
        return self

    def __exit__(self, *exc):
        self.plots.save = self._save

    @property
    def fig(self):
        return self.figs[-1]

    @property
    def ax(self):
        return self.fig.axes[0]

    def hlines(self, ax=None):
        """The y of every horizontal line across AX (axhline)."""
        return [float(ln.get_ydata()[0]) for ln in (ax or self.ax).get_lines() if is_hline(ln)]

    def legend(self, ax=None):
        ax = ax or self.ax
        leg = ax.get_legend() or self.fig.legends and self.fig.legends[0]
        return [t.get_text() for t in leg.get_texts()] if leg else []


class PlotCase(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hotline-plots-test-")
        os.environ["MPLCONFIGDIR"] = os.path.join(cls.tmp, "mpl")
        from hotline_report import plots
        cls.plots = plots

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def check_png(self, path, want):
        self.assertEqual(path, want)
        self.assertTrue(os.path.isfile(path), f"{path}: no PNG")
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class RatioPlotTests(PlotCase):
    """plots.ratio_plot: medians as lines, intervals as bands, 1.0 and a threshold marked."""

    A = {"label": "refcount / atomic_faa", "key": "refcount",
         "points": [(1, 0.92, 0.88, 0.96), (2, 1.00, 0.87, 1.36), (4, 0.93, 0.88, 1.04)]}
    B = {"label": "lockref / cas_loop", "key": "lockref",
         "points": [(1, 0.90, 0.88, 0.92), (2, 0.93, 0.65, 1.51), (4, 0.95, None, None)]}

    def draw(self, name, series, **kw):
        path = self.path(name)
        with Drawn(self.plots) as d:
            got = self.plots.ratio_plot(path, series, "title", "threads", **kw)
        return got, path, d

    def medians(self, d):
        """{label: y data} of the drawn lines but the horizontal marks."""
        return {ln.get_label(): [float(v) for v in ln.get_ydata()] for ln in d.ax.get_lines()
                if not ln.get_label().startswith("_") and not is_hline(ln)}

    def test_one_series(self):
        got, path, d = self.draw("one.png", [self.A])
        self.check_png(got, path)
        self.assertEqual(self.medians(d)["refcount / atomic_faa"], [0.92, 1.00, 0.93])
        self.assertIn(1.0, d.hlines(), "1.0 marked")
        self.assertIn("1.0 = baseline", d.legend())
        self.assertEqual(len(d.ax.collections), 1, "one band")
        lo, hi = d.ax.get_ylim()
        self.assertTrue(lo <= 0.88 and hi >= 1.36, "the intervals fit: no clipping")
        self.assertNotIn("clipped", " ".join(t.get_text() for t in d.ax.texts))

    def test_two_series_threshold(self):
        got, path, d = self.draw("two.png", [self.A, self.B], threshold=0.95,
                                 threshold_label="threshold 0.95x", oversub=2, logx=2)
        self.check_png(got, path)
        m = self.medians(d)
        self.assertEqual(m["lockref / cas_loop"], [0.90, 0.93, 0.95])
        self.assertEqual(sorted(d.hlines()), [0.95, 1.0])
        dashed = [ln for ln in d.ax.get_lines() if ln.get_label() == "threshold 0.95x"]
        self.assertEqual(len(dashed), 1)
        self.assertEqual(dashed[0].get_linestyle(), "--")
        legend = d.legend()
        self.assertIn("threshold 0.95x", legend)
        self.assertIn("oversubscribed: more runnable threads than the 2 CPUs", legend)
        self.assertEqual([t.get_text() for t in d.ax.get_xticklabels()], ["1", "2", "4"])
        self.assertEqual(d.ax.get_xscale(), "log")
        colours = {ln.get_label(): ln.get_color() for ln in d.ax.get_lines()}
        self.assertNotEqual(colours["refcount / atomic_faa"], colours["lockref / cas_loop"])

    def test_one_point(self):
        """An isolated interval is an error bar (a band of one point would not show)."""
        got, path, d = self.draw("point.png", [{"label": "x", "key": "x",
                                                "points": [(2, 1.03, 0.65, 1.17)]}])
        self.check_png(got, path)
        segs = [c for c in d.ax.collections if type(c).__name__ == "LineCollection"]
        self.assertEqual(len(segs), 1, "one error bar")
        (a, b), = [tuple(map(tuple, s)) for s in segs[0].get_segments()]
        self.assertEqual((a[1], b[1]), (0.65, 1.17))
        lo, hi = d.ax.get_ylim()
        self.assertTrue(lo <= 0.65 and hi >= 1.17)

    def test_no_interval(self):
        got, path, d = self.draw("bare.png", [{"label": "x", "key": "x",
                                               "points": [(1, 1.1, None, None),
                                                          (2, 1.2, None, None)]}])
        self.check_png(got, path)
        self.assertEqual(self.medians(d)["x"], [1.1, 1.2])
        segs = [c for c in d.ax.collections if type(c).__name__ == "LineCollection"]
        self.assertEqual(segs, [], "no error bar without an interval")

    def test_nothing_to_draw(self):
        for series in ([], [{"label": "x", "key": "x", "points": []}], None):
            path = self.path("none.png")
            self.assertIsNone(self.plots.ratio_plot(path, series, "t", "threads"))
            self.assertFalse(os.path.exists(path))

    def test_range_shows_medians_clips_wild_intervals(self):
        """1.0, the threshold and every median inside; an interval reaching 5 is clipped and
        the plot says so."""
        got, path, d = self.draw("clip.png", [{"label": "a", "key": "a", "points": [
            (1, 1.0, 0.9, 1.1), (2, 1.2, 0.1, 5.0), (4, 0.8, None, None)]}], threshold=0.5)
        self.check_png(got, path)
        lo, hi = d.ax.get_ylim()
        self.assertTrue(lo < 0.5 and 1.2 < hi < 5.0, (lo, hi))
        self.assertIn("intervals clipped at the plot's edge",
                      [t.get_text() for t in d.ax.texts])
        # a collapse far below 1.0 stays on the plot with 1.0
        self.assertEqual(self.plots.ratio_range([0.011, 1.0])[0], 0.0)
        lo, hi = self.plots.ratio_range([1.0, 1.0])
        self.assertTrue(lo < 1.0 < hi and hi - lo <= 0.2, "a flat plot is not a flat line")

    def test_linestyle_per_series(self):
        """A series' own "linestyle" (machines told apart) is drawn."""
        b = dict(self.A, label="other machine", linestyle="--")
        got, path, d = self.draw("styles.png", [self.A, b])
        styles = {ln.get_label(): ln.get_linestyle() for ln in d.ax.get_lines()}
        self.assertEqual(styles["other machine"], "--")
        self.assertEqual(styles["refcount / atomic_faa"], "-")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_plots.py TOOL [unittest args]")
    TOOL = os.path.abspath(sys.argv.pop(1))
    sys.path.insert(0, os.path.dirname(TOOL))
    unittest.main(verbosity=2)
