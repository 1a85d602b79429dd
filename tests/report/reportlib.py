"""reportlib.py - what the report's test files share: the tool named on their command line
(tool_argument), their fixtures, one report run, synthetic sized results (sized_result,
with_results), the summary's and the done criteria's rows read back, and a test class with its
own temporary directory (ReportCase).

Every test_*.py here imports it (their own directory is on sys.path when they run).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
TOOL = None          # tools/hotline-report, set by tool_argument()


def tool_argument():
    """The tool named by the command line's first argument (`test_X.py TOOL [TestClass ...]
    [unittest options]`), made absolute; its directory (the hotline_report package's) is put
    on sys.path and it is taken out of sys.argv, so that unittest.main() reads the rest.
    Exits with a usage line when it is missing or not an executable file."""
    global TOOL
    me = os.path.basename(sys.argv[0])
    if len(sys.argv) < 2:
        sys.exit(f"usage: {me} TOOL [TestClass ...] [unittest options]")
    TOOL = os.path.abspath(sys.argv.pop(1))
    if not os.access(TOOL, os.X_OK):
        sys.exit(f"{me}: {TOOL}: not an executable file")
    sys.path.insert(0, os.path.dirname(TOOL))
    return TOOL


def fixture(name):
    """The path of fixtures/NAME."""
    return os.path.join(FIXTURES, name)


def appendix(out):
    """OUT/appendix.md, written beside report.md: every file's full sections."""
    with open(os.path.join(out, "appendix.md"), encoding="utf-8") as f:
        return f.read()


def sized_result(scenario, subject, size, runs, mode="hot", headline="gb_per_sec", llc=32 << 20,
                 variant=None):
    """A result of a sized SCENARIO (zero, copy): SUBJECT at SIZE bytes in MODE with these
    RUNS of its HEADLINE (gb_per_sec or ns_per_op; the median is the headline's figure, the
    other two derived from it), on a machine whose last-level cache is LLC bytes."""
    med = sorted(runs)[len(runs) // 2]
    r = {"scenario": scenario, "subject": subject, "threads": 1, "size": size,
         "retry_limit": None, "mode": mode, "headline": headline, "runs": list(runs),
         "llc_bytes": llc, "variant": variant}
    if headline == "gb_per_sec":
        r.update(gb_per_sec=med, ns_per_op=size / med, ops_per_sec=med * 1e9 / size)
    else:
        r.update(ns_per_op=med, ops_per_sec=1e9 / med, gb_per_sec=size / med)
    return r


def with_results(source, path, results):
    """fixtures/SOURCE's env and facts with RESULTS in place of its own, written to PATH."""
    with open(fixture(source)) as f:
        data = json.load(f)
    data["results"] = results
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def summary_rows(md):
    """{measure: row text} of report.md's summary table (the first table after its heading)."""
    start = md.index("## Summary")
    rows = {}
    for line in md[start:].splitlines()[2:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 2 and cells[1] not in ("measure", "---"):
            rows[cells[1]] = line
    return rows


def crit_rows(app):
    """{criterion: row} of the appendix's done criteria."""
    sec = app[app.index("#### Done criteria"):]
    return {line.split(" | ")[0][2:]: line for line in sec.splitlines()
            if line.startswith("| ") and "criterion" not in line}


def run_report(tool, paths, out, env):
    """report.md of `TOOL PATHS -o OUT`; an AssertionError with its stderr if it fails."""
    p = subprocess.run([tool, *paths, "-o", out], capture_output=True, text=True, env=env,
                       timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"hotline-report exit {p.returncode}: {p.stderr}")
    with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
        return f.read()


class ReportCase(unittest.TestCase):
    """A test class with its own temporary directory (cls.tmp, removed afterwards) and the
    environment to run the tool in (cls.env: matplotlib's cache inside cls.tmp, no .pyc).
    A subclass's setUpClass calls super().setUpClass() first."""

    maxDiff = None
    TMP_PREFIX = "hotline-report-test-"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix=cls.TMP_PREFIX)
        cls.env = dict(os.environ, MPLCONFIGDIR=os.path.join(cls.tmp, "mpl"),
                       PYTHONDONTWRITEBYTECODE="1")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def render(cls, name, paths):
        """(report.md, appendix.md) of the tool run on PATHS into cls.tmp/NAME."""
        out = os.path.join(cls.tmp, name)
        return run_report(TOOL, paths, out, cls.env), appendix(out)

    def summary_row(self, start):
        """The one row of self.rows (summary_rows()) whose measure begins with START."""
        hit = [r for m, r in self.rows.items() if m.startswith(start)]
        self.assertEqual(len(hit), 1, f"one summary row for {start!r}; rows: {self.rows}")
        return hit[0]

    def assertRowHas(self, start, *needles):
        """The one row of self.rows whose measure begins with START holds each of NEEDLES
        (its figure, its verdict, ...)."""
        r = self.summary_row(start)
        for needle in needles:
            self.assertIn(needle, r)
