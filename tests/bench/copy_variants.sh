#!/bin/sh
# copy_variants.sh - hotline-bench copy --subjects with each copy variant that --list
# names (the library's hl_copy_variant_name list, so no architecture's names are
# written here), beside hl_try_copy and glibc_memcpy, hot, two sizes: the JSON
# checked by check_json.py (a variant this CPU cannot run is said so and left out).
#
#   copy_variants.sh PATH-TO-hotline-bench OUTDIR
#
# HOTLINE_TARGET_RUN, when set, runs the bench (an emulator in a cross build).
set -u

bench=${1:?usage: copy_variants.sh PATH-TO-hotline-bench OUTDIR}
out=${2:?usage: copy_variants.sh PATH-TO-hotline-bench OUTDIR}
here=$(dirname "$0")
mkdir -p "$out" || exit 1
variants=$(${HOTLINE_TARGET_RUN:-} "$bench" --list |
	awk '/^[^ ]/ { inside = ($1 == "copy:") } inside && /^  [a-z0-9_]+ +hotline variant/ { print $1 }')
if [ -z "$variants" ]; then
	echo "FAIL: hotline-bench --list names no copy variant"
	exit 1
fi
for v in $variants; do
	/usr/bin/python3 "$here/check_json.py" "$bench" "$out/$v.json" --scenario copy --quick \
		--sizes 64,4K --mode hot --subjects "$v,hl_try_copy,glibc_memcpy" || exit 1
done
echo "every copy variant ($(echo $variants)) measured on its own"
