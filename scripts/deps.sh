#!/bin/sh
# Make sure the Debian packages a make target needs are present.
#
#   scripts/deps.sh test|bench|arm64|x86emu|deb|verify|all
#
# As root, missing packages are installed with apt-get (after one
# 'apt-get update' if the first attempt fails). Otherwise the exact
# apt-get line is printed and the script fails, so nothing half-works.
#
# arm64 (make test-arm64): the cross compiler and qemu-user on the host, and
# the target's libraries as Debian multiarch packages (name:arm64), for which
# dpkg must know the arm64 architecture: the script adds it (root) and
# refreshes apt's lists once.
#
# x86emu (make test-x86-amd): what test needs, and qemu-user, which runs the
# suite as another x86-64 CPU.
#
# help2man is in every set: the build writes the tools' man pages from
# their --help (man/CMakeLists.txt). man-db renders them in the install test;
# deb (make deb, make test-deb) adds dpkg-dev (dpkg-shlibdeps, which CPack
# runs) and lintian, which checks the packages.
#
# verify (make verify): what GenMC, the model checker, builds with (LLVM and
# Clang 14, autotools; scripts/verify.sh builds it) and what it runs the
# clients with (clang). Not in all: only make verify needs it.
set -eu

common="cmake make gcc pkg-config binutils libjansson-dev libhwloc-dev python3 python3-matplotlib python3-numpy python3-scipy help2man"
case "${1:-all}" in
test)  pkgs="$common g++ clang libcmocka-dev libasan8 libubsan1 libtsan2 valgrind clang-format man-db systemtap-sdt-dev bpftrace" ;;
bench) pkgs="$common" ;;
arm64) pkgs="$common gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user libc6:arm64 libstdc++6:arm64 libcmocka-dev:arm64 libjansson-dev:arm64 libhwloc-dev:arm64" ;;
x86emu) pkgs="$common g++ clang libcmocka-dev valgrind clang-format man-db systemtap-sdt-dev bpftrace qemu-user" ;;
deb)   pkgs="$common g++ libcmocka-dev man-db dpkg-dev fakeroot lintian" ;;
verify) pkgs="make g++ clang llvm llvm-dev libffi-dev zlib1g-dev libedit-dev autoconf automake" ;;
all)   pkgs="$common g++ clang libcmocka-dev libasan8 libubsan1 libtsan2 valgrind clang-format man-db dpkg-dev fakeroot lintian systemtap-sdt-dev bpftrace" ;;
*)     echo "deps.sh: unknown set '$1' (expected test, bench, arm64, x86emu, deb, verify or all)" >&2; exit 2 ;;
esac

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "hotline needs these Debian packages; please run as root:" >&2
	case "$missing" in
	*:arm64*) echo "  dpkg --add-architecture arm64 && apt-get update" >&2 ;;
	esac
	echo "  $line" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
fresh_lists=no
case "$missing" in
*:arm64*)
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		apt-get update -qq >/dev/null
		fresh_lists=yes
	fi ;;
esac
if [ "$fresh_lists" = yes ]; then
	$line >/dev/null
elif ! $line >/dev/null 2>&1; then
	apt-get update -qq >/dev/null
	$line >/dev/null
fi
