"""Run a hotline-bench scenario and check its JSON against the contract.

    check_json.py BENCH OUT.json [--scenario S] [--subjects a,b] [--repeat N]
                  [--count N]                          (refcount-timing)
                  [--threads LIST] [--duration S] [--quick]   (the others)
                  [--sizes LIST] [--mode hot|cold|both|used|all] (zero, copy)
                  [--until-decided SECS]

Runs `BENCH SCENARIO ... --json OUT.json` (refcount-timing by default),
expects exit status 0 and a table row per subject on stdout, then checks
every field of the JSON contract (bench/README.md, "JSON"): the "subjects"
object (../subjects_check.py: every entry's fields, and the results
agreeing with them), the subjects present (the scenario's table as --list
shows it, those --subjects names, less those this CPU cannot run: _lse
variants without LSE, as the note says; for contend, lockref-sweep and
openclose every subject at every thread count and retry limit), one run
per repetition, the environment (on arm64 "atomics", which must agree with
the CPU's LSE flag and with HOTLINE_EXPECT_LSE when that is set), and each
scenario's extras: refcount-timing's in_sync and ratio (exactly 1.0 for the
baseline); contend's and lockref-sweep's attempts per success (only for
subjects that count them; exactly 1 with one thread), fallback rate in
[0, 1] (only for the lockrefs that count their attempts), retry limits (the
subject's own in contend, HOTLINE_LOCKREF_RETRIES for the library's; every
limit of the sweep for a lockref that can fall back), latency quantiles in
order; openclose's "measures"; zero's modes (every subject at every size,
hot and, up to half the arena, cold; the dd subjects), GB/s consistent with
calls/s x size, ratio to the baseline, "measures" on the kernel's subjects,
"variant" and "plan"; copy's sweeps likewise (hot and, up to a quarter of the
arena, cold; the probe sweep from 8 B to 1 MiB; one word), its pipe's capacity
and word array. What each subject is comes from its "subjects" entry, never
from its name, but which of copy's sweeps measures it: those are named (the
subjects every architecture has, not its variants). Standard library only.
With --until-decided SECS the bench runs with --until-decided=SECS: a
result named by a decision of config.until_decided has exactly that
decision's repetitions, every other from --repeat up to the cap, each
ratio_runs as many as the result and its baseline both ran, and the
progress has its "until decided" lines (until_decided.py checks the
decisions themselves).
HOTLINE_TARGET_RUN in the environment, when set, is the program that runs
BENCH (an emulator such as scripts/qemu-arm64 in a cross build). Exit
status 0 when everything holds; otherwise every failed check is printed,
saying what was expected and what was found.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import subjects_check  # noqa: E402  (tests/subjects_check.py)
from checks import check, finish, target_cmd  # noqa: E402

SWEEP_LIMITS = [1, 2, 4, 15, 50, 100, 200, 500]
DEFAULT_THREADS = {"contend": [1, 2, 4, 8], "lockref-sweep": [2, 4, 8], "openclose": [1, 2, 4, 8]}
ZERO_DEFAULT_SIZES = sorted([1 << p for p in range(31)] +
                            [3, 17, 100, 1000, 3000, 65537, (3 << 20) + 3])
ZERO_QUICK_SIZES = [1, 17, 64, 256, 1000, 4096, 16384, 65537, 262144, 1 << 20, (3 << 20) + 3,
                    16 << 20, 64 << 20]
ZERO_DD_BLOCK = 1 << 20
ZERO_DD_TOTAL = {False: 4 << 30, True: 256 << 20}
# The notes that say a subject was left out: zero's dd subject without a tmpfs, and the
# subjects that need LSE on a CPU without it (not with --quick, unless --subjects).
SKIP_TMPFS_NOTE = re.compile(r"^hotline-bench: note: zero: no tmpfs .*: (\S+) skipped$", re.M)
NO_LSE_NOTE = re.compile(r"^hotline-bench: note: \S+: (.*) not run: this CPU has no LSE atomics$",
                         re.M)
# The progress when stderr is not a terminal: a line per finished subject (per
# result), with its time, and one per finished scenario, with the time elapsed and left.
PROGRESS_TIMES = r"; \d+:\d\d elapsed, about \d+:\d\d left(, up to \d+:\d\d more to decide)?$"
PROGRESS_UNTIL = re.compile(r"^hotline-bench: \[\d+/\d+\] until decided: .*" + PROGRESS_TIMES)
PROGRESS_SUBJECT = re.compile(r"^hotline-bench: \[(\d+)/(\d+)\] (.+?): (\S+)(, .+)? done, "
                              r"(\d+) repetitions? in (\d+\.\d\d) s" + PROGRESS_TIMES)
PROGRESS_SCENARIO = re.compile(r"^hotline-bench: \[(\d+)/(\d+)\] (\S+) done in \d+:\d\d" +
                               PROGRESS_TIMES)
# --until-decided: {point: repetitions} of the results a decision names; the cap; all results.
UNTIL = None
RESULTS = []


def point_key(r):
    return (r.get("scenario"), r.get("subject"), r.get("threads"), r.get("retry_limit"),
            r.get("size"), r.get("mode"))


def runs_ok(r, repeat):
    """(test, words) for a result's runs: REPEAT of them, or with --until-decided what its
    decision took (else from REPEAT to the cap)."""
    pos = lambda v: is_num(v) and v > 0
    if UNTIL is None:
        return (lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                f"a list of {repeat} positive numbers")
    want = UNTIL["exact"].get(point_key(r))
    if want is not None:
        return (lambda v: isinstance(v, list) and len(v) == want and all(pos(x) for x in v),
                f"a list of {want} positive numbers (its decision's repetitions)")
    cap = UNTIL["cap"]
    return (lambda v: isinstance(v, list) and repeat <= len(v) <= cap and
            all(pos(x) for x in v), f"a list of {repeat} to {cap} positive numbers")


def ratio_len(r, repeat):
    """How many ratio_runs result r has: REPEAT; with --until-decided, as many as it and its
    baseline (ratio_to, same point) both ran."""
    if UNTIL is None:
        return repeat
    n = len(r.get("runs") or [])
    base = next((b for b in RESULTS if b.get("subject") == r.get("ratio_to") and
                 b.get("scenario") == r.get("scenario") and b.get("size") == r.get("size") and
                 b.get("mode") == r.get("mode") and b.get("threads") == r.get("threads")), None)
    return min(n, len(base.get("runs") or [])) if base else n


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


def target(env):
    """(arm64, lse) of the machine the bench ran on, from its env."""
    env = env if isinstance(env, dict) else {}
    flags = env.get("flags") if isinstance(env.get("flags"), list) else []
    return env.get("arch") == "aarch64", "lse" in flags


# env.plan_machine: hl__zero_machine_probe(), what the automatic plans are derived from
# (src/plan.h); data/machines/ records it, tests/bench/test_plans.c reads it back.
PLAN_MACHINE_BOOLS = ("erms", "fsrm", "avx2", "avx512", "mops")
PLAN_MACHINE_SIZES = ("dczva_block", "l1d", "l2", "l3", "l3_sharing")


def check_plan_machine(env):
    w = "env.plan_machine"
    pm = check_type(env, "plan_machine", lambda v: isinstance(v, dict), "an object", "env")
    if not isinstance(pm, dict):
        return
    arch = env.get("arch")
    isa = arch if arch in ("x86_64", "aarch64") else "other"
    check_type(pm, "isa", lambda v: v == isa, f"{isa!r} (env.arch {arch!r})", w)
    check_type(pm, "vendor", lambda v: v in ("intel", "amd", "other"),
               "'intel', 'amd' or 'other'", w)
    for key in ("family", "model"):
        check_type(pm, key, lambda v: isinstance(v, str) and re.fullmatch(r"0x[0-9a-f]+", v),
                   "a hex number as a string, e.g. '0x19'", w)
    check(pm.get("family") == env.get("family"),
          f"{w}.family: expected env.family {env.get('family')!r}, got {pm.get('family')!r}")
    for key in PLAN_MACHINE_BOOLS:
        check_type(pm, key, lambda v: isinstance(v, bool), "true or false", w)
    flags = env.get("flags") if isinstance(env.get("flags"), list) else []
    for key in ("erms", "fsrm", "avx2", "mops"):
        check(pm.get(key) == (key in flags),
              f"{w}.{key}: expected {key in flags} (env.flags), got {pm.get(key)!r}")
    for key in PLAN_MACHINE_SIZES:
        check_type(pm, key, lambda v: is_int(v) and v >= 0, "a non-negative integer", w)
    check_type(pm, "caches_from", lambda v: v is None or (isinstance(v, str) and v != ""),
               "null or a non-empty string", w)
    if isinstance(env.get("zero_plan_sources"), str) and "derived: L2" in env["zero_plan_sources"]:
        check(is_int(pm.get("l2")) and pm["l2"] >= 65536,
              f"{w}.l2: the sources derive from L2, but l2 is {pm.get('l2')!r}")


def check_env(env, scenario):
    w = "env"
    arm64, lse = target(env)
    if arm64:
        # The run-time choice of the outline atomics: LSE exactly when the CPU has it.
        want = "lse" if lse else "llsc"
        expect = os.environ.get("HOTLINE_EXPECT_LSE")
        if expect in ("0", "1"):
            check(lse == (expect == "1"),
                  f"env.flags: HOTLINE_EXPECT_LSE={expect}, but 'lse' is "
                  f"{'' if lse else 'not '}among {env.get('flags')!r}")
        check_type(env, "atomics", lambda v: v == want, repr(want), w)
    else:
        check_type(env, "atomics", lambda v: v is None, "null (not arm64)", w)
    s = lambda v: isinstance(v, str) and v != ""
    for key in ("cpu", "arch", "vendor", "kernel", "libc", "compiler", "command"):
        check_type(env, key, s, "a non-empty string", w)
    check_type(env, "flags", lambda v: isinstance(v, list) and all(isinstance(f, str) for f in v),
               "a list of strings", w)
    check_type(env, "cpus", lambda v: is_int(v) and v >= 1, "a positive integer", w)
    source = r"=(\d+|max) \((derived: |default: |unused: |tunable\)).*"
    check_type(env, "zero_plan_sources",
               lambda v: isinstance(v, str) and
               re.fullmatch(r"vec_max" + source + r"; rep_max" + source, v) is not None,
               "hl_zero_plan_sources(): 'vec_max=N (SOURCE...); rep_max=N (SOURCE...)'", w)
    check_plan_machine(env)
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
    check(scenario in str(env.get("command")),
          f"env.command: expected the command line, got {env.get('command')!r}")


def check_result(r, i, count, repeat, facts):
    subj = r.get("subject")
    w = f"results[{i}] ({subj})"
    check_type(r, "scenario", lambda v: v == "refcount-timing", "'refcount-timing'", w)
    check_type(r, "subject", lambda v: v in facts, f"one of {list(facts)}", w)
    check_type(r, "threads", lambda v: v == 1, "1", w)
    check_type(r, "size", lambda v: v is None, "null", w)
    check_type(r, "retry_limit", lambda v: v is None, "null", w)
    check_type(r, "gb_per_sec", lambda v: v is None, "null", w)
    pos = lambda v: is_num(v) and v > 0
    ops_per_sec = check_type(r, "ops_per_sec", pos, "a positive number", w)
    ns = check_type(r, "ns_per_op", pos, "a positive number", w)
    check_type(r, "headline", lambda v: v == "ns_per_op", "'ns_per_op'", w)
    runs = check_type(r, "runs", *runs_ok(r, repeat), w)
    if isinstance(runs, list) and runs and all(pos(x) for x in runs) and is_num(ops_per_sec) \
            and is_num(ns):
        # Medians of the runs (ns per op) and of their reciprocals (ops/s): on a
        # loaded machine two runs may differ a lot, so the medians need not be
        # reciprocal, but each lies within the runs.
        lo, hi = min(runs) * (1 - 1e-9), max(runs) * (1 + 1e-9)
        check(lo <= ns <= hi, f"{w}: expected ns_per_op (the median) within runs {runs}, got {ns}")
        check(lo <= 1e9 / ops_per_sec <= hi,
              f"{w}: expected 1e9/ops_per_sec within runs {runs}, got ops_per_sec {ops_per_sec}")
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
    # The subjects ran by turns in slices of each direction: 64, or fewer so
    # that none is under 2^14 operations, and at least one.
    slices = max(1, min(64, count // (1 << 14)))
    check_type(r, "slices", lambda v: v == slices, str(slices), w)
    check_type(r, "cycles_per_op", pos, "a positive number", w)
    check_type(r, "in_sync", lambda v: v is True, "true", w)
    # The baseline: every subject's but the baseline's own, which is its own (ratio 1.0).
    f = facts.get(subj) or {}
    base = f.get("baseline") or subj
    check_type(r, "ratio_to", lambda v: v == base, repr(base), w)
    if base in facts:
        ratio = check_type(r, "ratio", pos, "a positive number", w)
        nr = ratio_len(r, repeat)
        check_type(r, "ratio_runs",
                   lambda v: isinstance(v, list) and len(v) == nr and all(pos(x) for x in v),
                   f"a list of {nr} positive numbers", w)
        if base == subj:
            check(ratio == 1.0, f"{w}: expected ratio 1.0 for the baseline itself, got {ratio!r}")
            check(r.get("ratio_runs") == [1.0] * nr,
                  f"{w}: expected ratio_runs all 1.0, got {r.get('ratio_runs')!r}")
    else:
        check_type(r, "ratio", lambda v: v is None, f"null ({base} was not run)", w)
        check_type(r, "ratio_runs", lambda v: v is None, f"null ({base} was not run)", w)
    per_thread = check_type(r, "per_thread",
                            lambda v: isinstance(v, list) and len(v) == 1,
                            "a list of one thread", w)
    if isinstance(per_thread, list) and per_thread:
        t = per_thread[0]
        check(isinstance(t, dict) and (t.get("cpu") is None or is_int(t.get("cpu"))) and
              t.get("ops") == 2 * count - 1,
              f"{w}.per_thread[0]: expected {{cpu: N|null, ops: {2 * count - 1}}}, got {t!r}")
    check_type(r, "fairness", lambda v: v == 1.0, "1.0 (one thread)", w)


def check_timed_common(r, w, threads, repeat, duration):
    """The fields every result of a timed, threaded scenario has."""
    check_type(r, "threads", lambda v: v == threads, str(threads), w)
    check_type(r, "size", lambda v: v is None, "null", w)
    check_type(r, "gb_per_sec", lambda v: v is None, "null", w)
    check_type(r, "headline", lambda v: v == "ops_per_sec", "'ops_per_sec'", w)
    pos = lambda v: is_num(v) and v > 0
    ops_per_sec = check_type(r, "ops_per_sec", pos, "a positive number", w)
    ns = check_type(r, "ns_per_op", pos, "a positive number", w)
    runs = check_type(r, "runs", *runs_ok(r, repeat), w)
    if isinstance(runs, list) and runs and all(is_num(x) for x in runs) and is_num(ops_per_sec) \
            and is_num(ns):
        # Medians of the runs: ops_per_sec of them, ns_per_op of their reciprocals
        # (short runs differ a lot, so the two medians need not be reciprocal).
        lo, hi = min(runs) * (1 - 1e-9), max(runs) * (1 + 1e-9)
        check(lo <= ops_per_sec <= hi,
              f"{w}: expected ops_per_sec (the median) within runs {runs}, got {ops_per_sec}")
        check(lo <= 1e9 / ns <= hi,
              f"{w}: expected 1e9/ns_per_op within runs {runs}, got ns_per_op {ns}")
    spread = check_type(r, "spread", lambda v: isinstance(v, dict), "an object", w)
    if isinstance(spread, dict) and isinstance(runs, list) and runs and \
            all(is_num(x) for x in runs):
        check(spread.get("min") == min(runs) and spread.get("max") == max(runs),
              f"{w}.spread: expected min/max of runs {runs}, got {spread}")
    per_thread = check_type(r, "per_thread",
                            lambda v: isinstance(v, list) and len(v) == threads,
                            f"a list of {threads} threads", w)
    for j, t in enumerate(per_thread if isinstance(per_thread, list) else []):
        check(isinstance(t, dict) and (t.get("cpu") is None or is_int(t.get("cpu"))) and
              is_int(t.get("ops")) and t.get("ops") >= 0,
              f"{w}.per_thread[{j}]: expected {{cpu: N|null, ops: N >= 0}}, got {t!r}")
    check_type(r, "fairness", lambda v: is_num(v) and 1 / threads - 1e-9 <= v <= 1 + 1e-9,
               f"Jain's index in [1/{threads}, 1]", w)
    check_type(r, "duration", lambda v: is_num(v) and abs(v - duration) < 1e-9, str(duration), w)


def check_contention_slices(r, w, duration, cpus):
    """contend and lockref-sweep: slices, one per 50 ms of the duration, 1 to 10; 1 where the
    threads outnumber the CPUs (the tests pin by default: one thread per CPU while they last)."""
    threads = r.get("threads") if is_int(r.get("threads")) else 0
    want = 1 if threads > cpus else max(1, min(10, int(duration / 0.05 + 1e-9)))
    check_type(r, "slices", lambda v: v == want,
               f"{want} (one per 50 ms of {duration} s, 1 to 10; 1 with more threads than "
               f"the {cpus} CPUs)", w)


def check_contention_extras(r, w, f, threads):
    """contend and lockref-sweep: op, attempts, fallback rate, latency; f: the subject's facts."""
    check_type(r, "op", lambda v: v == "get+put", "'get+put'", w)
    # A lockref that counts its attempts (the instrumented copy) counts its fallbacks too.
    counts_fallbacks = f.get("kind") == "lockref" and f.get("counts_attempts") is True
    fallback = check_type(r, "fallback_rate",
                          (lambda v: is_num(v) and 0 <= v <= 1) if counts_fallbacks
                          else (lambda v: v is None),
                          "a fraction in [0, 1]" if counts_fallbacks
                          else "null (no counted locked path to fall back to)", w)
    att = r.get("attempts_per_success")
    if f.get("counts_attempts") is not True:
        check_type(r, "attempts_per_success", lambda v: v is None,
                   "null (not a counted compare-and-swap loop)", w)
    elif att is None and fallback == 1:
        pass  # every operation fell back: no lockless success to count
    elif check_type(r, "attempts_per_success", lambda v: isinstance(v, dict),
                    "an object {mean, p50, p99, max}", w):
        mean = check_type(att, "mean", lambda v: is_num(v) and v >= 1, "a number >= 1",
                          w + ".attempts_per_success")
        q = [check_type(att, k, lambda v: is_int(v) and v >= 1, "an integer >= 1",
                        w + ".attempts_per_success") for k in ("p50", "p99", "max")]
        if all(is_int(x) for x in q):
            check(q[0] <= q[1] <= q[2],
                  f"{w}.attempts_per_success: expected p50 <= p99 <= max, got {att}")
            if is_num(mean):
                check(mean <= q[2], f"{w}.attempts_per_success: expected mean <= max, got {att}")
            if threads == 1:
                # Nothing else touches the line: every compare-and-swap succeeds at once.
                check(q[2] == 1 and mean == 1,
                      f"{w}.attempts_per_success: expected exactly 1 attempt with one thread, "
                      f"got {att}")
    if threads == 1 and counts_fallbacks and is_num(fallback):
        check(fallback == 0, f"{w}: expected fallback_rate 0 with one thread, got {fallback}")
    lat = r.get("latency_ns")
    if check_type(r, "latency_ns", lambda v: isinstance(v, dict),
                  "an object {p50, p99, p999, max}", w):
        # 0 is a time below one tick of the counter: arm64's CNTVCT_EL0 (10-40 ns a tick)
        # is often coarser than an uncontended op.
        vals = [check_type(lat, k, lambda v: is_num(v) and v >= 0, "a number >= 0",
                           w + ".latency_ns") for k in ("p50", "p99", "p999", "max")]
        if all(is_num(x) for x in vals):
            check(vals[0] <= vals[1] <= vals[2] <= vals[3],
                  f"{w}.latency_ns: expected p50 <= p99 <= p999 <= max, got {lat}")
    # Every thread times its first op, if it ends before the stop: a thread the
    # scheduler ran only after the deadline (more threads than CPUs) has none.
    check_type(r, "latency_samples", lambda v: is_int(v) and v >= 1,
               "an integer >= 1 (every thread times its first op, if it ends in time)", w)
    check_type(r, "latency_resolution_ns", lambda v: v is None or (is_num(v) and v > 0),
               "a positive number or null", w)


