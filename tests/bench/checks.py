"""checks.py - what the bench's test scripts share: the failures check() collects, the
command that runs a target program, and how a script ends (finish).

check_json.py, until_decided.py, questions_match.py and tune.py import it (their own
directory is on sys.path when they run).
"""

import os
import shlex

failures = []


def check(cond, what):
    """COND, and WHAT noted as a failure unless it holds."""
    if not cond:
        failures.append(what)
    return cond


def target_cmd(program, *args):
    """The command that runs PROGRAM with ARGS: through HOTLINE_TARGET_RUN (an emulator in a
    cross build, split at blanks) when it is set."""
    return shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [program, *args]


def finish(ok_line):
    """Each failure on a line of its own and 1; else OK_LINE (if any) and 0."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    if ok_line:
        print(ok_line)
    return 0
