"""The report of a sized scenario (zero, copy, ...): one engine, configured per scenario.

A sized scenario measures subjects at each buffer size and mode (hot, cold, ...), in GB/s,
its subjects run side by side at each size; its criteria (data/questions.json, "sized")
compare two subjects at every size of a range.  Its module declares it in one page,

    DECL = sized.Sized("copy", TITLE, rank=50, headline="copy_vs_glibc",
                       small="copy_small_ns", modes=..., mode_text=..., intro=...,
                       styles=..., parts=..., sentences=...)
    SCENARIO = sized.scenario(DECL)

and this module does the rest: its data (SizedData: the results indexed by subject, mode and
size, the variants, the cache marks, the automatic plan), its appendix section (the parts
declared, in order; the generic ones are here: intro, plots, subjects, headline, baselines,
small, fastest, grids), its short section in report.md (brief: the headline criterion's ratio
against size, one series per mode), its paragraph of "What this machine says", its done
criteria (every criterion of the scenario) and the summary's measures of its kind.  Adding a
sized scenario to the report is one such page (and its criteria in data/questions.json).

A sized scenario the report asks no question of declares no headline (headline=None): its
section compares each subject with its baseline (the file's facts, baselines_part), its
paragraph says the range of those ratios (baseline_sentences), its short section in report.md
plots them against size (baseline_brief_of), and it has no done criteria and no summary
rows.  Its page needs no criterion at all.

Also here, what the sized scenarios share: parse_plan and plan_words (the plan's text and its
words), cache_marks, table, ci, signed, verdict_word.
"""

import re

from . import answers, brief_parts as bp, common, criteria, fmt, plots, questions, ratios, stats
from .common import names
from .criteria import mode_of
from .facts import Facts
from .fmt import DASH
from .load import is_int, is_number
from .scenario import Scenario

# The verdicts in a sentence.
SHORT = {stats.HOLDS: "it holds", stats.DOES_NOT_HOLD: "it does not hold",
         stats.CANNOT_TELL: "it cannot tell at this noise", stats.NOT_REACHED: "it is not tested"}


class Sized:
    """A sized scenario's page of declarations.

      name, title, rank   the scenario's name in the JSON, its sections' title, its rank
                          (scenario.py)
      headline            the id of the criterion report.md plots (subject / base GB/s
                          against size) and the appendix tables at every size; None: the
                          report asks no question of it (see above)
      small               the id of the criterion in ns per call below the headline's sizes
                          (None: none)
      modes               the modes in the order shown (others follow, as found)
      sweeps              the modes swept with the variants (the headline's, the plan's)
      apart               modes set apart from the size sweeps (zero's dd)
      mode_text           {mode: what it measures, in words}
      intro               the appendix section's first sentence
      styles              the plots' line styles explained: (solid, dashed, dotted) texts on
                          the sweeps' plots, and the dotted text on the other modes' plots
      data                the class of one file's data (SizedData, or a subclass)
      parts               the appendix section's parts, each part(ctx, doc, d) -> lines,
                          drawn when the file has sized results; after: drawn always
      paragraphs          paragraphs(ctx, doc, d) -> the paragraphs of "What this machine
                          says"; None: the headline sentence and the plan
      sentences           sentences(d) -> the paragraph's sentences after the headline's
      brief_sentences     brief_sentences(d) -> report.md's sentences after the ratios
                          (default: the headline's and sentences(d))
      own_modes           modes shown only by their own part: no plot, no GB/s grid
      brief_intro         brief_intro(crit, band) -> report.md's sentence before the plot
      brief_ranges        report.md names the sizes of the criterion's range whose interval
                          is below its threshold
      plan_env            an env key the automatic plan is read from first (else the results')
      says_rank           where its paragraph stands in "What this machine says"
    """

    def __init__(self, name, title, *, rank, headline, intro, mode_text, styles,
                 brief_intro=None, small=None, modes=("hot", "cold"), sweeps=("hot", "cold"), apart=(),
                 data=None, parts=None, after=(), paragraphs=None, sentences=None,
                 brief_sentences=None, own_modes=(), brief_ranges=False, plan_env=None,
                 says_rank=None):
        self.name, self.title, self.rank = name, title, rank
        self.headline, self.small = headline, small
        self.modes, self.sweeps, self.apart = tuple(modes), tuple(sweeps), tuple(apart)
        self.mode_text, self.intro, self.styles = mode_text, intro, styles
        self.data = data or SizedData
        self.parts = tuple(parts if parts is not None else DEFAULT_PARTS)
        self.after = tuple(after)
        self.paragraphs = paragraphs
        self.sentences = sentences or (lambda d: [])
        self.brief_sentences = brief_sentences or (
            lambda d: [headline_sentence(d)] + self.sentences(d))
        self.own_modes = tuple(own_modes)
        self.brief_intro, self.brief_ranges = brief_intro, brief_ranges
        self.plan_env = plan_env
        self.says_rank = says_rank if says_rank is not None else rank

    @property
    def criteria(self):
        """This scenario's criteria (data/questions.json)."""
        return questions.SIZED.get(self.name, [])

    @property
    def crit(self):
        """The headline criterion (None: no headline)."""
        return questions.by_id(self.headline) if self.headline else None

    def by_mode(self, mode):
        """The criterion asking the headline's subject and base in MODE with a factor, or None:
        the threshold of MODE's series and its range of sizes."""
        c = self.crit
        if c is None:
            return None
        return next((x for x in self.criteria if x["subject"] == c["subject"]
                     and x["base"] == c["base"] and x["mode"] == mode and "factor" in x
                     and not x.get("aggregate")), None)


