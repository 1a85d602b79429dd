"""PNG plots with matplotlib's Agg backend (never a window, never plt.show()).

General helpers, usable by any scenario:

  bar_chart(path, bars, ...)             one bar per subject, min-max error bars
  series_vs(results, xkey, metric)       results -> one line per subject
  line_plot(path, series, ...)           lines with error bars, linear or log axes
  plot_vs_threads(path, results, metric) a metric vs thread count, one line per subject,
                                         optionally with the oversubscribed range shaded
  plot_vs_size(path, results, metric)    a metric vs buffer size, log-log, cache sizes marked
  size_ticks(xs)                         size ticks (1 B, 16 B, 256 B, 4 KiB ...) that fit
  flat(series, value)                    whether a plot would show nothing but VALUE
  part_series(results, field, part)      lines of one part of a dict figure (latency p50)
  plot_latency(path, results, ...)       latency vs threads, the timer's resolution shaded
  mark_resolution(ax, ns)                the timer's resolution shaded on a plot of ns
  fit_xticklabels(fig, ax)               x tick labels turned or thinned until none overlap
  plot_vs_limit(path, series, ...)       a metric vs retry limit (log), the unbounded
                                         case as a separate point labelled "inf"
  ratio_plot(path, series, ...)          ratios to a baseline (median line, interval band),
                                         1.0 and a threshold marked, linear y

matplotlib is imported on first use, after the inputs have been checked, so
a bad input is reported without paying for (or hearing from) matplotlib.
"""

import math

from . import fmt

_plt = None
_colors = {}

# Colour-blind-friendly cycle (Okabe-Ito, then tab10's remainder, then Tol's).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
           "#000000", "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd",
           "#882255", "#44AA99", "#332288", "#999933"]

# Markers cycle with a length prime to the palette's, so that no two of the
# first 130 series look alike.
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "<", ">", "p", "h"]

# A metric whose largest and smallest positive values differ by more than
# this gets a logarithmic y axis when logy="auto".
LOG_RANGE = 20

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
        _colors[key] = (PALETTE[len(_colors) % len(PALETTE)], MARKERS[len(_colors) % len(MARKERS)])
    return _colors[key][0]


def marker_for(key):
    """A stable marker per series name (with color_for, tells 13+ lines apart)."""
    color_for(key)
    return _colors[key][1]


def wide_range(values, limit=LOG_RANGE):
    """True when the positive VALUES span more than LIMIT times."""
    pos = [v for v in values if v is not None and v > 0]
    return bool(pos) and max(pos) / min(pos) > limit


def _plain_log_ticks(ax, axis="y"):
    """Label a log axis 0.1, 1, 10 instead of 10^-1, 10^0, 10^1."""
    from matplotlib.ticker import FuncFormatter, NullFormatter
    a = ax.yaxis if axis == "y" else ax.xaxis
    a.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    a.set_minor_formatter(NullFormatter())


def shade_oversubscribed(ax, xs, cpus, logx):
    """Shade the thread counts above CPUS (more threads than CPUs) to the right edge.

    Returns the legend entry (handle, text), or None when nothing is shaded.
    """
    if not cpus:
        return None
    over = sorted(x for x in set(xs) if x > cpus)
    if not over:
        return None
    below = max([x for x in xs if x <= cpus], default=cpus)
    start = math.sqrt(below * over[0]) if logx else (below + over[0]) / 2
    left, right = ax.get_xlim()
    span = ax.axvspan(start, right, color="#999999", alpha=0.18, zorder=0, linewidth=0)
    ax.set_xlim(left, right)
    return span, f"oversubscribed: more runnable threads than the {cpus} CPUs"


def mark_x(ax, marks):
    """Dotted vertical lines at MARKS [(x, text)], each labelled at the foot of AX (where a
    throughput vs size plot has room: low figures are at the small sizes, on the left)."""
    from matplotlib.transforms import blended_transform_factory
    where = blended_transform_factory(ax.transData, ax.transAxes)
    for x, text in marks or []:
        ax.axvline(x, color="#666666", linestyle=":", linewidth=1.1, zorder=1)
        ax.text(x, 0.02, f"{text} ", transform=where, rotation=90, ha="right", va="bottom",
                fontsize=8, color="#444444")


def legend_extras(handles, labels, styles, shade):
    """Append to a legend's HANDLES and LABELS an entry per line style of STYLES [(linestyle,
    text[, marker])] (drawn in grey: what a style means, whatever the colour) and the
    oversubscribed shading SHADE (handle, text) from shade_oversubscribed, if any."""
    if styles:
        from matplotlib.lines import Line2D
        for ls, text, *marker in styles:
            handles.append(Line2D([], [], color="#444444", linestyle=ls or "none", linewidth=1.6,
                                  marker=marker[0] if marker else None, markersize=9,
                                  markerfacecolor="white"))
            labels.append(text)
    if shade:
        handles.append(shade[0])
        labels.append(shade[1])


