#!/bin/sh
# progress_tty.sh - hotline-bench's progress on a terminal: one updating line
# (position, time left, what runs, the repetition; a lockref-sweep line names
# its retry limit), no per-subject lines, and the line cleared at the end;
# with --until-decided, the extra repetitions apart from the planned ones,
# naming the question and its interval, the budget beside the time left.
# The pseudo-terminal comes from script(1) (util-linux / bsdutils); without
# it the test is skipped (exit 77).
#
#   progress_tty.sh PATH-TO-hotline-bench
set -u

bench=${1:?usage: progress_tty.sh PATH-TO-hotline-bench}
if ! command -v script >/dev/null 2>&1 || [ -n "${HOTLINE_TARGET_RUN:-}" ]; then
	echo "SKIP: no script(1), or a cross build: no terminal to test on"
	exit 77
fi
tool=hotline-bench
tool_path=$bench
. "$(dirname "$0")/../cli_lib.sh" # tmp, fail and failures

# Everything the terminal got (stdout to a file): stderr alone.
script -qec "stty cols 200; '$bench' lockref-sweep --quick --duration 0.01 --threads 2 \
	--repeat 2 >'$tmp/out'" /dev/null >"$tmp/tty" 2>&1 </dev/null
status=$?
[ "$status" -eq 0 ] || fail "lockref-sweep on a terminal: expected exit status 0, got $status: $(cat "$tmp/tty")"
tr '\r' '\n' <"$tmp/tty" | sed 's/\x1b\[K//g' | grep . >"$tmp/lines"
# 9 cases (8 limits and unbounded) x 2 repetitions: 18 updates.
n=$(grep -c '^\[[0-9]*/18, [0-9]*:[0-9][0-9] left\] lockref-sweep, 2 threads: lockref[_a-z]*, .*, rep [12]/2$' "$tmp/lines")
[ "$n" -eq 18 ] || fail "expected 18 updates '[i/18, m:ss left] lockref-sweep, 2 threads: ..., rep r/2', got $n: $(cat "$tmp/lines")"
for limit in 1 2 4 15 50 100 200 500; do
	grep -q "lockref, retry limit $limit, rep 2/2\$" "$tmp/lines" ||
		fail "expected an update naming retry limit $limit, got: $(cat "$tmp/lines")"
done
grep -q "lockref_unbounded, no retry limit, rep 1/2\$" "$tmp/lines" ||
	fail "expected an update for lockref_unbounded with no retry limit, got: $(cat "$tmp/lines")"
grep -q '^\[18/18, ' "$tmp/lines" || fail "expected the last update at [18/18], got: $(cat "$tmp/lines")"
grep -q ' done' "$tmp/lines" && fail "expected no finished-subject lines on a terminal, got: $(cat "$tmp/lines")"
# The last thing written clears the line.
tail -c 4 "$tmp/tty" | od -c | grep -q '\\r 033   \[   K' ||
	fail "expected the progress line cleared at the end, got: $(tail -c 40 "$tmp/tty" | od -c)"
grep -q '^2 *lockref_unbounded ' "$tmp/out" || fail "expected the table on stdout, got: $(cat "$tmp/out")"

# --until-decided: one repetition planned, so refcount / atomic_faa cannot tell:
# at least one extra round, both subjects, counted apart ("+N unplanned").
script -qec "stty cols 200; '$bench' contend --duration 0.01 --threads 2 --repeat 1 \
	--subjects atomic_faa,refcount --until-decided=1 >'$tmp/out2'" /dev/null >"$tmp/tty2" 2>&1 </dev/null
status=$?
[ "$status" -eq 0 ] || fail "--until-decided on a terminal: expected exit status 0, got $status: $(cat "$tmp/tty2")"
tr '\r' '\n' <"$tmp/tty2" | sed 's/\x1b\[K//g' | grep . >"$tmp/lines2"
extra='^\[2/2( \+[0-9]+ unplanned)?, [0-9]+:[0-9][0-9] left, \+[0-9]+:[0-9][0-9] to decide\] until decided: refcount / atomic_faa at 2 threads, rep [0-9]+: '
for who in refcount atomic_faa; do
	grep -Eq "$extra$who; .*" "$tmp/lines2" ||
		fail "expected an update '[2/2 +N unplanned, m:ss left, +m:ss to decide] until decided: refcount / atomic_faa at 2 threads, rep N: $who; ...', got: $(cat "$tmp/lines2")"
done
grep -q '^\[2/2, .*\] until decided: .*, rep 2: refcount; one repetition, no interval$' "$tmp/lines2" ||
	fail "expected the first extra repetition (rep 2, reverse order: refcount first) to say there is no interval yet, got: $(cat "$tmp/lines2")"
grep -q ' done' "$tmp/lines2" && fail "expected no finished-subject lines on a terminal, got: $(cat "$tmp/lines2")"

[ "$failures" -eq 0 ] || exit 1
echo "progress on a terminal: $(grep -c . "$tmp/lines") updates, the last: $(tail -n 1 "$tmp/lines")"
