"""The contend section (one contended cache line, N threads) and its paragraphs.

  render(ctx, doc, results)  Mops/s vs threads (oversubscribed range shaded), a
                 subject x threads table, what each subject is, on arm64 LSE against
                 exclusives and the relax instruction, attempts per success (plot and
                 table), fallback rates, fairness, latency percentiles, every figure
                 in one long table
  lead_paragraph, history_paragraph   its paragraphs of "What this machine says":
                 the winner, each criterion subject against its baseline, LSE against
                 exclusives, collapses, the locks; docs/sources.md's figures beside
                 this file's (kernel.py)
  checks(ctx, doc)  the contention done criteria (criteria.CRITERIA) against the file
  brief(ctx, have)  its short section in report.md: each question's ratio against threads
                 (ratio_series, contend_pairs)
  answer(ctx, m, docs)  the summary's contend measures
  SCENARIO       all of these, declared once (scenario.py)

What a subject is comes from the file's facts (facts.py): their order, their
description, which are variants of which ("variant_of", "variant": lse/llsc,
isb/none), which count their cmpxchg attempts ("loop", "counts_attempts"),
which fall back to the lock ("fallback"), and the baseline a subject is set
beside.  A file without facts gets the tables its figures make, nothing more.
"""

from . import answers, brief_parts as bp, common, criteria, fmt, kernel, machine_state, plots, ratios
from .which_machine import find_result
from .scenario import Scenario
from .common import index, mops, paired, part
from .fmt import DASH

TITLE = "one contended cache line, N threads"

# Variant kinds the arm64 tables compare ("variant" facts): the atomics forced, LSE against
# exclusives; and the relax instruction, each against the subject's own cpu_relax.
ATOMICS = {"llsc": "exclusives (LDXR/STXR) inlined", "lse": "LSE (LDADD, CAS) inlined"}
RELAX_INSNS = {"isb": "ISB in place of cpu_relax", "none": "no instruction in place of cpu_relax"}

# A subject collapses when its throughput at the largest thread count is
# below COLLAPSE times its 2-thread figure.
COLLAPSE = 0.5
# The throughput plot's axis stops at this fraction of its best figure, so that a lock
# collapsing to 1% of it (the ticket lock oversubscribed) does not stretch a log axis
# over the figures the questions compare; the points below are marked at its foot.
CLIP_BELOW = 0.05


def render(ctx, doc, results):
    v = common.threads_view(ctx, doc, "contend", results)
    facts, stem, sub, mark = v.facts, v.stem, v.sub, v.mark
    cpus, threads, order, idx = v.cpus, v.threads, v.order, v.idx
    op = ("one op is one count update (a get or a put)"
          if all(r.get("op") == "one count update" for r in results)
          else "one op is one get and one put")
    L = ["Every thread takes and drops a reference on one shared object as fast as it can: "
         f"{op}, and the figures count the ops of all threads "
         "together." + (f" This machine has {fmt.plural(cpus, 'CPU')}." if cpus else ""), ""]

    # Throughput
    if len(threads) > 1:
        ordered = sorted(results, key=lambda r: order.index(r["subject"]))
        series = plots.series_vs(ordered, "threads", "ops_per_sec")
        if len({x["subject"] for x in series}) == len(series):
            for x in series:  # one line per subject: its colour is the subject's
                x["key"] = x["subject"]
        L += ctx.plot(plots.plot_vs_threads, ctx.png(stem, "contend", "ops_per_sec"),
                      ordered, "ops_per_sec", series=series,
                      title=f"contend: Mops/s vs threads, higher is better{mark}",
                      subtitle=sub, oversub=cpus, logy="auto",
                      emphasis=criteria.question_subjects(), clip_below=CLIP_BELOW)
    else:
        L += common.bars_one_count(ctx, doc, "contend", results, "ops_per_sec")
    top = threads[-1]
    extra = None
    if 2 in threads and top > 2:
        def keep(s):
            a, b = mops(idx.get((s, top))), mops(idx.get((s, 2)))
            return fmt.ratio(a / b) if a is not None and b else DASH
        extra = (f"{top} vs 2 threads", keep)
    L += ["Throughput, million ops/s (median of the runs):", ""]
    L += common.grid("subject", [(s, s) for s in order], threads, cpus,
                     lambda s, t: fmt.num(mops(idx.get((s, t)))), extra)
    L += common.over_note(threads, cpus)
    L += common.subject_table(facts, results, order, "The subjects:")
    L += _atomics_table(doc, facts, order, threads, cpus, idx)
    L += _relax_table(facts, order, threads, cpus, idx)
    L += _attempts(ctx, doc, facts, results, order, threads, cpus, idx)
    L += _fallback(facts, results, order, threads, cpus, idx)
    L += _fairness(results, order, threads, cpus, idx)
    L += _latency(ctx, doc, results, order, threads, cpus, idx)
    L += common.all_figures(results, order)
    L += common.threads_summary(results, "ops_per_sec")
    L += common.flags(doc, results)
    return L


