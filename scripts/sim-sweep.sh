#!/bin/bash
# sim-sweep.sh - the simulated part of make bench: hotline-sim's many-core
# sweeps, every policy over a thread list per machine, one JSON per sweep.
#
#   scripts/sim-sweep.sh [--ops N] [--jobs N] [--bench FILE] SIM OUTDIR
#
# SIM is the hotline-sim program, OUTDIR where OUTDIR/sim-NAME.json go (made
# if missing). --ops: hotline-sim's operations per run (default 200000);
# --jobs: sweeps run at once (default: the CPUs); --bench: the measured JSON,
# for sweeps that read it ({bench} in their arguments; without --bench they
# are skipped, and say so).
#
# stdout: the JSON files written, one a line, in the table's order (for
# hotline-report); stderr: progress, and one line per problem. SIM runs
# through $HOTLINE_TARGET_RUN when that is set (an emulator, as in the tests
# of a cross build). Exit status:
# 0 every sweep written, 1 a sweep failed (its JSON is not written; the others
# are), 2 bad command line (one line naming the option or value). A
# calibration that hotline-sim refuses (exit 2: the measured file fits the
# model too badly, docs/sim.md) skips that sweep, with hotline-sim's line
# and one of ours saying so, and fails nothing: the report goes without it.

# The sweeps, one a line: NAME (the file is OUTDIR/sim-NAME.json), then
# hotline-sim's arguments besides --policy, --ops and --json; {bench} stands
# for --bench's file. Thread counts: powers of two and the lockref threads'
# 28/56/112/224, never more than the machine's CPUs (hotline-sim --list).
# The longest first: they run --jobs at a time. One more sweep is one more
# line. "calibrated" is the calibration base preset for --bench's arch
# (x86-server on x86-64, graviton2-lse on arm64: calibration_base in
# sim/presets.c) with the costs fitted to its measured 1-2 thread figures
# (docs/sim.md, "Calibrating"); its counts fit both presets.
SWEEPS='
thunderx2      --machine thunderx2     --threads 1,2,4,8,16,28,56,112,224
x86-server     --machine x86-server    --threads 1,2,4,8,16,28,56,112
graviton2-lse  --machine graviton2-lse --threads 1,2,4,8,16,32,64
calibrated     --calibrate {bench}     --threads 1,2,4,8,16,28,56
'
# Every subject hotline-sim models (the bench's names), as its table lists them.
POLICIES=all

me=sim-sweep
say() { printf '%s: %s\n' "$me" "$*" >&2; }
bad() { say "$* (usage: scripts/sim-sweep.sh [--ops N] [--jobs N] [--bench FILE] SIM OUTDIR)"; exit 2; }
show() { printf '%s' "$1" | tr -c '[:print:]' '?'; }   # a value, control characters as '?'
positive() { [[ $1 =~ ^[0-9]+$ && ! $1 =~ ^0+$ && ${#1} -le 9 ]]; }

ops=200000
jobs=$(nproc 2>/dev/null || echo 2)
bench=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--ops | --jobs | --bench)
		[ $# -ge 2 ] || bad "$1: needs a value"
		opt=${1#--}
		positive "$2" || [ "$opt" = bench ] ||
			bad "--$opt: '$(show "$2")' is not a positive integer"
		printf -v "$opt" '%s' "$2"
		shift 2 ;;
	--) shift; args+=("$@"); break ;;
	-*) bad "$(show "$1"): unknown option" ;;
	*) args+=("$1"); shift ;;
	esac
done
[ ${#args[@]} -eq 2 ] || bad "expected SIM and OUTDIR, got ${#args[@]} argument(s)"
sim=${args[0]} out=${args[1]}
[ -f "$sim" ] && [ -x "$sim" ] || bad "SIM '$(show "$sim")': not an executable file"
[ -z "$bench" ] || [ -f "$bench" -a -r "$bench" ] ||
	bad "--bench: '$(show "$bench")': not a readable file"
if [ -e "$out" ] && [ ! -d "$out" ]; then
	bad "OUTDIR '$(show "$out")': exists and is not a directory"
fi
mkdir -p -- "$out" 2>/dev/null || bad "OUTDIR '$(show "$out")': cannot create it"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# One sweep: hotline-sim into a temporary name, renamed when it succeeded.
sweep() {
	local name=$1 start=$EPOCHREALTIME json="$out/sim-$1.json"
	shift
	${HOTLINE_TARGET_RUN:+$HOTLINE_TARGET_RUN} "$sim" "$@" --policy "$POLICIES" --ops "$ops" \
		--json "$json.tmp" >/dev/null
	local rc=$?
	if [ $rc -eq 0 ] && mv -f -- "$json.tmp" "$json"; then
		say "$name: done in $(elapsed "$start") s: $json"
	elif [ $rc -eq 2 ] && [[ " $* " == *" --calibrate "* ]]; then
		rm -f -- "$json.tmp"
		say "$name: skipped: hotline-sim refused the calibration (above); no $json"
		rc=skipped
	else
		rm -f -- "$json.tmp"
		say "$name: hotline-sim failed (exit status $rc); no $json"
		rc=1
	fi
	echo $rc >"$tmp/$name.rc"
}

start=$EPOCHREALTIME
names=()
set -f	# the arguments are words, not patterns
while read -r name line; do
	[ -n "$name" ] || continue
	sargs=()
	for a in $line; do
		if [ "$a" = "{bench}" ]; then
			if [ -z "$bench" ]; then
				say "$name: skipped (it reads the measured file: --bench FILE)"
				continue 2
			fi
			a=$bench
		fi
		sargs+=("$a")
	done
	names+=("$name")
	say "$name: ${sargs[*]}, every policy, --ops $ops"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	sweep "$name" "${sargs[@]}" &
done <<<"$SWEEPS"
set +f
wait

failed=0
for name in "${names[@]}"; do
	rc=$(cat "$tmp/$name.rc" 2>/dev/null)
	if [ "$rc" = 0 ]; then
		printf '%s\n' "$out/sim-$name.json"
	elif [ "$rc" != skipped ]; then
		failed=$((failed + 1))
	fi
done
if [ $failed -gt 0 ]; then
	say "$failed of ${#names[@]} sweeps failed ($(elapsed "$start") s)"
	exit 1
fi
say "${#names[@]} sweeps in $(elapsed "$start") s"
