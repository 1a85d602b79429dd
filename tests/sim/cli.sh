#!/bin/sh
# hotline-sim's command line: every bad option or value is refused with exit
# status 2 and exactly one line on stderr that names the option and the bad
# value; --help, --list and --version answer on stdout with status 0.
#
#   cli.sh PATH-TO-hotline-sim
#
# HOTLINE_TARGET_RUN, when set, is the program that runs target programs
# (an emulator such as scripts/qemu-arm64 in a cross build).
set -u

tool=hotline-sim
tool_path=${1:?usage: cli.sh PATH-TO-hotline-sim}
. "$(dirname "$0")/../cli_lib.sh"

# A run that got past the checks must not take long if it happens by mistake.
safe="--machine x86-server --policy cas_loop --threads 2 --ops 100"

expect_bad "--machine 'vax'" $safe --machine vax
expect_bad "--machine missing" --policy cas_loop --threads 2
expect_bad "--machine missing value" $safe --machine
expect_bad "--policy 'spin'" $safe --policy spin
expect_bad "--policy 'cas_loop,,ticket'" $safe --policy cas_loop,,ticket
expect_bad "--policy twice" $safe --policy ticket,ticket
expect_bad "--policy missing" --machine x86-server --threads 2
expect_bad "--threads '0'" $safe --threads 0
expect_bad "--threads 'x' '1,x'" $safe --threads 1,x
expect_bad "--threads '2,'" $safe --threads 2,
expect_bad "--threads '113' 112" $safe --threads 113
expect_bad "--threads '-1'" $safe --threads -1
expect_bad "--threads missing" --machine x86-server --policy cas_loop
expect_bad "--retry-limit '0'" $safe --retry-limit 0
expect_bad "--retry-limit 'ten'" $safe --retry-limit ten
expect_bad "--ops '1e6'" $safe --ops 1e6
expect_bad "--ops '5'" $safe --ops 5
expect_bad "--ops '99999999999999999999999'" $safe --ops 99999999999999999999999
expect_bad "--seed '-3'" $safe --seed -3
expect_bad "--json ''" $safe --json ''
expect_bad "--lat_cross '-5'" $safe --lat-cross -5
expect_bad "--lat_cross 'nan'" $safe --lat_cross nan
expect_bad "--jitter '2'" $safe --jitter 2
expect_bad "--smt '1.5'" $safe --smt 1.5
expect_bad "unknown option '--bogus'" $safe --bogus
expect_bad "--list takes no value" $safe --list=3
expect_bad "unexpected argument 'extra'" $safe extra

# The good answers.
for a in --help --version --list; do
	run_tool $a >"$tmp/out" 2>"$tmp/err"
	status=$?
	[ "$status" -eq 0 ] || fail "hotline-sim $a: expected exit status 0, got $status"
	[ -s "$tmp/out" ] || fail "hotline-sim $a: expected output on stdout"
	[ -s "$tmp/err" ] && fail "hotline-sim $a: expected nothing on stderr, got: $(cat "$tmp/err")"
done
# --help names every preset and every policy --list names (both come from
# the tables that define them, not from a second hand-kept list).
run_tool --help >"$tmp/help" 2>/dev/null
for name in $(run_tool --list 2>/dev/null | sed -n 's/^\([a-z0-9_-]*\): .*/\1/p' | grep -v '^policies$') \
	$(run_tool --list 2>/dev/null | sed -n 's/^policies: //p'); do
	grep -Eq "(^|[ ,])$name(,|\$)" "$tmp/help" ||
		fail "--help: expected it to name '$name', which --list names"
done
# An overridden parameter reaches the model (and the JSON).
if run_tool $safe --lat-socket 33 --json "$tmp/o.json" >/dev/null 2>"$tmp/err"; then
	grep -q '"lat_socket": 33' "$tmp/o.json" ||
		fail "--lat-socket 33: expected env.model.lat_socket 33 in the JSON"
else
	fail "$safe --lat-socket 33: failed: $(cat "$tmp/err")"
fi

# --policy all runs every policy --list names, in its order, as the list would.
policies=$(run_tool --list 2>/dev/null | sed -n 's/^policies: //p' | tr ' ' ',')
if [ -z "$policies" ]; then
	fail "--list: expected a line 'policies: ...'"
elif run_tool --machine x86-server --policy all --threads 2 --ops 100 >"$tmp/all" 2>"$tmp/err" &&
	run_tool --machine x86-server --policy "$policies" --threads 2 --ops 100 >"$tmp/named" 2>&1; then
	cmp -s "$tmp/all" "$tmp/named" ||
		fail "--policy all: output differs from --policy $policies"
else
	fail "--policy all or --policy $policies failed: $(cat "$tmp/err")"
fi
expect_bad "--policy 'all'" $safe --policy all,ticket

# Output that cannot be written is a failure (cli_lib.sh, expect_lost).
if [ -c /dev/full ]; then
	expect_lost full $safe
	expect_lost full --help
	expect_lost json $safe --json /dev/full
fi
expect_lost closed $safe
expect_lost closed --list
expect_lost json $safe --json "$tmp/no/such/dir/o.json"
[ -e "$tmp/no" ] && fail "--json in a missing directory: expected nothing created, found $tmp/no"
# Refused before anything is written: still 2, even with stdout closed.
expect_refused_closed $safe --ops 5

finish "all refusals and answers as expected"
