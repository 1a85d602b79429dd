"""The lockref-sweep section: lockref's throughput against its retry limit, and its paragraph.

  render(ctx, doc, results)  Mops/s vs retry limit (log x, the unbounded loop as
                 a point "inf"), one line per thread count; tables of throughput,
                 attempts and fallback per limit; which limits are within NEAR of
                 the best; on arm64 LSE against exclusives at each limit
  paragraph(ctx, doc)  its paragraph of "What this machine says", with the 2019
                 kernel thread's finding (kernel.RETRY_LIMIT)
  brief(ctx, have)  its short section in report.md: the limit's gain against the limit
                 (ratio_series)
  answer(ctx, m, docs)  the summary's "sweep" measure (here, else in contend); its verdict
                 stats.NOT_REACHED when no operation reached the limit (unreached)
  SCENARIO       all of these, declared once (scenario.py)

Which results are the sweep comes from the facts: the subject whose limit
varies is a lockref that falls back to the lock ("kind" lockref, "fallback"),
each of its results at the "retry_limit" it carries; the unbounded loop is a
lockref that never falls back.  Their variants ("variant_of") are the arm64
table's.  Without facts, the subjects whose results carry a retry limit are
the sweep, and there is no unbounded point.
"""

from . import answers, brief_parts as bp, common, criteria, fmt, kernel, plots, ratios, stats
from .load import is_number
from .which_machine import find_result
from .scenario import Scenario
from .common import DAGGER, mops, part
from .contend import atomics_tables
from .fmt import DASH

TITLE = "lockref variants and retry limits under contention"

# Limits within NEAR of the best count as equally good.
NEAR = 0.10

INF = "\u221e"


def _roles(facts, results):
    """(swept, unbounded): the subjects whose retry limit varies, and the unbounded loops."""
    order = facts.order(results)
    if not facts.known:
        return [s for s in order if any(r.get("retry_limit") is not None
                                        for r in results if r["subject"] == s)], []
    base = [s for s in order if facts.kind(s) == "lockref" and not facts.is_variant(s)]
    return ([s for s in base if facts.fallback(s)],
            [s for s in base if not facts.fallback(s) and facts.retry_limit(s) is None])


def points(facts, results):
    """{threads: {limit or None: result}} of the sweep (None = unbounded), and the rest."""
    swept, unbounded = _roles(facts, results)
    pts, other = {}, []
    for r in results:
        lim = r.get("retry_limit")
        if r["subject"] in unbounded or (r["subject"] in swept and not lim):
            key = None
        elif r["subject"] in swept:
            key = lim
        else:
            other.append(r)
            continue
        pts.setdefault(r["threads"], {}).setdefault(key, r)
    return pts, other


def verdict(pts):
    """For one thread count's {limit: result} (None = unbounded): the best limits (ties
    included), the limits within NEAR of the best, the slower ones, and the unbounded loop
    against the best bounded limit."""
    vals = {k: mops(r) for k, r in pts.items() if mops(r) is not None}
    if not vals:
        return None
    tested = sorted(k for k in vals if k is not None) + ([None] if None in vals else [])
    top = max(vals.values())
    bounded = [k for k in tested if k is not None]
    v = {"best": [k for k in tested if vals[k] == top], "best_mops": top, "tested": tested,
         "near": [k for k in tested if vals[k] >= top * (1 - NEAR)],
         "unbounded": vals.get(None), "best_bounded": None, "unbounded_rel": None}
    v["slow"] = [k for k in tested if k not in v["near"]]
    if bounded:
        bb = max(bounded, key=lambda k: vals[k])
        v["best_bounded"] = bb
        if None in vals:   # side by side where the runs pair, as the summary's figure
            v["unbounded_rel"] = criteria.ratio(pts[None], pts[bb])[0] - 1
    return v


def _limit_name(k):
    return f"{INF} (unbounded)" if k is None else str(k)


def _limit_list(limits, tested):
    """'every limit from 4 to 500' when LIMITS is a run of TESTED, else '4, 15 and 500'."""
    shown = [INF if x is None else str(x) for x in limits]
    if len(limits) == len(tested):
        return "every limit tested"
    pos = [tested.index(x) for x in limits]
    finite = [x for x in limits if x is not None]
    if len(finite) >= 3 and pos == list(range(pos[0], pos[0] + len(pos))):
        tail = f" and {INF}" if None in limits else ""
        return f"every limit from {finite[0]} to {finite[-1]}{tail}"
    return common.names(shown)


