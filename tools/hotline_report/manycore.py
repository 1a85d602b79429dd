"""The "Many-core machines (simulated)" section: hotline-sim's sweeps, each on its own plot.

  intro          said plainly: model outputs, not measurements (docs/sim.md, "Limits")
  measured       the measured contend points: the thread counts up to the
                 measuring machine's CPUs (oversubscribed ones are listed as left
                 out) and the subjects the model has; a table of them.  They are
                 drawn only on the plot of a calibrated sweep fitted to that very
                 file (env.calibration.file: the model of that machine), never on
                 another machine's model
  per sim file   "### PRESET (simulated): FILE": a ratio plot (plots.ratio_plot) of
                 each subject's throughput over the root of the facts' baselines
                 (the subject the others are measured against: the atomic add) vs
                 simulated threads, one colour per subject; on a calibrated
                 sweep's plot, the measured ratios (paired per repetition, their
                 interval as a band) as hollow stars; a file without facts gets
                 the log-log ns per count update plot instead.  Then the anchor
                 table, the figures the lockref threads argued about with the
                 published number for the machine the preset models
                 (kernel.SIM_PUBLISHED; the subjects each row compares are the
                 published figures', kernel.ANCHORS)

Units: hotline-sim's op is one count update; hotline-bench's contend op is a
get and a put, two updates.  Both are drawn as ns per count update, all
threads together (1e9 / updates per second); the result's "op" field says
which it is, and a file without one is taken as its tool's (UPDATES).

render(ctx) gives the section ([] without simulated contend results); docs(ctx)
the simulated files it draws; brief_section(ctx) its short section in report.md (one row
per simulated file at its most threads).  Subjects are ordered as each file's facts list
them (facts.py).
"""

import math
import os
from collections import Counter

from . import brief_parts as bp, common, contend, criteria, fmt, kernel, lockref_sweep, machines, plots
from .documents import APPENDIX, anchor
from .common import cpus as _cpus, index as _index, names as _names
from .facts import Facts
from .fmt import DASH
from .load import is_number

TITLE = "Many-core machines (simulated)"

# Count updates per op, by a result's "op" field; without one, by its tool.
UPDATES = {"get+put": 2, "one count update": 1}
TOOL_UPDATES = {"hotline-bench": 2, "hotline-sim": 1}

# The Graviton 2 figures' thread counts, and the ThunderX2 attempts' one.
SMALL_THREADS = tuple(kernel.ANCHORS["small"]["threads"])
ATTEMPTS_THREADS = kernel.ANCHORS["attempts"]["threads"]

MEASURED_STYLE = {"marker": "*", "markersize": 12, "hollow": True, "linestyle": ":",
                  "zorder": 5}


def updates_per_op(doc, r):
    return UPDATES.get(r.get("op")) or TOOL_UPDATES.get(doc.tool, 1)


def ns_per_update(doc, r):
    """System-wide ns per count update of contend result R, or None."""
    ns = r.get("ns_per_op")
    if not is_number(ns):
        ops = r.get("ops_per_sec")
        ns = 1e9 / ops if is_number(ops) and ops > 0 else None
    return None if ns is None else ns / updates_per_op(doc, r)


def _contend(doc):
    return [r for r in doc.results if r["scenario"] == "contend"]


def _ranker(doc):
    """Sort key of a subject: its place in DOC's contend facts (then as the results come)."""
    order = Facts(doc, "contend").order(_contend(doc))
    return lambda subject: order.index(subject) if subject in order else len(order)


