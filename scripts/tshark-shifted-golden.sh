#!/usr/bin/env bash
# tshark goldens of bundled captures with their ISNs moved across 2^32:
# for each capture, the sequence numbers of each direction are shifted
# (scripts/shift_isn.py) so that the middle of the busiest connection's
# data in that direction lies just above 2^32, and tshark's per-frame
# analysis of the shifted capture is written to
# testdata/tshark-shifted/<capture path, / as __>.tsv.gz, its shifts to
# testdata/tshark-shifted/shifts.tsv (capture, c2s, s2c, server_port).
# analyze's TestShiftedMatchesTshark moves the same numbers in memory and
# compares with these, frame by frame: tshark itself, not an invariance
# assumption, says what the analysis of a wrapped capture must be.
#
# Usage: scripts/tshark-shifted-golden.sh   (needs tshark 4.0, python3)
set -euo pipefail
export LC_ALL=C
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)
out=$repo/testdata/tshark-shifted
command -v tshark >/dev/null || { echo "tshark not found" >&2; exit 2; }
cfg=$(mktemp -d); tmp=$(mktemp -d)
trap 'rm -rf "$cfg" "$tmp"' EXIT
export WIRESHARK_CONFIG_DIR="$cfg" HOME="$cfg"
mkdir -p "$out"
cd "$repo"
printf 'capture\tc2s\ts2c\tserver_port\n' > "$out/shifts.tsv.tmp"
# capture (testdata/... or a path under ../shared/captures) and its server port
while read -r rel port; do
  case "$rel" in
  testdata/*) f=$rel ;;
  *) f=../shared/captures/$rel; [ -f "$f" ] || { echo "skipped (no corpus): $rel" >&2; continue; } ;;
  esac
  # Per direction of the busiest stream (by payload): the ISN and the
  # middle of its data; the shift puts the middle at 2^32 + 1013.
  read -r c2s s2c < <(tshark -n -r "$f" -Y tcp -T fields -e tcp.stream -e tcp.dstport -e tcp.seq_raw -e tcp.seq -e tcp.len 2>/dev/null |
    python3 -c '
import sys
rows = [l.rstrip("\n").split("\t") for l in sys.stdin]
size = {}
for st, dp, raw, rel, ln in rows:
    size[st] = size.get(st, 0) + int(ln or 0)
main = max(size, key=lambda s: (size[s], -int(s)))
M = 1 << 32
out = []
for to_server in (True, False):
    sel = [r for r in rows if r[0] == main and (r[1] == sys.argv[1]) == to_server]
    isn = (int(sel[0][2]) - int(sel[0][3])) % M
    hi = max(int(r[3]) + int(r[4] or 0) for r in sel)
    out.append(str((M - (isn + hi // 2) + 1013) % M))
print(" ".join(out))' "$port")
  name=$(printf '%s' "${rel#testdata/}" | sed 's#/#__#g')
  python3 "$script_dir/shift_isn.py" "$f" "$tmp/$name" "$c2s" "$s2c" "$port"
  python3 "$script_dir/tshark_golden.py" "$tmp/$name" "$rel shifted c2s=$c2s s2c=$s2c" | gzip -n -9 > "$out/$name.tsv.gz"
  printf '%s\t%s\t%s\t%s\n' "$rel" "$c2s" "$s2c" "$port" >> "$out/shifts.tsv.tmp"
  echo "wrote testdata/tshark-shifted/$name.tsv.gz (c2s +$c2s, s2c +$s2c)" >&2
done <<'LIST'
testdata/geo_short.pcap 5201
testdata/geo_pep_short.pcap 5201
testdata/truth-extra/gt_nosack_loss.rx.pcap 5201
testdata/truth-extra/gt_nosack_loss.tx.pcap 5201
testdata/truth-extra/gt_bbr_loss2.tx.pcap 5201
testdata/truth-extra/gt_nots_reorder.rx.pcap 5201
real/zeek__tcp_reassembly.pcap 80
real/tcptrace__long_rtt.dmp.gz 9080
real/tcptrace__http.dmp.gz 80
LIST
mv "$out/shifts.tsv.tmp" "$out/shifts.tsv"
