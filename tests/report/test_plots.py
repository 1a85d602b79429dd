#!/usr/bin/python3
"""test_plots.py - the plot helpers of plots.py and manycore.py, called directly in one process.

    /usr/bin/python3 test_plots.py TOOL [TestClass ...] [unittest options]

TOOL is tools/hotline-report (its directory holds the hotline_report package).
Each test draws small figures with the helpers and looks at what was drawn: the
PNG exists (or the helper returned None), and the figure's own artists (lines,
tick labels and their rendered boxes) as they were just before saving, caught
by wrapping plots.save.
"""

import copy
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

from reportlib import fixture  # noqa: E402
import reportlib  # noqa: E402

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

    def data_lines(self, ax=None):
        """{label: the data line} of every series drawn by errorbar (line_plot's)."""
        return {c.get_label(): c.lines[0] for c in (ax or self.ax).containers
                if type(c).__name__ == "ErrorbarContainer"}

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
        plots.DPI = 30  # small PNGs: what is drawn is read from the figure, not the file

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


def series(key, xs, ys, **kw):
    """A line_plot series of KEY: points (XS, YS), no error bars."""
    return dict({"key": key, "label": key, "subject": key, "x": list(xs), "y": list(ys),
                 "lo": list(ys), "hi": list(ys)}, **kw)


def overlaps(fig, labels):
    """Pairs of the visible, non-empty text LABELS whose rendered boxes overlap."""
    r = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(r)) for t in labels
             if t.get_visible() and t.get_text()]
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
            if ba.overlaps(bb)]