# -- the data --------------------------------------------------------------------------------

def gb(r):
    v = r.get("gb_per_sec") if r else None
    return v if is_number(v) else None


def is_variant(r, facts):
    """A variant forced at every size: the bench names it in "variant"; else a subject whose
    facts make it a variant of another."""
    if "variant" in r:
        return r["variant"] == r["subject"]
    return facts.is_variant(r["subject"])


def parse_plan(text):
    """'avx512 <= 2048 < rep_stosb <= 25165824 < nontemporal' ->
    [("avx512", 2048), ("rep_stosb", 25165824), ("nontemporal", None)]; None if not that form."""
    if not isinstance(text, str) or not text.strip():
        return None
    parts = re.split(r"\s*<=\s*(\d+)\s*<\s*", text.strip())
    names_, bounds = parts[0::2], [int(b) for b in parts[1::2]]
    if not all(re.fullmatch(r"[A-Za-z0-9_]+", n) for n in names_) or bounds != sorted(bounds):
        return None
    return list(zip(names_, bounds + [None]))


def plan_words(plan):
    """'avx512 up to 2 KiB, rep_stosb up to 24 MiB and nontemporal beyond'."""
    if len(plan) == 1:
        return f"{plan[0][0]} at every size"
    return names(f"{name} up to {fmt.size_exact(hi)}" if hi is not None else f"{name} beyond"
                 for name, hi in plan)


def planned(plan, size):
    """The variant PLAN uses at SIZE."""
    return next(name for name, hi in plan if hi is None or size <= hi)


def cache_marks(env, results):
    """[(bytes, label)] of the cache sizes the file records: env "caches" {l1d, l2, l3 or llc},
    else the results' llc_bytes for the last level; [] when none."""
    caches = env.get("caches") if isinstance(env.get("caches"), dict) else {}
    found = {}
    for key, label in (("l1d", "L1d"), ("l2", "L2"), ("l3", "LLC"), ("llc", "LLC")):
        if is_int(caches.get(key)) and caches[key] > 0:
            found.setdefault(label, caches[key])
    if "LLC" not in found:
        llc = next((r["llc_bytes"] for r in results
                    if is_int(r.get("llc_bytes")) and r["llc_bytes"] > 0), None)
        if llc:
            found["LLC"] = llc
    return [(v, f"{label} {fmt.size_exact(v)}") for label, v in found.items()]


