"""What a summary row is made of: Row, and the helpers the scenarios' answers share.

The summary (summary.py) asks each measure of data/questions.json's "summary" of the
scenario that answers its kind (scenario.py: a Scenario's "answers"); each answer is
answer(ctx, m, docs) -> Row or None, from the first of DOCS (one machine's measured files)
that has the figures.  These are the pieces they are written with:

  Row                 one measure answered: the comparison shown, verdict, notes, where
  results_of(doc, scenario)          the doc's results of one scenario
  most(results, m, limit)            the highest thread count with subject and base
  pair_row(m, doc, a, b, threshold, higher, where)   a row from two results run side by side
  first_row(docs, fn)                the first doc's row that is not None
  sized_row(m, doc, scenario, llc)   a sized scenario's criterion (zero, copy), at each size;
                                     where it does not hold, whether a variant would have
  SHORT               a verdict in the few words of a note

It sits beneath summary.py and the scenario modules so that neither imports the other.
"""

from . import criteria, fmt, machine_state, stats
from .facts import Facts
from .which_machine import find_result

SHORT = {stats.HOLDS: "hold", stats.DOES_NOT_HOLD: "do not hold", stats.CANNOT_TELL: "cannot tell",
         stats.NOT_REACHED: "not tested"}


class Row:
    """One measure answered: its comparison(s), the figure shown and the file it came from."""

    def __init__(self, measure, doc, shown, verdict, notes, ns=False, where=""):
        self.measure, self.doc, self.shown = measure, doc, shown
        self.verdict, self.notes, self.ns, self.where = verdict, notes, ns, where


def results_of(doc, scenario):
    return [r for r in doc.results if r["scenario"] == scenario]


def most(results, m, limit=False):
    """The highest thread count with both the subject (at LIMIT) and the base."""
    ts = sorted({r.get("threads") for r in results if isinstance(r.get("threads"), int)},
                reverse=True)
    return next((t for t in ts if find_result(results, m["subject"], t, limit)
                 and find_result(results, m["base"], t)), None)


def pair_row(m, doc, a, b, threshold, higher, where):
    vals = criteria.side_by_side(a, b)
    if not vals:
        return None
    c = stats.Comparison(vals, threshold, higher, series=(a.get("runs"), b.get("runs")))
    return Row(m, doc, c, c.verdict, c.notes() + machine_state.shared_notes((a, b)), where=where)


def first_row(docs, fn):
    """FN(doc) of the first of DOCS for which it is not None; None when none has one."""
    for d in docs:
        row = fn(d)
        if row:
            return row
    return None


def sized_row(m, doc, scenario, llc):
    """The row of a sized scenario's measure M (a zero criterion's, or a copy one's: the same
    shape) from DOC's SCENARIO results; LLC the last-level cache's size, when known."""
    rs = results_of(doc, scenario)
    if not rs:
        return None
    crit = criteria.zero_measure(m)
    if crit.get("aggregate") == "geomean":
        return _geomean(m, doc, crit, rs, llc)
    pairs = criteria.zero_pairs(rs, crit, llc)
    if not pairs:
        return None
    ns = "limit_ns" in crit
    threshold = crit["limit_ns"] if ns else crit["factor"]
    comps = [(p, stats.Comparison(p.values, threshold, not ns, series=p.series))
             for p in pairs]
    verdict = stats.combine(c for _, c in comps)
    # the size shown: the worst of those that decide the verdict (all of them when it holds)
    deciding = [p for p in comps if p[1].verdict == verdict] or comps
    point, worst = (max if ns else min)(deciding, key=lambda p: p[1].median)
    notes = list(worst.notes())
    if len(comps) > 1 and verdict is not None:
        count = {}
        for _, c in comps:
            count[c.verdict] = count.get(c.verdict, 0) + 1
        notes.append(f"{fmt.plural(len(comps), 'size')}: " + ", ".join(
            f"{n} {SHORT[v]}" for v, n in count.items()))
    elif len(comps) > 1:
        notes.append(f"the lowest of {fmt.plural(len(comps), 'size')}")
    where = f"at {fmt.size_exact(point.size)}"
    if len(criteria.modes_of(crit)) > 1:
        where += f", {point.mode}"
    if verdict == stats.DOES_NOT_HOLD and not ns:
        notes += _variants_notes(doc, scenario, rs, crit,
                                 [p for p, c in comps if c.verdict == verdict])
    return Row(m, doc, worst, verdict, notes, ns=ns, where=where)


def _variants_notes(doc, scenario, rs, crit, failing):
    """Whether the plan or the machine failed: at each size of FAILING (the Points where
    ratio criterion CRIT does not hold), the best of the subject's variants (facts
    "variant_of") against the same base in the same repetitions.  One note; [] when the
    subject has no variants measured there."""
    facts = Facts(doc, scenario)
    variants = [s for s in facts.names() if facts.variant_of(s) == crit["subject"]]
    at = {(p.size, p.mode) for p in failing}
    best = {}
    idx = criteria.zero_index(rs, crit.get("scenario", criteria.ZERO))
    for v in variants:
        for k in at:
            p = criteria.zero_point_at(idx, crit, v, *k)
            if p is not None and p.values:
                c = stats.Comparison(p.values, crit["factor"])
                if k not in best or c.median > best[k][1].median:
                    best[k] = (v, c)
    if not best:
        return []
    modes = len({k[1] for k in at}) > 1

    def where(k):
        return fmt.size_exact(k[0]) + (f" {k[1]}" if modes else "")

    def shown(k):
        v, c = best[k]
        s = f"{v} {fmt.ratio(c.median)}"
        return s + (f" [{fmt.ratio(c.lo)}, {fmt.ratio(c.hi)}]" if c.lo is not None else "")

    keys = sorted(best)
    short = [k for k in keys if best[k][1].verdict == stats.DOES_NOT_HOLD]
    could = [k for k in keys if k not in short]
    out = []
    if short:
        worst = min(short, key=lambda k: best[k][1].median)
        head = f"no variant of {crit['subject']} reaches {crit['factor']:g}x there either"
        out.append(f"{head} (the best: {shown(worst)})" if len(at) == 1 else
                   f"{head} at {len(short)} of {fmt.plural(len(at), 'size')} (at worst: "
                   f"{shown(worst)} at {where(worst)})")
    for k in could:
        out.append(f"at {where(k)}, {shown(k)} holds: the plan's choice falls short"
                   if best[k][1].verdict == stats.HOLDS else
                   f"at {where(k)}, the best variant is {shown(k)}: cannot tell whether it "
                   "would hold")
    if len(keys) < len(at):
        out.append(f"{fmt.plural(len(at) - len(keys), 'size')} without variants measured")
    return ["; ".join(out)] if out else []


def _geomean(m, doc, crit, rs, llc):
    """The row of an aggregate measure: the median of the per-repetition geometric means over
    the sizes, with its interval; None when the repetitions do not pair at every size."""
    g, _ = criteria.geomean(rs, crit, llc)
    if g is None or not g.values:
        return None
    c = stats.Comparison(g.values, crit["factor"])
    first, last = fmt.size_exact(g.sizes[0]), fmt.size_exact(g.sizes[-1])
    return Row(m, doc, c, c.verdict, c.notes() + [
        f"each size weighted alike, the first {fmt.plural(g.n, 'repetition')} at each"],
        where=f"over {fmt.plural(len(g.sizes), 'size')}, {first} to {last}")
