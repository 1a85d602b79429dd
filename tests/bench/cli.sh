#!/bin/sh
# hotline-bench's command line: every bad option or value is refused with
# exit status 2 and exactly one line on stderr that names the option and the
# bad value; --help, --list and --version answer on stdout with status 0.
#
#   cli.sh PATH-TO-hotline-bench
#
# HOTLINE_TARGET_RUN, when set, is the program that runs target programs
# (an emulator such as scripts/qemu-arm64 in a cross build).
set -u

tool=hotline-bench
tool_path=${1:?usage: cli.sh PATH-TO-hotline-bench}
. "$(dirname "$0")/../cli_lib.sh"

# A run that got past the checks must not take long if it happens by mistake:
# a small count and one repetition come first, the bad option after them.
safe="refcount-timing --count 1000 --repeat 1"

# Numbers: zero, negative, junk, too big, missing.
expect_bad "--repeat '0'" $safe --repeat 0
expect_bad "--repeat '-1'" $safe --repeat -1
expect_bad "--repeat '3x'" $safe --repeat 3x
expect_bad "--repeat 'abc'" $safe --repeat abc
expect_bad "--repeat '99999999999999999999999'" $safe --repeat 99999999999999999999999
expect_bad "--repeat ''" $safe --repeat ''
expect_bad "--repeat missing" $safe --repeat
expect_bad "--count '1'" $safe --count 1
expect_bad "--count '0'" $safe --count 0
expect_bad "--count '4294967296'" $safe --count 4294967296
expect_bad "--count '1e6'" $safe --count 1e6
expect_bad "--duration '0'" $safe --duration 0
expect_bad "--duration '-1'" $safe --duration -1
expect_bad "--duration '1s'" $safe --duration 1s
expect_bad "--duration 'nan'" $safe --duration nan
expect_bad "--duration 'inf'" $safe --duration inf
expect_bad "--duration '1.2.3'" $safe --duration 1.2.3
expect_bad "--duration '99999999'" $safe --duration 99999999
expect_bad "--threads '0'" $safe --threads 0
expect_bad "--threads 'x' '1,x'" $safe --threads 1,x
expect_bad "--threads '1,,2'" $safe --threads 1,,2
expect_bad "--threads '2,'" $safe --threads 2,
expect_bad "--threads '100000'" $safe --threads 100000
# Placement: syntax, empty range, CPUs that are not there.
expect_bad "--pin 'bogus'" $safe --pin bogus
expect_bad "--pin '0-x'" $safe --pin 0-x
expect_bad "--pin '3-1'" $safe --pin 3-1
expect_bad "--pin '0,,1'" $safe --pin 0,,1
expect_bad "--pin '99999'" $safe --pin 99999
expect_bad "--pin 4095" $safe --pin 4095
expect_bad "--pin 4095 '0,4095'" $safe --pin 0,4095
# Names: subjects, scenarios, options.
expect_bad "--subjects 'nosuch'" $safe --subjects nosuch
expect_bad "--subjects 'nosuch'" $safe --subjects refcount,nosuch
expect_bad "--subjects 'a,,b'" $safe --subjects a,,b
expect_bad "--json ''" $safe --json ''
# --until-decided[=SECS]: a positive number of seconds, given after '='.
expect_bad "--until-decided '0'" $safe --until-decided=0
expect_bad "--until-decided '-5'" $safe --until-decided=-5
expect_bad "--until-decided 'abc'" $safe --until-decided=abc
expect_bad "--until-decided '1e3'" $safe --until-decided=1e3
expect_bad "--until-decided '2m'" $safe --until-decided=2m
expect_bad "--until-decided ''" $safe --until-decided=
expect_bad "--until-decided 'inf'" $safe --until-decided=inf
expect_bad "--until-decided '99999999'" $safe --until-decided=99999999
expect_bad "--until-decided '30' =" $safe --until-decided 30
expect_bad "--json '$tmp/no/such/dir/x.json'" $safe --json "$tmp/no/such/dir/x.json"
expect_bad "'--bogus'" $safe --bogus
expect_bad "'--bogus'" $safe --bogus=1
expect_bad "'-x'" $safe -x
expect_bad "--quick '--quick=1'" $safe --quick=1
expect_bad "scenario 'foo' unknown" foo
expect_bad "'refcount'" refcount
expect_bad "no scenario" --repeat 2
expect_bad "unexpected 'extra'" refcount-timing extra
# The threaded scenarios: the same checks apply, and their own subject names.
quick_contend="contend --duration 0.01 --repeat 1 --threads 1 --subjects atomic_faa"
expect_bad "--threads '0'" contend --duration 0.01 --repeat 1 --threads 0
expect_bad "--threads '0' '2,0'" contend --duration 0.01 --repeat 1 --threads 2,0
expect_bad "--subjects 'nosuch' contend" contend --duration 0.01 --repeat 1 --subjects nosuch
expect_bad "--subjects 'atomic' contend" contend --duration 0.01 --repeat 1 --subjects atomic
expect_bad "--duration '0'" $quick_contend --duration 0
expect_bad "--pin 'bogus'" $quick_contend --pin bogus
expect_bad "--subjects 'atomic_faa' lockref-sweep" lockref-sweep --duration 0.01 --repeat 1 \
	--subjects atomic_faa