def measured_subjects(a, env, listed, facts, stderr):
    """The subjects the run measured, checked against the table: those of --list that
    --subjects names (every one by default), in table order, then those it names that
    --list does not show (run only when named: contend's *_noprobes twins), in the order
    named, less, on a CPU without LSE, those that need it (they have no facts in the
    file; the note names them unless --quick). Returns the list, as "subjects" holds
    it."""
    named = a.subjects.split(",") if a.subjects else listed
    want = [s for s in listed if s in named] + [s for s in named if s not in listed]
    got = list(facts)
    arm64, lse = target(env)
    left = [s for s in want if s not in got]
    if arm64 and not lse:
        m = NO_LSE_NOTE.search(stderr)
        if m:
            check(left == m.group(1).split(", "),
                  f"subjects: expected every subject but those the note leaves out "
                  f"({m.group(1)}), got {got}")
        check(all(facts[s].get("variant") != "lse" for s in got),
              f"subjects: expected no LSE variant measured without LSE, got {got}")
        want = [s for s in want if s not in left]
    check(got == want, f"subjects: expected the table's {want}, in order, got {got}")
    return want


def expected_cases(a, subjects, facts):
    """(subject, retry_limit) of every result of a threaded scenario, in table order."""
    if a.scenario == "contend":
        # Each subject at its own limit; the library's is HOTLINE_LOCKREF_RETRIES (default 100).
        lib = int(os.environ.get("HOTLINE_LOCKREF_RETRIES", "100") or 100)
        for s in subjects:
            f = facts.get(s, {})
            if f.get("kind") == "lockref" and f.get("library"):
                check(f.get("retry_limit") == (lib or None),
                      f"subjects.contend.{s}: the library's lockref, expected retry_limit "
                      f"{lib or None} (HOTLINE_LOCKREF_RETRIES), got {f.get('retry_limit')!r}")
        return [(s, facts.get(s, {}).get("retry_limit")) for s in subjects]
    if a.scenario == "lockref-sweep":
        # A lockref that can fall back at every limit; one that cannot, once, without one.
        cases = []
        for s in subjects:
            cases += ([(s, lim) for lim in SWEEP_LIMITS] if facts.get(s, {}).get("fallback")
                      else [(s, None)])
        return cases
    return [(s, None) for s in subjects]


