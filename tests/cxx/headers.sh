#!/bin/sh
# headers.sh - every public header compiles on its own as C++ (twice, for
# its include guard), in each standard, with no warning under the flags a
# strict C++ user sets; tests/build/headers.sh does the same for C.
#   headers.sh INCLUDE_DIR CXX...
set -u
inc=$1
shift
status=0
n=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for cxx; do
	std23=c++23
	"$cxx" -std=c++23 -x c++ -fsyntax-only /dev/null 2>/dev/null || std23=c++2b
	for h in "$inc"/hotline/*.h; do
		name=hotline/$(basename "$h")
		printf '#include <%s>\n#include <%s>\nint hl_anchor;\n' "$name" "$name" >"$tmp/t.cpp"
		for std in c++17 c++20 $std23; do
			if ! "$cxx" -std=$std -Wall -Wextra -Wpedantic -Wshadow -Wold-style-cast \
				-Wcast-qual -Wconversion -Wsign-conversion -Werror -fsyntax-only \
				-I"$inc" "$tmp/t.cpp" 2>"$tmp/err"; then
				echo "FAIL: <$name> does not compile on its own with $cxx -std=$std:"
				cat "$tmp/err"
				status=1
			fi
			n=$((n + 1))
		done
	done
done
[ "$n" -gt 0 ] || { echo "FAIL: no headers found in $inc/hotline, or no compiler given"; exit 1; }
[ $status -eq 0 ] && echo "ok: $n compilations: each public header on its own as C++ ($*)"
exit $status
