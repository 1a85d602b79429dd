"""The zero section (clearing memory), and what it adds up to: a sized scenario (sized.py).

Its page of declarations is DECL, at the end: the headline (hl_zero against glibc_memset,
zero_vs_glibc), the modes, dd set apart, the words; sized.py gives it its data (ZeroData
extends sized.SizedData), its short section in report.md, its done criteria and the
summary's zero measures.  Its appendix section and paragraphs are its own, richer than the
generic parts:

  render            GB/s vs buffer size, log-log, one plot per mode (hot, cold),
                    the cache sizes marked when the file has them; what each
                    subject is; hl_zero against glibc_memset and memcpy_zero_page
                    and hl_try_zero against hl_zero, per size and per size class
                    (ratios side by side, as criteria.py takes them); ns per call
                    below 256 B; which variant is fastest where (crossovers) and
                    where rep stosb catches up with vector stores; GB/s of every
                    subject by size; the dd experiments, said to measure the host
                    kernel
  paragraphs        its paragraphs of "What this machine says"
  checks            its rows of the done criteria (criteria.ZERO_CRITERIA)

The zero criteria are judged here too, in words and tables: hl_zero against
glibc_memset at every size, hot and cold, each size's median ratio with its
interval and verdict; the geometric mean over sizes; and beyond the
last-level cache, hl_zero and glibc_memset against the store bandwidth limit
(the better of nontemporal and rep_stosb in each repetition).

ZeroData holds one file's zero results, indexed, and everything derived
from them that more than one part uses.  What a subject is comes from the
results and the file's facts: a variant forced at every size is a result
whose "variant" names its own subject (else a subject with a "variant_of"
fact); hotline's own code is a "library" fact; the order and descriptions
are the facts'.  The comparisons between named subjects are the criteria's
questions (criteria.py) and the published figures' (kernel.py).
"""

import statistics

from . import common, criteria, fmt, kernel, sized, stats
from .common import names
from .fmt import DASH, EN
from .load import is_int, is_number
from .sized import (SHORT, cache_marks, parse_plan, plan_words, planned,  # noqa: F401  (theirs)
                    ci as _ci, gb as _gb, signed as _signed, table as _table)

TITLE = "clearing memory"

MODES = ("hot", "cold")
DD = "dd"

MODE_TEXT = {
    "hot": "one buffer, cleared again and again: in the cache as far as it fits",
    "cold": "every call clears another place of an arena several times the last-level "
            "cache, in scattered order: the buffer is not in the cache",
    "used": "as cold, then one byte of every cache line of the buffer read back, timed with "
            "the clear: what a program does with a buffer it has just cleared",
}

# Size classes: each starts at its edge (bytes) and runs up to the next one.
CLASS_EDGES = (0, 64, 1 << 10, 32 << 10, 1 << 20, 32 << 20)

# The verdicts in a sentence.

SMALL = 256           # ns per call is tabled below this size (hl_try_zero's criterion)
TIE = 0.03            # crossovers: the leader keeps the lead until another is this much faster
CATCH_UP = 0.95       # rep stosb has caught up with the vector stores at this ratio
PLAN_NEAR = 0.95      # the plan's variant is as good as the fastest within this ratio
LISTED = 4            # exceptions named in a sentence before "and N more"


def _pow2(n):
    return n > 0 and n & (n - 1) == 0


def size_class(n):
    """The index in CLASS_EDGES of the class size N falls in."""
    return max(i for i, edge in enumerate(CLASS_EDGES) if n >= edge)


def _span(sizes):
    if len(sizes) == 1:
        return f"at {fmt.size_exact(sizes[0])}"
    return f"from {fmt.size_exact(sizes[0])} to {fmt.size_exact(sizes[-1])}"


def _range(sizes):
    return fmt.size_exact(sizes[0]) if len(sizes) == 1 else \
        f"{fmt.size_exact(sizes[0])}{EN}{fmt.size_exact(sizes[-1])}"


def _ratio_range(values):
    lo, hi = min(values), max(values)
    return fmt.ratio(lo) if fmt.ratio(lo) == fmt.ratio(hi) else \
        f"{fmt.ratio(lo)}{EN}{fmt.ratio(hi)}"


def _more(items):
    """At most LISTED ITEMS, then 'and N more'."""
    items = list(items)
    shown = items[:LISTED] + ([f"{len(items) - LISTED} more"] if len(items) > LISTED else [])
    return names(shown)


