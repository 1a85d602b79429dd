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
import shlex
import sys

from simlib import expect, main, ops, run_sim

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "contend-x86-2cpu.json")
# Within this of the measured ns/op after the fit: the base preset misses these by 2-3x,
# and the model cannot tell lockref from cas_loop at 2 threads where the bench differs
# by 1.5x, so the fit is a compromise (docs/sim.md, "Calibrating to this machine").
TOLERANCE = 0.40
RMS_BOUND = 0.25
CORE = ("atomic_faa", "cas_loop", "qspinlock")


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
                                                      "run_sim")})
