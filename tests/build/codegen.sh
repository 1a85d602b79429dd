#!/bin/sh
# The refcount fast paths are what refcount.h promises: one atomic
# read-modify-write, a branch, and no call on the hot path (the saturation
# path is out of line); rcuref.h's the same (get one relaxed add, put one
# release subtract, never a compare-and-swap: the slow paths are out of
# line); and qspinlock.h's: lock is one compare-and-swap, unlock one byte
# store; each with the ordering the headers promise. Prints the disassembly
# it judged.
#   codegen.sh CC OBJDUMP INCLUDE_DIR SOURCE [STD]
#
# STD is the -std= value, c11 by default; the C++ check passes a C++
# compiler, tests/cxx/codegen.cpp (codegen.c's functions compiled as C++)
# and c++17, c++20 or c++2b. GCC and Clang (x86-64) are told apart: Clang
# splits no .cold part off, so there the saturation path must come after
# the fast path's ret.
#
# x86-64: lock xadd (refcount inc), lock sub and branches on its flags
# (refcount's decrements), lock add/sub and flags (rcuref), lock cmpxchg, a
# plain byte store (x86 orders them).
# aarch64, where the ordering is in the instruction and a missing acquire or
# release shows nowhere else (qemu on an x86 host cannot reorder what a weak
# CPU would), the source compiled three ways:
#   -march=armv8.1-a      LSE inline: ldadd (relaxed) for inc, ldaddl (release)
#                         for the decrements, casa/casal (acquire) for lock
#   -mno-outline-atomics  ARMv8.0 exclusives: ldxr/stxr for inc, stlxr
#                         (release) for the decrements, ldaxr (acquire) for lock
#   default               GCC's outline atomics: one bl to an __aarch64_* helper
#                         whose name says the ordering (_relax, _rel, _acq)
# and on every one: dec_and_test's acquire at zero (dmb ishld), unlock a
# release byte store (stlrb), no other call on a fast path. rcuref get is
# ldadd / ldxr+stxr / the _relax helper, put ldaddl / stlxr / the _rel
# helper; neither has a fence or a cas (the last put's is out of line).
set -u
cc=$1 objdump=$2 inc=$3 src=$4 std=${5:-c11}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

arch=$("$cc" -dumpmachine)
case "$arch" in
x86_64* | aarch64*) ;;
*) echo "codegen: no expectations written for $arch yet"; exit 1 ;;
esac

# Clang or GCC (both define __GNUC__; only Clang __clang__).
if "$cc" -dM -E -x c /dev/null 2>/dev/null | grep -q '__clang__'; then
	family=clang
else
	family=gcc
fi
case "$family/$arch" in
clang/aarch64*) echo "codegen: no expectations written for Clang on $arch yet"; exit 1 ;;
esac

status=0
# compile [FLAGS...]: codegen.c at -O2 with FLAGS, disassembled into $tmp/dis
compile() {
	"$cc" -std="$std" -O2 "$@" -I"$inc" -c "$src" -o "$tmp/cg.o" || exit 1
	"$objdump" -d --no-show-raw-insn "$tmp/cg.o" >"$tmp/dis" || exit 1
}
# body FUNC: the instructions of FUNC in .text (not its .cold part)
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' "$tmp/dis"
}
# hot FUNC: FUNC's instructions up to its first ret, the path taken when
# nothing is wrong (Clang places the rare path after it)
hot() {
	body "$1" | awk '{ print } $2 ~ /^ret/ { exit }'
}
count() {
	printf '%s\n' "$1" | grep -cE "$2"
}
how=""	# the compilation being judged, for messages
expect() { # FUNC WHAT PATTERN N
	got=$(count "$(body "$1")" "$3")
	if [ "$got" -ne "$4" ]; then
		echo "FAIL: $1${how:+ ($how)}: expected $4 $2, found $got"
		status=1
	fi
}
# show FUNC...: print each function's body; fail for one that is missing
show() {
	for f; do
		if [ -z "$(body "$f")" ]; then
			echo "FAIL: $f${how:+ ($how)} not found in the disassembly"
			status=1
			continue
		fi
		echo "--- $f${how:+ ($how)}"
		body "$f"
	done
}