class LinePlotOptionTests(PlotCase):
    """The options of line_plot / plot_vs_threads / plot_vs_size for issue 16's plots."""

    SIZES = [1 << e for e in range(31)]          # 1 B .. 1 GiB, as zero's hot sweep

    def size_series(self):
        out = []
        for i, key in enumerate(["hl_zero", "glibc_memset", "rep_stosb", "avx2", "read_dev_zero"]):
            ys = [min(100.0, 0.4 * (1.3 + i / 10) ** e) for e in range(31)]
            if key == "read_dev_zero":
                ys = [0.004 * 2 ** e for e in range(31)]
            out.append(series(key, self.SIZES, ys))
        return out

    def test_size_ticks_do_not_overlap(self):
        """1 B to 1 GiB: ticks at powers of 16, none colliding (the last size was appended
        as a tick beside 256 MiB, the two labels overlapping)."""
        path = self.path("sizes.png")
        with Drawn(self.plots) as d:
            got = self.plots.plot_vs_size(path, [], "gb_per_sec", "zero", series=self.size_series())
        self.check_png(got, path)
        labels = d.ax.get_xticklabels()
        self.assertEqual([t.get_text() for t in labels],
                         ["1 B", "16 B", "256 B", "4 KiB", "64 KiB", "1 MiB", "16 MiB", "256 MiB"])
        self.assertEqual(overlaps(d.fig, labels), [])
        self.assertEqual(self.plots.size_ticks([256, 4096, 1 << 31]),
                         [256, 4096, 65536, 1 << 20, 1 << 24, 1 << 28])

    def test_crowded_tick_labels_turned_or_thinned(self):
        """fit_xticklabels: long labels on a narrow plot end up not overlapping."""
        xs = list(range(1, 25))
        path = self.path("crowded.png")
        with Drawn(self.plots) as d:
            self.plots.line_plot(path, [series("a", xs, xs)], "t", "x", "y", xticks=xs,
                                 xticklabel=lambda t: f"label number {t:g}")
        labels = d.ax.get_xticklabels()
        self.assertEqual(overlaps(d.fig, labels), [])
        self.assertTrue(any(t.get_rotation() for t in labels) or
                        not all(t.get_visible() for t in labels))

    def test_emphasis(self):
        """The emphasised subjects thick and on top, the others thin and light, the legend
        outside the axes with the emphasised first; the default draws every line alike."""
        path = self.path("emphasis.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_size(path, [], "gb_per_sec", "zero", series=self.size_series(),
                                    emphasis=["hl_zero", "glibc_memset"])
        lines = d.data_lines()
        for key in ("hl_zero", "glibc_memset"):
            for other in ("rep_stosb", "avx2", "read_dev_zero"):
                self.assertGreater(lines[key].get_linewidth(), 2 * lines[other].get_linewidth())
                self.assertGreater(lines[key].get_zorder(), lines[other].get_zorder())
                self.assertLess(lines[other].get_alpha(), 1.0)
        self.assertEqual(d.legend()[:2], ["hl_zero", "glibc_memset"])
        r = d.fig.canvas.get_renderer()
        self.assertGreater(d.ax.get_legend().get_window_extent(r).x0,
                           d.ax.get_window_extent(r).x1, "legend outside the axes")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_size(path, [], "gb_per_sec", "zero", series=self.size_series())
        widths = {ln.get_linewidth() for ln in d.data_lines().values()}
        self.assertEqual(widths, {1.6}, "no emphasis: every line alike")

    CONTEND = [series("atomic_faa", [1, 2, 4, 8], [240, 112, 114, 95]),
               series("refcount", [1, 2, 4, 8], [224, 110, 112, 96]),
               series("cas_loop", [1, 2, 4, 8], [143, 58, 42, 31]),
               series("ticket", [1, 2, 4, 8], [230, 3.5, 0.061, 0.037])]

    def test_clip_below_linear(self):
        """A collapse (ticket at 0.04) no longer makes the axis log: linear from 0."""
        path = self.path("clip-linear.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, [], "ops_per_sec", "contend", series=self.CONTEND,
                                       logy="auto", clip_below=0.05)
        self.assertEqual(d.ax.get_yscale(), "linear")
        self.assertEqual(d.ax.get_ylim()[0], 0)
        with Drawn(self.plots) as d:  # the default: as before, log
            self.plots.plot_vs_threads(path, [], "ops_per_sec", "contend", series=self.CONTEND,
                                       logy="auto")
        self.assertEqual(d.ax.get_yscale(), "log")
        self.assertLess(d.ax.get_ylim()[0], 0.04)

    def test_clip_below_log(self):
        """On a log axis the foot is the floor; the points below it are triangles on it with
        their values written, and the legend says so."""
        path = self.path("clip-log.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, [], "ops_per_sec", "contend", series=self.CONTEND,
                                       logy=True, clip_below=0.05)
        self.assertAlmostEqual(d.ax.get_ylim()[0], 240 * 0.05)
        tri = [ln for ln in d.ax.get_lines() if ln.get_marker() == "v"]
        self.assertEqual(sorted(float(ln.get_xdata()[0]) for ln in tri), [2, 4, 8])
        self.assertEqual(sorted(t.get_text() for t in d.ax.texts), ["0.037", "0.061", "3.5"])
        self.assertIn("below the axis (under 12): value written above", d.legend())
        labels = [t.get_text() for t in d.ax.get_yticklabels() if t.get_text()]
        self.assertGreaterEqual(len(labels), 3, f"a short log axis labelled: {labels}")

    def test_flat_and_hlines(self):
        """flat(): nothing but 1.0 to show; hlines: 1.0 marked, in the legend after the series."""
        one = [series("a", [1, 2], [1.0, 1.005]), series("b", [1, 2], [0.999, 1.0])]
        self.assertTrue(self.plots.flat(one))
        self.assertTrue(self.plots.flat([("mean", one, "y")]), "panels")
        self.assertFalse(self.plots.flat(one + [series("c", [1, 2], [1.0, 1.3])]))
        self.assertTrue(self.plots.flat([{"points": [(1, 0.99, None, None)]}]), "ratio series")
        self.assertFalse(self.plots.flat([{"points": [(1, 0.9, None, None)]}]))
        self.assertTrue(self.plots.flat([]), "nothing is flat")
        path = self.path("hline.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, [], "attempts_per_success", "attempts",
                                       panels=[("mean", one + [series("c", [1, 2], [1, 1.3])],
                                                "attempts")],
                                       hlines=[(1.0, "1 = no retry")])
        self.assertEqual(d.hlines(), [1.0])
        self.assertEqual(d.legend(), ["a", "b", "c", "1 = no retry"])

    def test_resolution(self):
        """resolution_ns: the band under it shaded and labelled; none when the axis stays above."""
        lat = [series("atomic_faa", [1, 2, 4], [10, 10, 20]),
               series("ticket", [1, 2, 4], [10, 120, 130])]
        path = self.path("latency.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, [], "x", "latency", series=lat, logy=True,
                                       ylabel="ns", resolution_ns=20)
        text = "at the timer's resolution (\u2264 20 ns): not a measurement"
        self.assertIn(text, d.legend())
        tops = [p.get_path().get_extents(p.get_transform()) for p in d.ax.patches]
        self.assertTrue(any(abs(d.ax.transData.inverted().transform((0, b.y1))[1] - 20) < 1e-6
                            for b in tops), "a band up to 20 ns")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, [], "x", "latency",
                                       series=[series("ticket", [1, 2, 4], [100, 120, 130])],
                                       ylabel="ns", ymin0=False, resolution_ns=5)
        self.assertNotIn("at the timer's resolution (\u2264 5 ns): not a measurement", d.legend())