class ZeroData(sized.SizedData):
    """One file's zero results: indexed by (subject, mode, size), split by mode, dd apart
    (sized.SizedData, with what only zero's section asks of them)."""

    DECL = None   # DECL below

    def __init__(self, doc, results, facts=None, decl=None):
        super().__init__(doc, results, facts, decl)
        self.dd = self.apart
        self._ratios = {}

    def ratios(self, a, b, mode):
        """{size: a's GB/s over b's} in MODE, side by side (criteria.ratio)."""
        key = (a, b, mode)
        if key not in self._ratios:
            out = {}
            for s in self.sizes.get(mode, []):
                ra, rb = self.idx.get((a, mode, s)), self.idx.get((b, mode, s))
                v = criteria.ratio(ra, rb, "gb_per_sec")[0] if _gb(ra) and _gb(rb) else None
                if v is not None:
                    out[s] = v
            self._ratios[key] = out
        return self._ratios[key]

    def pairs(self):
        """The criteria's ratios (criteria.ZERO_RATIOS) whose two subjects are both in the file."""
        return [(a, b) for a, b in criteria.ZERO_RATIOS if self.has(a) and self.has(b)]

    def crossovers(self, mode):
        """Runs of sizes with one fastest variant: [{who, sizes, gb, lead}], smallest first.

        The leader keeps the lead until another variant is more than TIE faster, so that
        noise between two equal variants does not read as a crossover; "lead" is its GB/s
        over the next variant's at each size (below 1x where it kept a tied lead)."""
        segs = []
        for s in self.sizes.get(mode, []):
            vals = self.variant_gb(mode, s)
            if len(vals) < 2:
                continue
            best = max(vals, key=vals.get)
            cur = segs[-1]["who"] if segs else None
            if cur in vals and vals[cur] >= vals[best] * (1 - TIE):
                best = cur
            if not segs or segs[-1]["who"] != best:
                segs.append({"who": best, "sizes": [], "gb": [], "lead": []})
            seg = segs[-1]
            seg["sizes"].append(s)
            seg["gb"].append(vals[best])
            seg["lead"].append(vals[best] / max(g for v, g in vals.items() if v != best))
        return segs

    def catch_up(self, mode):
        """(size, points): the smallest size from which the subject of the published figure on
        rep stosb (kernel.ZERO_MACHINE_KIND) stays within CATCH_UP of the faster of the ones it
        names (the vector stores) at every larger size (None: it never does), and the points
        [(size, ratio, vector variant)]."""
        q = kernel.ZERO_MACHINE_KIND["rep_stosb_vs_vector"]
        pts = []
        for s in self.sizes.get(mode, []):
            rep = self.idx.get((q["subject"], mode, s))
            vecs = [r for r in (self.idx.get((v, mode, s)) for v in q["against"]) if _gb(r)]
            if _gb(rep) is None or not vecs:
                continue
            vec = max(vecs, key=_gb)
            v = criteria.ratio(rep, vec, "gb_per_sec")[0]
            if v is not None:
                pts.append((s, v, vec["subject"]))
        at = None
        for s, v, _ in reversed(pts):
            if v < CATCH_UP:
                break
            at = s
        return at, pts

    def plan_misses(self, mode):
        """[(size, planned variant, its ratio to the fastest variant, fastest)] where the plan's
        variant is not within PLAN_NEAR of the fastest variant measured."""
        out = []
        for s in self.sizes.get(mode, []):
            vals = self.variant_gb(mode, s)
            mine = planned(self.plan, s)
            if mine not in vals or len(vals) < 2:
                continue
            best = max(vals, key=vals.get)
            if best == mine:
                continue
            # side by side where the runs pair, as every ratio of the report
            v = criteria.ratio(self.idx[(mine, mode, s)], self.idx[(best, mode, s)],
                               "gb_per_sec")[0]
            if v is not None and v < PLAN_NEAR:
                out.append((s, mine, v, best))
        return out


def render(ctx, doc, results):
    z = ZeroData(doc, results, ctx.facts(doc, criteria.ZERO))
    L = []
    if z.results:
        L += sized.intro(ctx, doc, z)
        L += _plots(ctx, doc, z)
        L += _subjects(z, results)
        L += _ratios(z)
        L += _small(z)
        L += _crossovers(z)
        L += _grids(z)
    L += _dd(doc, z)
    L += common.flags(doc, results)
    return L


