#!/bin/sh
# The static probes (src/probes.h) leave the fast paths alone:
#  1. the inline fast paths of include/hotline/ (tests/build/codegen.c, what
#     codegen.sh judges) compile to the same bytes with the library's probe
#     flags as without (the headers never include probes.h: this holds it);
#  2. each lockref operation's first attempt, the path from its entry to its
#     first ret (a success on the first compare-and-swap), is the same
#     instructions with probes as without: the probes sit on the failure
#     branches only (src/lockref.c, LOCKLESS). Branch targets are left out
#     of the comparison (the failure paths behind them differ in length).
#  3. every file with probes compiles without warnings both ways (the
#     HOTLINE_PROBES=OFF build: cmake -DHOTLINE_PROBES=OFF).
# Prints what differs. The comparison of 2. is GCC's (tests/build/
# CMakeLists.txt runs it when GCC builds the library): Clang lays the
# loop out otherwise, its first ret not ending the first attempt.
#   probes_codegen.sh CC OBJDUMP SOURCE_DIR
set -u
cc=$1 objdump=$2 top=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# dis OUT FLAGS...: compile (the rest of the arguments), disassemble to OUT
dis() {
	out=$1
	shift
	"$cc" -std=c11 -O2 -fPIC -fvisibility=hidden -D_GNU_SOURCE -I"$top/include" \
		-I"$top/src/arch/$arch" "$@" -c -o "$tmp/o.o" || exit 1
	"$objdump" -d --no-show-raw-insn "$tmp/o.o" | sed 1,3d >"$out" || exit 1
}

case "$("$cc" -dumpmachine)" in
x86_64*) arch=x86_64 ;;
aarch64*) arch=aarch64 ;;
*) arch=generic ;;
esac

for f in lockref qspinlock refcount rcuref zero; do
	for p in 0 1; do
		"$cc" -std=c11 -O2 -Wall -Wextra -Werror -fPIC -D_GNU_SOURCE -DHOTLINE_PROBES=$p \
			-I"$top/include" -I"$top/src" -I"$top/src/arch/$arch" \
			-c "$top/src/$f.c" -o "$tmp/c.o" || {
			echo "FAIL: src/$f.c does not compile with HOTLINE_PROBES=$p"
			status=1
		}
	done
done

dis "$tmp/h0" "$top/tests/build/codegen.c"
dis "$tmp/h1" -DHOTLINE_PROBES=1 -include "$top/src/probes.h" "$top/tests/build/codegen.c"
if ! cmp -s "$tmp/h0" "$tmp/h1"; then
	echo "FAIL: the headers' inline fast paths differ with probes:"
	diff "$tmp/h0" "$tmp/h1"
	status=1
fi

dis "$tmp/l0" -DHOTLINE_PROBES=0 "$top/src/lockref.c"
dis "$tmp/l1" -DHOTLINE_PROBES=1 "$top/src/lockref.c"
if ! grep -q 'nop' "$tmp/l1" || cmp -s "$tmp/l0" "$tmp/l1"; then
	echo "FAIL: src/lockref.c compiled the same with HOTLINE_PROBES=1: no probes in it?"
	status=1
fi
# first FUNC FILE: FUNC's instructions up to its first ret, branch targets cut
first() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$2" |
		awk '{ $1 = ""; print } $2 ~ /^ret/ { exit }' |
		sed -E 's/ *#.*//; s/(j[a-z]+|call|b[.a-z]*|cbn?z|tbn?z) +([^ ]+, *)*[0-9a-f]+ <[^>]*>/\1 TARGET/'
}
for f in get get_not_zero get_not_dead put_return put_or_lock; do
	first "hl_lockref_$f" "$tmp/l0" >"$tmp/f0"
	first "hl_lockref_$f" "$tmp/l1" >"$tmp/f1"
	if [ ! -s "$tmp/f0" ] || ! grep -q 'cmpxchg\|cas\|ldxr\|ldaxr\|bl' "$tmp/f0"; then
		echo "FAIL: hl_lockref_$f: no first attempt found"
		status=1
	elif ! cmp -s "$tmp/f0" "$tmp/f1"; then
		echo "FAIL: hl_lockref_$f: the first attempt differs with probes:"
		diff "$tmp/f0" "$tmp/f1"
		status=1
	else
		echo "hl_lockref_$f: first attempt the same with and without probes:"
		cat "$tmp/f1"
	fi
done
exit $status
