#!/usr/bin/python3
"""tune.py - hotline-bench zero --tune: its last line, its JSON, and the library taking the line.

    /usr/bin/python3 tune.py BENCH OUTDIR

  * `zero --tune --quick --repeat 2 --json F` exits 0 and its last line on
    stdout is exactly HOTLINE_ZERO_TUNABLES=vec_max=N:rep_max=M (N, M bytes
    or max); the JSON's tune.setting is that value, with a table point per
    grid size of each crossover measured, and the runs are zero results
    whose "subjects" entries are the crossovers' variants
    (../subjects_check.py);
  * that value, given back as HOTLINE_ZERO_TUNABLES to a short zero run,
    raises no complaint from the library, and its env.zero_plan_sources
    shows each threshold as "tunable" with the tuned value (or, where the
    plan has no such class, as "unused: tunable ignored");
  * --tune --mode hot tunes hot alone and says the rule wanted both;
  * --tune with another scenario, --sizes, --subjects or --until-decided:
    exit 2 and one line on stderr naming the option.

Programs run through $HOTLINE_TARGET_RUN when it is set (an emulator).
Exit status 0 when all of it holds; otherwise every failed check is printed.
"""

import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import subjects_check  # noqa: E402  (tests/subjects_check.py)
from checks import check, finish  # noqa: E402
LINE = re.compile(r"^HOTLINE_ZERO_TUNABLES=(vec_max=([0-9]+|max):rep_max=([0-9]+|max))$")


def run(bench, args, env=None):
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [bench, *args]
    full = dict(os.environ)
    full.pop("HOTLINE_ZERO_TUNABLES", None)
    full.pop("HOTLINE_ZERO", None)
    full.update(env or {})
    return subprocess.run(cmd, capture_output=True, text=True, env=full, timeout=240)


def tune_line(p, what):
    lines = p.stdout.rstrip("\n").split("\n")
    m = LINE.match(lines[-1]) if lines else None
    check(p.returncode == 0, f"{what}: exit {p.returncode}, stderr {p.stderr[-500:]!r}")
    check(m is not None, f"{what}: last line {lines[-1]!r}, expected "
          "HOTLINE_ZERO_TUNABLES=vec_max=N:rep_max=M")
    return m


def main():
    bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "tune.json")

    p = run(bench, ["zero", "--tune", "--quick", "--repeat", "2", "--json", path])
    print(p.stdout)
    m = tune_line(p, "zero --tune --quick")
    if not m:
        return
    setting, vec, rep = m.group(1), m.group(2), m.group(3)
    check("The measured setting" in p.stdout, "no sentence comparing with the plan in force")
    check("plan in force: " in p.stdout and "its thresholds: vec_max=" in p.stdout,
          "the plan in force and its sources are not printed")
    with open(path) as f:
        doc = json.load(f)
    tune = doc.get("tune", {})
    check(tune.get("setting") == setting, f"tune.setting {tune.get('setting')!r}, "
          f"expected {setting!r}")
    check(tune.get("modes") == ["hot", "cold"], f"tune.modes {tune.get('modes')!r}")
    for name, cross in tune.get("crossovers", {}).items():
        if not cross.get("measured"):
            continue
        points = cross.get("points", [])
        check(points, f"tune.crossovers.{name}: no points")
        for pt in points:
            check(pt.get("wins") in cross.get("subjects", []),
                  f"{name} at {pt.get('size')}: wins {pt.get('wins')!r}")
            hot = pt.get("hot") or {}
            check(len(hot.get("ratio_runs", [])) == 2,
                  f"{name} at {pt.get('size')}: hot ratio_runs {hot.get('ratio_runs')!r}")
        want = cross.get("value")
        check(str(want) == {"vec_max": vec, "rep_max": rep}.get(name),
              f"tune.crossovers.{name}.value {want!r} is not the line's")
    results = doc.get("results", [])
    check(results and all(r.get("scenario") == "zero" and r.get("mode") in ("hot", "cold")
                          for r in results), "the tune's runs are not zero results")
    # The runs' subjects: the forced variants, their facts agreeing with the results.
    measured = subjects_check.check(doc, check).get("zero", {})
    pairs = [c.get("subjects") for c in tune.get("crossovers", {}).values() if c.get("measured")]
    check(sorted(measured) == sorted({s for p in pairs for s in p}),
          f"subjects.zero {sorted(measured)}, expected the crossovers' {pairs}")

    # The line, given back to the library: both thresholds from it, silently.
    back = os.path.join(out, "back.json")
    p = run(bench, ["zero", "--quick", "--sizes", "64", "--mode", "hot", "--subjects",
                    "hl_zero", "--json", back], {"HOTLINE_ZERO_TUNABLES": setting})
    check(p.returncode == 0, f"zero with HOTLINE_ZERO_TUNABLES={setting}: exit {p.returncode}")
    check("HOTLINE_ZERO_TUNABLES" not in p.stderr,
          f"the library complained about {setting!r}: {p.stderr!r}")
    with open(back) as f:
        sources = json.load(f)["env"]["zero_plan_sources"]
    print(f"HOTLINE_ZERO_TUNABLES={setting}: {sources}")
    for name, value in (("vec_max", vec), ("rep_max", rep)):
        tuned = f"{name}={value} (tunable)" in sources
        ignored = re.search(name + r"=\S+ \(unused: tunable ignored", sources)
        check(tuned or ignored, f"{name}: {sources!r} shows neither {name}={value} (tunable) "
              "nor unused: tunable ignored")
    plan = tune.get("plan", "")
    if " < rep_stosb" in plan:
        check(sources == f"vec_max={vec} (tunable); rep_max={rep} (tunable)",
              f"plan {plan!r} has a rep stosb class: expected both tunable, got {sources!r}")

    # One mode: tuned, and said to be less than the rule wants.
    p = run(bench, ["zero", "--tune", "--quick", "--mode", "hot"])
    tune_line(p, "zero --tune --quick --mode hot")
    check("the rule wants hot and cold" in p.stdout, "--mode hot: not said that the rule "
          "wants both")

    # What --tune refuses: exit 2, one line naming the option.
    for args, option in ((["refcount-timing", "--tune"], "--tune"),
                         (["all", "--tune"], "--tune"),
                         (["zero", "--tune", "--sizes", "4K"], "--sizes"),
                         (["zero", "--tune", "--subjects", "hl_zero"], "--subjects"),
                         (["zero", "--tune", "--until-decided=5"], "--until-decided")):
        p = run(bench, args)
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and len(lines) == 1 and option in lines[0]
              and not p.stdout, f"{' '.join(args)}: exit {p.returncode}, stderr {p.stderr!r}, "
              f"expected exit 2 and one line naming {option}")


main()
sys.exit(finish("ok: zero --tune prints a line the library takes"))
