"""The openclose section: the host kernel's open, read and close, threads against processes.

  render(ctx, doc, results)  said plainly to measure the host kernel (env.kernel),
                 not hotline; open+read+close per second vs N, one line per
                 subject; a table by N with each subject over its baseline (a fact
                 of the file: processes over threads); the 2023 will-it-scale
                 figure for scale (kernel.OPEN3_CPU_RELAX); every figure
  paragraph(ctx, doc)  its sentence of "What this machine says"
  brief(ctx, have)  its short section in report.md: each subject over its baseline
                 against N (ratio_series)
  SCENARIO       all of these, declared once (scenario.py)
"""

from . import brief_parts as bp, common, criteria, fmt, kernel, plots, ratios
from .scenario import Scenario
from .common import DAGGER, index, mops

TITLE = "open, read and close of one file by N threads or processes (the host kernel)"


def render(ctx, doc, results):
    v = common.threads_view(ctx, doc, "openclose", results)
    facts, stem, sub, mark = v.facts, v.stem, v.sub, v.mark
    cpus, ns, order, idx = v.cpus, v.threads, v.order, v.idx
    if doc.simulated:
        L = ["*Simulated: hotline-sim's model of open/close, not a kernel.*", ""]
    else:
        rel = common.kernel_release(doc.env.get("kernel")) or "version not recorded"
        L = [f"**This measures this machine's kernel ({rel}), not hotline.** Each op is an "
             "open, a read and a close of one shared file by N threads of one process or N "
             "processes; the references taken and dropped on the way (the dentry's lockref, "
             "the file's reference count) are the host kernel's own, and no hotline code "
             "runs. It shows how that kernel's lockref and refcount paths hold up on this "
             "machine: a yardstick for the contend figures, not a result of hotline.", ""]
    texts = []
    for s in order:
        m = next((r["measures"] for r in results if r["subject"] == s
                  and isinstance(r.get("measures"), str) and r["measures"]), None)
        if m and m not in [x[1] for x in texts]:
            texts.append((s, m))
    if len(texts) == 1:
        L += [f"The bench says it measures: {texts[0][1]}.", ""]
    elif texts:
        L += ["The bench says it measures:", ""] + [f"- {s}: {m}" for s, m in texts] + [""]
    if len(ns) > 1:
        L += ctx.plot(plots.plot_vs_threads, ctx.png(stem, "openclose", "ops_per_sec"),
                      results, "ops_per_sec", xlabel="N (threads, or processes)",
                      ylabel="open + read + close per second, all together (millions)",
                      title=f"openclose: the host kernel's open/close, threads vs processes"
                            f"{mark}", subtitle=sub, oversub=cpus)
    else:
        L += common.bars_one_count(ctx, doc, "openclose", results, "ops_per_sec")
    ratios = [(s, facts.baseline(s)) for s in order if facts.baseline(s) in order]
    headers = ["N"] + [f"{s} (ops/s)" for s in order] + [f"{a} / {b}" for a, b in ratios]
    rows = []
    for n in ns:
        row = [str(n) + (f" {DAGGER}" if cpus and n > cpus else "")]
        row += [fmt.num((idx.get((s, n)) or {}).get("ops_per_sec")) for s in order]
        for a, b in ratios:
            row.append(common.paired(idx.get((a, n)), idx.get((b, n))))
        rows.append(row)
    L += fmt.table(headers, rows, "r" * len(headers)) + [""]
    L += common.over_note(ns, cpus, "threads or processes",
                          "so they wait for a CPU as well as for the kernel's locks")
    o = kernel.OPEN3_CPU_RELAX
    L += [f"For scale: on a {o['machine']}, {o['what']} took {o['test']} from "
          f"{o['before']:,} to {o['after']:,} ops/s ({o['text']}).", ""]
    L += common.all_figures(results, order)
    L += common.flags(doc, results)
    return L


