"""The copy section (copying memory that may not be there), and what it adds up to.

  render        GB/s vs buffer size, log-log, one plot per size sweep (hot, cold) and
                one for the probe sweep; what each subject is; hl_try_copy against
                glibc_memcpy at every size (the median of the paired ratios, its
                interval and, where criteria.COPY_CRITERIA ask, the verdict), and its
                cost in ns per call below 64 B; hl_try_copy against process_vm_readv
                and the pipe probe (the ways to read memory that may be unmapped);
                hl_try_load64 against a process_vm_readv per word; which variant is
                fastest at each size beside the automatic plan; GB/s of every subject
                by size
  paragraphs    its paragraphs of "What this machine says"
  checks        its rows of the done criteria (criteria.COPY_CRITERIA)

The copy scenario's size sweeps have zero's shape (subject, mode, size), so the
criteria are judged by the same code (criteria.zero_points), and the cache marks
and the plan's words are zero's (zeroing.py).  A file without copy results (an
older bench) has no section; the summary leaves its rows out.
"""

from . import answers, brief_parts as bp, common, criteria, fmt, plots, ratios, stats
from .scenario import Scenario
from .common import names
from .criteria import mode_of
from .facts import Facts
from .fmt import DASH
from .load import is_number
from .zeroing import ZeroData, _ci, _table, cache_marks, parse_plan, plan_words

TITLE = "copying memory that may not be there"

MODE_TEXT = {
    "hot": "one source and one destination, copied again and again: in the cache as far as "
           "they fit",
    "cold": "every call copies another place of an arena several times the last-level cache "
            "(the sources in its first half, the destinations in its second), in scattered "
            "order: neither is in the cache",
    "probe": "hot buffers, 8 B to 1 MiB: hl_try_copy against the ways user space reads memory "
             "that may be unmapped, each a system call (process_vm_readv of its own pid, one "
             "call per copy; a pipe written and read back)",
    "word": "one aligned 8-byte word per call from a hot array: hl_try_load64 against one "
            "process_vm_readv per word; ns per word",
}

SWEEPS = ("hot", "cold")    # the memcpy sweeps, with the variants
PROBE, WORD = "probe", "word"
NEAR = 0.95                 # the plan's variant is as good as the fastest within this ratio


def _gb(r):
    v = r.get("gb_per_sec") if r else None
    return v if is_number(v) else None


def _is_variant(r, facts):
    if "variant" in r:
        return r["variant"] == r["subject"]
    return facts.is_variant(r["subject"])


class CopyData:
    """One file's copy results, indexed by (subject, mode, size)."""

    def __init__(self, doc, results, facts=None):
        self.doc = doc
        self.facts = facts if facts is not None else Facts(doc, criteria.COPY)
        self.results = [r for r in results if r.get("size") is not None]
        self.idx = criteria.zero_index(self.results, criteria.COPY)
        seen = list(dict.fromkeys(mode_of(r) for r in self.results))
        self.modes = [m for m in criteria.COPY_MODES if m in seen] + \
            [m for m in seen if m not in criteria.COPY_MODES]
        self.sizes = {m: sorted({r["size"] for r in self.results if mode_of(r) == m})
                      for m in self.modes}
        self.subjects = self.facts.order(self.results)
        variants = {r["subject"] for r in self.results if _is_variant(r, self.facts)}
        self.variants = [s for s in self.subjects if s in variants]
        self.marks = cache_marks(doc.env, results)
        self.llc = next((v for v, label in self.marks if label.startswith("LLC")), None)
        self.plan_text = next((r["plan"] for r in self.results
                               if isinstance(r.get("plan"), str) and r["plan"]), None)
        self.plan = parse_plan(self.plan_text)

    def of_mode(self, mode):
        return [r for r in self.results if mode_of(r) == mode]

    def get(self, subject, mode, size):
        return self.idx.get((subject, mode, size))

    def gb(self, subject, mode, size):
        return _gb(self.get(subject, mode, size))

    def subjects_in(self, mode):
        return [s for s in self.subjects if any(self.get(s, mode, k) for k in self.sizes[mode])]

    def paired(self, a, b, mode, size, metric="gb_per_sec"):
        """A's METRIC over B's per repetition at SIZE in MODE (criteria.side_by_side), or None."""
        ra, rb = self.get(a, mode, size), self.get(b, mode, size)
        if ra is None or rb is None:
            return None
        return criteria.side_by_side(ra, rb, metric)