def _plots(ctx, doc, z):
    solid, dashed, dotted, _ = DECL.styles
    styles = [("-", solid), ("--", dashed), (":", dotted)]
    headline = [DECL.crit["subject"], DECL.crit["base"]]
    L = []
    for m in z.modes:
        L += sized.mode_plot(ctx, doc, z, m, styles, z.marks, headline)
    if L and not z.marks:
        L += ["The file records no cache sizes, so none are marked on the plots.", ""]
    elif L:
        L += ["Dotted lines: " + names(text for _, text in z.marks) +
              (" (the last-level cache as the bench found it)"
               if len(z.marks) == 1 else "") + ".", ""]
    return L


def _subjects(z, results):
    dd = [x for x in z.facts.order(z.dd) if x not in z.subjects]
    return common.subject_table(z.facts, results, z.subjects + dd)


# -- ratios ----------------------------------------------------------------

def _ratios(z):
    pairs = z.pairs()
    if not pairs:
        return []
    L = ["#### hl_zero against glibc, a zero-page copy, and hl_try_zero", ""]
    for m in z.modes:
        L += _ratio_by_size(z, m, pairs) + _ratio_by_class(z, m, pairs)
    odd = sorted({s for m in z.modes for s in z.sizes[m] if not _pow2(s)})
    if odd:
        L += [f"The odd sizes ({names(fmt.size_exact(s) for s in odd)}) count in the "
              "classes and appear in the verdicts at every size and the GB/s tables below.", ""]
    return L + _glibc_verdicts(z) + _bandwidth(z)


def glibc_comparisons(z, mode):
    """[(size, stats.Comparison)]: hl_zero / glibc_memset at each size of MODE's criterion
    (criteria.ZERO_VS_GLIBC_BY_MODE) whose runs pair, against its threshold."""
    c = criteria.ZERO_VS_GLIBC_BY_MODE.get(mode)
    if c is None:
        return []
    return [(p.size, stats.Comparison(p.values, c["factor"], series=p.series))
            for p in criteria.zero_pairs(z.results, c, z.llc)]


def _glibc_verdicts(z):
    """The table of hl_zero / glibc_memset at every size of its criteria, hot and cold: the
    median of the paired ratios, its interval and the verdict at that size."""
    got = {m: dict(glibc_comparisons(z, m)) for m in z.modes}
    got = {m: v for m, v in got.items() if v}
    if not got:
        return []
    c = criteria.ZERO_VS_GLIBC
    sizes = sorted({s for v in got.values() for s in v})
    L = [f"{c['subject']} / {c['base']} at every size, {names(got)}, against the criteria's "
         f"{c['factor']:g}x: the median of the paired ratios, its interval (stats.py) and "
         "the verdict at that size (*cannot tell*: at this noise):", ""]
    rows = [[fmt.size_exact(s)] + [_ci(got[m][s]) if s in got[m] else DASH for m in got]
            for s in sizes]
    return L + fmt.table(["size"] + list(got), rows, "l" + "r" * len(got)) + [""]


def bandwidth_points(z, subject=None):
    """[Point] of the store bandwidth criterion (criteria.ZERO_BANDWIDTH) for SUBJECT (its own
    by default), each size and mode above the last-level cache whose runs pair."""
    return criteria.zero_pairs(z.results, dict(criteria.ZERO_BANDWIDTH, **(
        {"subject": subject} if subject else {})), z.llc)


