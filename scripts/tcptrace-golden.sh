#!/usr/bin/env bash
# Writes testdata/tcptrace/<capture path under testdata, / as __>.long:
# tcptrace's -l statistics (with -r for its RTT columns, -n for numeric
# addresses) for bundled captures, so analyze's TestTcptraceReference
# compares tcpviz with tcptrace on a fresh clone, without tcptrace and
# without ../shared (whose reference/tcptrace holds tcptrace's own
# expected outputs for its regression inputs).
#
# Usage: scripts/tcptrace-golden.sh [testdata/CAPTURE ...]   (needs tcptrace)
# Default: the bundled captures tcptrace reads (pcap, Ethernet).
set -euo pipefail
export LC_ALL=C TZ=UTC
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
command -v tcptrace >/dev/null || { echo "tcptrace not found" >&2; exit 2; }
cd "$repo"
captures=("$@")
[ ${#captures[@]} -gt 0 ] || captures=(testdata/geo_short.pcap testdata/geo_pep_short.pcap
  testdata/truth-extra/gt_nosack_loss.tx.pcap testdata/truth-extra/gt_bbr_loss2.tx.pcap)
mkdir -p testdata/tcptrace
for f in "${captures[@]}"; do
  rel=${f#testdata/}
  out=testdata/tcptrace/$(printf '%s' "$rel" | sed 's#/#__#g').long
  # Run from the capture's folder so the "filename:" lines hold the base name.
  (cd "$(dirname "$f")" && tcptrace -n -l -r "$(basename "$f")") > "$out.tmp" 2>/dev/null
  mv -f "$out.tmp" "$out"
  echo "wrote $out" >&2
done
