"""PNG plots with matplotlib's Agg backend (never a window, never plt.show()).

General helpers, usable by any scenario:

  bar_chart(path, bars, ...)             one bar per subject, min-max error bars
  series_vs(results, xkey, metric)       results -> one line per subject
  line_plot(path, series, ...)           lines with error bars, linear or log axes
  plot_vs_threads(path, results, metric) a metric vs thread count, one line per subject
  plot_vs_size(path, results, metric)    a metric vs buffer size, log-log

matplotlib is imported on first use, after the inputs have been checked, so
a bad input is reported without paying for (or hearing from) matplotlib.
"""

import math

from . import fmt

_plt = None
_colors = {}

# Colour-blind-friendly cycle (Okabe-Ito, then tab10's remainder).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
           "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd"]

DPI = 110


class PlotError(Exception):
    """matplotlib is missing or failed: reported as one line, exit 1."""


def pyplot():
    global _plt
    if _plt is None:
        import logging
        # e.g. "building the font cache" on a first run: not for the user
        logging.getLogger("matplotlib").setLevel(logging.ERROR)
        try:
            import matplotlib
            matplotlib.use("Agg", force=True)
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise PlotError(f"cannot import matplotlib ({e}); install Debian's python3-matplotlib "
                            "(scripts/deps.sh bench) and run with /usr/bin/python3") from None
        plt.rcParams.update({
            "figure.figsize": (8.0, 4.8),
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.fontsize": "small",
            "legend.framealpha": 0.9,
        })
        _plt = plt
    return _plt


def color_for(key):
    """A stable colour per series name, in order of first use."""
    if key not in _colors:
        _colors[key] = PALETTE[len(_colors) % len(PALETTE)]
    return _colors[key]


def _titles(fig, ax, title, subtitle):
    fig.suptitle(title, fontsize=12, fontweight="bold")
    if subtitle:
        ax.set_title(subtitle, fontsize=9, color="dimgray")


