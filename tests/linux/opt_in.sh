#!/bin/sh
# <hotline/linux.h> is opt-in, and it and docs/linux.md name the same things:
#  1. the names docs/linux.md's table lists are the names linux.h defines
#     (macros, static inline functions, typedefs, struct tags);
#  2. with every other public header included, none of them is defined:
#     a program may use each for its own purposes (refcount.h alone does
#     not define refcount_inc, and code calling it does not compile);
#  3. with linux.h included, each one is.
#   opt_in.sh CC INCLUDE_DIR DOC
set -u
cc=$1 inc=$2 doc=$3
hdr=$inc/hotline/linux.h
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
flags="-std=c11 -Wall -Wextra -Werror -pedantic-errors -fsyntax-only -I$inc"

# Every public header but linux.h, as #include lines.
others=$tmp/others.h
for h in "$inc"/hotline/*.h; do
	b=$(basename "$h")
	[ "$b" = linux.h ] || printf '#include <hotline/%s>\n' "$b"
done >"$others"
[ -s "$others" ] || { echo "FAIL: no other headers in $inc/hotline"; exit 1; }

# 1. The table's first column: `name` or `struct name`.
sed -n 's/^| `\([^`]*\)` |.*/\1/p' "$doc" | sort -u >"$tmp/doc"
[ -s "$tmp/doc" ] || { echo "FAIL: no names in $doc's table"; exit 1; }

# What linux.h defines: its own macros (but its guard),
# function names, typedef names, struct tags (and the lockref tag macro).
printf '#include <hotline/linux.h>\n' >"$tmp/with.c"
"$cc" $flags -E -dM "$tmp/with.c" | awk '{ sub(/\(.*/, "", $2); print $2 }' | sort -u >"$tmp/m_with"
sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$hdr" | grep -vx 'HOTLINE_LINUX_H' |
	sort -u >"$tmp/macros"
# A macro renaming a struct tag (lockref) is listed as "struct lockref".
grep -E '^#define [a-z_]+ hl_[a-z_]+$' "$hdr" | awk '{ print $2 }' >"$tmp/tag_macros"
{
	grep -vxF -f "$tmp/tag_macros" "$tmp/macros"
	awk '{ print "struct " $0 }' "$tmp/tag_macros"
	sed -n 's/^static inline [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$hdr"
	sed -n 's/^typedef .* \([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' "$hdr"
	sed -n 's/^struct \([A-Za-z_][A-Za-z0-9_]*\) {$/struct \1/p' "$hdr"
} | sort -u >"$tmp/hdr"
if ! cmp -s "$tmp/doc" "$tmp/hdr"; then
	echo "FAIL: docs/linux.md's table and linux.h do not name the same things"
	echo "  (< only in the table, > only in the header):"
	diff "$tmp/doc" "$tmp/hdr" | grep '^[<>]'
	status=1
fi

# 2. Free beside every other header: not a macro, and declarable as something else.
{
	cat "$others"
	while read -r name; do
		case $name in
		"struct "*) printf 'struct %s { char hl_mine; };\n' "${name#struct }" ;;
		*) printf '#ifdef %s\n#error "%s is defined without linux.h"\n#endif\nint %s;\n' \
			"$name" "$name" "$name" ;;
		esac
	done <"$tmp/doc"
} >"$tmp/free.c"
if ! "$cc" $flags "$tmp/free.c" 2>"$tmp/err"; then
	echo "FAIL: names of linux.h are defined by the other headers (they must be opt-in):"
	head -n 30 "$tmp/err"
	status=1
fi
printf '%s\nvoid f(hl_refcount_t *r);\nvoid f(hl_refcount_t *r) { refcount_inc(r); }\n' \
	"$(cat "$others")" >"$tmp/call.c"
if "$cc" $flags "$tmp/call.c" 2>/dev/null; then
	echo "FAIL: code calling refcount_inc compiles without <hotline/linux.h>"
	status=1
fi
sed 's|^#include <hotline/refcount.h>$|#include <hotline/linux.h>|' "$tmp/call.c" >"$tmp/call_linux.c"
if ! "$cc" $flags "$tmp/call_linux.c" 2>"$tmp/err"; then
	echo "FAIL: code calling refcount_inc does not compile with <hotline/linux.h>:"
	head -n 30 "$tmp/err"
	status=1
fi

# 3. Each is defined by linux.h: a macro, or redeclaring it fails.
n=0
while read -r name; do
	n=$((n + 1))
	if grep -qx "${name#struct }" "$tmp/m_with"; then
		continue
	fi
	case $name in
	"struct "*) decl="struct ${name#struct } { char hl_mine; };" ;;
	*) decl="int $name;" ;;
	esac
	printf '#include <hotline/linux.h>\n%s\n' "$decl" >"$tmp/taken.c"
	if "$cc" $flags "$tmp/taken.c" 2>/dev/null; then
		echo "FAIL: <hotline/linux.h> does not define $name (docs/linux.md lists it)"
		status=1
	fi
done <"$tmp/doc"

[ $status -eq 0 ] &&
	echo "ok: linux.h defines the $n names docs/linux.md lists, and no other header does"
exit $status
