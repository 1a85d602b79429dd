"""report.md, the answer: the summary, then one short section per scenario with its ratio plot.

  build(ctx)  report.md's text, in this order: the title; the machine line
              (summary.machine_line) and the shared-machine flag; the summary
              table and its note (summary.py); one short section per scenario
              the measured files have, each a few sentences of what the figures
              say about its question, ONE plot that answers it (a ratio to a
              baseline: ratios.py, plots.ratio_plot) and a link to its full
              section in appendix.md; "Many-core machines (simulated)" in short
              when simulated files are given; the input files.

The plots, by scenario:

  contend          each question's subject / its baseline (criteria.QUESTIONS) vs
                   threads, the questions' thresholds dashed in their colours, the
                   oversubscribed range shaded
  lockref-sweep    the swept lockref at each retry limit / the unbounded loop at the
                   most threads (log x), the summary's threshold
  zero             hl_zero / glibc_memset vs size (criteria.ZERO_VS_GLIBC), hot and
                   cold buffers, its threshold
  copy             hl_try_copy / glibc_memcpy vs size (criteria.COPY_VS_GLIBC), hot and
                   cold buffers, the hot criterion's threshold; in words, hl_try_copy
                   against process_vm_readv and hl_try_load64 against a read per word
  openclose        each subject / its baseline (a fact, else criteria.OPENCLOSE_RATIO:
                   processes / threads) vs N: whether N processes, a file table each, fare
                   differently from N threads sharing one (the host kernel's question; its
                   ops/s plot is in the appendix)
  refcount-timing  no plot: two or three ratios at one thread count are read better as a
                   table of figures with their intervals beside the kernel's published ones

Files from several machines: the same plots with one series per machine (its
line style) and the figures of each machine in the sentences.  Every ratio in
the text is the plotted one, the median of the paired per-repetition ratios
(the summary's figure); "no interval: N repetitions" where the repetitions
are too few for one (stats.MIN_LEVEL).  Everything else is in appendix.md
(report.py).
"""

from . import (common, contend, copying, criteria, fmt, kernel, lockref_sweep, machine_state,
               manycore, openclose, plots, ratios, refcount_timing, stats, summary, zeroing)
from . import VERSION
from .documents import APPENDIX, anchor, files_table, link

# The machines' line styles (dotted is the contend plot's thresholds').
LINESTYLES = ("-", "--", "-.", (0, (6, 2, 1, 2, 1, 2)))
STYLE_NAMES = ("solid", "dashed", "dash-dot", "dash-dot-dot")

# The scenarios report.md has a short section for, in its order, with their titles.
ORDER = ("refcount-timing", "contend", "lockref-sweep", "zero", "copy", "openclose")
TITLES = {"refcount-timing": refcount_timing.TITLE, "contend": contend.TITLE,
          "lockref-sweep": lockref_sweep.TITLE, "zero": zeroing.TITLE,
          "copy": copying.TITLE, "openclose": openclose.TITLE}


def _x(v):
    return f"{v:.2f}x"


def ci(p):
    """A point's median with its interval: "1.00x [0.87x, 1.36x]", else the median alone."""
    if p.lo is None:
        return f"{p.median:.2f}x"
    return f"{p.median:.2f}x [{p.lo:.2f}x, {p.hi:.2f}x]"


def reps_note(points):
    """"" when every point has an interval; else what is missing: "no interval: 1 repetition"."""
    few = sorted({p.n for p in points if p.lo is None})
    if not few:
        return ""
    return "no interval: " + " or ".join(fmt.plural(n, "repetition") for n in few)


def band_words(points):
    """How the plot's band and the brackets are made, in words."""
    if not any(p.lo is not None for p in points):
        return "each the median of the paired per-repetition ratios (" + reps_note(points) + ")"
    few = reps_note(points)
    return ("each the median of the paired per-repetition ratios, its interval as the band "
            f"and in brackets ({levels_words(points)})"
            + (f"; {few} at some points" if few else ""))


