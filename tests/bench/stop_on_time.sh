#!/bin/sh
# A timed run ends at its duration plus a bounded grace, however many threads
# wait: contend's ticket lock (FIFO, spinning, never sleeping) with 64 and 256
# threads, far more than this machine's CPUs, and every contend subject at 64.
# (Once it took 6-15 s to end a 0.05 s ticket run at 64 threads on 2 CPUs, and
# more than a minute at 256: every thread still queued had to be served, one
# time slice per hand-off.)
#
#   stop_on_time.sh PATH-TO-hotline-bench
#
# The bound of a run is what the same command takes at one thread (start-up,
# topology, one run, exit: all of it slower under a sanitizer or an emulator)
# plus a grace: 3 s for one subject, 1 s per subject for the list, four times
# that under emulation (HOTLINE_TARGET_RUN set). A run past twice its bound is killed, so that a
# regression fails here rather than at CTest's timeout.
set -u

tool=hotline-bench
tool_path=${1:?usage: stop_on_time.sh PATH-TO-hotline-bench}
. "$(dirname "$0")/../cli_lib.sh"

duration=0.05
emulated=1
[ -n "${HOTLINE_TARGET_RUN:-}" ] && emulated=4

now_ms() {
	date +%s%3N
}

# timed_run LIMIT_MS ARGS...: runs contend with ARGS; sets status and took_ms.
timed_run() {
	limit_s=$(($1 * 2 / 1000 + 1))
	shift
	t0=$(now_ms)
	timeout -s KILL "$limit_s" ${HOTLINE_TARGET_RUN:+"$HOTLINE_TARGET_RUN"} "$tool_path" \
		contend --quick --repeat 1 --duration "$duration" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	took_ms=$(($(now_ms) - t0))
}

# expect_on_time SUBJECTS THREADS GRACE_MS: the run must succeed within the
# one-thread time of the same subjects plus the grace. The two runs are
# timed one after the other, so a burst of load from outside can slow the
# second alone: a pair over the bound is timed again, and fails only twice.
expect_on_time() {
	subjects=$1
	threads=$2
	grace=$(($3 * emulated))
	what="contend --subjects $subjects --threads $threads --duration $duration"

	for attempt in 1 2; do
		timed_run $((grace * 4)) --subjects "$subjects" --threads 1
		base_ms=$took_ms
		if [ "$status" -ne 0 ]; then
			fail "$what at 1 thread: expected exit status 0, got $status: $(cat "$tmp/err")"
			return
		fi
		bound=$((base_ms + grace))
		timed_run "$bound" --subjects "$subjects" --threads "$threads"
		if [ "$status" -ne 0 ]; then
			fail "$what: expected exit status 0 within ${bound} ms, got $status after ${took_ms} ms: $(cat "$tmp/err")"
			return
		fi
		if [ "$took_ms" -le "$bound" ]; then
			echo "ok: $what: ${took_ms} ms (bound ${bound} ms)"
			return
		fi
		echo "$what: took ${took_ms} ms, over ${bound} ms (${base_ms} ms at 1 thread + ${grace} ms), attempt $attempt"
	done
	fail "$what: expected to end within ${bound} ms (${base_ms} ms at 1 thread + ${grace} ms), took ${took_ms} ms (twice)"
}

expect_on_time ticket 64 3000
expect_on_time ticket 256 3000

# Every subject at 64 threads, one run each (the list is the tool's own).
run_tool --list >"$tmp/list" 2>"$tmp/err" || fail "--list: failed: $(cat "$tmp/err")"
all=$(sed -n '/^contend:/,/^[^ ]/s/^  \([a-z0-9_]*\) .*/\1/p' "$tmp/list" | paste -sd, -)
nr=$(echo "$all" | tr , '\n' | grep -c .)
if [ "$nr" -lt 10 ]; then
	fail "--list: expected contend's subjects, found '$all'"
else
	expect_on_time "$all" 64 $((nr * 1000))
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "every run ended on time"
