"""slices.py - a sized sample cut into slices still lasts its duration, a hot slice holds
enough calls, and a call longer than a slice is not run once per slice.

  slices.py PATH-TO-hotline-bench OUTDIR

zero, hl_zero and glibc_memset, one repetition each run:
- hot, 0.02 s a sample (at most 8 slices): at 4 KiB, 8 slices, and each subject's timed time
  (calls x ns per call) at least the duration and less than four times it and two calls: the
  slices sum to the sample. A slice that ran the whole duration would give 8 times it; a
  preemption in the last batch adds a scheduler time slice, and a stalled virtual CPU more,
  so the timed bound is checked in up to 3 runs and holds when one run meets it (slices
  that each ran the duration would fail all 3). At 4 MiB, 2 slices: a hot
  slice holds at least 16 calls at zero's assumed 10 GB/s, and a sample 47 (so a buffer that
  another subject pushed out of the cache is a small part of a slice).
- cold, 0.002 s (2 slices of 1 ms), at 32 MiB, a call of about 3 ms here: 2 slices, the
  timed time at least the duration, and all but the last call shorter than it (one call per
  slice would be two calls of over 1 ms each, the first already past the 1 ms of slice 0).
"""

import json
import os
import subprocess
import sys

from checks import check, finish, target_cmd


def run(bench, out, name, *args):
    """hotline-bench zero ARGS for hl_zero and glibc_memset, one repetition, into OUT/NAME.json:
    its results, or None (a failure noted)."""
    path = os.path.join(out, name + ".json")
    cmd = target_cmd(bench, "zero", "--subjects", "hl_zero,glibc_memset", "--repeat", "1",
                     *args, "--json", path)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       timeout=240)
    if not check(p.returncode == 0, f"{' '.join(cmd)}: exit status {p.returncode}: "
                 f"{p.stderr.strip()}"):
        return None
    return json.load(open(path))["results"]


def figures(r):
    """(what, calls, timed seconds) of result R's one repetition."""
    calls = r["per_thread"][0]["ops"]
    return f"{r['mode']} {r['subject']} at {r['size']} B", calls, calls * r["ns_per_op"] / 1e9


def main():
    bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for attempt in range(3):
        hot = run(bench, out, "hot", "--mode", "hot", "--sizes", "4K,4M", "--duration", "0.02")
        over = []  # the timed bound missed in this run
        for r in hot or []:
            w, calls, timed = figures(r)
            want = 8 if r["size"] == 4096 else 2
            check(r.get("slices") == want, f"{w}: expected {want} slices, got {r.get('slices')!r}")
            check(timed >= 0.02 * (1 - 1e-6),
                  f"{w}: expected at least the duration, 0.02 s, timed; got {timed:.6f} s")
            most = 0.02 * 4 + 2 * timed / calls
            if timed >= most:
                over.append(f"{w}: expected its slices' timed time to sum to the duration, 0.02 s "
                            f"(less than {most:.6f} s), got {timed:.6f} s in {calls} calls")
        if hot is None or not over:
            break
        print(f"run {attempt + 1}: " + "; ".join(over))
    for o in over:
        check(False, o + " (in each of 3 runs)")
    cold = run(bench, out, "cold", "--mode", "cold", "--sizes", "32M", "--duration", "0.002")
    for r in cold or []:
        w, calls, timed = figures(r)
        check(r.get("slices") == 2, f"{w}: expected 2 slices, got {r.get('slices')!r}")
        check(timed >= 0.002 * (1 - 1e-6),
              f"{w}: expected at least the duration, 0.002 s, timed; got {timed:.6f} s")
        check((calls - 1) * timed / calls < 0.002,
              f"{w}: expected every call but the last to start within the duration (a slice "
              f"that its earlier slices' calls already filled runs none), got {calls} calls "
              f"of {timed / calls * 1e3:.3f} ms")
    check(hot is None or len(hot) == 4, "expected 4 hot results (2 subjects x 2 sizes)")
    check(cold is None or len(cold) == 2, "expected 2 cold results")
    return finish("ok: the slices sum to the sample; hot slices hold 16 calls; a long call runs "
                  "once")


if __name__ == "__main__":
    sys.exit(main())
