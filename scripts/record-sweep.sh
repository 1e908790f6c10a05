#!/bin/bash
# Records a small parameter sweep (issue 25): round-trip time 10, 50 and
# 100 ms (DELAY is half of it: the lab's sweep names give the RTT), a
# fixed delay and one jittered by ±10%, TCP and UDP (iperf3 at 4.5 Mbit/s,
# what the 5 Mbit/s link allows), two repeats each: 24 short runs,
# SNAPLEN=96. TCP runs keep the sender's capture, UDP runs the
# receiver's (received throughput is measured there), gzipped:
#
#   sweep_<rtt>ms_<fixed|jitter>_<tcp|udp>_r<k>.pcap.gz
#
# Needs root, iperf3, tcpdump, ethtool and ../shared/lab (see its README).
#   scripts/record-sweep.sh OUTDIR
set -u
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
LAB=${LAB:-$HERE/../../shared/lab}
mkdir -p "$OUT"
for b in linkemu pep; do
  [ -x /tmp/$b ] || (cd "$LAB" && go build -o /tmp/$b ./$b) || exit 1
done
tmp=$(mktemp -d)
for rtt in 10 50 100; do
  delay=$((rtt / 2))
  for kind in fixed jitter; do
    jitter=0
    [ $kind = jitter ] && jitter=$(awk "BEGIN{print $delay/10}")ms
    for proto in tcp udp; do
      for r in 1 2; do
        name=sweep_${rtt}ms_${kind}_${proto}_r$r
        [ -s "$OUT/$name.pcap.gz" ] && continue
        udp=""
        [ $proto = udp ] && udp=4.5M
        (cd "$LAB" && OUT=$tmp/tx.pcap RXOUT=$tmp/rx.pcap DELAY=${delay}ms JITTER=$jitter RATE=5 QUEUE=60000 \
          DUR=3 SNAPLEN=96 UDP=$udp P=sw PORT=5401 ./scenario.sh >"$tmp/log" 2>&1) || { cat "$tmp/log"; exit 1; }
        keep=$tmp/tx.pcap
        [ $proto = udp ] && keep=$tmp/rx.pcap
        gzip -9nc "$keep" >"$OUT/$name.pcap.gz"
        echo "$name"
      done
    done
  done
done
rm -rf "$tmp"
