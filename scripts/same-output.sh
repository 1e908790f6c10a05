#!/usr/bin/env bash
# Two builds of tcpviz must agree: runs OLD and NEW on every bundled and
# shared capture (and any more given), and compares their summary, streams
# and flows CSV byte for byte. Prints each difference; exit 1 on any.
# Usage: scripts/same-output.sh OLD NEW [CAPTURE...]
set -uo pipefail
old=$1 new=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t caps < <(find "$here/testdata" "$here/../shared/captures" -type f \
	\( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' -o -name '*.gz' -o -name '*.zst' \) 2>/dev/null | sort)
caps+=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
for c in "${caps[@]}"; do
	for cmd in summary streams flows; do
		"$old" "$cmd" "$c" > "$tmp/a" 2> "$tmp/ae"
		ea=$?
		"$new" "$cmd" "$c" > "$tmp/b" 2> "$tmp/be"
		eb=$?
		n=$((n + 1))
		if ! cmp -s "$tmp/a" "$tmp/b" || [[ $ea != "$eb" ]] || ! cmp -s "$tmp/ae" "$tmp/be"; then
			echo "DIFFERS: $cmd $c (exit $ea vs $eb)"
			diff <(head -c 100000 "$tmp/a") <(head -c 100000 "$tmp/b") | head -5
			diff "$tmp/ae" "$tmp/be" | head -5
			bad=1
		fi
	done
done
echo "$n comparisons, $([[ $bad == 0 ]] && echo all equal || echo SOME DIFFER)"
exit $bad