def _copy(doc):
    return [r for r in doc.results if r["scenario"] == criteria.COPY]


def render(ctx, doc, results):
    c = CopyData(doc, results, ctx.facts(doc, criteria.COPY))
    L = []
    if c.results:
        L += _intro(c)
        L += _plots(ctx, doc, c)
        L += common.subject_table(c.facts, results, c.subjects)
        L += _vs_glibc(c)
        L += _small(c)
        L += _probe(c)
        L += _word(c)
        L += _fastest(c)
        L += _grids(c)
    L += common.flags(doc, results)
    return L


def _intro(c):
    L = ["Each subject copies one buffer of the given size per call, over and over, on one "
         "thread, nothing faulting; GB/s is 10\u2079 bytes copied per second, and every ratio "
         "is the median of the per-repetition ratios (the bench runs repetition k of every "
         "subject at a size together), with its interval (stats.py). Modes:", ""]
    L += [f"- {m}: {MODE_TEXT.get(m, 'as the bench defines it')}" for m in c.modes] + [""]
    if c.plan:
        L += [f"hl_try_copy's automatic plan on this machine: {plan_words(c.plan)} "
              f"(`{c.plan_text}`).", ""]
    elif c.plan_text:
        L += [f"hl_try_copy's automatic plan on this machine: `{c.plan_text}`.", ""]
    return L


def _plots(ctx, doc, c):
    sub = common.subtitle(doc, c.results)
    mark = " (simulated)" if doc.simulated else ""
    styles = [("-", "hotline: hl_try_copy"), ("--", "one variant at every size"),
              (":", "glibc memcpy, the system calls")]
    L = []
    for m in [x for x in c.modes if x != WORD]:
        rs = c.of_mode(m)
        if len(c.sizes[m]) < 2:
            continue
        series = plots.series_vs(sorted(rs, key=lambda r: c.subjects.index(r["subject"])),
                                 "size", "gb_per_sec")
        for s in series:
            s["linestyle"] = "--" if s["subject"] in c.variants else \
                "-" if c.facts.library(s["subject"]) else ":"
        sweep = m in SWEEPS
        emphasis = [criteria.COPY_VS_GLIBC["subject"], criteria.COPY_VS_GLIBC["base"]] \
            if sweep else c.subjects_in(m)
        L += ctx.plot(plots.plot_vs_size, ctx.png(ctx.stem(doc), "copy", m), rs,
                      "gb_per_sec", series=series, marks=c.marks if sweep else None,
                      styles=styles if sweep else [styles[0], (":", "the system calls")],
                      emphasis=emphasis,
                      title=f"copy, {m}: GB/s vs buffer size, higher is better{mark}",
                      subtitle=sub)
    if L and c.marks:
        L += ["Dotted lines on the hot and cold plots: " + names(t for _, t in c.marks) + ".",
              ""]
    return L


def _point(values, threshold=None, higher=True, series=()):
    return stats.Comparison(values, threshold, higher, series=series) if values else None


def _in(size, spec):
    lo, hi = spec
    return (lo is None or size >= lo) and (hi is None or size <= hi)


