#!/bin/sh
# deb.sh - check the packages 'make deb' wrote: contents, lintian, and use.
#   deb.sh PACKAGES_DIR SOURCE_DIR [CC]
# Each package's file list (dpkg-deb -c) has what it must and nothing of the
# others'; lintian reports no error; the three unpack into a throwaway root
# (dpkg-deb -x: dpkg --root would run their maintainer scripts, ldconfig
# included, in a root that has no libc), where a C program builds against the
# extracted libhotline-dev with pkg-config (shared and static) and with
# find_package, and runs against the extracted libhotline0; the extracted
# hotline-report runs and its man pages render.
set -u
pkgs=$1 src=$2 cc=${3:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

deb() {
	f=$(ls "$pkgs/$1"_*_"$arch".deb 2>/dev/null | head -1)
	[ -n "$f" ] || fail "no $1 package in $pkgs"
	echo "$f"
}
lib=$(deb libhotline0) dev=$(deb libhotline-dev) tools=$(deb hotline-tools)

# has PACKAGE-LIST PATH-REGEX WHAT; hasnt ...: one line of dpkg-deb -c each.
has() { grep -qE "$2" "$1" || fail "$(basename "$1" .list) lacks $3"; }
hasnt() { grep -qE "$2" "$1" && fail "$(basename "$1" .list) has $3"; return 0; }
for p in "$lib" "$dev" "$tools"; do
	dpkg-deb -c "$p" | awk '{ if ($(NF-1) == "->") print $(NF-2); else print $NF }' \
		>"$tmp/$(basename "$p" .deb | cut -d_ -f1).list" || fail "dpkg-deb -c $p"
done
L=$tmp/libhotline0.list D=$tmp/libhotline-dev.list T=$tmp/hotline-tools.list
has "$L" "^\./usr/lib/$multiarch/libhotline\.so\.[0-9]" "the shared library"
hasnt "$L" "\.h$|\.a$|/bin/|libhotline\.so$" "files of the other packages"
has "$L" "^\./usr/share/doc/libhotline0/copyright$" "its copyright file"
for h in "$src"/include/hotline/*.h; do
	b=$(basename "$h" .h)
	has "$D" "^\./usr/include/hotline/$b\.h$" "hotline/$b.h"
	has "$D" "^\./usr/share/man/man3/hotline_$b\.3\.gz$" "man3/hotline_$b.3.gz"
done
for f in "libhotline\.a" "libhotline\.so" "pkgconfig/hotline\.pc" "cmake/hotline/hotlineConfig\.cmake"; do
	has "$D" "^\./usr/lib/$multiarch/$f$" "$f"
done
hasnt "$D" "libhotline\.so\.[0-9]|/bin/" "files of the other packages"
for t in hotline-bench hotline-sim hotline-report hotline-trace; do
	has "$T" "^\./usr/bin/$t$" "$t"
	has "$T" "^\./usr/share/man/man1/$t\.1\.gz$" "man1/$t.1.gz"
done
has "$T" "^\./usr/share/hotline/python/hotline_report/cli\.py$" "hotline-report's package"
has "$T" "^\./usr/share/hotline/data/published\.json$" "data/published.json"
has "$T" "^\./usr/share/hotline/data/questions\.json$" "data/questions.json"
hasnt "$T" "\.h$|libhotline" "files of the other packages"
dpkg-deb -f "$dev" Depends | grep -q "libhotline0 (= " || fail "libhotline-dev does not depend on libhotline0"
dpkg-deb -f "$tools" Depends | grep -q "python3-matplotlib" || fail "hotline-tools does not depend on python3-matplotlib"
echo "ok: package contents"

lintian --tag-display-limit 0 "$lib" "$dev" "$tools" >"$tmp/lintian" 2>&1
grep -E "^E: " "$tmp/lintian" && fail "lintian reports errors"
grep -qE "^(W|E): " "$tmp/lintian" && { echo "lintian warnings (allowed):"; grep -E "^W: " "$tmp/lintian"; }
echo "ok: lintian reports no error"

root=$tmp/root
for p in "$lib" "$dev" "$tools"; do dpkg-deb -x "$p" "$root" || fail "dpkg-deb -x $p"; done
libdir=$root/usr/lib/$multiarch
consumer=$src/tests/build/consumer
export PKG_CONFIG_PATH="$libdir/pkgconfig"
"$cc" -std=c11 -o "$tmp/shared" "$consumer/main.c" $(pkg-config --cflags --libs hotline) ||
	fail "build against the extracted libhotline-dev (pkg-config)"
LD_LIBRARY_PATH=$libdir "$tmp/shared" || fail "program against the extracted libhotline0"
LD_LIBRARY_PATH=$libdir ldd "$tmp/shared" | grep -q "$libdir/libhotline.so" ||
	fail "the program does not load the extracted libhotline.so"
"$cc" -std=c11 -o "$tmp/static" "$consumer/main.c" $(pkg-config --cflags hotline) \
	"$libdir/libhotline.a" $(pkg-config --static --libs-only-other hotline) ||
	fail "static build against the extracted libhotline-dev"
"$tmp/static" || fail "static program"
cmake -S "$consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$root/usr" -DCMAKE_C_COMPILER="$cc" \
	>"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "find_package(hotline) in the extracted root"; }
cmake --build "$tmp/cm" >"$tmp/cmb.log" 2>&1 || { cat "$tmp/cmb.log"; fail "find_package build"; }
LD_LIBRARY_PATH=$libdir "$tmp/cm/consumer_shared" && "$tmp/cm/consumer_static" ||
	fail "find_package programs"
(cd "$tmp" && "$root/usr/bin/hotline-report" --help >/dev/null) || fail "extracted hotline-report --help"
for page in "$root"/usr/share/man/man1/*.1.gz "$root"/usr/share/man/man3/hotline_*.3.gz; do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/man.err" >/dev/null ||
		fail "man -l $page"
	[ -s "$tmp/man.err" ] && { cat "$tmp/man.err"; fail "man warns on $page"; }
done
echo "ok: unpacked into a throwaway root, a C program builds (pkg-config, find_package) and runs; the report and man pages work"