expect_bad "--threads 'x'" lockref-sweep --duration 0.01 --repeat 1 --threads x
expect_bad "--subjects 'lockref' openclose" openclose --duration 0.01 --repeat 1 --subjects lockref
expect_bad "--duration '-0.5'" openclose --repeat 1 --duration -0.5
expect_bad "--subjects 'selftest_nolock' refcount-timing" $safe --subjects selftest_nolock
# zero: sizes (bytes, K/M/G, 1..1G) and modes. A run that got past the
# checks would be one subject at one size, hot.
quick_zero="zero --quick --repeat 1 --sizes 1 --mode hot --subjects hl_zero"
expect_bad "--sizes '0'" $quick_zero --sizes 0
expect_bad "--sizes '-1'" $quick_zero --sizes -1
expect_bad "--sizes 'x' '4K,x'" $quick_zero --sizes 4K,x
expect_bad "--sizes '1,,2'" $quick_zero --sizes 1,,2
expect_bad "--sizes '4K,'" $quick_zero --sizes 4K,
expect_bad "--sizes ''" $quick_zero --sizes ''
expect_bad "--sizes '1.5M'" $quick_zero --sizes 1.5M
expect_bad "--sizes '4KB'" $quick_zero --sizes 4KB
expect_bad "--sizes 'K'" $quick_zero --sizes K
expect_bad "--sizes '4T'" $quick_zero --sizes 4T
expect_bad "--sizes '2G' range" $quick_zero --sizes 2G
expect_bad "--sizes '1025M' range" $quick_zero --sizes 1025M
expect_bad "--sizes '1073741825' range" $quick_zero --sizes 1073741825
expect_bad "--sizes '99999999999999999999999' range" $quick_zero --sizes 99999999999999999999999
expect_bad "--sizes missing" $quick_zero --sizes
expect_bad "--mode 'warm'" $quick_zero --mode warm
expect_bad "--mode 'HOT'" $quick_zero --mode HOT
expect_bad "--mode ''" $quick_zero --mode ''
expect_bad "--mode 'hot,cold'" $quick_zero --mode hot,cold
expect_bad "--subjects 'nosuch' zero" $quick_zero --subjects nosuch
expect_bad "--subjects 'atomic' zero" $quick_zero --subjects atomic
expect_bad "--duration '0'" $quick_zero --duration 0
# copy: the same sizes and modes as zero, its own subject names.
quick_copy="copy --quick --repeat 1 --sizes 64 --mode hot --subjects hl_try_copy"
expect_bad "--sizes '0'" $quick_copy --sizes 0
expect_bad "--sizes '2G' range" $quick_copy --sizes 2G
expect_bad "--sizes '4KB'" $quick_copy --sizes 4KB
expect_bad "--mode 'warm'" $quick_copy --mode warm
expect_bad "--subjects 'nosuch' copy" $quick_copy --subjects nosuch
expect_bad "--subjects 'hl_zero' copy" $quick_copy --subjects hl_zero
expect_bad "--duration '0'" $quick_copy --duration 0
expect_bad "--tune 'copy'" $quick_copy --tune
# A value with a newline in it still gives one line.
expect_bad "--pin" $safe --pin "0
1"

# --help: status 0, usage on stdout naming every scenario, nothing on stderr.
run_tool --help >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--help: expected exit status 0, got $status"
[ -s "$tmp/err" ] && fail "--help: expected nothing on stderr, got: $(cat "$tmp/err")"
for name in refcount-timing all contend lockref-sweep zero copy openclose; do
	grep -qw -- "$name" "$tmp/out" || fail "--help: expected the scenario '$name' to be listed"
done
grep -q -- '--threads' "$tmp/out" || fail "--help: expected the options to be described"