def titles(fig, ax, title, subtitle):
    fig.suptitle(title, fontsize=12, fontweight="bold")
    if subtitle:
        ax.set_title(subtitle, fontsize=9, color="dimgray")


def save(fig, path):
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
    titles(fig, ax, title, subtitle)
    handles, labels = ax.get_legend_handles_labels()
    if bar_legend:  # a neutral swatch: the bars have one colour each
        from matplotlib.patches import Patch
        i = labels.index(bar_legend)
        handles[i] = Patch(facecolor="#bbbbbb", edgecolor="#555555")
    if len(labels) > 1 or refs:
        ax.legend(handles, labels, loc="upper left")
    return save(fig, path)


def series_vs(results, xkey, metric, suffix="", linestyle="-"):
    """Group RESULTS into lines of METRIC against XKEY ("threads" or "size").

    One line per subject (and per retry limit, and per value of the other
    dimension when it varies).  Error bars (min-max of "runs") are drawn
    only where METRIC is the result's headline figure.  Returns a list of
    dicts {key, label, subject, x, y, lo, hi, linestyle}; KEY (the label
    without SUFFIX) picks the colour, so one subject keeps its colour across
    files.
    """
    other = "size" if xkey == "threads" else "threads"
    others = {r.get(other) for r in results}
    limits = {r.get("retry_limit") for r in results}
    groups, subject = {}, {}
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
        subject.setdefault(key, r["subject"])
    series = []
    for key, pts in groups.items():
        pts.sort()
        series.append({"key": key, "label": key + suffix, "linestyle": linestyle,
                       "subject": subject[key],
                       "x": [p[0] for p in pts], "y": [p[1] for p in pts],
                       "lo": [p[2] for p in pts], "hi": [p[3] for p in pts]})
    return series


def _positive(series):
    """SERIES with the points a log axis cannot show (y <= 0) left out."""
    out = []
    for s in series:
        s = dict(s)
        keep = [i for i, y in enumerate(s["y"]) if y > 0]
        for k in ("x", "y", "lo", "hi"):
            s[k] = [s[k][i] for i in keep]
        s["lo"] = [lo if lo > 0 else y for lo, y in zip(s["lo"], s["y"])]
        if s["x"]:
            out.append(s)
    return out


# How an emphasised series and the others are drawn when line_plot is given EMPHASIS.
EMPHASIS = {"linewidth": 2.8, "markersize": 6.0, "alpha": 1.0, "zorder": 5}
RECESSIVE = {"linewidth": 1.0, "markersize": 3.0, "alpha": 0.45, "zorder": 2}


def emphasised(s, emphasis):
    """Whether series S is one of EMPHASIS (its key or its subject)."""
    return bool(emphasis) and (s["key"] in emphasis or s.get("subject") in emphasis)


def _draw_lines(ax, series, ylabel, logx, logy, xticks, xticklabel, ymin0, dodge,
                emphasis=None, clip_below=None):
    """One axes' worth of line_plot; returns (the y label used, extra legend entries)."""
    extra = []
    ys = [y for s in series for y in s["y"] if y is not None]
    floor = max(ys) * clip_below if clip_below and ys and max(ys) > 0 else None
    if logy == "auto":
        logy = wide_range([y for y in ys if floor is None or y >= floor])
    if logy:
        series = _positive(series)
    keys = list(dict.fromkeys(s["key"] for s in series))
    if emphasis:  # the emphasised drawn last, on top; the colours taken in the given order
        for s in series:
            color_for(s["key"])
        series = sorted(series, key=lambda s: emphasised(s, emphasis))
    for s in series:
        xs = s["x"]
        if dodge and len(keys) > 1:  # side by side, so that equal values stay visible
            off = (keys.index(s["key"]) - (len(keys) - 1) / 2) * dodge
            xs = [x * 2 ** off if logx else x + off for x in xs]
        y = s["y"]
        yerr = [[max(0.0, a - b) for a, b in zip(y, s["lo"])],
                [max(0.0, b - a) for a, b in zip(y, s["hi"])]]
        has_err = any(yerr[0]) or any(yerr[1])
        look = {"linewidth": 1.6, "markersize": 4.5, "alpha": None, "zorder": None}
        if emphasis:
            look.update(EMPHASIS if emphasised(s, emphasis) else RECESSIVE)
        for k in ("markersize", "zorder", "linewidth", "alpha"):
            if s.get(k) is not None:
                look[k] = s[k]
        ax.errorbar(xs, y, yerr=yerr if has_err else None, label=s["label"],
                    color=color_for(s["key"]), marker=s.get("marker") or marker_for(s["key"]),
                    markerfacecolor="white" if s.get("hollow") else None,
                    linestyle=s.get("linestyle", "-"), capsize=3, **look)
    if logx:
        ax.set_xscale("log", base=2 if logx is True else logx)
    if logy:
        ax.set_yscale("log")
        _plain_log_ticks(ax)
        ylabel += ", log scale"
    elif ymin0:  # from 0, with room above a line that would touch the top
        top = max([y for s in series for y in s["hi"] + s["y"]], default=0)
        ax.set_ylim(bottom=0, top=max(ax.get_ylim()[1], top * 1.1))
    if floor is not None and ax.get_ylim()[0] < floor and (logy or not ymin0):
        extra += _clip_floor(ax, series, floor, logx, dodge, keys)
    if logy:
        _dense_log_ticks(ax)
    if xticks:
        ax.set_xticks(xticks)
        if logx:
            ax.minorticks_off()
        if xticklabel:
            ax.set_xticklabels([xticklabel(t) for t in xticks])
    return ylabel, extra


