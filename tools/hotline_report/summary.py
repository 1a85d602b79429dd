"""The report's first screen: one line on the machine, then the summary table of the questions.

One row per measure of criteria.QUESTIONS that the measured files have data
for (rows without data are left out): this machine's figure, the median of
the paired per-repetition ratios (or differences) with its confidence
interval, the three-valued verdict (stats.py) or "not tested here" when the run
never did what the claim is about (lockref_sweep.py), and the published figure
beside it with the machine it came from and its source (data/published.json,
docs/sources.md).  The first measured file that has a measure's data answers
it.  Simulated files never answer: a model is not this machine.  Under the table, one
line per simulated file of criteria.SIM_LOOKUP's preset states that model's figure for it
(rcuref over the cmpxchg lookup at 224 threads), with no verdict.

Files from several machines (hotline-report a.json b.json, each env naming
its CPU and arch: machines()): the table has one column group per machine,
figure and verdict, each answered by that machine's files alone, in the
order the files came; a dash where a machine's files do not answer a
measure.  The published column is shared (the figures of each machine's
arch, once each).
"""

from . import criteria, fmt, kernel, machines as compare, scenario, stats
from .answers import SHORT, Row, results_of  # noqa: F401
from .load import is_number
from .which_machine import describe, find_result, machine_line, machines, short_name  # noqa: F401

TITLE = "Summary: the questions, answered on this machine"
TITLE_MACHINES = "Summary: the questions, answered on each machine"


def _answer(ctx, m, measured):
    """The row of measure M from the first of the MEASURED docs that has its data, or None:
    asked of the scenario that answers M's kind (scenario.py)."""
    fn = scenario.answerer(m["kind"])
    return fn(ctx, m, measured) if fn else None


def _figure(row):
    c = row.shown
    if row.ns:
        f = lambda v: f"{v:+.2f} ns".replace("-", "\u2212")  # noqa: E731
    else:
        f = lambda v: f"{v:.2f}x"  # noqa: E731
    if c.lo is None:
        return f"{f(c.median)} (one repetition)"
    return f"{f(c.median)} [{f(c.lo)}, {f(c.hi)}] {row.where}"


def _claim(m, row):
    if m["kind"] in criteria.SIZE_CRITERIA:
        crit = criteria.zero_measure(m)
        if "limit_ns" in crit:
            return f"\u2264 +{crit['limit_ns']:g} ns"
        return None if crit["factor"] is None else f"\u2265 {crit['factor']:g}x"
    if m["kind"] == "timing":
        return None if m["limit"] is None else f"\u2264 {m['limit']:g}x"
    return None if m["factor"] is None else f"\u2265 {m['factor']:g}x"


def _verdict_cell(m, row):
    claim = _claim(m, row)
    if claim is None or row.verdict is None:
        text = "a figure (no threshold)"
    else:
        text = f"**{row.verdict}** ({claim})"
        why = row.shown.why if row.verdict == row.shown.verdict == stats.CANNOT_TELL else ""
        if why:
            text += f": {why}"
    if row.notes:
        text += "; " + "; ".join(row.notes)
    return text


def _published_cell(m, row):
    key = m.get("published")
    if not key:
        return fmt.DASH
    got = kernel.summary_published(key, m["subject"] if "subject" in m else
                                   criteria.zero_measure(m)["subject"],
                                   row.doc.env.get("arch"))
    if got is None:
        return fmt.DASH
    text, machine, source = got
    return f"{text}, published on {machine} ({source})"