def _bandwidth(z):
    """Beyond the last-level cache: hl_zero and glibc_memset against the store bandwidth limit
    (the better of the bases in each repetition)."""
    c = criteria.ZERO_BANDWIDTH
    bases = criteria.bases_of(c)
    mine = bandwidth_points(z)
    if not mine:
        beyond = [s for m in z.modes for s in z.sizes[m] if s > (z.llc or criteria.BEYOND_CACHE)]
        if not beyond:
            return []
        return ["#### Beyond the cache: the store bandwidth limit", "",
                f"Not measured: no {names(bases)} results paired with {c['subject']} above "
                "the last-level cache in this file.", ""]
    fig = {(p.mode, p.size): p for p in bandwidth_points(z, c["figure"])}
    rows = []
    for p in mine:
        f = fig.get((p.mode, p.size))
        rows.append([fmt.size_exact(p.size), p.mode] +
                    [fmt.num(z.gb(b, p.mode, p.size)) for b in bases] +
                    [fmt.num(p.a), _ci(stats.Comparison(p.values, c["factor"])),
                     _ci(stats.Comparison(f.values), False) if f else DASH])
    where = (f"above the {fmt.size_exact(z.llc)} last-level cache" if z.llc else
             f"above {fmt.size_exact(criteria.BEYOND_CACHE)} (the file records no cache size)")
    L = ["#### Beyond the cache: the store bandwidth limit", "",
         f"{where[0].upper()}{where[1:]}, the store bandwidth limit is, in each repetition, the "
         f"larger of {names(b + chr(39) + 's' for b in bases)} GB/s in the same round; each ratio is the median over "
         f"the repetitions of the ratio to it, with its interval; {c['subject']} is to be within "
         f"{1 - c['factor']:.0%} of it, {c['figure']} is a figure beside it (GB/s: medians).", ""]
    L += fmt.table(["size", "mode"] + [f"{b} GB/s" for b in bases] +
                   [f"{c['subject']} GB/s", f"{c['subject']} / limit",
                    f"{c['figure']} / limit"], rows, "ll" + "r" * (len(bases) + 3))
    return L + [""]


def _ratio_by_size(z, mode, pairs):
    sizes = [s for s in z.sizes[mode] if _pow2(s)
             and any(s in z.ratios(a, b, mode) for a, b in pairs)]
    if not sizes:
        return []
    cols = [(f"{s} GB/s", lambda k, s=s: fmt.num(z.gb(s, mode, k)))
            for s in criteria.ZERO_RATIOS[0] if z.has(s)]
    cols += [(f"{a} / {b}", lambda k, a=a, b=b: fmt.ratio(z.ratios(a, b, mode).get(k)))
             for a, b in pairs]
    return [f"{mode.capitalize()} buffers, each power-of-two size:", ""] + \
        _table("size", [(s, fmt.size_exact(s)) for s in sizes], cols)


def _ratio_by_class(z, mode, pairs):
    classes = {}
    for s in z.sizes[mode]:
        classes.setdefault(size_class(s), []).append(s)

    def cell(k, a, b):
        got = {s: v for s, v in z.ratios(a, b, mode).items() if s in classes[k]}
        if not got:
            return DASH
        worst = min(got, key=got.get)
        return (f"{fmt.ratio(got[worst])} ({fmt.size_exact(worst)}) / "
                f"{fmt.ratio(statistics.median(got.values()))}")
    cols = [(f"{a} / {b}", lambda k, a=a, b=b: cell(k, a, b)) for a, b in pairs]
    return [f"{mode.capitalize()} buffers by size class, worst (at) / median:", ""] + \
        _table("sizes", [(k, _range(v)) for k, v in sorted(classes.items())], cols)


# -- small sizes -------------------------------------------------------------

def _small_subjects():
    """The subjects of the small sizes' table: hl_zero's base in its criterion against glibc,
    the two subjects of hl_try_zero's ns criterion, and the subject of the published figure
    per small call (read(2) of /dev/zero)."""
    c, g = criteria.TRY_ZERO_NS, criteria.ZERO_VS_GLIBC
    return list(dict.fromkeys([g["base"], c["base"], c["subject"],
                               kernel.ZERO_MACHINE_KIND["small_read"]["subject"]]))


def _small(z):
    subjects = [s for s in _small_subjects() if z.has(s)]
    a, b = criteria.TRY_ZERO_NS["subject"], criteria.TRY_ZERO_NS["base"]
    L = []
    for m in z.modes:
        sizes = [s for s in z.sizes[m] if s < SMALL]
        if not sizes or not subjects:
            continue
        cols = [(f"{s} ns", lambda k, s=s, m=m: fmt.ns(
            (z.idx.get((s, m, k)) or {}).get("ns_per_op"))) for s in subjects]
        if z.has(a) and z.has(b):
            cols.append((f"{a} \u2212 {b} (ns)", lambda k, m=m: _signed(_ns_diff(z, m, k))))
        L += [f"{m.capitalize()} buffers below {fmt.size_exact(SMALL)}, ns per call "
              "(median):", ""]
        L += _table("size", [(s, fmt.size_exact(s)) for s in sizes], cols)
    if L:
        L = ["#### Small sizes: ns per call", ""] + L + [
            "The difference is the median of the per-repetition differences.", ""]
    return L


