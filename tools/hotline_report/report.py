"""The Markdown report: report.md, the answer (brief.py), and appendix.md, the rest.

appendix.md holds what report.md held before it became a brief answer, under a line linking
back to report.md: one section per input file, one subsection per scenario,
each opened by an explicit anchor (<a id="STEM-SCENARIO">, anchor()) that
report.md's short sections link to.

SECTIONS is the registry {scenario: Section}: a title and a render function
render(ctx, doc, results) -> Markdown lines (context.py); a scenario not in it
gets generic.render, a plain table, so a newer bench still yields a report.

  refcount-timing   refcount_timing.py (bar chart, table, the kernel's ratios)
  contend           contend.py (throughput, attempts, fallback, fairness, latency)
  lockref-sweep     lockref_sweep.py (throughput, attempts, fallback by retry limit)
  openclose         openclose.py (the host kernel's open/close, threads and processes)
  zero              zeroing.py (GB/s vs size, ratios, crossovers, dd)
  copy              copying.py (GB/s vs size, against memcpy and the system calls)
  anything else     generic.py

Each file's section ends with "What this machine says" (when it has a
scenario whose section has paragraphs): the paragraphs of SAYS in order, then
the done criteria of CHECKS (criteria.py), met or not.  A file without a
"subjects" object (an older hotline-bench) says so in one line.

Several files: their sections follow one another; hotline-sim files are
marked as simulated.  Then "Many-core machines (simulated)" (manycore.py),
then "Machines compared" (machines.py: measured files from several machines, the
summary's contention ratios vs threads, the machines on one plot), then "Files compared"
(overlay.py): the scenarios whose section has a
threads dimension, found in more than one measured file.

write() is all or nothing: every file (report.md, appendix.md, the PNGs) goes
first into a staging directory inside OUTDIR, and is renamed into place only
when all are written, so a full or unwritable output leaves OUTDIR as it was
(WriteError names the file).  It returns Written: (report path, PNG names) as
it always has, with .appendix, the appendix's path.
"""

import os
import shutil
import tempfile
from collections import namedtuple

from . import (VERSION, brief, common, contend, criteria, fmt, generic, lockref_sweep,
               machine_state, machines, manycore, openclose, overlay, refcount_timing, zeroing,
               copying)
from .context import Context, WriteError, why
from .documents import APPENDIX, REPORT, anchor, files_table
from .facts import OLDER_FILE, has_facts
from .fmt import DASH

__all__ = ["SECTIONS", "Section", "WriteError", "Written", "section_for", "write"]


# A scenario's section: its title (None: none), render(ctx, doc, results) -> lines, whether
# its results have a threads dimension (drawn across files in "Files compared"), and whether
# "What this machine says" has something to say about it.
Section = namedtuple("Section", "title render threads says", defaults=(False, False))

SECTIONS = {
    "refcount-timing": Section(refcount_timing.TITLE, refcount_timing.render),
    "contend": Section(contend.TITLE, contend.render, threads=True, says=True),
    "lockref-sweep": Section(lockref_sweep.TITLE, lockref_sweep.render, threads=True, says=True),
    "zero": Section(zeroing.TITLE, zeroing.render, says=True),
    "copy": Section(copying.TITLE, copying.render, says=True),
    "openclose": Section(openclose.TITLE, openclose.render, threads=True, says=True),
}

GENERIC = Section(None, generic.render)

# "What this machine says", in order: fn(ctx, doc) -> paragraphs (lists of sentences).
SAYS = (contend.lead_paragraph, lockref_sweep.paragraph, contend.history_paragraph,
        openclose.paragraph, zeroing.paragraphs, copying.paragraphs)

# The done criteria, in order: fn(ctx, doc) -> checks (criteria.Check, criteria.SizeCheck).
CHECKS = (contend.checks, zeroing.checks, copying.checks)


def section_for(scenario):
    """The registered section of SCENARIO, else the generic one."""
    return SECTIONS.get(scenario, GENERIC)


# CPU flags worth naming first (the ones hotline's variants depend on).
KEY_FLAGS = ("erms", "fsrm", "fsrs", "rep_good", "avx2", "avx512f", "lse", "atomics",
             "mops", "constant_tsc", "nonstop_tsc")