def levels_words(points):
    """The repetitions behind the intervals and each one's confidence level: "5 repetitions,
    93.75%", "5 repetitions at 93.75% and 9 at 96.09%", or beyond three counts (--until-decided
    took more at some points) the range of each."""
    pairs = sorted({(p.n, p.level) for p in points if p.lo is not None})
    if len(pairs) == 1:
        n, lv = pairs[0]
        return f"{fmt.plural(n, 'repetition')}, {lv:.2%}"
    if len(pairs) <= 3:
        head = f"{fmt.plural(pairs[0][0], 'repetition')} at {pairs[0][1]:.2%}"
        rest = [f"{n} at {lv:.2%}" for n, lv in pairs[1:]]
        return head + (", " if len(rest) > 1 else " and ") + \
            (", ".join(rest[:-1]) + " and " + rest[-1] if len(rest) > 1 else rest[0])
    levels = sorted(lv for _, lv in pairs)
    return (f"{pairs[0][0]} to {pairs[-1][0]} repetitions, more where the bench's "
            f"--until-decided took them; intervals at {levels[0]:.2%} to {levels[-1]:.2%}, "
            "as each count allows")


def links(ctx, have, scenario):
    """The line linking to the scenario's full sections, one per machine."""
    if len(have) == 1:
        return [f"Its tables and other plots: {link(ctx, have[0][1], scenario)}.", ""]
    return ["Its tables and other plots: " + ", ".join(
        link(ctx, d, scenario, name) for name, d in have) + ".", ""]


def _has(doc, scenario):
    return any(r["scenario"] == scenario for r in doc.results)


def measured(ctx, scenario):
    """[(machine name, doc)]: each machine's first measured file with SCENARIO."""
    out = []
    for name, docs in summary.machines(ctx.docs):
        d = next((d for d in docs if _has(d, scenario)), None)
        if d is not None:
            out.append((name, d))
    return out


def multi(ctx):
    """Whether the measured files come from more than one machine (summary.machines)."""
    return len(summary.machines(ctx.docs)) > 1


def _tag(ctx, name):
    """A machine's name before its sentences, when there are several machines."""
    return f"**{name}:** " if multi(ctx) else ""


def _styled(ctx, have, i, series):
    """Series dicts for ratio_plot; with several machines, the machine in the label and its
    own line style."""
    name = have[i][0]
    out = []
    for s in series:
        d = s.plot()
        if multi(ctx):
            d["label"] = f"{name}: {d['label']}"
            d["linestyle"] = LINESTYLES[i % len(LINESTYLES)]
        out.append(d)
    return out


def _subtitle(have):
    if len(have) == 1:
        doc = have[0][1]
        return common.subtitle(doc, doc.results)
    return " vs ".join(f"{name} ({STYLE_NAMES[i % len(STYLE_NAMES)]})"
                       for i, (name, _) in enumerate(have))


def build(ctx):
    L = ["# hotline report", "", summary.machine_line(ctx.docs), ""]
    for d in ctx.docs:
        if not d.simulated:
            L += machine_state.shared_line(d.results)
    L += summary.render(ctx)
    scen = [s for s in ORDER if measured(ctx, s)]
    others = list(dict.fromkeys(r["scenario"] for d in ctx.docs if not d.simulated
                                for r in d.results if r["scenario"] not in ORDER))
    if scen or others:
        L += ["Below, one section per scenario: what the figures say about its question and "
              "the plot that answers it; every table and figure is in "
              f"[the appendix]({APPENDIX}).", ""]
    for s in scen:
        L += [f"## {s}: {TITLES[s]}", ""]
        L += RENDER[s](ctx, measured(ctx, s))
    for s in others:
        have = measured(ctx, s)
        L += [f"## {s}", "", "Not a scenario this version of hotline-report knows: its "
              f"figures are in a plain table, {link(ctx, have[0][1], s, 'in the appendix')}.",
              ""]
    L += _manycore(ctx)
    L += ["## Files", ""]
    L += _files(ctx)
    return "\n".join(L).rstrip() + "\n"


def _files(ctx):
    n = len(ctx.docs)
    return files_table(ctx) + [
        "", f"Generated by hotline-report {VERSION} from {fmt.plural(n, 'input file')}; "
        f"[appendix.md]({APPENDIX}) holds each file's environment, every table and plot, "
        "what each file says in full and the project's done criteria."
        + (" Files from hotline-sim are **simulated**: the output of a model, not "
           "measurements." if any(d.simulated for d in ctx.docs) else ""), ""]


# -- refcount-timing --------------------------------------------------------------------------

