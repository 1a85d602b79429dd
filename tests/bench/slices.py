"""slices.py - a sized sample cut into slices still lasts its duration, and a call longer
than a slice is not run once per slice.

  slices.py PATH-TO-hotline-bench OUTDIR

zero, hot, hl_zero and glibc_memset, one repetition of 0.004 s (4 slices of 1 ms):
- at 4 KiB each subject's timed time (calls x ns per call) is at least the duration and at
  most the duration plus one slice: the slices sum to the sample;
- at 256 MiB, where one call takes longer than the whole duration (over 4 ms at 64 GB/s),
  each subject made exactly one call: slice 0's call reached the duration, so slices 1-3
  ran nothing (one call per slice would be 4).
"""

import json
import os
import subprocess
import sys

from checks import check, finish, target_cmd

DURATION = 0.004


def main():
    bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "slices.json")
    cmd = target_cmd(bench, "zero", "--mode", "hot", "--sizes", "4K,256M", "--subjects",
                     "hl_zero,glibc_memset", "--repeat", "1", "--duration", str(DURATION),
                     "--json", path)
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         timeout=240)
    if not check(run.returncode == 0, f"{' '.join(cmd)}: exit status {run.returncode}: "
                 f"{run.stderr.strip()}"):
        return finish(None)
    results = [r for r in json.load(open(path))["results"] if r.get("mode") == "hot"]
    check(len(results) == 4, f"expected 4 hot results (2 subjects x 2 sizes), got {len(results)}")
    for r in results:
        w = f"{r.get('subject')} at {r.get('size')} B"
        calls = r["per_thread"][0]["ops"]
        timed = calls * r["ns_per_op"] / 1e9
        check(r.get("slices") == 4, f"{w}: expected 4 slices of 1 ms, got {r.get('slices')!r}")
        if r.get("size") == 4096:
            check(DURATION * (1 - 1e-6) <= timed <= DURATION * 1.25,
                  f"{w}: expected its slices' timed time to sum to the duration, {DURATION} s "
                  f"(at most one slice more), got {timed:.6f} s in {calls} calls")
        else:
            check(calls == 1,
                  f"{w}: expected one call (longer than the duration, so slices 1-3 run none), "
                  f"got {calls} in {timed:.6f} s")
    return finish("ok: the slices sum to the sample's duration; a call longer than it runs once")


if __name__ == "__main__":
    sys.exit(main())