def _best_text(v):
    names = [INF if k is None else str(k) for k in v["best"]]
    if names == [INF]:
        who = "the unbounded loop"
    else:
        who = ("limit " if len(names) == 1 else "limits ") + common.names(names)
    return f"{who} at {fmt.num(v['best_mops'])} Mops/s"


def _unbounded_text(v):
    rel = v["unbounded_rel"]
    if rel is None:
        return DASH
    bb = v["best_bounded"]
    if rel < -NEAR:
        return f"loses: {fmt.pct(-rel)} below limit {bb}"
    if rel < 0:
        return f"{fmt.pct(-rel)} below limit {bb}, within {NEAR:.0%}"
    return f"{fmt.pct(rel)} above limit {bb}" if rel > 0 else f"equal to limit {bb}"


def sentence(t, v):
    near = _limit_list(v["near"], v["tested"])
    verb = "is" if near.startswith("every") or len(v["near"]) == 1 else "are"
    s = (f"at {fmt.plural(t, 'thread')} {near} {verb} within {NEAR:.0%} of the best "
         f"({_best_text(v)})")
    if v["slow"] and len(v["near"]) > 1:
        s += (f"; {common.names(_limit_name(k) for k in v['slow'])} "
              f"{'is' if len(v['slow']) == 1 else 'are'} slower")
    rel = v["unbounded_rel"]
    if rel is not None:
        s += f"; the unbounded loop {'is ' if rel >= -NEAR else ''}{_unbounded_text(v)}"
    return s


def _atomics(doc, facts, results, other, cpus):
    """arm64: the swept lockref's LSE variant over its exclusives one, at each retry limit and
    thread count."""
    swept, _ = _roles(facts, results)
    idx = {}
    for r in other:
        s = r["subject"]
        kind = facts.variant_kind(s)
        if facts.variant_of(s) in swept and kind in ("lse", "llsc") \
                and r.get("retry_limit") is not None:
            idx.setdefault((r["retry_limit"], kind, r["threads"]), r)
    limits = sorted({k for k, _, _ in idx})
    rows = [(str(k), str(k)) for k in limits
            if any((k, "lse", t) in idx for _, _, t in idx) and
            any((k, "llsc", t) in idx for _, _, t in idx)]
    threads = sorted({t for _, _, t in idx})
    return atomics_tables(doc, rows, threads, cpus, lambda k, kind, t: idx.get((int(k), kind, t)),
                          first="retry limit")


def render(ctx, doc, results):
    facts = ctx.facts(doc, "lockref-sweep")
    sub = common.subtitle(doc, results)
    cpus = common.cpus(doc)
    pts, other = points(facts, results)
    threads = sorted(pts)
    limits = sorted({k for p in pts.values() for k in p if k is not None})
    if any(None in p for p in pts.values()):
        limits.append(None)
    _, unbounded = _roles(facts, results)
    forever = (f"; {common.names(f'`{u}`' for u in unbounded)} retries for ever ({INF})"
               if unbounded else "")
    L = ["lockref's get + put as in contend, with the lockless loop's retry limit varied "
         f"(the kernel's is {kernel.RETRY_LIMIT['default']}){forever}.", ""]
    if not pts:
        L += ["No lockref results with a retry limit in this file.", ""]
    if len(limits) > 1:
        L += _limit_plot(ctx, doc, pts, threads, limits, cpus, sub)
    if pts:
        L += _limit_tables(pts, threads, limits, cpus)
    L += _atomics(doc, facts, results, other, cpus)
    if other:
        names = common.names(sorted({r["subject"] for r in other}))
        L += [f"Other subjects in this scenario ({names}) are in the table below.", ""]
    L += common.all_figures(results, facts.order(results))
    L += common.flags(doc, results)
    return L


