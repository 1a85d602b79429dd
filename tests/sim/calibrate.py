#!/usr/bin/python3
"""hotline-sim --calibrate: the fit to a bench file, what it holds, its JSON.

    calibrate.py PATH-TO-hotline-sim WORKDIR CHECK

The file is fixtures/contend-x86-2cpu.json: hotline-bench's contend results
at 1 and 2 threads on a 2-vCPU x86-64 host. Each CHECK runs hotline-sim
(through $HOTLINE_TARGET_RUN when set: the emulator of a cross build), reads
its JSON and says what it expected and what it saw; the figures seen are
printed, passing or not. The calibration itself has a fixed size (it would
not be the same fit otherwise); HOTLINE_TEST_SCALE divides only the ops of
the runs made on the calibrated machine.
"""

import json
import os
import re
import shlex
import subprocess
import sys

from simlib import SIM, WORK, expect, main, ops, run_sim

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "contend-x86-2cpu.json")
# Within this of the measured ns/op after the fit: the base preset misses these by 2-3x,
# and the model cannot tell lockref from cas_loop at 2 threads where the bench differs
# by 1.5x, so the fit is a compromise (docs/sim.md, "Calibrating to this machine").
TOLERANCE = 0.40
RMS_BOUND = 0.25
CORE = ("atomic_faa", "cas_loop", "qspinlock")
# hotline-sim refuses a fit whose rms log error is above this (CALIB_MAX_ERROR: ln 2, a
# typical figure off by 2x; docs/sim.md, "When a fit is refused").
MAX_ERROR = 0.69


def run(name, *args):
    """Runs hotline-sim with --json WORK/name.json; returns (doc, stdout, json bytes)."""
    doc, _, out, raw = run_sim(name, *args)
    return doc, out, raw


def measured(subject, threads):
    with open(FIXTURE) as f:
        for r in json.load(f)["results"]:
            if r["scenario"] == "contend" and r["subject"] == subject and r["threads"] == threads:
                return r["ns_per_op"]
    sys.exit(f"FAIL: the fixture has no {subject} at {threads} threads")


