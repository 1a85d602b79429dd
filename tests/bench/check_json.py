"""Run a hotline-bench scenario and check its JSON against the contract.

    check_json.py BENCH OUT.json [--scenario S] [--subjects a,b] [--repeat N]
                  [--count N]                          (refcount-timing)
                  [--threads LIST] [--duration S] [--quick]   (the others)
                  [--sizes LIST] [--mode hot|cold|both]       (zero)

Runs `BENCH SCENARIO ... --json OUT.json` (refcount-timing by default),
expects exit status 0 and a table row per subject on stdout, then checks
every field of the JSON contract (bench/README.md, "JSON"): types, the
subjects present (and, for contend, lockref-sweep and openclose, every
subject at every thread count and retry limit; on arm64 also the _llsc,
_lse and relax-instruction subjects, the _lse ones only where the CPU has
LSE), one run per repetition, the environment (on arm64 "atomics", which
must agree with the CPU's LSE flag and with HOTLINE_EXPECT_LSE when that
is set), and each scenario's extras: refcount-timing's in_sync and ratio
(exactly 1.0 for the baseline); contend's and lockref-sweep's attempts per
success (only for the compare-and-swap subjects; exactly 1 with one
thread), fallback rate in [0, 1] (only for the instrumented lockrefs),
latency quantiles in order; openclose's "measures"; zero's modes (every
subject at every size, hot and, up to half the arena, cold; the dd
experiments), GB/s consistent with calls/s x size, ratio to glibc_memset,
"measures" on the kernel's subjects. Standard library only.
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

ALL_SUBJECTS = ["atomic", "refcount", "refcount_full", "refcount_full_inline"]

CONTEND_SUBJECTS = ["atomic_faa", "cas_loop", "refcount", "refcount_full", "lockref",
                    "lockref_unbounded", "lockref_relax", "lockref_relax_alt",
                    "lockref_spinlock_only", "qspinlock", "ticket", "pthread_mutex",
                    "lockref_lib"]
# arm64 only, after those: the atomic subjects with exclusives and with LSE forced (the _lse
# ones only where the CPU has LSE), then the relax subjects with ISB and with no instruction.
ARM64_CONTEND_SUBJECTS = ["atomic_faa_llsc", "atomic_faa_lse", "cas_loop_llsc", "cas_loop_lse",
                          "refcount_llsc", "refcount_lse", "lockref_llsc", "lockref_lse",
                          "lockref_relax_isb", "lockref_relax_none", "lockref_relax_alt_isb",
                          "lockref_relax_alt_none", "ticket_isb", "ticket_none"]
# Subjects whose compare-and-swap attempts are counted, and those with a fallback rate.
ATTEMPT_SUBJECTS = {"cas_loop", "lockref", "lockref_unbounded", "lockref_relax",
                    "lockref_relax_alt", "cas_loop_llsc", "cas_loop_lse", "lockref_llsc",
                    "lockref_lse", "lockref_relax_isb", "lockref_relax_none",
                    "lockref_relax_alt_isb", "lockref_relax_alt_none"}
FALLBACK_SUBJECTS = {s for s in ATTEMPT_SUBJECTS if s.startswith("lockref")}
# contend's retry limits: the instrumented lockrefs at 100, the library's own at its limit.
CONTEND_LIMITS = {s: 100 for s in FALLBACK_SUBJECTS - {"lockref_unbounded"}}
SWEEP_SUBJECTS = ["lockref", "lockref_unbounded"]
ARM64_SWEEP_SUBJECTS = ["lockref_llsc", "lockref_lse"]
SWEEP_LIMITS = [1, 2, 4, 15, 50, 100, 200, 500]
OPENCLOSE_SUBJECTS = ["threads", "processes"]
DEFAULT_THREADS = {"contend": [1, 2, 4, 8], "lockref-sweep": [2, 4, 8], "openclose": [1, 2, 4, 8]}
# zero: the fixed subjects after the library's variants (read from --list), the dd ones last.
ZERO_FIXED = ["hl_zero", "hl_try_zero", "glibc_memset", "memcpy_zero_page", "read_dev_zero"]
ZERO_DD = ["dd_sparse_tmpfs", "dd_dev_zero"]
ZERO_KERNEL = {"read_dev_zero"} | set(ZERO_DD)
ZERO_AUTO = {"hl_zero", "hl_try_zero"}
ZERO_BASELINE = "glibc_memset"
ZERO_DEFAULT_SIZES = sorted([1 << p for p in range(31)] +
                            [3, 17, 100, 1000, 3000, 65537, (3 << 20) + 3])
ZERO_QUICK_SIZES = [1, 17, 64, 256, 1000, 4096, 16384, 65537, 262144, 1 << 20, (3 << 20) + 3,
                    16 << 20, 64 << 20]
ZERO_DD_BLOCK = 1 << 20
ZERO_DD_TOTAL = {False: 4 << 30, True: 256 << 20}
SKIP_SPARSE_NOTE = "dd_sparse_tmpfs skipped"
failures = []


def target_cmd(bench, *args):
    """The command that runs the bench: through HOTLINE_TARGET_RUN when it is set."""
    run = os.environ.get("HOTLINE_TARGET_RUN", "")
    return ([run] if run else []) + [bench, *args]


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


def target(env):
    """(arm64, lse) of the machine the bench ran on, from its env."""
    env = env if isinstance(env, dict) else {}
    flags = env.get("flags") if isinstance(env.get("flags"), list) else []
    return env.get("arch") == "aarch64", "lse" in flags


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
    check_type(r, "headline", lambda v: v == "ns_per_op", "'ns_per_op'", w)
    runs = check_type(r, "runs",
                      lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                      f"a list of {repeat} positive numbers", w)
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


def check_timed_common(r, w, threads, repeat, duration):
    """The fields every result of a timed, threaded scenario has."""
    check_type(r, "threads", lambda v: v == threads, str(threads), w)
    check_type(r, "size", lambda v: v is None, "null", w)
    check_type(r, "gb_per_sec", lambda v: v is None, "null", w)
    check_type(r, "headline", lambda v: v == "ops_per_sec", "'ops_per_sec'", w)
    pos = lambda v: is_num(v) and v > 0
    ops_per_sec = check_type(r, "ops_per_sec", pos, "a positive number", w)
    ns = check_type(r, "ns_per_op", pos, "a positive number", w)
    runs = check_type(r, "runs",
                      lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                      f"a list of {repeat} positive numbers", w)
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


def check_contention_extras(r, w, subject, threads):
    """contend and lockref-sweep: op, attempts, fallback rate, latency."""
    check_type(r, "op", lambda v: v == "get+put", "'get+put'", w)
    fallback = check_type(r, "fallback_rate",
                          (lambda v: is_num(v) and 0 <= v <= 1) if subject in FALLBACK_SUBJECTS
                          else (lambda v: v is None),
                          "a fraction in [0, 1]" if subject in FALLBACK_SUBJECTS
                          else "null (no locked path to fall back to)", w)
    att = r.get("attempts_per_success")
    if subject not in ATTEMPT_SUBJECTS:
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
    if threads == 1 and subject in FALLBACK_SUBJECTS and is_num(fallback):
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


def scenario_subjects(scenario, env):
    """The subjects a scenario has on this machine, in table order; the _lse ones only with LSE."""
    arm64, lse = target(env)
    every = {"contend": CONTEND_SUBJECTS + (ARM64_CONTEND_SUBJECTS if arm64 else []),
             "lockref-sweep": SWEEP_SUBJECTS + (ARM64_SWEEP_SUBJECTS if arm64 else []),
             "openclose": OPENCLOSE_SUBJECTS, "refcount-timing": ALL_SUBJECTS}[scenario]
    return [s for s in every if lse or not s.endswith("_lse")]


def expected_cases(a, env):
    """(subject, retry_limit) of every result of a threaded scenario, in table order."""
    every = scenario_subjects(a.scenario, env)
    names = a.subjects.split(",") if a.subjects else every
    names = [s for s in every if s in names]
    if a.scenario == "contend":
        lib = int(os.environ.get("HOTLINE_LOCKREF_RETRIES", "100") or 100)
        return [(s, lib or None) if s == "lockref_lib" else (s, CONTEND_LIMITS.get(s))
                for s in names]
    if a.scenario == "lockref-sweep":
        cases = []
        for s in names:
            cases += [(s, None)] if s == "lockref_unbounded" else [(s, lim) for lim in SWEEP_LIMITS]
        return cases
    return [(s, None) for s in names]


def check_threaded_results(a, env, results, repeat, threads_list, duration):
    cases = expected_cases(a, env)
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
            check_contention_extras(r, w, subj, r.get("threads"))


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


def zero_subjects(bench):
    """zero's subjects in table order, as --list shows them."""
    return listed_subjects(bench, "zero")