def _vs_glibc(c):
    """hl_try_copy / glibc_memcpy at every size, hot and cold: the paired median and interval;
    the verdict where a criterion asks (hot, from 64 B)."""
    crit = criteria.COPY_VS_GLIBC
    a, b = crit["subject"], crit["base"]
    modes = [m for m in SWEEPS if m in c.modes and any(
        c.get(a, m, s) and c.get(b, m, s) for s in c.sizes[m])]
    if not modes:
        return []
    sizes = sorted({s for m in modes for s in c.sizes[m]})
    rows = []
    for s in sizes:
        row = [fmt.size_exact(s)]
        for m in modes:
            claim = m == crit["mode"] and _in(s, crit["sizes"])
            p = _point(c.paired(a, b, m, s), crit["factor"] if claim else None)
            row.append(_ci(p, claim) if p else DASH)
        rows.append(row)
    lo = fmt.size_exact(crit["sizes"][0])
    return [f"#### {a} against {b}", "",
            f"{a} / {b} at every size, {names(modes)}: the median of the paired ratios and its "
            f"interval; the verdict against the criterion's {crit['factor']:g}x where it asks "
            f"(hot, from {lo}; *cannot tell*: at this noise).", ""] + \
        fmt.table(["size"] + modes, rows, "l" + "r" * len(modes)) + [""]


def _ns_points(c, crit):
    return criteria.zero_pairs(c.results, crit, c.llc)


def _small(c):
    """Below 64 B: hl_try_copy's ns per call over glibc_memcpy's (criteria.COPY_SMALL_NS)."""
    crit = criteria.COPY_SMALL_NS
    pts = _ns_points(c, crit)
    if not pts:
        return []
    rows = []
    for p in pts:
        comp = stats.Comparison(p.values, crit["limit_ns"], False, series=p.series)
        iv = f" [{_signed(comp.lo)}, {_signed(comp.hi)}]" if comp.lo is not None else ""
        rows.append([fmt.size_exact(p.size), fmt.num(p.a), fmt.num(p.b),
                     f"{_signed(comp.median)}{iv}", _verdict(comp)])
    return [f"Below {fmt.size_exact(criteria.COPY_VS_GLIBC['sizes'][0])}, ns per call (hot): "
            f"{crit['subject']} against {crit['base']}, the median of the paired differences "
            f"and its interval, against the criterion's +{crit['limit_ns']:g} ns:", ""] + \
        fmt.table(["size", f"{crit['subject']} ns", f"{crit['base']} ns", "difference",
                   "verdict"], rows, "lrrrl") + [""]


def _signed(v):
    if v is None:
        return DASH
    return ("+" if v >= 0 else "\u2212") + fmt.num(abs(v))


def _verdict(comp):
    return {stats.HOLDS: "holds", stats.DOES_NOT_HOLD: "**does not hold**"}.get(
        comp.verdict, "*cannot tell*" + (f" ({comp.why})" if comp.why else ""))


def _probe(c):
    """The probe sweep: GB/s of each subject, hl_try_copy over each system call."""
    if PROBE not in c.modes:
        return []
    crit = criteria.COPY_VS_SYSCALL
    mine = crit["subject"]
    others = [s for s in c.subjects_in(PROBE) if s != mine]
    subjects = [s for s in c.subjects_in(PROBE)]
    rows = []
    for s in c.sizes[PROBE]:
        row = [fmt.size_exact(s)] + [fmt.num(c.gb(x, PROBE, s)) for x in subjects]
        for o in others:
            claim = o == crit["base"] and s in crit["sizes"]
            p = _point(c.paired(mine, o, PROBE, s), crit["factor"] if claim else None)
            row.append(_ci(p, claim) if p else DASH)
        rows.append(row)
    L = ["#### Reading memory that may be unmapped", "",
         f"What user space does without {mine}: a system call per read, in which the kernel "
         "copies (and returns EFAULT where the memory is not mapped). GB/s of each (median), "
         f"then {mine} over each, paired; the verdict where the criterion asks "
         f"({crit['factor']:g}x at {names(fmt.size_exact(x) for x in crit['sizes'])}):",
         ""]
    pipe = next((r.get("pipe_bytes") for r in c.of_mode(PROBE)
                 if isinstance(r.get("pipe_bytes"), int)), None)
    L += fmt.table(["size"] + [f"{x} GB/s" for x in subjects] + [f"{mine} / {o}" for o in others],
                   rows, "l" + "r" * (len(subjects) + len(others))) + [""]
    if pipe:
        L += [f"The pipe holds {fmt.size_exact(pipe)}: pipe_probe writes and reads back at most "
              "that much at a time.", ""]
    return L


