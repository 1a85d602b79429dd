"""The Markdown report: one section per input file, one subsection per scenario.

  refcount-timing          bar chart, table, kernel's published ratios, summary
  contend, lockref-sweep,  see contention.py (plots vs threads or retry limit,
  openclose                tables of every extra)
  zero                     see zeroing.py (GB/s vs size per mode, ratios per
                           size and size class, crossovers, dd)
  anything else            a generic table (a newer bench still yields a report)

Each file's section ends with "What this machine says": the paragraphs of
contention.py and zeroing.py, then the done criteria of criteria.py, met
or not.

Several files: their sections follow one another; hotline-sim files are
marked as simulated.  Then "Many-core machines (simulated)" (manycore.py):
each hotline-sim contend sweep drawn with the measured files' contend points
at the thread counts their machine has CPUs for, in one unit (ns per count
update), and the published figures beside the model's.  Last, scenarios with
a threads dimension found in more than one measured file get an overlay plot;
simulated files are left out of it, as the many-core section draws them
(the overlay would mix a sim op, one update, with a bench op, a get and a
put, on one axis).

write() is all or nothing: every file goes first into a staging directory
inside OUTDIR, and is renamed into place only when all are written, so a
full or unwritable output leaves OUTDIR as it was (WriteError names the file).
"""

import json
import os
import re
import shutil
import tempfile

from . import VERSION, criteria, fmt, kernel, plots
from .contention import ContentionSections
from .manycore import ManyCoreSections, TITLE as MANYCORE_TITLE
from .zeroing import ZeroSections
from .fmt import DASH, EN

THREAD_SCENARIOS = ("contend", "lockref-sweep", "openclose")

TITLES = {
    "refcount-timing": "the price of a saturating reference count (one thread)",
    "contend": "one contended cache line, N threads",
    "lockref-sweep": "lockref variants and retry limits under contention",
    "zero": "clearing memory",
    "openclose": "open, read and close of one file by N threads or processes (the host kernel)",
}

# CPU flags worth naming first (the ones hotline's variants depend on).
KEY_FLAGS = ("erms", "fsrm", "fsrs", "rep_good", "avx2", "avx512f", "lse", "atomics",
             "mops", "constant_tsc", "nonstop_tsc")

LINESTYLES = ("-", "--", ":", "-.")


def _text(v):
    if v is None or v == "":
        return DASH
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


_plural = fmt.plural


def _flags_text(flags):
    if flags is None:
        return DASH
    if not isinstance(flags, list):
        return _text(flags)
    if not flags:
        return "none reported"
    names = [str(f) for f in flags]
    if len(names) <= 20:
        return "`" + " ".join(names) + "`"
    key = [f for f in KEY_FLAGS if f in names]
    return ("`" + " ".join(key) + "`" if key else "") + \
        f" (+{len(names) - len(key)} more: {len(names)} flags in the JSON)"


def _placement_text(p):
    if p is None:
        return "not pinned"
    if isinstance(p, list):
        if not p:
            return DASH
        if all(isinstance(c, int) and not isinstance(c, bool) for c in p):
            if len(p) == 1:
                return f"one thread, on CPU {p[0]}"
            return "threads on CPUs " + ", ".join(str(c) for c in p) + " (in thread order)"
    return _text(p)


def _mode_text(cfg):
    if not cfg:
        return "not recorded"
    quick = cfg.get("quick")
    parts = ["quick (indicative only)" if quick is True else "full" if quick is False else "unknown"]
    rep = cfg.get("repeat")
    if rep is not None:
        parts.append(f"{_plural(rep, 'repetition') if isinstance(rep, int) else rep}")
    if cfg.get("duration") is not None:
        parts.append(f"{cfg['duration']} s per run")
    if cfg.get("pin") is not None:
        parts.append(f"pinning {cfg['pin']}")
    return ", ".join(parts)


def _sanitize(name):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "x"


def _order(results, first=()):
    """Subjects in the order FIRST, then order of appearance."""
    seen = []
    for r in results:
        if r["subject"] not in seen:
            seen.append(r["subject"])
    return [s for s in first if s in seen] + [s for s in seen if s not in first]


