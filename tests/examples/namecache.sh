#!/bin/sh
# examples/namecache's options: --help names them; with one hot name taking
# every lookup (the setting that makes it hotline-bench contend's loop) all
# lookups hit that one entry, and --counts' sums agree with its lines; with
# the hot share 0 they spread over every name; the default output has no
# counts; a bad value is one line on stderr naming the option, nothing on
# stdout, exit 2.
#   namecache.sh NAMECACHE
# Under emulation (make test-arm64) $HOTLINE_TARGET_RUN runs it.
set -u
nc=$1
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	status=1
}

# nc_run ARGS...: namecache with ARGS, through the emulator if there is one
nc_run() {
	${HOTLINE_TARGET_RUN:+$HOTLINE_TARGET_RUN} "$nc" "$@"
}

nc_run --help >"$tmp/help" || fail "--help exited $?"
for o in --threads --seconds --names --hot --hot-share --no-file --get --put --pin --delay \
	--counts; do
	grep -q -- "$o " "$tmp/help" || fail "--help does not name $o"
done

# run WHAT ARGS...: exit 0; its output in $tmp/out, its entry lines in $tmp/lines
run() {
	what=$1
	shift
	nc_run --threads 2 --seconds 0.2 "$@" >"$tmp/out" 2>"$tmp/err" || {
		fail "$what: exit $?: $(cat "$tmp/err")"
		return 1
	}
	grep '^namecache: lockref ' "$tmp/out" >"$tmp/lines"
	echo "$what: $(grep -c . "$tmp/lines") entries looked up"
}

# entries N: N entry lines, each lockref operations = 2 x lookups, summing to the total
entries() {
	[ "$(grep -c . "$tmp/lines")" -eq "$1" ] || fail "$what: expected $1 entries:" \
		"$(cat "$tmp/out")"
	awk -v what="$what" '
		/^namecache: lockref / { n += $5; if ($7 != 2 * $5) bad = 1 }
		/^namecache: in all / { all = $4; ops = $6 }
		END { if (bad || n != all || ops != 2 * all || all == 0) {
			print "FAIL: " what ": counts do not add up"; exit 1 } }' "$tmp/out" ||
		status=1
}

if run "contend's loop" --hot 1 --hot-share 100 --no-file --get get --pin --counts; then
	entries 1
	grep -q '(entries+0x0): ' "$tmp/lines" || fail "$what: not the first entry"
	grep -q 'Mops/s (lookup + put)' "$tmp/out" || fail "$what: no 'lookup + put' rate"
fi
if run "two hot names, put_return" --hot 2 --hot-share 100 --names 8 --put put_return \
	--counts; then
	entries 2
fi
if run "hot share 0" --hot 1 --hot-share 0 --names 8 --counts; then
	entries 8
fi
if run "the default, with counts" --names 16 --counts --delay 0.1; then
	entries 16
fi
if run "the default" --names 16; then
	[ -s "$tmp/lines" ] && fail "$what: counts printed without --counts"
	grep -q 'Mops/s (lookup + read or rewrite + put)$' "$tmp/out" || fail "$what: no rate"
fi

# expect_2 OPTION ARGS...: exit 2, one line on stderr naming OPTION, nothing on stdout
expect_2() {
	opt=$1
	shift
	nc_run "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
		! grep -q -- "$opt" "$tmp/err"; then
		fail "$*: exit $rc, stderr: $(cat "$tmp/err")"
	else
		echo "$*: $(cat "$tmp/err")"
	fi
}
expect_2 --hot --hot 0
expect_2 --hot --hot x
expect_2 --names --hot 5 --names 4
expect_2 --names --names 257
expect_2 --hot-share --hot-share 101
expect_2 --hot-share --hot-share -1
expect_2 --get --get get_not_zero
expect_2 --put --put put
expect_2 --threads --threads 0
expect_2 --seconds --seconds 0
expect_2 --delay --delay -1
expect_2 --bogus --bogus
expect_2 --hot --hot
exit $status
