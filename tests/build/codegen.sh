#!/bin/sh
# The refcount fast paths are what refcount.h promises: one locked
# read-modify-write, a branch, and no call on the hot path (the saturation
# path lives in .text.unlikely); and qspinlock.h's: lock is one cmpxchg,
# unlock one byte store. Prints the disassembly it judged.
#   codegen.sh CC OBJDUMP INCLUDE_DIR SOURCE
set -u
cc=$1 objdump=$2 inc=$3 src=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

arch=$("$cc" -dumpmachine)
case "$arch" in
x86_64*) ;;
*) echo "codegen: no expectations written for $arch yet"; exit 1 ;;
esac

"$cc" -std=c11 -O2 -I"$inc" -c "$src" -o "$tmp/cg.o" || exit 1
"$objdump" -d --no-show-raw-insn "$tmp/cg.o" >"$tmp/dis" || exit 1

status=0
# body FUNC: the instructions of FUNC in .text (not its .cold part)
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$tmp/dis"
}
count() {
	printf '%s\n' "$1" | grep -cE "$2"
}
expect() { # FUNC WHAT PATTERN N
	got=$(count "$(body "$1")" "$3")
	if [ "$got" -ne "$4" ]; then
		echo "FAIL: $1: expected $4 $2, found $got"
		status=1
	fi
}

for f in cg_inc cg_dec cg_dec_and_test; do
	if [ -z "$(body $f)" ]; then
		echo "FAIL: $f not found in the disassembly"
		status=1
		continue
	fi
	echo "--- $f"
	body $f
	expect $f "locked instruction(s)" '\block\b' 1
	expect $f "lock xadd" 'lock xadd' 1
	expect $f "call(s) on the hot path" '\bcall' 0
done
# inc: exactly one conditional branch, and it leaves the function (to .cold).
expect cg_inc "conditional branch(es)" '\bj(a|ae|b|be|c|e|g|ge|l|le|na|nae|nb|nbe|nc|ne|ng|nge|nl|nle|no|np|ns|nz|o|p|pe|po|s|z)\b' 1
expect cg_dec "conditional branch(es)" '\bj(a|ae|b|be|c|e|g|ge|l|le|na|nae|nb|nbe|nc|ne|ng|nge|nl|nle|no|np|ns|nz|o|p|pe|po|s|z)\b' 1
grep -q '<cg_inc.cold>:' "$tmp/dis" || { echo "FAIL: cg_inc has no .cold part: the saturation path is not out of line"; status=1; }

# qspinlock.h: "the uncontended lock is one compare-and-swap from 0 and the
# unlock is a release store of 0 to the locked byte, so both are inline".
for f in cg_qspin_lock cg_qspin_unlock; do
	if [ -z "$(body $f)" ]; then
		echo "FAIL: $f not found in the disassembly"
		status=1
		continue
	fi
	echo "--- $f"
	body $f
done
expect cg_qspin_lock "locked instruction(s)" '\block\b' 1
expect cg_qspin_lock "lock cmpxchg" 'lock cmpxchg' 1
expect cg_qspin_lock "call(s) on the hot path (the slow path is a tail jump)" '\bcall' 0
# On x86-64 a release store is a plain mov: no lock prefix, xchg or fence.
expect cg_qspin_unlock "locked instruction(s), xchg or fence" '\block\b|xchg|fence' 0
expect cg_qspin_unlock "byte store(s) of 0" 'movb +\$0x0,' 1
expect cg_qspin_unlock "call(s)" '\bcall' 0
[ $status -eq 0 ] && echo "ok: refcount fast paths are one lock xadd + one branch, no call;" \
	"qspinlock lock is one lock cmpxchg, unlock one byte store"
exit $status
