#!/bin/sh
# hl_try_zero costs what hl_zero costs plus its entry checks, read from the
# disassembly. arm64: after the checks (the range lies in user space, this
# thread does not block SIGSEGV and SIGBUS: a few instructions, each
# failing check a tail jump to the slow path, nothing called), both entry
# points are the same instructions (the automatic plan behind one redirect
# load and branch). x86-64: hl_try_zero's entry is one gate (the thread's
# pointer, the sum dst + n, one compare: arch.h), then hl__try_zero_body,
# which is hl_zero's code without the redirect: no first lea (the gate
# made the end), n compared with 63 itself and not with the redirect's
# direct_max, and neither the redirect's load, test and branch nor its
# jump; behind the body, the checks a call the gate stops runs (the
# thread's end of user space), and hl__try_zero_checked, which loads the
# redirect and goes there, or back to the body. No call on the way in.
# Prints the entry it judged.
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

# The checks. arm64: then hl__try_zero_checked, the thread's end of user
# space with adds/b.cs, mrs/adrp/ldr/ldr, cmp/b.hi, and one `b` to the
# slow path after the body (the conditional branches reach it there).
# x86-64: the gate (mov mov: the thread's pointer; mov add jb: the sum;
# cmp ja: the compare), then hl__try_zero_body.
zero=$(body hl_zero)
checks=$(body hl_try_zero)
[ -n "$zero" ] || fail "hl_zero not found in $lib"
[ -n "$checks" ] || fail "hl_try_zero not found in $lib"
if grep -q 'file format elf64-littleaarch64' "$tmp/dis"; then
	checks_want="adds b.cs mrs adrp ldr ldr cmp b.hi "
	try=$(body hl__try_zero_checked | sed -E '$ { /^b[[:space:]]+T$/d; }')
	want_try=$zero
	[ -n "$try" ] || fail "hl__try_zero_checked not found in $lib"
else
	checks_want="mov mov mov add jb cmp ja "
	# The body, then the checks behind the gate (the last six instructions
	# before hl__try_zero_checked): the thread's end of user space less n
	# (jb), compared with dst (ja), as hl_try_zero checked before it had a
	# gate.
	body hl__try_zero_body >"$tmp/try"
	[ -s "$tmp/try" ] || fail "hl__try_zero_body not found in $lib"
	behind=$(tail -6 "$tmp/try" | awk '{ print $1 }' | tr '\n' ' ')
	[ "$behind" = "mov mov sub jb cmp ja " ] ||
		fail "the checks behind hl_try_zero's gate are not mov mov sub jb cmp ja: $behind"
	try=$(awk 'NR > 6 { print last[NR % 6] } { last[NR % 6] = $0 }' "$tmp/try")
	# hl_zero's code as hl_try_zero's body must be: its first lea gone, its
	# first compare of n (with the redirect's direct_max) made with 63, the
	# redirect's load, test, branch and second compare (the five lines
	# after `mov T(%rip),%rax`) gone, and the jump through it gone.
	want_try=$(printf '%s\n' "$zero" | awk '
		NR == 1 && /^lea / { next }
		!cmp_done && /^cmp +T\(%rip\),%rsi$/ { print "cmp    $0x3f,%rsi"; cmp_done = 1; next }
		/^mov +T\(%rip\),%rax$/ { skip = 5 }
		skip > 0 { skip--; next }
		/^jmp +\*%rax$/ { next }
		{ print }')
	checked=$(body hl__try_zero_checked | awk '{ print $1 }' | tr '\n' ' ')
	[ "$checked" = "mov test jne lea jmp jmp " ] ||
		fail "hl__try_zero_checked is not the redirect's load, test and jumps: $checked"
fi
echo "--- hl_try_zero's entry checks"
printf '%s\n' "$checks"
got=$(printf '%s\n' "$checks" | awk '{ print $1 }' | tr '\n' ' ')
[ "$got" = "$checks_want" ] || fail "hl_try_zero's checks are not $checks_want: $got"
echo "--- hl_zero (first 12 instructions)"
printf '%s\n' "$zero" | head -12

[ "$want_try" = "$try" ] || {
	fail "hl_try_zero's body is not hl_zero's as it should be:"
	printf '%s\n' "$want_try" >"$tmp/a"
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

[ $status -eq 0 ] && echo "ok: hl_try_zero after its $(printf '%s\n' "$checks" | wc -l)" \
	"checks is hl_zero's $(printf '%s\n' "$zero" | wc -l) instructions (x86-64: less the" \
	"redirect's, which hl_try_zero loads only past its gate), and no call"
exit $status
