#!/bin/sh
# Make sure the Debian packages a make target needs are present.
#
#   scripts/deps.sh test|bench|all
#
# As root, missing packages are installed with apt-get (after one
# 'apt-get update' if the first attempt fails). Otherwise the exact
# apt-get line is printed and the script fails, so nothing half-works.
set -eu

common="cmake make gcc pkg-config binutils libjansson-dev libhwloc-dev python3 python3-matplotlib"
case "${1:-all}" in
test)  pkgs="$common libcmocka-dev libasan8 libubsan1 libtsan2" ;;
bench) pkgs="$common" ;;
all)   pkgs="$common libcmocka-dev libasan8 libubsan1 libtsan2" ;;
*)     echo "deps.sh: unknown set '$1' (expected test, bench or all)" >&2; exit 2 ;;
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
	echo "  $line" >&2
	exit 1
fi
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! $line >/dev/null 2>&1; then
	apt-get update -qq >/dev/null
	$line >/dev/null
fi
