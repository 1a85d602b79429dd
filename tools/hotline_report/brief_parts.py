"""What a scenario's short section in report.md is built from: its figures in words, the
lines of its one ratio plot, the links to its full sections in appendix.md.

Each scenario module's brief(ctx, have) (scenario.py) writes its own short section with
these; brief.py puts the sections together.  HAVE is [(machine name, doc)]: each machine's
first measured file with the scenario (measured()).

  x(v), ci(p)            a ratio, a point's median with its interval
  reps_note, band_words, levels_words   the repetitions behind the intervals, in words
  links(ctx, have, scenario)            the line linking to the appendix's sections
  measured, multi, tag   the machines that have a scenario; whether there are several;
                         a machine's name before its sentences
  styled, subtitle       ratio_plot series and subtitle, one line style per machine
  size_ticks, sizes_words, in_range, range_words   sizes on a plot and in words
"""

from . import common, fmt
from .documents import link
from .which_machine import machines

# The machines' line styles (dotted is the contend plot's thresholds').
LINESTYLES = ("-", "--", "-.", (0, (6, 2, 1, 2, 1, 2)))
STYLE_NAMES = ("solid", "dashed", "dash-dot", "dash-dot-dot")


def x(v):
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


def has(doc, scenario):
    return any(r["scenario"] == scenario for r in doc.results)


def measured(ctx, scenario):
    """[(machine name, doc)]: each machine's first measured file with SCENARIO."""
    out = []
    for name, docs in machines(ctx.docs):
        d = next((d for d in docs if has(d, scenario)), None)
        if d is not None:
            out.append((name, d))
    return out


def multi(ctx):
    """Whether the measured files come from more than one machine (summary.machines)."""
    return len(machines(ctx.docs)) > 1


def tag(ctx, name):
    """A machine's name before its sentences, when there are several machines."""
    return f"**{name}:** " if multi(ctx) else ""


def styled(ctx, have, i, series):
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


def subtitle(have):
    if len(have) == 1:
        doc = have[0][1]
        return common.subtitle(doc, doc.results)
    return " vs ".join(f"{name} ({STYLE_NAMES[i % len(STYLE_NAMES)]})"
                       for i, (name, _) in enumerate(have))


def size_ticks(xs):
    pow2 = sorted({x for x in xs if x > 0 and x & (x - 1) == 0})
    pick = pow2 if len(pow2) >= 2 else sorted(set(xs))
    if len(pick) > 11:
        step = -(-len(pick) // 11)
        pick = pick[::step]
    return pick


def sizes_words(points, most=4):
    xs = [fmt.size_exact(p.x) for p in points]
    if len(xs) <= most:
        return common.names(xs)
    return ", ".join(xs[:most - 1]) + f" and {len(xs) - most + 1} more"


def in_range(x, sizes):
    if not isinstance(sizes, tuple):
        return True
    lo, hi = sizes
    return (lo is None or x >= lo) and (hi is None or x <= hi)


def range_words(sizes):
    if not isinstance(sizes, tuple):
        return "at the summary's sizes"
    lo, hi = sizes
    if lo is None:
        return f"up to {fmt.size_exact(hi)}"
    if hi is None:
        return f"from {fmt.size_exact(lo)} up"
    return f"from {fmt.size_exact(lo)} to {fmt.size_exact(hi)}"