class Measured:
    """One measured file's points for the many-core plots."""

    def __init__(self, doc, modelled, label):
        self.doc = doc
        self.label = label
        rs = _contend(doc)
        cpus = _cpus(doc)
        self.cpus = cpus
        self.limit = cpus or 2  # the CPU count not recorded: 1 and 2 threads only
        rank = _ranker(doc)
        self.points = sorted((r for r in rs if r["subject"] in modelled
                              and r["threads"] <= self.limit
                              and ns_per_update(doc, r) is not None),
                             key=lambda r: (rank(r["subject"]), r["threads"]))
        self.threads = sorted({r["threads"] for r in self.points})
        self.left_threads = sorted({r["threads"] for r in rs if r["threads"] > self.limit})
        self.left_subjects = [s for s in dict.fromkeys(r["subject"] for r in rs)
                              if s not in modelled]
        self.halved = any(updates_per_op(doc, r) == 2 for r in self.points)

    def series(self):
        copies = [dict(r, ns_per_op=ns_per_update(self.doc, r)) for r in self.points]
        out = plots.series_vs(copies, "threads", "ns_per_op")
        for s in out:
            s.update(MEASURED_STYLE, key=s["subject"], label=f"_{self.label}: {s['subject']}")
        return out

    def ratio_series(self, base):
        """ratio_plot series, one per subject of the points but BASE: its throughput over
        BASE's, paired per repetition (machines.ratio_series), up to the CPUs; hollow stars
        out of the legend."""
        out = []
        for subject in dict.fromkeys(r["subject"] for r in self.points):
            if subject == base:
                continue
            pts = [(t, c.median, c.lo, c.hi) for t, c in machines.ratio_series(self.doc, subject, base)
                   if t <= self.limit]
            if pts:
                out.append(dict(MEASURED_STYLE, key=subject, points=pts,
                                label=f"_{self.label}: {subject}"))
        return out

    def machine(self):
        env = self.doc.env
        what = str(env.get("cpu") or "CPU not recorded")
        if self.cpus:
            what += ", " + fmt.plural(self.cpus, "CPU")
        return what


def calibrated_to(sim, doc, docs=()):
    """Whether simulated file SIM is calibrated to measured file DOC (its env.calibration's
    "file" is DOC: the same file, the same path, or the same name when no other of DOCS has
    it): then SIM models DOC's machine."""
    cal = sim.env.get("calibration")
    f = cal.get("file") if isinstance(cal, dict) else None
    if not isinstance(f, str) or not f:
        return False
    try:
        if os.path.samefile(f, doc.path):
            return True
    except OSError:
        pass
    if os.path.normpath(os.path.abspath(f)) == os.path.normpath(os.path.abspath(doc.path)):
        return True
    if os.path.exists(f):
        return False
    name = os.path.basename(f)
    return (os.path.basename(doc.path) == name
            and sum(1 for d in docs if os.path.basename(d.path) == name) == 1)


def root_baseline(doc):
    """The subject DOC's contend facts measure the others against at the end of their
    baseline chains (the atomic add), the commonest if several; None without facts."""
    facts = Facts(doc, "contend")
    have = {r["subject"] for r in _contend(doc)}
    roots = []
    for s in facts.order(_contend(doc)):
        b, seen = facts.baseline(s), {s}
        while b is not None and facts.baseline(b) is not None and b not in seen:
            seen.add(b)
            b = facts.baseline(b)
        if b is not None and b in have:
            roots.append(b)
    return Counter(roots).most_common(1)[0][0] if roots else None


def model_series(doc, base):
    """ratio_plot series of simulated file DOC: each subject's throughput over BASE's at every
    thread count both ran (one run each: no interval)."""
    rs = _contend(doc)
    idx = _index(rs)
    rank = _ranker(doc)
    out = []
    for subject in sorted({r["subject"] for r in rs} - {base}, key=rank):
        pts = []
        for t in sorted({r["threads"] for r in rs}):
            a, b = idx.get((subject, t)), idx.get((base, t))
            na = ns_per_update(doc, a) if a else None
            nb = ns_per_update(doc, b) if b else None
            if na and nb:
                pts.append((t, nb / na, None, None))
        if pts:
            out.append({"key": subject, "label": subject, "points": pts})
    return out


def docs(ctx):
    """The simulated files with contend results: the ones this section draws."""
    return [d for d in ctx.docs if d.simulated and _contend(d)]