def _ns_diff(z, mode, size):
    """TRY_ZERO_NS's subject's ns per call over its base's at SIZE (side by side), or None."""
    c = criteria.TRY_ZERO_NS
    a, b = z.idx.get((c["subject"], mode, size)), z.idx.get((c["base"], mode, size))
    return criteria.ns_difference(a, b)[0] if a and b else None


# -- crossovers ---------------------------------------------------------------

def _crossovers(z):
    rows = []
    for m in z.modes:
        for seg in z.crossovers(m):
            lo, hi = min(seg["gb"]), max(seg["gb"])
            rows.append([m, _range(seg["sizes"]), seg["who"],
                         fmt.num(lo) if fmt.num(lo) == fmt.num(hi) else fmt.rng(lo, hi),
                         _ratio_range(seg["lead"])])
    if not rows:
        return []
    L = ["#### Which variant is fastest", "",
         f"Among the variants ({names(z.variants)}): a variant keeps the lead until another "
         f"is more than {TIE:.0%} faster; the lead is its GB/s over the next variant's.", ""]
    L += fmt.table(["mode", "sizes", "fastest", "its GB/s", "lead"], rows, "lllrr") + [""]
    c = _catch_up_sentence(z)
    return L + ([c, ""] if c else [])


def _catch_up_sentence(z):
    parts, at256 = [], None
    for m in z.modes:
        at, pts = z.catch_up(m)
        if not pts:
            continue
        if at == pts[0][0]:
            parts.append(f"at every size with {m} buffers")
        elif at is None:
            s, v, vec = pts[-1]
            parts.append(f"at no size with {m} buffers ({fmt.ratio(v)} {vec} at "
                         f"{fmt.size_exact(s)}, the largest)")
        else:
            parts.append(f"from {fmt.size_exact(at)} with {m} buffers")
        at256 = at256 or next(((m, v, vec) for s, v, vec in pts if s == SMALL), None)
    if not parts:
        return ""
    q = kernel.ZERO_MACHINE_KIND["rep_stosb_vs_vector"]
    s = (f"{q['subject']} catches up with vector stores (within {1 - CATCH_UP:.0%} of the "
         f"faster of {names(v for v in q['against'] if z.has(v))} at that size and every "
         f"larger one) " + names(parts))
    if at256:
        m, v, vec = at256
        s += (f"; at {fmt.size_exact(SMALL)} it runs at {fmt.ratio(v)} {vec}'s speed with "
              f"{m} buffers")
    return s + "."


# -- every figure ---------------------------------------------------------------

def _grids(z):
    L = []
    for m in z.modes:
        subjects = [s for s in z.subjects if any(z.gb(s, m, k) is not None
                                                 for k in z.sizes[m])]
        L += sized.mode_grid(z, m, subjects,
                             f"GB/s of every subject, {m} buffers (median; fastest in bold):")
    return (["#### Every figure", ""] + L) if L else []


# -- dd ----------------------------------------------------------------------------

def _dd(doc, z):
    if not z.dd:
        return []
    L = ["#### dd: the host kernel's clearing", ""]
    if doc.simulated:
        L += ["*Simulated: hotline-sim's model, not a kernel.*", ""]
    else:
        rel = common.kernel_release(doc.env.get("kernel")) or "version not recorded"
        L += [f"**These measure this machine's kernel ({rel}), not hotline.** Sequential "
              "read(2) in blocks, as `dd of=/dev/null` does: every byte read is cleared by "
              "the kernel (clear_user for /dev/zero; a hole of a sparse tmpfs file is "
              "cleared or copied from the zero page, as that kernel does it).", ""]
    rows = []
    for r in z.dd:
        st = fmt.Stats(r)
        total = r.get("total_bytes")
        rows.append([r["subject"], str(r.get("source") or DASH), fmt.size_exact(r["size"]),
                     fmt.size_exact(total) if is_int(total) else DASH, fmt.num(_gb(r)),
                     st.range_in("gb_per_sec"), str(st.n) if st.n else DASH])
    L += fmt.table(["subject", "source", "block", "read per run", "GB/s (median)",
                    f"min{EN}max", "runs"], rows, "lllrrrr") + [""]
    d, t = kernel.CLEAR_USER_DD, kernel.SPARSE_TMPFS
    L += [f"For scale, from the kernel's 2022 clear_user work (another machine): "
          f"`{d['what']}` went from {d['text']}; {t['what']} took {t['text']}.", ""]
    return L


# -- what this machine says ------------------------------------------------------