class SizedData:
    """One file's results of a sized scenario, indexed by (subject, mode, size); the modes of
    DECL.apart set aside (.apart); the variants, the cache marks and the automatic plan."""

    DECL = None   # the Sized a subclass is the data of (its default)

    def __init__(self, doc, results, facts=None, decl=None):
        decl = decl or self.DECL
        self.decl, self.doc, self.all_results = decl, doc, results
        self.facts = facts if facts is not None else Facts(doc, decl.name)
        self.apart = [r for r in results if mode_of(r) in decl.apart]
        self.results = [r for r in results if mode_of(r) not in decl.apart
                        and r.get("size") is not None]
        self.idx = criteria.zero_index(self.results, decl.name)
        seen = list(dict.fromkeys(mode_of(r) for r in self.results))
        self.modes = [m for m in decl.modes if m in seen] + \
            [m for m in seen if m not in decl.modes]
        self.sizes = {m: sorted({r["size"] for r in self.results if mode_of(r) == m})
                      for m in self.modes}
        self.subjects = self.facts.order(self.results)
        variants = {r["subject"] for r in self.results if is_variant(r, self.facts)}
        self.variants = [s for s in self.subjects if s in variants]
        self.marks = cache_marks(doc.env, results)
        self.llc = next((v for v, label in self.marks if label.startswith("LLC")), None)
        text = doc.env.get(decl.plan_env) if decl.plan_env else None
        if not isinstance(text, str):
            text = next((r["plan"] for r in self.results
                         if isinstance(r.get("plan"), str) and r["plan"]), None)
        self.plan_text = text
        self.plan = parse_plan(text)

    def has(self, subject):
        return subject in self.subjects

    def of_mode(self, mode):
        return [r for r in self.results if mode_of(r) == mode]

    def get(self, subject, mode, size):
        return self.idx.get((subject, mode, size))

    def gb(self, subject, mode, size):
        return gb(self.get(subject, mode, size))

    def subjects_in(self, mode):
        return [s for s in self.subjects if any(self.get(s, mode, k) for k in self.sizes[mode])]

    def variant_gb(self, mode, size):
        """{variant: GB/s} of the variants measured at SIZE in MODE."""
        vals = {v: self.gb(v, mode, size) for v in self.variants}
        return {v: g for v, g in vals.items() if g is not None}

    def paired(self, a, b, mode, size, metric="gb_per_sec"):
        """A's METRIC over B's per repetition at SIZE in MODE (criteria.side_by_side), or None."""
        ra, rb = self.get(a, mode, size), self.get(b, mode, size)
        if ra is None or rb is None:
            return None
        return criteria.side_by_side(ra, rb, metric)


def data_of(ctx, doc, decl):
    """DECL's data of DOC (None when DOC has no results of it)."""
    results = [r for r in doc.results if r["scenario"] == decl.name]
    return decl.data(doc, results, ctx.facts(doc, decl.name), decl) if results else None


# -- words and tables ------------------------------------------------------------------------

def table(first, keys, cols, align=None):
    """A Markdown table: one row per (key, label) of KEYS, COLS [(header, fn(key) -> text)]."""
    rows = [[label] + [fn(k) for _, fn in cols] for k, label in keys]
    return fmt.table([first] + [h for h, _ in cols], rows,
                     align or "l" + "r" * len(cols)) + [""]


def ci(c, verdict=True):
    """"0.89x [0.85x, 0.93x] **does not hold**": a Comparison's median, interval, verdict."""
    s = fmt.ratio(c.median)
    if c.lo is not None:
        s += f" [{fmt.ratio(c.lo)}, {fmt.ratio(c.hi)}]"
    if verdict and c.verdict is not None:
        s += " " + {stats.HOLDS: "holds", stats.DOES_NOT_HOLD: "**does not hold**",
                    stats.NOT_REACHED: "*not tested here*"}.get(c.verdict, "*cannot tell*")
    return s


def signed(v):
    """A difference in ns: +1.62, \u22120.40."""
    if v is None:
        return DASH
    return ("+" if v >= 0 else "\u2212") + fmt.num(abs(v))


def verdict_word(comp):
    return {stats.HOLDS: "holds", stats.DOES_NOT_HOLD: "**does not hold**",
            stats.NOT_REACHED: "*not tested here*"}.get(
        comp.verdict, "*cannot tell*" + (f" ({comp.why})" if comp.why else ""))


