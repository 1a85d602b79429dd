# tests/cli_lib.sh - sourced by the command-line tests of hotline's tools
# (tests/bench/cli.sh, tests/sim/cli.sh, tests/bench/progress_tty.sh). Set
# before sourcing it:
#   tool       the program's name, which starts every error line ("hotline-sim")
#   tool_path  the program to run
# It gives:
#   run_tool ARGS...   runs the program, through $HOTLINE_TARGET_RUN when that
#                      is set (an emulator such as scripts/qemu-arm64 in a
#                      cross build)
#   tmp                a scratch directory, removed on exit
#   fail MESSAGE       prints FAIL: MESSAGE and counts it in $failures
#   expect_bad "WORDS" ARGS...
#                      the run must exit 2 with exactly one line on stderr,
#                      starting "$tool: " and containing every word of WORDS,
#                      and print nothing on stdout (the project's rule for bad
#                      input, README.md)
#   expect_lost HOW ARGS...
#                      output that cannot be written is a failure: the run
#                      must exit 1 with one line "$tool: ... cannot write ..."
#                      on stderr, never 0. HOW is full (stdout on /dev/full),
#                      closed (stdout closed) or json (ARGS name a JSON file
#                      that cannot be written)
#   expect_refused_closed ARGS...
#                      a command line refused before anything is written exits
#                      2 even with stdout closed
#   finish OK_LINE     ends the script: the number of failures and exit 1, or
#                      OK_LINE and exit 0
#   progress_re        (set by the caller, optional) a grep pattern for the
#                      tool's progress lines: expect_lost does not count them

run_tool() {
	${HOTLINE_TARGET_RUN:+"$HOTLINE_TARGET_RUN"} "$tool_path" "$@"
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

expect_bad() {
	want=$1
	shift
	run_tool "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	lines=$(wc -l <"$tmp/err")
	what="$tool $*"
	if [ "$status" -ne 2 ]; then
		fail "$what: expected exit status 2, got $status"
	elif [ "$lines" -ne 1 ]; then
		fail "$what: expected exactly one line on stderr, got $lines: $(cat "$tmp/err")"
	else
		# Every word of want must appear in the line.
		for w in $want; do
			if ! grep -qF -- "$w" "$tmp/err"; then
				fail "$what: expected the error to name '$w', got: $(cat "$tmp/err")"
			fi
		done
		if ! grep -q "^$tool: " "$tmp/err"; then
			fail "$what: expected the line to start with '$tool: ', got: $(cat "$tmp/err")"
		fi
	fi
	if [ -s "$tmp/out" ]; then
		fail "$what: expected nothing on stdout, got: $(head -c 200 "$tmp/out")"
	fi
}

expect_lost() {
	how=$1
	shift
	case $how in
	full) run_tool "$@" >/dev/full 2>"$tmp/err" ;;
	closed) run_tool "$@" >&- 2>"$tmp/err" ;;
	*) run_tool "$@" >/dev/null 2>"$tmp/err" ;;
	esac
	status=$?
	if [ -n "${progress_re:-}" ]; then
		grep -v "$progress_re" "$tmp/err" >"$tmp/err.msg"
		mv "$tmp/err.msg" "$tmp/err"
	fi
	lines=$(wc -l <"$tmp/err")
	what="$tool $* (stdout: $how)"
	if [ "$status" -ne 1 ]; then
		fail "$what: expected exit status 1, got $status: $(cat "$tmp/err")"
	elif [ "$lines" -ne 1 ] || ! grep -q "^$tool: .*cannot write" "$tmp/err"; then
		fail "$what: expected one line '$tool: ... cannot write ...' on stderr, got: $(cat "$tmp/err")"
	fi
}

expect_refused_closed() {
	run_tool "$@" >&- 2>"$tmp/err"
	status=$?
	[ "$status" -eq 2 ] ||
		fail "$* with stdout closed: expected exit status 2, got $status: $(cat "$tmp/err")"
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
	echo "$1"
	exit 0
}