def _limit_plot(ctx, doc, pts, threads, limits, cpus, sub):
    """Mops/s against the retry limit, a line per thread count (dashed when oversubscribed)."""
    mark = " (simulated)" if doc.simulated else ""
    stem = ctx.stem(doc)
    series = []
    for t in threads:
        over = cpus and t > cpus
        ks = [k for k in limits if k in pts[t] and mops(pts[t][k]) is not None]
        ys = [mops(pts[t][k]) for k in ks]
        lo, hi = [], []
        for k, y in zip(ks, ys):
            st = fmt.Stats(pts[t][k])
            ok = st.metric == "ops_per_sec" and st.lo is not None
            lo.append(st.lo * 1e-6 if ok else y)
            hi.append(st.hi * 1e-6 if ok else y)
        label = fmt.plural(t, "thread") + (" (oversubscribed)" if over else "")
        series.append({"key": f"{t} threads", "label": label, "x": ks, "y": ys,
                       "lo": lo, "hi": hi, "linestyle": "--" if over else "-"})
    return ctx.plot(plots.plot_vs_limit, ctx.png(stem, "lockref-sweep", "limit"), series,
                    title=f"lockref-sweep: Mops/s vs retry limit, higher is better{mark}",
                    ylabel=fmt.metric_axis("ops_per_sec"), subtitle=sub, logy="auto")


def _limit_tables(pts, threads, limits, cpus):
    """Throughput, attempts and fallback by retry limit; which limits are as good as the best;
    the kernel thread's finding beside them."""
    L = []
    verdicts = {t: verdict(pts[t]) for t in threads}

    def cell(k, t):
        r = pts[t].get(k)
        text = fmt.num(mops(r))
        v = verdicts[t]
        return f"**{text}**" if v and k in v["best"] and r is not None else text
    rows = [(k, _limit_name(k)) for k in limits]
    L += ["Throughput by retry limit, million ops/s (best of each column in bold):", ""]
    L += common.grid("retry limit", rows, threads, cpus, cell)
    L += common.over_note(threads, cpus)

    def att(k, t):
        r = pts[t].get(k)
        m = part(r, "attempts_per_success", "mean")
        p99 = part(r, "attempts_per_success", "p99")
        if m is None and p99 is None:
            return DASH
        return f"{fmt.num(m)} / {fmt.count(p99)}"
    L += ["cmpxchg attempts per success, mean / p99:", ""]
    L += common.grid("retry limit", rows, threads, cpus, att)
    L += ["Fallback to the lock (share of operations):", ""]
    L += common.grid("retry limit", rows, threads, cpus,
                     lambda k, t: fmt.rate((pts[t].get(k) or {}).get("fallback_rate")))
    rows = []
    for t in threads:
        v = verdicts[t]
        if not v or len(v["tested"]) < 2:
            continue
        rows.append([str(t) + (f" {DAGGER}" if cpus and t > cpus else ""),
                     _best_text(v), _limit_list(v["near"], v["tested"]),
                     common.names(_limit_name(k) for k in v["slow"]) or "none",
                     _unbounded_text(v)])
    if rows:
        L += [f"Which limits are as good as the best (within {NEAR:.0%} of its Mops/s):",
              ""]
        L += fmt.table(["threads", "best", f"within {NEAR:.0%} of the best", "slower",
                        "unbounded loop vs best limit"], rows, "rllll") + [""]
    rl = kernel.RETRY_LIMIT
    L += [f"For comparison, the 2019 kernel thread that set the limit found limits "
          f"{'/'.join(str(x) for x in rl['tested'])} \"{rl['verdict']}\" on "
          f"{rl['machine']}, and the limit gave {rl['gain']}.", ""]
    return L


def paragraph(ctx, doc):
    """The lockref-sweep paragraph of "What this machine says": lists of sentences."""
    results = [r for r in doc.results if r["scenario"] == "lockref-sweep"]
    pts, _ = points(ctx.facts(doc, "lockref-sweep"), results)
    multi = [t for t in sorted(pts) if t > 1]
    if not multi:
        return []
    top = multi[-1]
    v = verdict(pts[top])
    if not v or len(v["tested"]) < 2:
        return []
    S = ["In lockref-sweep, " + sentence(top, v) + "."]
    base = 2 if 2 in multi else multi[0]
    vb = verdict(pts[base]) if base != top else None
    if vb and len(vb["tested"]) > 1:
        if vb["near"] == v["near"]:
            S.append(f"At {fmt.plural(base, 'thread')} the same limits are within {NEAR:.0%} "
                     f"of the best ({_best_text(vb)}).")
        else:
            S.append("A" + sentence(base, vb)[1:] + ".")
    rl = kernel.RETRY_LIMIT
    k = [x for x in rl["tested"] if x <= rl["default"] and x in v["tested"]]
    if k:
        out = [x for x in k if x not in v["near"]]
        s = (f"The 2019 kernel thread found limits {'/'.join(map(str, rl['tested']))} "
             f"\"{rl['verdict']}\" on {rl['machine']}; on this machine, at "
             f"{fmt.plural(top, 'thread')}, ")
        if not out:
            who = {1: f"{k[0]} is", 2: f"{k[0]} and {k[1]} are both"}.get(
                len(k), f"{common.names(map(str, k))} are all")
            s += f"{who} within {NEAR:.0%} of the best too."
        else:
            s += (f"{common.names(map(str, out))} {'is' if len(out) == 1 else 'are'} not within "
                  f"{NEAR:.0%} of the best, unlike there.")
        S.append(s)
    return [S]


