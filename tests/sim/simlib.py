"""What tests/sim's check scripts share: running hotline-sim, saying what was
expected and seen, and running the one check CTest names.

    SCRIPT PATH-TO-hotline-sim WORKDIR CHECK

hotline-sim runs through $HOTLINE_TARGET_RUN when that is set (the emulator
of a cross build); HOTLINE_TEST_SCALE divides operation counts under
emulation, never below the floor a check gives.
"""

import json
import os
import shlex
import subprocess
import sys

SIM, WORK, CHECK = sys.argv[1], sys.argv[2], sys.argv[3]
SCALE = max(1, int(os.environ.get("HOTLINE_TEST_SCALE", "1") or "1"))
failures = []


def ops(n, floor):
    return max(floor, n // SCALE)


def run_sim(name, *args):
    """hotline-sim ARGS --json WORK/NAME.json: (doc, json path, stdout, json bytes)."""
    path = os.path.join(WORK, name + ".json")
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [SIM, *args, "--json", path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    with open(path, "rb") as f:
        raw = f.read()
    return json.loads(raw), path, p.stdout, raw


def presets():
    """hotline-sim --list's presets: {name: {parameter: value}}, in its order."""
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [SIM, "--list"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    found, current = {}, None
    for line in p.stdout.splitlines():
        if not line.startswith(" ") and ": " in line and not line.startswith("policies:"):
            current = found.setdefault(line.split(": ", 1)[0], {})
        elif current is not None and line.startswith("  ") and not line.startswith("  sources:"):
            k, v = line.split()
            current[k] = float(v)
    return found


def expect(ok, what):
    """Print what was expected and seen, passing or not; remember a failure."""
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def main(script, checks):
    """Run the check named on the command line (one of CHECKS, name -> function)."""
    if CHECK not in checks:
        sys.exit(f"{script}: unknown check {CHECK!r}")
    os.makedirs(WORK, exist_ok=True)
    checks[CHECK]()
    if failures:
        sys.exit(f"{len(failures)} failed")
