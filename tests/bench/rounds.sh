#!/bin/sh
# A sized sweep takes its repetitions in rounds over its sizes: repetition r
# of every size (each size's subjects side by side) before repetition r + 1
# of any, so that the repetitions at one size are spread over the sweep and
# sample the machine's drift instead of a fraction of a second of it. Within
# a repetition the subjects run in table order when r is even (from 0) and
# in reverse order when it is odd, so that no subject always runs first.
#
#   rounds.sh PATH-TO-hotline-bench
#
# Each repetition is cut into S slices (the JSON's "slices"), every
# subject's slice s before any subject's slice s + 1, the order alternating
# from slice to slice and on into the next repetition.
#
# Seen through the progress lines without a terminal: one line per size and
# subject when its last repetition is done, "[POS/TOTAL] SCENARIO, MODE SIZE:
# SUBJECT done, R repetitions ...". In rounds every one of them comes in the
# last round, in size order: the line of size k (from 0) and subject i is at
# position (R - 1) x sizes x subjects + k x subjects + j + 1, where j is i
# when the last slice, (R - 1) x S + S - 1, is even and 1 - i (of two
# subjects) when it is odd. (Back to back, the first size's lines would be
# at R x subjects; in one order always, j would be i whatever R and S.)
# The JSON still holds R repetitions per size and subject.
set -u

tool=hotline-bench
tool_path=${1:?usage: rounds.sh PATH-TO-hotline-bench}
. "$(dirname "$0")/../cli_lib.sh"

# check SCENARIO SUBJECT1,SUBJECT2 REPS SECONDS: hot, sizes 1, 2 and 4 bytes,
# SECONDS per sample (a slice per millisecond of it).
check() {
	scenario=$1
	subjects=$2
	reps=$3
	total=$((reps * 3 * 2))
	run_tool "$scenario" --quick --mode hot --sizes 1,2,4 --subjects "$subjects" \
		--repeat $reps --duration "$4" --json "$tmp/$scenario.json" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" -ne 0 ]; then
		fail "$scenario: exit status $status: $(cat "$tmp/err")"
		return
	fi
	grep ' done, ' "$tmp/err" | grep -v " $scenario done in " >"$tmp/done"
	slices=$(/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted({str(r.get("slices")) for r in d["results"]})))' "$tmp/$scenario.json")
	case $slices in
	[1-9]) ;;
	*)
		fail "$scenario: expected one number of slices in every result, got '$slices'"
		return
		;;
	esac
	last=$(((reps - 1) * slices + slices - 1))
	want=""
	k=0
	for size in 1 2 4; do
		i=0
		for subject in $(echo "$subjects" | tr , ' '); do
			j=$i
			[ $((last % 2)) -eq 1 ] && j=$((1 - i))
			pos=$(((reps - 1) * 3 * 2 + k * 2 + j + 1))
			want="$want$pos $scenario, hot $size: $subject done, $reps repetitions
"
			i=$((i + 1))
		done
		k=$((k + 1))
	done
	got=$(sed -e 's/^hotline-bench: //' -e 's/ in [0-9.]* s.*$//' "$tmp/done" |
		sed -E "s|^\[([0-9]+)/$total\] |\1 |" | sort -n)
	if [ "$got" != "$(printf '%s' "$want" | sort -n)" ]; then
		fail "$scenario, $reps repetitions of $slices slices: the repetitions were not" \
			"taken in rounds over the sizes, in alternating order;" \
			"expected:
$want
got:
$got"
	fi
	n=$(/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted({len(r["runs"]) for r in d["results"]}))' "$tmp/$scenario.json")
	[ "$n" = "[$reps]" ] || fail "$scenario: repetitions per result $n, expected [$reps]"
}

# 3 slices: the last is even after 3 repetitions, odd after 4; 2 slices: always odd.
check zero hl_zero,glibc_memset 3 0.003
check copy hl_try_copy,glibc_memcpy 3 0.003
check copy hl_try_copy,glibc_memcpy 4 0.003
check zero hl_zero,glibc_memset 3 0.002
finish "ok: zero's and copy's repetitions are taken in rounds over the sizes, their slices alternating"
