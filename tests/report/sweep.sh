#!/bin/sh
# scripts/sim-sweep.sh, the simulated part of make bench (tests/report/CMakeLists.txt):
# bad command lines are refused with one line and exit 2; with a tiny --ops it
# writes one hotline-sim JSON per sweep and lists them on stdout; a failing
# hotline-sim fails it (exit 1) and leaves no JSON of that sweep.
#
#   sh sweep.sh SCRIPT SIM FIXTURE
# FIXTURE: a measured hotline-bench contend file (x86-64), for the calibrated sweep.
script=$1
sim=$2
fixture=$3
tool=sim-sweep
tool_path=$script
. "$(dirname "$0")/../cli_lib.sh"
# The script is run directly; it runs SIM through $HOTLINE_TARGET_RUN itself.
run_tool() {
	"$tool_path" "$@"
}

expect_bad "SIM OUTDIR"
expect_bad "SIM OUTDIR 1" "$sim"
expect_bad "SIM OUTDIR 3" "$sim" "$tmp/o" extra
expect_bad "--ops 0 positive" --ops 0 "$sim" "$tmp/o"
expect_bad "--ops 1e5 positive" --ops 1e5 "$sim" "$tmp/o"
expect_bad "--ops -5 positive" --ops -5 "$sim" "$tmp/o"
expect_bad "--ops needs" --ops
expect_bad "--jobs x positive" --jobs x "$sim" "$tmp/o"
expect_bad "--frob unknown" --frob "$sim" "$tmp/o"
expect_bad "SIM $tmp/nothing executable" "$tmp/nothing" "$tmp/o"
expect_bad "SIM executable" /etc/passwd "$tmp/o"
: >"$tmp/file"
expect_bad "OUTDIR $tmp/file not a directory" "$sim" "$tmp/file"
expect_bad "--bench $tmp/nothing readable" --bench "$tmp/nothing" "$sim" "$tmp/o"
[ -e "$tmp/o" ] && fail "a refused command line made $tmp/o"

# A tiny run: every sweep written, listed on stdout in order, progress on stderr.
"$script" --ops 300 --jobs 2 "$sim" "$tmp/sweeps" >"$tmp/list" 2>"$tmp/err"
status=$?
[ $status -eq 0 ] || fail "--ops 300: expected exit 0, got $status: $(cat "$tmp/err")"
printf '%s\n' "$tmp/sweeps/sim-thunderx2.json" "$tmp/sweeps/sim-x86-server.json" \
	"$tmp/sweeps/sim-graviton2-lse.json" >"$tmp/want"
cmp -s "$tmp/list" "$tmp/want" ||
	fail "stdout: expected the three JSON paths, got: $(cat "$tmp/list")"
ls "$tmp/sweeps" >"$tmp/files"
[ "$(cat "$tmp/files")" = "$(printf 'sim-graviton2-lse.json\nsim-thunderx2.json\nsim-x86-server.json')" ] ||
	fail "OUTDIR: expected the three JSON files and nothing else, got: $(cat "$tmp/files")"
grep -q '^sim-sweep: 3 sweeps in [0-9.]* s$' "$tmp/err" ||
	fail "stderr: expected a closing '3 sweeps in N s' line, got: $(cat "$tmp/err")"
grep -v '^sim-sweep: ' "$tmp/err" | grep -q . &&
	fail "stderr: every line should start 'sim-sweep: ', got: $(cat "$tmp/err")"
grep -q '^sim-sweep: calibrated: skipped (it reads the measured file: --bench FILE)$' "$tmp/err" ||
	fail "stderr: expected the calibrated sweep said skipped without --bench, got: $(cat "$tmp/err")"
# Each file: hotline-sim's, its preset, every policy (its subjects) at each thread count,
# never more threads than the preset's CPUs, --ops as given.
/usr/bin/python3 - "$tmp/sweeps" <<'PY' || fail "the JSON files are not the sweeps (above)"
import json, sys
want = {"thunderx2": [1, 2, 4, 8, 16, 28, 56, 112, 224],
        "x86-server": [1, 2, 4, 8, 16, 28, 56, 112],
        "graviton2-lse": [1, 2, 4, 8, 16, 32, 64]}
bad = []
for preset, threads in want.items():
    d = json.load(open(f"{sys.argv[1]}/sim-{preset}.json"))
    policies = set(d.get("subjects", {}).get("contend", {}))
    if len(policies) < 9:
        bad.append(f"{preset}: expected every policy (9 or more) in subjects, saw {sorted(policies)}")
    got = {(r["subject"], r["threads"]) for r in d["results"] if r["scenario"] == "contend"}
    exp = {(p, t) for p in policies for t in threads}
    if d["tool"] != "hotline-sim" or d["env"].get("preset") != preset:
        bad.append(f"{preset}: tool {d['tool']}, preset {d['env'].get('preset')}")
    if got != exp:
        bad.append(f"{preset}: missing {sorted(exp - got)[:5]}, extra {sorted(got - exp)[:5]}")
    if max(t for _, t in got) > d["env"]["cpus"]:
        bad.append(f"{preset}: more threads than its {d['env']['cpus']} CPUs")
    if d["config"].get("ops") != 300:
        bad.append(f"{preset}: --ops {d['config'].get('ops')}, expected 300")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# With --bench (a measured contend file): the calibrated sweep too, last,
