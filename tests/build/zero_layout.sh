#!/bin/sh
# zero_layout.sh - hl_zero's small sizes stay cheap (x86-64), read from the
# disassembly, not timed (docs/zero.md, "Small sizes"): the entries of
# hl_zero, hl_try_zero and hl_try_copy (where a call lands) start on a
# 64-byte boundary, hl_try_zero's body (hl__try_zero_body) follows its
# gate with no padding, hl_try_copy reaches its small paths through its
# size compare and its small check with no padding, and for every
# n in 0..63, walking hl_zero's code from its entry and hl_try_zero's from
# its body (its gate passed) with n in %rsi and the redirect NULL (its
# direct_max, the variable hl_zero first compares n with, then 63:
# arch.h) to the ret:
#  - at most two stores (what a cold buffer pays for: each store holds a
#    store-queue entry until its line arrives);
#  - at most one taken branch, and none for n = 1 (a cascade took up to
#    six, then three at 1 byte: a hot loop of calls is bound by them);
#  - nothing past the entry's first 128 bytes (two 64-byte blocks) for
#    hl_zero, 192 (three) for hl_try_zero, whose 32 bytes of gate come
#    first (checks took a block of their own when they stood before a
#    64-byte boundary, the body after it: three blocks then too).
# And for every n in 129..256, the same walk: one unaligned store, at dst,
# first, and every other store aligned or byte-masked (docs/zero.md, "Mid
# sizes": none straddles a line when dst is on one).
# Prints the path of each size class.
#   zero_layout.sh OBJDUMP LIBHOTLINE_A
set -u
objdump=$1 lib=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$objdump" -d --no-show-raw-insn "$lib" >"$tmp/dis" || exit 1
if ! grep -q 'file format elf64-x86-64' "$tmp/dis"; then
	echo "not x86-64: nothing to check"
	exit 77
fi