class ManyCoreTests(PlotCase):
    """manycore.py: each preset's plot shows that model alone; a measured file's points go
    only on the plot of a sweep calibrated to it.  fixtures/contend.json (measured, 2 CPUs)
    and fixtures/sim.json (hotline-sim, 2..224 threads) given the measured file's contend
    facts (cas_loop's baseline atomic_faa, as the tools write it now), once as a plain preset
    and once as "calibrated" to contend.json."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        from hotline_report import context, load, manycore
        cls.load, cls.context, cls.manycore = load, context, manycore
        cls.measured = load.load(fixture("contend.json"))
        with open(fixture("sim.json")) as f:
            data = json.load(f)
        have = {r["subject"] for r in data["results"]}
        facts = {k: dict(v) for k, v in cls.measured.subjects["contend"].items() if k in have}
        facts["cas_loop"]["baseline"] = "atomic_faa"   # as hotline-sim and -bench now say
        data["subjects"] = {"contend": facts}
        cls.older = load.check("sim-older.json", copy.deepcopy(data))
        cls.older.subjects = None   # as an older hotline-sim's file
        cls.plain = load.check("sim-plain.json", copy.deepcopy(data))
        data["env"] = dict(data["env"], preset="calibrated", calibration={
            "file": fixture("contend.json"), "base": "x86-server", "fitted": {}})
        cls.calibrated = load.check("sim-calibrated.json", data)

    def render(self, docs):
        """(report lines, {png name: figure}) of the section on DOCS."""
        out = self.path("mc")
        os.makedirs(out, exist_ok=True)
        ctx = self.context.Context(docs, out)
        with Drawn(self.plots) as d:
            lines = self.manycore.render(ctx)
        return "\n".join(lines), dict(zip(ctx.pngs, d.figs))

    def stars(self, fig):
        """The x of every hollow-star line drawn on FIG (the measured points)."""
        return sorted({float(x) for ax in fig.axes for ln in ax.get_lines()
                       if ln.get_marker() == "*" for x in ln.get_xdata()})

    def test_preset_plot_has_no_measured_points(self):
        md, figs = self.render([self.measured, self.plain])
        self.assertEqual(list(figs), ["manycore-thunderx2-224.png"])
        fig = figs["manycore-thunderx2-224.png"]
        self.assertEqual(self.stars(fig), [], "this machine's points on another's model")
        labels = [ln.get_label() for ax in fig.axes for ln in ax.get_lines()]
        self.assertFalse([x for x in labels if "measured" in x], labels)
        self.assertIn("The model alone: it is not calibrated to a measured file given", md)
        self.assertIn("Not drawn on the plots below: none of their models is calibrated", md)

    def test_ratio_plot_over_the_root_baseline(self):
        """The preset's plot: every subject's throughput over atomic_faa's (the root of the
        facts' baselines) vs threads, 1.0 marked: the baseline's ns/op over the subject's."""
        self.assertEqual(self.manycore.root_baseline(self.plain), "atomic_faa")
        self.assertIsNone(self.manycore.root_baseline(self.older))
        md, figs = self.render([self.plain])
        ax = figs["manycore-thunderx2-224.png"].axes[0]
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        self.assertNotIn("atomic_faa", lines, "the baseline is the 1.0 line")
        self.assertIn("1.0 = as fast as atomic_faa", lines)
        idx = {(r["subject"], r["threads"]): r for r in self.plain.results}
        got = lines["qspinlock"]
        want = [idx[("atomic_faa", t)]["ns_per_op"] / idx[("qspinlock", t)]["ns_per_op"]
                for t in got.get_xdata()]
        for a, b in zip(got.get_ydata(), want):
            self.assertAlmostEqual(float(a), b, places=6)
        self.assertIn("throughput over atomic_faa's", md)

    def test_calibrated_plot_has_the_measured_points(self):
        """The sweep calibrated to contend.json gets its points (1 and 2 threads: its CPUs),
        as ratios paired per repetition; the plain preset beside it still has none."""
        md, figs = self.render([self.measured, self.plain, self.calibrated])
        self.assertEqual(self.stars(figs["manycore-thunderx2-224.png"]), [])
        self.assertEqual(self.stars(figs["manycore-calibrated.png"]), [1.0, 2.0])
        self.assertIn("Drawn as hollow stars on the plot of calibrated, the model calibrated "
                      "to this file, and on no other.", md)
        self.assertIn("Hollow stars: measured, this machine (", md)

    def test_older_sim_file_ns_plot_without_stars(self):
        """A sim file without facts: the ns per count update plot, still the model alone."""
        md, figs = self.render([self.measured, self.older])
        fig = figs["manycore-thunderx2-224.png"]
        self.assertEqual(self.stars(fig), [])
        self.assertEqual(fig.axes[0].get_yscale(), "log")

    def test_calibrated_to(self):
        mc = self.manycore
        self.assertTrue(mc.calibrated_to(self.calibrated, self.measured, [self.measured]))
        self.assertFalse(mc.calibrated_to(self.plain, self.measured, [self.measured]))
        other = self.load.load(fixture("verdicts.json"))
        self.assertFalse(mc.calibrated_to(self.calibrated, other, [self.measured, other]))
        gone = copy.copy(self.calibrated)
        gone.env = dict(gone.env, calibration={"file": "/nonexistent/dir/contend.json"})
        self.assertTrue(mc.calibrated_to(gone, self.measured, [self.measured]),
                        "moved: the same name, the only one")
        twin = copy.copy(self.measured)
        twin.path = "/elsewhere/contend.json"
        self.assertFalse(mc.calibrated_to(gone, self.measured, [self.measured, twin]),
                         "moved, and two files of that name: neither")