# -- report.md's short section, its ratio plot and the summary's "sweep" measure -------------

# The summary's measure of the retry limit (data/questions.json).
SWEEP = next(m for q in criteria.QUESTIONS for m in q["measures"] if m["kind"] == "sweep")

# Where a "sweep" measure looks, in order: this scenario, then contend (whose lockref has
# the kernel's limit), when this one did not run.
SWEEP_SCENARIOS = ("lockref-sweep", criteria.SCENARIO)


def ratio_series(doc, facts, scenario="lockref-sweep"):
    """(Series or None, threads): the swept lockref at each retry limit over the unbounded loop,
    at the most threads where both ran; SWEEP's threshold."""
    rs = [r for r in doc.results if r["scenario"] == scenario]
    pts, _ = points(facts, rs)
    for t in sorted(pts, reverse=True):
        unb = pts[t].get(None)
        if unb is None:
            continue
        got = [ratios.point(k, r, unb, "ops_per_sec") for k, r in sorted(
            ((k, r) for k, r in pts[t].items() if k is not None), key=lambda p: p[0])]
        got = [p for p in got if p]
        if got:
            swept = next(r["subject"] for k, r in pts[t].items() if k is not None)
            return ratios.Series(f"{swept} / {unb['subject']}, {t} threads",
                          "sweep", got, SWEEP["factor"], swept, unb["subject"]), t
    return None, None


def unreached(r, limit, threads, cpus):
    """Why result R (at retry limit LIMIT, THREADS threads on CPUS) says nothing of the limit,
    as (the counts, the contention) in words, when no operation reached it: R fell back to
    the lock in no repetition (fallback_rate 0) and took fewer attempts per success than
    LIMIT at most (both pooled over threads and repetitions by the bench).  None when it
    fell back, an operation took LIMIT attempts or more, or the file has not these counts."""
    fb = r.get("fallback_rate") if r else None
    top = common.part(r, "attempts_per_success", "max")
    if not (is_number(fb) and is_number(top) and is_number(limit)) or fb != 0 or top >= limit:
        return None
    runs = r.get("runs")
    reps = (f"any of its {len(runs)} repetitions" if isinstance(runs, list) and len(runs) > 1
            else "any repetition")
    counts = (f"at most {fmt.count(top)} attempt{'s' if top != 1 else ''} per success, "
              f"no fallback in {reps}")
    return counts, fmt.plural(threads, "thread") + (f" on {fmt.plural(cpus, 'CPU')}"
                                                    if cpus else "")


def unreached_note(r, limit, threads, cpus):
    """The summary row's note when no operation of R reached LIMIT (unreached), else None."""
    got = unreached(r, limit, threads, cpus)
    if got is None:
        return None
    counts, where = got
    return (f"no operation reached the limit of {limit} ({counts}): the limited and the "
            f"unbounded loop ran the same code; the claim needs more contention than {where} "
            "give")