def _dense_log_ticks(ax):
    """On a log y axis spanning less than two decades, ticks at 1, 2 and 5 of each decade
    (else one or no labelled tick would be in view)."""
    from matplotlib.ticker import LogLocator
    bottom, top = ax.get_ylim()
    if bottom > 0 and top / bottom < 100:
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))


# Points below a clip_below floor have their values written when there are at most this many,
# no two closer than this (in pixels).
CLIP_WRITTEN = 6
CLIP_GAP_PX = 36


def _clip_floor(ax, series, floor, logx, dodge, keys):
    """Stop AX's y axis at FLOOR; each point below it drawn as a triangle on the axis' foot
    with its value written above (when there are few and far apart).  Returns the
    legend entries saying so."""
    from matplotlib.lines import Line2D
    low = [(s, x, y) for s in series for x, y in zip(s["x"], s["y"]) if y is not None and y < floor]
    if not low:
        return []
    ax.set_ylim(bottom=floor)
    placed = []
    for s, x, y in low:
        if dodge and len(keys) > 1:
            off = (keys.index(s["key"]) - (len(keys) - 1) / 2) * dodge
            x = x * 2 ** off if logx else x + off
        placed.append((s, x, y))
    pixels = sorted(ax.transData.transform((x, floor))[0] for _, x, _ in placed)
    written = len(low) <= CLIP_WRITTEN and all(b - a >= CLIP_GAP_PX
                                               for a, b in zip(pixels, pixels[1:]))
    for s, x, y in placed:
        color = color_for(s["key"])
        ax.plot([x], [floor], marker="v", markersize=9, color=color, clip_on=False,
                linestyle="none", zorder=6)
        if written:
            ax.annotate(f"{y:.2g}", (x, floor), xytext=(0, 7), textcoords="offset points",
                        ha="center", va="bottom", fontsize=7, color=color, zorder=6)
    return [(Line2D([], [], color="#444444", marker="v", linestyle="none", markersize=8),
             f"below the axis (under {floor:.2g})" + (": value written above" if written
                                                      else ""))]


def mark_resolution(ax, resolution_ns):
    """Shade AX from its foot up to RESOLUTION_NS (a y in ns): the figures there are at the
    timer's resolution, not measurements of the op.  Returns the legend entry, or None when
    the axis does not reach that low."""
    if not _finite(resolution_ns) or resolution_ns <= 0:
        return None
    bottom, top = ax.get_ylim()
    if bottom >= resolution_ns:
        return None
    span = ax.axhspan(bottom, resolution_ns, color="#D55E00", alpha=0.12, hatch="//",
                      linewidth=0, zorder=0)
    ax.set_ylim(bottom, top)
    return span, f"at the timer's resolution (\u2264 {resolution_ns:.3g} ns): not a measurement"


def overlapping(labels, renderer, pad=2.0):
    """Whether any two of the text LABELS (non-empty, visible) overlap as drawn by RENDERER."""
    boxes = sorted((t.get_window_extent(renderer) for t in labels
                    if t.get_visible() and t.get_text()), key=lambda b: b.x0)
    return any(a.x1 + pad > b.x0 and a.y0 < b.y1 and b.y0 < a.y1
               for i, a in enumerate(boxes) for b in boxes[i + 1:])


