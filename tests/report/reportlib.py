"""reportlib.py - what the report's newer test files share: their fixtures, one report run,
and a test class with its own temporary directory (ReportCase).

test_verdicts.py, test_machine_state.py, test_machines.py and test_brief.py import
it (their own directory is on sys.path when they run).
"""

import os
import shutil
import subprocess
import tempfile
import unittest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def fixture(name):
    """The path of fixtures/NAME."""
    return os.path.join(FIXTURES, name)


def appendix(out):
    """OUT/appendix.md, written beside report.md: every file's full sections."""
    with open(os.path.join(out, "appendix.md"), encoding="utf-8") as f:
        return f.read()


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
