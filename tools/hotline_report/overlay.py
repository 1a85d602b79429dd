"""The "Files compared" section: scenarios with a threads dimension found in several files.

  render(ctx, scenarios)  for each of SCENARIOS (report.py: the registry's sections
                 with a threads dimension) measured in more than one file, one plot of
                 Mops/s vs threads: one colour per subject, one line style per file

Simulated files are left out: the many-core section draws them (manycore.py),
and an overlay would mix a sim op, one update, with a bench op, a get and a
put, on one axis.
"""

from . import manycore, plots

LINESTYLES = ("-", "--", ":", "-.")
STYLE_NAMES = ("solid", "dashed", "dotted", "dash-dot")


def render(ctx, scenarios):
    L = []
    drawn = {id(d) for d in manycore.docs(ctx)}  # in the many-core section instead
    for scen in scenarios:
        have = [d for d in ctx.docs if id(d) not in drawn
                and any(r["scenario"] == scen for r in d.results)]
        if len(have) < 2:
            continue
        series = []
        for i, d in enumerate(have):
            rs = [r for r in d.results if r["scenario"] == scen]
            tag = f" \u2014 {d.stem}" + (" (simulated)" if d.simulated else "")
            series += plots.series_vs(rs, "threads", "ops_per_sec", suffix=tag,
                                      linestyle=LINESTYLES[i % len(LINESTYLES)])
        if len({x for s in series for x in s["x"]}) < 2:
            continue
        if not L:
            L += ["## Files compared", "",
                  "Scenarios found in several files, drawn together: one colour per "
                  "subject, one line style per file.", ""]
        L += [f"### {scen}", ""]
        name = ctx.png("overlay", scen)
        legend = " \u00b7 ".join(
            f"{STYLE_NAMES[i % len(STYLE_NAMES)]}: {d.stem}"
            f"{' (simulated)' if d.simulated else ''}" for i, d in enumerate(have))
        L += ctx.plot(plots.plot_vs_threads, name, [], "ops_per_sec",
                      title=f"{scen}: Mops/s vs threads, files compared",
                      subtitle=legend, series=series, logy="auto")
    return L