def render(ctx):
    """The section: the measured points, then one plot and anchor table per simulated file."""
    sims = docs(ctx)
    if not sims:
        return []
    modelled = {r["subject"] for d in sims for r in _contend(d)}
    mdocs = [d for d in ctx.docs if not d.simulated and _contend(d)]
    measured = [Measured(d, modelled, "measured, this machine" if len(mdocs) == 1
                         else f"measured, {d.stem}") for d in mdocs]
    L = [f"## {TITLE}", "",
         "**These are model outputs, not measurements.** hotline-sim models threads on "
         "one contended cache line (docs/sim.md) with each preset's parameters; some are "
         "assumed and some were fitted to the very published figures in the tables "
         "below, so agreement there shows the model *can* reproduce them, not that it "
         "predicts (docs/sim.md, \"Limits\"). Each preset's plot shows that model alone: "
         "a measured point is drawn only on the plot of a model calibrated to the file it "
         "came from (the model of that machine), never on another machine's.", "",
         "The plots show each subject's throughput over its baseline's, at every simulated "
         "thread count (1.0: as fast); the tables give time per count update, all threads "
         "together (10\u2079 / updates per second; lower is better): a simulated op is one "
         "update, a measured contend op is a get and a put, so measured ns/op are halved.", ""]
    for m in measured:
        L += _measured_points(m, [d for d in sims if calibrated_to(d, m.doc, mdocs)])
    if not measured:
        L += ["No measured contend results were given: the plots show the model alone.", ""]
    for doc in sims:
        L += _preset(ctx, doc, [m for m in measured if calibrated_to(doc, m.doc, mdocs)])
    return L


def _preset_name(doc):
    return str(doc.env.get("preset") or doc.stem)


def _measured_points(m, models):
    """The measured file's points; MODELS: the simulated files calibrated to it."""
    doc = m.doc
    L = [f"### {m.label[0].upper() + m.label[1:]}: {doc.path}", ""]
    if not m.points:
        L += [f"{doc.path} has no contend result of a modelled subject at "
              f"{m.limit} threads or fewer: nothing measured is drawn.", ""]
    else:
        where = (f"Drawn as hollow stars on the plot of "
                 f"{_names(_preset_name(d) for d in models)}, the model calibrated to this "
                 f"file, and on no other"
                 if models else
                 "Not drawn on the plots below: none of their models is calibrated to this "
                 "file, and a model of another machine is no scale for it")
        L += [f"{m.machine()}. {where}. "
              f"{_names(fmt.plural(t, 'thread') for t in m.threads)}, ns per count update"
              + (" (the bench's ns/op \u00f7 2)" if m.halved else "") + ", median of the runs:",
              ""]
        idx = _index(m.points)
        subjects = list(dict.fromkeys(r["subject"] for r in m.points))
        rows = [[s] + [fmt.num(ns_per_update(doc, idx[(s, t)])) if (s, t) in idx else DASH
                       for t in m.threads] for s in subjects]
        L += fmt.table(["subject (measured)"] + [fmt.plural(t, "thread") for t in m.threads],
                       rows, "l" + "r" * len(m.threads)) + [""]
    left = []
    if m.left_threads:
        why = (f"more threads than its {fmt.plural(m.cpus, 'CPU')}: oversubscribed, which "
               f"the model does not do" if m.cpus else "its CPU count is not recorded")
        left.append(f"its {_names(str(t) for t in m.left_threads)}-thread results ({why}; "
                    f"they are in its own contend section)")
    if m.left_subjects:
        left.append(f"{_names(m.left_subjects)} (not modelled)")
    if left:
        L += ["Not drawn: " + "; ".join(left) + ".", ""]
    return L


