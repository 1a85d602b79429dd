#!/bin/sh
# commits.sh - every commit since the habit was set has a subject of at most 72 characters.
#   commits.sh SOURCE_DIR
#
# The rule holds from commit SINCE on (issue 15; earlier subjects were
# longer and history is not rewritten). Skipped (exit 77) outside a git
# checkout, or in a shallow clone that does not reach SINCE.
# scripts/commit-msg is the same rule as a git hook, for writing them.
set -u
src=$1
SINCE=c70400f
if ! git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "skip: $src is not a git checkout"
	exit 77
fi
if ! git -C "$src" merge-base --is-ancestor "$SINCE" HEAD 2>/dev/null; then
	echo "skip: $SINCE is not in this checkout's history (shallow clone?)"
	exit 77
fi
n=0 bad=0
tab=$(printf '\t')
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
git -C "$src" log --no-merges --format="%h$tab%s" "$SINCE..HEAD" >"$list" || exit 1
while IFS="$tab" read -r hash subject; do
	n=$((n + 1))
	len=$(printf '%s' "$subject" | wc -m)
	if [ "$len" -gt 72 ]; then
		echo "subject of $hash is $len characters (at most 72): $subject"
		bad=$((bad + 1))
	fi
done <"$list"
if [ "$bad" -ne 0 ]; then
	echo "FAIL: $bad of $n commits since $SINCE have subjects over 72 characters"
	exit 1
fi
echo "ok: $n commits since $SINCE have subjects of at most 72 characters"