def fit_xticklabels(fig, ax):
    """Tick labels of AX's x axis that do not overlap: as they are if they fit, else turned
    30 degrees, else every other one left blank."""
    renderer = fig.canvas.get_renderer()
    labels = ax.get_xticklabels()
    if not overlapping(labels, renderer):
        return
    for t in labels:
        t.set_rotation(30)
        t.set_ha("right")
        t.set_rotation_mode("anchor")
    keep = 1
    while overlapping(ax.get_xticklabels(), renderer) and keep < len(labels):
        keep *= 2
        for i, t in enumerate(ax.get_xticklabels()):
            t.set_visible(i % keep == 0)


def line_plot(path, series, title, xlabel, ylabel, subtitle=None, logx=False, logy=False,
              xticks=None, xticklabel=None, ymin0=False, oversub=None, styles=None,
              panels=None, dodge=0, marks=None, emphasis=None, clip_below=None, hlines=None,
              resolution_ns=None):
    """Draw SERIES (from series_vs) as lines with markers and error bars.

    logx: False, True (base 10) or an integer base.  logy: False, True or
    "auto" (log when the values span more than LOG_RANGE times).  XTICKS:
    explicit tick positions; XTICKLABEL: function tick value -> text.
    OVERSUB: a CPU count; thread counts above it are shaded.  STYLES: extra
    legend entries [(linestyle, text)] explaining line styles, or
    (linestyle, text, marker) for a hollow marker (linestyle "" for none).
    A series whose label starts with "_" stays out of the legend; one may
    set its own "marker", "markersize", "hollow" and "zorder".  PANELS: a list of
    (name, series, ylabel) drawn side by side, each on its own y scale,
    instead of SERIES and YLABEL.  DODGE: shift each series sideways by
    this much (in octaves on a log axis) so that equal values do not hide
    one another.  MARKS: [(x, text)] drawn as labelled dotted vertical
    lines on every panel (e.g. cache sizes).  EMPHASIS: series keys (or subjects) drawn
    thick and on top, the others thin and light, and the legend outside the axes.
    CLIP_BELOW: a factor; points below it times the largest value do not stretch the y
    axis (the log/linear choice ignores them; on a log axis, or a linear one not from 0,
    the axis stops there and each is a triangle on its foot with its value written).
    HLINES: [(y, text)] solid grey horizontal lines in the legend (e.g. 1.0, "1 = no retry").
    RESOLUTION_NS: the timer's resolution on a plot of ns: shaded from the foot up to it,
    "at the timer's resolution".  Tick labels that would overlap are turned or thinned
    (fit_xticklabels).  Returns PATH.
    """
    plt = pyplot()
    panels = panels or [(None, series, ylabel)]
    everything = [s for _, ser, _ in panels for s in ser]
    labels_all = {s["label"] for s in everything if not s["label"].startswith("_")}
    many = len(labels_all) + len(styles or []) > 6 or bool(emphasis)
    width = (9.5 if many else 8.0) + 4.5 * (len(panels) - 1)
    height = 5.6 if len(labels_all) > 10 and len(panels) == 1 else 4.8  # room for dense lines
    fig, axes = plt.subplots(1, len(panels), figsize=(width, height), squeeze=False)
    axes = axes[0]
    shade = None
    extra = []
    for ax, (name, ser, ylab) in zip(axes, panels):
        shade = _line_panel(ax, name, ser, ylab, xlabel, extra, logx=logx, logy=logy,
                            xticks=xticks, xticklabel=xticklabel, ymin0=ymin0, dodge=dodge,
                            emphasis=emphasis, clip_below=clip_below, hlines=hlines,
                            resolution_ns=resolution_ns, oversub=oversub, marks=marks) or shade
    _panel_titles(fig, axes, title, subtitle)
    _line_legend(axes, everything, extra, styles, shade, emphasis, many or len(panels) > 1)
    for ax in axes:
        fit_xticklabels(fig, ax)
    return save(fig, path)


def _line_panel(ax, name, ser, ylab, xlabel, extra, *, logx, logy, xticks, xticklabel, ymin0,
                dodge, emphasis, clip_below, hlines, resolution_ns, oversub, marks):
    """One panel of line_plot: its lines, horizontal lines, resolution, labels, shading and
    marks; the legend entries beyond the series' added to EXTRA [(handle, text)], once each.
    Returns the oversubscribed range's shading (None: none)."""
    ylab, more = _draw_lines(ax, ser, ylab, logx, logy, xticks, xticklabel, ymin0, dodge,
                             emphasis, clip_below)
    extra += [e for e in more if e[1] not in [x[1] for x in extra]]
    for y, text in hlines or []:  # in the legend after the series
        h = ax.axhline(y, color="#555555", linewidth=1.3, zorder=1)
        if text not in [x[1] for x in extra]:
            extra.append((h, text))
    res = mark_resolution(ax, resolution_ns) if resolution_ns is not None else None
    if res and res[1] not in [x[1] for x in extra]:
        extra.append(res)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylab)
    shade = shade_oversubscribed(ax, [x for s in ser for x in s["x"]], oversub, logx)
    mark_x(ax, marks)
    if name:
        ax.set_title(name, fontsize=10)
    return shade


