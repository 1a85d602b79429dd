"""The refcount-timing section: the price of a saturating reference count, one thread.

  render(ctx, doc, results)  a bar chart of ns per operation (median, min-max error
                 bars; the kernel's published ratio times this file's baseline marked
                 on the subjects the published figures are set beside), a table (ns/op,
                 min-max, cycle-counter ticks, ratio to the baseline, runs), the kernel's
                 published ratios (kernel.REFCOUNT_RATIOS) with this run first, and a
                 summary: this run against the kernel's, what the inlined loop tells
                 (criteria.INLINE_LOOP), ns per operation, in_sync warnings
  brief(ctx, have)  its short section in report.md: a table of the ratios with their
                 intervals beside the published ones (ratio_points)
  answer(ctx, m, docs)  the summary's "timing" measures
  SCENARIO       all of these, declared once (scenario.py)

The baseline is the results' "ratio_to", else a subject's baseline fact, else
the published figures' own (atomic).
"""

from . import answers, brief_parts as bp, common, criteria, fmt, kernel, machine_state, plots, ratios, stats
from .scenario import Scenario
from .load import is_number
from .which_machine import find_result
from .fmt import DASH, EN

TITLE = "the price of a saturating reference count (one thread)"


def _ratio(r, results, base_name):
    """The stored ratio; for the baseline itself 1; else ratio of medians."""
    if r.get("ratio") is not None:
        return r["ratio"]
    to = r.get("ratio_to") or base_name
    if r["subject"] == to:
        return 1.0
    base = next((b for b in results if b["subject"] == to and b["threads"] == r["threads"]), None)
    if base and base["ns_per_op"] and r["ns_per_op"] is not None:
        return r["ns_per_op"] / base["ns_per_op"]
    return None


def render(ctx, doc, results):
    facts = ctx.facts(doc, "refcount-timing")
    L = []
    threads = sorted({r["threads"] for r in results})
    order = facts.order(results)
    rows, bars, by_label = [], [], {}
    for t in threads:
        for subj in order:
            for r in results:
                if r["subject"] != subj or r["threads"] != t:
                    continue
                label = subj if len(threads) == 1 else f"{subj} ({t} threads)"
                by_label[label] = r
    base_name = None
    for r in by_label.values():
        base_name = r.get("ratio_to") or base_name
    base_name = base_name or next((facts.baseline(s) for s in order if facts.baseline(s)),
                                  kernel.PUBLISHED["refcount_timing"]["base"])
    for label, r in by_label.items():
        st = fmt.Stats(r)
        ns = r["ns_per_op"]
        ratio = _ratio(r, results, base_name)
        runs = str(st.n) if st.n else DASH
        rows.append([label, fmt.num(ns), st.range_in("ns_per_op"),
                     fmt.num(r.get("cycles_per_op")), fmt.ratio(ratio), runs])
        if ns is not None:
            bar = {"label": label, "value": ns,
                   "text": f"{fmt.num(ns)} ns" + (f"\n{fmt.ratio(ratio)}" if ratio else "")}
            if st.metric == "ns_per_op":
                bar["lo"], bar["hi"] = st.lo, st.hi
            bars.append(bar)

    compared = [c["subject"] for c in kernel.REFCOUNT_COMPARED]
    ref = kernel.reference_for(doc.env.get("arch"))
    refs = []
    base = next((r for r in results if r["subject"] == base_name and r["threads"] == threads[0]),
                None)
    if base is not None and base["ns_per_op"] and len(threads) == 1:
        for i, b in enumerate(bars):
            if b["label"] in compared:
                refs.append({"index": i, "value": base["ns_per_op"] * ref[b["label"]][1],
                             "text": f"kernel {ref[b['label']][0]}",
                             "label": f"kernel's ratio \u00d7 this {base_name} "
                                      f"({ref['machine']}, {ref['short']})"})
    if bars:
        title = "refcount-timing: time per operation, lower is better"
        if doc.simulated:
            title += " (simulated)"
        name = ctx.png(ctx.stem(doc), "refcount-timing")
        L += ctx.plot(plots.bar_chart, name, bars, title=title,
                      ylabel="time per operation (ns, median)",
                      subtitle=common.subtitle(doc, results), refs=refs,
                      bar_legend=f"median; error bar: min{EN}max over the runs")
    L += fmt.table(["subject", "ns/op (median)", f"min{EN}max", "ticks/op",
                    f"ratio to {base_name}", "runs"], rows, "lrrrrr")
    L += ["", f"ns/op and ticks/op are medians over the repetitions (ticks of the "
              f"constant-rate cycle counter: TSC on x86-64, CNTVCT on arm64; not core "
              f"cycles); min{EN}max is the "
              f"range of ns/op across them; the ratio is the median of the per-repetition "
              f"ratios to {base_name}.", ""]

    # The kernel's published figures, with this run first.
    mine = {s: _ratio(by_label[s], results, base_name) if s in by_label else None
            for s in compared}
    krows = []
    if len(threads) == 1:
        krows.append([f"**this run**{' (simulated)' if doc.simulated else ''}",
                      common.text(doc.env.get("arch"))] + [fmt.ratio(mine[s]) for s in compared])
    for k in kernel.REFCOUNT_RATIOS:
        krows.append([k["source"], k["machine"]] + [k[s][0] for s in compared])
    L += [f"The kernel's published ratios for comparison "
          f"({kernel.PUBLISHED['refcount_timing']['test']}):", ""]
    L += fmt.table(["source", "machine"] + [c["column"] for c in kernel.REFCOUNT_COMPARED],
                   krows, "ll" + "r" * len(compared))
    L += ["", kernel.FOOTNOTE, ""]
    L += _summary(doc, results, by_label, base_name, ref, mine)
    return L