def atomics_pairs(facts, order):
    """[(base, {kind: subject})]: the subjects of ORDER with both an LSE and an exclusives
    variant among ORDER (facts "variant_of" / "variant"), in ORDER's order."""
    out = []
    for b in order:
        if facts.is_variant(b):
            continue
        kinds = {k: facts.variant(b, k, order) for k in ATOMICS}
        if all(kinds.values()):
            out.append((b, kinds))
    return out


def atomics_tables(doc, rows, threads, cpus, get, first="subject"):
    """arm64: LSE throughput over exclusives', per thread count; and, for subjects, the run-time
    choice against the kind it chose.  ROWS [(key, label)]; GET(key, kind, t) -> the result of
    KEY with variant KIND ("lse", "llsc"; None: KEY itself) at T threads."""
    if not rows:
        return []
    L = ["#### arm64: LSE vs exclusives", "",
         "Throughput with LSE atomics inlined over the same code with exclusives "
         "(LDXR/STXR) inlined, lse / llsc, each repetition's pair run side by side "
         "(above 1x: LSE is faster here):", ""]
    L += common.grid(first, rows, threads, cpus,
                     lambda k, t: paired(get(k, "lse", t), get(k, "llsc", t)))
    chose = doc.env.get("atomics")
    if chose in ATOMICS and first == "subject":
        L += [f"The subjects without a suffix use the run-time choice (GCC's outline atomics: "
              f"a call to a libgcc helper per atomic), which took **{chose}** on this machine; "
              f"their throughput over the forced {chose} subject's is the price of that call:",
              ""]
        L += common.grid(first, rows, threads, cpus,
                         lambda k, t: paired(get(k, None, t), get(k, chose, t)))
    return L


def _atomics_table(doc, facts, order, threads, cpus, idx):
    pairs = dict(atomics_pairs(facts, order))

    def get(b, kind, t):
        return idx.get((pairs[b][kind] if kind else b, t))
    return atomics_tables(doc, [(b, b) for b in pairs], threads, cpus, get)


def _relax_table(facts, order, threads, cpus, idx):
    """arm64: the relax subjects with ISB and with nothing, against cpu_relax (YIELD)."""
    rows = [(b, b) for b in order if not facts.is_variant(b)
            and any(facts.variant(b, i, order) for i in RELAX_INSNS)]
    if not rows:
        return []

    def cell(b, t):
        return " / ".join(paired(idx.get((facts.variant(b, i, order), t)), idx.get((b, t)))
                          for i in RELAX_INSNS)
    L = ["#### Relax instruction", "",
         "Throughput with ISB / with no instruction where the subject spins with cpu_relax "
         "(YIELD on arm64), over the subject's own, side by side (1x: the instruction makes "
         "no difference):", ""]
    L += common.grid("subject", rows, threads, cpus, cell)
    return L


