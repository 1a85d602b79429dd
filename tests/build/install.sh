#!/bin/sh
# Install the build into a scratch prefix, then build and run a small
# program against the *installed* library four ways: pkg-config (shared,
# static) and find_package(hotline) (hotline::hotline, hotline::hotline_static).
#   install.sh CMAKE CC BUILD_DIR CONSUMER_DIR [TOOLCHAIN_FILE]
# A cross build passes its toolchain file (the consumer project gets it too)
# and PKG_CONFIG_LIBDIR (the target's .pc files) in the environment; the
# programs run through $HOTLINE_TARGET_RUN when it is set (tests/support/child.h).
set -u
cmake=$1 cc=$2 build=$3 consumer=$4 toolchain=${5:-}
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