def _inline_note(by_label, results, base_name):
    """What the inlined loop (criteria.INLINE_LOOP: the same cmpxchg loop without the call)
    tells."""
    q = criteria.INLINE_LOOP
    full, inline = by_label.get(q["base"]), by_label.get(q["subject"])
    if not full or not inline:
        return []
    rf, ri = _ratio(full, results, base_name), _ratio(inline, results, base_name)
    if rf is None or ri is None:
        return []
    if ri <= 1.05:
        loop = (f"the compare-and-swap loop itself costs nothing measurable over a plain "
                f"{base_name} here ({fmt.ratio(ri)} inlined): an uncontended locked cmpxchg "
                f"costs what a locked add costs on this core")
    else:
        loop = f"the compare-and-swap loop itself costs {fmt.ratio(ri)} inlined"
    return [f"{q['subject']} is the same loop without the out-of-line call: {loop}, "
            f"{call_says(q['base'], rf, ri)}. "
            f"A loop's real price is paid under contention, where failed attempts retry."]


def call_says(base, rf, ri):
    """What the out-of-line call costs, from the loop's ratio out of line (rf) and inlined (ri)."""
    if ri < rf:
        return f"and the call accounts for the rest of {base}'s {fmt.ratio(rf)}"
    return (f"and the call costs nothing measurable: {base}, out of line, is at "
            f"{fmt.ratio(rf)}, no slower than the inlined loop")


def slices_says(results):
    """How the subjects shared a repetition: the JSON's "slices" (each direction cut into
    that many pieces, taken by turns); "" for a file without it, or one slice."""
    n = next((r.get("slices") for r in results if is_number(r.get("slices"))), None)
    if n is None or n <= 1:
        return ""
    return (f"Within each repetition the subjects ran by turns, each direction of the test "
            f"cut into {int(n)} slices, so each ratio compares times taken milliseconds "
            "apart.")


def _summary(doc, results, by_label, base_name, ref, mine):
    where = "In this simulation" if doc.simulated else "On this machine"
    machine = ref["machine"]
    parts = []
    for i, c in enumerate(kernel.REFCOUNT_COMPARED):
        s = c["subject"]
        if mine.get(s) is None:
            continue
        if i == 0:
            parts.append(f"{s} costs {fmt.ratio(mine[s])} a plain {base_name} "
                         f"(kernel saw {ref[s][0]} on {machine})")
        else:
            parts.append(f"{s} costs {fmt.ratio(mine[s])} (kernel: {ref[s][0]})")
    S = []
    if parts:
        S.append(f"{where}, " + "; ".join(parts) + ".")
    elif base_name not in by_label:
        S.append(f"There is no {base_name} result in this file, so no ratios to it.")
    verdicts = []
    for c in kernel.REFCOUNT_COMPARED:
        subj, what = c["subject"], c["kernel"]
        v = mine.get(subj)
        if v is None:
            continue
        k = ref[subj][1]
        if abs(v - k) <= 0.05 * k:
            verdicts.append(f"{subj} is in line with {what}")
        elif v > k:
            verdicts.append(f"{subj} is dearer here than {what} ({fmt.ratio(v)} vs {ref[subj][0]})")
        else:
            verdicts.append(f"{subj} is cheaper here than {what} ({fmt.ratio(v)} vs "
                            f"{ref[subj][0]})")
    if verdicts:
        S.append("Against the kernel: " + "; ".join(verdicts) + ".")
    S += _inline_note(by_label, results, base_name)
    per = []
    for label, r in by_label.items():
        if r["ns_per_op"] is None:
            continue
        s = f"{label} {fmt.num(r['ns_per_op'])} ns"
        if r.get("cycles_per_op") is not None:
            s += f" ({fmt.num(r['cycles_per_op'])} ticks)"
        rr = r.get("ratio_runs")
        if rr and r["subject"] != base_name:
            s += f", ratio {fmt.ratio(min(rr))}{EN}{fmt.ratio(max(rr))} across runs"
        per.append(s)
    if per:
        S.append("Per operation (median): " + "; ".join(per) + ".")
    bad = [r["subject"] for r in results if r.get("in_sync") is False]
    if bad:
        S.append(f"**Warning:** {', '.join(bad)} reported `in_sync: false`; "
                 "those figures may not be trustworthy.")
    L = [" ".join(S), ""] if S else []
    return L + common.flags(doc, results)