def _preset(ctx, doc, measured):
    rank = _ranker(doc)
    rs = sorted(_contend(doc), key=lambda r: (rank(r["subject"]), r["threads"]))
    env, cfg = doc.env, doc.config
    preset = str(env.get("preset") or doc.stem)
    cpus = _cpus(doc)
    L = [f"### {preset} (simulated): {doc.path}", ""]
    what = [str(env.get("cpu") or f"preset {preset}")]
    if cpus:
        what.append(fmt.plural(cpus, "CPU"))
    if cfg.get("ops") is not None:
        what.append(f"--ops {cfg['ops']}, seed {cfg.get('seed', DASH)}")
    L += [f"Model of **{preset}**: " + "; ".join(what) + ".", ""]
    cal = env.get("calibration")
    if isinstance(cal, dict):
        fitted = cal.get("fitted") or {}
        rms = cal.get("rms_log_error")
        L += [f"Calibrated: the {cal.get('base', DASH)} preset with its costs fitted to the "
              f"1- and 2-thread contend figures measured in {cal.get('file', DASH)} "
              f"(hotline-sim --calibrate; rms log error "
              f"{fmt.num(rms) if isinstance(rms, (int, float)) else DASH}): "
              + (", ".join(f"{k} {fmt.num(v)}" for k, v in sorted(fitted.items())
                           if isinstance(v, (int, float))) or DASH)
              + ". Its many-thread figures are the base's assumptions with this machine's "
              "costs (docs/sim.md, \"Calibrating\").", ""]
        warn = calibration_warning(rms)
        if warn:
            L += [warn, ""]

    base = root_baseline(doc)
    drawn = [m for m in measured if m.points]
    if base is not None:
        L += _ratio_plot(ctx, doc, preset, base, drawn)
    else:
        L += _ns_plot(ctx, doc, preset, rs, drawn)
    caption = f"Lines: simulated, {preset}, one colour per subject."
    for m in drawn:
        caption += (f" Hollow stars: {m.label} ({m.machine()}), "
                    f"{_names(str(t) for t in m.threads)} "
                    f"{'thread' if m.threads == [1] else 'threads'}, in the colour of their "
                    f"subject: the file this model was calibrated to"
                    + (", its paired ratios with their interval as a band."
                       if base is not None else "."))
    if not drawn:
        caption += (" The model alone: it is not calibrated to a measured file given, so no "
                    "measured point is drawn on it.")
    L += [caption, ""]
    L += _anchor_table(doc, preset, rs)
    return L


def _ratio_plot(ctx, doc, preset, base, drawn):
    """The ratio plot of simulated file DOC: every subject over BASE vs threads, with DRAWN's
    measured ratios (the machine DOC is calibrated to) as hollow stars."""
    series = model_series(doc, base)
    styles = [("-", f"lines: simulated, {preset}")]
    for m in drawn:
        series += m.ratio_series(base)
        styles.append((":", f"hollow stars: {m.label}", "*"))
    xs = sorted({p[0] for s in series for p in s["points"]})
    sub = f"simulated, {preset} (model outputs, not measurements)"
    if drawn:
        sub += " \u00b7 " + " \u00b7 ".join(f"{m.label}: {m.machine()}" for m in drawn)
    return ctx.plot(plots.ratio_plot, ctx.png("manycore", preset), series,
                    title=f"{preset}: throughput over {base}'s vs threads (simulated)",
                    xlabel="threads" + (" (log scale)" if len(xs) > 1 and xs[-1] >= 8 * xs[0]
                                        else ""),
                    ylabel=f"throughput / {base}'s (higher is better)",
                    logx=2 if len(xs) > 1 and xs[-1] >= 8 * xs[0] else False,
                    baseline_label=f"1.0 = as fast as {base}", subtitle=sub, styles=styles,
                    oversub=_cpus(doc))


def _ns_plot(ctx, doc, preset, rs, drawn):
    """Without facts (no baseline known): ns per count update vs threads, log-log."""
    series = plots.series_vs([dict(r, ns_per_op=ns_per_update(doc, r)) for r in rs],
                             "threads", "ns_per_op")
    if len({s["subject"] for s in series}) == len(series):
        for s in series:  # one line per subject: the subject's colour
            s["key"] = s["subject"]
    styles = [("-", f"lines: simulated, {preset}")]
    for m in drawn:
        series += m.series()
        styles.append((":", f"hollow stars: {m.label}", "*"))
    sub = f"simulated, {preset} (model outputs, not measurements)"
    if drawn:
        sub += " \u00b7 " + " \u00b7 ".join(f"{m.label}: {m.machine()}" for m in drawn)
    return ctx.plot(plots.plot_vs_threads, ctx.png("manycore", preset), [], "ns_per_op",
                    title=f"{preset}: time per count update vs threads (simulated), "
                          f"lower is better",
                    subtitle=sub, series=series, logy=True, styles=styles,
                    ylabel="time per count update, all threads (ns)")


