# tests/cli_lib.sh - sourced by the command-line tests of hotline's tools
# (tests/bench/cli.sh, tests/sim/cli.sh). Set before sourcing it:
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
#                      and print nothing on stdout (design.md, "Bad input")

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
