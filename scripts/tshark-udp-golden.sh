#!/usr/bin/env bash
# Generate the UDP flow golden file: per capture and udp.stream, what
# tshark counts, so tests check tcpviz's flow numbering and counts
# without tshark.
#
# Usage: scripts/tshark-udp-golden.sh [capture...]
#
# Default: every file in ../shared/captures/{udp,lab,real} (relative to the
# repository root), when present, and every capture bundled in testdata/. Writes testdata/tshark-udp/udp_streams.tsv: a comment
# line with tshark's version, a header, then per capture one row per
# udp.stream (a capture without UDP gets one row with an empty stream):
#   capture      path relative to ../shared/captures, or testdata/... for
#                a capture bundled in the repository
#   stream       udp.stream
#   first_frame  frame.number of its first datagram (for a reassembled
#                datagram, the fragment that completed it)
#   packets      datagrams (frames carrying its UDP header)
#   bytes        sum of udp.length - 8
#   src, srcport, dst, dstport   of its first datagram
# UDP inside ICMP errors is left out (tcpviz counts such packets as ICMP).
# Default preferences (IP reassembly on), as in tshark-golden.sh.
set -euo pipefail
export LC_ALL=C

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
shared=$(cd "$repo/../shared/captures" 2>/dev/null && pwd || echo "$repo/../shared/captures")
out="${TSHARK_UDP_GOLDEN_OUT:-$repo/testdata/tshark-udp/udp_streams.tsv}"

command -v tshark >/dev/null || { echo "tshark not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 2; }

cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
export WIRESHARK_CONFIG_DIR="$cfg" HOME="$cfg"

captures=()
if [ $# -gt 0 ]; then
  for f in "$@"; do captures+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
else
  for d in udp lab real; do
    [ -d "$shared/$d" ] || { echo "missing capture dir: $shared/$d (skipped)" >&2; continue; }
    while IFS= read -r f; do captures+=("$shared/$d/$f"); done \
      < <(cd "$shared/$d" && find . -maxdepth 1 -type f ! -name '.*' ! -name '*.md' -printf '%f\n' | sort)
  done
  # The bundled captures, named testdata/<path>.
  while IFS= read -r f; do
    case "$f" in tshark/*|tshark-udp/*|tshark-shifted/*|cli/*|tcptrace/*|*.md|*.jsonl.gz|*.tsv|*.tsv.gz) continue ;; esac
    captures+=("$repo/testdata/$f")
  done < <(cd "$repo/testdata" && find . -type f ! -name '.*' -printf '%P\n' | sort)
fi

version=$(tshark --version 2>/dev/null | head -n1 | sed -e 's/^TShark (Wireshark) //' -e 's/\.$//')
mkdir -p "$(dirname "$out")"
{
  printf '# tshark %s; scripts/tshark-udp-golden.sh\n' "$version"
  printf 'capture\tstream\tfirst_frame\tpackets\tbytes\tsrc\tsrcport\tdst\tdstport\n'
  for f in "${captures[@]}"; do
    case "$f" in
    "$repo"/testdata/*) rel=testdata/${f#"$repo"/testdata/} ;;
    *) rel=${f#"$shared"/} ;;
    esac
    tshark -n -r "$f" -Y 'udp && !icmp && !icmpv6' -T fields -E separator=/t -E occurrence=f \
      -e frame.number -e udp.stream -e udp.length -e ip.src -e ipv6.src -e ip.dst -e ipv6.dst \
      -e udp.srcport -e udp.dstport 2>/dev/null |
    python3 -c '
import sys
rel = sys.argv[1]
streams = {}
order = []
for line in sys.stdin:
    c = line.rstrip("\n").split("\t")
    frame, stream, ulen, s4, s6, d4, d6, sp, dp = c
    if stream == "":
        continue
    s = streams.get(stream)
    if s is None:
        s = streams[stream] = [int(frame), 0, 0, s4 or s6, sp, d4 or d6, dp]
        order.append(stream)
    s[1] += 1
    s[2] += max(int(ulen) - 8, 0)
if not order:
    print("%s\t\t\t\t\t\t\t\t" % rel)
for st in sorted(order, key=int):
    s = streams[st]
    print("\t".join([rel, st] + [str(x) for x in s]))
' "$rel"
  done
} > "$out.tmp"
mv -f "$out.tmp" "$out"
echo "wrote ${out#"$repo"/}" >&2
