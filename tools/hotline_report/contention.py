"""Report sections for the contention scenarios, and what they add up to.

  contend        Mops/s vs threads (oversubscribed range shaded), a subject x
                 threads table, what each subject is, on arm64 LSE against
                 exclusives (_lse / _llsc) and the relax instruction (_isb,
                 _none against cpu_relax), attempts per success (plot and
                 table), fallback rates, fairness, latency percentiles, every
                 figure in one long table
  lockref-sweep  Mops/s vs retry limit (log x, unbounded as a point "inf"),
                 one line per thread count; tables of throughput, attempts and
                 fallback per limit; which limits are within NEAR of the best
  openclose      open+read+close per second vs N, threads vs processes, said
                 plainly to measure the host kernel, not hotline
  contention_paragraphs  the paragraphs of "What this machine says" over the
                 three, compared with docs/sources.md's figures (kernel.py); the
                 report puts them before the done criteria (criteria.py)

ContentionSections is a mixin of report.Report: it uses its _png, _plot,
_subtitle, _flags, _table and _threads_summary.
"""

from . import criteria, fmt, kernel, plots
from .fmt import DASH, EN
from .load import is_int

# Subjects in the order tables and legends list them; others follow in
# order of appearance.
SUBJECT_ORDER = ("atomic_faa", "cas_loop", "refcount", "refcount_full", "lockref", "lockref_lib",
                 "lockref_unbounded", "lockref_relax", "lockref_relax_alt",
                 "lockref_spinlock_only", "qspinlock", "ticket", "pthread_mutex")

# What each subject is, for the reader (a result's own "description" wins).
SUBJECTS = {
    "atomic_faa": "plain atomic fetch-add up and down (`lock xadd` / `ldadd`): the floor",
    "cas_loop": "the same count kept with a relaxed compare-and-swap loop",
    "refcount": "hotline's refcount_t (one fetch-add per get or put)",
    "refcount_full": "the old cmpxchg-loop refcount (REFCOUNT_FULL)",
    "lockref": "hotline's lockref (the kernel's algorithm), counting its attempts",
    "lockref_lib": "the library's lockref as shipped (no attempt counting)",
    "lockref_unbounded": "lockref without a retry limit (the kernel before 2019)",
    "lockref_relax": "lockref with a pause in the loop (the kernel before 2023)",
    "lockref_relax_alt": "lockref loop unrolled twice, pausing every other attempt "
                         "(Linus's unmerged proposal)",
    "lockref_spinlock_only": "the count under the spinlock only, no lockless path",
    "qspinlock": "hotline's queued spinlock around the count",
    "ticket": "a ticket spinlock around the count (FIFO, spins, never sleeps)",
    "pthread_mutex": "glibc's pthread mutex around the count (sleeps in a futex)",
}
# arm64's extra subjects: the atomic ones with the atomics forced, the relax ones with another
# instruction. Their descriptions are derived from the base subject's.
ATOMICS_KINDS = {"llsc": "exclusives (LDXR/STXR) inlined", "lse": "LSE (LDADD, CAS) inlined"}
ATOMICS_BASES = ("atomic_faa", "cas_loop", "refcount", "lockref")
RELAX_INSNS = {"isb": "ISB in place of cpu_relax", "none": "no instruction in place of cpu_relax"}
RELAX_BASES = ("lockref_relax", "lockref_relax_alt", "ticket")


def _variant(subject):
    """(base, suffix) of an arm64 variant subject ('cas_loop_lse' -> ('cas_loop', 'lse')),
    or None."""
    base, _, suffix = subject.rpartition("_")
    if (suffix in ATOMICS_KINDS and base in ATOMICS_BASES) or \
            (suffix in RELAX_INSNS and base in RELAX_BASES):
        return base, suffix
    return None


def describe(subject):
    """What a subject is, for the reader; None when unknown."""
    if subject in SUBJECTS:
        return SUBJECTS[subject]
    v = _variant(subject)
    if v:
        what = ATOMICS_KINDS.get(v[1]) or RELAX_INSNS[v[1]]
        return f"`{v[0]}` with {what}"
    return None

# Subjects with a cmpxchg loop: they get a row in the attempts table even
# when the file has no attempts for them (shown as a dash).
LOOP_SUBJECTS = ("cas_loop", "lockref", "lockref_unbounded", "lockref_relax", "lockref_relax_alt",
                 "cas_loop_llsc", "cas_loop_lse", "lockref_llsc", "lockref_lse",
                 "lockref_relax_isb", "lockref_relax_none", "lockref_relax_alt_isb",
                 "lockref_relax_alt_none")

# A subject collapses when its throughput at the largest thread count is
# below COLLAPSE times its 2-thread figure.
COLLAPSE = 0.5

# lockref-sweep: limits within NEAR of the best count as equally good.
NEAR = 0.10

DAGGER = "\u2020"
INF = "\u221e"


