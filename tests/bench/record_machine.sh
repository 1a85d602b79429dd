#!/bin/sh
# record_machine.sh - scripts/record-machine.py: bad input is one line and
# exit 2 (a usage line first when the command line is wrong); a bench JSON
# without env.plan_machine needs what it cannot say given with --set, and
# the record says so; one with it is copied as it is; the results keep the
# variants', the entries' (hl_try_copy's) and glibc's rows, hot and cold,
# with their runs and ratio_runs.
#   record_machine.sh PYTHON SOURCE_DIR
set -u
py=$1 src=$2
tool=$src/scripts/record-machine.py
fix=$src/tests/report/fixtures
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# refused: exit 2, one line on stderr (argparse: the usage line, then one)
refused() {
	lines=$1
	shift
	"$py" "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || no "record-machine.py $*: exit $rc, expected 2"
	[ "$(wc -l <"$tmp/err")" -eq "$lines" ] || no "record-machine.py $*: stderr: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && no "record-machine.py $*: wrote to stdout"
	cat "$tmp/err"
}
refused 2
grep -q '^usage: record-machine.py ' "$tmp/err" || no "no usage line"
refused 2 --bogus "$fix/copy.json"
refused 1 "$tmp/none.json"
refused 1 "$tool"
refused 1 "$fix/zero.json" -o -
grep -q 'env.family and env.model_id' "$tmp/err" || no "zero.json: $(cat "$tmp/err")"
refused 1 "$fix/copy.json" -o -
grep -q 'l1d, l3, l3_sharing cannot be read' "$tmp/err" || no "copy.json: $(cat "$tmp/err")"
refused 1 "$fix/copy.json" --set l1d=lots -o -
refused 1 "$fix/copy.json" --set colour=red -o -

# without env.plan_machine: rebuilt, the rest given
"$py" "$tool" "$fix/copy.json" --set l1d=32K --set l3=32M --set l3_sharing=2 --commit abc1234 \
	--note "a test" -o "$tmp/rec.json" >"$tmp/out" 2>&1 || no "copy.json with --set: $(cat "$tmp/out")"
# with it: copied
"$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["env"]["plan_machine"] = {"isa": "x86_64", "vendor": "amd", "family": "0x19", "model": "0x11",
    "erms": True, "fsrm": True, "avx2": True, "avx512": True, "dczva_block": 0, "mops": False,
    "l1d": 32768, "l2": 1048576, "l3": 33554432, "l3_sharing": 2, "caches_from": "CPUID 0x8000001D"}
json.dump(d, open(sys.argv[2], "w"))' "$fix/copy.json" "$tmp/bench.json"
"$py" "$tool" "$tmp/bench.json" -o "$tmp/rec2.json" >"$tmp/out" 2>&1 || no "with plan_machine: $(cat "$tmp/out")"
"$py" - "$tmp/rec.json" "$tmp/rec2.json" "$fix/copy.json" <<'PY' || fail=1
import json, sys
rec, rec2, bench = (json.load(open(p)) for p in sys.argv[1:4])
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
for r in (rec, rec2):
    want(r["machine"]["name"] == "amd-19-11", f"name {r['machine']['name']!r}")
    pm = r["plan_machine"]
    want(pm["l1d"] == 32768 and pm["l3_sharing"] == 2 and pm["vendor"] == "amd" and
         pm["family"] == "0x19" and pm["avx512"] is True, f"plan_machine {pm}")
want(rec["plan_machine"]["l2"] == 1048576 and
     rec["plan_machine"]["caches_from"] == "CPUID 0x8000001D", "l2 and caches_from from the sources")
want("rebuilt" in rec["plan_machine_from"] and "l1d, l3, l3_sharing given" in
     rec["plan_machine_from"], f"plan_machine_from {rec['plan_machine_from']!r}")
want(rec2["plan_machine_from"].startswith("env.plan_machine"), "plan_machine_from of a copy")
want(rec["measured"]["commit"] == "abc1234" and rec2["measured"]["commit"] is None and
     rec["notes"] == ["a test"], "commit and notes")
want(rec["measured"]["copy_plan"] == "avx512 <= 2048 < rep_movsb <= 1048576 < avx512",
     "copy_plan: the rows' plan")
kept = [(r["subject"], r["mode"], r["size"]) for r in bench["results"]
        if r["scenario"] == "copy" and r["mode"] in ("hot", "cold") and
        r["subject"] in ("glibc_memcpy", "hl_try_copy")]
got = [(r["subject"], r["mode"], r["size"]) for r in rec["results"]]
want(sorted(got) == sorted(kept) and kept, f"results {got} (expected {kept})")
want(all(set(r) == {"scenario", "subject", "mode", "size", "gb_per_sec", "runs", "ratio_to",
                    "ratio", "ratio_runs"} for r in rec["results"]), "row fields")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
[ "$fail" -eq 0 ] && echo "record_machine: refuses bad input, rebuilds, copies and trims as it should"
exit "$fail"
