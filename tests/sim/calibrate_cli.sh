#!/bin/sh
# hotline-sim --calibrate FILE: every bad file is refused with exit status 2
# and exactly one line on stderr that names --calibrate and the file, before
# any fitting; so are the run options' usual mistakes next to it, a bad
# --calibrate-max-error, and a fit worse than that limit (calibrate.py feeds
# the default limit nonsense files).
#
#   calibrate_cli.sh PATH-TO-hotline-sim
#
# HOTLINE_TARGET_RUN, when set, is the program that runs target programs
# (an emulator such as scripts/qemu-arm64 in a cross build).
set -u

tool=hotline-sim
tool_path=${1:?usage: calibrate_cli.sh PATH-TO-hotline-sim}
. "$(dirname "$0")/../cli_lib.sh"
fixture="$(cd "$(dirname "$0")" && pwd)/fixtures/contend-x86-2cpu.json"

# one contend result, with the given fields
bench() {
	printf '{"tool": "hotline-bench", "env": {"arch": "x86_64", "cpus": 2}, "results": [%s]}\n' "$1"
}

bench '' >"$tmp/empty.json"
bench '{"scenario": "contend", "subject": "pthread_mutex", "threads": 2, "ns_per_op": 60},
       {"scenario": "contend", "subject": "cas_loop", "threads": 4, "ns_per_op": 40},
       {"scenario": "zero", "subject": "hl_zero", "threads": 1, "ns_per_op": 9}' >"$tmp/unknown.json"
bench '{"scenario": "contend", "subject": "cas_loop", "threads": 1, "ns_per_op": 0}' >"$tmp/zero.json"
bench '{"scenario": "contend", "subject": "cas_loop", "threads": 2, "ns_per_op": -3}' >"$tmp/negative.json"
bench '{"scenario": "contend", "subject": "cas_loop", "threads": 2}' >"$tmp/missing.json"
bench '{"scenario": "contend", "subject": "cas_loop", "threads": 2, "ns_per_op": null}' >"$tmp/null.json"
bench '{"scenario": "contend", "subject": "cas_loop", "threads": 2, "ns_per_op": "12"}' >"$tmp/string.json"
sed 's/"hotline-bench"/"hotline-sim"/' "$tmp/zero.json" >"$tmp/sim.json"
sed 's/"x86_64"/"riscv64"/; s/"ns_per_op": 0/"ns_per_op": 5/' "$tmp/zero.json" >"$tmp/riscv.json"
printf '{"tool": "hotline-bench", "results": ' >"$tmp/cut.json"
printf '[1, 2]\n' >"$tmp/array.json"
printf 'threads,ns\n1,10\n' >"$tmp/csv.json"
: >"$tmp/void.json"

expect_bad "--calibrate $tmp/absent.json No such file" --calibrate "$tmp/absent.json"
expect_bad "--calibrate $tmp directory" --calibrate "$tmp"
expect_bad "--calibrate $tmp/void.json JSON" --calibrate "$tmp/void.json"
expect_bad "--calibrate $tmp/cut.json JSON" --calibrate "$tmp/cut.json"
expect_bad "--calibrate $tmp/csv.json JSON" --calibrate "$tmp/csv.json"
expect_bad "--calibrate $tmp/array.json hotline-bench" --calibrate "$tmp/array.json"
expect_bad "--calibrate $tmp/sim.json hotline-sim hotline-bench" --calibrate "$tmp/sim.json"
expect_bad "--calibrate $tmp/empty.json no contend" --calibrate "$tmp/empty.json"
expect_bad "--calibrate $tmp/unknown.json no contend" --calibrate "$tmp/unknown.json"
expect_bad "--calibrate $tmp/zero.json cas_loop ns_per_op" --calibrate "$tmp/zero.json"
expect_bad "--calibrate $tmp/negative.json cas_loop ns_per_op" --calibrate "$tmp/negative.json"
expect_bad "--calibrate $tmp/missing.json cas_loop ns_per_op" --calibrate "$tmp/missing.json"
expect_bad "--calibrate $tmp/null.json cas_loop ns_per_op" --calibrate "$tmp/null.json"
expect_bad "--calibrate $tmp/string.json cas_loop ns_per_op" --calibrate "$tmp/string.json"
expect_bad "--calibrate $tmp/riscv.json riscv64 --machine" --calibrate "$tmp/riscv.json"
expect_bad "--calibrate ''" --calibrate ''
expect_bad "--calibrate missing value" --calibrate
# A good file does not lift the run options' checks.
expect_bad "--threads '113' 112" --calibrate "$fixture" --policy cas_loop --threads 113
expect_bad "--threads missing" --calibrate "$fixture" --policy cas_loop
expect_bad "--policy missing" --calibrate "$fixture" --threads 2
expect_bad "--policy 'spin'" --calibrate "$fixture" --policy spin --threads 2
expect_bad "--machine 'vax'" --calibrate "$fixture" --machine vax
expect_bad "--lat_socket '-1'" --calibrate "$fixture" --lat-socket -1
# --calibrate-max-error: a number in range, and only with --calibrate.
expect_bad "--calibrate-max-error 'abc' number" --calibrate "$fixture" --calibrate-max-error abc
expect_bad "--calibrate-max-error '0' range" --calibrate "$fixture" --calibrate-max-error 0
expect_bad "--calibrate-max-error '1e3' number" --calibrate "$fixture" --calibrate-max-error 1e3
expect_bad "--calibrate-max-error '' number" --calibrate "$fixture" --calibrate-max-error ''
expect_bad "--calibrate-max-error missing value" --calibrate "$fixture" --calibrate-max-error
expect_bad "--calibrate-max-error only --calibrate" --calibrate-max-error 1 \
	--machine x86-server --policy cas_loop --threads 1
# A fit worse than the limit is refused the same way, after fitting: the
# fixture's (rms log error about 0.2) under a limit of 0.1.
expect_bad "--calibrate $fixture rms log error above 0.1 --calibrate-max-error 0.20" \
	--calibrate "$fixture" --calibrate-max-error 0.1 --policy cas_loop --threads 2

finish "all refusals as expected"