def _order(results, first=SUBJECT_ORDER):
    seen = []
    for r in results:
        if r["subject"] not in seen:
            seen.append(r["subject"])
    return [s for s in first if s in seen] + [s for s in seen if s not in first]


def _index(results):
    """{(subject, threads): result}; the first result of a pair wins."""
    idx = {}
    for r in results:
        idx.setdefault((r["subject"], r["threads"]), r)
    return idx


def _mops(r):
    return fmt.metric_value(r, "ops_per_sec") if r else None


def _part(r, name, key):
    """r[name][key] (an extras object), or None."""
    obj = r.get(name) if r else None
    if isinstance(obj, dict):
        return obj.get(key)
    if name == "attempts_per_success" and key == "mean":
        return obj  # a bare number is the mean
    return None


def _cpus(doc):
    c = doc.env.get("cpus")
    return c if is_int(c) and c >= 1 else None


def _names(items):
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def kernel_release(text):
    """'6.1.0-40-cloud-amd64 #1 SMP ...' or 'Linux 6.1.0-40' -> 'Linux 6.1.0-40...'."""
    words = str(text or "").split()
    if words and words[0].lower() == "linux":
        words = words[1:]
    return f"Linux {words[0]}" if words else None


def _limit_list(limits, tested):
    """'every limit from 4 to 500' when LIMITS is a run of TESTED, else '4, 15 and 500'."""
    shown = [INF if x is None else str(x) for x in limits]
    if len(limits) == len(tested):
        return "every limit tested"
    pos = [tested.index(x) for x in limits]
    finite = [x for x in limits if x is not None]
    if len(finite) >= 3 and pos == list(range(pos[0], pos[0] + len(pos))):
        tail = f" and {INF}" if None in limits else ""
        return f"every limit from {finite[0]} to {finite[-1]}{tail}"
    return _names(shown)