def _flags_text(flags):
    if flags is None:
        return DASH
    if not isinstance(flags, list):
        return common.text(flags)
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
    return common.text(p)


def _mode_text(cfg):
    if not cfg:
        return "not recorded"
    quick = cfg.get("quick")
    parts = ["quick (indicative only)" if quick is True else "full" if quick is False else "unknown"]
    rep = cfg.get("repeat")
    if rep is not None:
        parts.append(f"{fmt.plural(rep, 'repetition') if isinstance(rep, int) else rep}")
    if cfg.get("duration") is not None:
        parts.append(f"{cfg['duration']} s per run")
    if cfg.get("pin") is not None:
        parts.append(f"pinning {cfg['pin']}")
    return ", ".join(parts)


def build(ctx):
    """(report.md's text, appendix.md's text): the answer (brief.py), and everything else."""
    appendix = build_appendix(ctx)
    return brief.build(ctx), appendix


def build_appendix(ctx):
    """appendix.md: every file's sections, the many-core, machines and files compared."""
    L = ["# hotline report: appendix", "",
         f"Everything behind [report.md]({REPORT}), file by file: each input file's "
         "environment, every table and plot of each of its scenarios, and what the file "
         "says.", ""]
    n = len(ctx.docs)
    L.append(f"Generated by hotline-report {VERSION} from {fmt.plural(n, 'input file')}. "
             "Plots are PNG files beside this file; every figure is a median over "
             "the repetitions, with min\u2013max ranges across them.")
    L.append("")
    L += files_table(ctx)
    L.append("")
    if any(d.simulated for d in ctx.docs):
        L += ["Sections from hotline-sim are **simulated**: the output of a model of the "
              "machine, not measurements."
              + (f" Its sweeps are drawn together, with the measured points, in "
                 f"\"{manycore.TITLE}\" after the files' sections."
                 if manycore.docs(ctx) else ""), ""]
    for i, doc in enumerate(ctx.docs, 1):
        L += doc_section(ctx, doc, i if n > 1 else None)
    L += machines.render(ctx)
    L += manycore.render(ctx)
    L += overlay.render(ctx, [s for s, sec in SECTIONS.items() if sec.threads])
    return "\n".join(L).rstrip() + "\n"


def doc_section(ctx, doc, number):
    kind = "simulated" if doc.simulated else "measured"
    head = f"{number}. " if number else ""
    L = [f"## {head}{doc.path}: {kind} by {doc.tool} {doc.version or ''}".rstrip(), ""]
    if doc.simulated:
        L += ["*Simulated: these figures come from hotline-sim's model, not from a machine.*", ""]
    if not has_facts(doc):
        L += [f"*This file has {OLDER_FILE}.*", ""]
    L += env_section(doc)
    L += machine_state.shared_line(doc.results)
    if not doc.results:
        L += ["No results in this file.", ""]
        return L
    scenarios = list(dict.fromkeys(r["scenario"] for r in doc.results))
    for scen in scenarios:
        rs = [r for r in doc.results if r["scenario"] == scen]
        section = section_for(scen)
        mark = " (simulated)" if doc.simulated else ""
        L += [f'<a id="{anchor(ctx, doc, scen)}"></a>', "",
              f"### {scen}" + (f": {section.title}" if section.title else "") + mark, ""]
        L += machine_state.scenario_line(rs)
        L += section.render(ctx, doc, rs)
    L += machine_says(ctx, doc, scenarios)
    return L


def env_section(doc):
    env, cfg = doc.env, doc.config
    cpu = common.text(env.get("cpu"))
    extra = ", ".join(str(env[k]) for k in ("arch", "vendor") if env.get(k))
    rows = [["CPU", cpu + (f" ({extra})" if extra else "")],
            ["CPU flags", _flags_text(env.get("flags"))],
            ["kernel", common.text(env.get("kernel"))],
            ["libc", common.text(env.get("libc"))],
            ["compiler", common.text(env.get("compiler"))],
            ["CPUs", common.text(env.get("cpus"))],
            ["placement", _placement_text(env.get("placement")) if "placement" in env else DASH],
            ["date", common.text(env.get("date"))],
            ["mode", _mode_text(cfg)]]
    if isinstance(env.get("atomics"), str):
        what = {"lse": "LSE (the run-time choice of GCC's outline atomics)",
                "llsc": "exclusives, LDXR/STXR (the run-time choice of GCC's outline "
                        "atomics)"}
        rows.append(["atomics", what.get(env["atomics"], common.text(env["atomics"]))])
    if env.get("command"):
        rows.append(["command", f"`{env['command']}`"])
    known = {"cpu", "arch", "vendor", "flags", "kernel", "libc", "compiler", "cpus",
             "placement", "date", "command", "atomics"}
    rows += [[k, common.text(v)] for k, v in env.items() if k not in known]
    return ["#### Environment", ""] + fmt.table(["", ""], rows) + [""]