def _refcount(ctx, have):
    """A table, not a plot: a few ratios at one thread count, each with its interval, beside
    the kernel's published ratio for the machine's arch."""
    cols = []
    for name, doc in have:
        pts = ratios.timing(doc)
        if pts:
            cols.append((name, doc, {s: (to, p) for s, to, p in pts}))
    if not cols:
        return ["No per-repetition ratios in these files (an older bench): the figures are in "
                "the appendix.", ""] + links(ctx, have, "refcount-timing")
    subjects = list(dict.fromkeys(s for _, _, by in cols for s in by))
    refs = list({id(r): r for r in (kernel.reference_for(d.env.get("arch"))
                                    for _, d, _ in cols)}.values())  # each arch's, once
    ref = refs[0]
    compared = {c["subject"] for c in kernel.REFCOUNT_COMPARED}
    rows = []
    for s in subjects:
        to = next(by[s][0] for _, _, by in cols if s in by)
        row = [f"{s} / {to}"]
        for _, _, by in cols:
            if s not in by:
                row.append(fmt.DASH)
                continue
            p = by[s][1]
            row.append(ci(p) + (f" ({reps_note([p])})" if p.lo is None else ""))
        row.append("; ".join(f"{r[s][0]} ({r['short']}, {r['machine']})" for r in refs)
                   if s in compared else fmt.DASH)
        rows.append(row)
    head = ["time per operation"] + [f"{n}: median [interval]" if multi(ctx) else
                                     "this machine: median [interval]" for n, _, _ in cols]
    name, doc, by = cols[0]
    base = next(iter(by.values()))[0]
    L = [f"One thread, no contention: each subject's time per operation over a plain "
         f"{base}'s, the median of the per-repetition ratios with its interval, beside the "
         "kernel's published ratio.", ""]
    L += fmt.table(head + ["published (docs/sources.md)"], rows, "l" + "r" * len(cols) + "l")
    L += [""]
    S = []
    for c in kernel.REFCOUNT_COMPARED:
        s = c["subject"]
        if s not in by:
            continue
        v, k = by[s][1].median, ref[s][1]
        if abs(v - k) <= 0.05 * k:
            S.append(f"{s} is in line with {c['kernel']} ({_x(v)} vs {ref[s][0]})")
        elif v > k:
            S.append(f"{s} is dearer here than {c['kernel']} ({_x(v)} vs {ref[s][0]})")
        else:
            S.append(f"{s} is cheaper here than {c['kernel']} ({_x(v)} vs {ref[s][0]})")
    text = []
    if S:
        text.append(("On " + name + ", " if multi(ctx) else "") + "; ".join(S) + ".")
    q = criteria.INLINE_LOOP
    if q["subject"] in by and q["base"] in by:
        ri, rf = by[q["subject"]][1].median, by[q["base"]][1].median
        text.append(f"{q['subject']}, the same loop inlined, is at {_x(ri)}, "
                    f"{refcount_timing.call_says(q['base'], rf, ri)}.")
    if text:
        L += [" ".join(text), ""]
    return L + links(ctx, have, "refcount-timing")


# -- contend ----------------------------------------------------------------------------------

def _threshold_lines(series, xs):
    """Dotted lines at each question's threshold, in its subject's colour (ratio_plot draws one
    threshold; the contend questions have one each), once whatever the machines: series of two
    points across XS, no markers."""
    out, seen = [], set()
    for s in series:
        if s.threshold is None or not xs or (s.label, s.threshold) in seen:
            continue
        seen.add((s.label, s.threshold))
        out.append({"label": f"{s.label} needs \u2265 {s.threshold:g}x", "key": s.key,
                    "marker": "None", "linestyle": ":",
                    "points": [(min(xs), s.threshold, None, None),
                               (max(xs), s.threshold, None, None)]})
    return out


def _measure(subject, base):
    return next(m for q in criteria.QUESTIONS for m in q["measures"]
                if m["kind"] == "contend" and m["subject"] == subject and m["base"] == base)