def _anchor_table(doc, preset, rs):
    """The published figures for the machine PRESET models beside the model's; the subjects
    each row compares are the published figures' (kernel.ANCHORS)."""
    idx = _index(rs)
    threads = sorted({r["threads"] for r in rs})
    pub = kernel.sim_published(preset)
    cpus = _cpus(doc)
    an = kernel.ANCHORS
    unbounded = an["attempts"]["subject"]

    def ns(subject, t):
        r = idx.get((subject, t))
        return ns_per_update(doc, r) if r else None

    def attempts():
        t = ATTEMPTS_THREADS
        r = idx.get((unbounded, t))
        if r is None:
            if cpus and cpus < t:
                return f"{DASH} (the model has {fmt.plural(cpus, 'CPU')})"
            return f"{DASH} (no {t}-thread run)"
        a = r.get("attempts_per_success")
        mean = fmt.metric_value(r, "attempts_per_success")
        if mean is None:
            return DASH
        p99 = a.get("p99") if isinstance(a, dict) else None
        return fmt.num(mean) + (f" (p99 {fmt.count(p99)})" if p99 is not None else "")

    def over(subject, against):
        both = [t for t in threads if ns(subject, t) and ns(against, t)]
        if not both:
            return None, DASH
        t = both[-1]
        return t, fmt.ratio(ns(against, t) / ns(subject, t))

    def at_small(subject):
        have = [t for t in SMALL_THREADS if ns(subject, t) is not None]
        if not have:
            return DASH
        return " / ".join(fmt.num(ns(subject, t)) if t in have else DASH
                          for t in SMALL_THREADS)

    lim, spin = an["limit"], an["spinlock"]
    limit = next((r.get("retry_limit") for r in rs
                  if r["subject"] == lim["subject"] and r.get("retry_limit") is not None), None)
    lname = f"{lim['subject']} (retry limit {limit})" if limit is not None else lim["subject"]
    t_lim, v_lim = over(lim["subject"], lim["against"])
    t_spin, v_spin = over(spin["subject"], spin["against"])
    small = "/".join(str(t) for t in SMALL_THREADS)
    at = lambda t: f" at {fmt.plural(t, 'thread')}" if t else ""  # noqa: E731
    rows = [
        [f"cmpxchg attempts per success, {unbounded}, {ATTEMPTS_THREADS} threads",
         pub.get("attempts", DASH), attempts()],
        [f"{lname} / {lim['against']}, throughput{at(t_lim)}", pub.get("limit", DASH), v_lim],
        [f"{spin['subject']} / {spin['against']}, throughput{at(t_spin)}",
         pub.get("spinlock", DASH), v_spin],
    ]
    for s, what in zip(an["small"]["subjects"], ("update", "update", "acquisition")):
        rows.append([f"{s}, ns per {what} at {small} threads", pub.get(s, DASH), at_small(s)])
    machine = pub.get("machine")
    L = [f"The figures the lockref threads argued about: published "
         f"({'for ' + machine if machine else 'nothing for this preset'}, docs/sources.md) "
         f"and the model's (simulated, {preset}):", ""]
    L += fmt.table(["figure", "published (docs/sources.md)", f"model (simulated, {preset})"],
                   rows, "llr")
    machines = [p["machine"] for p in kernel.SIM_PUBLISHED.values()]
    L += ["", f"Ratios are of throughputs, at the largest thread count both subjects were "
              f"run at. {DASH} under published: no such figure in docs/sources.md for "
              f"{machine or 'the machine this preset models'} (its figures are for "
              f"{_names(machines)}); under model: no such run in the file.", ""]
    return L