# aarch64_common: the checks every aarch64 compilation shares.
# Conditional branches are b.<cond>; cbz/cbnz also retry an exclusive loop.
aarch64_common() {
	show cg_inc cg_dec cg_dec_and_test cg_qspin_lock cg_qspin_unlock
	# Calls: an atomic helper (counted below) or the saturation path, nothing else.
	for f in cg_inc cg_dec cg_dec_and_test cg_qspin_lock cg_qspin_unlock; do
		got=$(body $f | grep -E '\bbl\b' | grep -cvE '<(__aarch64_[a-z0-9_]+|hl__refcount_saturate)>')
		if [ "$got" -ne 0 ]; then
			echo "FAIL: $f ($how): expected no call but to an atomic helper or" \
				"hl__refcount_saturate, found $got"
			status=1
		fi
	done
	expect cg_inc "conditional branch(es) (b.cond)" '\bb\.[a-z]+\b' 1
	expect cg_dec "conditional branch(es) (b.cond)" '\bb\.[a-z]+\b' 1
	# The last put orders the object's teardown after it: acquire at zero.
	expect cg_dec_and_test "acquire fence(s) (dmb ishld) on the zero path" '\bdmb\s+ishld\b' 1
	for f in cg_inc cg_dec cg_qspin_lock cg_qspin_unlock; do
		expect $f "fence(s)" '\bdmb\b' 0
	done
	expect cg_qspin_unlock "release byte store(s) (stlrb)" '\bstlrb\b' 1
	expect cg_qspin_unlock "memory access(es) and call(s) in all (the stlrb alone)" \
		'\b(ld[a-z]*|st[a-z]*|cas[a-z]*|swp[a-z]*|bl)\b' 1

	# rcuref: one add and one test of its sign; the slow paths are a tail jump.
	show cg_rcuref_get cg_rcuref_put
	for f in cg_rcuref_get cg_rcuref_put; do
		got=$(body $f | grep -E '\bbl\b' | grep -cvE '<__aarch64_[a-z0-9_]+>')
		if [ "$got" -ne 0 ]; then
			echo "FAIL: $f ($how): expected no call but to an atomic helper, found $got"
			status=1
		fi
		expect $f "conditional branch(es) on the result (b.cond, tbz, tbnz)" \
			'\b(b\.[a-z]+|tbn?z)\b' 1
		expect $f "fence(s)" '\bdmb\b' 0
		expect $f "compare-and-swap(s)" '\bcas[a-z]*\b|<__aarch64_cas' 0
		expect $f "tail jump(s) to its slow path" '\bb\b.*<hl__rcuref_(get|put)_slow>' 1
	done
}

aarch64_checks() {
	how="-march=armv8.1-a, LSE inline"
	compile -march=armv8.1-a
	aarch64_common
	for f in cg_inc cg_dec cg_dec_and_test cg_qspin_lock; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 0
		expect $f "exclusive load(s)/store(s)" '\b(ld|st)a?l?xr[bh]?\b' 0
	done
	expect cg_inc "ldadd (relaxed)" '\bldadd\b' 1
	expect cg_inc "LSE atomic(s) in all" '\b(ldadd|ldclr|ldeor|ldset|swp|cas)[a-z]*\b' 1
	for f in cg_dec cg_dec_and_test; do
		expect $f "ldaddl (release)" '\bldaddl\b' 1
		expect $f "LSE atomic(s) in all" '\b(ldadd|ldclr|ldeor|ldset|swp|cas)[a-z]*\b' 1
	done
	expect cg_qspin_lock "casa or casal (acquire)" '\bcasa(l)?\b' 1
	expect cg_qspin_lock "LSE atomic(s) in all" '\b(ldadd|ldclr|ldeor|ldset|swp|cas)[a-z]*\b' 1
	for f in cg_rcuref_get cg_rcuref_put; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 0
		expect $f "exclusive load(s)/store(s)" '\b(ld|st)a?l?xr[bh]?\b' 0
		expect $f "LSE atomic(s) in all" '\b(ldadd|ldclr|ldeor|ldset|swp|cas)[a-z]*\b' 1
	done
	expect cg_rcuref_get "ldadd (relaxed)" '\bldadd\b' 1
	expect cg_rcuref_put "ldaddl (release)" '\bldaddl\b' 1

	how="-mno-outline-atomics, ARMv8.0 exclusives"
	compile -mno-outline-atomics
	aarch64_common
	for f in cg_inc cg_dec cg_dec_and_test cg_qspin_lock; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 0
		expect $f "exclusive load(s)" '\blda?xr\b' 1
		expect $f "exclusive store(s)" '\bstl?xr\b' 1
	done
	expect cg_inc "ldxr (relaxed load)" '\bldxr\b' 1
	expect cg_inc "stxr (relaxed store)" '\bstxr\b' 1
	for f in cg_dec cg_dec_and_test; do
		expect $f "stlxr (release store)" '\bstlxr\b' 1
	done
	expect cg_qspin_lock "ldaxr (acquire load)" '\bldaxr\b' 1
	for f in cg_rcuref_get cg_rcuref_put; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 0
		expect $f "ldxr (relaxed load)" '\bldxr\b' 1
		expect $f "exclusive load(s)" '\blda?xr\b' 1
		expect $f "exclusive store(s)" '\bstl?xr\b' 1
	done
	expect cg_rcuref_get "stxr (relaxed store)" '\bstxr\b' 1
	expect cg_rcuref_put "stlxr (release store)" '\bstlxr\b' 1

	how="default: outline atomics"
	compile
	aarch64_common
	expect cg_inc "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 1
	expect cg_inc "call(s) to a relaxed ldadd helper" '\bbl\b.*<__aarch64_ldadd[0-9]+_relax>' 1
	for f in cg_dec cg_dec_and_test; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 1
		expect $f "call(s) to a release ldadd helper" '\bbl\b.*<__aarch64_ldadd[0-9]+_rel>' 1
	done
	expect cg_qspin_lock "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 1
	expect cg_qspin_lock "call(s) to an acquire cas helper" '\bbl\b.*<__aarch64_cas[0-9]+_acq>' 1
	for f in cg_rcuref_get cg_rcuref_put; do
		expect $f "call(s) to an atomic helper" '\bbl\b.*<__aarch64_' 1
	done
	expect cg_rcuref_get "call(s) to a relaxed ldadd helper" '\bbl\b.*<__aarch64_ldadd[0-9]+_relax>' 1
	expect cg_rcuref_put "call(s) to a release ldadd helper" '\bbl\b.*<__aarch64_ldadd[0-9]+_rel>' 1
	how=""
	[ $status -eq 0 ] && echo "ok (-std=$std): refcount and rcuref fast paths are one atomic + one" \
		"branch with the promised ordering (LSE, exclusives, outline helpers); qspinlock" \
		"lock one acquire cas, unlock one stlrb"
}