# The instructions of FUNC as "address mnemonic operands", addresses, jump
# targets and cmp immediates in decimal (mawk has no strtonum), nops included.
insns() {
	awk -v f="<$1>:" '
	function hex(s,   i, v) {
		v = 0
		s = tolower(s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$2 == f { on = 1; print "start", hex($1); next }
	/^$/ { on = 0 }
	on {
		split($0, part, "\t")
		a = part[1]; sub(/^ */, "", a); sub(/:$/, "", a)
		n = split(part[2], w, " ")
		ops = (n >= 2) ? w[2] : ""
		if (w[1] ~ /^j/ && ops ~ /^[0-9a-f]+$/)
			ops = hex(ops)
		if (w[1] ~ /^cmp/ && ops ~ /^\$0x[0-9a-f]+,/) {
			imm = ops; sub(/^\$0x/, "", imm); sub(/,.*/, "", imm)
			rest = ops; sub(/^[^,]*/, "", rest)
			ops = "$" hex(imm) rest
		}
		print hex(a), w[1], ops
	}' "$tmp/dis"
}

# follow(i, m, o, a, b), for the walkers below: the index of the
# instruction after i, the jump m to o, with the flags of an unsigned
# compare of a with b (a < 0: none yet); it counts a taken jump in taken.
# "" and why set when it cannot follow (the walker stops there). The
# walkers keep their instructions' indices by address in at, and their
# function's name in fn. class and classes: the summary each walker prints.
follow_awk='
function follow(i, m, o, a, b,   t) {
	if (m == "jmp") t = 1
	else if (a < 0) { why = m " before a comparison"; return "" }
	else if (m == "jb") t = a < b
	else if (m == "jae" || m == "jnb") t = a >= b
	else if (m == "ja") t = a > b
	else if (m == "jbe") t = a <= b
	else if (m == "je" || m == "jz") t = a == b
	else if (m == "jne" || m == "jnz") t = a != b
	else { why = "cannot follow " m; return "" }
	if (!t) return i + 1
	taken++
	if (!(o in at)) { why = m " leaves " fn; return "" }
	return at[o]
}
# class(n, key): n walked the path described by key; classes(name) prints
# each such path once, with the range of n that took it.
function class(n, key) {
	if (!(key in first)) { first[key] = n; order[++nk] = key }
	lastn[key] = n
}
function classes(name,   k) {
	for (k = 1; k <= nk; k++)
		printf "%s n = %d..%d: %s\n", name, first[order[k]], lastn[order[k]], order[k]
}'

status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# The start of function $1, in decimal; empty when it is not there.
start_of() {
	insns "$1" | awk '$1 == "start" { print $2; exit }'
}

# Each entry on a 64-byte boundary; a checked entry's listing (which ends
# where its body's symbol begins) holds its checks and no padding.
for fn in hl_zero hl_try_zero hl_try_copy; do
	start=$(start_of "$fn")
	if [ -z "$start" ]; then
		fail "$fn not found in $lib"
	elif [ $((start % 64)) -ne 0 ]; then
		fail "$fn starts at $start, not on a 64-byte boundary"
	fi
done
if insns hl_try_zero | grep -qE ' (data16|cs|nop)'; then
	fail "padding between hl_try_zero's gate and its body"
fi
# hl_try_copy checks its small calls after its size compare, in line: from
# the entry to its first load (the 64-128 B path's), no padding and four
# conditional branches (n < 64, n > 512, the small check, n > 128); the
# slow path comes back (hl__try_copy_checked) after the larger calls'
# checks, out of line.
insns hl_try_copy | awk '$1 != "start"' | sed '/vmovdqu64 (%rsi)/q' >"$tmp/copy_entry"
if ! grep -q 'vmovdqu64 (%rsi)' "$tmp/copy_entry"; then
	fail "hl_try_copy: no vector load of the 64-128 B path found"
elif grep -qE ' (data16|cs|nop)' "$tmp/copy_entry"; then
	fail "padding in hl_try_copy before its first load"
elif [ "$(grep -cE ' j(a|ae|b|be|nb) ' "$tmp/copy_entry")" -ne 4 ]; then
	fail "hl_try_copy: expected 4 conditional branches before its first load, got:
$(cat "$tmp/copy_entry")"
fi
[ -n "$(start_of hl__try_copy_checked)" ] || fail "hl__try_copy_checked not found in $lib"

# hl_try_copy from 0 to 512 B, walked from its entry with n in %rdx and
# the small check passed (the thread's small top is open only while the
# redirect is NULL: arch.h): n compared with constants only, no load of
# the redirect or of any other variable (no %rip-relative read but the
# thread-local block's offset, from the GOT: each instruction of a hot
# loop of such copies costs 2-3%); from 64 B 2, 4 or 8 vector loads and
# as many stores, no taken branch up to 128 B and at most two above;
# below 64 B at most two loads and two stores, three taken branches, and
# no instruction on the way that straddles a 64-byte boundary (one
# compare that did cost hot copies of 32-63 B 0.4-0.5 ns a call on an
# Intel Xeon, family 6 model 0xcf: docs/copy.md; the paths of 129-512 B,
# eight-byte vector moves, straddle some, unmeasured).
insns hl_try_copy >"$tmp/copy"
awk -v fn=hl_try_copy "$follow_awk"'
$1 == "start" { start = $2; next }
{ addr[NR] = $1; mn[NR] = $2; op[NR] = $3; at[$1] = NR; last = NR }
END {
	bad = 0
	for (n = 0; n <= 512; n++) {
		i = at[start]; taken = 0; loads = 0; stores = 0; reads = 0; a = -1; b = 0
		steps = 0; path = ""; why = ""
		while (1) {
			if (i == "" || i > last || ++steps > 64) { why = "runs off"; break }
			m = mn[i]; o = op[i]; path = path " " m
			if (n < 64 && i < last && int(addr[i] / 64) != int((addr[i + 1] - 1) / 64)) {
				why = sprintf("%s at %d straddles a 64-byte boundary", m, addr[i]); break
			}
			if (m == "ret") break
			if (o ~ /\(%rip\)/ && (++reads > 1 || m != "mov" || o !~ /,%rax$/)) { why = "reads " o " (the redirect?)"; break }
			if (m ~ /^v?mov/ && o ~ /^[^,]*\(%rsi/) loads++
			if (m ~ /^v?mov/ && o ~ /,.*\)$/) stores++
			if (m ~ /^cmp/) {
				if (o ~ /^\$[0-9]+,%[er]dx$/) {
					v = o; sub(/^\$/, "", v); sub(/,.*/, "", v)
					a = n; b = v + 0
				} else if (o ~ /%fs:/) {
					a = 0; b = 1 # the small check passes
				} else { why = "compares n with " o; break }
				i++; continue
			}
			if (m ~ /^j/) {
				if ((i = follow(i, m, o, a, b)) == "") break
				continue
			}
			i++
		}
		want = n == 0 ? 0 : n == 1 ? 1 : n <= 128 ? 2 : n <= 256 ? 4 : 8
		if (why != "") { printf "FAIL: hl_try_copy, n = %d: %s\n", n, why; bad = 1; continue }
		if (loads != want || stores != want) {
			printf "FAIL: hl_try_copy, n = %d: %d loads, %d stores, not %d\n", n, loads, stores, want
			bad = 1
		}
		if (taken > (n < 64 ? 3 : n <= 128 ? 0 : 2)) {
			printf "FAIL: hl_try_copy, n = %d: %d taken branches\n", n, taken
			bad = 1
		}
		class(n, loads " loads, " taken " taken:" path)
	}
	classes("hl_try_copy")
	exit bad
}' "$tmp/copy" || status=1

for fn in hl_zero hl__try_zero_body; do
	insns "$fn" >"$tmp/$fn"
	start=$(awk '$1 == "start" { print $2; exit }' "$tmp/$fn")
	if [ -z "$start" ]; then
		fail "$fn not found in $lib"
		continue
	fi
	# Bytes are counted from the entry: hl_try_zero's, for its body.
	case $fn in
	hl__try_zero_body) base=$(start_of hl_try_zero) limit=192 ;;
	*) base=$start limit=128 ;;
	esac
	[ -n "$base" ] || continue
	# Walk every n: cmp $imm against %esi/%rsi and test %esi,%esi set the
	# flags from n; test of any other register is the redirect (NULL).
	awk -v fn="$fn" -v start="$start" -v base="$base" -v limit="$limit" "$follow_awk"'
	$1 == "start" { next }
	{ addr[NR] = $1; mn[NR] = $2; op[NR] = $3; at[$1] = NR; last = NR }
	END {
		bad = 0
		for (n = 0; n < 64; n++) {
			i = at[start]; taken = 0; stores = 0; maxend = 0; a = -1; b = 0; steps = 0; path = ""
			while (1) {
				if (i == "" || i > last || ++steps > 64) { why = "runs off"; break }
				end = (i < last) ? addr[i + 1] : addr[i] + 1
				if (end - base > maxend) maxend = end - base
				m = mn[i]; o = op[i]; path = path " " m
				if (m ~ /^v?mov/ && o ~ /,.*\)$/) stores++
				if (m == "ret") { why = ""; break }
				if (m ~ /^cmp/) {
					if (o ~ /^\$[0-9]+,%[er]si$/) {
						v = o; sub(/^\$/, "", v); sub(/,.*/, "", v)
						a = n; b = v + 0; i++; continue
					}
					if (o ~ /\(%rip\),%rsi$/) {
						# the direct_max of the redirect: 63 while it is NULL (arch.h)
						a = n; b = 63; i++; continue
					}
					why = "compares n with " o; break
				}
				if (m ~ /^test/) {
					a = (o == "%esi,%esi" || o == "%rsi,%rsi") ? n : 0; b = 0; i++; continue
				}
				if (m ~ /^j/) {
					if ((i = follow(i, m, o, a, b)) == "") break
					continue
				}
				i++
			}
			if (why != "") { printf "FAIL: %s, n = %d: %s\n", fn, n, why; bad = 1; continue }
			lim = n == 1 ? 0 : 1
			if (taken > lim) { printf "FAIL: %s, n = %d: %d taken branches\n", fn, n, taken; bad = 1 }
			if (stores > 2) { printf "FAIL: %s, n = %d: %d stores\n", fn, n, stores; bad = 1 }
			if (maxend > limit + 0) { printf "FAIL: %s, n = %d: reaches byte %d\n", fn, n, maxend; bad = 1 }
			class(n, stores " stores, " taken " taken, ends by byte " maxend ":" path)
		}
		classes(fn)
		exit bad
	}' "$tmp/$fn" || status=1