def _panel_titles(fig, axes, title, subtitle):
    """The title and subtitle: above one panel, or over the figure for several."""
    if len(axes) == 1:
        titles(fig, axes[0], title, subtitle)
        return
    fig.suptitle(title, fontsize=12, fontweight="bold")
    if subtitle:
        fig.text(0.5, -0.01, subtitle, ha="center", va="top", fontsize=9, color="dimgray")
    fig.tight_layout()


def _line_legend(axes, everything, extra, styles, shade, emphasis, outside):
    """line_plot's one legend, on the last panel: every panel's series once (the emphasised
    first), then EXTRA, the STYLES and the shading; outside the axes when OUTSIDE."""
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    if emphasis:  # the emphasised first
        order = sorted(range(len(labels)), key=lambda i: labels[i] not in
                       {s["label"] for s in everything if emphasised(s, emphasis)})
        handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    for h, text in extra:
        handles.append(h)
        labels.append(text)
    legend_extras(handles, labels, styles, shade)
    if len(labels) > 1 or shade:
        if outside:
            axes[-1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                            borderaxespad=0)
        else:
            axes[-1].legend(handles, labels, loc="best")


def _pick_ticks(values, limit=12):
    vals = sorted(set(values))
    if len(vals) <= limit:
        return vals
    step = math.ceil(len(vals) / limit)
    picked = vals[::step]
    if picked[-1] != vals[-1]:
        picked.append(vals[-1])
    return picked


# Metrics whose plots mark a value by default (plot_vs_threads' HLINES): attempts per success
# are 1 when no cmpxchg had to be retried.
UNIT_LINES = {"attempts_per_success": (1.0, "1 = no retry")}


def plot_vs_threads(path, results, metric, title, subtitle=None, series=None, oversub=None,
                    logy=False, xlabel="threads", ylabel=None, styles=None, panels=None,
                    dodge=0, ymin0=True, emphasis=None, clip_below=None, hlines=None,
                    resolution_ns=None):
    """METRIC (display units) against thread count, one line per subject.

    The thread axis is logarithmic (base 2) when the counts span 8x or more.
    SERIES, if given, replaces the lines built from RESULTS (overlays);
    PANELS [(name, series, ylabel)] draws several side by side.  OVERSUB (a
    CPU count) shades the counts above it; logy, styles, dodge, emphasis,
    clip_below, hlines and resolution_ns as for line_plot; HLINES defaults to
    UNIT_LINES[METRIC] (attempts: 1.0 marked), [] for none.  Returns PATH, or
    None when there is nothing to draw.
    """
    if hlines is None and metric in UNIT_LINES:  # e.g. attempts: 1 = no retry, marked
        hlines = [UNIT_LINES[metric]]
    if panels is None:
        series = series if series is not None else series_vs(results, "threads", metric)
        panels = [(None, series, ylabel or fmt.metric_axis(metric))]
    xs = [x for _, ser, _ in panels for s in ser for x in s["x"]]
    if not xs:
        return None
    logx = 2 if max(xs) / max(1, min(xs)) >= 8 else False
    return line_plot(path, None, title, xlabel, None, subtitle=subtitle, logx=logx, logy=logy,
                     xticks=_pick_ticks(xs), xticklabel=lambda t: f"{t:g}", ymin0=ymin0,
                     oversub=oversub, styles=styles, panels=panels, dodge=dodge,
                     emphasis=emphasis, clip_below=clip_below, hlines=hlines,
                     resolution_ns=resolution_ns)


def part_series(results, field, part, xkey="threads", order=None):
    """line_plot series of the PART (e.g. "p50") of dict figure FIELD (e.g. "latency_ns") of
    RESULTS against XKEY, one per subject (in ORDER, else as they come); no error bars."""
    pts = {}
    for r in results:
        v = r.get(field)
        y = v.get(part) if isinstance(v, dict) else None
        if _finite(y) and r.get(xkey) is not None:
            pts.setdefault(r["subject"], []).append((r[xkey], y))
    subjects = [s for s in (order or []) if s in pts] + [s for s in pts if s not in (order or [])]
    out = []
    for s in subjects:
        p = sorted(pts[s])
        ys = [y for _, y in p]
        out.append({"key": s, "label": s, "subject": s, "x": [x for x, _ in p], "y": ys,
                    "lo": list(ys), "hi": list(ys)})
    return out


