#!/bin/sh
# hl_try_zero costs what hl_zero costs: both entry points are the same
# instructions (the automatic plan behind one redirect load and branch), no
# call on the way in, and only the hl_try_zero copies of the variants are in
# the exception table's sections. Prints the entry it judged.
#   zero_codegen.sh OBJDUMP LIBHOTLINE_A
set -u
objdump=$1 lib=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$objdump" -d --no-show-raw-insn "$lib" >"$tmp/dis" || exit 1
status=0
# body FUNC: FUNC's instructions without addresses, and with the targets of
# jumps and rip-relative operands reduced to "T", so two copies compare equal.
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$tmp/dis" |
		sed -E 's/^ *[0-9a-f]+:\t//; s/[0-9a-f]+ <[^>]*>/T/g; s/0x[0-9a-f]+\(%rip\)/T(%rip)/g; s/ *#.*$//'
}
fail() {
	echo "FAIL: $*"
	status=1
}

zero=$(body hl_zero)
try=$(body hl_try_zero)
[ -n "$zero" ] || fail "hl_zero not found in $lib"
[ -n "$try" ] || fail "hl_try_zero not found in $lib"
echo "--- hl_zero (first 12 instructions)"
printf '%s\n' "$zero" | head -12

[ "$zero" = "$try" ] || {
	fail "hl_zero and hl_try_zero differ:"
	printf '%s\n' "$zero" >"$tmp/a"
	printf '%s\n' "$try" >"$tmp/b"
	diff "$tmp/a" "$tmp/b" | head -20
}
# The way in: load the redirect, test it, branch; then straight to the stores.
# x86-64: mov/test/jne. arm64: end = dst + n, the redirect's address
# (adrp/add), a load-acquire (ordering the plan's threshold after it) and
# cbnz. A call would be call (x86-64) or bl (arm64).
if grep -q 'file format elf64-littleaarch64' "$tmp/dis"; then
	way_in="add adrp add ldar cbnz " call_re='^bl\b'
else
	way_in="mov test jne " call_re='\bcall'
fi
words=$(printf '%s\n' "$way_in" | wc -w)
head_n=$(printf '%s\n' "$zero" | head -"$words" | awk '{ print $1 }' | tr '\n' ' ')
[ "$head_n" = "$way_in" ] || fail "hl_zero does not start with $way_in: $head_n"
n=$(printf '%s\n' "$zero" | grep -cE "$call_re")
[ "$n" -eq 0 ] || fail "hl_zero has $n call(s)"

[ $status -eq 0 ] && echo "ok: hl_zero and hl_try_zero are the same $(printf '%s\n' "$zero" | wc -l)" \
	"instructions, entered by one load, test and branch, with no call"
exit $status