def _variant_sentences(doc, z):
    S = [_crossover_sentence(doc, z), _catch_up_sentence(z)]
    if S[1]:
        k = kernel.ZERO_MACHINE_KIND
        S.append(f"Published on {k['what']} ({k['source']}), rep stosb is "
                 f"{k['rep_stosb_vs_vector']['text']}.")
    return [x for x in S + [_plan_sentence(z)] if x]


def _crossover_sentence(doc, z):
    found = []
    for m in z.modes:
        segs = z.crossovers(m)
        if segs:
            words = [f"{seg['who']}{' is fastest' if i == 0 else ''} {_span(seg['sizes'])}"
                     for i, seg in enumerate(segs)]
            found.append(f"with {m} buffers {names(words)}")
    if not found:
        return ""
    where = "In this simulation" if doc.simulated else "On this machine"
    return (f"{where}, among the variants, " + "; ".join(found) +
            f" (a leader keeps the lead until another is more than {TIE:.0%} faster).")


def _plan_sentence(z):
    if not z.plan or not z.variants:
        return ""
    verdicts = []
    for m in z.modes:
        miss = [f"{fmt.size_exact(sz)} ({mine} {fmt.ratio(v)} {best})"
                for sz, mine, v, best in z.plan_misses(m)]
        verdicts.append(f"with {m} buffers, not at {_more(miss)}" if miss
                        else f"at every size with {m} buffers")
    return (f"hl_zero's plan here is {plan_words(z.plan)}; its variant is within "
            f"{1 - PLAN_NEAR:.0%} of the fastest variant " + "; ".join(verdicts) + ".")


def _hl_zero_sentences(z):
    return [x for x in (_glibc_sentence(z), geomean_sentence(z), bandwidth_sentence(z),
                        _copy_sentence(z), _try_zero_sentence(z)) if x]


def _glibc_sentence(z):
    parts = []
    c = criteria.ZERO_VS_GLIBC
    a, b = c["subject"], c["base"]
    for m in z.modes:
        cm = criteria.ZERO_VS_GLIBC_BY_MODE.get(m)
        if cm is None:
            continue
        lo, hi = cm["sizes"]
        got = {s: v for s, v in z.ratios(a, b, m).items()
               if (lo is None or s >= lo) and (hi is None or s <= hi)}
        if not got:
            continue
        worst, last = min(got, key=got.get), max(got)
        t = f"at worst {fmt.ratio(got[worst])} ({fmt.size_exact(worst)})"
        t += (", the largest size," if worst == last else
              f" and {fmt.ratio(got[last])} at {fmt.size_exact(last)}, the largest size,")
        t += f" with {m} buffers"
        comps = glibc_comparisons(z, m)
        f = cm["factor"]
        below = [s for s, k in comps if k.verdict == stats.DOES_NOT_HOLD]
        under = [s for s, k in comps if k.verdict == stats.CANNOT_TELL and k.median < f]
        unsure = [s for s, k in comps if k.verdict == stats.CANNOT_TELL]
        notes = []
        if below:
            notes.append(f"wholly below {f:g}x, interval and all, at "
                         f"{_more(fmt.size_exact(s) for s in below)}")
        if under:
            notes.append(f"below it at the median, the interval straddling it, at "
                         f"{_more(fmt.size_exact(s) for s in under)}")
        if unsure:
            notes.append(f"cannot tell at this noise at {len(unsure)} of "
                         f"{fmt.plural(len(comps), 'size')}")
        if notes:
            t += " (" + "; ".join(notes) + ")"
        parts.append(t)
    if not parts:
        return ""
    return f"Against {b} at every size from 1 B to 1 GiB, {a}'s ratio is " + "; ".join(parts) + "."


def geomean_sentence(z):
    c = criteria.ZERO_GEOMEAN
    if c["mode"] not in z.modes:
        return ""
    g, _ = criteria.geomean(z.results, c, z.llc)
    if g is None:
        return ""
    s = (f"Over the {fmt.plural(len(g.sizes), 'size')} from {fmt.size_exact(g.sizes[0])} to "
         f"{fmt.size_exact(g.sizes[-1])} ({c['mode']}, each weighted alike), the geometric mean "
         f"of {c['subject']} / {c['base']} is ")
    if g.values:
        k = stats.Comparison(g.values, c["factor"])
        s += (f"{_ci(k, False)}, the median of the per-repetition means over the first "
              f"{fmt.plural(g.n, 'repetition')} at every size; against {c['factor']:g}x it "
              + ("cannot tell at this noise" if k.verdict == stats.CANNOT_TELL else k.verdict))
        if g.of_medians is not None:
            s += f" (of the sizes' own medians: {fmt.ratio(g.of_medians)})"
    else:
        s += f"{fmt.ratio(g.value)} (of the ratios of the medians: the runs do not pair up)"
    return s + "."