def paragraph(ctx, doc):
    """The openclose sentence of "What this machine says": lists of sentences."""
    results = [r for r in doc.results if r["scenario"] == "openclose"]
    if not results:
        return []
    idx = index(results)
    ns = sorted({r["threads"] for r in results})
    if len(ns) < 2:
        return []
    lo, hi = ns[0], ns[-1]
    parts = []
    for s in ctx.facts(doc, "openclose").order(results):
        a, b = mops(idx.get((s, lo))), mops(idx.get((s, hi)))
        if a is not None and b is not None:
            parts.append(f"{s} {fmt.num(a)} \u2192 {fmt.num(b)} Mops/s")
    if not parts:
        return []
    who = ("as modelled" if doc.simulated else
           f"the host kernel's own lockref and refcount paths, "
           f"{common.kernel_release(doc.env.get('kernel')) or 'version not recorded'}")
    return [[f"open/close ({who}), from N={lo} to N={hi}: " + "; ".join(parts) + "."]]


# -- report.md's short section ----------------------------------------------------------------

def ratio_series(doc, facts):
    """[Series]: each openclose subject over its baseline (a fact of the file) against N."""
    rs = [r for r in doc.results if r["scenario"] == "openclose"]
    order = facts.order(rs)
    pairs = [(s, facts.baseline(s)) for s in order
             if facts.baseline(s) in order and facts.baseline(s) != s]
    q = criteria.OPENCLOSE_RATIO
    if not pairs and q["subject"] in order and q["base"] in order:
        pairs = [(q["subject"], q["base"])]
    out = []
    for s, b in pairs:
        pts = [ratios.point(t, ratios.find(rs, s, t), ratios.find(rs, b, t), "ops_per_sec")
               for t in ratios.int_threads(rs)]
        pts = [p for p in pts if p]
        if pts:
            out.append(ratios.Series(f"{s} / {b}", s, pts, None, s, b))
    return out


def brief(ctx, have):
    """report.md's openclose section: each subject / its baseline (a fact, else
    criteria.OPENCLOSE_RATIO: processes / threads) against N, the host kernel's question (its
    ops/s plot is in the appendix)."""
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        series = ratio_series(doc, ctx.facts(doc, "openclose"))
        if series:
            per.append((name, doc, series))
            plot += bp.styled(ctx, have, i, series)
    rel = [common.kernel_release(d.env.get("kernel")) or "version not recorded" for _, d in have]
    L = [f"**This measures the host kernel ({', '.join(dict.fromkeys(rel))}), not hotline:** "
         "open, read and close of one shared file by N threads of one process or N "
         "processes.", ""]
    if not per:
        return L + ["No subject and its baseline run side by side here: the figures are in "
                    "the appendix.", ""] + bp.links(ctx, have, "openclose")
    s0 = per[0][2][0]
    pts = [p for _, _, ser in per for s in ser for p in s.points]
    L += [f"The plot is {s0.subject} over {s0.base} at each N, {bp.band_words(pts)}: whether N "
          f"{s0.subject} fare differently from N {s0.base} (1.0: no difference).", ""]
    cpus = common.cpus(per[0][1])
    xs = sorted({p.x for p in pts})
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "openclose"), plot,
                  title=f"openclose: {s0.subject} / {s0.base} ops/s vs N (the host kernel)",
                  xlabel="N (threads, or processes)",
                  ylabel="ratio of ops/s, paired per repetition",
                  logx=2 if xs[-1] / max(1, xs[0]) >= 8 else False,
                  subtitle=bp.subtitle(have), oversub=cpus if len(have) == 1 else None)
    S = []
    for name, doc, series in per:
        for s in series:
            few = bp.reps_note(s.points)
            S.append(f"{bp.tag(ctx, name)}{s.subject} / {s.base}: " + ", ".join(
                f"{bp.ci(p)} at N={p.x}" for p in s.points) + (f" ({few})" if few else "") + ".")
    return L + [" ".join(S), ""] + bp.links(ctx, have, "openclose")


SCENARIO = Scenario("openclose", TITLE, render, rank=60, threads=True, brief=brief,
                    says=((38, paragraph),))