def comparison(values, threshold=None, higher=True, series=()):
    return stats.Comparison(values, threshold, higher, series=series) if values else None


def in_range(size, spec):
    lo, hi = spec
    return (lo is None or size >= lo) and (hi is None or size <= hi)


# -- the appendix section's generic parts ------------------------------------------------------

def slices_says(results):
    """How the subjects shared a repetition: the JSON's "slices" (each repetition's sample cut
    into that many pieces, the subjects taking them by turns); "" for a file without it, or
    one slice."""
    n = next((r.get("slices") for r in results if isinstance(r.get("slices"), int)), None)
    if n is None or n <= 1:
        return ""
    return (f" Each repetition's sample was cut into {n} slices, the subjects taking them by "
            "turns, so a ratio compares times taken milliseconds apart, in both orders.")


def intro(ctx, doc, d):
    decl = d.decl
    L = [decl.intro + slices_says(d.results) + " Modes:", ""]
    L += [f"- {m}: {decl.mode_text.get(m, 'as the bench defines it')}" for m in d.modes] + [""]
    who = decl.crit["subject"] if decl.crit else "the library"
    if d.plan:
        L += [f"{who}'s automatic plan on this machine: {plan_words(d.plan)} "
              f"(`{d.plan_text}`).", ""]
    elif d.plan_text:
        L += [f"{who}'s automatic plan on this machine: `{d.plan_text}`.", ""]
    return L


def mode_plot(ctx, doc, d, mode, styles, marks, emphasis):
    """MODE's plot of GB/s against size, every subject a line (dashed: a variant forced at every
    size; solid: the library's; dotted: the others); [] for a mode of fewer than two sizes."""
    rs = d.of_mode(mode)
    if len(d.sizes[mode]) < 2:
        return []
    series = plots.series_vs(sorted(rs, key=lambda r: d.subjects.index(r["subject"])),
                             "size", "gb_per_sec")
    for s in series:
        s["linestyle"] = "--" if s["subject"] in d.variants else \
            "-" if d.facts.library(s["subject"]) else ":"
    mark = " (simulated)" if doc.simulated else ""
    return ctx.plot(plots.plot_vs_size, ctx.png(ctx.stem(doc), d.decl.name, mode), rs,
                    "gb_per_sec", series=series, marks=marks, styles=styles,
                    emphasis=emphasis,
                    title=f"{d.decl.name}, {mode}: GB/s vs buffer size, higher is better{mark}",
                    subtitle=common.subtitle(doc, d.results))


def plots_part(ctx, doc, d):
    """GB/s against size, one plot per mode with two sizes or more (a mode of one size per
    call, per word, is left to its own part)."""
    decl = d.decl
    solid, dashed, dotted, other = decl.styles
    styles = [("-", solid), ("--", dashed), (":", dotted)]
    L = []
    pair = [decl.crit["subject"], decl.crit["base"]] if decl.crit else None
    for m in [x for x in d.modes if x not in decl.own_modes]:
        sweep = m in decl.sweeps
        L += mode_plot(ctx, doc, d, m, styles if sweep else [styles[0], (":", other)],
                       d.marks if sweep else None,
                       pair if sweep and pair else d.subjects_in(m))
    if L and d.marks:
        L += ["Dotted lines on the hot and cold plots: " + names(t for _, t in d.marks) + ".",
              ""]
    return L


def subjects_part(ctx, doc, d):
    return common.subject_table(d.facts, d.all_results, d.subjects)