def run_raw(*args):
    """Runs hotline-sim ARGS as it is (no --json added): (exit status, stdout, stderr)."""
    cmd = shlex.split(os.environ.get("HOTLINE_TARGET_RUN", "")) + [SIM, *args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def bench_file(name, change):
    """The fixture with change(result) -> ns_per_op applied to every result, as WORK/name."""
    with open(FIXTURE) as f:
        doc = json.load(f)
    for r in doc["results"]:
        r["ns_per_op"] = change(r)
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def fixture_fit_accepted_nothing_at_a_bound():
    doc, _, _ = run("accepted", "--calibrate", FIXTURE)
    cal = doc["env"]["calibration"]
    print(f"rms log error {cal['rms_log_error']:.4f}, limit {cal.get('max_rms_log_error')}, "
          f"at_bound {cal.get('at_bound')}")
    expect(cal.get("max_rms_log_error") == MAX_ERROR,
           f"env.calibration.max_rms_log_error is the default {MAX_ERROR}, saw {cal.get('max_rms_log_error')}")
    expect(cal["rms_log_error"] <= MAX_ERROR / 2,
           f"the real fixture fits well inside the limit: rms {cal['rms_log_error']:.4f} <= {MAX_ERROR / 2}")
    expect(cal.get("at_bound") == [], f"no fitted value at a bound, saw {cal.get('at_bound')}")


# Files no machine could have written: every figure scaled by 1e6 (milliseconds for a
# cache-line transfer), 2-thread figures 100 times below the 1-thread ones (two threads
# at most halve the time per op), every figure 3x off at random, and numbers near 1e300.
NONSENSE = {
    "scaled_1e6": lambda r: r["ns_per_op"] * 1e6,
    "two_threads_100x_faster": lambda r: r["ns_per_op"] / (100 if r["threads"] == 2 else 1),
    "each_3x_off": lambda r: r["ns_per_op"] * (3 if (r["threads"] + len(r["subject"])) % 2 else 1 / 3),
    "near_1e300": lambda r: r["ns_per_op"] * 1e300,
}


def nonsense_files_are_refused_with_one_line():
    for name, change in NONSENSE.items():
        path = bench_file(name + ".json", change)
        out_json = os.path.join(WORK, name + ".out.json")
        if os.path.exists(out_json):
            os.unlink(out_json)
        rc, out, err = run_raw("--calibrate", path, "--policy", "cas_loop", "--threads", "2",
                               "--json", out_json)
        lines = err.splitlines()
        print(f"{name}: exit {rc}: {err.strip()}")
        expect(rc == 2, f"{name}: exit status 2, saw {rc}")
        expect(len(lines) == 1, f"{name}: one line on stderr, saw {len(lines)}")
        line = lines[0] if lines else ""
        for word in ("hotline-sim: ", "--calibrate", path, "rms log error", f"above {MAX_ERROR}",
                     "--calibrate-max-error"):
            expect(word in line, f"{name}: the line names {word!r}")
        m = re.search(r"rms log error ([0-9.]+)", line)
        expect(m and float(m.group(1)) > MAX_ERROR,
               f"{name}: the rms log error it gives ({m and m.group(1)}) is above {MAX_ERROR}")
        expect(out == "", f"{name}: nothing on stdout, saw {out[:200]!r}")
        expect(not os.path.exists(out_json), f"{name}: no --json file written")


def poor_fit_accepted_by_max_error_lists_at_bound():
    path = bench_file("scaled_1e6.json", NONSENSE["scaled_1e6"])
    out_json = os.path.join(WORK, "accepted_anyway.json")
    rc, out, err = run_raw("--calibrate", path, "--calibrate-max-error", "1000", "--json", out_json)
    print(err, end="")
    expect(rc == 0, f"--calibrate-max-error 1000 accepts the scaled file: exit 0, saw {rc}")
    if rc != 0:
        return
    with open(out_json) as f:
        cal = json.load(f)["env"]["calibration"]
    print(f"rms {cal['rms_log_error']:.4f}, fitted {cal['fitted']}, at_bound {cal.get('at_bound')}")
    expect(cal["rms_log_error"] > MAX_ERROR, f"the fit is still poor: rms {cal['rms_log_error']:.4f}")
    expect(cal.get("max_rms_log_error") == 1000, f"max_rms_log_error 1000, saw {cal.get('max_rms_log_error')}")
    bound = cal.get("at_bound") or []
    expect("lat_socket" in bound and "think_ns" in bound,
           f"lat_socket and think_ns (pushed to 1000000 ns) are in at_bound, saw {bound}")
    for k in bound:
        expect(k in cal["fitted"], f"{k} in at_bound is a fitted parameter")
        v = cal["fitted"].get(k)
        expect(v in (0.001, 1e6), f"{k} is at the floor (0.001) or the maximum (1e6), saw {v}")
    lines = err.splitlines()
    expect(len(lines) == 1 and lines[0].startswith("hotline-sim: warning: --calibrate: ")
           and all(k in lines[0] for k in bound),
           f"one warning line on stderr naming every parameter at a bound, saw {lines}")
    expect("hotline-sim --machine" in out, "the fit is printed on stdout as usual")


def fit_brings_core_subjects_within_tolerance():
    doc, out, _ = run("fit", "--calibrate", FIXTURE)
    cal = doc["env"]["calibration"]
    print(out, end="")
    seen = {(p["subject"], p["threads"]): p for p in cal["fit"]}
    for (subject, threads), p in sorted(seen.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        err = p["model_ns"] / p["measured_ns"] - 1
        what = f"{subject} at {threads}: measured {p['measured_ns']:.2f}, model {p['model_ns']:.2f} ns/op ({100 * err:+.1f}%)"
        if subject in CORE:
            expect(abs(err) <= TOLERANCE, what + f", within {100 * TOLERANCE:.0f}%")
        else:
            print("      " + what + " (reported, not held to a bound)")
    for subject in CORE:
        for threads in (1, 2):
            expect((subject, threads) in seen, f"{subject} at {threads} threads is in the fit")
    expect(cal["rms_log_error"] < RMS_BOUND,
           f"rms log error below {RMS_BOUND}, saw {cal['rms_log_error']:.4f}")
    # The check can tell: the uncalibrated base misses the same figures by far more.
    base, _, _ = run("base", "--machine", "x86-server", "--policy", ",".join(CORE),
                     "--threads", "1,2", "--ops", str(ops(5000, 1000)))
    worst = max(abs(2 * r["ns_per_op"] / measured(r["subject"], r["threads"]) - 1) for r in base["results"])
    expect(worst > TOLERANCE, f"the uncalibrated x86-server misses some by more than the tolerance, "
           f"worst {100 * worst:.0f}%")
    expect(doc["results"] == [], "calibrating only: no results")
    expect(cal["file"] == FIXTURE and cal["base"] == "x86-server", "env.calibration names the file and base")
    expect(doc["env"]["preset"] == "calibrated", "env.preset is calibrated")
    for k, v in cal["fitted"].items():
        expect(doc["env"]["model"][k] == v, f"fitted {k} {v} is env.model's")


def command_line_parameter_is_held():
    doc, out, _ = run("held", "--calibrate", FIXTURE, "--lat-socket", "33", "--machine", "x86-server")
    cal, model = doc["env"]["calibration"], doc["env"]["model"]
    print("fitted", cal["fitted"], "held", cal["held"])
    expect(model["lat_socket"] == 33, f"--lat-socket 33 stays 33 in env.model, saw {model['lat_socket']}")
    expect(cal["held"] == ["lat_socket"], f"held lists lat_socket alone, saw {cal['held']}")
    expect("lat_socket" not in cal["fitted"], "lat_socket is not among the fitted")
    expect(len(cal["fitted"]) >= 3, f"the other costs are fitted, saw {sorted(cal['fitted'])}")
    line = [l for l in out.splitlines() if l.startswith("hotline-sim --machine")]
    expect(len(line) == 1 and " --lat-socket 33 " in line[0] + " ",
           f"the printed command line keeps --lat-socket 33: {line}")


def same_arguments_same_json():
    args = ["--calibrate", FIXTURE, "--policy", "cas_loop", "--threads", "2", "--ops", str(ops(2000, 500))]
    _, out_a, a = run("same", *args)
    _, out_b, b = run("same", *args)
    expect(a == b, f"the same arguments give the same JSON bytes ({len(a)} and {len(b)} bytes)")
    expect(out_a == out_b, "and the same table")


def calibrate_then_run_marks_results():
    n = ops(5000, 1000)
    doc, out, _ = run("then_run", "--calibrate", FIXTURE, "--policy", "cas_loop,ticket",
                      "--threads", "1,2", "--ops", str(n))
    env = doc["env"]
    expect(env.get("simulated") is True, "env.simulated is true")
    expect(env.get("preset") == "calibrated", f"env.preset is calibrated, saw {env.get('preset')!r}")
    expect(env.get("calibration", {}).get("base") == "x86-server", "env.calibration.base is x86-server")
    got = sorted((r["subject"], r["threads"]) for r in doc["results"])
    expect(got == [("cas_loop", 1), ("cas_loop", 2), ("ticket", 1), ("ticket", 2)],
           f"one result per subject and count, saw {got}")
    # The printed line is the calibrated machine: a normal run of it gives the same figures.
    line = [l for l in out.splitlines() if l.startswith("hotline-sim --machine")]
    if len(line) != 1:
        expect(False, f"one command line printed, saw {line}")
        return
    again, _, _ = run("line", *shlex.split(line[0])[1:], "--policy", "cas_loop,ticket",
                      "--threads", "1,2", "--ops", str(n))
    a = [(r["subject"], r["threads"], r["ns_per_op"]) for r in doc["results"]]
    b = [(r["subject"], r["threads"], r["ns_per_op"]) for r in again["results"]]
    expect(a == b, f"the printed command line reproduces the calibrated runs: {a} / {b}")
    expect(again["env"]["model"] == env["model"], "and the same env.model")


main("calibrate.py", {name: f for name, f in list(globals().items())
                      if callable(f) and name not in ("run", "expect", "measured", "main", "ops",
                                                      "run_sim", "run_raw", "bench_file")})