def plot_latency(path, results, title, part="p50", subtitle=None, oversub=None, order=None):
    """Latency PART (p50, p99, p999) of RESULTS' latency_ns vs threads, one line per subject,
    log y; the range at the timer's resolution (machine_state: up to AT_RESOLUTION steps of
    the results' latency clock, the figures the tables show as "<= N") shaded and labelled
    (an older file without the resolution: nothing shaded).  Returns PATH, or None when
    there is nothing to draw."""
    from . import machine_state
    series = part_series(results, "latency_ns", part, order=order)
    if not series:
        return None
    steps = [machine_state.latency_step(r) for r in results]
    steps = [s for s in steps if s is not None]
    res = (machine_state.AT_RESOLUTION * max(steps) * getattr(machine_state, "SLACK", 1.0)
           if steps else None)
    return plot_vs_threads(path, [], "latency_ns", title, subtitle=subtitle, series=series,
                           oversub=oversub, logy=True, ymin0=False,
                           ylabel=f"latency of one op, {part} (ns)", resolution_ns=res)


def flat(series, value=1.0, tol=0.02):
    """Whether every point of SERIES is within TOL (relative) of VALUE: a plot of them
    would show nothing but VALUE.  SERIES: line_plot's dicts (their "y") or ratio_plot's
    (their "points"' medians), or a list of panels [(name, series, ylabel)]."""
    ys = []
    for s in series or []:
        if isinstance(s, tuple):  # a panel
            ys += [y for x in s[1] for y in x.get("y", [])]
        elif "points" in s:
            ys += [p[1] for p in s["points"]]
        else:
            ys += list(s.get("y", []))
    ys = [y for y in ys if _finite(y)]
    return all(abs(y - value) <= tol * abs(value) for y in ys)


def _round_sizes(xs):
    """The powers of two among sizes XS (ticks that read well), or XS when fewer than two."""
    pow2 = [x for x in xs if x > 0 and x & (x - 1) == 0]
    return pow2 if len(set(pow2)) >= 2 else xs


def size_ticks(xs, limit=9):
    """Ticks for sizes XS on a log axis: the powers of 2**k (k in 1, 2, 4, 10, 20: 1 B, 16 B,
    256 B, 4 KiB ...) from the smallest to the largest, the smallest k giving at most LIMIT
    of them; the sizes themselves (_pick_ticks) when that gives fewer than two."""
    pos = [x for x in xs if x > 0]
    if not pos:
        return []
    lo = math.ceil(math.log2(min(pos)) - 1e-9)
    hi = math.floor(math.log2(max(pos)) + 1e-9)
    for k in (1, 2, 4, 10, 20):
        ticks = [1 << e for e in range(lo, hi + 1) if e % k == 0 and e >= 0]
        if len(ticks) <= limit:
            break
    return ticks if len(ticks) >= 2 else _pick_ticks(_round_sizes(pos), limit)