def headline_part(ctx, doc, d):
    """The headline's subject / base at every size of the sweeps: the paired median and
    interval; the verdict where the criterion asks."""
    crit = d.decl.crit
    if crit is None:
        return []
    a, b = crit["subject"], crit["base"]
    modes = [m for m in d.decl.sweeps if m in d.modes and any(
        d.get(a, m, s) and d.get(b, m, s) for s in d.sizes[m])]
    if not modes:
        return []
    sizes = sorted({s for m in modes for s in d.sizes[m]})
    rows = []
    for s in sizes:
        row = [fmt.size_exact(s)]
        for m in modes:
            claim = m == crit["mode"] and in_range(s, crit["sizes"])
            p = comparison(d.paired(a, b, m, s), crit["factor"] if claim else None)
            row.append(ci(p, claim) if p else DASH)
        rows.append(row)
    lo = fmt.size_exact(crit["sizes"][0])
    return [f"#### {a} against {b}", "",
            f"{a} / {b} at every size, {names(modes)}: the median of the paired ratios and its "
            f"interval; the verdict against the criterion's {crit['factor']:g}x where it asks "
            f"(hot, from {lo}; *cannot tell*: at this noise).", ""] + \
        fmt.table(["size"] + modes, rows, "l" + "r" * len(modes)) + [""]


def baseline_pairs(d, mode):
    """[(subject, its baseline)] of MODE: every subject measured there whose baseline (the
    file's facts) is measured there too, in the file's order."""
    there = d.subjects_in(mode)
    return [(s, d.facts.baseline(s)) for s in there
            if d.facts.baseline(s) in there and d.facts.baseline(s) != s]


def baselines_part(ctx, doc, d):
    """Each subject over its baseline at every size of each sweep: the median of the paired
    ratios and its interval (a figure: no verdict, no threshold)."""
    L = []
    for m in [x for x in d.decl.sweeps if x in d.modes]:
        pairs = baseline_pairs(d, m)
        if not pairs:
            continue
        rows = []
        for k in d.sizes[m]:
            cells = [comparison(d.paired(a, b, m, k)) for a, b in pairs]
            rows.append([fmt.size_exact(k)] + [ci(c, False) if c else DASH for c in cells])
        L += [f"{m.capitalize()} buffers: each subject's GB/s over its baseline's at every "
              "size, the median of the paired ratios and its interval:", ""]
        L += fmt.table(["size"] + [f"{a} / {b}" for a, b in pairs], rows,
                       "l" + "r" * len(pairs)) + [""]
    return (["#### Against the baseline", ""] + L) if L else []


def small_part(ctx, doc, d):
    """Below the headline's sizes: the subject's ns per call over the base's (the small
    criterion)."""
    if not d.decl.small:
        return []
    crit = questions.by_id(d.decl.small)
    pts = criteria.zero_pairs(d.results, crit, d.llc)
    if not pts:
        return []
    rows = []
    for p in pts:
        comp = stats.Comparison(p.values, crit["limit_ns"], False, series=p.series)
        iv = f" [{signed(comp.lo)}, {signed(comp.hi)}]" if comp.lo is not None else ""
        rows.append([fmt.size_exact(p.size), fmt.num(p.a), fmt.num(p.b),
                     f"{signed(comp.median)}{iv}", verdict_word(comp)])
    return [f"Below {fmt.size_exact(d.decl.crit['sizes'][0])}, ns per call (hot): "
            f"{crit['subject']} against {crit['base']}, the median of the paired differences "
            f"and its interval, against the criterion's +{crit['limit_ns']:g} ns:", ""] + \
        fmt.table(["size", f"{crit['subject']} ns", f"{crit['base']} ns", "difference",
                   "verdict"], rows, "lrrrl") + [""]


def fastest(d, mode):
    """[(size, fastest variant, its GB/s, the planned variant or None, planned / fastest)]."""
    out = []
    for s in d.sizes.get(mode, []):
        vals = {v: g for v, g in d.variant_gb(mode, s).items() if g}
        if not vals:
            continue
        best = max(vals, key=vals.get)
        plan = planned(d.plan, s) if d.plan else None
        ratio = vals[plan] / vals[best] if plan in vals else None
        out.append((s, best, vals[best], plan, ratio))
    return out


def fastest_part(ctx, doc, d):
    L = []
    for m in [x for x in d.decl.sweeps if x in d.modes]:
        rows = [[fmt.size_exact(s), best, fmt.num(g), plan or DASH,
                 fmt.ratio(r) if r is not None else DASH]
                for s, best, g, plan, r in fastest(d, m)]
        if rows:
            L += [f"The fastest variant at each size, {m} buffers, beside the variant the "
                  "automatic plan uses there:", ""]
            L += fmt.table(["size", "fastest", "GB/s", "plan's", "plan's / fastest"], rows,
                           "llrlr") + [""]
    return (["#### Which variant where", ""] + L) if L else []