def _attempts(ctx, doc, facts, results, order, threads, cpus, idx):
    """Attempts per success: a row for every subject with figures, and for every loop whose
    attempts the bench counts ("loop", "counts_attempts") even without them (dashes)."""
    have = [s for s in order if any(part(r, "attempts_per_success", "mean") is not None
                                    for r in results if r["subject"] == s)]
    rows = [s for s in order if s in have or (facts.loop(s) and facts.counts_attempts(s))]
    if not rows:
        return []
    L = ["#### cmpxchg attempts per success", ""]
    panels = []
    if have and len(threads) > 1:
        panels = []
        for key in ("mean", "p99"):
            series = []
            for s in have:
                pts = [(t, part(idx.get((s, t)), "attempts_per_success", key)) for t in threads]
                pts = [(t, v) for t, v in pts if v is not None]
                if pts:
                    series.append({"key": s, "label": s,
                                   "x": [p[0] for p in pts], "y": [p[1] for p in pts],
                                   "lo": [p[1] for p in pts], "hi": [p[1] for p in pts]})
            if series:
                panels.append((key, series, f"attempts per success, {key} (1 = no retry)"))
        if plots.flat(panels):
            L += ["Every subject's mean and p99 are within 2% of 1 attempt per success at "
                  "every thread count: the loops hardly ever retried, so there is nothing "
                  "to plot.", ""]
            panels = []
    if panels:
        name = ctx.png(ctx.stem(doc), "contend", "attempts")
        L += ctx.plot(plots.plot_vs_threads, name, [], "attempts_per_success",
                      panels=panels, oversub=cpus, logy="auto", dodge=0.04,
                      title="contend: cmpxchg attempts per successful update vs threads"
                            + (" (simulated)" if doc.simulated else ""),
                      subtitle=common.subtitle(doc, results)
                      + " \u00b7 points shifted sideways so that equal values stay visible")

    def cell(s, t):
        r = idx.get((s, t))
        vals = [part(r, "attempts_per_success", k) for k in ("mean", "p50", "p99", "max")]
        if all(v is None for v in vals):
            return DASH
        return " / ".join([fmt.num(vals[0])] + [fmt.count(v) for v in vals[1:]])
    L += ["Each cell: mean / p50 / p99 / max attempts per successful update "
          f"({DASH} where the file has no figure: no cmpxchg loop, or not counted).", ""]
    L += common.grid("subject", [(s, s) for s in rows], threads, cpus, cell)
    return L


def _fallback(facts, results, order, threads, cpus, idx):
    """Fallback rates: a row for every subject with figures, and for every subject that can
    fall back to the lock ("fallback") even without them."""
    rows = [s for s in order if facts.fallback(s)
            or any(r.get("fallback_rate") is not None for r in results if r["subject"] == s)]
    if not rows:
        return []
    L = ["#### Fallback to the lock", "",
         "Share of operations that gave up the lockless path and took the lock "
         f"({DASH}: no figure in the file):", ""]
    L += common.grid("subject", [(s, s) for s in rows], threads, cpus,
                     lambda s, t: fmt.rate((idx.get((s, t)) or {}).get("fallback_rate")))
    return L


def _fairness(results, order, threads, cpus, idx):
    if not any(r.get("fairness") is not None for r in results):
        return []
    L = ["#### Fairness", "",
         "Jain's index over the threads' op counts: 1 = every thread did the same work, "
         "1/N = one thread did it all.", ""]
    L += common.grid("subject", [(s, s) for s in order], threads, cpus,
                     lambda s, t: fmt.num((idx.get((s, t)) or {}).get("fairness")))
    multi = [r for r in results if r["threads"] > 1 and fmt.is_number(r.get("fairness"))]
    if multi:
        worst = min(multi, key=lambda r: r["fairness"])
        L += [f"Least fair: {worst['subject']} at {fmt.plural(worst['threads'], 'thread')} "
              f"({fmt.num(worst['fairness'])}).", ""]
    return L