def word_point(c):
    """(hl_try_load64's ns, process_vm_readv_word's ns, Comparison of the second over the first
    per repetition: how many times faster the load is), or None."""
    w = criteria.LOAD_WORD
    if WORD not in c.modes:
        return None
    for s in c.sizes[WORD]:
        a, b = c.get(w["subject"], WORD, s), c.get(w["base"], WORD, s)
        if a and b:
            vals = criteria.side_by_side(b, a, "ns_per_op")
            return a.get("ns_per_op"), b.get("ns_per_op"), _point(vals)
    return None


def _word(c):
    got = word_point(c)
    if got is None:
        return []
    w = criteria.LOAD_WORD
    a, b, p = got
    arr = next((r.get("array_bytes") for r in c.of_mode(WORD)
                if isinstance(r.get("array_bytes"), int)), None)
    where = f" from a hot {fmt.size_exact(arr)} array" if arr else ""
    text = (f"One word at a time{where}: {w['subject']} takes {fmt.num(a)} ns per word, "
            f"{w['base']} {fmt.num(b)} ns")
    if p:
        text += f"; the load is {_ci(p, False)} faster (paired per repetition; a figure, no bar)"
    return ["#### One word at a time", "", text + ".", ""]


def fastest(c, mode):
    """[(size, fastest variant, its GB/s, the planned variant or None, planned / fastest)]."""
    out = []
    for s in c.sizes.get(mode, []):
        vals = {v: c.gb(v, mode, s) for v in c.variants}
        vals = {v: g for v, g in vals.items() if g}
        if not vals:
            continue
        best = max(vals, key=vals.get)
        plan = next((n for n, hi in c.plan if hi is None or s <= hi), None) if c.plan else None
        ratio = vals[plan] / vals[best] if plan in vals else None
        out.append((s, best, vals[best], plan, ratio))
    return out


def _fastest(c):
    L = []
    for m in [x for x in SWEEPS if x in c.modes]:
        rows = [[fmt.size_exact(s), best, fmt.num(g), plan or DASH,
                 fmt.ratio(r) if r is not None else DASH]
                for s, best, g, plan, r in fastest(c, m)]
        if rows:
            L += [f"The fastest variant at each size, {m} buffers, beside the variant the "
                  "automatic plan uses there:", ""]
            L += fmt.table(["size", "fastest", "GB/s", "plan's", "plan's / fastest"], rows,
                           "llrlr") + [""]
    return (["#### Which variant where", ""] + L) if L else []


def _grids(c):
    L = []
    for m in [x for x in c.modes if x != WORD]:
        subjects = c.subjects_in(m)

        def cell(k, s, m=m, subjects=subjects):
            v = c.gb(s, m, k)
            top = max((c.gb(x, m, k) or 0) for x in subjects)
            return f"**{fmt.num(v)}**" if v is not None and v == top else fmt.num(v)
        L += [f"GB/s of every subject, {m} (median; fastest in bold):", ""]
        L += _table("size", [(k, fmt.size_exact(k)) for k in c.sizes[m]],
                    [(s, lambda k, s=s, cell=cell: cell(k, s)) for s in subjects])
    return (["#### Every figure", ""] + L) if L else []


# -- what this machine says ------------------------------------------------------