def plot_vs_size(path, results, metric, title, subtitle=None, series=None, marks=None,
                 styles=None, emphasis=None, clip_below=None):
    """METRIC against buffer size on log-log axes, one line per subject.

    MARKS [(bytes, text)]: sizes marked by labelled dotted lines (cache sizes);
    those outside the sizes drawn are left out.  STYLES as for line_plot.
    EMPHASIS: subjects (or series keys) drawn thick and on top, the rest thin and
    light; CLIP_BELOW: the y axis stops at this factor times the largest value, the
    points below marked on its foot (both as for line_plot).  The x ticks are powers of 2**k in binary units that do not
    overlap (size_ticks).  Returns PATH, or None when there is nothing to draw.
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
    marks = [(x, text) for x, text in marks or [] if min(xs) <= x <= max(xs)]
    return line_plot(path, series, title, "buffer size (bytes, log scale)",
                     fmt.metric_axis(metric) + ", log scale", subtitle=subtitle,
                     logx=2, logy=True, xticks=size_ticks(xs), xticklabel=fmt.size,
                     marks=marks, styles=styles, emphasis=emphasis, clip_below=clip_below)


INF = "\u221e"


def plot_vs_limit(path, series, title, ylabel, subtitle=None, logy=False):
    """A figure against retry limit: one line per entry of SERIES.

    SERIES: dicts {key, label, x, y, lo, hi, linestyle}; an x of None is
    the unbounded case, drawn as a separate point (not joined to the line)
    at the right of the log axis, under a tick labelled "inf" (the symbol),
    past a dotted divider.  logy as for line_plot.  Returns PATH, or None
    when there is nothing to draw.
    """
    finite = sorted({x for s in series for x in s["x"] if x is not None})
    has_inf = any(x is None for s in series for x in s["x"])
    if not finite and not has_inf:
        return None
    plt = pyplot()
    top = max(finite) if finite else 1
    inf_x = top * 4
    if logy == "auto":
        logy = wide_range([y for s in series for y in s["y"]])
    fig, ax = plt.subplots(figsize=(9.5, 4.8) if len(series) > 6 else None)
    for s in series:
        pts = [p for p in zip(s["x"], s["y"], s["lo"], s["hi"]) if not logy or p[1] > 0]
        color, marker = color_for(s["key"]), marker_for(s["key"])
        style = dict(color=color, marker=marker, markersize=5, linewidth=1.6, capsize=3)
        bounded = [p for p in pts if p[0] is not None]
        if bounded:
            ys = [p[1] for p in bounded]
            err = [[max(0.0, p[1] - p[2]) for p in bounded],
                   [max(0.0, p[3] - p[1]) for p in bounded]]
            ax.errorbar([p[0] for p in bounded], ys, yerr=err if any(err[0] + err[1]) else None,
                        label=s["label"], linestyle=s.get("linestyle", "-"), **style)
        for p in pts:
            if p[0] is None:
                err = [[max(0.0, p[1] - p[2])], [max(0.0, p[3] - p[1])]]
                ax.errorbar([inf_x], [p[1]], yerr=err, linestyle="none",
                            label=None if bounded else s["label"], **style)
    ax.set_xscale("log")
    ticks = finite + ([inf_x] if has_inf else [])
    ax.set_xticks(ticks)
    ax.minorticks_off()
    ax.set_xticklabels([f"{t:g}" for t in finite] + ([INF + "\n(unbounded)"] if has_inf else []))
    if has_inf and finite:
        ax.axvline(math.sqrt(top * inf_x), color="#888888", linestyle=":", linewidth=1.2)
    ax.set_xlim(min(ticks) / 1.5, max(ticks) * 1.5)
    if logy:
        ax.set_yscale("log")
        _plain_log_ticks(ax)
        ylabel += ", log scale"
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("retry limit (cmpxchg attempts before taking the lock; log scale)")
    ax.set_ylabel(ylabel)
    titles(fig, ax, title, subtitle)
    if len(series) > 1:
        ax.legend(loc="lower right")
    return save(fig, path)


def _finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def ratio_range(medians, extra=(), ends=()):
    """(bottom, top) of a linear ratio axis: 1.0, EXTRA (e.g. the threshold) and every median
    inside with a margin; interval ENDS as far as they widen it by no more than its span (or
    0.4) on either side, so that one wild interval does not flatten the medians."""
    core = [1.0] + [v for v in list(extra) + list(medians) if _finite(v)]
    lo, hi = min(core), max(core)
    reach = max(hi - lo, 0.4)
    ends = [v for v in ends if _finite(v)]
    lo = max(min([lo] + ends), lo - reach)
    hi = min(max([hi] + ends), hi + reach)
    if hi - lo < 0.1:  # a flat plot: 1.0 with a little room either side
        lo, hi = min(lo, (lo + hi) / 2 - 0.05), max(hi, (lo + hi) / 2 + 0.05)
    pad = (hi - lo) * 0.08
    bottom = lo - pad
    if lo >= 0 and bottom < 0:
        bottom = 0.0
    return bottom, hi + pad


def ratio_plot(path, series, title, xlabel, ylabel="ratio to baseline", threshold=None,
               threshold_label=None, logx=False, xticks=None, xticklabel=None,
               subtitle=None, oversub=None, baseline_label=None, styles=None, marks=None):
    """SERIES: list of dicts {"label": str, "key": str (colour/marker key, as color_for),
    "points": [(x, median, lo, hi), ...]} with lo/hi None where there is no interval; a
    series may also set "linestyle" (default "-"), "marker" (default marker_for(key)),
    "markersize" and "hollow" (a white marker face); a label starting with "_" stays out
    of the legend.  BASELINE_LABEL: the legend's text for 1.0 (default "1.0 = baseline");
    STYLES: extra legend entries as for line_plot; MARKS: [(x, text)] labelled dotted
    vertical lines (mark_x; e.g. each machine's CPU count).
    Draw each median as a line with markers and its interval as a translucent band of the
    same colour (error bars for an isolated point); a solid grey line at 1.0 ("= baseline");
    a dashed line at THRESHOLD with THRESHOLD_LABEL if given; XTICKS/XTICKLABEL as in
    line_plot (e.g. sizes as "4 KiB"); OVERSUB: the CPU count, to shade x > cpus as
    line_plot does. Linear y, its range chosen to show 1.0, the threshold and all medians
    (intervals may be clipped, saying so in a small note); return None if there is
    nothing to draw, else the path."""
    drawn = []
    for s in series or []:
        pts = sorted((p[0], p[1], p[2] if _finite(p[2]) else None, p[3] if _finite(p[3]) else None)
                     for p in s.get("points") or [] if _finite(p[0]) and _finite(p[1]))
        if logx:
            pts = [p for p in pts if p[0] > 0]
        if pts:
            drawn.append((s, pts))
    if not drawn:
        return None
    plt = pyplot()
    labels = [s["label"] for s, _ in drawn if not s["label"].startswith("_")]
    outside = len(labels) > 4 or max((len(t) for t in labels), default=0) > 40
    fig, ax = plt.subplots(figsize=(9.5, 4.8) if outside else None)
    meds, ends = [], []
    for s, pts in drawn:
        _ratio_series(ax, s, pts, meds, ends)
    ax.axhline(1.0, color="#555555", linewidth=1.3, zorder=1,
               label=baseline_label or "1.0 = baseline")
    if _finite(threshold):
        ax.axhline(threshold, color="#333333", linestyle="--", linewidth=1.2, zorder=1,
                   label=threshold_label or f"threshold {threshold:g}")
    bottom, top = ratio_range(meds, [threshold] if _finite(threshold) else [], ends)
    ax.set_ylim(bottom, top)
    allx = _ratio_xaxis(ax, drawn, logx, xticks, xticklabel)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    shade = shade_oversubscribed(ax, allx, oversub, logx)
    mark_x(ax, marks)
    if any(v < bottom or v > top for v in ends):
        ax.annotate("intervals clipped at the plot's edge", xy=(1.0, 0.0),
                    xycoords=("axes fraction", ax.xaxis.label), xytext=(0, -3),
                    textcoords="offset points", ha="right", va="top", fontsize=7,
                    color="dimgray")
    titles(fig, ax, title, subtitle)
    handles, names = ax.get_legend_handles_labels()
    legend_extras(handles, names, styles, shade)
    outside = outside or len(names) > 7 or bool(marks)  # "best" does not see the marks' text
    if outside:
        ax.legend(handles, names, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    else:
        ax.legend(handles, names, loc="best")
    fit_xticklabels(fig, ax)
    return save(fig, path)


def _ratio_series(ax, s, pts, meds, ends):
    """One series of ratio_plot: its medians as a line with markers, its intervals as a band
    (an error bar where a point has no neighbour with one); the medians added to MEDS and
    the intervals' ends to ENDS (for the y range)."""
    nan = float("nan")
    color = color_for(s["key"])
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    meds += ys
    ax.plot(xs, ys, color=color, marker=s.get("marker") or marker_for(s["key"]),
            markersize=s.get("markersize", 5), linewidth=1.8,
            linestyle=s.get("linestyle", "-"), label=s["label"], zorder=3,
            markerfacecolor="white" if s.get("hollow") else None)
    has = [p[2] is not None and p[3] is not None for p in pts]
    lo = [p[2] if h else nan for p, h in zip(pts, has)]
    hi = [p[3] if h else nan for p, h in zip(pts, has)]
    ends += [v for v in lo + hi if v == v]
    ax.fill_between(xs, lo, hi, color=color, alpha=0.18, linewidth=0, zorder=2)
    for i, h in enumerate(has):  # an interval with no neighbour to join: an error bar
        if h and not (i > 0 and has[i - 1]) and not (i + 1 < len(has) and has[i + 1]):
            ax.errorbar([xs[i]], [ys[i]], yerr=[[max(0.0, ys[i] - lo[i])],
                                                [max(0.0, hi[i] - ys[i])]],
                        fmt="none", ecolor=color, capsize=4, linewidth=1.4, zorder=3)


def _ratio_xaxis(ax, drawn, logx, xticks, xticklabel):
    """ratio_plot's x axis: its scale, its range around a lone x, its ticks; returns every x
    drawn, in order."""
    if logx:
        ax.set_xscale("log", base=2 if logx is True else logx)
    allx = sorted({p[0] for _, pts in drawn for p in pts})
    if len(allx) == 1:
        ax.set_xlim(allx[0] / 2 if logx else allx[0] - 1, allx[0] * 2 if logx else allx[0] + 1)
    ticks = xticks if xticks else (allx if len(allx) <= 12 else None)
    if ticks:
        ax.set_xticks(ticks)
        if logx:
            ax.minorticks_off()
        ax.set_xticklabels([xticklabel(t) if xticklabel else f"{t:g}" for t in ticks])
    return allx