def bandwidth_sentence(z):
    c = criteria.ZERO_BANDWIDTH
    mine = bandwidth_points(z)
    if not mine:
        return ""
    theirs = bandwidth_points(z, c["figure"])
    modes = list(dict.fromkeys(p.mode for p in mine))
    where = (f"the {fmt.size_exact(z.llc)} last-level cache" if z.llc else
             f"{fmt.size_exact(criteria.BEYOND_CACHE)}")
    s = (f"Beyond {where} ({names(modes)} buffers), {c['subject']} runs at "
         f"{_ratio_range([p.value for p in mine])} of the store bandwidth limit (the larger of "
         f"{names(criteria.bases_of(c))} in each repetition)")
    comps = [(p, stats.Comparison(p.values, c["factor"])) for p in mine]
    p, k = min(comps, key=lambda x: x[1].median)
    count = {}
    for _, x in comps:
        count[x.verdict] = count.get(x.verdict, 0) + 1
    s += (f", at worst {_ci(k, False)} at {fmt.size_exact(p.size)}"
          + (f" {p.mode}" if len(modes) > 1 else "") + f"; against {c['factor']:g}x, "
          + names(f"{SHORT.get(v, v)} at {fmt.plural(n, 'size') if i == 0 else n}"
                  for i, (v, n) in enumerate(count.items())))
    if theirs:
        s += (f"; {c['figure']} runs at {_ratio_range([p.value for p in theirs])} of it "
              "(a figure, no threshold)")
    return s + "."


def _copy_sentence(z):
    c = criteria.ZERO_VS_COPY
    a, b = c["subject"], c["base"]
    sizes = [s for k in (c, criteria.ZERO_VS_COPY_L2) for s in k["sizes"]]
    parts = []
    for m in z.modes:
        got = z.ratios(a, b, m)
        at = [s for s in sizes if s in got] or sorted(got)[-1:]
        if at:
            parts.append(names(f"{fmt.ratio(got[s])} at {fmt.size_exact(s)}" for s in at)
                         + f" with {m} buffers")
    return (f"Against copying a zero page, {a}'s ratio to {b} is "
            + "; ".join(parts) + "." if parts else "")


def _try_zero_sentence(z):
    """hl_try_zero's cost over hl_zero in the first mode (hot): ns below SMALL, ratio above
    (criteria.TRY_ZERO_NS and TRY_ZERO_RATIO)."""
    c = criteria.TRY_ZERO_RATIO
    a, b = c["subject"], c["base"]
    m = z.modes[0] if z.modes else None
    diffs = {s: _ns_diff(z, m, s) for s in z.sizes.get(m, []) if s < SMALL}
    diffs = {s: d for s, d in diffs.items() if d is not None}
    keep = {s: v for s, v in z.ratios(a, b, m).items() if s >= SMALL}
    below = fmt.size_exact(SMALL)
    parts = []
    if diffs:
        s = max(diffs, key=diffs.get)
        at = fmt.size_exact(s)
        parts.append(f"costs at most {_signed(diffs[s])} ns per call over {b} below "
                     f"{below} (at {at})" if diffs[s] > 0 else
                     f"costs no more per call than {b} below {below} (its largest "
                     f"difference is {_signed(diffs[s])} ns, at {at})")
    if keep:
        s = min(keep, key=keep.get)
        parts.append(f"keeps at least {fmt.ratio(keep[s])} its throughput from {below} up "
                     f"(at {fmt.size_exact(s)})")
    return f"With {m} buffers, {a} " + " and ".join(parts) + "." if parts else ""