def paragraphs(ctx, doc):
    """The copy paragraph of "What this machine says": a list of sentences."""
    results = _copy(doc)
    if not results:
        return []
    c = CopyData(doc, results, ctx.facts(doc, criteria.COPY))
    S = [x for x in (glibc_sentence(c), syscall_sentence(c), word_sentence(c)) if x]
    if c.plan:
        S.append(f"hl_try_copy's plan here: {plan_words(c.plan)}.")
    return [S] if S else []


def glibc_sentence(c):
    """hl_try_copy against glibc_memcpy, hot: the range of the paired ratio from 64 B, and the
    largest difference in ns below it."""
    crit, small = criteria.COPY_VS_GLIBC, criteria.COPY_SMALL_NS
    pts = criteria.zero_pairs(c.results, crit, c.llc)
    ns = criteria.zero_pairs(c.results, small, c.llc)
    parts = []
    if pts:
        lo = min(pts, key=lambda p: p.value)
        hi = max(pts, key=lambda p: p.value)
        below = [p for p in pts if p.value < crit["factor"]]
        t = (f"with hot buffers from {fmt.size_exact(crit['sizes'][0])} up {crit['subject']} "
             f"runs at {fmt.ratio(lo.value)} ({fmt.size_exact(lo.size)}) to "
             f"{fmt.ratio(hi.value)} ({fmt.size_exact(hi.size)}) of {crit['base']}'s GB/s")
        if below:
            t += (f", below {crit['factor']:g}x at {fmt.plural(len(below), 'size')} of "
                  f"{len(pts)}")
        parts.append(t)
    if ns:
        worst = max(ns, key=lambda p: p.value)
        below = fmt.size_exact(crit["sizes"][0])
        allows = f"the criterion allows +{small['limit_ns']:g} ns"
        if worst.value <= 0:
            parts.append(f"below {below} it is no slower than {crit['base']} at any size (at "
                         f"worst {_signed(worst.value)} ns per call, at "
                         f"{fmt.size_exact(worst.size)}; {allows})")
        else:
            parts.append(f"below {below} it costs at most {_signed(worst.value)} ns per call "
                         f"over it ({fmt.size_exact(worst.size)}; {allows})")
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def syscall_sentence(c):
    crit = criteria.COPY_VS_SYSCALL
    pts = criteria.zero_pairs(c.results, crit, c.llc)
    if not pts:
        return ""
    p = pts[0]
    comp = stats.Comparison(p.values, crit["factor"])
    return (f"At {fmt.size_exact(p.size)} {crit['subject']} copies {_ci(comp, False)} as fast "
            f"as one {crit['base']} per copy (the criterion asks {crit['factor']:g}x; "
            f"{SHORT.get(comp.verdict, 'no verdict')}).")


SHORT = {stats.HOLDS: "it holds", stats.DOES_NOT_HOLD: "it does not hold",
         stats.CANNOT_TELL: "it cannot tell at this noise"}


def word_sentence(c):
    got = word_point(c)
    if got is None or got[2] is None:
        return ""
    w = criteria.LOAD_WORD
    a, b, p = got
    return (f"{w['subject']} reads a word in {fmt.num(a)} ns, {fmt.ratio(p.median)} faster "
            f"than a process_vm_readv per word ({fmt.num(b)} ns).")


def checks(ctx, doc):
    """The copy done criteria against this file (criteria.SizeCheck), or []."""
    results = _copy(doc)
    if not results:
        return []
    c = CopyData(doc, results, ctx.facts(doc, criteria.COPY))
    return criteria.evaluate_copy(c.results, c.llc)


# -- report.md's short section and the summary's "copy" measures -----------------------------