def check_threaded_results(a, subjects, facts, results, repeat, threads_list, duration):
    cases = expected_cases(a, subjects, facts)
    want = [(t, s, lim) for t in threads_list for s, lim in cases]
    got = [(r.get("threads"), r.get("subject"), r.get("retry_limit")) for r in results
           if isinstance(r, dict)]
    check(got == want, f"results: expected (threads, subject, retry_limit) {want}, got {got}")
    for i, r in enumerate(results):
        if not check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
            continue
        subj = r.get("subject")
        w = f"results[{i}] ({subj}, {r.get('threads')} threads, limit {r.get('retry_limit')})"
        check_type(r, "scenario", lambda v: v == a.scenario, repr(a.scenario), w)
        check_timed_common(r, w, r.get("threads") if is_int(r.get("threads")) else 0,
                           repeat, duration)
        if a.scenario == "openclose":
            check_type(r, "measures",
                       lambda v: isinstance(v, str) and v.startswith("host kernel"),
                       "a string starting 'host kernel'", w)
            check_type(r, "workers", lambda v: v == subj, repr(subj), w)
            check_type(r, "op", lambda v: isinstance(v, str) and "open" in v,
                       "a string naming open", w)
        else:
            check_contention_extras(r, w, facts.get(subj, {}), r.get("threads"))
            check_contention_slices(r, w, duration, len(os.sched_getaffinity(0)))