def _latency(ctx, doc, results, order, threads, cpus, idx):
    if not any(isinstance(r.get("latency_ns"), dict) for r in results):
        return ["#### Latency", "", "No latency figures in this file.", ""]

    def cell(s, t):
        r = idx.get((s, t))
        vals = [part(r, "latency_ns", k) for k in ("p50", "p99", "p999")]
        if all(v is None for v in vals):
            return DASH
        return " / ".join(machine_state.latency_cell(r, v) for v in vals)
    L = ["#### Latency", "",
         "Time of one op (get + put) as each thread saw it; each cell: p50 / p99 / p99.9, "
         f"in ns unless marked ({DASH}: no figure in the file):", ""]
    if len(threads) > 1:
        L += ctx.plot(plots.plot_latency, ctx.png(ctx.stem(doc), "contend", "latency"),
                      results, part="p50", oversub=cpus, order=order,
                      title="contend: latency p50 vs threads, lower is better"
                            + (" (simulated)" if doc.simulated else ""),
                      subtitle=common.subtitle(doc, results))
    L += common.grid("subject", [(s, s) for s in order], threads, cpus, cell)
    L += machine_state.latency_note(results)
    return L


# -- what this machine says ------------------------------------------------------------------

def _contend(doc):
    return [r for r in doc.results if r["scenario"] == "contend"]


def checks(ctx, doc):
    """The contention done criteria against DOC's contend results ([] without any)."""
    con = _contend(doc)
    return criteria.evaluate(con) if con else []


def lead_paragraph(ctx, doc):
    """The first contention paragraph: lists of sentences ([] without contend results)."""
    results = _contend(doc)
    return [_lead_sentences(ctx, doc, results)] if results else []


def _lead_sentences(ctx, doc, results):
    facts = ctx.facts(doc, "contend")
    idx = index(results)
    threads = sorted({r["threads"] for r in results})
    multi = [t for t in threads if t > 1]
    if not multi:
        return []
    base = 2 if 2 in threads else multi[0]
    where = "In this simulation" if doc.simulated else "On this machine"
    S = []
    at = sorted((r for r in results if r["threads"] == base and mops(r) is not None),
                key=mops, reverse=True)
    if at:
        w = at[0]
        s = (f"{where}, at {fmt.plural(base, 'thread')} {w['subject']} is fastest with "
             f"{fmt.num(mops(w))} Mops/s")
        if len(at) > 1:
            s += f", ahead of {at[1]['subject']} ({fmt.num(mops(at[1]))})"
            s += f"; {at[-1]['subject']} is slowest ({fmt.num(mops(at[-1]))})"
        S.append(s + ".")

    def m(s, t):
        return mops(idx.get((s, t)))
    ratios = []
    n_paired = 0
    for a in criteria.contend_subjects():  # each against its baseline (a fact of the file)
        b = facts.baseline(a)
        if b is None:
            continue
        ra, rb = idx.get((a, base)), idx.get((b, base))
        if mops(ra) is not None and mops(rb):
            v, n = criteria.ratio(ra, rb)
            n_paired = n_paired or n
            ratios.append(f"{a} reaches {fmt.ratio(v)} {b}'s throughput")
    if ratios:
        how = (" (one repetition each)" if n_paired == 1 else
               f" (medians of {n_paired} side-by-side repetitions)" if n_paired else "")
        S.append(f"At {fmt.plural(base, 'thread')}, " + " and ".join(ratios) + how + ".")
    kinds = [(b, paired(idx.get((v["lse"], base)), idx.get((v["llsc"], base))))
             for b, v in atomics_pairs(facts, facts.order(results))]
    kinds = [(b, v) for b, v in kinds if v != DASH]
    if kinds:
        S.append(f"With LSE atomics inlined, at {fmt.plural(base, 'thread')} "
                 + common.names(f"{b} runs at {v}" for b, v in kinds)
                 + " its throughput with exclusives (LDXR/STXR).")
    S += collapse_sentences(ctx, doc, results)
    return S


