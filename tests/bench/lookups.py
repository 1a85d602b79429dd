#!/usr/bin/python3
"""lookups.py - issue 19's contend subjects: refcount_inc_not_zero, rcuref, lockref_get_not_dead.

    /usr/bin/python3 lookups.py BENCH WORKDIR

Checks that --list names the three under contend, then runs them (1 and 2 threads, short,
two repetitions) and checks: exit status 0 (every run passed its own check: the count back
at its start, no get that found the object dead, no put that found the last reference), a
result per subject and thread count, and the facts each declares (bench/README.md, "The
subjects"): rcuref an atomic whose baseline is atomic_faa, refcount_inc_not_zero the
cmpxchg loop set beside refcount, lockref_get_not_dead the library's lockref (its retry limit,
the locked fallback) set beside rcuref; none counts attempts, so none has attempts or a
fallback rate; all three are the library's own code.  check_json.py checks every field of
the same subjects in the full contend runs.  HOTLINE_TARGET_RUN, when set, runs BENCH (an
emulator).  Standard library only.
"""

import json
import os
import shlex
import subprocess
import sys

SUBJECTS = ("refcount_inc_not_zero", "rcuref", "lockref_get_not_dead")  # table order
FACTS = {
    "rcuref": {"kind": "atomic", "baseline": "atomic_faa", "loop": False, "fallback": False},
    "refcount_inc_not_zero": {"kind": "cas_loop", "baseline": "refcount", "loop": True,
                              "fallback": False},
    "lockref_get_not_dead": {"kind": "lockref", "baseline": "rcuref", "loop": True,
                             "fallback": True},
}
THREADS = (1, 2)
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(bench, *args):
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [bench, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240)


def listed(bench):
    """{scenario: [subjects]} as --list prints them."""
    out, scen = {}, None
    for line in run(bench, "--list").stdout.splitlines():
        if line and not line.startswith(" "):
            scen = line.split(":", 1)[0]
            out[scen] = []
        elif line.strip() and scen:
            out[scen].append(line.split()[0])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bench, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    contend = listed(bench).get("contend", [])
    for s in SUBJECTS:
        check(s in contend, f"--list names {s} under contend")
    out = os.path.join(work, "lookups.json")
    p = run(bench, "contend", "--subjects", ",".join(SUBJECTS), "--threads",
            ",".join(map(str, THREADS)), "--duration", "0.02", "--repeat", "2", "--json", out)
    check(p.returncode == 0, f"contend with the three: exit 0 (every run passed its check), "
          f"saw {p.returncode}: {p.stderr.strip()[-300:]}")
    if p.returncode != 0:
        return 1
    with open(out) as f:
        doc = json.load(f)
    facts = doc["subjects"]["contend"]
    check(list(facts) == list(SUBJECTS), f"subjects: the three in table order, saw {list(facts)}")
    for s in SUBJECTS:
        f = facts.get(s, {})
        for k, v in FACTS[s].items():
            check(f.get(k) == v, f"subjects.contend.{s}.{k} is {v!r}, saw {f.get(k)!r}")
        check(f.get("library") is True and f.get("counts_attempts") is False,
              f"{s}: the library's own code, attempts not counted")
        check(f.get("description", "").startswith("hl_"), f"{s}: described by its functions")
        for t in THREADS:
            r = [x for x in doc["results"] if x["subject"] == s and x["threads"] == t]
            check(len(r) == 1, f"{s} at {t} threads: one result")
            if not r:
                continue
            r = r[0]
            check(r["op"] == "get+put" and r["ops_per_sec"] > 0 and len(r["runs"]) == 2,
                  f"{s} at {t} threads: get+put, ops/s > 0, two runs")
            check(r["attempts_per_success"] is None and r["fallback_rate"] is None,
                  f"{s} at {t} threads: no attempts, no fallback rate (not counted)")
            want = f.get("retry_limit")
            check(r["retry_limit"] == want, f"{s} at {t} threads: retry_limit {want}")
    lim = facts.get("lockref_get_not_dead", {}).get("retry_limit")
    check(isinstance(lim, int) and lim > 0, f"lockref_get_not_dead runs with the library's "
          f"retry limit (HOTLINE_LOCKREF_RETRIES or 100), saw {lim}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
