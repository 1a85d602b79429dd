#!/bin/sh
# Install the build into a scratch prefix, then build and run a small
# program against the *installed* library four ways: pkg-config (shared,
# static) and find_package(hotline) (hotline::hotline, hotline::hotline_static).
# Then the C++ consumer (main.cpp) with each C++ compiler given: pkg-config
# and find_package, shared in C++17, 20 and 23, static in C++17.
#   install.sh CMAKE CC BUILD_DIR CONSUMER_DIR [TOOLCHAIN_FILE] ["CXX..."]
# A cross build passes its toolchain file (the consumer project gets it too)
# and PKG_CONFIG_LIBDIR (the target's .pc files) in the environment; the
# programs run through $HOTLINE_TARGET_RUN when it is set (tests/support/child.h).
# Then the tools (hotline-report runs from the prefix) and the man pages
# (each renders, and says every option and function): check_tools, check_man.
set -u
cmake=$1 cc=$2 build=$3 consumer=$4 toolchain=${5:-} cxxs=${6:-}
run=${HOTLINE_TARGET_RUN:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*"; exit 1; }
# loaded PROG: the shared libraries PROG loads, as ldd lists them; asked of
# PROG's own dynamic loader (ldd cannot run a target program); none if static.
loaded() {
	interp=$(readelf -l "$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	[ -z "$interp" ] || $run "$interp" --list "$1"
}

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "cmake --install"; }
pc=$(find "$prefix" -name hotline.pc) ; [ -n "$pc" ] || fail "no hotline.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in include/hotline/refcount.h include/hotline/cpu.h; do
	[ -f "$prefix/$f" ] || fail "$f not installed"
done
[ -f "$libdir/libhotline.a" ] || fail "libhotline.a not in $libdir"
[ -e "$libdir/libhotline.so" ] || fail "libhotline.so not in $libdir"
[ -f "$libdir/cmake/hotline/hotlineConfig.cmake" ] || fail "CMake package config not installed"

# pkg-config, shared and static
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pkg-config --exists hotline || fail "pkg-config cannot find hotline"
"$cc" -std=c11 -o "$tmp/pc_shared" "$consumer/main.c" $(pkg-config --cflags --libs hotline) ||
	fail "pkg-config build (shared)"
LD_LIBRARY_PATH="$libdir" $run "$tmp/pc_shared" || fail "pkg-config shared program"
LD_LIBRARY_PATH="$libdir" loaded "$tmp/pc_shared" | grep -q "$libdir/libhotline.so" ||
	fail "pkg-config shared program does not use the installed libhotline.so"
"$cc" -std=c11 -o "$tmp/pc_static" "$consumer/main.c" $(pkg-config --cflags hotline) \
	"$libdir/libhotline.a" $(pkg-config --static --libs-only-other hotline) ||
	fail "pkg-config build (static)"
$run "$tmp/pc_static" || fail "pkg-config static program"
loaded "$tmp/pc_static" | grep -q libhotline && fail "static program still needs libhotline.so"

# find_package, both targets
"$cmake" -S "$consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
	${toolchain:+-DCMAKE_TOOLCHAIN_FILE="$toolchain"} >"$tmp/cm.log" 2>&1 ||
	{ cat "$tmp/cm.log"; fail "find_package(hotline) configure"; }
"$cmake" --build "$tmp/cm" >"$tmp/cmb.log" 2>&1 || { cat "$tmp/cmb.log"; fail "find_package build"; }
$run "$tmp/cm/consumer_shared" || fail "find_package hotline::hotline program"
$run "$tmp/cm/consumer_static" || fail "find_package hotline::hotline_static program"
loaded "$tmp/cm/consumer_static" | grep -q libhotline && fail "hotline_static target links the .so"
echo "ok: installed library builds and runs via pkg-config and find_package, shared and static"

# C++: -pthread for main.cpp's std::thread, as any C++ user of it would add.
for cxx in $cxxs; do
	name=$(basename "$cxx")
	std23=c++23
	"$cxx" -std=c++23 -x c++ -fsyntax-only /dev/null 2>/dev/null || std23=c++2b
	for std in c++17 c++20 $std23; do
		"$cxx" -std=$std -o "$tmp/pcxx" "$consumer/main.cpp" $(pkg-config --cflags --libs hotline) \
			-pthread || fail "pkg-config build with $name -std=$std (shared)"
		LD_LIBRARY_PATH="$libdir" $run "$tmp/pcxx" || fail "$name -std=$std pkg-config shared program"
	done
	LD_LIBRARY_PATH="$libdir" loaded "$tmp/pcxx" | grep -q "$libdir/libhotline.so" ||
		fail "$name pkg-config shared program does not use the installed libhotline.so"
	"$cxx" -std=c++17 -o "$tmp/pcxx_static" "$consumer/main.cpp" $(pkg-config --cflags hotline) \
		"$libdir/libhotline.a" $(pkg-config --static --libs-only-other hotline) -pthread ||
		fail "pkg-config build with $name (static)"
	$run "$tmp/pcxx_static" || fail "$name pkg-config static program"
	loaded "$tmp/pcxx_static" | grep -q libhotline && fail "$name static program still needs libhotline.so"

	"$cmake" -S "$consumer" -B "$tmp/cm-$name" -DHOTLINE_CONSUMER_CXX=ON \
		-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
		${toolchain:+-DCMAKE_TOOLCHAIN_FILE="$toolchain"} >"$tmp/cm.log" 2>&1 ||
		{ cat "$tmp/cm.log"; fail "find_package(hotline) configure with $name"; }
	"$cmake" --build "$tmp/cm-$name" >"$tmp/cmb.log" 2>&1 ||
		{ cat "$tmp/cmb.log"; fail "find_package build with $name"; }
	for p in consumer_cxx17 consumer_cxx20 consumer_cxx23 consumer_cxx_static; do
		$run "$tmp/cm-$name/$p" || fail "find_package $name $p program"
	done
	loaded "$tmp/cm-$name/consumer_cxx_static" | grep -q libhotline &&
		fail "$name: hotline_static target links the .so"
	echo "ok: $name: the C++ consumer builds and runs via pkg-config and find_package" \
		"(C++17, 20, 23 shared; static)"
done

# --- The tools and the man pages (issue 18) ---------------------------------
src=$(cd "$consumer/../../.." && pwd)

# hotline-report from the prefix's bin, from another directory: --help, and
# a small report from a fixture (its package and matplotlib found by itself).
check_tools() {
	for t in hotline-bench hotline-sim hotline-report hotline-trace; do
		[ -x "$prefix/bin/$t" ] || fail "bin/$t not installed"
	done
	(cd "$tmp" && "$prefix/bin/hotline-report" --help >"$tmp/report-help.txt" 2>&1) ||
		{ cat "$tmp/report-help.txt"; fail "installed hotline-report --help"; }
	(cd "$tmp" && "$prefix/bin/hotline-report" "$src/tests/report/fixtures/refcount.json" \
		-o "$tmp/report" >"$tmp/report.log" 2>&1) ||
		{ cat "$tmp/report.log"; fail "installed hotline-report on tests/report/fixtures/refcount.json"; }
	[ -s "$tmp/report/report.md" ] || fail "installed hotline-report wrote no report.md"
	ls "$tmp/report"/*.png >/dev/null 2>&1 || fail "installed hotline-report drew no plot"
	echo "ok: installed hotline-bench, hotline-sim, hotline-report; the report runs from bin"
}

# page_text PAGE: its roff source with \- as - and font escapes removed.
page_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f\[[A-Z]*\]//g' "$1"; }

# Every page renders without a warning; each man1 page has every option its
# --help names; each man3 page names every public function of its header,
# the list taken from the header here (HL_API declarations, static inline
# definitions, function-like macros; hl__ names are internal), and
# `man FUNCTION` shows it.
check_man() {
	if [ ! -d "$build/man" ]; then
		echo "skip: man pages not built here (HOTLINE_MAN=OFF, as in a cross build)"
		return 0
	fi
	man1=$prefix/share/man/man1 man3=$prefix/share/man/man3
	for page in "$man1"/*.1 "$man3"/hotline_*.3; do
		[ -f "$page" ] || fail "no man pages in $prefix/share/man"
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$tmp/man.out" 2>"$tmp/man.err" ||
			{ cat "$tmp/man.err"; fail "man -l $page"; }
		[ -s "$tmp/man.out" ] || fail "man -l $page rendered nothing"
		[ -s "$tmp/man.err" ] && { cat "$tmp/man.err"; fail "man --warnings -l $page warns"; }
		groff -ww -z -man "$page" 2>"$tmp/groff.err"
		[ -s "$tmp/groff.err" ] && { cat "$tmp/groff.err"; fail "groff -ww warns on $page"; }
	done
	for t in hotline-bench hotline-sim hotline-report hotline-trace; do
		[ -f "$man1/$t.1" ] || fail "no man page $t.1"
		"$prefix/bin/$t" --help 2>&1 | grep -oE '(^|[ ,[|])--?[A-Za-z][A-Za-z0-9-]*' |
			sed 's/^[ ,[|]*//' | sort -u >"$tmp/options"
		[ -s "$tmp/options" ] || fail "$t --help names no option"
		page_text "$man1/$t.1" >"$tmp/page"
		while read -r opt; do
			grep -qe "$opt" "$tmp/page" || fail "$t.1 lacks $opt (in $t --help)"
		done <"$tmp/options"
	done
	for h in "$prefix"/include/hotline/*.h; do
		base=$(basename "$h" .h)
		page=$man3/hotline_$base.3
		[ -f "$page" ] || fail "no man page hotline_$base.3 for hotline/$base.h"
		{
			sed -E '/^(HL_API|static inline)[^(]*$/{N;s/\n/ /;}' "$h" |
				sed -nE 's/^(HL_API|static inline)[^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\2/p'
			sed -nE 's/^#[[:space:]]*define[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$h"
		} | grep -v -e '^hl__' -e '^HL__' | sort -u >"$tmp/functions"
		page_text "$page" >"$tmp/page"
		while read -r f; do
			grep -qx "\.SS $f" "$tmp/page" || fail "hotline_$base.3 does not document $f"
			[ -f "$man3/$f.3" ] || fail "no man3/$f.3 (pointing at hotline_$base.3)"
		done <"$tmp/functions"
		# 'man FUNCTION' finds the header's page (its .so page, resolved by man).
		f=$(head -1 "$tmp/functions")
		[ -z "$f" ] || (cd "$prefix/share/man" && LC_ALL=C.UTF-8 MANWIDTH=80 \
			MANPATH="$prefix/share/man" man "$f" 2>&1) | grep -q "^HOTLINE_$(echo "$base" |
			tr a-z A-Z)(3)" || fail "man $f does not show hotline_$base(3)"
		n=$((n + $(wc -l <"$tmp/functions")))
	done
	echo "ok: $(ls "$man1" | wc -l) man1 and $(ls "$man3"/hotline_*.3 | wc -l) man3 pages render; $n functions, every --help option"
}
n=0
check_tools
check_man
