"""The "Machines compared" section: contend ratios vs threads, every machine on one plot.

  render(ctx)  when the measured files come from more than one machine
               (summary.machines()): for each contend measure of
               criteria.QUESTIONS (refcount / atomic_faa, lockref / cas_loop,
               ...), one plot of the paired ratio subject / baseline against
               thread count, one line per machine (its first file with contend
               results) with the median's interval (stats.py) as a band, 1.0 and
               the question's threshold marked; then a table of the same figures

A ratio per repetition is what the summary judges, so the plot shows what
the verdict was made from, at every thread count; the machines' own speeds
(which differ by more than the ratios do) stay out of it.
"""

from . import criteria, fmt, plots, stats, summary

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
        a = summary.find_result(rs, subject, t)
        b = summary.find_result(rs, base, t)
        vals = criteria.side_by_side(a, b) if a and b else None
        if vals:
            out.append((t, stats.Comparison(vals)))
    return out


def draw(path, lines, title, threshold=None, subtitle=None):
    """LINES [(machine, [(threads, Comparison)], cpus)]: one line per machine, its interval
    as a band; 1.0 and THRESHOLD as horizontal lines.  Returns PATH, None when nothing to draw."""
    lines = [x for x in lines if x[1]]
    if not lines:
        return None
    plt = plots.pyplot()
    fig, ax = plt.subplots()
    xs = sorted({t for _, pts, _ in lines for t, _ in pts})
    if len(xs) > 1 and xs[-1] / max(1, xs[0]) >= 8:
        ax.set_xscale("log", base=2)
    top = max([1.0, threshold or 0] + [p[1].hi or p[1].median for _, pts, _ in lines
                                         for p in pts])
    for i, (machine, pts, cpus) in enumerate(lines):
        color = plots.PALETTE[i % len(plots.PALETTE)]   # the machines' colours, in file order
        t = [p[0] for p in pts]
        med = [p[1].median for p in pts]
        lo = [p[1].lo if p[1].lo is not None else p[1].median for p in pts]
        hi = [p[1].hi if p[1].hi is not None else p[1].median for p in pts]
        label = machine + (f", {fmt.plural(cpus, 'CPU')}" if isinstance(cpus, int) else "")
        ax.plot(t, med, color=color, marker=plots.MARKERS[i % len(plots.MARKERS)],
                linewidth=1.8, label=label)
        ax.fill_between(t, lo, hi, color=color, alpha=0.2, linewidth=0)
        if isinstance(cpus, int) and any(x > cpus for x in t):
            ax.axvline(cpus, color=color, linestyle=":", linewidth=1.0)
    ax.axhline(1.0, color="#444444", linewidth=1.0, label="1.0: as fast as the baseline")
    if threshold is not None:
        ax.axhline(threshold, color="#777777", linestyle="--", linewidth=1.2,
                   label=f"threshold {threshold:g}x")
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x:g}" for x in xs])
    ax.set_xlabel("threads (dotted: the machine's CPU count, where exceeded)")
    ax.set_ylabel("ratio of ops/s, paired per repetition")
    ax.set_ylim(0, top * 1.08)
    ax.legend(loc="best")
    plots.titles(fig, ax, title, subtitle)
    return plots.save(fig, path)


def _have(ctx):
    """[(machine, its first doc with contend results)] when two machines or more have one."""
    groups = summary.machines(ctx.docs)
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
                          threshold=m["factor"],
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