def _common_headline(results):
    heads = [r["headline"] for r in results]
    return max(set(heads), key=heads.count) if heads else "ns_per_op"


class WriteError(Exception):
    """An output could not be written: one line naming PATH (where the user will look for
    the file) and why, exit 1."""

    def __init__(self, path, why, what="cannot write"):
        super().__init__(f"{what} {path} ({why})")
        self.path = path


def _why(e):
    return e.strerror or str(e) or type(e).__name__


class Report(ContentionSections, ZeroSections, ManyCoreSections):
    def __init__(self, docs, outdir, workdir=None):
        """OUTDIR: where the files will be; WORKDIR (default OUTDIR): where they are written."""
        self.docs = docs
        self.outdir = outdir
        self.workdir = workdir or outdir
        self.pngs = []
        self._names = set()
        self._stems = {}

    # -- files -------------------------------------------------------------
    def _stem(self, doc):
        if id(doc) not in self._stems:
            base = _sanitize(doc.stem)
            stem, n = base, 2
            while stem in self._stems.values():
                stem = f"{base}-{n}"
                n += 1
            self._stems[id(doc)] = stem
        return self._stems[id(doc)]

    def _png(self, *parts):
        base = "-".join(_sanitize(p) for p in parts if p)
        name, n = base + ".png", 2
        while name in self._names:
            name = f"{base}-{n}.png"
            n += 1
        self._names.add(name)
        return name

    def _plot(self, fn, name, *args, title, **kw):
        """Run plot helper FN into WORKDIR/NAME; return Markdown image lines."""
        try:
            drawn = fn(os.path.join(self.workdir, name), *args, title=title, **kw)
        except OSError as e:
            raise WriteError(os.path.join(self.outdir, name), _why(e)) from None
        if drawn is None:
            return []
        self.pngs.append(name)
        alt = title.replace("[", "(").replace("]", ")")
        return [f"![{alt}]({name})", ""]

    # -- document ----------------------------------------------------------
    def build(self):
        L = ["# hotline report", ""]
        n = len(self.docs)
        L.append(f"Generated by hotline-report {VERSION} from {_plural(n, 'input file')}. "
                 "Plots are PNG files beside this report; every figure is a median over "
                 "the repetitions, with min\u2013max ranges across them.")
        L.append("")
        L += fmt.table(["file", "tool", "kind", "date", "results"],
                       [[d.path, f"{d.tool} {d.version or ''}".strip(),
                         "**simulated**" if d.simulated else "measured",
                         _text(d.env.get("date")), len(d.results)] for d in self.docs],
                       "lllll"[:4] + "r")
        L.append("")
        if any(d.simulated for d in self.docs):
            L += ["Sections from hotline-sim are **simulated**: the output of a model of the "
                  "machine, not measurements."
                  + (f" Its sweeps are drawn together, with the measured points, in "
                     f"\"{MANYCORE_TITLE}\" after the files' sections."
                     if self.manycore_docs() else ""), ""]
        for i, doc in enumerate(self.docs, 1):
            L += self.doc_section(doc, i if n > 1 else None)
        L += self.manycore()
        L += self.overlays()
        return "\n".join(L).rstrip() + "\n"

    def doc_section(self, doc, number):
        kind = "simulated" if doc.simulated else "measured"
        head = f"{number}. " if number else ""
        L = [f"## {head}{doc.path}: {kind} by {doc.tool} {doc.version or ''}".rstrip(), ""]
        if doc.simulated:
            L += ["*Simulated: these figures come from hotline-sim's model, not from a machine.*", ""]
        L += self.env_section(doc)
        if not doc.results:
            L += ["No results in this file.", ""]
            return L
        scenarios = []
        for r in doc.results:
            if r["scenario"] not in scenarios:
                scenarios.append(r["scenario"])
        for scen in scenarios:
            rs = [r for r in doc.results if r["scenario"] == scen]
            title = TITLES.get(scen)
            mark = " (simulated)" if doc.simulated else ""
            L += [f"### {scen}" + (f": {title}" if title else "") + mark, ""]
            if scen == "refcount-timing":
                L += self.refcount_timing(doc, rs)
            elif scen == "contend":
                L += self.contend(doc, rs)
            elif scen == "lockref-sweep":
                L += self.lockref_sweep(doc, rs)
            elif scen == "openclose":
                L += self.openclose(doc, rs)
            elif scen == "zero":
                L += self.zero(doc, rs)
            else:
                L += self.generic(doc, scen, rs)
        L += self.machine_says(doc)
        return L

    def env_section(self, doc):
        env, cfg = doc.env, doc.config
        cpu = _text(env.get("cpu"))
        extra = ", ".join(str(env[k]) for k in ("arch", "vendor") if env.get(k))
        rows = [["CPU", cpu + (f" ({extra})" if extra else "")],
                ["CPU flags", _flags_text(env.get("flags"))],
                ["kernel", _text(env.get("kernel"))],
                ["libc", _text(env.get("libc"))],
                ["compiler", _text(env.get("compiler"))],
                ["CPUs", _text(env.get("cpus"))],
                ["placement", _placement_text(env.get("placement")) if "placement" in env else DASH],
                ["date", _text(env.get("date"))],
                ["mode", _mode_text(cfg)]]
        if isinstance(env.get("atomics"), str):
            what = {"lse": "LSE (the run-time choice of GCC's outline atomics)",
                    "llsc": "exclusives, LDXR/STXR (the run-time choice of GCC's outline "
                            "atomics)"}
            rows.append(["atomics", what.get(env["atomics"], _text(env["atomics"]))])
        if env.get("command"):
            rows.append(["command", f"`{env['command']}`"])
        known = {"cpu", "arch", "vendor", "flags", "kernel", "libc", "compiler", "cpus",
                 "placement", "date", "command", "atomics"}
        rows += [[k, _text(v)] for k, v in env.items() if k not in known]
        return ["#### Environment", ""] + fmt.table(["", ""], rows) + [""]

    def _subtitle(self, doc, results):
        env = doc.env
        parts = [str(env.get("cpu") or env.get("preset") or "unknown CPU")]
        runs = sorted({len(r["runs"]) for r in results})
        if runs:
            parts.append("median of " + "/".join(str(n) for n in runs) + " runs")
        if doc.quick:
            parts.append("QUICK MODE: indicative only")
        if doc.simulated:
            parts.append("SIMULATED")
        return " \u00b7 ".join(parts)

    def _flags(self, doc, results):
        """Warnings common to every scenario: quick mode, large spread."""
        L = []
        if doc.quick:
            L.append("**Quick mode: indicative only.** Short runs and few repetitions; "
                     "run `make bench` for figures to quote.")
        wide = []
        for r in results:
            st = fmt.Stats(r)
            if st.large:
                what = r["subject"]
                if r["threads"] > 1:
                    what += f" at {r['threads']} threads"
                if r.get("size") is not None:
                    what += f" at {fmt.size(r['size'])}"
                if r.get("mode"):
                    what += f", {r['mode']}"
                wide.append(f"{what} ({fmt.pct(st.rel)})")
        if wide:
            shown = wide[:8] + ([f"and {len(wide) - 8} more"] if len(wide) > 8 else [])
            L.append(f"**Large spread** (max\u2212min over median above "
                     f"{fmt.pct(fmt.LARGE_SPREAD)}): " + ", ".join(shown) +
                     ". The machine was probably busy or the runs too short; "
                     "treat these figures with care.")
        return [x for line in L for x in (line, "")]

    # -- what this machine says ----------------------------------------------
    def machine_says(self, doc):
        """The file's generated paragraphs, then its done criteria (not for a simulation)."""
        con = [r for r in doc.results if r["scenario"] == "contend"]
        zer = [r for r in doc.results if r["scenario"] == criteria.ZERO]
        others = any(r["scenario"] in THREAD_SCENARIOS for r in doc.results)
        if not (others or zer):
            return []
        sim = doc.simulated
        L = ["### What this simulation says (simulated)" if sim
             else "### What this machine says", ""]
        for S in self.contention_paragraphs(doc) + self.zero_paragraphs(doc, zer):
            if S:
                L += [" ".join(S), ""]
        if sim:
            L += ["The project's done criteria are about measurements on a real machine; they "
                  "are not checked against a simulation.", ""]
            return L
        L += ["#### Done criteria", ""]
        checks = (criteria.evaluate(con) if con else []) + self.zero_checks(doc, zer)
        if checks:
            rows = [[c.crit["text"], c.figures(), c.verdict] for c in checks]
            L += fmt.table(["criterion", "this file", "verdict"], rows, "lll") + [""]
        if not con and others:
            L += ["Not checked: no contend results in this file." if not zer else
                  "The contention criteria are not checked: no contend results in this file.", ""]
        return L

    # -- refcount-timing ---------------------------------------------------
    def refcount_timing(self, doc, results):
        L = []
        threads = sorted({r["threads"] for r in results})
        order = _order(results, ("atomic", "refcount", "refcount_full"))
        rows, bars, by_label = [], [], {}
        for t in threads:
            for subj in order:
                for r in results:
                    if r["subject"] != subj or r["threads"] != t:
                        continue
                    label = subj if len(threads) == 1 else f"{subj} ({t} threads)"
                    by_label[label] = r
        base_name = None
        for label, r in by_label.items():
            st = fmt.Stats(r)
            ns = r["ns_per_op"]
            base_name = r.get("ratio_to") or base_name
            ratio = self._ratio(r, results)
            runs = str(st.n) if st.n else DASH
            rows.append([label, fmt.num(ns), st.range_in("ns_per_op"),
                         fmt.num(r.get("cycles_per_op")), fmt.ratio(ratio), runs])
            if ns is not None:
                bar = {"label": label, "value": ns,
                       "text": f"{fmt.num(ns)} ns" + (f"\n{fmt.ratio(ratio)}" if ratio else "")}
                if st.metric == "ns_per_op":
                    bar["lo"], bar["hi"] = st.lo, st.hi
                bars.append(bar)
        base_name = base_name or "atomic"

        ref = kernel.reference_for(doc.env.get("arch"))
        refs = []
        base = next((r for r in results if r["subject"] == base_name and r["threads"] == threads[0]), None)
        if base is not None and base["ns_per_op"] and len(threads) == 1:
            for i, b in enumerate(bars):
                if b["label"] in ("refcount", "refcount_full"):
                    refs.append({"index": i, "value": base["ns_per_op"] * ref[b["label"]][1],
                                 "text": f"kernel {ref[b['label']][0]}",
                                 "label": f"kernel's ratio \u00d7 this {base_name} "
                                          f"({ref['machine']}, {ref['short']})"})
        if bars:
            title = "refcount-timing: time per operation, lower is better"
            if doc.simulated:
                title += " (simulated)"
            name = self._png(self._stem(doc), "refcount-timing")
            L += self._plot(plots.bar_chart, name, bars, title=title,
                            ylabel="time per operation (ns, median)",
                            subtitle=self._subtitle(doc, results), refs=refs,
                            bar_legend=f"median; error bar: min{EN}max over the runs")
        L += fmt.table(["subject", "ns/op (median)", f"min{EN}max", "ticks/op",
                        f"ratio to {base_name}", "runs"], rows, "lrrrrr")
        L += ["", f"ns/op and ticks/op are medians over the repetitions (ticks of the "
                  f"constant-rate cycle counter: TSC on x86-64, CNTVCT on arm64; not core "
                  f"cycles); min{EN}max is the "
                  f"range of ns/op across them; the ratio is the median of the per-repetition "
                  f"ratios to {base_name}.", ""]

        # The kernel's published figures, with this run first.
        mine = {s: self._ratio(by_label[s], results) if s in by_label else None
                for s in ("refcount", "refcount_full")}
        krows = []
        if len(threads) == 1:
            krows.append([f"**this run**{' (simulated)' if doc.simulated else ''}",
                          _text(doc.env.get("arch")),
                          fmt.ratio(mine["refcount"]), fmt.ratio(mine["refcount_full"])])
        for k in kernel.REFCOUNT_RATIOS:
            krows.append([k["source"], k["machine"], k["refcount"][0], k["refcount_full"][0]])
        L += ["The kernel's published ratios for comparison (LKDTM REFCOUNT_TIMING vs "
              "ATOMIC_TIMING: INT_MAX\u22121 increments, then decrement-and-test to zero, "
              "one thread):", ""]
        L += fmt.table(["source", "machine", "refcount / atomic",
                        "refcount_full (cmpxchg) / atomic"], krows, "llrr")
        L += ["", kernel.FOOTNOTE, ""]
        L += self._refcount_summary(doc, results, by_label, base_name, ref, mine)
        return L

    def _ratio(self, r, results):
        """The stored ratio; for the baseline itself 1; else ratio of medians."""
        if r.get("ratio") is not None:
            return r["ratio"]
        to = r.get("ratio_to") or "atomic"
        if r["subject"] == to:
            return 1.0
        base = next((b for b in results if b["subject"] == to and b["threads"] == r["threads"]), None)
        if base and base["ns_per_op"] and r["ns_per_op"] is not None:
            return r["ns_per_op"] / base["ns_per_op"]
        return None

    def _full_inline_note(self, by_label, results, base_name):
        """What refcount_full_inline (the cmpxchg loop without the call) tells."""
        full, inline = by_label.get("refcount_full"), by_label.get("refcount_full_inline")
        if not full or not inline:
            return []
        rf, ri = self._ratio(full, results), self._ratio(inline, results)
        if rf is None or ri is None:
            return []
        if ri <= 1.05:
            loop = (f"the compare-and-swap loop itself costs nothing measurable over a plain "
                    f"{base_name} here ({fmt.ratio(ri)} inlined): an uncontended locked cmpxchg "
                    f"costs what a locked add costs on this core")
        else:
            loop = f"the compare-and-swap loop itself costs {fmt.ratio(ri)} inlined"
        return [f"refcount_full_inline is the same loop without the out-of-line call: {loop}, "
                f"and the call accounts for the rest of refcount_full's {fmt.ratio(rf)}. "
                f"A loop's real price is paid under contention, where failed attempts retry."]

    def _refcount_summary(self, doc, results, by_label, base_name, ref, mine):
        where = "In this simulation" if doc.simulated else "On this machine"
        machine = ref["machine"]
        parts = []
        if mine.get("refcount") is not None:
            parts.append(f"refcount costs {fmt.ratio(mine['refcount'])} a plain {base_name} "
                         f"(kernel saw {ref['refcount'][0]} on {machine})")
        if mine.get("refcount_full") is not None:
            parts.append(f"refcount_full costs {fmt.ratio(mine['refcount_full'])} "
                         f"(kernel: {ref['refcount_full'][0]})")
        S = []
        if parts:
            S.append(f"{where}, " + "; ".join(parts) + ".")
        elif base_name not in by_label:
            S.append(f"There is no {base_name} result in this file, so no ratios to it.")
        verdicts = []
        for subj, what in (("refcount", "the kernel's fast refcount"),
                           ("refcount_full", "the kernel's cmpxchg-based REFCOUNT_FULL")):
            v = mine.get(subj)
            if v is None:
                continue
            k = ref[subj][1]
            if abs(v - k) <= 0.05 * k:
                verdicts.append(f"{subj} is in line with {what}")
            elif v > k:
                verdicts.append(f"{subj} is dearer here than {what} ({fmt.ratio(v)} vs {ref[subj][0]})")
            else:
                verdicts.append(f"{subj} is cheaper here than {what} ({fmt.ratio(v)} vs {ref[subj][0]})")
        if verdicts:
            S.append("Against the kernel: " + "; ".join(verdicts) + ".")
        S += self._full_inline_note(by_label, results, base_name)
        per = []
        for label, r in by_label.items():
            if r["ns_per_op"] is None:
                continue
            s = f"{label} {fmt.num(r['ns_per_op'])} ns"
            if r.get("cycles_per_op") is not None:
                s += f" ({fmt.num(r['cycles_per_op'])} ticks)"
            rr = r.get("ratio_runs")
            if rr and r["subject"] != base_name:
                s += f", ratio {fmt.ratio(min(rr))}{EN}{fmt.ratio(max(rr))} across runs"
            per.append(s)
        if per:
            S.append("Per operation (median): " + "; ".join(per) + ".")
        bad = [r["subject"] for r in results if r.get("in_sync") is False]
        if bad:
            S.append(f"**Warning:** {', '.join(bad)} reported `in_sync: false`; "
                     "those figures may not be trustworthy.")
        L = [" ".join(S), ""] if S else []
        return L + self._flags(doc, results)

    # -- threads dimension ---------------------------------------------------
    def _columns(self, results, xdims):
        """Table columns present in RESULTS: (header, align, fn(r) -> text)."""
        head = _common_headline(results)
        cols = [("subject", "l", lambda r: r["subject"])]
        if any(r.get("retry_limit") is not None for r in results):
            cols.append(("retry limit", "r", lambda r: _text(r.get("retry_limit"))))
        for d in xdims:
            if d == "threads":
                cols.append(("threads", "r", lambda r: str(r["threads"])))
            if d == "size" and any(r.get("size") is not None for r in results):
                cols.append(("size", "r", lambda r: fmt.size(r.get("size"))))
        if any(r.get("gb_per_sec") is not None for r in results):
            cols.append(("GB/s (median)", "r", lambda r: fmt.num(r.get("gb_per_sec"))))
        if not any(r.get("gb_per_sec") is not None for r in results) and \
                any(r.get("ops_per_sec") is not None for r in results):
            cols.append(("Mops/s (median)", "r",
                         lambda r: fmt.num(fmt.metric_value(r, "ops_per_sec"))))
        cols.append(("ns/op (median)", "r", lambda r: fmt.num(r.get("ns_per_op"))))
        cols.append((f"min{EN}max ({fmt.metric_label(head)})", "r",
                     lambda r: fmt.Stats(r).range_in(head)))
        if any(r.get("attempts_per_success") is not None for r in results):
            cols.append(("attempts/success (mean)", "r",
                         lambda r: fmt.num(fmt.metric_value(r, "attempts_per_success"))))
            if any(isinstance(r.get("attempts_per_success"), dict)
                   and "p99" in r["attempts_per_success"] for r in results):
                cols.append(("p99", "r", lambda r: fmt.count(
                    (r.get("attempts_per_success") or {}).get("p99")
                    if isinstance(r.get("attempts_per_success"), dict) else None)))
        if any(r.get("fallback_rate") is not None for r in results):
            cols.append(("fallback rate", "r", lambda r: fmt.rate(r.get("fallback_rate"))))
        if any(r.get("fairness") is not None for r in results):
            cols.append(("fairness", "r", lambda r: fmt.num(r.get("fairness"))))
        cols.append(("runs", "r", lambda r: str(len(r["runs"])) if r["runs"] else DASH))
        return cols

    def _table(self, results, xdims, sort_key):
        cols = self._columns(results, xdims)
        rows = [[fn(r) for _, _, fn in cols] for r in sorted(results, key=sort_key)]
        return fmt.table([c[0] for c in cols], rows, "".join(c[1] for c in cols)) + [""]

    def _threads_summary(self, results, metric):
        top = max(r["threads"] for r in results)
        at = [r for r in results if r["threads"] == top and fmt.metric_value(r, metric) is not None]
        if len(at) < 2:
            return []
        higher_better = metric != "ns_per_op"
        at.sort(key=lambda r: fmt.metric_value(r, metric), reverse=higher_better)
        best, worst = at[0], at[-1]
        bv, wv = fmt.metric_value(best, metric), fmt.metric_value(worst, metric)
        unit = fmt.metric_label(metric)

        def name(r):
            return r["subject"] + (f" (retry limit {r['retry_limit']})"
                                   if r.get("retry_limit") is not None else "")
        s = (f"At {_plural(top, 'thread')}, {name(best)} leads with {fmt.num(bv)} {unit}; "
             f"{name(worst)} is last with {fmt.num(wv)} {unit}")
        if bv and wv:
            factor = bv / wv if higher_better else wv / bv
            s += f" ({fmt.num(factor)}x {'slower' if higher_better else 'dearer'})"
        return [s + ".", ""]

    # -- anything else ----------------------------------------------------------
    def generic(self, doc, scen, results):
        L = [f"Scenario `{scen}` is not known to hotline-report {VERSION}; its results are "
             "shown as a plain table.", ""]
        rows = []
        for r in results:
            st = fmt.Stats(r)
            head = r["headline"]
            rows.append([r["subject"], str(r["threads"]), fmt.size(r.get("size")),
                         f"{fmt.num(fmt.metric_value(r, head))} {fmt.metric_label(head)}",
                         fmt.rng(st.lo, st.hi, fmt.metric_scale(head)), fmt.pct(st.rel),
                         str(st.n) if st.n else DASH])
        L += fmt.table(["subject", "threads", "size", "headline (median)", f"min{EN}max",
                        "spread", "runs"], rows, "lrrrrrr")
        L += ["", "spread: (max\u2212min)/median across the runs.", ""]
        L += self._flags(doc, results)
        return L

    # -- several files --------------------------------------------------------
    @staticmethod
    def _style_name(i):
        return ("solid", "dashed", "dotted", "dash-dot")[i % len(LINESTYLES)]

    def overlays(self):
        L = []
        drawn = {id(d) for d in self.manycore_docs()}  # in the many-core section instead
        for scen in THREAD_SCENARIOS:
            have = [d for d in self.docs if id(d) not in drawn
                    and any(r["scenario"] == scen for r in d.results)]
            if len(have) < 2:
                continue
            series = []
            for i, d in enumerate(have):
                rs = [r for r in d.results if r["scenario"] == scen]
                metric = "ops_per_sec"
                tag = f" \u2014 {d.stem}" + (" (simulated)" if d.simulated else "")
                series += plots.series_vs(rs, "threads", metric, suffix=tag,
                                          linestyle=LINESTYLES[i % len(LINESTYLES)])
            if len({x for s in series for x in s["x"]}) < 2:
                continue
            if not L:
                L += ["## Files compared", "",
                      "Scenarios found in several files, drawn together: one colour per "
                      "subject, one line style per file.", ""]
            L += [f"### {scen}", ""]
            name = self._png("overlay", scen)
            legend = " \u00b7 ".join(
                f"{self._style_name(i)}: {d.stem}{' (simulated)' if d.simulated else ''}"
                for i, d in enumerate(have))
            L += self._plot(plots.plot_vs_threads, name, [], "ops_per_sec",
                            title=f"{scen}: Mops/s vs threads, files compared",
                            subtitle=legend, series=series, logy="auto")
        return L


