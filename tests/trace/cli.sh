#!/bin/sh
# hotline-trace's command line without tracing anything: --help names the
# probes; a process that does not exist, or does not use libhotline, is one
# line on stderr and exit 2 (as are a missing bpftrace and a user who is not
# root: the same path, checked before the process is looked at).
#   cli.sh PYTHON HOTLINE_TRACE
set -u
py=$1 tool=$2
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null' EXIT

"$py" "$tool" --help >"$tmp/help" || { echo "FAIL: --help exited $?"; status=1; }
for p in lockref_cmpxchg_fail qspin_slow refcount_saturate rcuref_report try_fault; do
	grep -q "$p" "$tmp/help" || { echo "FAIL: --help does not name probe $p"; status=1; }
done

# expect_2 WHAT ARGS...: exit 2, one line on stderr, nothing on stdout
expect_2() {
	what=$1
	shift
	"$py" "$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]; then
		echo "FAIL: $what: exit $rc, stderr:"
		cat "$tmp/err"
		status=1
	else
		echo "$what: $(cat "$tmp/err")"
	fi
}
sleep 60 &
pid=$!
expect_2 "a process without libhotline" -p "$pid" --duration 1
expect_2 "no such process" -p 999999999 --duration 1
expect_2 "a bad duration" -p "$pid" --duration 0
exit $status