def ratio_series(doc, modes=("hot", "cold")):
    """[Series]: COPY_VS_GLIBC's subject / base GB/s against size, one per mode with pairs;
    the criterion's threshold on its own mode (hot), none on the other."""
    c = criteria.COPY_VS_GLIBC
    idx = criteria.zero_index(doc.results, criteria.COPY)
    out = []
    for mode in modes:
        sizes = sorted(s for (subj, m, s) in idx if subj == c["subject"] and m == mode
                       and (c["base"], m, s) in idx)
        pts = [ratios.point(s, idx[(c["subject"], mode, s)], idx[(c["base"], mode, s)], "gb_per_sec")
               for s in sizes]
        pts = [p for p in pts if p]
        if pts:
            out.append(ratios.Series(f"{mode} buffers", mode, pts,
                              c["factor"] if mode == c["mode"] else None, c["subject"],
                              c["base"]))
    return out


def brief(ctx, have):
    c = criteria.COPY_VS_GLIBC
    plot, per = [], []
    for i, (name, doc) in enumerate(have):
        series = ratio_series(doc)
        if series:
            per.append((name, doc, series))
            plot += bp.styled(ctx, have, i, series)
    if not per:
        return [f"No {c['subject']} and {c['base']} results run side by side in these files.",
                ""] + bp.links(ctx, have, "copy")
    pts = [p for _, _, ser in per for s in ser for p in s.points]
    lo = fmt.size_exact(c["sizes"][0])
    L = [f"{c['subject']}'s GB/s over {c['base']}'s at each buffer size, nothing faulting, with "
         "hot buffers (cache-resident as far as they fit) and cold ones (not in the cache): "
         f"{bp.band_words(pts)}. Dashed: {c['factor']:g}x, the summary's threshold (hot, from "
         f"{lo}; below it the summary asks for at most +{criteria.COPY_SMALL_NS['limit_ns']:g} "
         "ns per call).", ""]
    xs = sorted({p.x for p in pts})
    L += ctx.plot(plots.ratio_plot, ctx.png("ratio", "copy"), plot,
                  title=f"copy: {c['subject']} / {c['base']} GB/s vs buffer size",
                  xlabel="buffer size (log scale)", ylabel="ratio of GB/s, paired per repetition",
                  threshold=c["factor"], threshold_label=f"threshold {c['factor']:g}x",
                  logx=2, xticks=bp.size_ticks(xs), xticklabel=fmt.size, subtitle=bp.subtitle(have))
    for name, doc, series in per:
        cd = CopyData(doc, [r for r in doc.results if r["scenario"] == criteria.COPY],
                              ctx.facts(doc, criteria.COPY))
        S = []
        for s in series:
            worst = min(s.points, key=lambda p: p.median)
            best = max(s.points, key=lambda p: p.median)
            S.append(f"with {s.label} the ratio runs from {bp.x(worst.median)} "
                     f"({fmt.size_exact(worst.x)}) to {bp.x(best.median)} "
                     f"({fmt.size_exact(best.x)})")
        text = "; ".join(S)
        text = bp.tag(ctx, name) + text[0].upper() + text[1:]
        few = bp.reps_note([p for s in series for p in s.points])
        text += (f" ({few})" if few else "") + "."
        more = [x for x in (glibc_sentence(cd), syscall_sentence(cd),
                            word_sentence(cd)) if x]
        if more:
            text += " " + " ".join(more)
        if cd.plan:
            text += f" {c['subject']}'s plan here: {plan_words(cd.plan)}."
        L += [text, ""]
    return L + bp.links(ctx, have, "copy")


def answer(ctx, m, docs):
    """The summary's row of a copy measure M (a criterion at each size, as zero's): the first
    of DOCS that has it."""
    def at(d):
        rs = answers.results_of(d, criteria.COPY)
        llc = ZeroData(d, rs, ctx.facts(d, criteria.COPY)).llc if rs else None
        return answers.sized_row(m, d, criteria.COPY, llc)
    return answers.first_row(docs, at)


SCENARIO = Scenario(criteria.COPY, TITLE, render, rank=50, brief=brief, says=((50, paragraphs),),
                    checks=checks, answers={criteria.COPY: answer})
