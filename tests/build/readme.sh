#!/bin/sh
# The README's tour is a real program: extract its first C block, build it
# against the library, run it, and check what it prints.
#   readme.sh CC README INCLUDE_DIR LIBHOTLINE_A
# The program runs through $HOTLINE_TARGET_RUN when it is set (tests/support/child.h).
set -u
cc=$1 readme=$2 inc=$3 lib=$4
run=${HOTLINE_TARGET_RUN:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' "$readme" >"$tmp/tour.c"
[ -s "$tmp/tour.c" ] || { echo "FAIL: no \`\`\`c block in $readme"; exit 1; }
"$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" "$tmp/tour.c" "$lib" -pthread -o "$tmp/tour" ||
	{ echo "FAIL: the README's C example does not build"; exit 1; }
$run "$tmp/tour" >"$tmp/out" 2>&1 || { cat "$tmp/out"; echo "FAIL: the README's example failed"; exit 1; }
cat "$tmp/out"
grep -q '^last reference dropped: freeing conn 3$' "$tmp/out" ||
	{ echo "FAIL: expected the example to free its object exactly at the last put"; exit 1; }
[ "$(grep -c 'last reference dropped' "$tmp/out")" -eq 1 ] ||
	{ echo "FAIL: the object was freed more than once"; exit 1; }
grep -q '^last lookup done: freeing name hotline$' "$tmp/out" ||
	{ echo "FAIL: expected the lockref example to free its name at the last put"; exit 1; }
[ "$(grep -c 'last lookup done' "$tmp/out")" -eq 1 ] ||
	{ echo "FAIL: the name was freed more than once"; exit 1; }
grep -q '^entry 7 dead: its slot may be reused$' "$tmp/out" ||
	{ echo "FAIL: expected the rcuref example's last put to return true"; exit 1; }
grep -q '^late lookup of entry 7 failed$' "$tmp/out" ||
	{ echo "FAIL: expected a get after the rcuref example's last put to fail"; exit 1; }
echo "ok: the README's example builds and behaves as it says"