def collapse_sentences(ctx, doc, results=None, queued=True):
    """What happens at the largest thread count: which subjects collapse (below COLLAPSE of
    their figure at 2 threads), the queued lock against its own and its rival's figure, and
    the ticket lock's fate with its explanation ([] with one thread count).  QUEUED False:
    without the queued lock's sentence (report.md gives its ratio with an interval)."""
    results = _contend(doc) if results is None else results
    facts = ctx.facts(doc, "contend")
    idx = index(results)
    cpus = common.cpus(doc)
    threads = sorted({r["threads"] for r in results})
    multi = [t for t in threads if t > 1]
    if not multi:
        return []
    base = 2 if 2 in threads else multi[0]
    top = threads[-1]
    if top <= base:
        return []

    def m(s, t):
        return mops(idx.get((s, t)))
    S = []
    keep = {}
    for s in facts.order(results):
        a, b = m(s, top), m(s, base)
        if a is not None and b:
            keep[s] = a / b
    over = bool(cpus and top > cpus) and not doc.simulated
    when = (f"Oversubscribed ({top} threads on {fmt.plural(cpus, 'CPU')})" if over
            else f"At {top} threads")
    gone = [s for s, k in keep.items() if k < COLLAPSE]
    if len(gone) == 1:
        S.append(f"{when}, {gone[0]} collapses to {fmt.ratio(keep[gone[0]])} its "
                 f"{base}-thread throughput (below {COLLAPSE:g}x).")
    elif gone:
        S.append(f"{when}, {common.names(f'{s} ({fmt.ratio(keep[s])})' for s in gone)} "
                 f"collapse to below {COLLAPSE:g}x their {base}-thread throughput.")
    elif keep:
        low = min(keep, key=keep.get)
        S.append(f"{when}, no subject collapses: each keeps at least {COLLAPSE:g}x its "
                 f"{base}-thread throughput (lowest: {low}, {fmt.ratio(keep[low])}).")
    lock, rival = criteria.scaling()
    q_top, q_base = m(lock, top), m(lock, base)
    if queued and q_top is not None and q_base:
        s = (f"{lock} at {top} threads runs at {fmt.num(q_top)} Mops/s, "
             f"{fmt.ratio(q_top / q_base)} its {base}-thread figure")
        mu = idx.get((rival, top)) if rival else None
        if mops(mu):
            # the same figure as the criteria and the summary: paired where the runs pair
            s += f" and {paired(idx.get((lock, top)), mu)} {rival} ({fmt.num(mops(mu))})"
        S.append(s + ".")
    g = kernel.TICKET_GRAVITON2
    if g["subject"] in keep:
        k = keep[g["subject"]]
        if k < COLLAPSE:
            if doc.simulated:
                S.append(_ticket_why(doc, over) + f"; measured on {g['machine']}, ticket "
                         f"locks took {g['text']}.")
            else:
                S.append(_ticket_why(doc, over) + f"; even without oversubscription, ticket "
                         f"locks on {g['machine']} took {g['text']}.")
        else:
            S.append(f"The ticket lock holds at {fmt.ratio(k)} its {base}-thread figure "
                     f"(on {g['machine']} ticket locks took {g['text']}).")
    return S


def _ticket_why(doc, over):
    """Why the ticket lock collapses, by what the figures come from: a machine's scheduler
    (the lock handed to a waiter that is not running), or hotline-sim's model, which has no
    scheduler (docs/sim.md: every waiter holds a copy of the one line and re-reads it after
    each release's invalidation, each re-read a request the line's home serves in turn)."""
    if doc.simulated:
        return ("The ticket lock is the expected casualty in this model, which has no "
                "preemption: every waiter polls the one line, each release invalidates all "
                "their copies, and their re-reads queue at the line's home one at a time, so "
                "each handover costs more the more threads wait")
    return ("The ticket lock is the expected casualty: it hands the lock to the next waiter "
            "in line even when that waiter is not running, and everyone behind it spins"
            + (" (with more threads than CPUs, that is the rule)" if over else ""))