def machine_says(ctx, doc, scenarios):
    """The file's generated paragraphs, then its done criteria (not for a simulation)."""
    if not any(section_for(s).says for s in scenarios):
        return []
    sim = doc.simulated
    L = ["### What this simulation says (simulated)" if sim
         else "### What this machine says", ""]
    for fn in SAYS:
        for S in fn(ctx, doc):
            if S:
                L += [" ".join(S), ""]
    if sim:
        L += ["The project's done criteria are about measurements on a real machine; they "
              "are not checked against a simulation.", ""]
        return L
    L += ["#### Done criteria", ""]
    checks = [c for fn in CHECKS for c in fn(ctx, doc)]
    if checks:
        rows = [[c.crit["text"], c.figures(), c.verdict, c.interval_text()] for c in checks]
        L += fmt.table(["criterion", "this file", "verdict (median)",
                        "with its 95% interval (stats.py)"], rows, "llll") + [""]
        L += ["The verdict column judges the median alone; the last column judges the "
              "interval of the paired repetitions, as the summary at the top does: "
              "\"cannot tell at this noise\" where it straddles the threshold or too few "
              "repetitions were taken.", ""]
    con = criteria.SCENARIO in scenarios
    zer = criteria.ZERO in scenarios or criteria.COPY in scenarios
    threads = any(section_for(s).threads for s in scenarios)
    if not con and threads:
        L += ["Not checked: no contend results in this file." if not zer else
              "The contention criteria are not checked: no contend results in this file.", ""]
    return L


class Written(tuple):
    """What write() returns: (report path, PNG names), as it always has (two items, so
    `path, pngs = write(...)` still works), and .appendix, the appendix's path."""

    def __new__(cls, path, pngs, appendix):
        self = super().__new__(cls, (path, pngs))
        self.appendix = appendix
        return self


def write(docs, outdir):
    """Write OUTDIR/report.md, OUTDIR/appendix.md and their PNGs; return Written: (report path,
    PNG names) with .appendix, the appendix's path.

    All or nothing: everything is written into a staging directory in OUTDIR (the same file
    system), then renamed into place, the PNGs first, then appendix.md, then report.md, so
    that neither shows a plot or links to an appendix not there yet.  On any failure the
    staging directory goes, OUTDIR keeps the files it had and WriteError names the file
    that failed.
    """
    try:
        work = tempfile.mkdtemp(prefix=".hotline-report-", dir=outdir)
    except OSError as e:
        raise WriteError(outdir, why(e), "cannot write files in") from None
    try:
        ctx = Context(docs, outdir, work)
        texts = dict(zip((REPORT, APPENDIX), build(ctx)))
        for name in (REPORT, APPENDIX):
            try:
                with open(os.path.join(work, name), "w", encoding="utf-8") as f:
                    f.write(texts[name])
            except OSError as e:
                raise WriteError(os.path.join(outdir, name), why(e)) from None
        names = ctx.pngs + [APPENDIX, REPORT]
        for name in names:  # before the first rename: nothing half replaced
            if os.path.isdir(os.path.join(outdir, name)):
                raise WriteError(os.path.join(outdir, name), "a directory is in the way")
        for name in names:
            try:
                os.replace(os.path.join(work, name), os.path.join(outdir, name))
            except OSError as e:
                raise WriteError(os.path.join(outdir, name), why(e)) from None
        return Written(os.path.join(outdir, REPORT), ctx.pngs, os.path.join(outdir, APPENDIX))
    finally:
        shutil.rmtree(work, ignore_errors=True)