# A calibration whose typical figure is off by more than this factor is said to fit poorly.
# hotline-sim refuses fits off by 2x (rms log error ln 2 = 0.69) unless told otherwise.
POOR_FIT_FACTOR = 1.4


def calibration_warning(rms):
    """One line warning of a poor calibration (rms log error over ln POOR_FIT_FACTOR), or None."""
    if not isinstance(rms, (int, float)) or isinstance(rms, bool):
        return None
    if rms <= math.log(POOR_FIT_FACTOR):
        return None
    return (f"**A poor fit:** an rms log error of {fmt.num(rms)} means a typical measured figure "
            f"is off by {math.exp(rms):.2f}x in the model; read the calibrated curves as a "
            f"shape, not as this machine's numbers.")


# -- report.md's short section (brief.py) ------------------------------------------------

def _collapsed(ctx, doc, rs):
    idx = common.index(rs)
    ts = sorted({r["threads"] for r in rs})
    if 2 not in ts or ts[-1] <= 2:
        return fmt.DASH
    top = ts[-1]
    out = []
    for s in ctx.facts(doc, criteria.SCENARIO).order(rs):
        a, b = common.mops(idx.get((s, top))), common.mops(idx.get((s, 2)))
        if a is not None and b and a / b < contend.COLLAPSE:
            out.append(s)
    return ", ".join(out) or "none"


def brief_section(ctx):
    """report.md's short section on the simulated files: one row per file at its most threads,
    the questions' ratios and the subjects that collapse; [] without simulated files."""
    sims = [d for d in ctx.docs if d.simulated]
    if not sims:
        return []
    L = [f"## {TITLE}", "",
         "**Model outputs, not measurements** (hotline-sim, docs/sim.md): one contended cache "
         "line on the many-core machines the kernel threads argued about. Each row is one "
         "simulated file at its most threads (one run per point, no interval): the questions' "
         "ratios, and the subjects that keep less than half their 2-thread throughput.", ""]
    pairs = [(s, b) for s, b, _, _ in contend.contend_pairs()]
    sw = lockref_sweep.SWEEP
    pairs.append((sw["subject"], sw["base"]))
    rows, used = [], []
    for d in sims:
        rs = [r for r in d.results if r["scenario"] == criteria.SCENARIO]
        if not rs:
            continue
        top = max(r["threads"] for r in rs)
        cells = {}
        for s, b in pairs:
            a = next((r for r in rs if r["subject"] == s and r["threads"] == top), None)
            bb = next((r for r in rs if r["subject"] == b and r["threads"] == top), None)
            v = criteria.ratio(a, bb)[0] if a is not None and bb is not None else None
            if v is not None:
                cells[(s, b)] = bp.x(v)
        used += [p for p in cells if p not in used]
        preset = d.env.get("preset") or d.stem
        rows.append([f"[{preset}]({APPENDIX}#{anchor(ctx, d, criteria.SCENARIO)})",
                     str(top), cells, _collapsed(ctx, d, rs)])
    if not rows:
        return L + [f"The simulated files have no contend results: see "
                    f"[the appendix]({APPENDIX}).", ""]
    cols = [p for p in pairs if p in used]
    L += fmt.table(["preset", "threads"] + [f"{s} / {b}" for s, b in cols]
                   + [f"below {contend.COLLAPSE:g}x their 2-thread figure"],
                   [[r[0], r[1]] + [r[2].get(p, fmt.DASH) for p in cols] + [r[3]]
                    for r in rows], "lr" + "r" * len(cols) + "l")
    L += ["", "Each model's plot and the published figures beside the model's: "
          f"[{TITLE}]({APPENDIX}#{slug(TITLE)}).", ""]
    return L


def slug(heading):
    """GitHub's anchor for a Markdown heading's text (the first of that name)."""
    out = []
    for ch in heading.strip().lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)