def history_paragraph(ctx, doc):
    """docs/sources.md's contention figures beside this file's: lists of sentences."""
    results = _contend(doc)
    if not results:
        return [[]]
    idx = index(results)
    S = []
    mk = kernel.MACHINE_KIND
    t = mk["threads"]
    xadd, cas = mk["xadd_subject"], mk["cas_subject"]
    fa, cl = mops(idx.get((xadd, t))), mops(idx.get((cas, t)))
    # docs/sources.md's figures are from one x86-64 machine: no yardstick for arm64 or
    # a model
    if not doc.simulated and not kernel.is_arm(doc.env.get("arch")) and \
            (fa is not None or cl is not None):
        n = mk["rmw_per_op"]
        s = (f"Published on {mk['what']} ({mk['source']}), not necessarily this machine: "
             f"per atomic at {t} threads, lock xadd at about {mk['xadd_mops']} Mops/s and a "
             f"cmpxchg loop at about {mk['cas_mops']} ({fmt.ratio(mk['cas_mops'] / mk['xadd_mops'])}), "
             f"{mk['cas_attempts']} attempts per success. Here, with {n} atomics per op")
        here = []
        if fa is not None:
            here.append(f"{xadd} makes {fmt.num(fa * n)} M atomics/s")
        if cl is not None:
            c = f"{cas} {fmt.num(cl * n)} M/s"
            if fa:   # side by side where the runs pair, as every ratio of the report
                v, n = criteria.ratio(idx.get((cas, t)), idx.get((xadd, t)))
                c += f" ({fmt.ratio(v)}{' side by side' if n else ''})"
            a = part(idx.get((cas, t)), "attempts_per_success", "mean")
            if a is not None:
                c += f" with {fmt.num(a)} attempts per success"
            here.append(c)
        S.append(s + ", " + " and ".join(here) + ".")
    att = [(r, part(r, "attempts_per_success", "mean")) for r in results]
    att = [(r, a) for r, a in att if a is not None and r["threads"] > 1]
    if att:
        r, a = max(att, key=lambda p: p[1])
        ks = kernel.LOCKREF_ATTEMPTS
        S.append("On big machines the kernel threads counted " + " and ".join(
            f"{k['text']} attempts per success on {k['machine']}" for k in ks)
            + f"; here the mean peaks at {fmt.num(a)} ({r['subject']}, "
            f"{fmt.plural(r['threads'], 'thread')}).")
    return [S]


# -- report.md's short section, its ratio plot and the summary's contend measures -----------

def contend_pairs():
    """[(subject, base, threshold, question)]: the contend measures of criteria.QUESTIONS, each
    pair once, in the summary's order."""
    out, seen = [], set()
    for q in criteria.QUESTIONS:
        for m in q["measures"]:
            if m["kind"] == "contend" and (m["subject"], m["base"]) not in seen:
                seen.add((m["subject"], m["base"]))
                out.append((m["subject"], m["base"], m["factor"], q["question"]))
    return out


def ratio_series(doc):
    """[Series]: each contend question's subject / base against threads, where they pair."""
    rs = [r for r in doc.results if r["scenario"] == criteria.SCENARIO]
    pairs = contend_pairs()
    out = []
    for subject, base, factor, _ in pairs:
        pts = [ratios.point(t, ratios.find(rs, subject, t), ratios.find(rs, base, t), "ops_per_sec")
               for t in ratios.int_threads(rs)]
        pts = [p for p in pts if p]
        # the subject's colour; a subject set against two bases (rcuref) a colour per pair
        twice = sum(1 for p in pairs if p[0] == subject) > 1
        if pts:
            out.append(ratios.Series(f"{subject} / {base}", f"{subject} / {base}" if twice else subject,
                              pts, factor, subject, base))
    return out


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