def check_zero_result(r, w, repeat, baseline_present):
    """Fields of every zero result; returns nothing, records failures."""
    subj, mode = r.get("subject"), r.get("mode")
    pos = lambda v: is_num(v) and v > 0
    check_type(r, "scenario", lambda v: v == "zero", "'zero'", w)
    check_type(r, "threads", lambda v: v == 1, "1", w)
    size = check_type(r, "size", lambda v: is_int(v) and v >= 1, "a byte count", w)
    check_type(r, "retry_limit", lambda v: v is None, "null", w)
    check_type(r, "headline", lambda v: v == "gb_per_sec", "'gb_per_sec'", w)
    gb = check_type(r, "gb_per_sec", pos, "a positive number", w)
    ops = check_type(r, "ops_per_sec", pos, "a positive number", w)
    check_type(r, "ns_per_op", pos, "a positive number", w)
    runs = check_type(r, "runs",
                      lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                      f"a list of {repeat} positive numbers (GB/s of each repetition)", w)
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
    check_type(r, "mode", lambda v: v in ("hot", "cold"), "'hot', 'cold' or 'dd'", w)
    check_type(r, "duration", pos, "seconds per sample", w)
    llc = check_type(r, "llc_bytes", lambda v: is_int(v) and v > 0, "a byte count", w)
    if mode == "cold":
        check_type(r, "arena_bytes",
                   lambda v: is_int(v) and v >= 2 * size and
                   (not is_int(llc) or v >= min(4 * llc, 2 << 30)),
                   "a byte count: at least twice the size and 4 x llc_bytes (up to 2 GiB)", w)
    else:
        check_type(r, "arena_bytes", lambda v: v is None, "null (hot)", w)
    want_variant = "auto" if subj in ZERO_AUTO else None if subj in ZERO_FIXED else subj
    check_type(r, "variant", lambda v: v == want_variant, repr(want_variant), w)
    check_type(r, "plan",
               (lambda v: isinstance(v, str) and v != "") if subj in ZERO_AUTO else
               (lambda v: v is None),
               "hl_zero's plan (a string)" if subj in ZERO_AUTO else "null", w)
    check_type(r, "measures", kernel if subj in ZERO_KERNEL else (lambda v: v is None),
               "a string starting 'host kernel'" if subj in ZERO_KERNEL else "null", w)
    check_type(r, "ratio_to", lambda v: v == ZERO_BASELINE, repr(ZERO_BASELINE), w)
    if baseline_present:
        check_type(r, "ratio", pos, "a positive number", w)
        check_type(r, "ratio_runs",
                   lambda v: isinstance(v, list) and len(v) == repeat and all(pos(x) for x in v),
                   f"a list of {repeat} positive numbers", w)
        if subj == ZERO_BASELINE:
            check(r.get("ratio") == 1.0 and r.get("ratio_runs") == [1.0] * repeat,
                  f"{w}: expected ratio and ratio_runs exactly 1.0 for the baseline itself, got "
                  f"{r.get('ratio')!r} {r.get('ratio_runs')!r}")
    else:
        check_type(r, "ratio", lambda v: v is None, f"null ({ZERO_BASELINE} was not run)", w)
        check_type(r, "ratio_runs", lambda v: v is None, f"null ({ZERO_BASELINE} was not run)", w)


