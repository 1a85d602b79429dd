#!/bin/sh
# hl_try_zero costs what hl_zero costs plus its entry checks: after the
# checks (the range lies in user space, this thread does not block SIGSEGV
# and SIGBUS: a few instructions, each failing check a tail jump to the
# slow path, nothing called), both entry points are the same instructions
# (the automatic plan behind one redirect load and branch, which x86-64
# skips for its small sizes), with no call on the way in. Prints the entry
# it judged.
#   zero_codegen.sh OBJDUMP LIBHOTLINE_A
set -u
objdump=$1 lib=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$objdump" -d --no-show-raw-insn "$lib" >"$tmp/dis" || exit 1
status=0
# body FUNC: FUNC's instructions without addresses, and with the targets of
# jumps and rip-relative operands reduced to "T", so two copies compare equal;
# the padding (nops, and `xchg %ax,%ax`, the 2-byte nop) left out: the
# alignment a body needs depends on where it starts.
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$tmp/dis" |
		sed -E 's/^ *[0-9a-f]+:\t//; s/[0-9a-f]+ <[^>]*>/T/g; s/0x[0-9a-f]+\(%rip\)/T(%rip)/g; s/ *#.*$//' |
		grep -vE '^((data16 |cs )*nop[wl]?\b|xchg +%ax,%ax$)'
}
fail() {
	echo "FAIL: $*"
	status=1
}

# The checks, then hl__try_zero_checked: x86-64 the thread's end of user
# space, %fs-relative at an offset from the GOT, less n (jb: n is larger),
# compared with dst (ja); arm64 the same with adds/b.cs, mrs/adrp/ldr/ldr,
# cmp/b.hi, and one `b` to the slow path after the body (the conditional
# branches reach it there).
if grep -q 'file format elf64-littleaarch64' "$tmp/dis"; then
	checks_want="adds b.cs mrs adrp ldr ldr cmp b.hi " slow_stub='^b[[:space:]]+T$'
else
	checks_want="mov mov sub jb cmp ja " slow_stub='^\$^'
fi
zero=$(body hl_zero)
checks=$(body hl_try_zero)
try=$(body hl__try_zero_checked | sed -E "\$ { /$slow_stub/d; }")
[ -n "$zero" ] || fail "hl_zero not found in $lib"
[ -n "$checks" ] || fail "hl_try_zero not found in $lib"
[ -n "$try" ] || fail "hl__try_zero_checked not found in $lib"
echo "--- hl_try_zero's entry checks"
printf '%s\n' "$checks"
got=$(printf '%s\n' "$checks" | awk '{ print $1 }' | tr '\n' ' ')
[ "$got" = "$checks_want" ] || fail "hl_try_zero's checks are not $checks_want: $got"
echo "--- hl_zero (first 12 instructions)"
printf '%s\n' "$zero" | head -12

[ "$zero" = "$try" ] || {
	fail "hl_zero and hl_try_zero differ:"
	printf '%s\n' "$zero" >"$tmp/a"
	printf '%s\n' "$try" >"$tmp/b"
	diff "$tmp/a" "$tmp/b" | head -20
}
# The way in. arm64: end = dst + n, the redirect's address (adrp/add), a
# load-acquire (ordering the plan's threshold after it) and cbnz; then
# straight to the stores. x86-64: end = dst + n, rax = 0, then n compared
# with the redirect's direct_max (arch.h), so that the small sizes (up to
# 63 while the redirect is NULL) go to their stores with no other load;
# larger sizes then load the redirect, test it and branch (mov/test/jne).
# A call would be call (x86-64) or bl (arm64).
if grep -q 'file format elf64-littleaarch64' "$tmp/dis"; then
	way_in="add adrp add ldar cbnz " call_re='^bl\b' redirect_re='^$'
else
	way_in="lea xor cmp ja " call_re='\bcall'
	redirect_re='^mov T\(%rip\),%rax test %rax,%rax jne T$'
fi
words=$(printf '%s\n' "$way_in" | wc -w)
head_n=$(printf '%s\n' "$zero" | head -"$words" | awk '{ print $1 }' | tr '\n' ' ')
[ "$head_n" = "$way_in" ] || fail "hl_zero does not start with $way_in: $head_n"
if [ "$redirect_re" != '^$' ]; then
	printf '%s\n' "$zero" | head -3 | tail -1 | grep -qE '^cmp +T\(%rip\),%rsi$' ||
		fail "hl_zero does not compare n with a variable first"
	printf '%s\n' "$zero" | awk 'NR > 1 { print prev2 " " prev " " $0 } { prev2 = prev; prev = $0 }' |
		sed -E 's/  +/ /g' | grep -qE "$redirect_re" ||
		fail "hl_zero never loads and tests its redirect"
fi
n=$(printf '%s\n' "$zero" | grep -cE "$call_re")
[ "$n" -eq 0 ] || fail "hl_zero has $n call(s)"

[ $status -eq 0 ] && echo "ok: hl_zero and hl_try_zero after its $(printf '%s\n' "$checks" | wc -l)" \
	"checks are the same $(printf '%s\n' "$zero" | wc -l) instructions, with the redirect" \
	"loaded, tested and branched on, and no call"
exit $status