def _contend(ctx, have):
    plot, xs, per = [], [], []
    for i, (name, doc) in enumerate(have):
        series = ratios.contend(doc)
        per.append((name, doc, series))
        plot += _styled(ctx, have, i, series)
        xs += [p.x for s in series for p in s.points]
    if not plot:
        return ["The files have no pairs of contend results run side by side to set a "
                "question's subject beside its baseline.", ""] + links(ctx, have, "contend")
    plot += _threshold_lines([s for _, _, series in per for s in series], xs)
    cpus = [c for c in (common.cpus(d) for _, d in have) if c]
    allpts = [p for _, _, ser in per for s in ser for p in s.points]
    L = [f"Each {'solid ' if len(have) == 1 else ''}line is a question's subject over its "
         "baseline, their ops/s in repetitions run side by side: "
         f"{band_words(allpts)}. 1.0 is as fast as the baseline; each dotted line, in the "
         "colour of its subject, is that question's threshold"
         + ("; shaded: more threads than the machine's CPUs (oversubscribed)"
            if len(have) == 1 and cpus and max(xs) > cpus[0] else "") + ".", ""]
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "contend"), plot,
                  title="contend: subject / baseline ops/s vs threads (above 1: the subject "
                        "is faster)",
                  xlabel="threads", ylabel="ratio of ops/s, paired per repetition",
                  logx=2 if max(xs) / max(1, min(xs)) >= 8 else False,
                  subtitle=_subtitle(have), oversub=cpus[0] if len(have) == 1 and cpus
                  else None)
    said = set()   # a sentence said for one machine is not said again for the next
    for name, doc, series in per:
        by = {(s.subject, s.base): s for s in series}
        oc = common.cpus(doc)
        parts = []
        for subject, base, _, _ in ratios.contend_pairs():
            s = by.get((subject, base))
            if s is None or not s.points:
                continue
            t = _measure(subject, base)["threads"]
            p = s.points[-1] if t == "most" else s.at(t)
            if p is None:
                continue
            where = fmt.plural(p.x, "thread") + (" (oversubscribed)" if oc and p.x > oc else "")
            shape = p.comparison.notes()
            parts.append((where, subject, f"{ci(p)}{f' ({shape[0]})' if shape else ''} {base}'s"))
        S = []
        if parts:
            text, last = [], None
            for where, subject, t in parts:
                text.append(f"{subject} {t}" if where == last
                            else f"at {where} {subject} reaches {t} throughput")
                last = where
            few = reps_note([p for s in series for p in s.points])
            first = "; ".join(text)
            S.append(_tag(ctx, name) + first[0].upper() + first[1:]
                     + (f" ({few})" if few else "") + ".")
        S += [x for x in contend.collapse_sentences(ctx, doc, queued=False) if x not in said]
        said.update(S)
        if S:
            L += [" ".join(S), ""]
    return L + links(ctx, have, "contend")


# -- lockref-sweep ----------------------------------------------------------------------------

def _sweep(ctx, have):
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        s, t = ratios.sweep(doc, ctx.facts(doc, "lockref-sweep"))
        if s is not None:
            per.append((name, doc, s, t))
            plot += _styled(ctx, have, i, [s])
    if not per:
        return ["No retry limit and unbounded loop run side by side in these files: nothing "
                "to set beside each other.", ""] + links(ctx, have, "lockref-sweep")
    m = ratios.SWEEP
    s0 = per[0][2]
    pts = [p for _, _, s, _ in per for p in s.points]
    L = [f"Each point is {s0.subject} at one retry limit over {s0.base} (no limit) at the "
         f"most threads, their ops/s in repetitions run side by side: {band_words(pts)}. "
         f"Dashed: {m['factor']:g}x, the summary's claim that the limit gains that much.", ""]
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "lockref-sweep"), plot,
                  title=f"lockref-sweep: {s0.subject} at each retry limit / {s0.base}",
                  xlabel="retry limit (cmpxchg attempts before taking the lock; log scale)",
                  ylabel="ratio of ops/s, paired per repetition", threshold=m["factor"],
                  threshold_label=f"the claim: \u2265 {m['factor']:g}x", logx=10,
                  xticks=sorted({p.x for p in pts}), xticklabel=lambda v: f"{v:g}",
                  subtitle=_subtitle(have))
    S = []
    for name, doc, s, t in per:
        at = s.at(m["limit"])
        lo, hi = min(s.points, key=lambda p: p.median), max(s.points, key=lambda p: p.median)
        cpus = common.cpus(doc)
        where = fmt.plural(t, "thread") + (f" on {fmt.plural(cpus, 'CPU')}" if cpus else "")
        text = f"{_tag(ctx, name)}At {where}"
        if at is not None:
            c = stats.Comparison(at.comparison.values, m["factor"])
            claim = f"the claimed gain of \u2265 {m['factor']:g}x"
            said = {stats.HOLDS: f"{claim} holds", stats.DOES_NOT_HOLD: f"{claim} does not hold",
                    stats.CANNOT_TELL: f"whether {claim} holds cannot be told at this noise"}
            text += (f", the kernel's limit {m['limit']} runs at {ci(at)} the unbounded loop's "
                     f"throughput, so {said[c.verdict]}" + (f" ({c.why})" if c.why else "")
                     + "; across")
        else:
            text += ", across"
        text += (f" the limits the ratio goes from {_x(lo.median)} (limit {lo.x}) to "
                 f"{_x(hi.median)} (limit {hi.x})")
        few = reps_note(s.points)
        S.append(text + (f" ({few})" if few else "") + ".")
    rl = kernel.RETRY_LIMIT
    S.append(f"The 2019 kernel thread that set the limit reported {rl['gain']}, on "
             f"{rl['machine']}.")
    return L + [" ".join(S), ""] + links(ctx, have, "lockref-sweep")