def _save(fig, path):
    plt = pyplot()
    try:
        fig.savefig(path, dpi=DPI, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def bar_chart(path, bars, title, ylabel, xlabel="subject", subtitle=None, refs=None,
              bar_legend=None):
    """One bar per entry of BARS: dicts {label, value, lo, hi, text}.

    lo/hi (optional) draw an asymmetric error bar; text (optional) is written
    above the bar.  REFS: dicts {index, value, label, text} drawn as dashed
    marks across bar INDEX (e.g. an expected value), TEXT (optional) written
    under the mark; equal labels share a legend entry.  Returns PATH.
    """
    plt = pyplot()
    fig, ax = plt.subplots()
    xs = list(range(len(bars)))
    vals = [b["value"] for b in bars]
    colors = [color_for(b["label"]) for b in bars]
    ax.bar(xs, vals, width=0.6, color=colors, alpha=0.85, zorder=2,
           label=bar_legend if bar_legend else None)
    lo_err = [max(0.0, b["value"] - b["lo"]) if b.get("lo") is not None else 0.0 for b in bars]
    hi_err = [max(0.0, b["hi"] - b["value"]) if b.get("hi") is not None else 0.0 for b in bars]
    if any(lo_err) or any(hi_err):
        ax.errorbar(xs, vals, yerr=[lo_err, hi_err], fmt="none", ecolor="black",
                    capsize=6, linewidth=1.2, zorder=3)
    top = max([v + h for v, h in zip(vals, hi_err)] + [0.0])
    seen = set()
    for ref in refs or []:
        i = ref["index"]
        label = ref["label"] if ref["label"] not in seen else None
        seen.add(ref["label"])
        ax.hlines(ref["value"], i - 0.38, i + 0.38, colors="black", linestyles="dashed",
                  linewidth=1.6, zorder=4, label=label)
        if ref.get("text"):
            ax.annotate(ref["text"], (i + 0.36, ref["value"]), xytext=(0, -3),
                        textcoords="offset points", ha="right", va="top", fontsize=8,
                        fontstyle="italic", zorder=5)
        top = max(top, ref["value"])
    for x, v, h, b in zip(xs, vals, hi_err, bars):
        if b.get("text"):
            ax.annotate(b["text"], (x, v + h), xytext=(0, 4), textcoords="offset points",
                        ha="center", va="bottom", fontsize=9)
    ax.set_xticks(xs)
    if len(bars) > 5 or max((len(b["label"]) for b in bars), default=0) * len(bars) > 70:
        ax.set_xticklabels([b["label"] for b in bars], rotation=30, ha="right")
    else:
        ax.set_xticklabels([b["label"] for b in bars])
    ax.set_ylim(0, top * 1.3 if top > 0 else 1)  # room for the labels and legend
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(axis="x", visible=False)
    _titles(fig, ax, title, subtitle)
    handles, labels = ax.get_legend_handles_labels()
    if bar_legend:  # a neutral swatch: the bars have one colour each
        from matplotlib.patches import Patch
        i = labels.index(bar_legend)
        handles[i] = Patch(facecolor="#bbbbbb", edgecolor="#555555")
    if len(labels) > 1 or refs:
        ax.legend(handles, labels, loc="upper left")
    return _save(fig, path)


def series_vs(results, xkey, metric, suffix="", linestyle="-"):
    """Group RESULTS into lines of METRIC against XKEY ("threads" or "size").

    One line per subject (and per retry limit, and per value of the other
    dimension when it varies).  Error bars (min-max of "runs") are drawn
    only where METRIC is the result's headline figure.  Returns a list of
    dicts {key, label, x, y, lo, hi, linestyle}; KEY (the label without
    SUFFIX) picks the colour, so one subject keeps its colour across files.
    """
    other = "size" if xkey == "threads" else "threads"
    others = {r.get(other) for r in results}
    limits = {r.get("retry_limit") for r in results}
    groups = {}
    for r in results:
        x = r.get(xkey)
        y = fmt.metric_value(r, metric)
        if x is None or y is None:
            continue
        key = r["subject"]
        if len(limits) > 1 and r.get("retry_limit") is not None:
            key += f", retry limit {r['retry_limit']}"
        if len(others) > 1 and r.get(other) is not None:
            key += ", " + (fmt.size(r[other]) if other == "size" else f"{r[other]} threads")
        lo = hi = y
        if metric == r["headline"] and r["runs"]:
            scale = fmt.metric_scale(metric)
            lo, hi = min(r["runs"]) * scale, max(r["runs"]) * scale
        groups.setdefault(key, []).append((x, y, lo, hi))
    series = []
    for key, pts in groups.items():
        pts.sort()
        series.append({"key": key, "label": key + suffix, "linestyle": linestyle,
                       "x": [p[0] for p in pts], "y": [p[1] for p in pts],
                       "lo": [p[2] for p in pts], "hi": [p[3] for p in pts]})
    return series


def line_plot(path, series, title, xlabel, ylabel, subtitle=None, logx=False, logy=False,
              xticks=None, xticklabel=None, ymin0=False):
    """Draw SERIES (from series_vs) as lines with markers and error bars.

    logx: False, True (base 10) or an integer base.  XTICKS: explicit tick
    positions; XTICKLABEL: function tick value -> text.  Returns PATH.
    """
    plt = pyplot()
    many = len(series) > 6
    fig, ax = plt.subplots(figsize=(9.5, 4.8) if many else None)
    for s in series:
        y = s["y"]
        yerr = [[max(0.0, a - b) for a, b in zip(y, s["lo"])],
                [max(0.0, b - a) for a, b in zip(y, s["hi"])]]
        has_err = any(yerr[0]) or any(yerr[1])
        ax.errorbar(s["x"], y, yerr=yerr if has_err else None, label=s["label"],
                    color=color_for(s["key"]), marker="o", markersize=4,
                    linestyle=s.get("linestyle", "-"), linewidth=1.6, capsize=3)
    if logx:
        ax.set_xscale("log", base=2 if logx is True else logx)
    if logy:
        ax.set_yscale("log")
    elif ymin0:
        ax.set_ylim(bottom=0)
    if xticks:
        ax.set_xticks(xticks)
        if logx:
            ax.minorticks_off()
        if xticklabel:
            ax.set_xticklabels([xticklabel(t) for t in xticks])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _titles(fig, ax, title, subtitle)
    if len(series) > 1:
        if many:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        else:
            ax.legend(loc="best")
    return _save(fig, path)


def _pick_ticks(values, limit=12):
    vals = sorted(set(values))
    if len(vals) <= limit:
        return vals
    step = math.ceil(len(vals) / limit)
    picked = vals[::step]
    if picked[-1] != vals[-1]:
        picked.append(vals[-1])
    return picked


def plot_vs_threads(path, results, metric, title, subtitle=None, series=None):
    """METRIC (display units) against thread count, one line per subject.

    The thread axis is logarithmic (base 2) when the counts span 8x or more.
    SERIES, if given, replaces the lines built from RESULTS (overlays).
    Returns PATH, or None when there is nothing to draw.
    """
    series = series if series is not None else series_vs(results, "threads", metric)
    xs = [x for s in series for x in s["x"]]
    if not xs:
        return None
    logx = 2 if max(xs) / max(1, min(xs)) >= 8 else False
    return line_plot(path, series, title, "threads", fmt.metric_axis(metric),
                     subtitle=subtitle, logx=logx, xticks=_pick_ticks(xs),
                     xticklabel=lambda t: f"{t:g}", ymin0=True)


def plot_vs_size(path, results, metric, title, subtitle=None, series=None):
    """METRIC against buffer size on log-log axes, one line per subject.

    Returns PATH, or None when there is nothing to draw.
    """
    series = series if series is not None else series_vs(results, "size", metric)
    for s in series:  # log axes: keep positive points only
        keep = [i for i, (x, y) in enumerate(zip(s["x"], s["y"])) if x > 0 and y > 0]
        for k in ("x", "y", "lo", "hi"):
            s[k] = [s[k][i] for i in keep]
        s["lo"] = [lo if lo > 0 else y for lo, y in zip(s["lo"], s["y"])]
    series = [s for s in series if s["x"]]
    xs = [x for s in series for x in s["x"]]
    if not xs:
        return None
    return line_plot(path, series, title, "buffer size (bytes, log scale)",
                     fmt.metric_axis(metric) + ", log scale", subtitle=subtitle,
                     logx=2, logy=True, xticks=_pick_ticks(xs, 10), xticklabel=fmt.size)