# back_edges FUNC: the mnemonic of each branch in FUNC's body that jumps back
# to the loop's top (the lowest address any branch in it jumps back to), one
# per line. Branches back from a rare path that rejoins the loop lower down
# (Clang places those after the ret) are not back edges.
back_edges() {
	body "$1" | awk 'function hex(s,  i, v) {
		v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$2 ~ /^j/ && $3 ~ /^[0-9a-f]+$/ {
		at = $1; sub(":", "", at)
		if (hex($3) < hex(at)) {
			n++; op[n] = $2; to[n] = hex($3)
			if (n == 1 || to[n] < top) top = to[n]
		}
	}
	END { for (i = 1; i <= n; i++) if (to[i] == top) print op[i] }'
}

# expect_out_of_line FUNC WHAT: no call before FUNC's first ret, its WHAT (the saturation or
# slow path) out of line: GCC puts it in FUNC.cold, Clang after the ret (a tail jump or a call).
expect_out_of_line() {
	got=$(count "$(hot $1)" '\bcall')
	if [ "$got" -ne 0 ]; then
		echo "FAIL: $1: expected no call before the first ret, found $got"
		status=1
	fi
	if [ "$family" != clang ]; then
		grep -q "<$1.cold>:" "$tmp/dis" || { echo "FAIL: $1 has no .cold part: its $2 is not out of line"; status=1; }
	fi
}