def parse_sizes(text):
    """--sizes as the bench reads it: K/M/G are powers of 1024; sorted, no duplicates."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    out = set()
    for item in text.split(","):
        unit = units.get(item[-1].lower(), 1)
        out.add(int(item[:-1] if unit > 1 else item) * unit)
    return sorted(out)


def listed_subjects(bench, scenario):
    """A scenario's subjects in table order, as --list shows them."""
    p = subprocess.run(target_cmd(bench, "--list"), stdout=subprocess.PIPE, text=True)
    names, inside = [], False
    for line in p.stdout.splitlines():
        if not line.startswith(" "):
            inside = line.startswith(scenario + ":")
        elif inside:
            names.append(line.split()[0])
    return names



def unsupported_variants(p):
    """The variants the table's head says this CPU cannot run (a sized scenario's stdout)."""
    m = re.search(r"^variants this CPU cannot run \(not measured\): (.*)$", p.stdout, re.M)
    return set(m.group(1).split(", ")) if m else set()


def check_variants_first(a, facts, subjects, listed, unsupported):
    """The library's variants come first among SUBJECTS; with no --subjects, --list (LISTED)
    has some, unless this CPU runs none of them (UNSUPPORTED)."""
    variants = [bool(facts.get(s, {}).get("variant_of")) for s in subjects]
    check(variants == sorted(variants, reverse=True),
          f"subjects: expected the library's variants first, got {subjects}")
    if not a.subjects:
        check(any(variants) or unsupported,
              f"--list: expected the library's variants among the subjects, got {listed}")