class ContentionSections:
    """Mixin of report.Report: the contend, lockref-sweep and openclose sections."""

    def _thread_cols(self, threads, cpus, word="thread"):
        return [fmt.plural(t, word) + (f" {DAGGER}" if cpus and t > cpus else "") for t in threads]

    def _over_note(self, threads, cpus, word="threads",
                   why="so threads wait for a CPU as well as for the cache line"):
        if cpus and any(t > cpus for t in threads):
            return [f"{DAGGER} more {word} than this machine's {fmt.plural(cpus, 'CPU')}: "
                    f"oversubscribed, {why}.", ""]
        return []

    def _grid(self, first, rows, threads, cpus, cell, extra=None):
        """A subject x threads table: ROWS [(key, label)], CELL(key, t) -> text."""
        headers = [first] + self._thread_cols(threads, cpus)
        body = []
        for key, label in rows:
            line = [label] + [cell(key, t) for t in threads]
            if extra:
                line.append(extra[1](key))
            body.append(line)
        if extra:
            headers.append(extra[0])
        return fmt.table(headers, body, "l" + "r" * (len(headers) - 1)) + [""]

    def _bars_one_count(self, doc, scen, results, metric):
        """A bar chart of METRIC when every result has the same thread count."""
        stem, sub = self._stem(doc), self._subtitle(doc, results)
        mark = " (simulated)" if doc.simulated else ""
        t = results[0]["threads"]
        bars = []
        for r in results:
            v = fmt.metric_value(r, metric)
            if v is None:
                continue
            label = r["subject"] + (f" (limit {r['retry_limit']})"
                                    if r.get("retry_limit") is not None else "")
            b = {"label": label, "value": v, "text": fmt.num(v)}
            st = fmt.Stats(r)
            if st.metric == metric and st.lo is not None:
                b["lo"] = st.lo * fmt.metric_scale(metric)
                b["hi"] = st.hi * fmt.metric_scale(metric)
            bars.append(b)
        if not bars:
            return []
        return self._plot(plots.bar_chart, self._png(stem, scen, metric), bars,
                          title=f"{scen}: {fmt.metric_label(metric)} at {fmt.plural(t, 'thread')}"
                                f"{mark}",
                          ylabel=fmt.metric_axis(metric), subtitle=sub,
                          bar_legend=f"median; error bar: min{EN}max over the runs")

    def _all_figures(self, results, order):
        L = ["All figures, one row per result:", ""]
        L += self._table(results, ["threads", "size"],
                         lambda r: (order.index(r["subject"]), r.get("retry_limit") or 0,
                                    r["threads"], r.get("size") or 0))
        return L

    # -- contend ---------------------------------------------------------------
    def contend(self, doc, results):
        stem, sub = self._stem(doc), self._subtitle(doc, results)
        mark = " (simulated)" if doc.simulated else ""
        cpus = _cpus(doc)
        threads = sorted({r["threads"] for r in results})
        order = _order(results)
        idx = _index(results)
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
            L += self._plot(plots.plot_vs_threads, self._png(stem, "contend", "ops_per_sec"),
                            ordered, "ops_per_sec", series=series,
                            title=f"contend: Mops/s vs threads, higher is better{mark}",
                            subtitle=sub, oversub=cpus, logy="auto")
        else:
            L += self._bars_one_count(doc, "contend", results, "ops_per_sec")
        top = threads[-1]
        extra = None
        if 2 in threads and top > 2:
            def keep(s):
                a, b = _mops(idx.get((s, top))), _mops(idx.get((s, 2)))
                return fmt.ratio(a / b) if a is not None and b else DASH
            extra = (f"{top} vs 2 threads", keep)
        L += ["Throughput, million ops/s (median of the runs):", ""]
        L += self._grid("subject", [(s, s) for s in order], threads, cpus,
                        lambda s, t: fmt.num(_mops(idx.get((s, t)))), extra)
        L += self._over_note(threads, cpus)
        L += self._subject_table(results, order)
        L += self._atomics_kinds(doc, order, threads, cpus, idx)
        L += self._relax_insns(order, threads, cpus, idx)
        L += self._attempts(doc, results, order, threads, cpus, idx)
        L += self._fallback(results, order, threads, cpus, idx)
        L += self._fairness(results, order, threads, cpus, idx)
        L += self._latency(results, order, threads, cpus, idx)
        L += self._all_figures(results, order)
        L += self._threads_summary(results, "ops_per_sec")
        L += self._flags(doc, results)
        return L

    def _subject_table(self, results, order):
        rows = []
        for s in order:
            desc = next((r.get("description") for r in results
                         if r["subject"] == s and isinstance(r.get("description"), str)), None)
            rows.append([f"`{s}`", desc or describe(s) or DASH])
        return ["The subjects:", ""] + fmt.table(["subject", "what it is"], rows) + [""]

    @staticmethod
    def _paired(a, b):
        """a's Mops/s over b's (side by side when the runs pair), formatted; a dash if unknown."""
        if _mops(a) is None or not _mops(b):
            return DASH
        return fmt.ratio(criteria.ratio(a, b)[0])

    def _atomics_kinds(self, doc, order, threads, cpus, idx, rows=None, first="subject"):
        """arm64: the _lse subjects' throughput over their _llsc twins', per thread count; the
        run-time choice against the kind it chose. ROWS [(key, label)] and IDX keyed by
        (key + suffix, threads) for lockref-sweep's limits; by default contend's subjects."""
        if rows is None:
            rows = [(b, b) for b in ATOMICS_BASES
                    if f"{b}_lse" in order and f"{b}_llsc" in order]
        if not rows:
            return []
        L = ["#### arm64: LSE vs exclusives", "",
             "Throughput with LSE atomics inlined over the same code with exclusives "
             "(LDXR/STXR) inlined, lse / llsc, each repetition's pair run side by side "
             "(above 1x: LSE is faster here):", ""]
        L += self._grid(first, rows, threads, cpus,
                        lambda k, t: self._paired(idx.get((f"{k}_lse", t)),
                                                  idx.get((f"{k}_llsc", t))))
        chose = doc.env.get("atomics")
        if chose in ATOMICS_KINDS and first == "subject":
            L += [f"The subjects without a suffix use the run-time choice (GCC's outline atomics: "
                  f"a call to a libgcc helper per atomic), which took **{chose}** on this machine; "
                  f"their throughput over the forced {chose} subject's is the price of that call:",
                  ""]
            L += self._grid(first, rows, threads, cpus,
                            lambda k, t: self._paired(idx.get((k, t)),
                                                      idx.get((f"{k}_{chose}", t))))
        return L

    def _relax_insns(self, order, threads, cpus, idx):
        """arm64: the relax subjects with ISB and with nothing, against cpu_relax (YIELD)."""
        rows = [(b, b) for b in RELAX_BASES
                if b in order and any(f"{b}_{i}" in order for i in RELAX_INSNS)]
        if not rows:
            return []

        def cell(b, t):
            return " / ".join(self._paired(idx.get((f"{b}_{i}", t)), idx.get((b, t)))
                              for i in RELAX_INSNS)
        L = ["#### Relax instruction", "",
             "Throughput with ISB / with no instruction where the subject spins with cpu_relax "
             "(YIELD on arm64), over the subject's own, side by side (1x: the instruction makes "
             "no difference):", ""]
        L += self._grid("subject", rows, threads, cpus, cell)
        return L

    def _attempts(self, doc, results, order, threads, cpus, idx):
        have = [s for s in order if any(_part(r, "attempts_per_success", "mean") is not None
                                        for r in results if r["subject"] == s)]
        rows = [s for s in order if s in have or s in LOOP_SUBJECTS]
        if not rows:
            return []
        L = ["#### cmpxchg attempts per success", ""]
        if have and len(threads) > 1:
            panels = []
            for key in ("mean", "p99"):
                series = []
                for s in have:
                    pts = [(t, _part(idx.get((s, t)), "attempts_per_success", key))
                           for t in threads]
                    pts = [(t, v) for t, v in pts if v is not None]
                    if pts:
                        series.append({"key": s, "label": s,
                                       "x": [p[0] for p in pts], "y": [p[1] for p in pts],
                                       "lo": [p[1] for p in pts], "hi": [p[1] for p in pts]})
                if series:
                    panels.append((key, series, f"attempts per success, {key} (1 = no retry)"))
            name = self._png(self._stem(doc), "contend", "attempts")
            L += self._plot(plots.plot_vs_threads, name, [], "attempts_per_success",
                            panels=panels, oversub=cpus, logy="auto", dodge=0.04,
                            title="contend: cmpxchg attempts per successful update vs threads"
                                  + (" (simulated)" if doc.simulated else ""),
                            subtitle=self._subtitle(doc, results)
                            + " \u00b7 points shifted sideways so that equal values stay visible")

        def cell(s, t):
            r = idx.get((s, t))
            vals = [_part(r, "attempts_per_success", k) for k in ("mean", "p50", "p99", "max")]
            if all(v is None for v in vals):
                return DASH
            return " / ".join([fmt.num(vals[0])] + [fmt.count(v) for v in vals[1:]])
        L += ["Each cell: mean / p50 / p99 / max attempts per successful update "
              f"({DASH} where the file has no figure: no cmpxchg loop, or not counted).", ""]
        L += self._grid("subject", [(s, s) for s in rows], threads, cpus, cell)
        return L

    def _fallback(self, results, order, threads, cpus, idx):
        rows = [s for s in order if s.startswith("lockref")
                or any(r.get("fallback_rate") is not None for r in results if r["subject"] == s)]
        if not rows:
            return []
        L = ["#### Fallback to the lock", "",
             "Share of operations that gave up the lockless path and took the lock "
             f"({DASH}: no figure in the file):", ""]
        L += self._grid("subject", [(s, s) for s in rows], threads, cpus,
                        lambda s, t: fmt.rate((idx.get((s, t)) or {}).get("fallback_rate")))
        return L

    def _fairness(self, results, order, threads, cpus, idx):
        if not any(r.get("fairness") is not None for r in results):
            return []
        L = ["#### Fairness", "",
             "Jain's index over the threads' op counts: 1 = every thread did the same work, "
             "1/N = one thread did it all.", ""]
        L += self._grid("subject", [(s, s) for s in order], threads, cpus,
                        lambda s, t: fmt.num((idx.get((s, t)) or {}).get("fairness")))
        multi = [r for r in results if r["threads"] > 1 and fmt.is_number(r.get("fairness"))]
        if multi:
            worst = min(multi, key=lambda r: r["fairness"])
            L += [f"Least fair: {worst['subject']} at {fmt.plural(worst['threads'], 'thread')} "
                  f"({fmt.num(worst['fairness'])}).", ""]
        return L

    def _latency(self, results, order, threads, cpus, idx):
        if not any(isinstance(r.get("latency_ns"), dict) for r in results):
            return ["#### Latency", "", "No latency figures in this file.", ""]

        def cell(s, t):
            r = idx.get((s, t))
            vals = [_part(r, "latency_ns", k) for k in ("p50", "p99", "p999")]
            if all(v is None for v in vals):
                return DASH
            return " / ".join(fmt.ns(v) for v in vals)
        L = ["#### Latency", "",
             "Time of one op (get + put) as each thread saw it; each cell: p50 / p99 / p99.9, "
             f"in ns unless marked ({DASH}: no figure in the file):", ""]
        L += self._grid("subject", [(s, s) for s in order], threads, cpus, cell)
        return L

    # -- lockref-sweep -----------------------------------------------------------
    @staticmethod
    def _sweep_points(results):
        """{threads: {limit or None: result}} for lockref (None = unbounded), and the rest."""
        pts, other = {}, []
        for r in results:
            lim = r.get("retry_limit")
            if r["subject"] == "lockref_unbounded" or (r["subject"] == "lockref" and not lim):
                key = None
            elif r["subject"] == "lockref":
                key = lim
            else:
                other.append(r)
                continue
            pts.setdefault(r["threads"], {}).setdefault(key, r)
        return pts, other

    @staticmethod
    def sweep_verdict(points):
        """For one thread count's {limit: result} (None = unbounded): the best
        limits (ties included), the limits within NEAR of the best, the slower
        ones, and the unbounded loop against the best bounded limit."""
        vals = {k: _mops(r) for k, r in points.items() if _mops(r) is not None}
        if not vals:
            return None
        tested = sorted(k for k in vals if k is not None) + ([None] if None in vals else [])
        top = max(vals.values())
        bounded = [k for k in tested if k is not None]
        v = {"best": [k for k in tested if vals[k] == top], "best_mops": top, "tested": tested,
             "near": [k for k in tested if vals[k] >= top * (1 - NEAR)],
             "unbounded": vals.get(None), "best_bounded": None, "unbounded_rel": None}
        v["slow"] = [k for k in tested if k not in v["near"]]
        if bounded:
            bb = max(bounded, key=lambda k: vals[k])
            v["best_bounded"] = bb
            if None in vals:
                v["unbounded_rel"] = vals[None] / vals[bb] - 1
        return v

    @staticmethod
    def _limit_name(k):
        return f"{INF} (unbounded)" if k is None else str(k)

    @staticmethod
    def _best_text(v):
        names = [INF if k is None else str(k) for k in v["best"]]
        if names == [INF]:
            who = "the unbounded loop"
        else:
            who = ("limit " if len(names) == 1 else "limits ") + _names(names)
        return f"{who} at {fmt.num(v['best_mops'])} Mops/s"

    @staticmethod
    def _unbounded_text(v):
        rel = v["unbounded_rel"]
        if rel is None:
            return DASH
        bb = v["best_bounded"]
        if rel < -NEAR:
            return f"loses: {fmt.pct(-rel)} below limit {bb}"
        if rel < 0:
            return f"{fmt.pct(-rel)} below limit {bb}, within {NEAR:.0%}"
        return f"{fmt.pct(rel)} above limit {bb}" if rel > 0 else f"equal to limit {bb}"

    def sweep_sentence(self, t, v):
        near = _limit_list(v["near"], v["tested"])
        verb = "is" if near.startswith("every") or len(v["near"]) == 1 else "are"
        s = (f"at {fmt.plural(t, 'thread')} {near} {verb} within {NEAR:.0%} of the best "
             f"({self._best_text(v)})")
        if v["slow"] and len(v["near"]) > 1:
            s += (f"; {_names(self._limit_name(k) for k in v['slow'])} "
                  f"{'is' if len(v['slow']) == 1 else 'are'} slower")
        rel = v["unbounded_rel"]
        if rel is not None:
            s += f"; the unbounded loop {'is ' if rel >= -NEAR else ''}{self._unbounded_text(v)}"
        return s

    def _sweep_atomics(self, doc, other, cpus):
        """arm64: lockref_lse over lockref_llsc at each retry limit and thread count."""
        idx = {}
        for r in other:
            base, _, kind = r["subject"].rpartition("_")
            if base == "lockref" and kind in ATOMICS_KINDS and r.get("retry_limit") is not None:
                idx.setdefault((f"{r['retry_limit']}_{kind}", r["threads"]), r)
        limits = sorted({int(k.split("_")[0]) for k, _ in idx})
        rows = [(str(k), str(k)) for k in limits
                if any((f"{k}_lse", t) in idx for _, t in idx) and
                any((f"{k}_llsc", t) in idx for _, t in idx)]
        threads = sorted({t for _, t in idx})
        return self._atomics_kinds(doc, [], threads, cpus, idx, rows=rows, first="retry limit")

    def lockref_sweep(self, doc, results):
        stem, sub = self._stem(doc), self._subtitle(doc, results)
        mark = " (simulated)" if doc.simulated else ""
        cpus = _cpus(doc)
        pts, other = self._sweep_points(results)
        threads = sorted(pts)
        limits = sorted({k for p in pts.values() for k in p if k is not None})
        if any(None in p for p in pts.values()):
            limits.append(None)
        L = ["lockref's get + put as in contend, with the lockless loop's retry limit varied "
             f"(the kernel's is {kernel.RETRY_LIMIT['default']}); `lockref_unbounded` retries "
             f"for ever ({INF}).", ""]
        if not pts:
            L += ["No lockref results with a retry limit in this file.", ""]
        if len(limits) > 1:
            series = []
            for t in threads:
                over = cpus and t > cpus
                ks = [k for k in limits if k in pts[t] and _mops(pts[t][k]) is not None]
                ys = [_mops(pts[t][k]) for k in ks]
                lo, hi = [], []
                for k, y in zip(ks, ys):
                    st = fmt.Stats(pts[t][k])
                    ok = st.metric == "ops_per_sec" and st.lo is not None
                    lo.append(st.lo * 1e-6 if ok else y)
                    hi.append(st.hi * 1e-6 if ok else y)
                label = fmt.plural(t, "thread") + (" (oversubscribed)" if over else "")
                series.append({"key": f"{t} threads", "label": label, "x": ks, "y": ys,
                               "lo": lo, "hi": hi, "linestyle": "--" if over else "-"})
            L += self._plot(plots.plot_vs_limit, self._png(stem, "lockref-sweep", "limit"), series,
                            title=f"lockref-sweep: Mops/s vs retry limit, higher is better{mark}",
                            ylabel=fmt.metric_axis("ops_per_sec"), subtitle=sub, logy="auto")
        if pts:
            verdicts = {t: self.sweep_verdict(pts[t]) for t in threads}

            def cell(k, t):
                r = pts[t].get(k)
                text = fmt.num(_mops(r))
                v = verdicts[t]
                return f"**{text}**" if v and k in v["best"] and r is not None else text
            rows = [(k, self._limit_name(k)) for k in limits]
            L += ["Throughput by retry limit, million ops/s (best of each column in bold):", ""]
            L += self._grid("retry limit", rows, threads, cpus, cell)
            L += self._over_note(threads, cpus)

            def att(k, t):
                r = pts[t].get(k)
                m = _part(r, "attempts_per_success", "mean")
                p99 = _part(r, "attempts_per_success", "p99")
                if m is None and p99 is None:
                    return DASH
                return f"{fmt.num(m)} / {fmt.count(p99)}"
            L += ["cmpxchg attempts per success, mean / p99:", ""]
            L += self._grid("retry limit", rows, threads, cpus, att)
            L += ["Fallback to the lock (share of operations):", ""]
            L += self._grid("retry limit", rows, threads, cpus,
                            lambda k, t: fmt.rate((pts[t].get(k) or {}).get("fallback_rate")))
            rows = []
            for t in threads:
                v = verdicts[t]
                if not v or len(v["tested"]) < 2:
                    continue
                rows.append([str(t) + (f" {DAGGER}" if cpus and t > cpus else ""),
                             self._best_text(v), _limit_list(v["near"], v["tested"]),
                             _names(self._limit_name(k) for k in v["slow"]) or "none",
                             self._unbounded_text(v)])
            if rows:
                L += [f"Which limits are as good as the best (within {NEAR:.0%} of its Mops/s):",
                      ""]
                L += fmt.table(["threads", "best", f"within {NEAR:.0%} of the best", "slower",
                                "unbounded loop vs best limit"], rows, "rllll") + [""]
            rl = kernel.RETRY_LIMIT
            L += [f"For comparison, the 2019 kernel thread that set the limit found limits "
                  f"{'/'.join(str(x) for x in rl['tested'])} \"{rl['verdict']}\" on "
                  f"{rl['machine']}, and the limit gave {rl['gain']}.", ""]
        L += self._sweep_atomics(doc, other, cpus)
        if other:
            names = _names(sorted({r["subject"] for r in other}))
            L += [f"Other subjects in this scenario ({names}) are in the table below.", ""]
        L += self._all_figures(results, _order(results, ("lockref", "lockref_unbounded")))
        L += self._flags(doc, results)
        return L

    # -- openclose ---------------------------------------------------------------
    def openclose(self, doc, results):
        stem, sub = self._stem(doc), self._subtitle(doc, results)
        mark = " (simulated)" if doc.simulated else ""
        cpus = _cpus(doc)
        ns = sorted({r["threads"] for r in results})
        order = _order(results, ("threads", "processes"))
        idx = _index(results)
        if doc.simulated:
            L = ["*Simulated: hotline-sim's model of open/close, not a kernel.*", ""]
        else:
            rel = kernel_release(doc.env.get("kernel")) or "version not recorded"
            L = [f"**This measures this machine's kernel ({rel}), not hotline.** Each op is an "
                 "open, a read and a close of one shared file by N threads of one process or N "
                 "processes; the references taken and dropped on the way (the dentry's lockref, "
                 "the file's reference count) are the host kernel's own, and no hotline code "
                 "runs. It shows how that kernel's lockref and refcount paths hold up on this "
                 "machine: a yardstick for the contend figures, not a result of hotline.", ""]
        texts = []
        for s in order:
            m = next((r["measures"] for r in results if r["subject"] == s
                      and isinstance(r.get("measures"), str) and r["measures"]), None)
            if m and m not in [x[1] for x in texts]:
                texts.append((s, m))
        if len(texts) == 1:
            L += [f"The bench says it measures: {texts[0][1]}.", ""]
        elif texts:
            L += ["The bench says it measures:", ""] + [f"- {s}: {m}" for s, m in texts] + [""]
        if len(ns) > 1:
            L += self._plot(plots.plot_vs_threads, self._png(stem, "openclose", "ops_per_sec"),
                            results, "ops_per_sec", xlabel="N (threads, or processes)",
                            ylabel="open + read + close per second, all together (millions)",
                            title=f"openclose: the host kernel's open/close, threads vs processes"
                                  f"{mark}", subtitle=sub, oversub=cpus)
        else:
            L += self._bars_one_count(doc, "openclose", results, "ops_per_sec")
        headers = ["N"] + [f"{s} (ops/s)" for s in order]
        both = "threads" in order and "processes" in order
        if both:
            headers.append("processes / threads")
        rows = []
        for n in ns:
            row = [str(n) + (f" {DAGGER}" if cpus and n > cpus else "")]
            row += [fmt.num((idx.get((s, n)) or {}).get("ops_per_sec")) for s in order]
            if both:
                p, t = _mops(idx.get(("processes", n))), _mops(idx.get(("threads", n)))
                row.append(fmt.ratio(p / t) if p is not None and t else DASH)
            rows.append(row)
        L += fmt.table(headers, rows, "r" * len(headers)) + [""]
        L += self._over_note(ns, cpus, "threads or processes",
                             "so they wait for a CPU as well as for the kernel's locks")
        o = kernel.OPEN3_CPU_RELAX
        L += [f"For scale: on a {o['machine']}, {o['what']} took {o['test']} from "
              f"{o['before']:,} to {o['after']:,} ops/s ({o['text']}).", ""]
        L += self._all_figures(results, order)
        L += self._flags(doc, results)
        return L

    # -- what this machine says ----------------------------------------------------
    def contention_paragraphs(self, doc):
        """This file's contention paragraphs of "What this machine says": lists of sentences."""
        con = [r for r in doc.results if r["scenario"] == "contend"]
        swp = [r for r in doc.results if r["scenario"] == "lockref-sweep"]
        opc = [r for r in doc.results if r["scenario"] == "openclose"]
        return [self.contend_sentences(doc, con) if con else [], self._sweep_sentences(swp),
                self._history_sentences(doc, con), self._openclose_sentences(doc, opc)]

    def contend_sentences(self, doc, results):
        idx = _index(results)
        cpus = _cpus(doc)
        threads = sorted({r["threads"] for r in results})
        multi = [t for t in threads if t > 1]
        if not multi:
            return []
        base = 2 if 2 in threads else multi[0]
        top = threads[-1]
        where = "In this simulation" if doc.simulated else "On this machine"
        S = []
        at = sorted((r for r in results if r["threads"] == base and _mops(r) is not None),
                    key=_mops, reverse=True)
        if at:
            w = at[0]
            s = (f"{where}, at {fmt.plural(base, 'thread')} {w['subject']} is fastest with "
                 f"{fmt.num(_mops(w))} Mops/s")
            if len(at) > 1:
                s += f", ahead of {at[1]['subject']} ({fmt.num(_mops(at[1]))})"
                s += f"; {at[-1]['subject']} is slowest ({fmt.num(_mops(at[-1]))})"
            S.append(s + ".")

        def m(s, t):
            return _mops(idx.get((s, t)))
        ratios = []
        paired = 0
        for a, b in (("refcount", "atomic_faa"), ("lockref", "cas_loop")):
            ra, rb = idx.get((a, base)), idx.get((b, base))
            if _mops(ra) is not None and _mops(rb):
                v, n = criteria.ratio(ra, rb)
                paired = paired or n
                ratios.append(f"{a} reaches {fmt.ratio(v)} {b}'s throughput")
        if ratios:
            how = (f" (medians of {paired} side-by-side repetitions)" if paired else "")
            S.append(f"At {fmt.plural(base, 'thread')}, " + " and ".join(ratios) + how + ".")
        kinds = [(b, self._paired(idx.get((f"{b}_lse", base)), idx.get((f"{b}_llsc", base))))
                 for b in ATOMICS_BASES]
        kinds = [(b, v) for b, v in kinds if v != DASH]
        if kinds:
            S.append(f"With LSE atomics inlined, at {fmt.plural(base, 'thread')} "
                     + _names(f"{b} runs at {v}" for b, v in kinds)
                     + " its throughput with exclusives (LDXR/STXR).")
        if top > base:
            keep = {}
            for s in _order(results):
                a, b = m(s, top), m(s, base)
                if a is not None and b:
                    keep[s] = a / b
            over = bool(cpus and top > cpus)
            when = (f"Oversubscribed ({top} threads on {fmt.plural(cpus, 'CPU')})" if over
                    else f"At {top} threads")
            gone = [s for s, k in keep.items() if k < COLLAPSE]
            if len(gone) == 1:
                S.append(f"{when}, {gone[0]} collapses to {fmt.ratio(keep[gone[0]])} its "
                         f"{base}-thread throughput (below {COLLAPSE:g}x).")
            elif gone:
                S.append(f"{when}, {_names(f'{s} ({fmt.ratio(keep[s])})' for s in gone)} collapse "
                         f"to below {COLLAPSE:g}x their {base}-thread throughput.")
            elif keep:
                low = min(keep, key=keep.get)
                S.append(f"{when}, no subject collapses: each keeps at least {COLLAPSE:g}x its "
                         f"{base}-thread throughput (lowest: {low}, {fmt.ratio(keep[low])}).")
            q_top, q_base, mu = m("qspinlock", top), m("qspinlock", base), m("pthread_mutex", top)
            if q_top is not None and q_base:
                s = (f"qspinlock at {top} threads runs at {fmt.num(q_top)} Mops/s, "
                     f"{fmt.ratio(q_top / q_base)} its {base}-thread figure")
                if mu:
                    s += f" and {fmt.ratio(q_top / mu)} pthread_mutex ({fmt.num(mu)})"
                S.append(s + ".")
            if "ticket" in keep:
                g = kernel.TICKET_GRAVITON2
                k = keep["ticket"]
                if k < COLLAPSE:
                    S.append("The ticket lock is the expected casualty: it hands the lock to the "
                             "next waiter in line even when that waiter is not running, and "
                             "everyone behind it spins"
                             + (" (with more threads than CPUs, that is the rule)" if over else "")
                             + f"; even without oversubscription, ticket locks on {g['machine']} "
                             f"took {g['text']}.")
                else:
                    S.append(f"The ticket lock holds at {fmt.ratio(k)} its {base}-thread figure "
                             f"(on {g['machine']} ticket locks took {g['text']}).")
        return S

    def _sweep_sentences(self, results):
        pts, _ = self._sweep_points(results)
        multi = [t for t in sorted(pts) if t > 1]
        if not multi:
            return []
        top = multi[-1]
        v = self.sweep_verdict(pts[top])
        if not v or len(v["tested"]) < 2:
            return []
        S = ["In lockref-sweep, " + self.sweep_sentence(top, v) + "."]
        base = 2 if 2 in multi else multi[0]
        vb = self.sweep_verdict(pts[base]) if base != top else None
        if vb and len(vb["tested"]) > 1:
            if vb["near"] == v["near"]:
                S.append(f"At {fmt.plural(base, 'thread')} the same limits are within {NEAR:.0%} "
                         f"of the best ({self._best_text(vb)}).")
            else:
                S.append("A" + self.sweep_sentence(base, vb)[1:] + ".")
        rl = kernel.RETRY_LIMIT
        k = [x for x in rl["tested"] if x <= rl["default"] and x in v["tested"]]
        if k:
            out = [x for x in k if x not in v["near"]]
            s = (f"The 2019 kernel thread found limits {'/'.join(map(str, rl['tested']))} "
                 f"\"{rl['verdict']}\" on {rl['machine']}; on this machine, at "
                 f"{fmt.plural(top, 'thread')}, ")
            if not out:
                who = {1: f"{k[0]} is", 2: f"{k[0]} and {k[1]} are both"}.get(
                    len(k), f"{_names(map(str, k))} are all")
                s += f"{who} within {NEAR:.0%} of the best too."
            else:
                s += (f"{_names(map(str, out))} {'is' if len(out) == 1 else 'are'} not within "
                      f"{NEAR:.0%} of the best, unlike there.")
            S.append(s)
        return S

    def _history_sentences(self, doc, results):
        if not results:
            return []
        idx = _index(results)
        S = []
        mk = kernel.MACHINE_KIND
        t = mk["threads"]
        fa, cl = _mops(idx.get(("atomic_faa", t))), _mops(idx.get(("cas_loop", t)))
        # docs/sources.md's figures are for an x86-64 machine kind: no yardstick for arm64 or
        # a model
        if not doc.simulated and not kernel.is_arm(doc.env.get("arch")) and \
                (fa is not None or cl is not None):
            n = mk["rmw_per_op"]
            s = (f"For this project's machine kind ({mk['what']}), docs/sources.md has, per atomic "
                 f"at {t} threads, lock xadd at about {mk['xadd_mops']} Mops/s and a cmpxchg loop "
                 f"at about {mk['cas_mops']} ({fmt.ratio(mk['cas_mops'] / mk['xadd_mops'])}), "
                 f"{mk['cas_attempts']} attempts per success. Here, with {n} atomics per op")
            here = []
            if fa is not None:
                here.append(f"atomic_faa makes {fmt.num(fa * n)} M atomics/s")
            if cl is not None:
                c = f"cas_loop {fmt.num(cl * n)} M/s"
                if fa:
                    c += f" ({fmt.ratio(cl / fa)})"
                a = _part(idx.get(("cas_loop", t)), "attempts_per_success", "mean")
                if a is not None:
                    c += f" with {fmt.num(a)} attempts per success"
                here.append(c)
            S.append(s + ", " + " and ".join(here) + ".")
        att = [(r, _part(r, "attempts_per_success", "mean")) for r in results]
        att = [(r, a) for r, a in att if a is not None and r["threads"] > 1]
        if att:
            r, a = max(att, key=lambda p: p[1])
            ks = kernel.LOCKREF_ATTEMPTS
            S.append("On big machines the kernel threads counted " + " and ".join(
                f"{k['text']} attempts per success on {k['machine']}" for k in ks)
                + f"; here the mean peaks at {fmt.num(a)} ({r['subject']}, "
                f"{fmt.plural(r['threads'], 'thread')}).")
        return S

    def _openclose_sentences(self, doc, results):
        if not results:
            return []
        idx = _index(results)
        ns = sorted({r["threads"] for r in results})
        if len(ns) < 2:
            return []
        lo, hi = ns[0], ns[-1]
        parts = []
        for s in _order(results, ("threads", "processes")):
            a, b = _mops(idx.get((s, lo))), _mops(idx.get((s, hi)))
            if a is not None and b is not None:
                parts.append(f"{s} {fmt.num(a)} \u2192 {fmt.num(b)} Mops/s")
        if not parts:
            return []
        who = ("as modelled" if doc.simulated else
               f"the host kernel's own lockref and refcount paths, "
               f"{kernel_release(doc.env.get('kernel')) or 'version not recorded'}")
        return [f"open/close ({who}), from N={lo} to N={hi}: " + "; ".join(parts) + "."]
