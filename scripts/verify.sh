#!/bin/sh
# make verify: model-check every client in tests/verify/ with GenMC, under
# the RC11 and the IMM memory models (docs/verification.md).
#
#   scripts/verify.sh [CLIENT.c ...]       (default: tests/verify/*.c)
#
# Environment:
#   GENMC        a genmc binary to use as it is
#   GENMC_SRC    a GenMC source tarball (.tar.gz) or unpacked tree: built
#                once into the cache, then reused (CI passes
#                ../shared/third_party/genmc-0.10.3.tar.gz)
#   HOTLINE_CACHE  the cache, outside the clone; default
#                ${XDG_CACHE_HOME:-$HOME/.cache}/hotline
#   VERIFY_MODELS  the models to run, default "rc11 imm"
#   VERIFY_CFLAGS  more compiler flags for every client (the mutation
#                script passes its mutant's source directory this way)
#   JOBS         make -j for the GenMC build (default 2)
#
# Prints one line per client and model: executions explored, blocked
# executions, wall-clock seconds, and the verdict. Exits 0 when every run
# found no error, 1 when one did, 2 when GenMC is missing (one line says
# what is missing and how to get it: nothing was verified, so it is not a
# pass).
#
# A client may ask for GenMC options with a line "verify-flags: OPTIONS
# (why)" in its opening comment (-check-liveness, for instance).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${HOTLINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hotline}
models=${VERIFY_MODELS:-rc11 imm}
jobs=${JOBS:-2}

# The name of the GenMC tree a source builds into, e.g. genmc-0.10.3.
src_name() {
	b=$(basename "$1")
	b=${b%.tar.gz}
	b=${b%.tgz}
	echo "$b"
}

# GenMC 0.10.3 keeps an atomic add's or subtract's result at 64 bits
# whatever the access size: a 32-bit count taken from 0 to 0xFFFFFFFF by a
# fetch_sub is then -1 to its compare-and-swap, which expects 0xFFFFFFFF
# and fails (and 0xFFFFFFFF + 1 is not 0). Every wrap of hl_rcuref_t's word
# goes through that, so before building, the results of add, sub and nand
# are cut to the access's width. The edit is checked to have applied.
fix_genmc() {
	f=$1/src/Runtime/Execution.cpp
	grep -q hotline_wrap "$f" && return 0
	sed -i -e 's/^SVal Interpreter::executeAtomicRMWOperation(SVal oldVal, SVal val, ASize size,$/static SVal hotline_wrap(SVal v, ASize size) { auto b = size.getBits(); return b >= 64 ? v : SVal(v.get() \& ((uint64_t(1) << b) - 1)); }\n\n&/' \
		-e 's/return (oldVal + val);/return hotline_wrap(oldVal + val, size);/' \
		-e 's/return (oldVal - val);/return hotline_wrap(oldVal - val, size);/' \
		-e 's/return ~(oldVal \& val);/return hotline_wrap(~(oldVal \& val), size);/' "$f" || return 1
	[ "$(grep -c hotline_wrap "$f")" -eq 4 ] || {
		echo "verify: could not apply the RMW-width fix to $f (another GenMC version?)" >&2
		return 1
	}
}

# Unpack (or copy) GENMC_SRC into the cache and build it there, once.
build_genmc() {
	name=$(src_name "$GENMC_SRC")
	dir=$cache/$name
	[ -x "$dir/genmc" ] && [ -f "$dir/.hotline-built" ] && return 0
	"$top/scripts/deps.sh" verify || return 1
	echo "verify: building GenMC from $GENMC_SRC into $dir (once; minutes)" >&2
	rm -rf "$dir" && mkdir -p "$cache" || return 1
	if [ -d "$GENMC_SRC" ]; then
		cp -R "$GENMC_SRC" "$dir" || return 1
	else
		mkdir -p "$dir" && tar xzf "$GENMC_SRC" -C "$dir" --strip-components=1 || return 1
	fi
	fix_genmc "$dir" || return 1
	start=$(date +%s)
	(cd "$dir" && { [ -x configure ] || autoreconf --install; } && ./configure &&
		make -j"$jobs") >"$dir.build.log" 2>&1 || {
		echo "verify: the GenMC build failed; see $dir.build.log" >&2
		return 1
	}
	touch "$dir/.hotline-built"
	echo "verify: GenMC built in $(($(date +%s) - start)) s" >&2
}

find_genmc() {
	if [ -n "${GENMC:-}" ]; then
		echo "$GENMC"
		return 0
	fi
	if [ -n "${GENMC_SRC:-}" ]; then
		build_genmc || return 1
		echo "$cache/$(src_name "$GENMC_SRC")/genmc"
		return 0
	fi
	for g in "$cache"/genmc-*/genmc; do
		[ -x "$g" ] && [ -f "$(dirname "$g")/.hotline-built" ] && {
			echo "$g"
			return 0
		}
	done
	command -v genmc
}

if ! genmc=$(find_genmc) || [ ! -x "$genmc" ]; then
	echo "make verify: GenMC is missing; run GENMC_SRC=PATH make verify, PATH a GenMC source tarball or tree (e.g. ../shared/third_party/genmc-0.10.3.tar.gz), to build it once into $cache" >&2
	exit 2
fi

[ $# -gt 0 ] || set -- "$top"/tests/verify/*.c
cflags="-DHL_VERIFY -I$top/tests/verify -I$top/include -I$top/src ${VERIFY_CFLAGS:-}"
log=$(mktemp -d) || exit 1
trap 'rm -rf "$log"' EXIT

fail=0
printf '%-34s %-5s %10s %8s %9s  %s\n' client model executions blocked seconds verdict
for c in "$@"; do
	name=$(basename "$c" .c)
	flags=$(sed -n 's/.*verify-flags: *\([^(]*\).*/\1/p' "$c" | head -n 1)
	for m in $models; do
		out=$log/$name.$m
		# shellcheck disable=SC2086 # word splitting of the flag lists is meant
		"$genmc" -"$m" $flags -- $cflags "$c" >"$out" 2>&1
		rc=$?
		execs=$(sed -n 's/^Number of complete executions explored: *//p' "$out")
		blocked=$(sed -n 's/^Number of blocked executions seen: *//p' "$out")
		secs=$(sed -n 's/^Total wall-clock time: *\([0-9.]*\)s*$/\1/p' "$out")
		if [ $rc -eq 0 ] && grep -q '^No errors were detected' "$out"; then
			verdict=ok
		else
			verdict=FAILED
			fail=1
		fi
		printf '%-34s %-5s %10s %8s %9s  %s\n' "$name" "$m" "${execs:-?}" "${blocked:-0}" \
			"${secs:-?}" "$verdict"
		if [ $verdict != ok ]; then
			sed -n '1,60p' "$out" | sed 's/^/    /'
		fi
	done
done
exit $fail