def mode_grid(d, mode, subjects, heading):
    """GB/s of each of SUBJECTS at every size of MODE (the fastest in bold), under HEADING."""
    def cell(k, s):
        v = d.gb(s, mode, k)
        top = max((d.gb(x, mode, k) or 0) for x in subjects)
        return f"**{fmt.num(v)}**" if v is not None and v == top else fmt.num(v)
    return [heading, ""] + table("size", [(k, fmt.size_exact(k)) for k in d.sizes[mode]],
                                 [(s, lambda k, s=s: cell(k, s)) for s in subjects])


def grids_part(ctx, doc, d):
    L = []
    for m in [x for x in d.modes if x not in d.decl.own_modes]:
        L += mode_grid(d, m, d.subjects_in(m),
                       f"GB/s of every subject, {m} (median; fastest in bold):")
    return (["#### Every figure", ""] + L) if L else []


DEFAULT_PARTS = (intro, plots_part, subjects_part, headline_part, small_part, fastest_part,
                 grids_part)


def render_of(decl):
    """The appendix section's render(ctx, doc, results): DECL's parts, then its after-parts
    and the flags."""
    def render(ctx, doc, results):
        d = decl.data(doc, results, ctx.facts(doc, decl.name), decl)
        L = []
        if d.results:
            for part in decl.parts:
                L += part(ctx, doc, d)
        for part in decl.after:
            L += part(ctx, doc, d)
        return L + common.flags(doc, results)
    return render


# -- what this machine says, and the done criteria ------------------------------------------

def headline_sentence(d):
    """The headline's subject against its base, hot: the range of the paired ratio over the
    criterion's sizes, and the largest difference in ns below them (the small criterion)."""
    crit = d.decl.crit
    if crit is None:
        return ""
    small = questions.by_id(d.decl.small) if d.decl.small else None
    pts = criteria.zero_pairs(d.results, crit, d.llc)
    ns = criteria.zero_pairs(d.results, small, d.llc) if small else []
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
                         f"worst {signed(worst.value)} ns per call, at "
                         f"{fmt.size_exact(worst.size)}; {allows})")
        else:
            parts.append(f"below {below} it costs at most {signed(worst.value)} ns per call "
                         f"over it ({fmt.size_exact(worst.size)}; {allows})")
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def baseline_sentences(d):
    """For a scenario without a headline: in each sweep, the range of each subject's paired
    ratio to its baseline over the sizes measured ("Hot, x runs at 0.97x
    (4 KiB) to 1.02x (64 B) of y's GB/s.")."""
    S = []
    for m in [x for x in d.decl.sweeps if x in d.modes]:
        parts = []
        for a, b in baseline_pairs(d, m):
            pts = [(k, comparison(d.paired(a, b, m, k))) for k in d.sizes[m]]
            pts = [(k, c.median) for k, c in pts if c and c.median is not None]
            if not pts:
                continue
            lo, hi = min(pts, key=lambda p: p[1]), max(pts, key=lambda p: p[1])
            parts.append(f"{a} runs at {fmt.ratio(lo[1])} ({fmt.size_exact(lo[0])}) to "
                         f"{fmt.ratio(hi[1])} ({fmt.size_exact(hi[0])}) of {b}'s GB/s")
        if parts:
            S.append(f"{m.capitalize()}, " + "; ".join(parts) + ".")
    return S


def paragraphs_of(decl):
    """"What this machine says" of DECL: its own paragraphs, else one of the headline
    sentence, its more sentences and the plan."""
    def paragraphs(ctx, doc):
        d = data_of(ctx, doc, decl)
        if d is None:
            return []
        if decl.paragraphs:
            return decl.paragraphs(ctx, doc, d)
        first = [headline_sentence(d)] if decl.crit else baseline_sentences(d)
        S = [x for x in first + decl.sentences(d) if x]
        if d.plan and decl.crit:
            S.append(f"{decl.crit['subject']}'s plan here: {plan_words(d.plan)}.")
        return [S] if S else []
    return paragraphs