def brief(ctx, have):
    """report.md's contend section: each question's subject / its baseline (data/questions.json)
    against threads, the questions' thresholds dotted in their colours, the oversubscribed range
    shaded; each machine's figures at the questions' thread counts."""
    plot, xs, per = [], [], []
    for i, (name, doc) in enumerate(have):
        series = ratio_series(doc)
        per.append((name, doc, series))
        plot += bp.styled(ctx, have, i, series)
        xs += [p.x for s in series for p in s.points]
    if not plot:
        return ["The files have no pairs of contend results run side by side to set a "
                "question's subject beside its baseline.", ""] + bp.links(ctx, have, "contend")
    plot += _threshold_lines([s for _, _, series in per for s in series], xs)
    cpus = [c for c in (common.cpus(d) for _, d in have) if c]
    allpts = [p for _, _, ser in per for s in ser for p in s.points]
    L = [f"Each {'solid ' if len(have) == 1 else ''}line is a question's subject over its "
         "baseline, their ops/s in repetitions run side by side: "
         f"{bp.band_words(allpts)}. 1.0 is as fast as the baseline; each dotted line, in the "
         "colour of its subject, is that question's threshold"
         + ("; shaded: more threads than the machine's CPUs (oversubscribed)"
            if len(have) == 1 and cpus and max(xs) > cpus[0] else "") + ".", ""]
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "contend"), plot,
                  title="contend: subject / baseline ops/s vs threads (above 1: the subject "
                        "is faster)",
                  xlabel="threads", ylabel="ratio of ops/s, paired per repetition",
                  logx=2 if max(xs) / max(1, min(xs)) >= 8 else False,
                  subtitle=bp.subtitle(have), oversub=cpus[0] if len(have) == 1 and cpus
                  else None)
    said = set()   # a sentence said for one machine is not said again for the next
    for name, doc, series in per:
        by = {(s.subject, s.base): s for s in series}
        oc = common.cpus(doc)
        parts = []
        for subject, base, _, _ in contend_pairs():
            s = by.get((subject, base))
            if s is None or not s.points:
                continue
            t = _measure(subject, base)["threads"]
            p = s.points[-1] if t == "most" else s.at(t)
            if p is None:
                continue
            where = fmt.plural(p.x, "thread") + (" (oversubscribed)" if oc and p.x > oc else "")
            shape = p.comparison.notes()
            parts.append((where, subject, f"{bp.ci(p)}{f' ({shape[0]})' if shape else ''} {base}'s"))
        S = []
        if parts:
            text, last = [], None
            for where, subject, t in parts:
                text.append(f"{subject} {t}" if where == last
                            else f"at {where} {subject} reaches {t} throughput")
                last = where
            few = bp.reps_note([p for s in series for p in s.points])
            first = "; ".join(text)
            S.append(bp.tag(ctx, name) + first[0].upper() + first[1:]
                     + (f" ({few})" if few else "") + ".")
        S += [x for x in collapse_sentences(ctx, doc, queued=False) if x not in said]
        said.update(S)
        if S:
            L += [" ".join(S), ""]
    return L + bp.links(ctx, have, "contend")


def _answer_at(m, doc):
    rs = answers.results_of(doc, criteria.SCENARIO)
    t = answers.most(rs, m) if m["threads"] == "most" else m["threads"]
    a, b = find_result(rs, m["subject"], t), find_result(rs, m["base"], t)
    if a is None or b is None:
        return None
    cpus = doc.env.get("cpus")
    where = f"{t} threads" + (f" on {cpus} CPUs" if isinstance(cpus, int) else "")
    return answers.pair_row(m, doc, a, b, m["factor"], True, where)


def answer(ctx, m, docs):
    """The summary's row of a contend measure M: the first of DOCS that has it."""
    return answers.first_row(docs, lambda d: _answer_at(m, d))


SCENARIO = Scenario(criteria.SCENARIO, TITLE, render, rank=20, threads=True, brief=brief,
                    says=((20, lead_paragraph), (35, history_paragraph)),
                    checks=checks, answers={"contend": answer})
