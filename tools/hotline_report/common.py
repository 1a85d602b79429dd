"""Helpers every section shares: tables, warnings, plot subtitles, lists in words.

  text(v)                a JSON value as table text (a dash for none)
  names(items)           "a, b and c"
  index(results)         {(subject, threads): result}
  mops(r), part(r, name, key), paired(a, b)   a result's figures
  cpus(doc), kernel_release(text)             a file's machine
  subtitle(doc, results) the plots' subtitle: CPU, runs, quick, simulated
  flags(doc, results)    quick-mode and large-spread warnings
  grid(...)              a subject x threads table (oversubscribed counts marked)
  over_note(...)         the note under it
  figures_table(...)     every figure of the results, one row per result
  all_figures(...)       the same, under its caption, in a subject order
  threads_summary(...)   who leads and who is last at the largest thread count
  bars_one_count(...)    a bar chart when every result has one thread count
  threads_view(...)      what a section with a threads dimension starts from

None of them knows a subject by name: subject orders come from the caller
(facts.py), and a row is a result.
"""

import json
from types import SimpleNamespace

from . import criteria, fmt, plots
from .fmt import DASH, EN
from .load import is_int

DAGGER = "\u2020"


def text(v):
    if v is None or v == "":
        return DASH
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"))
    return str(v)


def names(items):
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def index(results):
    """{(subject, threads): result}; the first result of a pair wins."""
    idx = {}
    for r in results:
        idx.setdefault((r["subject"], r["threads"]), r)
    return idx


def mops(r):
    return fmt.metric_value(r, "ops_per_sec") if r else None


def part(r, name, key):
    """r[name][key] (an extras object), or None."""
    obj = r.get(name) if r else None
    if isinstance(obj, dict):
        return obj.get(key)
    if name == "attempts_per_success" and key == "mean":
        return obj  # a bare number is the mean
    return None


def paired(a, b):
    """a's Mops/s over b's (side by side when the runs pair), formatted; a dash if unknown."""
    if mops(a) is None or not mops(b):
        return DASH
    return fmt.ratio(criteria.ratio(a, b)[0])


def cpus(doc):
    c = doc.env.get("cpus")
    return c if is_int(c) and c >= 1 else None


def kernel_release(text):
    """'6.1.0-40-cloud-amd64 #1 SMP ...' or 'Linux 6.1.0-40' -> 'Linux 6.1.0-40...'."""
    words = str(text or "").split()
    if words and words[0].lower() == "linux":
        words = words[1:]
    return f"Linux {words[0]}" if words else None


def common_headline(results):
    heads = [r["headline"] for r in results]
    return max(set(heads), key=heads.count) if heads else "ns_per_op"


def subtitle(doc, results):
    env = doc.env
    parts = [str(env.get("cpu") or env.get("preset") or "unknown CPU")]
    runs = sorted({len(r["runs"]) for r in results})
    if runs == [1]:
        parts.append("one run each, no median")
    elif runs:
        parts.append("median of " + "/".join(str(n) for n in runs) + " runs")
    if doc.quick:
        parts.append("QUICK MODE: indicative only")
    if doc.simulated:
        parts.append("SIMULATED")
    return " \u00b7 ".join(parts)


def flags(doc, results):
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


# -- subject x threads tables ----------------------------------------------------------------

def thread_cols(threads, ncpus, word="thread"):
    return [fmt.plural(t, word) + (f" {DAGGER}" if ncpus and t > ncpus else "") for t in threads]


def over_note(threads, ncpus, word="threads",
              why="so threads wait for a CPU as well as for the cache line"):
    if ncpus and any(t > ncpus for t in threads):
        return [f"{DAGGER} more {word} than this machine's {fmt.plural(ncpus, 'CPU')}: "
                f"oversubscribed, {why}.", ""]
    return []


def grid(first, rows, threads, ncpus, cell, extra=None):
    """A subject x threads table: ROWS [(key, label)], CELL(key, t) -> text; EXTRA (header,
    fn(key) -> text) a last column."""
    headers = [first] + thread_cols(threads, ncpus)
    body = []
    for key, label in rows:
        line = [label] + [cell(key, t) for t in threads]
        if extra:
            line.append(extra[1](key))
        body.append(line)
    if extra:
        headers.append(extra[0])
    return fmt.table(headers, body, "l" + "r" * (len(headers) - 1)) + [""]


# -- every figure, one row per result ------------------------------------------------------------

def columns(results, xdims):
    """Table columns present in RESULTS: (header, align, fn(r) -> text)."""
    head = common_headline(results)
    cols = [("subject", "l", lambda r: r["subject"])]
    if any(r.get("retry_limit") is not None for r in results):
        cols.append(("retry limit", "r", lambda r: text(r.get("retry_limit"))))
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


def figures_table(results, xdims, sort_key):
    cols = columns(results, xdims)
    rows = [[fn(r) for _, _, fn in cols] for r in sorted(results, key=sort_key)]
    return fmt.table([c[0] for c in cols], rows, "".join(c[1] for c in cols)) + [""]


def all_figures(results, order):
    """"All figures, one row per result", subjects in ORDER."""
    L = ["All figures, one row per result:", ""]
    L += figures_table(results, ["threads", "size"],
                       lambda r: (order.index(r["subject"]), r.get("retry_limit") or 0,
                                  r["threads"], r.get("size") or 0))
    return L


def threads_summary(results, metric):
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
    s = (f"At {fmt.plural(top, 'thread')}, {name(best)} leads with {fmt.num(bv)} {unit}; "
         f"{name(worst)} is last with {fmt.num(wv)} {unit}")
    if bv and wv:
        factor = bv / wv if higher_better else wv / bv
        s += f" ({fmt.num(factor)}x {'slower' if higher_better else 'dearer'})"
    return [s + ".", ""]


def bars_one_count(ctx, doc, scen, results, metric):
    """A bar chart of METRIC when every result has the same thread count."""
    stem, sub = ctx.stem(doc), subtitle(doc, results)
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
    return ctx.plot(plots.bar_chart, ctx.png(stem, scen, metric), bars,
                    title=f"{scen}: {fmt.metric_label(metric)} at {fmt.plural(t, 'thread')}"
                          f"{mark}",
                    ylabel=fmt.metric_axis(metric), subtitle=sub,
                    bar_legend=f"median; error bar: min{EN}max over the runs")


def subject_table(facts, results, order, caption=None):
    """What each subject of ORDER is: a result's own "description", else its fact; [] when
    none is known (an older file)."""
    rows = []
    for s in order:
        desc = next((r.get("description") for r in results
                     if r["subject"] == s and isinstance(r.get("description"), str)), None)
        rows.append([f"`{s}`", desc or facts.description(s) or DASH])
    if all(row[1] == DASH for row in rows):
        return []
    head = [caption, ""] if caption else []
    return head + fmt.table(["subject", "what it is"], rows, "ll") + [""]


def threads_view(ctx, doc, scenario, results):
    """What a section whose results have a threads dimension starts from: the scenario's
    facts, the plots' stem and subtitle, the title mark of a simulation, the machine's CPUs,
    the thread counts, the subjects in the facts' order and the results by (subject,
    threads)."""
    facts = ctx.facts(doc, scenario)
    return SimpleNamespace(
        facts=facts, stem=ctx.stem(doc), sub=subtitle(doc, results),
        mark=" (simulated)" if doc.simulated else "", cpus=cpus(doc),
        threads=sorted({r["threads"] for r in results}), order=facts.order(results),
        idx=index(results))
