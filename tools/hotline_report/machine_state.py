"""The machine's state in the report: runs that shared the machine, latency at the timer's step.

hotline-bench records, per result, "machine_state" (bench/README.md): the
share of the machine other processes and the hypervisor took while the
result's repetitions ran (others_busy_fraction), how far that share can be
off from /proc/stat's ticks alone (others_busy_resolution), and the
1-minute load average before and after; and "timer_resolution_ns".

A shared run.  A result is said to have shared the machine when

    others_busy_fraction - others_busy_resolution > SHARED_MARGIN (0.1)

that is, when even the lowest share the ticks allow is more than a tenth of
the machine (on 2 CPUs: a fifth of a CPU taken by other work, throughout).
The margin is there because the fraction has other small errors the
resolution does not count (the bench's own threads starting and ending
inside an interval, the kernel's housekeeping): below it, the figure is not
clearly more than noise.  A --quick zero sample of a few ms has a
resolution of 1 and is never flagged: its fraction says nothing.
shared_line(results) is a file's line saying so (how many, the rule, the
largest share with its resolution and the load average), scenario_line(results)
a scenario section's, naming its shared results, and shared_notes a summary
row's note; [] when no result is shared
or the results carry no machine_state (an older bench).

Latency at the timer's resolution.  contend's latency_ns percentiles are
read with the cycle counter, whose step is latency_resolution_ns (else the
run's timer_resolution_ns).  A percentile at most AT_RESOLUTION (2) times
that step (1% of slack: the step and the figures are converted from ticks
at slightly different rates) is the clock's step, not a measurement of the
operation: it is shown as "<= 2 x step" with a note under the table.  Only
for results of a bench that records timer_resolution_ns (older files: the
figures as they are).
"""

from . import fmt
from .load import is_number

SHARED_MARGIN = 0.1
AT_RESOLUTION = 2.0
SLACK = 1.01        # a figure of exactly 2 ticks, converted at the runs' rate, may be a hair over


def _state(r):
    ms = r.get("machine_state")
    return ms if isinstance(ms, dict) else None


def shared_by(r):
    """(fraction, resolution) of result R when it shared the machine, else None."""
    ms = _state(r)
    if ms is None:
        return None
    f, res = ms.get("others_busy_fraction"), ms.get("others_busy_resolution")
    if not is_number(f) or not is_number(res):
        return None
    return (f, res) if round(f - res, 9) > SHARED_MARGIN else None   # 0.14 - 0.04: not


def _load(ms):
    la = ms.get("loadavg")
    if not isinstance(la, dict):
        return None
    a, b = la.get("start"), la.get("end")
    if not is_number(a) or not is_number(b):
        return None
    return f"{a:.2f} \u2192 {b:.2f}"


def _name(r, scenario=True):
    t = r.get("threads")
    what = r["subject"]
    if r.get("retry_limit") is not None and r["scenario"] == "lockref-sweep":
        what += f" (retry limit {r['retry_limit']})"
    if r.get("size") is not None and r["scenario"] in ("zero", "copy"):
        what += f" at {fmt.size(r['size'])}" + (f" {r['mode']}" if r.get("mode") else "")
    if isinstance(t, int) and t > 1:
        what += f", {t} threads"
    return f"{r['scenario']} {what}" if scenario else what


def _share(r):
    f, res = shared_by(r)
    ms = _state(r)
    cpus = ms.get("cpus")
    of = f" of {fmt.plural(cpus, 'CPU')}" if isinstance(cpus, int) else ""
    load = _load(ms)
    return f"{f:.0%} \u00b1 {res:.0%}{of}" + (f", load average {load}" if load else "")


def _hits(results):
    return [r for r in results if shared_by(r)]


def _measured(results):
    return sum(1 for r in results
               if _state(r) and is_number(_state(r).get("others_busy_fraction")))


def shared_line(results):
    """A file's line when results of RESULTS shared the machine, else []: how many, where, the
    rule, and the most taken."""
    hits = _hits(results)
    if not hits:
        return []
    worst = max(hits, key=lambda r: shared_by(r)[0] - shared_by(r)[1])
    scens = ", ".join(dict.fromkeys(r["scenario"] for r in hits))
    return [f"**Shared machine:** {len(hits)} of {_measured(results)} results (in {scens}) ran "
            "while other processes and the hypervisor took a clear share of the machine "
            f"(others_busy_fraction more than {SHARED_MARGIN:g} above its resolution); the "
            f"most: {_share(worst)}, during {_name(worst)}. Their figures may be lower and "
            "noisier than this machine's own.", ""]


def scenario_line(results, most=3):
    """A scenario section's line naming its results that shared the machine, else []."""
    hits = sorted(_hits(results), key=lambda r: shared_by(r)[1] - shared_by(r)[0])
    if not hits:
        return []
    named = "; ".join(f"{_name(r, False)} ({_share(r)})" for r in hits[:most])
    more = f"; and {len(hits) - most} more" if len(hits) > most else ""
    return [f"**Shared machine** during {len(hits)} of {_measured(results)} results here, "
            f"taken by other work: {named}{more}.", ""]


def shared_notes(results):
    """A summary row's note when one of the RESULTS it compares shared the machine, else []."""
    hits = _hits(results)
    if not hits:
        return []
    worst = max(hits, key=lambda r: shared_by(r)[0] - shared_by(r)[1])
    f, res = shared_by(worst)
    return [f"shared machine: others took {f:.0%} \u00b1 {res:.0%}"]


# -- latency ---------------------------------------------------------------------------------

def latency_step(r):
    """The step of result R's latency clock, in ns, when R comes from a bench that records
    timer_resolution_ns; else None (nothing is said)."""
    if r is None or not is_number(r.get("timer_resolution_ns")):
        return None
    step = r.get("latency_resolution_ns")
    if not is_number(step) or step <= 0:
        step = r["timer_resolution_ns"]
    return step if step > 0 else None


def latency_cell(r, v):
    """Latency figure V (ns) of result R: "<= 2 x step" when at the clock's resolution, else
    the figure (fmt.ns)."""
    step = latency_step(r)
    if step is not None and is_number(v) and v <= AT_RESOLUTION * step * SLACK:
        return f"\u2264 {fmt.ns(AT_RESOLUTION * step)}"
    return fmt.ns(v)


def latency_note(results):
    """The note under a latency table when one of its figures is at the resolution."""
    steps = set()
    for r in results:
        step = latency_step(r)
        lat = r.get("latency_ns")
        if step is None or not isinstance(lat, dict):
            continue
        if any(is_number(lat.get(k)) and lat[k] <= AT_RESOLUTION * step * SLACK
               for k in ("p50", "p99", "p999")):
            steps.add(step)
    if not steps:
        return []
    st = ", ".join(f"{s:.3g} ns" for s in sorted(steps))
    return [f"\u2264 N: at the timer's resolution. The cycle counter read back to back moves in "
            f"steps of {st} here (latency_resolution_ns), and a figure within "
            f"{AT_RESOLUTION:g} steps is that step, not the operation's time: the operation "
            "takes at most about N, and how much less this clock cannot say.", ""]
