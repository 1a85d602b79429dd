"""Run hotline-bench refcount-timing and check its JSON against the contract.

    check_json.py BENCH OUT.json [--subjects a,b] [--count N] [--repeat N]

Runs `BENCH refcount-timing --count N --repeat N --json OUT.json` (with
--subjects when given), expects exit status 0 and a table on stdout, then
checks every field of the JSON contract (design.md "Bench and sim JSON",
bench/README.md): types, the subjects present, one run per repetition,
in_sync, ratio of the baseline exactly 1.0, the environment. Standard
library only. Exit status 0 when everything holds; otherwise every failed
check is printed, saying what was expected and what was found.
"""

import argparse
import json
import math
import re
import subprocess
import sys

ALL_SUBJECTS = ["atomic", "refcount", "refcount_full", "refcount_full_inline"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return (is_int(v) or isinstance(v, float)) and math.isfinite(v)


def check_type(obj, key, test, expected, where):
    if not check(key in obj, f"{where}: expected key '{key}', it is missing"):
        return None
    v = obj[key]
    check(test(v), f"{where}.{key}: expected {expected}, got {v!r}")
    return v


def check_env(env):
    w = "env"
    s = lambda v: isinstance(v, str) and v != ""
    for key in ("cpu", "arch", "vendor", "kernel", "libc", "compiler", "command"):
        check_type(env, key, s, "a non-empty string", w)
    check_type(env, "flags", lambda v: isinstance(v, list) and all(isinstance(f, str) for f in v),
               "a list of strings", w)
    check_type(env, "cpus", lambda v: is_int(v) and v >= 1, "a positive integer", w)
    check_type(env, "placement",
               lambda v: v is None or (isinstance(v, list) and len(v) >= 1 and
                                       all(is_int(c) and c >= 0 for c in v)),
               "null or a list of CPU numbers", w)
    check_type(env, "date",
               lambda v: isinstance(v, str) and
               re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", v) is not None,
               "a UTC ISO 8601 date", w)
    libc = env.get("libc", "")
    check(isinstance(libc, str) and (libc.startswith("glibc ") or libc == "unknown"),
          f"env.libc: expected 'glibc X.Y', got {libc!r}")
    comp = env.get("compiler", "")
    check(isinstance(comp, str) and comp.split(" ")[0] in ("gcc", "clang"),
          f"env.compiler: expected 'gcc ...' or 'clang ...', got {comp!r}")
    check("refcount-timing" in str(env.get("command")),
          f"env.command: expected the command line, got {env.get('command')!r}")


def check_result(r, i, count, repeat, baseline_present):
    subj = r.get("subject")
    w = f"results[{i}] ({subj})"
    check_type(r, "scenario", lambda v: v == "refcount-timing", "'refcount-timing'", w)
    check_type(r, "subject", lambda v: v in ALL_SUBJECTS, f"one of {ALL_SUBJECTS}", w)
    check_type(r, "threads", lambda v: v == 1, "1", w)
    check_type(r, "size", lambda v: v is None, "null", w)
    check_type(r, "retry_limit", lambda v: v is None, "null", w)
    check_type(r, "gb_per_sec", lambda v: v is None, "null", w)
    pos = lambda v: is_num(v) and v > 0
    ops_per_sec = check_type(r, "ops_per_sec", pos, "a positive number", w)
    ns = check_type(r, "ns_per_op", pos, "a positive number", w)
    if is_num(ops_per_sec) and is_num(ns):
        # Both are medians over the same repetitions: roughly reciprocal.
        check(abs(ops_per_sec * ns / 1e9 - 1) < 0.5,
              f"{w}: expected ops_per_sec ~ 1e9/ns_per_op, got {ops_per_sec} and {ns}")
    check_type(r, "headline", lambda v: v == "ns_per_op", "'ns_per_op'", w)
    runs = check_type(r, "runs",
                      lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                      f"a list of {repeat} positive numbers", w)
    spread = check_type(r, "spread", lambda v: isinstance(v, dict), "an object", w)
    if isinstance(spread, dict):
        for key in ("min", "max", "median", "rel_spread"):
            check_type(spread, key, lambda v: is_num(v) and v >= 0, "a number >= 0",
                       w + ".spread")
        if isinstance(runs, list) and runs and all(is_num(x) for x in runs):
            check(spread.get("min") == min(runs) and spread.get("max") == max(runs),
                  f"{w}.spread: expected min/max of runs {runs}, got {spread}")
    check_type(r, "count", lambda v: v == count, str(count), w)
    check_type(r, "ops", lambda v: v == 2 * count - 1, str(2 * count - 1), w)
    check_type(r, "cycles_per_op", pos, "a positive number", w)
    check_type(r, "in_sync", lambda v: v is True, "true", w)
    check_type(r, "ratio_to", lambda v: v == "atomic", "'atomic'", w)
    if baseline_present:
        ratio = check_type(r, "ratio", pos, "a positive number", w)
        check_type(r, "ratio_runs",
                   lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                   f"a list of {repeat} positive numbers", w)
        if subj == "atomic":
            check(ratio == 1.0, f"{w}: expected ratio 1.0 for the baseline itself, got {ratio!r}")
            check(r.get("ratio_runs") == [1.0] * repeat,
                  f"{w}: expected ratio_runs all 1.0, got {r.get('ratio_runs')!r}")
    else:
        check_type(r, "ratio", lambda v: v is None, "null (atomic was not run)", w)
        check_type(r, "ratio_runs", lambda v: v is None, "null (atomic was not run)", w)
    per_thread = check_type(r, "per_thread",
                            lambda v: isinstance(v, list) and len(v) == 1,
                            "a list of one thread", w)
    if isinstance(per_thread, list) and per_thread:
        t = per_thread[0]
        check(isinstance(t, dict) and (t.get("cpu") is None or is_int(t.get("cpu"))) and
              t.get("ops") == 2 * count - 1,
              f"{w}.per_thread[0]: expected {{cpu: N|null, ops: {2 * count - 1}}}, got {t!r}")
    check_type(r, "fairness", lambda v: v == 1.0, "1.0 (one thread)", w)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("out")
    ap.add_argument("--subjects")
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()

    cmd = [a.bench, "refcount-timing", "--count", str(a.count), "--repeat", str(a.repeat),
           "--json", a.out]
    if a.subjects:
        cmd += ["--subjects", a.subjects]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)}: expected exit status 0, got {p.returncode}\n{p.stderr}")
        return 1
    check(p.stderr == "", f"stderr: expected nothing (not a terminal), got {p.stderr!r}")
    expected = a.subjects.split(",") if a.subjects else ALL_SUBJECTS
    for s in expected:
        check(re.search(rf"^{re.escape(s)}\s", p.stdout, re.M) is not None,
              f"stdout: expected a table row for '{s}', got:\n{p.stdout}")

    with open(a.out) as f:
        doc = json.load(f)
    check(doc.get("tool") == "hotline-bench", f"tool: expected 'hotline-bench', got {doc.get('tool')!r}")
    check(isinstance(doc.get("version"), str) and re.match(r"\d+\.\d+", doc.get("version", "")),
          f"version: expected the project version, got {doc.get('version')!r}")
    env = doc.get("env")
    if check(isinstance(env, dict), f"env: expected an object, got {env!r}"):
        check_env(env)
    cfg = doc.get("config")
    if check(isinstance(cfg, dict), f"config: expected an object, got {cfg!r}"):
        check_type(cfg, "quick", lambda v: v is False, "false", "config")
        check_type(cfg, "repeat", lambda v: v == a.repeat, str(a.repeat), "config")
        check_type(cfg, "duration", lambda v: v is None or is_num(v), "null or a number",
                   "config")
        check_type(cfg, "pin", lambda v: isinstance(v, str) and v != "", "a string", "config")
    results = doc.get("results")
    if check(isinstance(results, list), f"results: expected a list, got {results!r}"):
        got = [r.get("subject") for r in results if isinstance(r, dict)]
        check(got == [s for s in ALL_SUBJECTS if s in expected],
              f"results: expected subjects {expected}, in table order, got {got}")
        for i, r in enumerate(results):
            if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
                check_result(r, i, a.count, a.repeat, "atomic" in expected)

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"{a.out}: every contract field checked ({len(results)} results)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