class MachinesDrawTests(PlotCase):
    """machines.draw: two machines on one ratio plot, in the subject's colour, told apart by
    line style and marker; each machine's CPU count marked where exceeded."""

    def test_two_machines(self):
        from hotline_report import machines, stats
        c = stats.Comparison
        x86 = [(1, c([0.99, 1.0, 1.01])), (2, c([1.0, 1.01, 0.99])), (4, c([0.97, 0.98, 0.99]))]
        arm = [(1, c([0.99, 0.99, 1.0])), (2, c([0.79, 0.8, 0.81])), (4, c([0.95, 0.96, 0.97]))]
        path = self.path("machines.png")
        with Drawn(self.plots) as d:
            got = machines.draw(path, [("x86 box", x86, 2), ("arm box", arm, 4), ("none", [], 8)],
                                title="refcount / atomic_faa", threshold=0.95, key="refcount")
        self.check_png(got, path)
        lines = {ln.get_label(): ln for ln in d.ax.get_lines()}
        a, b = lines["x86 box, 2 CPUs"], lines["arm box, 4 CPUs"]
        self.assertEqual(a.get_color(), b.get_color(), "one subject, one colour")
        self.assertEqual(a.get_color(), self.plots.color_for("refcount"))
        self.assertNotEqual(a.get_linestyle(), b.get_linestyle())
        self.assertNotEqual(a.get_marker(), b.get_marker())
        self.assertEqual([float(y) for y in b.get_ydata()], [0.99, 0.8, 0.96])
        self.assertEqual(sorted(d.hlines()), [0.95, 1.0])
        self.assertEqual(len(d.ax.collections), 2, "a band per machine")
        marks = sorted(t.get_text().strip() for t in d.ax.texts)
        self.assertEqual(marks, ["2 CPUs"], "x86's 2 CPUs exceeded at 4 threads; arm's 4 not")
        self.assertNotIn("none", " ".join(d.legend()))
        self.assertIsNone(machines.draw(path, [("none", [], 8)], title="nothing"))