def checks_of(decl):
    """The done criteria of DECL against a file (criteria.SizeCheck, GeomeanCheck), or []."""
    def checks(ctx, doc):
        d = data_of(ctx, doc, decl)
        if d is None:
            return []
        return criteria.evaluate_size_criteria(d.results, decl.criteria, d.llc)
    return checks


def answer_of(decl):
    """The summary's row of a measure of DECL's kind: the first of DOCS that has it."""
    def answer(ctx, m, docs):
        def at(doc):
            d = data_of(ctx, doc, decl)
            return answers.sized_row(m, doc, decl.name, d.llc if d else None)
        return answers.first_row(docs, at)
    return answer


# -- report.md's short section ---------------------------------------------------------------

def ratio_series(decl, doc, modes=None):
    """[Series]: the headline's subject / base GB/s against size, one per sweep mode with pairs,
    each with its mode's threshold (Sized.by_mode; none without one)."""
    c = decl.crit
    idx = criteria.zero_index(doc.results, decl.name)
    out = []
    for mode in modes or decl.sweeps:
        sizes = sorted(s for (subj, m, s) in idx if subj == c["subject"] and m == mode
                       and (c["base"], m, s) in idx)
        pts = [ratios.point(s, idx[(c["subject"], mode, s)], idx[(c["base"], mode, s)],
                            "gb_per_sec") for s in sizes]
        pts = [p for p in pts if p]
        if pts:
            own = decl.by_mode(mode)
            out.append(ratios.Series(f"{mode} buffers", mode, pts,
                                     own["factor"] if own else None, c["subject"], c["base"]))
    return out


def _range_sentence(s, cm):
    """Where the series S is below its mode's criterion CM over the criterion's sizes."""
    inside = [p for p in s.points if bp.in_range(p.x, cm["sizes"])]
    below = [p for p in inside if p.hi is not None and p.hi < cm["factor"]]
    across = [p for p in inside if p.hi is not None and p.lo < cm["factor"] <= p.hi
              and p.median < cm["factor"]]
    t = ""
    if below or across:
        t += f"; {bp.range_words(cm['sizes'])} (the summary's sizes) its "
    if below:
        t += (f"whole interval is below {cm['factor']:g}x at {len(below)} of "
              f"{fmt.plural(len(inside), 'size')} ({bp.sizes_words(below)})")
    if across:
        t += (" and its " if below else "") + (
            f"median is below {cm['factor']:g}x, the interval straddling it, at "
            f"{len(across)}" + ("" if below else f" of {fmt.plural(len(inside), 'size')}")
            + f" ({bp.sizes_words(across)})")
    return t


def _machine_text(ctx, decl, name, doc, series):
    """One machine's sentences under report.md's plot."""
    d = data_of(ctx, doc, decl)
    S = []
    for s in series:
        worst = min(s.points, key=lambda p: p.median)
        best = max(s.points, key=lambda p: p.median)
        t = (f"with {s.label} the ratio runs from {bp.x(worst.median)} "
             f"({fmt.size_exact(worst.x)}) to {bp.x(best.median)} ({fmt.size_exact(best.x)})")
        cm = decl.by_mode(s.key) if decl.brief_ranges else None
        if cm is not None:   # the summary's sizes: the criterion's range in this mode
            t += _range_sentence(s, cm)
        S.append(t)
    text = "; ".join(S)
    text = bp.tag(ctx, name) + text[0].upper() + text[1:]
    few = bp.reps_note([p for s in series for p in s.points])
    text += (f" ({few})" if few else "") + "."
    more = [x for x in decl.brief_sentences(d) if x]
    if more:
        text += " " + " ".join(more)
    if d.plan:
        text += f" {decl.crit['subject']}'s plan here: {plan_words(d.plan)}."
    return text