# -- zero -------------------------------------------------------------------------------------

def _size_ticks(xs):
    pow2 = sorted({x for x in xs if x > 0 and x & (x - 1) == 0})
    pick = pow2 if len(pow2) >= 2 else sorted(set(xs))
    if len(pick) > 11:
        step = -(-len(pick) // 11)
        pick = pick[::step]
    return pick


def _sizes(points, most=4):
    xs = [fmt.size_exact(p.x) for p in points]
    if len(xs) <= most:
        return common.names(xs)
    return ", ".join(xs[:most - 1]) + f" and {len(xs) - most + 1} more"


def _in_range(x, sizes):
    if not isinstance(sizes, tuple):
        return True
    lo, hi = sizes
    return (lo is None or x >= lo) and (hi is None or x <= hi)


def _range_words(sizes):
    if not isinstance(sizes, tuple):
        return "at the summary's sizes"
    lo, hi = sizes
    if lo is None:
        return f"up to {fmt.size_exact(hi)}"
    if hi is None:
        return f"from {fmt.size_exact(lo)} up"
    return f"from {fmt.size_exact(lo)} to {fmt.size_exact(hi)}"


def _zero(ctx, have):
    c = criteria.ZERO_VS_GLIBC
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        series = ratios.zero(doc)
        if series:
            per.append((name, doc, series))
            plot += _styled(ctx, have, i, series)
    if not per:
        return [f"No {c['subject']} and {c['base']} results run side by side in these files.",
                ""] + links(ctx, have, "zero")
    pts = [p for _, _, ser in per for s in ser for p in s.points]
    L = [f"{c['subject']}'s GB/s over {c['base']}'s at each buffer size, with hot buffers "
         "(cache-resident as far as they fit) and cold ones (not in the cache): "
         f"{band_words(pts)}. Dashed: {c['factor']:g}x, the summary's threshold.", ""]
    xs = sorted({p.x for p in pts})
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "zero"), plot,
                  title=f"zero: {c['subject']} / {c['base']} GB/s vs buffer size",
                  xlabel="buffer size (log scale)", ylabel="ratio of GB/s, paired per repetition",
                  threshold=c["factor"], threshold_label=f"threshold {c['factor']:g}x",
                  logx=2, xticks=_size_ticks(xs), xticklabel=fmt.size, subtitle=_subtitle(have))
    for name, doc, series in per:
        rs = [r for r in doc.results if r["scenario"] == criteria.ZERO]
        z = zeroing.ZeroData(doc, rs, ctx.facts(doc, criteria.ZERO))
        S = []
        for s in series:
            worst = min(s.points, key=lambda p: p.median)
            best = max(s.points, key=lambda p: p.median)
            t = (f"with {s.label} the ratio runs from {_x(worst.median)} "
                 f"({fmt.size_exact(worst.x)}) to {_x(best.median)} ({fmt.size_exact(best.x)})")
            cm = criteria.ZERO_VS_GLIBC_BY_MODE.get(s.key)
            if cm is not None:   # the summary's sizes: the criterion's range in this mode
                inside = [p for p in s.points if _in_range(p.x, cm["sizes"])]
                below = [p for p in inside if p.hi is not None and p.hi < cm["factor"]]
                across = [p for p in inside if p.hi is not None and p.lo < cm["factor"] <= p.hi
                          and p.median < cm["factor"]]
                if below or across:
                    t += f"; {_range_words(cm['sizes'])} (the summary's sizes) its "
                if below:
                    t += (f"whole interval is below {cm['factor']:g}x at {len(below)} of "
                          f"{fmt.plural(len(inside), 'size')} ({_sizes(below)})")
                if across:
                    t += (" and its " if below else "") + (
                        f"median is below {cm['factor']:g}x, the interval straddling it, at "
                        f"{len(across)}" + ("" if below else
                                             f" of {fmt.plural(len(inside), 'size')}")
                        + f" ({_sizes(across)})")
            S.append(t)
        text = "; ".join(S)
        text = _tag(ctx, name) + text[0].upper() + text[1:]
        few = reps_note([p for s in series for p in s.points])
        text += (f" ({few})" if few else "") + "."
        more = [x for x in (zeroing.geomean_sentence(z), zeroing.bandwidth_sentence(z)) if x]
        if more:
            text += " " + " ".join(more)
        if z.plan:
            text += f" {c['subject']}'s plan here: {zeroing.plan_words(z.plan)}."
        L += [text, ""]
    return L + links(ctx, have, "zero")