# -- report.md's short section and the summary's "timing" measures ---------------------------

def ratio_points(doc):
    """[(subject, ratio_to, Point)]: refcount-timing's one-thread ratio_runs (the bench's
    per-repetition ratios to its baseline), each subject but the baseline."""
    out = []
    for r in doc.results:
        if r["scenario"] != "refcount-timing" or r.get("threads") != 1:
            continue
        runs, to = r.get("ratio_runs"), r.get("ratio_to")
        if not to or r["subject"] == to or not isinstance(runs, list) or not runs \
                or not all(is_number(x) for x in runs):
            continue
        out.append((r["subject"], to, ratios.Point(1, runs)))
    return out


def brief(ctx, have):
    """A table, not a plot: a few ratios at one thread count, each with its interval, beside
    the kernel's published ratio for the machine's arch."""
    cols = []
    for name, doc in have:
        pts = ratio_points(doc)
        if pts:
            cols.append((name, doc, {s: (to, p) for s, to, p in pts}))
    if not cols:
        return ["No per-repetition ratios in these files (an older bench): the figures are in "
                "the appendix.", ""] + bp.links(ctx, have, "refcount-timing")
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
            row.append(bp.ci(p) + (f" ({bp.reps_note([p])})" if p.lo is None else ""))
        row.append("; ".join(f"{r[s][0]} ({r['short']}, {r['machine']})" for r in refs)
                   if s in compared else fmt.DASH)
        rows.append(row)
    head = ["time per operation"] + [f"{n}: median [interval]" if bp.multi(ctx) else
                                     "this machine: median [interval]" for n, _, _ in cols]
    name, doc, by = cols[0]
    base = next(iter(by.values()))[0]
    how = slices_says(answers.results_of(doc, "refcount-timing"))
    L = [f"One thread, no contention: each subject's time per operation over a plain "
         f"{base}'s, the median of the per-repetition ratios with its interval, beside the "
         "kernel's published ratio." + (" " + how if how else ""), ""]
    L += fmt.table(head + ["published (docs/sources.md)"], rows, "l" + "r" * len(cols) + "l")
    L += [""]
    S = []
    for c in kernel.REFCOUNT_COMPARED:
        s = c["subject"]
        if s not in by:
            continue
        v, k = by[s][1].median, ref[s][1]
        if abs(v - k) <= 0.05 * k:
            S.append(f"{s} is in line with {c['kernel']} ({bp.x(v)} vs {ref[s][0]})")
        elif v > k:
            S.append(f"{s} is dearer here than {c['kernel']} ({bp.x(v)} vs {ref[s][0]})")
        else:
            S.append(f"{s} is cheaper here than {c['kernel']} ({bp.x(v)} vs {ref[s][0]})")
    text = []
    if S:
        text.append(("On " + name + ", " if bp.multi(ctx) else "") + "; ".join(S) + ".")
    q = criteria.INLINE_LOOP
    if q["subject"] in by and q["base"] in by:
        ri, rf = by[q["subject"]][1].median, by[q["base"]][1].median
        text.append(f"{q['subject']}, the same loop inlined, is at {bp.x(ri)}, "
                    f"{call_says(q['base'], rf, ri)}.")
    if text:
        L += [" ".join(text), ""]
    return L + bp.links(ctx, have, "refcount-timing")


def _answer_at(m, doc):
    r = find_result(answers.results_of(doc, "refcount-timing"), m["subject"], 1)
    runs = r.get("ratio_runs") if r else None
    if not isinstance(runs, list) or not runs or not all(is_number(x) for x in runs):
        return None
    c = stats.Comparison(runs, m["limit"], higher=False)
    return answers.Row(m, doc, c, c.verdict, c.notes() + machine_state.shared_notes((r,)),
               where=f"vs {r.get('ratio_to')}")


def answer(ctx, m, docs):
    """The summary's row of a "timing" measure M: the first of DOCS that has it."""
    return answers.first_row(docs, lambda d: _answer_at(m, d))


SCENARIO = Scenario("refcount-timing", TITLE, render, rank=10, brief=brief,
                    answers={"timing": answer})