def brief_of(decl):
    """report.md's short section of DECL: the headline's ratio against size, one series per
    mode (and machine), its threshold; each machine's sentences."""
    def brief(ctx, have):
        c = decl.crit
        plot, per = [], []
        for i, (name, doc) in enumerate(have):
            series = ratio_series(decl, doc)
            if series:
                per.append((name, doc, series))
                plot += bp.styled(ctx, have, i, series)
        if not per:
            return [f"No {c['subject']} and {c['base']} results run side by side in these "
                    "files.", ""] + bp.links(ctx, have, decl.name)
        pts = [p for _, _, ser in per for s in ser for p in s.points]
        L = [decl.brief_intro(c, bp.band_words(pts)), ""]
        xs = sorted({p.x for p in pts})
        L += ctx.plot(plots.ratio_plot, ctx.png("ratio", decl.name), plot,
                      title=f"{decl.name}: {c['subject']} / {c['base']} GB/s vs buffer size",
                      xlabel="buffer size (log scale)",
                      ylabel="ratio of GB/s, paired per repetition",
                      threshold=c["factor"], threshold_label=f"threshold {c['factor']:g}x",
                      logx=2, xticks=bp.size_ticks(xs), xticklabel=fmt.size,
                      subtitle=bp.subtitle(have))
        for name, doc, series in per:
            L += [_machine_text(ctx, decl, name, doc, series), ""]
        return L + bp.links(ctx, have, decl.name)
    return brief


def baseline_series(ctx, decl, doc):
    """[Series]: for a scenario without a headline, each subject / its baseline GB/s against
    size, one per subject and sweep mode where they ran side by side."""
    d = data_of(ctx, doc, decl)
    out = []
    for m in [x for x in decl.sweeps if d and x in d.modes]:
        for a, b in baseline_pairs(d, m):
            pts = [ratios.point(k, d.get(a, m, k), d.get(b, m, k), "gb_per_sec")
                   for k in d.sizes[m]]
            pts = [p for p in pts if p]
            if pts:
                out.append(ratios.Series(f"{a}, {m}", f"{a} {m}", pts, None, a, b))
                out[-1].mode = m
    return out


def baseline_brief_of(decl):
    """report.md's short section of DECL without a headline: each subject over its baseline
    against size, one series per subject and mode (and machine), and the ratios' ranges."""
    def brief(ctx, have):
        plot, per = [], []
        for i, (name, doc) in enumerate(have):
            series = baseline_series(ctx, decl, doc)
            if series:
                per.append((name, doc, series))
                plot += bp.styled(ctx, have, i, series)
        if not per:
            return ["No subject ran side by side with its baseline in these files.", ""] + \
                bp.links(ctx, have, decl.name)
        pts = [p for _, _, ser in per for s in ser for p in s.points]
        modes = dict.fromkeys(s.mode for _, _, ser in per for s in ser)
        L = [f"Each subject's GB/s over its baseline's at each buffer size, {names(modes)}: "
             f"{bp.band_words(pts)}.", ""]
        L += ctx.plot(plots.ratio_plot, ctx.png("ratio", decl.name), plot,
                      title=f"{decl.name}: GB/s over the baseline's vs buffer size",
                      xlabel="buffer size (log scale)",
                      ylabel="ratio of GB/s, paired per repetition", logx=2,
                      xticks=bp.size_ticks(sorted({p.x for p in pts})), xticklabel=fmt.size,
                      subtitle=bp.subtitle(have))
        for name, doc, _ in per:
            S = baseline_sentences(data_of(ctx, doc, decl))
            if S:
                L += [bp.tag(ctx, name) + " ".join(S), ""]
        return L + bp.links(ctx, have, decl.name)
    return brief


def scenario(decl, render=None):
    """The Scenario of sized scenario DECL (RENDER: its own appendix section, else its parts);
    without a headline, its short section is baseline_brief_of's and it has no done criteria
    or summary rows."""
    asked = decl.headline is not None
    return Scenario(decl.name, decl.title, render or render_of(decl), rank=decl.rank,
                    brief=brief_of(decl) if asked else baseline_brief_of(decl),
                    says=((decl.says_rank, paragraphs_of(decl)),),
                    checks=checks_of(decl) if asked else None,
                    answers={decl.name: answer_of(decl)} if asked else None)