def check_zero(a, p, results, repeat):
    """zero: what ran (subjects, sizes, modes, in order), every result's fields, the table."""
    listed = zero_subjects(a.bench)
    fixed = ZERO_FIXED + ZERO_DD
    check(all(s in listed for s in fixed) and len(listed) > len(fixed),
          f"--list: expected the library's variants then {fixed}, got {listed}")
    m = re.search(r"^variants this CPU cannot run \(not measured\): (.*)$", p.stdout, re.M)
    unsupported = set(m.group(1).split(", ")) if m else set()
    named = a.subjects.split(",") if a.subjects else listed
    subjects = [s for s in listed if s in named and s not in unsupported]
    if SKIP_SPARSE_NOTE in p.stderr:
        subjects.remove("dd_sparse_tmpfs")
    buffer = [s for s in subjects if s not in ZERO_DD]
    dd = [s for s in subjects if s in ZERO_DD]
    sizes = (parse_sizes(a.sizes) if a.sizes else ZERO_QUICK_SIZES if a.quick
             else ZERO_DEFAULT_SIZES)
    modes = ["hot", "cold"] if a.mode in (None, "both") else [a.mode]
    arena = next((r.get("arena_bytes") for r in results if isinstance(r, dict) and
                  r.get("mode") == "cold"), None)
    want = []
    for mode in modes:
        for size in sizes:
            if mode == "cold" and is_int(arena) and size > arena // 2:
                continue  # beyond half the arena: hot only
            want += [(mode, size, s) for s in buffer]
    want += [("dd", ZERO_DD_BLOCK, s) for s in dd]
    got = [(r.get("mode"), r.get("size"), r.get("subject")) for r in results
           if isinstance(r, dict)]
    check(got == want, f"results: expected (mode, size, subject) {want}, got {got}")
    for i, r in enumerate(results):
        if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
            w = f"results[{i}] ({r.get('subject')}, {r.get('mode')}, {r.get('size')} B)"
            check_zero_result(r, w, repeat, ZERO_BASELINE in buffer)
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("out")
    ap.add_argument("--scenario", default="refcount-timing",
                    choices=["refcount-timing", "contend", "lockref-sweep", "openclose", "zero"])
    ap.add_argument("--subjects")
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--repeat", type=int)
    ap.add_argument("--threads")
    ap.add_argument("--duration", type=float)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes")
    ap.add_argument("--mode", choices=["hot", "cold", "both"])
    a = ap.parse_args()

    timed = a.scenario != "refcount-timing"
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
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print(f"FAIL: {' '.join(cmd)}: expected exit status 0, got {p.returncode}\n{p.stderr}")
        return 1
    stderr = p.stderr
    if a.scenario == "zero":
        # The one note zero may give unasked: no tmpfs for the sparse file.
        stderr = "".join(l for l in stderr.splitlines(True) if SKIP_SPARSE_NOTE not in l)
    with open(a.out) as f:
        doc = json.load(f)
    env = doc.get("env")
    if timed and a.scenario != "zero" and not a.quick and not target(env)[1]:
        # Without LSE the _lse subjects are left out, with a note unless --quick.
        stderr = "".join(l for l in stderr.splitlines(True)
                         if not re.search(r"_lse.* not run: this CPU has no LSE atomics", l))
    check(stderr == "", f"stderr: expected nothing (not a terminal), got {p.stderr!r}")
    if a.scenario != "zero":
        every = scenario_subjects(a.scenario, env)
        named = a.subjects.split(",") if a.subjects else every
        for s in [s for s in every if s in named]:
            row = rf"^{re.escape(s)}\s" if not timed else rf"^\d+\s+{re.escape(s)}\s"
            check(re.search(row, p.stdout, re.M) is not None,
                  f"stdout: expected a table row for '{s}', got:\n{p.stdout}")
    if a.scenario in ("contend", "lockref-sweep"):
        listed = listed_subjects(a.bench, a.scenario)
        want = [s for s in scenario_subjects(a.scenario, dict(env or {}, flags=["lse"]))]
        check(listed == want, f"--list: expected {a.scenario}'s subjects {want}, got {listed}")

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
    results = doc.get("results")
    if not check(isinstance(results, list), f"results: expected a list, got {results!r}"):
        results = []
    elif a.scenario == "zero":
        check_zero(a, p, results, repeat)
    elif timed:
        threads = ([int(t) for t in a.threads.split(",")] if a.threads
                   else DEFAULT_THREADS[a.scenario])
        duration = a.duration or (0.05 if a.quick else 0.5)
        check_threaded_results(a, env, results, repeat, threads, duration)
    else:
        expected = a.subjects.split(",") if a.subjects else ALL_SUBJECTS
        got = [r.get("subject") for r in results if isinstance(r, dict)]
        check(got == [s for s in ALL_SUBJECTS if s in expected],
              f"results: expected subjects {expected}, in table order, got {got}")
        for i, r in enumerate(results):
            if check(isinstance(r, dict), f"results[{i}]: expected an object, got {r!r}"):
                check_result(r, i, a.count, repeat, "atomic" in expected)

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"{a.out}: every contract field checked ({len(results)} results)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
