#!/usr/bin/python3
"""fill.py - the fill scenario runs, its JSON holds, and hotline-report reads it.

    /usr/bin/python3 fill.py BENCH PYTHON REPORT WORKDIR

BENCH is hotline-bench; PYTHON the Python that runs REPORT (tools/hotline-report, with
matplotlib). Checks:

  - --list shows fill last, after the scenarios `all` runs, in their order; --help says
    it runs only by name;
  - `BENCH fill --quick --sizes 64,4K --repeat 2 --json WORKDIR/fill.json` exits 0 and
    prints a hot and a cold table;
  - the JSON: a result per subject --list names, size and mode (hot, cold), GB/s the
    headline, two runs each, each ratio taken against the subject's baseline fact; the
    "subjects" object by tests/subjects_check.py, with fill's own kind "fill" (its
    baseline's) beside the shared ones;
  - hotline-report on it exits 0 and its appendix has fill's section: the plots, the
    subjects over their baseline and every figure.

What each subject is comes from its facts, never from its name. HOTLINE_TARGET_RUN, when
set, runs BENCH (an emulator). Standard library only (the report needs its own Python).
"""

import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import subjects_check  # noqa: E402  (tests/subjects_check.py)

SIZES = (64, 4096)
MODES = ("hot", "cold")
REPEAT = 2
# The scenarios `all` runs, in its order (bench/README.md, "Adding a scenario").
ALL = ("refcount-timing", "contend", "lockref-sweep", "zero", "copy", "openclose")
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)
    return ok


def run(bench, *args):
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [bench, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240)


def listed(bench):
    """({scenario: [subject, ...]} in --list's order."""
    out, cur = {}, None
    for line in run(bench, "--list").stdout.splitlines():
        if line.startswith(" ") and cur:
            out[cur].append(line.split()[0])
        elif ":" in line:
            cur = line.split(":")[0]
            out[cur] = []
    return out


def check_results(doc, subjects):
    results = doc.get("results") or []
    facts = subjects_check.check(doc, check, own_kinds=("fill",)).get("fill", {})
    check(all(r.get("scenario") == "fill" for r in results), "every result is fill's")
    for s in subjects:
        for m in MODES:
            for size in SIZES:
                w = f"{s} {m} {size}"
                got = [r for r in results if (r.get("subject"), r.get("mode"),
                                              r.get("size")) == (s, m, size)]
                if not check(len(got) == 1, f"{w}: one result (got {len(got)})"):
                    continue
                r = got[0]
                check(r.get("headline") == "gb_per_sec" and r.get("gb_per_sec", 0) > 0,
                      f"{w}: GB/s, the headline, positive ({r.get('gb_per_sec')!r})")
                check(len(r.get("runs") or []) == REPEAT, f"{w}: {REPEAT} runs")
                base = (facts.get(s) or {}).get("baseline") or s
                check(r.get("ratio_to") == base and len(r.get("ratio_runs") or []) == REPEAT,
                      f"{w}: ratio to its baseline {base!r}, per repetition")
                check((r.get("arena_bytes") is not None) == (m == "cold"),
                      f"{w}: an arena exactly when cold")
    kinds = {f.get("kind") for f in facts.values()}
    bases = {f.get("baseline") for f in facts.values()} - {None}
    check("fill" in kinds and all(facts[b]["kind"] == "fill" for b in bases if b in facts),
          f"the baseline is of fill's own kind (kinds {sorted(kinds, key=str)})")


def check_report(py, report, path, outdir):
    p = subprocess.run([py, report, path, "-o", outdir], capture_output=True, text=True,
                       timeout=240)
    if not check(p.returncode == 0, f"hotline-report exits 0 ({p.returncode}: {p.stderr})"):
        return
    with open(os.path.join(outdir, "appendix.md"), encoding="utf-8") as f:
        md = f.read()
    for want in ("### fill: ", "![fill, hot: GB/s vs buffer size", "#### Against the baseline",
                 "#### Every figure"):
        check(want in md, f"the appendix has {want!r}")


def main():
    bench, py, report, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    scen = listed(bench)
    order = list(scen)
    check(order[:len(ALL)] == list(ALL) and order[len(ALL):] == ["fill"],
          f"--list: the scenarios of all in order, then fill ({order})")
    check("(only by name: not in all)" in next(
        (ln for ln in run(bench, "--help").stdout.splitlines() if ln.startswith("  fill ")), ""),
        "--help: fill runs only by name")
    path = os.path.join(work, "fill.json")
    p = run(bench, "fill", "--quick", "--sizes", ",".join(map(str, SIZES)), "--repeat",
            str(REPEAT), "--json", path)
    if not check(p.returncode == 0, f"fill exits 0 ({p.returncode}: {p.stderr[-300:]})"):
        return 1
    check("hot, GB/s" in p.stdout and "cold, GB/s" in p.stdout, "a hot and a cold table")
    with open(path) as f:
        doc = json.load(f)
    check_results(doc, scen.get("fill", []))
    check(len(scen.get("fill", [])) >= 2, "--list names fill's subjects")
    check_report(py, report, path, os.path.join(work, "report"))
    print(f"{len(failures)} failure(s)" if failures else "fill: every check holds")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