def write(docs, outdir):
    """Write OUTDIR/report.md and its PNGs; return (report path, PNG names).

    All or nothing: everything is written into a staging directory in OUTDIR (the same file
    system), then renamed into place, the PNGs before report.md so that it never shows a plot
    not there yet.  On any failure the staging directory goes, OUTDIR keeps the files it had
    and WriteError names the file that failed.
    """
    try:
        work = tempfile.mkdtemp(prefix=".hotline-report-", dir=outdir)
    except OSError as e:
        raise WriteError(outdir, _why(e), "cannot write files in") from None
    try:
        rep = Report(docs, outdir, work)
        text = rep.build()
        path = os.path.join(outdir, "report.md")
        try:
            with open(os.path.join(work, "report.md"), "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise WriteError(path, _why(e)) from None
        names = rep.pngs + ["report.md"]
        for name in names:  # before the first rename: nothing half replaced
            if os.path.isdir(os.path.join(outdir, name)):
                raise WriteError(os.path.join(outdir, name), "a directory is in the way")
        for name in names:
            try:
                os.replace(os.path.join(work, name), os.path.join(outdir, name))
            except OSError as e:
                raise WriteError(os.path.join(outdir, name), _why(e)) from None
        return path, rep.pngs
    finally:
        shutil.rmtree(work, ignore_errors=True)