x86_64_checks() {
	compile
	show cg_inc cg_dec cg_dec_and_test
	jcc='\bj(a|ae|b|be|c|e|g|ge|l|le|na|nae|nb|nbe|nc|ne|ng|nge|nl|nle|no|np|ns|nz|o|p|pe|po|s|z)\b'
	for f in cg_inc cg_dec cg_dec_and_test; do
		expect $f "locked instruction(s)" '\block\b' 1
		expect $f "lock cmpxchg" 'cmpxchg' 0
		expect_out_of_line $f "saturation path"
		if [ "$family" != clang ]; then
			expect $f "call(s) on the hot path" '\bcall' 0
		fi
	done
	# inc needs the old value (flags cannot tell an increment of 0 from one of
	# 1): lock xadd and two conditional branches on it, to the saturation
	# path: old <= 0, and old past INT_MAX - 1, each a compare of the value
	# xadd returned itself, with nothing computed from it first (an old - 1
	# before one compare made a loop of increments 1.06x-1.10x the time of
	# lock add on an Intel Xeon, family 6 model 0xcf: refcount.h).
	expect cg_inc "lock xadd" 'lock xadd' 1
	expect cg_inc "conditional branch(es)" "$jcc" 2
	after=$(hot cg_inc | awk '/lock xadd/ { on = 1; split($NF, r, ","); reg = r[1]; next }
		on && $2 ~ /^j/ { next }
		on && $2 ~ /^ret/ { exit }
		on { print $2, $3, reg }')
	if [ -z "$after" ] || printf '%s\n' "$after" | awk '
		!($1 ~ /^(test|cmp)/ && index($2, $3) > 0) { bad = 1 } END { exit !bad }'; then
		echo "FAIL: cg_inc${how:+ ($how)}: expected only compares of xadd's register" \
			"between it and its ret, found: $(echo $after)"
		status=1
	fi
	# In a loop the check must not cost a jmp: GCC laid a loop of increments
	# out with its back edge a jmp to the exit test at its top when the check
	# joined its tests with ||, and such a loop ran 1.07x-1.13x the time of
	# a lock add loop where the straight one ran 0.99x (refcount.h).
	# cg_get_put_loop: the same for a get and a put per pass.
	show cg_inc_loop cg_get_put_loop
	for f in cg_inc_loop cg_get_put_loop; do
		back=$(back_edges $f)
		if [ "$(count "$back" '^jmp$')" -ne 0 ] || [ "$(count "$back" "^j")" -eq 0 ]; then
			echo "FAIL: $f: expected its back edge to be a conditional branch," \
				"found: $(echo $back)"
			status=1
		fi
	done
	# The decrements: a result-less lock sub and branches on its flags, which
	# tell every case exactly (refcount.h): dec jle (old <= 1); dec_and_test
	# je (the last reference) and jl (old < 1). No xadd: the decrements need
	# no more than the flags (docs/refcount.md, "Cost").
	for f in cg_dec cg_dec_and_test; do
		expect $f "lock sub (flags only, no xadd)" 'lock subl?\b' 1
		expect $f "xadd" 'xadd' 0
	done
	expect cg_dec "jle (old <= 1: DEC_LEAK)" '\bjle\b' 1
	expect cg_dec "conditional branch(es)" "$jcc" 1
	expect cg_dec_and_test "je (reached zero)" '\b(je|jz)\b' 1
	expect cg_dec_and_test "jl (old < 1: SUB_UAF)" '\b(jl|jnge)\b' 1
	expect cg_dec_and_test "conditional branch(es)" "$jcc" 2

	# rcuref.h: get and put are one result-less locked add or subtract each
	# (no xadd: it measured 0.87x atomic_faa at 2 threads where this measured
	# 1.03x), two conditional branches on its flags (get: jo for the crossing
	# into saturation, js; put: jc/jb for the last reference, js), and the slow
	# paths out of line, never a call or a compare-and-swap on the hot path.
	show cg_rcuref_get cg_rcuref_put
	expect cg_rcuref_get "lock add (flags only, no xadd)" 'lock addl?\b' 1
	expect cg_rcuref_put "lock sub (flags only, no xadd)" 'lock subl?\b' 1
	expect cg_rcuref_get "jo (the get that crosses into saturation)" '\bjo\b' 1
	expect cg_rcuref_put "jc/jb (the put that drops the last reference)" '\bj(b|c|nae)\b' 1
	for f in cg_rcuref_get cg_rcuref_put; do
		expect $f "locked instruction(s)" '\block\b' 1
		expect $f "xadd" 'xadd' 0
		expect $f "lock cmpxchg" 'cmpxchg' 0
		expect $f "js (any other result outside the valid zone)" '\bjs\b' 1
		expect $f "conditional branch(es)" "$jcc" 2
		expect_out_of_line $f "slow path"
	done

	# qspinlock.h: "the uncontended lock is one compare-and-swap from 0 and the
	# unlock is a release store of 0 to the locked byte, so both are inline".
	show cg_qspin_lock cg_qspin_unlock
	expect cg_qspin_lock "locked instruction(s)" '\block\b' 1
	expect cg_qspin_lock "lock cmpxchg" 'lock cmpxchg' 1
	expect cg_qspin_lock "call(s) on the hot path (the slow path is a tail jump)" '\bcall' 0
	# On x86-64 a release store is a plain mov: no lock prefix, xchg or fence.
	expect cg_qspin_unlock "locked instruction(s), xchg or fence" '\block\b|xchg|fence' 0
	expect cg_qspin_unlock "byte store(s) of 0" 'movb +\$0x0,' 1
	expect cg_qspin_unlock "call(s)" '\bcall' 0
	[ $status -eq 0 ] && echo "ok ($family, -std=$std): refcount and rcuref fast paths are" \
		"one locked instruction (refcount inc: lock xadd; its decrements and rcuref: lock" \
		"add/sub and branches on the flags), no call; qspinlock lock is one lock cmpxchg," \
		"unlock one byte store"
}

case "$arch" in
x86_64*) x86_64_checks ;;
aarch64*) aarch64_checks ;;
esac
exit $status