done

# 129-256 B, walked the same way from hl_zero's entry and hl_try_zero's
# body, taking the longer way where the path asks whether end is on a line
# (it is not: the masked store runs): one unaligned store, at dst, first;
# every other store aligned (vmovdqa64) or byte-masked, so that none but
# the first can straddle a line and, with dst on a line, none does (four
# overlapping unaligned stores measured 0.92-0.97x glibc at 136-176 B cold
# on an Intel Xeon, family 6 model 0xcf: docs/zero.md, "Mid sizes").
for fn in hl_zero hl__try_zero_body; do
	[ -s "$tmp/$fn" ] || continue
	start=$(awk '$1 == "start" { print $2; exit }' "$tmp/$fn")
	awk -v fn="$fn" -v start="$start" "$follow_awk"'
	$1 == "start" { next }
	{ addr[NR] = $1; mn[NR] = $2; op[NR] = $3; at[$1] = NR; last = NR }
	END {
		bad = 0
		for (n = 129; n <= 256; n++) {
			i = at[start]; taken = 0; a = -1; b = 0; steps = 0; path = ""; why = ""
			stores = 0; kinds = ""
			while (1) {
				if (i == "" || i > last || ++steps > 64) { why = "runs off"; break }
				m = mn[i]; o = op[i]; path = path " " m
				if (m == "ret") break
				if (m ~ /^v?mov/ && o ~ /,[^,]*\)(\{%k[0-7]\})?$/) {
					stores++
					kind = o ~ /\{%k/ ? "masked" : m
					kinds = kinds " " kind
					if (stores == 1 && (m != "vmovdqu64" || o !~ /,\(%rdi\)$/))
						why = "the first store is " m " " o ", not an unaligned one at dst"
					else if (stores > 1 && kind != "vmovdqa64" && kind != "masked")
						why = "store " stores " is " m " " o ": neither aligned nor masked"
					if (why != "") break
				}
				if (m ~ /^cmp/) {
					if (o ~ /^\$[0-9]+,%[er]si$/) {
						v = o; sub(/^\$/, "", v); sub(/,.*/, "", v)
						a = n; b = v + 0
					} else if (o ~ /\(%rip\),%rsi$/) {
						a = n; b = 63
					} else {
						a = -1 # not n: no jump may follow it
					}
					i++; continue
				}
				if (m ~ /^test/) {
					if (o ~ /%dl$/) { a = 1; b = 0 } # end not on a line
					else { a = (o == "%esi,%esi" || o == "%rsi,%rsi") ? n : 0; b = 0 }
					i++; continue
				}
				if (m ~ /^j/) {
					if ((i = follow(i, m, o, a, b)) == "") break
					continue
				}
				i++
			}
			if (why != "") { printf "FAIL: %s, n = %d: %s\n", fn, n, why; bad = 1; continue }
			if (stores < 4 || stores > 5) { printf "FAIL: %s, n = %d: %d stores\n", fn, n, stores; bad = 1 }
			class(n, stores " stores (" substr(kinds, 2) ")")
		}
		classes(fn)
		exit bad
	}' "$tmp/$fn" || status=1
done

[ $status -eq 0 ] && echo "ok: hl_zero, hl_try_zero and hl_try_copy on 64-byte boundaries," \
	"their checks unpadded (hl_try_copy's: four branches to its first load;" \
	"0-512 B without its redirect, below 64 B straddling no 64-byte boundary);" \
	"n < 64 takes at most two stores and one taken branch" \
	"(n = 1: none) in the entry's first 128 bytes (hl_try_zero: 192);" \
	"129-256 B one unaligned store, at dst, then aligned or masked ones"
exit $status