class LatencyAndAttemptsTests(PlotCase):
    """plot_latency: the timer's resolution shaded (fixtures/machine-state.json: a 12.5 ns
    latency clock, so up to 2 x 12.5 = 25 ns); an older file (contend.json, no resolution)
    nothing shaded.  The attempts plot marks 1.0 by itself."""

    def contend(self, name):
        from hotline_report import load
        return [r for r in load.load(fixture(name)).results if r["scenario"] == "contend"]

    def test_latency_resolution(self):
        rs = self.contend("machine-state.json")
        s = self.plots.part_series(rs, "latency_ns", "p50", order=["cas_loop"])
        self.assertEqual(s[0]["subject"], "cas_loop")
        self.assertEqual(s[0]["x"], [1, 2, 4, 8])
        self.assertEqual(s[0]["y"], [19, 131, 135, 138])
        path = self.path("latency.png")
        with Drawn(self.plots) as d:
            got = self.plots.plot_latency(path, rs, "latency p50", oversub=2)
        self.check_png(got, path)
        self.assertIn("at the timer's resolution (\u2264 25.2 ns): not a measurement",
                      d.legend())
        self.assertEqual(d.ax.get_yscale(), "log")
        with Drawn(self.plots) as d:
            self.plots.plot_latency(path, self.contend("contend.json"), "latency, older file")
        self.assertFalse([t for t in d.legend() if "resolution" in t])
        self.assertIsNone(self.plots.plot_latency(path, [], "nothing"))

    def test_attempts_marks_one(self):
        rs = self.contend("contend.json")
        path = self.path("attempts.png")
        with Drawn(self.plots) as d:
            self.plots.plot_vs_threads(path, rs, "attempts_per_success", "attempts")
        self.assertEqual(d.hlines(), [1.0])
        self.assertIn("1 = no retry", d.legend())
        with Drawn(self.plots) as d:  # turned off; other metrics: nothing marked
            self.plots.plot_vs_threads(path, rs, "attempts_per_success", "attempts", hlines=[])
            self.plots.plot_vs_threads(path, rs, "ops_per_sec", "throughput")
        self.assertEqual([d.hlines(f.axes[0]) for f in d.figs], [[], []])


if __name__ == "__main__":
    TOOL = reportlib.tool_argument()
    unittest.main(verbosity=2)
