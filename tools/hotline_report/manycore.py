"""The "Many-core machines (simulated)" section: hotline-sim's sweeps with the measured points.

  intro          said plainly: model outputs, not measurements (docs/sim.md, "Limits")
  measured       the measured contend points drawn on every plot: the thread
                 counts up to the measuring machine's CPUs (oversubscribed ones
                 are listed as left out, never drawn) and the subjects the model
                 has; a table of them
  per sim file   "### PRESET (simulated): FILE": a log-log plot of ns per count
                 update vs threads, one colour per subject, simulated lines and
                 the measured points as hollow stars; then the anchor table, the
                 figures the lockref threads argued about with the published
                 number for the machine the preset models (kernel.SIM_PUBLISHED;
                 the subjects each row compares are the published figures',
                 kernel.ANCHORS)

Units: hotline-sim's op is one count update; hotline-bench's contend op is a
get and a put, two updates.  Both are drawn as ns per count update, all
threads together (1e9 / updates per second); the result's "op" field says
which it is, and a file without one is taken as its tool's (UPDATES).

render(ctx) gives the section ([] without simulated contend results); docs(ctx)
the simulated files it draws.  Subjects are ordered as each file's facts list
them (facts.py).
"""

import math
from . import fmt, kernel, plots
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

    def machine(self):
        env = self.doc.env
        what = str(env.get("cpu") or "CPU not recorded")
        if self.cpus:
            what += ", " + fmt.plural(self.cpus, "CPU")
        return what


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
         "predicts (docs/sim.md, \"Limits\"). Lines are simulated; hollow stars, where "
         "there are any, "
         "are measured on a real machine and drawn on the same axes for scale.", "",
         "The figure is time per count update, all threads together (10\u2079 / updates "
         "per second; lower is better): a simulated op is one update, a measured contend "
         "op is a get and a put, so measured ns/op are halved.", ""]
    for m in measured:
        L += _measured_points(m)
    if not measured:
        L += ["No measured contend results were given: the plots show the model alone.", ""]
    for doc in sims:
        L += _preset(ctx, doc, measured)
    return L


def _measured_points(m):
    doc = m.doc
    L = [f"### {m.label[0].upper() + m.label[1:]}: {doc.path}", ""]
    if not m.points:
        L += [f"{doc.path} has no contend result of a modelled subject at "
              f"{m.limit} threads or fewer: nothing measured is drawn.", ""]
    else:
        L += [f"{m.machine()}. Drawn as hollow stars on every plot below: "
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

    series = plots.series_vs([dict(r, ns_per_op=ns_per_update(doc, r)) for r in rs],
                             "threads", "ns_per_op")
    if len({s["subject"] for s in series}) == len(series):
        for s in series:  # one line per subject: the subject's colour
            s["key"] = s["subject"]
    styles = [("-", f"lines: simulated, {preset}")]
    drawn = [m for m in measured if m.points]
    for m in drawn:
        series += m.series()
        styles.append((":", f"hollow stars: {m.label}", "*"))
    sub = f"simulated, {preset} (model outputs, not measurements)"
    if drawn:
        sub += " \u00b7 " + " \u00b7 ".join(f"{m.label}: {m.machine()}" for m in drawn)
    L += ctx.plot(plots.plot_vs_threads, ctx.png("manycore", preset), [], "ns_per_op",
                  title=f"{preset}: time per count update vs threads (simulated), "
                        f"lower is better",
                  subtitle=sub, series=series, logy=True, styles=styles,
                  ylabel="time per count update, all threads (ns)")
    caption = f"Lines: simulated, {preset}, one colour per subject."
    for m in drawn:
        caption += (f" Hollow stars: {m.label} ({m.machine()}), "
                    f"{_names(str(t) for t in m.threads)} "
                    f"{'thread' if m.threads == [1] else 'threads'}, in the colour of their "
                    f"subject.")
    L += [caption, ""]
    L += _anchor_table(doc, preset, rs)
    return L


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