def sized_slices(duration):
    """The most slices a sized sample of DURATION seconds is cut into: one per ms, 1 to 8."""
    return max(1, min(8, int(duration * 1e9 + 0.5) // 1000000))


def check_arena(r, w, size, cold, times, times_words, not_cold):
    """A sized result's duration, its slices (cold: sized_slices; hot: as many or fewer, so
    that each holds enough calls: slices.py) and llc_bytes; its arena_bytes where it ran COLD
    (buffers that leave the caches): at least TIMES the size and 4 x llc_bytes (up to 2 GiB);
    else null (NOT_COLD says why)."""
    duration = check_type(r, "duration", lambda v: is_num(v) and v > 0, "seconds per sample", w)
    if is_num(duration):
        most = sized_slices(duration)
        if cold:
            check_type(r, "slices", lambda v: v == most,
                       f"{most} (one per ms of the duration, 1 to 8)", w)
        else:
            check_type(r, "slices", lambda v: is_int(v) and 1 <= v <= most,
                       f"1 to {most} (at most one per ms of the duration, 1 to 8)", w)
    llc = check_type(r, "llc_bytes", lambda v: is_int(v) and v > 0, "a byte count", w)
    if cold:
        check_type(r, "arena_bytes",
                   lambda v: is_int(v) and v >= times * size and
                   (not is_int(llc) or v >= min(4 * llc, 2 << 30)),
                   f"a byte count: at least {times_words} the size and 4 x llc_bytes (up to 2 GiB)",
                   w)
    else:
        check_type(r, "arena_bytes", lambda v: v is None, f"null ({not_cold})", w)


def check_variant_and_plan(r, f, subj, auto, function, w):
    """A forced variant of FUNCTION (hl_zero, hl_try_copy) names itself; where the subject
    runs FUNCTION's automatic plan (AUTO), "auto" and the plan; else both null."""
    want_variant = subj if f.get("variant_of") else "auto" if auto else None
    check_type(r, "variant", lambda v: v == want_variant, repr(want_variant), w)
    check_type(r, "plan",
               (lambda v: isinstance(v, str) and v != "") if auto else (lambda v: v is None),
               f"{function}'s plan (a string)" if auto else "null", w)


def check_sized_ratio(r, f, subj, ran, repeat, w, ratio_checked):
    """ratio_to is the subject's baseline (itself if none); where the baseline ran beside it
    (in RAN), ratio_runs one positive ratio per paired repetition (and ratio a positive number
    where RATIO_CHECKED), both exactly 1.0 for the baseline itself; else both null."""
    pos = lambda v: is_num(v) and v > 0  # noqa: E731
    base = f.get("baseline") or subj
    check_type(r, "ratio_to", lambda v: v == base, repr(base), w)
    if base in ran:
        if ratio_checked:
            check_type(r, "ratio", pos, "a positive number", w)
        nr = ratio_len(r, repeat)
        check_type(r, "ratio_runs",
                   lambda v: isinstance(v, list) and len(v) == nr and all(pos(x) for x in v),
                   f"a list of {nr} positive numbers", w)
        if base == subj:
            check(r.get("ratio") == 1.0 and r.get("ratio_runs") == [1.0] * nr,
                  f"{w}: expected ratio and ratio_runs exactly 1.0 for the baseline itself, got "
                  f"{r.get('ratio')!r} {r.get('ratio_runs')!r}")
    else:
        check_type(r, "ratio", lambda v: v is None, f"null ({base} was not run here)", w)
        check_type(r, "ratio_runs", lambda v: v is None, f"null ({base} was not run here)", w)


def check_zero_result(r, w, repeat, facts, buffer):
    """Fields of every zero result; facts: zero's "subjects", buffer: the hot/cold subjects
    measured. Returns nothing, records failures."""
    subj, mode = r.get("subject"), r.get("mode")
    f = facts.get(subj, {})
    pos = lambda v: is_num(v) and v > 0
    check_type(r, "scenario", lambda v: v == "zero", "'zero'", w)
    check_type(r, "threads", lambda v: v == 1, "1", w)
    size = check_type(r, "size", lambda v: is_int(v) and v >= 1, "a byte count", w)
    check_type(r, "retry_limit", lambda v: v is None, "null", w)
    check_type(r, "headline", lambda v: v == "gb_per_sec", "'gb_per_sec'", w)
    gb = check_type(r, "gb_per_sec", pos, "a positive number", w)
    ops = check_type(r, "ops_per_sec", pos, "a positive number", w)
    check_type(r, "ns_per_op", pos, "a positive number", w)
    test, words = runs_ok(r, repeat)
    runs = check_type(r, "runs", test, words + " (GB/s of each repetition)", w)
    if isinstance(runs, list) and runs and all(pos(x) for x in runs) and is_num(gb):
        lo, hi = min(runs) * (1 - 1e-9), max(runs) * (1 + 1e-9)
        check(lo <= gb <= hi, f"{w}: expected gb_per_sec (the median) within runs {runs}, got {gb}")
        spread = r.get("spread")
        check(isinstance(spread, dict) and spread.get("min") == min(runs) and
              spread.get("max") == max(runs),
              f"{w}.spread: expected min/max of runs {runs}, got {spread!r}")
    if mode != "dd" and is_num(gb) and is_num(ops) and is_int(size):
        # Each repetition's GB/s is its calls/s times the size: so are the medians.
        check(abs(gb - ops * size / 1e9) <= 1e-6 * gb,
              f"{w}: expected gb_per_sec = ops_per_sec x size / 1e9 = {ops * size / 1e9}, "
              f"got {gb}")
    per_thread = check_type(r, "per_thread", lambda v: isinstance(v, list) and len(v) == 1,
                            "a list of one thread", w)
    if isinstance(per_thread, list) and per_thread:
        t = per_thread[0]
        check(isinstance(t, dict) and (t.get("cpu") is None or is_int(t.get("cpu"))) and
              is_int(t.get("ops")) and t.get("ops") >= 1,
              f"{w}.per_thread[0]: expected {{cpu: N|null, ops: N >= 1}}, got {t!r}")
    check_type(r, "fairness", lambda v: v == 1.0, "1.0 (one thread)", w)
    kernel = lambda v: isinstance(v, str) and v.startswith("host kernel")
    if mode == "dd":
        check_type(r, "size", lambda v: v == ZERO_DD_BLOCK, f"{ZERO_DD_BLOCK} (the block size)", w)
        check_type(r, "total_bytes", lambda v: is_int(v) and v >= ZERO_DD_BLOCK,
                   "a byte count of at least one block", w)
        check_type(r, "source", lambda v: isinstance(v, str) and v != "", "a string", w)
        check_type(r, "measures", kernel, "a string starting 'host kernel'", w)
        return
    check_type(r, "mode", lambda v: v in ("hot", "cold", "used"), "'hot', 'cold', 'used' or 'dd'",
               w)
    check_arena(r, w, size, mode in ("cold", "used"), 2, "twice", "hot")
    # A variant of hl_zero is forced (its own name); the library's other clearing
    # functions run the automatic plan; the rest are not hotline's.
    auto = f.get("kind") == "zero" and f.get("library") and not f.get("variant_of")
    check_variant_and_plan(r, f, subj, auto, "hl_zero", w)
    host = f.get("kind") in ("syscall", "dd")
    check_type(r, "measures", kernel if host else (lambda v: v is None),
               "a string starting 'host kernel'" if host else "null", w)
    check_sized_ratio(r, f, subj, buffer, repeat, w, ratio_checked=True)


def check_zero(a, p, results, repeat, facts):
    """zero: what ran (subjects, sizes, modes, in order), every result's fields, the table;
    facts: zero's "subjects"."""
    listed = listed_subjects(a.bench, "zero")
    unsupported = unsupported_variants(p)
    named = a.subjects.split(",") if a.subjects else listed
    skipped = set(SKIP_TMPFS_NOTE.findall(p.stderr))
    subjects = [s for s in listed if s in named and s not in unsupported | skipped]
    check(list(facts) == subjects,
          f"subjects: expected the table's {subjects} (less what this CPU or machine cannot "
          f"run), in order, got {list(facts)}")
    check_variants_first(a, facts, subjects, listed, unsupported)
    # The dd subjects run after the others, in a mode of their own.
    buffer = [s for s in subjects if facts.get(s, {}).get("kind") != "dd"]
    dd = [s for s in subjects if facts.get(s, {}).get("kind") == "dd"]
    sizes = (parse_sizes(a.sizes) if a.sizes else ZERO_QUICK_SIZES if a.quick
             else ZERO_DEFAULT_SIZES)
    modes = {None: ["hot", "cold"], "both": ["hot", "cold"],
             "all": ["hot", "cold", "used"]}.get(a.mode, [a.mode])
    arena = next((r.get("arena_bytes") for r in results if isinstance(r, dict) and
                  r.get("mode") in ("cold", "used")), None)
    want = []
    for mode in modes:
        for size in sizes:
            if mode in ("cold", "used") and is_int(arena) and size > arena // 2:
                continue  # beyond half the arena: hot only
            want += [(mode, size, s) for s in buffer]
    want += [("dd", ZERO_DD_BLOCK, s) for s in dd]
    got = [(r.get("mode"), r.get("size"), r.get("subject")) for r in results
           if isinstance(r, dict)]
    check(got == want, f"results: expected (mode, size, subject) {want}, got {got}")
    for i, r in enumerate(results):
        if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
            w = f"results[{i}] ({r.get('subject')}, {r.get('mode')}, {r.get('size')} B)"
            check_zero_result(r, w, repeat, facts, buffer)
            if r.get("mode") == "dd":
                check(r.get("total_bytes") == ZERO_DD_TOTAL[a.quick],
                      f"{w}: expected total_bytes {ZERO_DD_TOTAL[a.quick]}, "
                      f"got {r.get('total_bytes')!r}")
    # The table: a header naming every subject per mode, then a row per size; dd rows.
    for mode in modes if buffer else []:
        h = re.search(rf"^{mode}, GB/s.*\n(size .*)$", p.stdout, re.M)
        if check(h is not None, f"stdout: expected a '{mode}, GB/s' table, got:\n{p.stdout}"):
            check(h.group(1).split()[1:] == buffer,
                  f"stdout: expected the {mode} table's columns {buffer}, got {h.group(1)!r}")
    for s in dd:
        check(re.search(rf"^{s}\s", p.stdout, re.M) is not None,
              f"stdout: expected a dd row for '{s}', got:\n{p.stdout}")


# copy (issue 19): its sweeps, which subject each measures (the names every architecture
# has), and the probe sweep's sizes.
COPY_QUICK_SIZES = [1, 17, 64, 256, 1000, 4096, 16384, 65537, 262144, 1 << 20, 16 << 20,
                    64 << 20]
COPY_PROBE_SIZES = [8, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20]
COPY_WORD = ("hl_try_load64", "process_vm_readv_word")
COPY_PROBE_ONLY = ("process_vm_readv", "pipe_probe")
COPY_BOTH = "hl_try_copy"
NO_PVR_NOTE = re.compile(r"^hotline-bench: note: copy: process_vm_readv does not work here "
                         r"\(.*\): (\S+) skipped$", re.M)
COPY_USED_NOTE = re.compile(r"^hotline-bench: note: copy: --mode used does not apply .*$", re.M)
# A variant --subjects names that this CPU cannot run (copy_variants.sh names each one).
COPY_UNSUPPORTED_NOTE = re.compile(r"^hotline-bench: note: copy: (\S+) is not supported by this "
                                   r"CPU; skipped$", re.M)


def check_copy_result(r, w, repeat, facts, ran):
    """Fields of every copy result; RAN: {(mode, size): [subjects measured there]}."""
    subj, mode = r.get("subject"), r.get("mode")
    f = facts.get(subj, {})
    pos = lambda v: is_num(v) and v > 0
    word = mode == "word"
    check_type(r, "scenario", lambda v: v == "copy", "'copy'", w)
    check_type(r, "threads", lambda v: v == 1, "1", w)
    size = check_type(r, "size", lambda v: is_int(v) and v >= 1, "a byte count", w)
    check_type(r, "retry_limit", lambda v: v is None, "null", w)
    head = "ns_per_op" if word else "gb_per_sec"
    check_type(r, "headline", lambda v: v == head, repr(head), w)
    gb = check_type(r, "gb_per_sec", pos, "a positive number", w)
    ops = check_type(r, "ops_per_sec", pos, "a positive number", w)
    check_type(r, "ns_per_op", pos, "a positive number", w)
    test, words = runs_ok(r, repeat)
    runs = check_type(r, "runs", test, words + f" ({head} of each repetition)", w)
    if isinstance(runs, list) and runs and all(pos(x) for x in runs):
        lo, hi = min(runs) * (1 - 1e-9), max(runs) * (1 + 1e-9)
        check(lo <= r.get(head, 0) <= hi,
              f"{w}: expected {head} (the median) within runs {runs}, got {r.get(head)}")
    if is_num(gb) and is_num(ops) and is_int(size):
        check(abs(gb - ops * size / 1e9) <= 1e-6 * gb,
              f"{w}: expected gb_per_sec = ops_per_sec x size / 1e9, got {gb}")
    check_type(r, "fairness", lambda v: v == 1.0, "1.0 (one thread)", w)
    check_type(r, "mode", lambda v: v in ("hot", "cold", "probe", "word"),
               "'hot', 'cold', 'probe' or 'word'", w)
    check_arena(r, w, size, mode == "cold", 4, "4 x", "not cold")
    if word:
        check_type(r, "size", lambda v: v == 8, "8 (one word per call)", w)
        check_type(r, "array_bytes", lambda v: is_int(v) and v >= 8, "a byte count", w)
    if mode == "probe":
        pipe = subj == "pipe_probe"
        check_type(r, "pipe_bytes", (lambda v: is_int(v) and v >= 4096) if pipe else
                   (lambda v: v is None), "the pipe's capacity" if pipe else "null", w)
    # A variant of hl_try_copy is forced (its own name); hl_try_copy runs the plan.
    check_variant_and_plan(r, f, subj, subj == COPY_BOTH, "hl_try_copy", w)
    host = f.get("kind") == "syscall"
    kernel = lambda v: isinstance(v, str) and v.startswith("host kernel")
    check_type(r, "measures", kernel if host else (lambda v: v is None),
               "a string starting 'host kernel'" if host else "null", w)
    check_sized_ratio(r, f, subj, ran.get((mode, size), []), repeat, w, ratio_checked=False)


def check_copy(a, p, results, repeat, facts):
    """copy: what ran (each sweep's subjects at its sizes, in order), every result's fields,
    the tables."""
    listed = listed_subjects(a.bench, "copy")
    unsupported = unsupported_variants(p)
    noted = set(COPY_UNSUPPORTED_NOTE.findall(p.stderr))
    check(noted <= unsupported, f"stderr: a variant said to be unsupported ({sorted(noted)}) "
          f"is not in the table's head ({sorted(unsupported)})")
    named = a.subjects.split(",") if a.subjects else listed
    skipped = set(NO_PVR_NOTE.findall(p.stderr))
    chosen = [s for s in listed if s in named and s not in unsupported | skipped]
    modes = {None: ["hot", "cold"], "both": ["hot", "cold"], "all": ["hot", "cold"],
             "used": []}.get(a.mode, [a.mode])
    sweep = [s for s in chosen if s not in COPY_WORD + COPY_PROBE_ONLY]
    probe = [s for s in chosen if s in COPY_PROBE_ONLY + (COPY_BOTH,)] \
        if "hot" in modes and any(s in COPY_PROBE_ONLY for s in chosen) else []
    word = [s for s in chosen if s in COPY_WORD] if "hot" in modes else []
    measured = [s for s in chosen if s in sweep and modes or s in probe or s in word]
    check(list(facts) == measured,
          f"subjects: expected {measured} (the table's, less what this CPU cannot run), in "
          f"order, got {list(facts)}")
    check_variants_first(a, facts, measured, listed, unsupported)
    sizes = (parse_sizes(a.sizes) if a.sizes else COPY_QUICK_SIZES if a.quick
             else ZERO_DEFAULT_SIZES)
    psizes = [x for x in sizes if 8 <= x <= 1 << 20] if a.sizes else \
        COPY_PROBE_SIZES[::2] if a.quick else COPY_PROBE_SIZES
    arena = next((r.get("arena_bytes") for r in results if isinstance(r, dict) and
                  r.get("mode") == "cold"), None)
    want = []
    for mode in modes:
        for size in sizes:
            if mode == "cold" and is_int(arena) and size > arena // 4:
                continue
            want += [(mode, size, s) for s in sweep]
    for size in psizes:
        want += [("probe", size, s) for s in probe]
    want += [("word", 8, s) for s in word]
    got = [(r.get("mode"), r.get("size"), r.get("subject")) for r in results
           if isinstance(r, dict)]
    check(got == want, f"results: expected (mode, size, subject) {want}, got {got}")
    ran = {}
    for mode, size, s in got:
        ran.setdefault((mode, size), []).append(s)
    for i, r in enumerate(results):
        if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
            w = f"results[{i}] ({r.get('subject')}, {r.get('mode')}, {r.get('size')} B)"
            check_copy_result(r, w, repeat, facts, ran)
    for mode, cols in [(m, sweep) for m in modes] + [("probe", probe), ("word", word)]:
        if not cols:
            continue
        h = re.search(rf"^{mode}, (GB/s|ns per word).*\n(size .*)$", p.stdout, re.M)
        if check(h is not None, f"stdout: expected a '{mode}' table, got:\n{p.stdout}"):
            check(h.group(2).split()[1:] == cols,
                  f"stdout: expected the {mode} table's columns {cols}, got {h.group(2)!r}")


def check_progress(stderr, scenario, results, repeat, facts):
    """The progress lines (stderr not a terminal): one per result, in order, each
    naming its subject (and, in lockref-sweep, the retry limit measured) with the
    repetitions' time; positions rising to the planned total; then the scenario's."""
    lines = stderr.splitlines()
    subj = [m for m in (PROGRESS_SUBJECT.match(l) for l in lines) if m]
    scen = [m for m in (PROGRESS_SCENARIO.match(l) for l in lines) if m]
    check(len(subj) == len(results),
          f"stderr: expected a progress line per result ({len(results)}), got {len(subj)}: "
          f"{stderr!r}")
    check(all(m.group(3).split(",")[0] == scenario for m in subj),
          f"stderr: expected every progress line to name {scenario}, got {stderr!r}")
    check(all(int(m.group(6)) == repeat for m in subj),
          f"stderr: expected {repeat} repetitions in every progress line, got {stderr!r}")
    pos = [int(m.group(1)) for m in subj]
    check(pos == sorted(pos) and len(set(pos)) == len(pos),
          f"stderr: expected the positions to rise, got {pos}")
    # The plan is exact, but for a dd subject left out for want of a tmpfs.
    planned = SKIP_TMPFS_NOTE.search(stderr) or not scen or scen[0].group(1) == scen[0].group(2)
    check(len(scen) == 1 and scen[0].group(3) == scenario and planned and
          (not pos or int(scen[0].group(1)) == pos[-1]),
          f"stderr: expected one line '[N/N] {scenario} done in m:ss' at the end, got {stderr!r}")
    names = sorted((m.group(4), m.group(5) or "") for m in subj)
    want = sorted((r.get("subject"), "") for r in results if isinstance(r, dict))
    if scenario in ("contend", "lockref-sweep"):
        # A lockref's line names the retry limit it measured, or that it has none.
        def limit(r):
            f = facts.get(r.get("subject")) or {}
            if r.get("retry_limit"):
                return f", retry limit {r['retry_limit']}"
            return ", no retry limit" if f.get("kind") == "lockref" and not f.get("fallback") \
                else ""
        want = sorted((r.get("subject"), limit(r)) for r in results if isinstance(r, dict))
    if scenario == "lockref-sweep":
        limits = {int(m.group(5)[len(", retry limit "):]) for m in subj
                  if (m.group(5) or "").startswith(", retry limit ")}
        check(limits == set(SWEEP_LIMITS),
              f"stderr: expected lockref-sweep's lines to name every limit {SWEEP_LIMITS}, "
              f"got {sorted(limits)}")
        check(all(m.group(5) for m in subj),
              f"stderr: expected every lockref-sweep line to name its retry limit, got {stderr!r}")
    check(names == want, f"stderr: expected progress lines for {want}, got {names}")


def check_machine_state(r, i, env):
    """Every result's machine_state (the machine during its repetitions) and
    timer_resolution_ns: types and ranges; the /proc figures may be null only
    all together."""
    w = f"results[{i}] ({r.get('subject')})"
    check_type(r, "timer_resolution_ns", lambda v: is_num(v) and 0 < v < 1e7,
               "a number of ns in (0, 1e7)", w)
    m = check_type(r, "machine_state", lambda v: isinstance(v, dict), "an object", w)
    if not isinstance(m, dict):
        return
    w += ".machine_state"
    runs = r.get("runs") if isinstance(r.get("runs"), list) else []
    nonneg = lambda v: is_num(v) and v >= 0
    maybe = lambda v: v is None or nonneg(v)
    cpus = check_type(m, "cpus", lambda v: is_int(v) and v >= 1, "a positive integer", w)
    # One interval per repetition, however many slices it was cut into: from before its
    # first to after its last.
    check_type(m, "intervals", lambda v: v == len(runs),
               f"{len(runs)} (one per repetition)", w)
    wall = check_type(m, "wall_s", lambda v: is_num(v) and v > 0, "a positive number", w)
    own = check_type(m, "bench_cpu_s", nonneg, "a number >= 0", w)
    load = check_type(m, "loadavg", lambda v: isinstance(v, dict), "an object", w)
    if isinstance(load, dict):
        for key in ("start", "end"):
            check_type(load, key, maybe, "null or a number >= 0", w + ".loadavg")
    busy = check_type(m, "busy_s", maybe, "null or a number >= 0", w)
    check_type(m, "steal_s", maybe, "null or a number >= 0", w)
    check_type(m, "stat_tick_s", lambda v: v is None or (is_num(v) and 0 < v <= 1),
               "null or a tick in (0, 1] s", w)
    frac = check_type(m, "others_busy_fraction", lambda v: v is None or 0 <= v <= 1 + 1e-9,
                      "null or a fraction in [0, 1]", w)
    res = check_type(m, "others_busy_resolution", lambda v: v is None or 0 < v <= 1 + 1e-9,
                     "null or a fraction in (0, 1]", w)
    procs = [busy, m.get("steal_s"), m.get("stat_tick_s"), frac, res] + ([load.get("start"), load.get("end")]
                                              if isinstance(load, dict) else [])
    check(all(v is None for v in procs) or all(v is not None for v in procs),
          f"{w}: expected the /proc figures all null or none, got {m!r}")
    threads = r.get("threads")
    if is_num(wall) and is_num(own) and is_int(threads) and is_int(cpus):
        # The bench's threads cannot use more than the wall time on each CPU they
        # have; slack for the clocks' granularity and the threads' start and end.
        limit = wall * min(threads, cpus) * 1.1 + 0.02 * len(runs) + 0.01
        check(own <= limit, f"{w}.bench_cpu_s: expected at most {limit:.3f} s "
              f"(wall {wall} s x {min(threads, cpus)} CPUs + slack), got {own}")
    if is_num(wall) and is_num(busy) and is_int(cpus):
        # /proc/stat counts in ticks (USER_HZ, 100 here): a tick per CPU per sample.
        limit = wall * cpus * 1.1 + 0.02 * cpus * len(runs) + 0.01
        check(busy <= limit, f"{w}.busy_s: expected at most {limit:.3f} s, got {busy}")


def parse_args():
    """The command line, as the module's docstring gives it."""
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("out")
    ap.add_argument("--scenario", default="refcount-timing",
                    choices=["refcount-timing", "contend", "lockref-sweep", "openclose", "zero",
                             "copy"])
    ap.add_argument("--subjects")
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--repeat", type=int)
    ap.add_argument("--threads")
    ap.add_argument("--duration", type=float)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes")
    ap.add_argument("--mode", choices=["hot", "cold", "both", "used", "all"])
    ap.add_argument("--until-decided", type=float)
    return ap.parse_args()


def bench_command(a, timed):
    """The bench's command line for the options A, and the repetitions it runs (refcount-timing
    is given --repeat 2 unless told otherwise: A.repeat is set)."""
    cmd = target_cmd(a.bench, a.scenario, "--json", a.out)
    if not timed:
        a.repeat = 2 if a.repeat is None else a.repeat
        cmd += ["--count", str(a.count)]
    if a.repeat is not None:
        cmd += ["--repeat", str(a.repeat)]
    repeat = a.repeat if a.repeat is not None else 1 if a.quick else 3
    for opt, val in (("--threads", a.threads), ("--subjects", a.subjects), ("--sizes", a.sizes),
                     ("--mode", a.mode)):
        if val:
            cmd += [opt, val]
    if a.duration:
        cmd += ["--duration", str(a.duration)]
    if a.quick:
        cmd += ["--quick"]
    if a.until_decided:
        cmd += [f"--until-decided={a.until_decided:g}"]
    return cmd, repeat


def check_stderr(a, stderr, env, timed):
    """Nothing on stderr but progress lines (not a terminal) and the notes the scenario may
    give unasked."""
    notes = []
    if a.scenario == "zero":
        # The one note zero may give unasked: no tmpfs for the sparse file.
        notes.append(SKIP_TMPFS_NOTE)
    if a.scenario == "copy":
        # copy's: process_vm_readv refused (an emulator, seccomp); --mode used not its own.
        notes += [NO_PVR_NOTE, COPY_USED_NOTE, COPY_UNSUPPORTED_NOTE]
    if timed and a.scenario not in ("zero", "copy") and not a.quick and not target(env)[1]:
        # Without LSE the subjects that need it are left out, with a note unless --quick.
        notes.append(NO_LSE_NOTE)
    notes += [PROGRESS_SUBJECT, PROGRESS_SCENARIO, PROGRESS_UNTIL]
    rest = "".join(l for l in stderr.splitlines(True)
                   if not any(n.match(l.rstrip("\n")) for n in notes))
    check(rest == "", f"stderr: expected only progress lines (not a terminal), got {stderr!r}")


def check_table_rows(a, p, env, facts, timed):
    """The subjects measured (none listed here for zero and copy, which check their own), each
    with a table row on stdout."""
    subjects = []
    if a.scenario not in ("zero", "copy"):
        subjects = measured_subjects(a, env, listed_subjects(a.bench, a.scenario), facts,
                                     p.stderr)
        for s in subjects:
            row = rf"^{re.escape(s)}\s" if not timed else rf"^\d+\s+{re.escape(s)}\s"
            check(re.search(row, p.stdout, re.M) is not None,
                  f"stdout: expected a table row for '{s}', got:\n{p.stdout}")
    return subjects


def check_header(a, doc, env, repeat):
    """tool, version, env and config; the config (None unless an object)."""
    check(doc.get("tool") == "hotline-bench", f"tool: expected 'hotline-bench', got {doc.get('tool')!r}")
    check(isinstance(doc.get("version"), str) and re.match(r"\d+\.\d+", doc.get("version", "")),
          f"version: expected the project version, got {doc.get('version')!r}")
    if check(isinstance(env, dict), f"env: expected an object, got {env!r}"):
        check_env(env, a.scenario)
    cfg = doc.get("config")
    if check(isinstance(cfg, dict), f"config: expected an object, got {cfg!r}"):
        check_type(cfg, "quick", lambda v: v is a.quick, str(a.quick).lower(), "config")
        check_type(cfg, "repeat", lambda v: v == repeat, str(repeat), "config")
        check_type(cfg, "duration",
                   (lambda v: v is None) if not a.duration else
                   (lambda v: is_num(v) and abs(v - a.duration) < 1e-9),
                   "null (not given)" if not a.duration else str(a.duration), "config")
        check_type(cfg, "pin", lambda v: isinstance(v, str) and v != "", "a string", "config")
        return cfg
    return None


def read_until(a, cfg):
    """config.until_decided: present exactly with the option; then UNTIL holds its cap and
    the repetitions each decision's subject and bases ran, by their point."""
    global UNTIL
    until = cfg.get("until_decided") if isinstance(cfg, dict) else None
    if not a.until_decided:
        check(until is None, f"config.until_decided: expected none without the option, "
              f"got {until!r}")
        return
    if check(isinstance(until, dict) and isinstance(until.get("decisions"), list) and
             is_int(until.get("cap")),
             f"config.until_decided: expected an object with decisions and a cap, "
             f"got {until!r}"):
        UNTIL = {"cap": until["cap"], "exact": {}}
        for d in until["decisions"]:
            # A question with two bases (the store bandwidth limit: the larger of
            # two subjects' GB/s) names them in "bases"; "base" is then its label.
            bases = d.get("bases") if isinstance(d.get("bases"), list) else [d.get("base")]
            for who, limit in [(d.get("subject"), d.get("retry_limit"))] + \
                    [(b, None) for b in bases]:
                key = (d.get("scenario"), who, d.get("threads") or 1, limit,
                       d.get("size"), d.get("mode"))
                UNTIL["exact"][key] = d.get("repetitions")


def check_results(a, p, results, repeat, facts, subjects, timed):
    """The results, by the scenario's own checks; the list checked (empty unless a list)."""
    RESULTS[:] = results if isinstance(results, list) else []
    if not check(isinstance(results, list), f"results: expected a list, got {results!r}"):
        return []
    if a.scenario == "zero":
        check_zero(a, p, results, repeat, facts)
    elif a.scenario == "copy":
        check_copy(a, p, results, repeat, facts)
    elif timed:
        threads = ([int(t) for t in a.threads.split(",")] if a.threads
                   else DEFAULT_THREADS[a.scenario])
        duration = a.duration or (0.05 if a.quick else 0.5)
        check_threaded_results(a, subjects, facts, results, repeat, threads, duration)
    else:
        got = [r.get("subject") for r in results if isinstance(r, dict)]
        check(got == subjects, f"results: expected subjects {subjects}, in table order, got {got}")
        for i, r in enumerate(results):
            if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
                check_result(r, i, a.count, repeat, facts)
    return results


def main():
    a = parse_args()
    timed = a.scenario != "refcount-timing"
    cmd, repeat = bench_command(a, timed)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)}: expected exit status 0, got {p.returncode}\n{p.stderr}")
        return 1
    with open(a.out) as f:
        doc = json.load(f)
    env = doc.get("env")
    check_stderr(a, p.stderr, env, timed)
    # What each subject is: its entry in "subjects", checked against the results.
    facts = subjects_check.check(doc, check).get(a.scenario, {})
    subjects = check_table_rows(a, p, env, facts, timed)
    cfg = check_header(a, doc, env, repeat)
    read_until(a, cfg)
    results = check_results(a, p, doc.get("results"), repeat, facts, subjects, timed)
    for i, r in enumerate(results):
        if isinstance(r, dict):
            check_machine_state(r, i, env)
    check_progress(p.stderr, a.scenario, results, repeat, facts)

    return finish(f"{a.out}: every contract field checked ({len(results)} results)")


if __name__ == "__main__":
    sys.exit(main())
