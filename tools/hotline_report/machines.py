"""The "Machines compared" section: contend ratios vs threads, every machine on one plot.

  render(ctx)  when the measured files come from more than one machine
               (which_machine.machines()): for each contend measure of
               criteria.QUESTIONS (refcount / atomic_faa, lockref / cas_loop,
               ...), one plot (plots.ratio_plot) of the paired ratio subject /
               baseline against thread count, one line per machine (its first
               file with contend results) in the subject's colour, told apart by
               line style, with the median's interval (stats.py) as a band, 1.0
               and the question's threshold marked; then a table of the same figures
  machine_series(i, machine, pts, key)  one machine's ratio_plot series, for any
               plot that puts machines side by side

A ratio per repetition is what the summary judges, so the plot shows what
the verdict was made from, at every thread count; the machines' own speeds
(which differ by more than the ratios do) stay out of it.
"""

from . import criteria, fmt, plots, stats
from .which_machine import find_result, machines

TITLE = "Machines compared"


def _contend_doc(docs):
    return next((d for d in docs if any(r["scenario"] == criteria.SCENARIO for r in d.results)),
                None)


def ratio_series(doc, subject, base):
    """[(threads, Comparison)] of SUBJECT / BASE in DOC's contend results, paired per
    repetition, at every thread count where both ran and their runs pair."""
    rs = [r for r in doc.results if r["scenario"] == criteria.SCENARIO]
    out = []
    for t in sorted({r.get("threads") for r in rs if isinstance(r.get("threads"), int)}):
        a = find_result(rs, subject, t)
        b = find_result(rs, base, t)
        vals = criteria.side_by_side(a, b) if a and b else None
        if vals:
            out.append((t, stats.Comparison(vals)))
    return out


# How the machines are told apart on one plot: by line style and marker, in file order (the
# colour is the subject's, the same on every plot).
LINESTYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D"]


def machine_series(i, machine, pts, key, cpus=None):
    """A plots.ratio_plot series of the I-th machine (file order): PTS [(x, Comparison)] as
    (x, median, lo, hi); its colour KEY's (the subject's), its line style and marker the
    machine's; labelled with MACHINE (and its CPUS)."""
    label = machine + (f", {fmt.plural(cpus, 'CPU')}" if isinstance(cpus, int) else "")
    return {"label": label, "key": key, "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)],
            "points": [(x, c.median, c.lo, c.hi) for x, c in pts]}


def draw(path, lines, title, threshold=None, subtitle=None, key=None):
    """LINES [(machine, [(threads, Comparison)], cpus)]: one line per machine in KEY's colour
    (the subject's; default each machine's name), told apart by line style, its interval as
    a band (plots.ratio_plot); 1.0 and THRESHOLD as horizontal lines; where a machine runs
    more threads than its CPUs, its CPU count as a dotted line (the range shaded when the
    machines have the same count).  Returns PATH, None when nothing to draw."""
    lines = [x for x in lines if x[1]]
    if not lines:
        return None
    series = [machine_series(i, machine, pts, key or machine, cpus)
              for i, (machine, pts, cpus) in enumerate(lines)]
    xs = sorted({t for _, pts, _ in lines for t, _ in pts})
    counts = {cpus for _, _, cpus in lines}
    same = counts.pop() if len(counts) == 1 and isinstance(next(iter(counts), None), int) \
        else None
    marks = []
    if same is None:
        for machine, pts, cpus in lines:
            if isinstance(cpus, int) and any(t > cpus for t, _ in pts):
                marks.append((cpus, fmt.plural(cpus, "CPU")))  # whose: the legend says
    logx = 2 if len(xs) > 1 and xs[-1] / max(1, xs[0]) >= 8 else False
    return plots.ratio_plot(path, series, title, "threads" + (" (log scale)" if logx else ""),
                            ylabel="ratio of ops/s, paired per repetition",
                            threshold=threshold,
                            threshold_label=(f"threshold {threshold:g}x"
                                             if threshold is not None else None),
                            logx=logx, xticks=xs, xticklabel=lambda t: f"{t:g}",
                            subtitle=subtitle, oversub=same,
                            baseline_label="1.0: as fast as the baseline", marks=marks)


def _have(ctx):
    """[(machine, its first doc with contend results)] when two machines or more have one."""
    groups = machines(ctx.docs)
    have = [(name, _contend_doc(docs)) for name, docs in groups]
    have = [(name, d) for name, d in have if d is not None]
    return have if len(groups) > 1 and len(have) > 1 else []


def compared(ctx):
    """Whether the report has a "Machines compared" section (for the summary to point to)."""
    return bool(_have(ctx))


def render(ctx):
    have = _have(ctx)
    if not have:
        return []
    L = []
    seen = set()
    for q in criteria.QUESTIONS:
        for m in q["measures"]:
            if m["kind"] != "contend" or (m["subject"], m["base"]) in seen:
                continue
            seen.add((m["subject"], m["base"]))
            lines = [(name, ratio_series(d, m["subject"], m["base"]), d.env.get("cpus"))
                     for name, d in have]
            if sum(1 for _, pts, _ in lines if pts) < 1:
                continue
            if not L:
                L = [f"## {TITLE}", "",
                     "The summary's contention ratios at every thread count, the machines on "
                     "one plot: the median of the paired per-repetition ratios, its interval "
                     "as a band (stats.py), 1.0 and the question's threshold marked.", ""]
            what = f"{m['subject']} / {m['base']}"
            L += [f"### {what}: {q['question']}", ""]
            L += ctx.plot(draw, ctx.png("machines", m["subject"], m["base"]), lines,
                          threshold=m["factor"], key=m["subject"],
                          title=f"contend: {what} ops/s vs threads, machines compared",
                          subtitle=_subtitle(lines))
            ts = sorted({t for _, pts, _ in lines for t, _ in pts})
            rows = []
            for name, pts, _ in lines:
                by = dict(pts)
                rows.append([name] + [_cell(by.get(t)) for t in ts])
            L += fmt.table(["machine"] + [fmt.plural(t, "thread") for t in ts], rows,
                           "l" + "r" * len(ts)) + [""]
    return L


def _subtitle(lines):
    drawn = [name for name, pts, _ in lines if pts]
    gone = [name for name, pts, _ in lines if not pts]
    return " vs ".join(drawn) + (f"; no figures from {', '.join(gone)}" if gone else "")


def _cell(c):
    if c is None:
        return fmt.DASH
    if c.lo is None:
        return f"{c.median:.2f}x"
    return f"{c.median:.2f}x [{c.lo:.2f}, {c.hi:.2f}]"