# -- copy -------------------------------------------------------------------------------------

def _copy(ctx, have):
    c = criteria.COPY_VS_GLIBC
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        series = ratios.copy(doc)
        if series:
            per.append((name, doc, series))
            plot += _styled(ctx, have, i, series)
    if not per:
        return [f"No {c['subject']} and {c['base']} results run side by side in these files.",
                ""] + links(ctx, have, "copy")
    pts = [p for _, _, ser in per for s in ser for p in s.points]
    lo = fmt.size_exact(c["sizes"][0])
    L = [f"{c['subject']}'s GB/s over {c['base']}'s at each buffer size, nothing faulting, with "
         "hot buffers (cache-resident as far as they fit) and cold ones (not in the cache): "
         f"{band_words(pts)}. Dashed: {c['factor']:g}x, the summary's threshold (hot, from "
         f"{lo}; below it the summary asks for at most +{criteria.COPY_SMALL_NS['limit_ns']:g} "
         "ns per call).", ""]
    xs = sorted({p.x for p in pts})
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "copy"), plot,
                  title=f"copy: {c['subject']} / {c['base']} GB/s vs buffer size",
                  xlabel="buffer size (log scale)", ylabel="ratio of GB/s, paired per repetition",
                  threshold=c["factor"], threshold_label=f"threshold {c['factor']:g}x",
                  logx=2, xticks=_size_ticks(xs), xticklabel=fmt.size, subtitle=_subtitle(have))
    for name, doc, series in per:
        cd = copying.CopyData(doc, [r for r in doc.results if r["scenario"] == criteria.COPY],
                              ctx.facts(doc, criteria.COPY))
        S = []
        for s in series:
            worst = min(s.points, key=lambda p: p.median)
            best = max(s.points, key=lambda p: p.median)
            S.append(f"with {s.label} the ratio runs from {_x(worst.median)} "
                     f"({fmt.size_exact(worst.x)}) to {_x(best.median)} "
                     f"({fmt.size_exact(best.x)})")
        text = "; ".join(S)
        text = _tag(ctx, name) + text[0].upper() + text[1:]
        few = reps_note([p for s in series for p in s.points])
        text += (f" ({few})" if few else "") + "."
        more = [x for x in (copying.glibc_sentence(cd), copying.syscall_sentence(cd),
                            copying.word_sentence(cd)) if x]
        if more:
            text += " " + " ".join(more)
        if cd.plan:
            text += f" {c['subject']}'s plan here: {zeroing.plan_words(cd.plan)}."
        L += [text, ""]
    return L + links(ctx, have, "copy")


# -- openclose --------------------------------------------------------------------------------

