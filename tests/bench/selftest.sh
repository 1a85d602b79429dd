#!/bin/sh
# contend's mutual-exclusion check can fail: the hidden self-test subject
# runs the lock subjects' critical sections with no lock at all, on two
# threads, and the run must fail: exit status 1, one line on stderr that
# says mutual exclusion was broken. (If the check could never fire, every
# lock subject's "passed" would mean nothing.)
#
#   selftest.sh PATH-TO-hotline-bench
#
# HOTLINE_TARGET_RUN, when set, is the program that runs target programs
# (an emulator such as scripts/qemu-arm64 in a cross build).
set -u

bench=${1:?usage: selftest.sh PATH-TO-hotline-bench}
run_bench() {
	${HOTLINE_TARGET_RUN:+"$HOTLINE_TARGET_RUN"} "$bench" "$@"
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Two threads on two CPUs (--pin auto) overlap all the time; on one CPU they
# would overlap only when preempted inside a critical section.
if [ "$(nproc)" -lt 2 ]; then
	echo "SKIP: one CPU: two threads without a lock rarely overlap"
	exit 77
fi
# A run in which the two threads never overlap (a loaded machine may leave
# one of them waiting for a CPU the whole 0.05 s) exits 0; up to 5 runs.
attempt=1
while :; do
	run_bench contend --subjects selftest_nolock --threads 2 --duration 0.05 --repeat 1 \
		>"$tmp/out" 2>"$tmp/err"
	status=$?
	[ "$status" -ne 0 ] || [ "$attempt" -ge 5 ] && break
	echo "run $attempt: exit status 0, the threads did not overlap; again"
	attempt=$((attempt + 1))
done
lines=$(wc -l <"$tmp/err")
if [ "$status" -ne 1 ]; then
	echo "FAIL: contend --subjects selftest_nolock: expected exit status 1 (the check fired)," \
		"got $status (run $attempt); stderr: $(cat "$tmp/err")"
	exit 1
fi
if [ "$lines" -ne 1 ] || ! grep -q '^hotline-bench: contend: selftest_nolock at 2 threads: mutual exclusion broken' "$tmp/err"; then
	echo "FAIL: expected one line 'hotline-bench: contend: selftest_nolock at 2 threads:" \
		"mutual exclusion broken ...', got: $(cat "$tmp/err")"
	exit 1
fi
echo "the mutual-exclusion check fails a lock that does not lock: $(cat "$tmp/err")"
