#!/bin/bash
# Re-records the small real captures bundled in testdata/ (see
# testdata/README.md) with the lab in ../shared/lab: real Linux TCP
# transfers (iperf3) across a link emulated by linkemu, in network
# namespaces on this machine. Needs root, Go, iperf3, tcpdump, ethtool,
# iproute2, and editcap (tshark package) for the pcapng conversion:
#   apt-get install -y iperf3 tcpdump ethtool iproute2 tshark
#
# usage: sudo scripts/record-testdata.sh [name ...]
#   names: geo_short geo_pep_short lossy_sll2 v6_short udp_short (default: all)
# env:   LAB=/path/to/lab (default ../shared/lab next to the repo, or
#        /work/shared/lab), TESTDATA=dir (default testdata/ in the repo)
#
# Each run records new packets, so the files differ from the bundled ones
# in timestamps, ports, ISNs and exact packet counts; tests must not depend
# on those.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=${LAB:-}
if [ -z "$LAB" ]; then
  for d in "$ROOT/../shared/lab" /work/shared/lab; do
    [ -x "$d/scenario.sh" ] && { LAB=$d; break; }
  done
fi
[ -n "$LAB" ] && [ -x "$LAB/scenario.sh" ] || { echo "lab not found; set LAB=" >&2; exit 1; }
TESTDATA=${TESTDATA:-$ROOT/testdata}
[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces)" >&2; exit 1; }
for t in go iperf3 tcpdump ethtool ip; do
  command -v $t >/dev/null || [ $t = go -a -x /usr/local/go/bin/go ] || { echo "missing: $t" >&2; exit 1; }
done
command -v go >/dev/null || PATH=$PATH:/usr/local/go/bin

WORK=$(mktemp -d /tmp/record-testdata.XXXXXX)
chmod 755 "$WORK"   # tcpdump drops privileges to its own user
trap 'rm -rf "$WORK"' EXIT
cp -r "$LAB" "$WORK/lab"
chmod -R u+w "$WORK/lab"
(cd "$WORK/lab" && go build -o "$WORK/linkemu" ./linkemu && go build -o "$WORK/pep" ./pep)
mkdir -p "$TESTDATA"

# name | settings (environment of scenario.sh). Sizes are kept well under
# 250 KB: header-only (SNAPLEN=96) and short.
declare -A SETTINGS=(
  [geo_short]="DELAY=300ms RATE=10 WINDOW=85K DUR=7 SNAPLEN=96"
  [geo_pep_short]="DELAY=300ms RATE=10 WINDOW=85K BYTES=896K SNAPLEN=96 PEP=1"
  [lossy_sll2]="IFACE=any DELAY=100ms RATE=2 LOSS=0.01 DUR=4 SNAPLEN=96"
  [v6_short]="IPV6=1 DELAY=25ms RATE=10 BYTES=1M SNAPLEN=96"
  [udp_short]="UDP=2M DELAY=25ms JITTER=2ms RATE=10 DUR=2 SNAPLEN=96"
)
NAMES=${*:-geo_short geo_pep_short lossy_sll2 v6_short udp_short}

for name in $NAMES; do
  s=${SETTINGS[$name]:-}
  [ -n "$s" ] || { echo "unknown capture: $name" >&2; exit 1; }
  echo "== $name: $s"
  pcap=$WORK/$name.pcap
  (cd "$WORK/lab" && env $s OUT="$pcap" BIN="$WORK" ./scenario.sh)
  [ -s "$pcap" ] || { echo "$name: no capture written" >&2; exit 1; }
  if [ "$name" = v6_short ]; then
    command -v editcap >/dev/null || { echo "editcap missing (apt-get install -y tshark)" >&2; exit 1; }
    editcap -F pcapng "$pcap" "$WORK/$name.pcapng"
    out=$TESTDATA/$name.pcapng
    cp "$WORK/$name.pcapng" "$out"
  elif [ "$name" = udp_short ]; then
    mkdir -p "$TESTDATA/udp"   # apart: tests of testdata/*.pcap expect TCP transfers
    out=$TESTDATA/udp/$name.pcap
    cp "$pcap" "$out"
  else
    out=$TESTDATA/$name.pcap
    cp "$pcap" "$out"
  fi
  chmod 644 "$out"
  size=$(stat -c %s "$out")
  echo "$out: $size bytes"
  [ "$size" -le 256000 ] || echo "WARNING: $out is larger than 250 KB" >&2
done