def render(ctx):
    """The summary's lines: heading, table, how to read it ([] when no row has data).  Files
    from several machines: one column group (figure, verdict) per machine, a dash where a
    machine's files do not answer a measure."""
    groups = machines(ctx.docs)
    multi = len(groups) > 1
    rows = []
    levels = set()
    for q in criteria.QUESTIONS:
        first = True
        for m in q["measures"]:
            answers = [_answer(ctx, m, docs) for _, docs in groups]
            if not any(answers):
                continue
            cells, published = [], []
            for row in answers:
                if row is None:
                    cells += [fmt.DASH, fmt.DASH]
                    continue
                if row.shown.lo is not None:
                    levels.add((row.shown.n, row.shown.level))
                cells += [_figure(row), _verdict_cell(m, row)]
                pub = _published_cell(m, row)
                if pub != fmt.DASH and pub not in published:
                    published.append(pub)
            rows.append([q["question"] if first else "", m["what"], *cells,
                         "; ".join(published) or fmt.DASH])
            first = False
    if not rows:
        return []
    if multi:
        L = [f"## {TITLE_MACHINES}", "",
             "One column group per machine, named from its files' env: "
             + "; ".join(f"**{name}** ({', '.join(d.path for d in docs)})"
                         for name, docs in groups) + f". A dash ({fmt.DASH}): that "
             "machine's files do not answer the measure."
             + (f" The contention ratios at every thread count, the machines on one plot: "
                f"the contend section below, and \"{compare.TITLE}\" in the appendix."
                if compare.compared(ctx) else ""), ""]
        head = [h for name, _ in groups for h in (f"{name}: median [interval]", "verdict")]
    else:
        L = [f"## {TITLE}", ""]
        head = ["this machine: median [interval]", "verdict"]
    L += fmt.table(["question", "measure", *head, "published"], rows, "l" * (len(head) + 3))
    lv = ", ".join(f"{level:.2%} with {fmt.plural(n, 'repetition')}"
                   for n, level in sorted(levels))
    L += ["", "Each figure is the median of paired per-repetition ratios (subject and baseline "
          "repetition i ran side by side) with the exact order-statistic interval for the "
          f"median, at 95% where the repetitions allow it (here: {lv or 'none'}"
          + ("" if (5, 0.9375) in levels else "; 5 repetitions reach at most 93.75%")
          + "). A verdict holds or does not hold when the whole "
          "interval is on one side of the threshold, and is \"cannot tell at this noise\" "
          "when it straddles it, the series is bimodal across it, or fewer than 5 "
          f"repetitions were taken. It is \"{stats.NOT_REACHED}\" when the run never did what "
          "the claim is about, whatever the figure (the retry limit's, when no operation "
          "reached the limit: no fallback, fewer attempts per success than the limit).", ""]
    for d in ctx.docs:
        if not d.simulated:
            L += until_decided(d) or []
    L += simulated_lookup(ctx.docs)
    return L


def simulated_lookup(docs):
    """The simulated files' answer to criteria.SIM_LOOKUP (rcuref over the cmpxchg lookup at
    224 threads of the ThunderX2 model), one paragraph line and a blank per file of that
    preset; a file without the runs (an older hotline-sim, or fewer threads) says so in one
    line.  [] when no simulated file is of that preset."""
    q = criteria.SIM_LOOKUP
    s, b, t = q["subject"], q["base"], q["threads"]
    L = []
    for d in docs:
        if not d.simulated or d.env.get("preset") != q["preset"]:
            continue
        rs = results_of(d, criteria.SCENARIO)
        a, base = find_result(rs, s, t), find_result(rs, b, t)
        v = criteria.ratio(a, base)[0] if a is not None and base is not None else None
        if v is None:
            L += [f"Simulated (hotline-sim, {q['preset']}): {d.path} has no {t}-thread {s} and "
                  f"{b} runs (a hotline-sim without them, or fewer threads): no simulated "
                  f"{s} / {b} figure.", ""]
            continue
        L += [f"Simulated, not measured (hotline-sim's {q['preset']} model, {d.path}; "
              f"docs/sim.md): at {t} threads {s}'s get+put has {fmt.ratio(v)} {b}'s "
              f"throughput; {q['text']} (about {q['expected']:g}x). A model's figure, not a "
              f"verdict on any machine.", ""]
    return L


def until_decided(doc):
    """What the bench's --until-decided did for DOC (its config.until_decided), as one
    paragraph line and a blank, or None when it did not run: the budget and what was spent,
    how many comparisons it judged, how many the extra repetitions decided and how many stayed
    "cannot tell" at the cap or the budget's end."""
    ud = (doc.config or {}).get("until_decided")
    if not isinstance(ud, dict) or not isinstance(ud.get("decisions"), list):
        return None
    ds = [d for d in ud["decisions"] if isinstance(d, dict)]
    cannot = stats.CANNOT_TELL
    extra = [d for d in ds if is_number(d.get("repetitions")) and is_number(d.get("planned"))
             and d["repetitions"] > d["planned"]]
    settled = [d for d in extra if d.get("planned_verdict") == cannot
               and d.get("verdict") != cannot]
    left = [d for d in ds if d.get("verdict") == cannot]
    why = {}
    for d in left:
        why[d.get("stopped") or "?"] = why.get(d.get("stopped") or "?", 0) + 1
    stop = {"cap": "at the cap" + (f" of {ud['cap']} repetitions" if is_number(ud.get("cap"))
                                   else ""),
            "budget": "when the budget ran out"}
    spent = ud.get("spent_s")
    budget = ud.get("budget_s")
    text = (f"The bench ran with --until-decided"
            + (f" (a budget of {fmt.num(budget)} s" if is_number(budget) else " (")
            + (f", {fmt.num(spent)} s spent)" if is_number(spent) else ")")
            + f" in {doc.path}: of the {fmt.plural(len(ds), 'comparison')} it judged, "
            f"{len(extra)} had more repetitions than the planned "
            f"{ud.get('planned', '?')} (the undecided ones and those sharing their subjects), "
            f"and {len(settled)} went from \"cannot tell\" to a verdict")
    if left:
        text += "; " + " and ".join(f"{n} stayed \"cannot tell\" {stop.get(k, k)}"
                                    for k, n in sorted(why.items()))
    return [text + ".", ""]
