#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""known_counts.py - hotline-trace counts exactly what a program did.

  known_counts.py HOTLINE_TRACE PROGRAM

Runs PROGRAM (tests/trace/known_counts.c), attaches HOTLINE_TRACE to it,
lets it cause its known slow-path events, and checks that the traced counts
(--json) equal the ones the program reports. Without root or bpftrace, or
where the kernel refuses BPF, it says so in one line and exits 77 (CTest's
SKIP_RETURN_CODE): skipped, not passed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def wait_attached(tracer):
    """Read the tracer's stderr until it says it is attached; its lines so far."""
    seen = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = tracer.stderr.readline()
        if not line:
            break
        seen.append(line.rstrip())
        if "attached" in line and "did not attach" not in line:
            return seen, True
    return seen, False


def by_subject(doc):
    out = {}
    for r in doc["results"]:
        out[(r["subject"], r.get("object"))] = r
    return out


def check(doc, known):
    res = by_subject(doc)
    problems = []

    def expect(subject, obj, key, want):
        r = res.get((subject, obj))
        got = None if r is None else r["counts"].get(key)
        if got != want:
            problems.append(f"{subject} {obj} {key}: traced {got}, expected {want}")

    lr, n, m, p = known["lockref"], known["limit"], known["retry"], known["plain"]
    expect("lockref", lr, "cmpxchg_failures", n + m)
    expect("lockref", lr, "retry_limit_fired", n)
    expect("lockref", lr, "lock_fallbacks", n)
    expect("lockref", lr, "retry_successes", m)
    expect("lockref", lr, "operations", n + m + p)
    expect("lockref", lr, "first_attempt_successes", p)
    r = res.get(("lockref", lr))
    if r and r.get("attempts_histogram") != {"1": p, "2": m}:
        problems.append(f"lockref attempts histogram {r.get('attempts_histogram')}, "
                        f"expected {{'1': {p}, '2': {m}}}")
    qs, k = known["qspinlock"], known["contend"]
    expect("qspinlock", qs, "slow_path", k)
    r = res.get(("qspinlock", qs))
    if r and sum(v for key, v in r["counts"].items() if key.startswith("acquired_")) != k:
        problems.append(f"qspinlock acquisitions {r['counts']}, expected {k} in all")
    for subject in ("refcount", "rcuref"):
        expect(subject, known[subject], "saturations", known["saturate"])
        expect(subject, known[subject], "reports", known["saturate"])
        # The library's reports keep their frames: the stack reaches the program's
        # function that saturated the counter (main), not only the report's frame.
        r = res.get((subject, known[subject]))
        stacks = [s["stack"] for s in (r or {}).get("stacks", [])]
        if r and not any("main" in s for s in stacks):
            problems.append(f"{subject} report stacks {stacks}: expected one through main")
    expect("try_load64", None, "faults", known["faults"])
    # A call of hl_try_zero that stops at an unwritable byte takes two faults: the
    # variant's store, then the byte-by-byte finish's at that byte (docs/trace.md).
    expect("try_zero", None, "faults", 2 * known["zero_calls"])
    return problems


def main():
    tracer_path, program = sys.argv[1], sys.argv[2]
    if os.geteuid() != 0:
        skip("hotline-trace needs root to attach bpftrace")
    if not shutil.which("bpftrace") and not os.path.exists("/usr/bin/bpftrace"):
        skip("bpftrace is not installed (scripts/deps.sh test installs it)")
    prog = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if prog.stdout.readline().strip() != "ready":
            fail("the program did not start")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "trace.json")
            tracer = subprocess.Popen([sys.executable, tracer_path, "-p", str(prog.pid),
                                       "--duration", "120", "--json", out],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            seen, ok = wait_attached(tracer)
            if not ok:
                tracer.kill()
                tracer.wait()
                why = seen[-1] if seen else "no output"
                skip(f"bpftrace cannot attach here ({why})")
            prog.stdin.write("go\n")
            prog.stdin.flush()
            known = json.loads(prog.stdout.readline())
            prog.stdin.write("done\n")
            prog.stdin.flush()
            prog.wait(timeout=60)
            text, err = tracer.communicate(timeout=120)
            print(text)
            if tracer.returncode != 0:
                fail(f"hotline-trace exited {tracer.returncode}: {err.strip()}")
            with open(out) as f:
                doc = json.load(f)
    finally:
        if prog.poll() is None:
            prog.kill()
    if doc.get("traced") is not True or doc.get("tool") != "hotline-trace":
        fail("the JSON is not marked traced")
    problems = check(doc, known)
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print("known_counts: every traced count equals the program's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
