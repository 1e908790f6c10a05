#!/usr/bin/env bash
# Writes analyze/testdata/tcptrace_path.tsv: tcptrace's per-direction
# retransmission and D-SACK counts for the ground-truth and lab captures,
# so the path analysis (analyze/path*.go) is checked against tcptrace
# without tcptrace installed.
#
# Usage: scripts/tcptrace-path-golden.sh   (from any directory; needs tcptrace, python3)
#
# Columns: capture (dir/name under ../shared/captures, or truth-extra/name),
# a, b (tcptrace's host a and b, addr:port), dir (a2b or b2a: the data's
# direction), rexmt_data_pkts (tcptrace's count for that data),
# dsack_pkts (D-SACK packets the data's receiver sent), data_pkts.
# Captures tcptrace cannot read (Linux cooked v2) are left out.
set -euo pipefail
export LC_ALL=C
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
shared="$repo/../shared/captures"
out="$repo/analyze/testdata/tcptrace_path.tsv"
command -v tcptrace >/dev/null || { echo "tcptrace not found" >&2; exit 2; }
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
printf 'capture\ta\tb\tdir\trexmt_data_pkts\tdsack_pkts\tdata_pkts\n' >"$tmp"
for f in "$shared"/truth/*.pcap "$shared"/lab/*.pcap* "$repo"/testdata/truth-extra/*.pcap; do
  [ -f "$f" ] || continue
  name=$(basename "$(dirname "$f")")/$(basename "$f")
  tcptrace -n -l -r "$f" 2>/dev/null | python3 -c '
import re, sys
name = sys.argv[1]
two = re.compile(r"^\s*(.+?):\s+(\S+)\s+(.+?):\s+(\S+)\s*$")
conns = []
for line in sys.stdin:
    if re.match(r"^TCP connection \d+:", line):
        conns.append({"hosts": [], "v": {}})
    elif conns and re.match(r"^\s+host [a-z]+:", line):
        conns[-1]["hosts"].append(line.split(":", 1)[1].strip())
    elif conns:
        m = two.match(line)
        if m and m.group(1).strip() == m.group(3).strip():
            conns[-1]["v"][m.group(1).strip()] = (m.group(2), m.group(4))
for c in conns:
    if len(c["hosts"]) != 2:
        continue
    v = c["v"]
    for i, d in enumerate(("a2b", "b2a")):
        def g(k, j):
            return v.get(k, ("", ""))[j]
        print("\t".join([name, c["hosts"][0], c["hosts"][1], d,
                         g("rexmt data pkts", i), g("dsack pkts sent", 1 - i), g("actual data pkts", i)]))
' "$name" >>"$tmp" || true
done
mv "$tmp" "$out"
echo "wrote $out"