def _openclose(ctx, have):
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        series = ratios.openclose(doc, ctx.facts(doc, "openclose"))
        if series:
            per.append((name, doc, series))
            plot += _styled(ctx, have, i, series)
    rel = [common.kernel_release(d.env.get("kernel")) or "version not recorded" for _, d in have]
    L = [f"**This measures the host kernel ({', '.join(dict.fromkeys(rel))}), not hotline:** "
         "open, read and close of one shared file by N threads of one process or N "
         "processes.", ""]
    if not per:
        return L + ["No subject and its baseline run side by side here: the figures are in "
                    "the appendix.", ""] + links(ctx, have, "openclose")
    s0 = per[0][2][0]
    pts = [p for _, _, ser in per for s in ser for p in s.points]
    L += [f"The plot is {s0.subject} over {s0.base} at each N, {band_words(pts)}: whether N "
          f"{s0.subject} fare differently from N {s0.base} (1.0: no difference).", ""]
    cpus = common.cpus(per[0][1])
    xs = sorted({p.x for p in pts})
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "openclose"), plot,
                  title=f"openclose: {s0.subject} / {s0.base} ops/s vs N (the host kernel)",
                  xlabel="N (threads, or processes)",
                  ylabel="ratio of ops/s, paired per repetition",
                  logx=2 if xs[-1] / max(1, xs[0]) >= 8 else False,
                  subtitle=_subtitle(have), oversub=cpus if len(have) == 1 else None)
    S = []
    for name, doc, series in per:
        for s in series:
            few = reps_note(s.points)
            S.append(f"{_tag(ctx, name)}{s.subject} / {s.base}: " + ", ".join(
                f"{ci(p)} at N={p.x}" for p in s.points) + (f" ({few})" if few else "") + ".")
    return L + [" ".join(S), ""] + links(ctx, have, "openclose")


# -- many-core (simulated) --------------------------------------------------------------------

def _collapsed(ctx, doc, rs):
    idx = common.index(rs)
    ts = sorted({r["threads"] for r in rs})
    if 2 not in ts or ts[-1] <= 2:
        return fmt.DASH
    top = ts[-1]
    out = []
    for s in ctx.facts(doc, criteria.SCENARIO).order(rs):
        a, b = common.mops(idx.get((s, top))), common.mops(idx.get((s, 2)))
        if a is not None and b and a / b < contend.COLLAPSE:
            out.append(s)
    return ", ".join(out) or "none"


def _manycore(ctx):
    sims = [d for d in ctx.docs if d.simulated]
    if not sims:
        return []
    L = [f"## {manycore.TITLE}", "",
         "**Model outputs, not measurements** (hotline-sim, docs/sim.md): one contended cache "
         "line on the many-core machines the kernel threads argued about. Each row is one "
         "simulated file at its most threads (one run per point, no interval): the questions' "
         "ratios, and the subjects that keep less than half their 2-thread throughput.", ""]
    pairs = [(s, b) for s, b, _, _ in ratios.contend_pairs()]
    sw = ratios.SWEEP
    pairs.append((sw["subject"], sw["base"]))
    rows, used = [], []
    for d in sims:
        rs = [r for r in d.results if r["scenario"] == criteria.SCENARIO]
        if not rs:
            continue
        top = max(r["threads"] for r in rs)
        cells = {}
        for s, b in pairs:
            a = next((r for r in rs if r["subject"] == s and r["threads"] == top), None)
            bb = next((r for r in rs if r["subject"] == b and r["threads"] == top), None)
            v = criteria.ratio(a, bb)[0] if a is not None and bb is not None else None
            if v is not None:
                cells[(s, b)] = _x(v)
        used += [p for p in cells if p not in used]
        preset = d.env.get("preset") or d.stem
        rows.append([f"[{preset}]({APPENDIX}#{anchor(ctx, d, criteria.SCENARIO)})",
                     str(top), cells, _collapsed(ctx, d, rs)])
    if not rows:
        return L + [f"The simulated files have no contend results: see "
                    f"[the appendix]({APPENDIX}).", ""]
    cols = [p for p in pairs if p in used]
    L += fmt.table(["preset", "threads"] + [f"{s} / {b}" for s, b in cols]
                   + [f"below {contend.COLLAPSE:g}x their 2-thread figure"],
                   [[r[0], r[1]] + [r[2].get(p, fmt.DASH) for p in cols] + [r[3]]
                    for r in rows], "lr" + "r" * len(cols) + "l")
    L += ["", "Each model's plot and the published figures beside the model's: "
          f"[{manycore.TITLE}]({APPENDIX}#{slug(manycore.TITLE)}).", ""]
    return L


def slug(heading):
    """GitHub's anchor for a Markdown heading's text (the first of that name)."""
    out = []
    for ch in heading.strip().lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


RENDER = {"refcount-timing": _refcount, "contend": _contend, "lockref-sweep": _sweep,
          "zero": _zero, "copy": _copy, "openclose": _openclose}