def _kind_sentences(doc, z):
    """docs/sources.md's clearing figures, naming the machine they were published on, beside
    this file's (the subjects each published figure names)."""
    if doc.simulated or kernel.is_arm(doc.env.get("arch")) or "hot" not in z.modes:
        return []
    k = kernel.ZERO_MACHINE_KIND
    sizes = z.sizes["hot"]
    here = []
    l1 = k["glibc_l1"]["subject"]
    peak = [(z.gb(l1, "hot", s), s) for s in sizes]
    peak = [p for p in peak if p[0] is not None]
    if peak:
        v, s = max(peak)
        here.append(f"{l1} peaks at {fmt.num(v)} GB/s ({fmt.size_exact(s)})")
    big = sizes[-1] if sizes else None
    at_big = [f"{f['subject']} {fmt.num(z.gb(f['subject'], 'hot', big))}"
              for f in k["big"]["figures"] if z.gb(f["subject"], "hot", big) is not None]
    if at_big and big >= 1 << 28:
        here.append(f"at {fmt.size_exact(big)} {names(at_big)} GB/s")
    sr = k["small_read"]
    ns = (z.idx.get((sr["subject"], "hot", sr["size"])) or {}).get("ns_per_op")
    if is_number(ns):
        here.append(f"{sr['subject']} takes {fmt.num(ns)} ns per call at "
                    f"{fmt.size_exact(sr['size'])}")
    if not here:
        return []
    figs = ", ".join(f"{f['what']} {f['gb']:g}" + (" GB/s" if i == 0 else "")
                     for i, f in enumerate(k["big"]["figures"]))
    return [f"Clearing figures published on {k['what']} ({k['source']}): "
            f"glibc memset {k['glibc_l1']['text']} L1-resident and {k['glibc_l2']['text']} "
            f"L2-sized; at {k['big']['size']} {figs} and {sr['ns']} ns per "
            f"call at {fmt.size_exact(sr['size'])}. Here, hot: " + "; ".join(here) + "."]


def _dd_sentences(doc, z):
    got = {r["subject"]: r for r in z.dd if _gb(r) is not None}
    if not got:
        return []
    blocks = {r.get("size") for r in got.values()}
    block = f" in {fmt.size_exact(blocks.pop())} blocks" if len(blocks) == 1 else ""
    figs = names(f"{kernel.DD_READS.get(s, s)} at {fmt.num(_gb(r))} GB/s"
                 for s, r in got.items())
    rel = common.kernel_release(doc.env.get("kernel")) or "version not recorded"
    who = "as modelled" if doc.simulated else f"the host kernel, {rel}"
    d = kernel.CLEAR_USER_DD
    return [f"dd-style reads{block} ({who}) give {figs}: these measure the kernel's own "
            f"clearing on this machine, not hotline. The kernel's 2022 rep stosb change "
            f"took `{d['what']}` from {d['before']} to {d['after']} GB/s on its machine."]


# -- the declaration -------------------------------------------------------------------------

def _paragraphs(ctx, doc, z):
    """The zero paragraphs of "What this machine says": lists of sentences."""
    return [_variant_sentences(doc, z), _hl_zero_sentences(z),
            _kind_sentences(doc, z), _dd_sentences(doc, z)]


DECL = sized.Sized(
    criteria.ZERO, TITLE, rank=40, headline="zero_vs_glibc",
    modes=MODES, sweeps=MODES, apart=(DD,), mode_text=MODE_TEXT, plan_env="zero_plan",
    intro="Each subject clears one buffer of the given size per call, over and over, on one "
          "thread; GB/s is 10\u2079 bytes cleared per second, and every ratio is the median "
          "of the per-repetition ratios (the bench runs repetition k of every subject at a "
          "size together).",
    styles=("hotline: hl_zero, hl_try_zero", "one variant at every size",
            "glibc, zero-page copy, /dev/zero", "glibc, zero-page copy, /dev/zero"),
    data=ZeroData, paragraphs=_paragraphs, brief_ranges=True,
    brief_sentences=lambda z: [geomean_sentence(z), bandwidth_sentence(z)],
    brief_intro=lambda c, band: (
        f"{c['subject']}'s GB/s over {c['base']}'s at each buffer size, with hot buffers "
        "(cache-resident as far as they fit) and cold ones (not in the cache): "
        f"{band}. Dashed: {c['factor']:g}x, the summary's threshold."))
ZeroData.DECL = DECL

SCENARIO = sized.scenario(DECL, render=render)
brief, checks = SCENARIO.brief, SCENARIO.checks
paragraphs = SCENARIO.says[0][1]


def ratio_series(doc, modes=("hot", "cold")):
    """[Series]: hl_zero / glibc_memset GB/s against size, one per mode with pairs
    (sized.ratio_series)."""
    return sized.ratio_series(DECL, doc, modes)