# --list: every scenario, each with its subjects (a name and a description
# each; which ones is the tables' business, checked against the JSON's
# "subjects" by check_json.py); not the self-test.
run_tool --list >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--list: expected exit status 0, got $status"
for name in refcount-timing contend lockref-sweep openclose zero copy; do
	n=$(awk -v sc="$name:" '/^[^ ]/ { inside = ($1 == sc) } inside && /^  [a-z0-9_]+ +[^ ]/ { n++ }
		END { print n + 0 }' "$tmp/out")
	[ "$n" -ge 1 ] || fail "--list: expected the scenario '$name' with its subjects, got: $(cat "$tmp/out")"
done
grep -q selftest "$tmp/out" && fail "--list: expected the self-test subject not to be listed"
cp "$tmp/out" "$tmp/out.list"

# --version: one line with the name.
run_tool --version >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--version: expected exit status 0, got $status"
grep -q '^hotline-bench [0-9]' "$tmp/out" ||
	fail "--version: expected 'hotline-bench VERSION', got: $(cat "$tmp/out")"

# An option that does not apply is said to be ignored (a note), and the run works.
run_tool $safe --threads 2 >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--threads with refcount-timing: expected exit status 0, got $status"
grep -q 'note: --threads' "$tmp/err" ||
	fail "--threads with refcount-timing: expected a note that it is ignored, got: $(cat "$tmp/err")"

# --count does not apply to contend: a note, and the run works.
run_tool $quick_contend --count 5 >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--count with contend: expected exit status 0, got $status: $(cat "$tmp/err")"
grep -q 'note: --count does not apply to contend' "$tmp/err" ||
	fail "--count with contend: expected a note that it is ignored, got: $(cat "$tmp/err")"

# --sizes and --mode do not apply to refcount-timing: notes, and the run works.
run_tool $safe --sizes 4K --mode cold >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--sizes with refcount-timing: expected exit status 0, got $status"
grep -q 'note: --sizes does not apply to refcount-timing' "$tmp/err" ||
	fail "--sizes with refcount-timing: expected a note that it is ignored, got: $(cat "$tmp/err")"
grep -q 'note: --mode does not apply to refcount-timing' "$tmp/err" ||
	fail "--mode with refcount-timing: expected a note that it is ignored, got: $(cat "$tmp/err")"

# zero accepts what it should: sizes with suffixes in any order and case.
run_tool zero --quick --repeat 1 --sizes 1k,3,2M,1G --mode hot --subjects hl_zero \
	--json "$tmp/zero.json" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] ||
	fail "zero --sizes 1k,3,2M,1G: expected exit status 0, got $status: $(cat "$tmp/err")"
for row in 3 1K 2M 1G; do
	grep -q "^$row " "$tmp/out" ||
		fail "zero --sizes 1k,3,2M,1G: expected a row for $row, got: $(cat "$tmp/out")"
done

# arm64: the _lse subjects run where the CPU has LSE; elsewhere they are left
# out, and a note says so. (The run-time choice is in env.atomics.)
if grep -qw atomic_faa_lse "$tmp/out.list" 2>/dev/null; then
	run_tool contend --duration 0.01 --repeat 1 --threads 1 \
		--subjects atomic_faa_llsc,atomic_faa_lse --json "$tmp/lse.json" >"$tmp/out" 2>"$tmp/err"
	status=$?
	[ "$status" -eq 0 ] ||
		fail "contend --subjects atomic_faa_llsc,atomic_faa_lse: expected exit status 0, got $status: $(cat "$tmp/err")"
	grep -q '^1 *atomic_faa_llsc ' "$tmp/out" ||
		fail "contend: expected a row for atomic_faa_llsc, got: $(cat "$tmp/out")"
	if grep -q '"atomics": "lse"' "$tmp/lse.json"; then
		grep -q '^1 *atomic_faa_lse ' "$tmp/out" ||
			fail "contend with LSE: expected a row for atomic_faa_lse, got: $(cat "$tmp/out")"
		# Nothing but the progress (stderr is not a terminal).
		grep -v '^hotline-bench: \[[0-9]*/[0-9]*\] ' "$tmp/err" | grep -q . &&
			fail "contend with LSE: expected only progress on stderr, got: $(cat "$tmp/err")"
	else
		grep -q 'atomic_faa_lse' "$tmp/out" &&
			fail "contend without LSE: expected no atomic_faa_lse row, got: $(cat "$tmp/out")"
		grep -q '^hotline-bench: note: contend: atomic_faa_lse not run: this CPU has no LSE atomics$' "$tmp/err" ||
			fail "contend without LSE: expected a note that atomic_faa_lse is not run, got: $(cat "$tmp/err")"
	fi
fi

# Output that cannot be written is a failure (cli_lib.sh, expect_lost).
# The progress lines before it (stderr is not a terminal) are not messages.
progress_re='^hotline-bench: \[[0-9]*/[0-9]*\] '
if [ -c /dev/full ]; then
	expect_lost full $safe
	expect_lost full --version
	expect_lost full --list
	expect_lost json $safe --json /dev/full
fi
expect_lost closed $safe
expect_lost closed --help
# Refused before anything is written: still 2, even with stdout closed.
expect_refused_closed $safe --repeat 0

finish "all command-line checks passed"
