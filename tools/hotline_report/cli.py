"""Command line of hotline-report: arguments, the run, and error handling.

Exit status: 0 report written; 2 bad input or bad option (one line on
stderr naming the file or option); 1 anything else (one line: matplotlib
missing, an output not writable, naming the file, or stdout not writable,
internal error).  No traceback reaches the user; set HOTLINE_REPORT_DEBUG=1
to see one for an internal error.  A file without a "subjects" object (an
older hotline-bench or hotline-sim) is reported once the report is written:
one line on stderr naming it (the report says so too), and exit 0.
"""

import argparse
import os
import sys

from . import PROG, VERSION

USAGE = f"{PROG} FILE.json [FILE.json ...] [-o OUTDIR]"

DESCRIPTION = """\
Turn hotline-bench / hotline-sim JSON into a Markdown report with PNG plots.

Writes OUTDIR/report.md, OUTDIR/appendix.md and the plots they show
(OUTDIR/*.png), replacing earlier ones of the same name: all or none, so a
full or unwritable OUTDIR keeps what it had.

report.md is the answer, a few screens: the machine, the summary table (one
row per question, this machine's paired ratio with its interval and a
verdict of holds, does not hold or cannot tell at this noise, or not tested
here when the run never did what the claim is about), then one
short section per scenario with the ratio plot that answers its question
(subject over baseline, the interval as a band, 1.0 and the threshold
marked) and a link to its full section in appendix.md, a short table of
the simulated sweeps, and the input files.

appendix.md holds everything else. Each input file gets its own section: its
environment (CPU, flags, kernel, libc, compiler, placement, mode), then one
subsection per scenario. refcount-timing gets a bar chart, a table and the
kernel's published ratios; contend plots and tables of throughput, cmpxchg
attempts, fallback, fairness and latency against thread count (from an arm64
run also LSE against exclusives and the relax instruction, side by side);
lockref-sweep throughput against retry limit; openclose (the host kernel's open/close)
threads against processes; zero log-log plots against buffer size (hot
and cold), hl_zero's ratios to glibc memset and a zero-page copy, the
crossovers between variants and the dd experiments; scenarios this version
does not know get a plain table. What each subject is (its description,
baseline, variants, loop, fallback) comes from the file's "subjects" object;
a file without one (an older bench) is named on stderr and reported without
it. Each file with contention or zero results ends with "What this machine
says" and the project's done criteria, met or not. Results from hotline-sim
are marked as simulated, and their sweeps are drawn together with the
measured points in "Many-core machines (simulated)". Measured files from
several machines (their env's CPU and arch differ) put the machines side by
side: one column group per machine in the summary table, a series per
machine on report.md's ratio plots, and the contention ratios against
thread count with every machine on one plot in the appendix."""

EPILOG = """\
examples:
  hotline-bench all --json out/bench.json && hotline-report out/bench.json -o out
  hotline-report out/bench.json out/sim-224.json -o out    # measured and simulated
  hotline-report x86.json arm64.json -o out    # two machines side by side
  make bench          # runs the suite, then this, into out/

exit status:
  0  report written
  2  bad input file or option (one line on stderr naming it)
  1  other failure (matplotlib missing, an output file not writable: the line
     names it, internal error)

Needs Debian's python3-matplotlib, python3-numpy and python3-scipy; run with
/usr/bin/python3."""


class UsageError(Exception):
    """A bad option: one line, exit 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise UsageError(message)


def parse(argv):
    p = Parser(prog=PROG, usage=USAGE, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE.json",
                   help="result file written by hotline-bench --json or hotline-sim --json")
    p.add_argument("-o", "--output", metavar="OUTDIR", default="out",
                   help="directory for report.md and the PNG plots (default: out; created "
                        "if missing)")
    p.add_argument("--version", action="version", version=f"{PROG} {VERSION}")
    return p.parse_args(argv)


def say(msg):
    line = " ".join(str(msg).split())  # exactly one line
    try:
        print(f"{PROG}: {line}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def run(argv):
    from .facts import OLDER_FILE, has_facts
    from .load import InputError, load
    from .plots import PlotError
    try:
        args = parse(argv)
    except UsageError as e:
        say(f"{e} (see --help)")
        return 2
    try:
        docs = [load(path) for path in args.files]
    except InputError as e:
        say(f"{e.path}: {e.problem}")
        return 2
    out = args.output
    if not out:
        say("-o: '' is not a directory name (see --help)")
        return 2
    if os.path.exists(out) and not os.path.isdir(out):
        say(f"-o {out}: exists and is not a directory")
        return 2
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        say(f"-o {out}: cannot create the directory ({e.strerror or e})")
        return 1
    from . import report
    try:
        written = report.write(docs, out)
        path, pngs = written
    except (PlotError, report.WriteError) as e:
        say(str(e))
        return 1
    except OSError as e:  # not one of the outputs (those are WriteError): name what failed
        say(f"cannot write {e.filename or out} ({e.strerror or e})")
        return 1
    for doc in docs:
        if not has_facts(doc):
            say(f"{doc.path}: {OLDER_FILE}")
    try:
        print(f"{PROG}: wrote {path}, {written.appendix} and {len(pngs)} "
              f"plot{'s' if len(pngs) != 1 else ''}", flush=True)
    except BrokenPipeError:
        raise  # the reader went away: main() exits 1 quietly
    except OSError as e:
        say(f"cannot write to stdout ({e.strerror or e}); the report is written: {path}")
        return 1
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        import warnings
        warnings.simplefilter("ignore")  # matplotlib's chatter is not for the user
        return run(argv)
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except SystemExit as e:  # --help / --version
        return e.code if isinstance(e.code, int) else 0
    except BrokenPipeError:
        return 1
    except Exception as e:  # noqa: BLE001 - the one place that catches everything
        if os.environ.get("HOTLINE_REPORT_DEBUG"):
            import traceback
            traceback.print_exc()
        say(f"internal error: {type(e).__name__}: {e}")
        return 1