def brief(ctx, have):
    """report.md's lockref-sweep section: the swept lockref at each retry limit over the
    unbounded loop at the most threads (log x), the summary's claim dashed."""
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        s, t = ratio_series(doc, ctx.facts(doc, "lockref-sweep"))
        if s is not None:
            per.append((name, doc, s, t))
            plot += bp.styled(ctx, have, i, [s])
    if not per:
        return ["No retry limit and unbounded loop run side by side in these files: nothing "
                "to set beside each other.", ""] + bp.links(ctx, have, "lockref-sweep")
    m = SWEEP
    s0 = per[0][2]
    pts = [p for _, _, s, _ in per for p in s.points]
    L = [f"Each point is {s0.subject} at one retry limit over {s0.base} (no limit) at the "
         f"most threads, their ops/s in repetitions run side by side: {bp.band_words(pts)}. "
         f"Dashed: {m['factor']:g}x, the summary's claim that the limit gains that much.", ""]
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "lockref-sweep"), plot,
                  title=f"lockref-sweep: {s0.subject} at each retry limit / {s0.base}",
                  xlabel="retry limit (cmpxchg attempts before taking the lock; log scale)",
                  ylabel="ratio of ops/s, paired per repetition", threshold=m["factor"],
                  threshold_label=f"the claim: \u2265 {m['factor']:g}x", logx=10,
                  xticks=sorted({p.x for p in pts}), xticklabel=lambda v: f"{v:g}",
                  subtitle=bp.subtitle(have))
    S = []
    for name, doc, s, t in per:
        at = s.at(m["limit"])
        lo, hi = min(s.points, key=lambda p: p.median), max(s.points, key=lambda p: p.median)
        cpus = common.cpus(doc)
        where = fmt.plural(t, "thread") + (f" on {fmt.plural(cpus, 'CPU')}" if cpus else "")
        text = f"{bp.tag(ctx, name)}At {where}"
        if at is not None:
            r = find_result([x for x in doc.results if x["scenario"] == "lockref-sweep"],
                            s.subject, t, m["limit"])
            text += (f", the kernel's limit {m['limit']} runs at {bp.ci(at)} the unbounded loop's "
                     f"throughput, {_claim_words(m, at, unreached(r, m['limit'], t, cpus))}"
                     "; across")
        else:
            text += ", across"
        text += (f" the limits the ratio goes from {bp.x(lo.median)} (limit {lo.x}) to "
                 f"{bp.x(hi.median)} (limit {hi.x})")
        few = bp.reps_note(s.points)
        S.append(text + (f" ({few})" if few else "") + ".")
    rl = kernel.RETRY_LIMIT
    S.append(f"The 2019 kernel thread that set the limit reported {rl['gain']}, on "
             f"{rl['machine']}.")
    return L + [" ".join(S), ""] + bp.links(ctx, have, "lockref-sweep")


def _claim_words(m, at, why):
    """What the brief says of the claim from Point AT (the limit over the unbounded loop):
    its verdict, or, WHY (unreached()'s counts and contention) given, that it was not
    tested."""
    claim = f"the claimed gain of \u2265 {m['factor']:g}x"
    if why:
        return (f"but no operation reached the limit ({why[0]}): the limited and the "
                f"unbounded loop ran the same code, so {claim} is {stats.NOT_REACHED} (it needs "
                "more contention than that)")
    c = stats.Comparison(at.comparison.values, m["factor"])
    said = {stats.HOLDS: f"{claim} holds", stats.DOES_NOT_HOLD: f"{claim} does not hold",
            stats.CANNOT_TELL: f"whether {claim} holds cannot be told at this noise"}
    return f"so {said[c.verdict]}" + (f" ({c.why})" if c.why else "")


def _answer_at(m, doc, scen):
    rs = answers.results_of(doc, scen)
    t = answers.most(rs, m, m["limit"])
    if t is None:
        return None
    a = find_result(rs, m["subject"], t, m["limit"])
    row = answers.pair_row(m, doc, a, find_result(rs, m["base"], t), m["factor"], True,
                           f"{t} threads, {scen}")
    note = unreached_note(a, m["limit"], t, common.cpus(doc)) if row else None
    if note and row.verdict is not None:
        # the limited loop never left the lockless path: the figure stays, the claim untested
        row.verdict = stats.NOT_REACHED
        row.notes.insert(0, note)
    return row


def answer(ctx, m, docs):
    """The summary's row of the "sweep" measure M: the first of DOCS with it in lockref-sweep,
    else in contend."""
    for scen in SWEEP_SCENARIOS:
        row = answers.first_row(docs, lambda d: _answer_at(m, d, scen))
        if row:
            return row
    return None


SCENARIO = Scenario("lockref-sweep", TITLE, render, rank=30, threads=True, brief=brief,
                    says=((30, paragraph),), answers={"sweep": answer})
