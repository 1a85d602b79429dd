#!/bin/sh
# format.sh - every C file of the tree is as .clang-format says.
#   format.sh CLANG_FORMAT SOURCE_DIR
#
# The files are git's tracked *.c and *.h when SOURCE_DIR is a git checkout,
# else every *.c and *.h outside build directories. First the check is shown
# to be able to fail: a badly formatted sample must be flagged with the
# tree's own style file. Then one line per offending file, and the diff
# clang-format would apply to the first few, so the failure says what to fix
# (`clang-format -i FILE`).
set -u
cf=$1 src=$2
style=$src/.clang-format
[ -r "$style" ] || { echo "FAIL: no $style"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

if ! version=$("$cf" --version 2>/dev/null); then
	echo "FAIL: $cf does not run (scripts/deps.sh test installs Debian's clang-format)"
	exit 1
fi
echo "$version"
printf 'int  f( void ){return 0;}\n' >"$tmp/sample.c"
if "$cf" --dry-run --Werror --style="file:$style" "$tmp/sample.c" 2>/dev/null; then
	echo "FAIL: $cf does not flag a badly formatted sample; the check could not fail"
	exit 1
fi

if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files -z -- '*.c' '*.h' | tr '\0' '\n' >"$tmp/files"
else
	(cd "$src" && find . -path './build*' -prune -o \( -name '*.c' -o -name '*.h' \) -print |
		sed 's|^\./||') >"$tmp/files"
fi
n=$(wc -l <"$tmp/files")
if [ "$n" -eq 0 ]; then
	echo "FAIL: no C files found under $src"
	exit 1
fi

bad=0
while IFS= read -r f; do
	if ! "$cf" --style="file:$style" "$src/$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL: $cf failed on $f:"
		cat "$tmp/err"
		bad=$((bad + 1))
	elif ! cmp -s "$src/$f" "$tmp/out"; then
		echo "not formatted: $f"
		bad=$((bad + 1))
		if [ "$bad" -le 3 ]; then
			diff -u "$src/$f" "$tmp/out" | head -40
		fi
	fi
done <"$tmp/files"

if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad of $n C files differ from .clang-format (fix: clang-format -i FILE)"
	exit 1
fi
echo "ok: $n C files follow .clang-format"
