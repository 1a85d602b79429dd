"""The section of a scenario this version does not know: a plain table of its results.

  render(ctx, doc, results)  one row per result (subject, threads, size, headline
                 median, min-max, spread, runs), so a newer bench still yields a report

report.py gives it every scenario its registry lacks (and for which it has
no better section); it reads nothing but the results' common fields.
"""

from . import VERSION, common, fmt
from .fmt import DASH, EN


def render(ctx, doc, results):
    scen = results[0]["scenario"] if results else "?"
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
    L += common.flags(doc, results)
    return L