# marked calibrated, fitted to that file, with the base preset for its arch.
"$script" --ops 300 --jobs 2 --bench "$fixture" "$sim" "$tmp/withbench" >"$tmp/list" 2>"$tmp/err"
status=$?
[ $status -eq 0 ] || fail "--bench: expected exit 0, got $status: $(cat "$tmp/err")"
[ "$(tail -n 1 "$tmp/list")" = "$tmp/withbench/sim-calibrated.json" ] ||
	fail "--bench: expected sim-calibrated.json listed last, got: $(cat "$tmp/list")"
[ "$(wc -l <"$tmp/list")" -eq 4 ] || fail "--bench: expected four sweeps listed, got: $(cat "$tmp/list")"
# every policy hotline-sim has (its --list's "policies:" line)
npolicies=$(${HOTLINE_TARGET_RUN:+$HOTLINE_TARGET_RUN} "$sim" --list | sed -n 's/^policies://p' | wc -w)
/usr/bin/python3 - "$tmp/withbench/sim-calibrated.json" "$fixture" "$npolicies" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
env = d["env"]
cal = env.get("calibration") or {}
ok = (env.get("preset") == "calibrated" and env.get("simulated") is True
      and cal.get("file") == sys.argv[2] and cal.get("base") == "x86-server"
      and {r["threads"] for r in d["results"]} == {1, 2, 4, 8, 16, 28, 56}
      and len({r["subject"] for r in d["results"]}) == int(sys.argv[3]) >= 9)
if not ok:
    print("FAIL: calibrated sweep:", env.get("preset"), cal.get("file"), cal.get("base"),
          sorted({r["threads"] for r in d["results"]}))
sys.exit(0 if ok else 1)
PY
	fail "the calibrated sweep is not a fit of --bench's file (above)"

# A hotline-sim that fails on one machine after writing half a JSON: exit 1,
# the others still written and listed, no JSON (nor a part of one) for it.
cat >"$tmp/fake-sim" <<FAKE
#!/bin/sh
case "\$*" in *x86-server*)
	while [ \$# -gt 1 ] && [ "\$1" != --json ]; do shift; done
	echo '{"tool": ' >"\$2"
	echo "hotline-sim: model failed" >&2
	exit 1 ;;
esac
exec $HOTLINE_TARGET_RUN "$sim" "\$@"
FAKE
chmod +x "$tmp/fake-sim"
# The fake is a shell script: it runs natively and runs the real one through
# the emulator itself (a cross build's emulator cannot run a script).
HOTLINE_TARGET_RUN= "$script" --ops 300 "$tmp/fake-sim" "$tmp/half" >"$tmp/list" 2>"$tmp/err"
status=$?
[ $status -eq 1 ] || fail "a failing hotline-sim: expected exit 1, got $status"
grep -q 'x86-server: hotline-sim failed' "$tmp/err" ||
	fail "stderr: expected the failed sweep named, got: $(cat "$tmp/err")"
grep -q 'model failed' "$tmp/err" || fail "stderr: expected hotline-sim's own line, got: $(cat "$tmp/err")"
[ "$(cat "$tmp/list")" = "$(printf '%s\n' "$tmp/half/sim-thunderx2.json" "$tmp/half/sim-graviton2-lse.json")" ] ||
	fail "stdout: expected the two written sweeps, got: $(cat "$tmp/list")"
ls "$tmp/half" | grep -q x86 && fail "a failed sweep left a file: $(ls "$tmp/half")"

# A measured file hotline-sim refuses to calibrate to (every figure a
# million times too slow): that sweep is skipped and said so, the others
# are written and listed, and the script succeeds (make bench goes on to
# the report).
/usr/bin/python3 - "$fixture" "$tmp/nonsense.json" <<'PY' || fail "could not write the scaled fixture"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    r["ns_per_op"] *= 1e6
json.dump(d, open(sys.argv[2], "w"))
PY
"$script" --ops 300 --jobs 2 --bench "$tmp/nonsense.json" "$sim" "$tmp/refused" >"$tmp/list" 2>"$tmp/err"
status=$?
[ $status -eq 0 ] || fail "a refused calibration: expected exit 0, got $status: $(cat "$tmp/err")"
grep -q '^sim-sweep: calibrated: skipped: hotline-sim refused the calibration' "$tmp/err" ||
	fail "stderr: expected the calibrated sweep said skipped, got: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/list")" -eq 3 ] || fail "a refused calibration: expected three sweeps listed, got: $(cat "$tmp/list")"
ls "$tmp/refused" | grep -q calibrated && fail "a refused calibration left a file: $(ls "$tmp/refused")"

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "sim-sweep.sh: bad input refused, sweeps written"
