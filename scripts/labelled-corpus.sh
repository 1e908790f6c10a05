#!/bin/bash
# Records the labelled diagnosis corpus: lab transfers whose causes are
# known from the link's log and the settings, each captured at the sender
# (NAME.tx.pcap) and at the receiver (NAME.rx.pcap), with the link's log
# (NAME.truth.jsonl.gz) and a label file (NAME.label.json) written by
# scripts/label_run.py (its rules: testdata/labelled/README.md). Needs root,
# python3, iperf3, tcpdump, ethtool and ../shared/lab (see its README).
#
#   scripts/labelled-corpus.sh OUTDIR [NAME...]    # all scenarios, or those named
#   scripts/labelled-corpus.sh OUTDIR --random SEED N
#                         # N scenarios drawn from ranges (draw_scenarios.py):
#                         # a held-out set, the same again from its seed
#
# Two scenarios run at once (namespace prefixes la/lb, ports 5301/5302); a
# run whose label file exists is not recorded again, and one that fails
# (iperf3 or a capture, the log or its label) is tried once more. The
# scenarios (drawn or listed) are written to OUTDIR/scenarios.txt.
set -u
OUT=${1:?output folder}; shift
HERE=$(cd "$(dirname "$0")" && pwd)
LAB=${LAB:-$HERE/../../shared/lab}
mkdir -p "$OUT"
for b in linkemu pep; do
  [ -x /tmp/$b ] || (cd "$LAB" && go build -o /tmp/$b ./$b) || exit 1
done
# name|settings (scenario.sh variables); every run: SNAPLEN=96 and DUR=6 unless set.
SCENARIOS='
rl_20ms_10m_l1|DELAY=10ms RATE=10 QUEUE=40000 LOSS=0.01
rl_50ms_10m_l05|DELAY=25ms RATE=10 QUEUE=80000 LOSS=0.005
rl_100ms_5m_l1|DELAY=50ms RATE=5 QUEUE=80000 LOSS=0.01
rl_200ms_5m_l2|DELAY=100ms RATE=5 QUEUE=150000 LOSS=0.02 DUR=8
rl_300ms_2m_l1_reno|DELAY=150ms RATE=2 QUEUE=80000 LOSS=0.01 CC=reno DUR=10
rl_100ms_10m_l1_bbr|DELAY=50ms RATE=10 LOSS=0.01 CC=bbr
rl_200ms_10m_l2_bbr|DELAY=100ms RATE=10 LOSS=0.02 CC=bbr DUR=8
rl_100ms_10m_l1_nosack|DELAY=50ms RATE=10 QUEUE=130000 LOSS=0.01 SACK=0
rl_60ms_20m_l05_nots|DELAY=30ms RATE=20 QUEUE=150000 LOSS=0.005 TS=0
rl_40ms_20m_l1_reno|DELAY=20ms RATE=20 QUEUE=100000 LOSS=0.01 CC=reno
cq_20ms_50m_q3k|DELAY=10ms RATE=50 QUEUE=3000
cq_20ms_20m_q10k|DELAY=10ms RATE=20 QUEUE=10000
cq_50ms_10m_q20k|DELAY=25ms RATE=10 QUEUE=20000
cq_100ms_10m_q30k_reno|DELAY=50ms RATE=10 QUEUE=30000 CC=reno
cq_200ms_5m_q30k|DELAY=100ms RATE=5 QUEUE=30000 DUR=8
cq_40ms_20m_q15k_nosack|DELAY=20ms RATE=20 QUEUE=15000 SACK=0
cq_60ms_10m_q20k_nots|DELAY=30ms RATE=10 QUEUE=20000 TS=0
cq_100ms_20m_q60k|DELAY=50ms RATE=20 QUEUE=60000
ro_50ms_10m_j5|DELAY=25ms JITTER=5ms RATE=10 QUEUE=2000000
ro_40ms_20m_j10|DELAY=20ms JITTER=10ms RATE=20 QUEUE=2000000
ro_100ms_10m_j20|DELAY=50ms JITTER=20ms RATE=10 QUEUE=2000000
ro_60ms_5m_j3|DELAY=30ms JITTER=3ms RATE=5 QUEUE=2000000
ro_50ms_10m_j5_nosack|DELAY=25ms JITTER=5ms RATE=10 QUEUE=2000000 SACK=0
ro_50ms_10m_j5_w64|DELAY=25ms JITTER=5ms RATE=10 WINDOW=64K
rw_300ms_10m_w64|DELAY=150ms RATE=10 WINDOW=64K DUR=8
rw_100ms_20m_w32|DELAY=50ms RATE=20 WINDOW=32K
rw_200ms_5m_w16|DELAY=100ms RATE=5 WINDOW=16K DUR=8
rw_60ms_50m_w48|DELAY=30ms RATE=50 WINDOW=48K
rw_600ms_2m_w32|DELAY=300ms RATE=2 WINDOW=32K DUR=10
rw_150ms_10m_w64_reno|DELAY=75ms RATE=10 WINDOW=64K CC=reno
ap_50ms_20m_a2m|DELAY=25ms RATE=20 APPRATE=2M
ap_100ms_20m_a5m|DELAY=50ms RATE=20 APPRATE=5M
ap_20ms_50m_a1m|DELAY=10ms RATE=50 APPRATE=1M
ap_300ms_10m_a2m|DELAY=150ms RATE=10 APPRATE=2M DUR=8
ap_100ms_10m_a1m_reno|DELAY=50ms RATE=10 APPRATE=1M CC=reno
ap_60ms_20m_a4m_nots|DELAY=30ms RATE=20 APPRATE=4M TS=0
pp_600ms_10m|DELAY=300ms RATE=10 PEP=1 DUR=8
pp_300ms_5m_l1|DELAY=150ms RATE=5 PEP=1 LOSS=0.01 DUR=8
pp_100ms_20m_q30k|DELAY=50ms RATE=20 PEP=1 QUEUE=30000
pp_500ms_2m_w64|DELAY=250ms RATE=2 PEP=1 WINDOW=64K DUR=10
pp_200ms_10m_j5|DELAY=100ms JITTER=5ms RATE=10 PEP=1 QUEUE=2000000 DUR=8
pp_300ms_10m_reno|DELAY=150ms RATE=10 PEP=1 CC=reno DUR=8
ak_100ms_10m_b05|DELAY=50ms RATE=10 QUEUE=200000 LOSS_BA=0.05 LOSS_MIN=0
ak_50ms_20m_b10|DELAY=25ms RATE=20 QUEUE=200000 LOSS_BA=0.1 LOSS_MIN=0
ak_200ms_5m_b05|DELAY=100ms RATE=5 QUEUE=200000 LOSS_BA=0.05 LOSS_MIN=0 DUR=8
ak_40ms_10m_b03_l1|DELAY=20ms RATE=10 QUEUE=60000 LOSS=0.01 LOSS_BA=0.03 LOSS_MIN=0
ak_100ms_10m_b05_w64|DELAY=50ms RATE=10 WINDOW=64K LOSS_BA=0.05 LOSS_MIN=0
ak_60ms_20m_b05_reno|DELAY=30ms RATE=20 QUEUE=200000 LOSS_BA=0.05 LOSS_MIN=0 CC=reno
sq_20ms_10m|DELAY=10ms RATE=10
sq_50ms_5m|DELAY=25ms RATE=5
sq_100ms_10m_reno|DELAY=50ms RATE=10 CC=reno
sq_10ms_20m|DELAY=5ms RATE=20
sq_40ms_2m|DELAY=20ms RATE=2 DUR=8
sq_60ms_10m_nosack|DELAY=30ms RATE=10 SACK=0
mx_50ms_10m_j5_l1|DELAY=25ms JITTER=5ms RATE=10 QUEUE=2000000 LOSS=0.01
mx_40ms_20m_j10_q30k|DELAY=20ms JITTER=10ms RATE=20 QUEUE=30000
mx_100ms_10m_j5_l2_bbr|DELAY=50ms JITTER=5ms RATE=10 LOSS=0.02 CC=bbr
mx_100ms_10m_q30k_l1|DELAY=50ms RATE=10 QUEUE=30000 LOSS=0.01
mx_200ms_5m_w32_l1|DELAY=100ms RATE=5 WINDOW=32K LOSS=0.01 DUR=8
mx_50ms_20m_a3m_l1|DELAY=25ms RATE=20 APPRATE=3M LOSS=0.01
cl_20ms_10m_w128|DELAY=10ms RATE=10 WINDOW=25K
cl_30ms_100m|DELAY=15ms RATE=100 QUEUE=400000
mx_80ms_10m_j8_q40k_l05|DELAY=40ms JITTER=8ms RATE=10 QUEUE=40000 LOSS=0.005
rl_150ms_10m_l1_v6|DELAY=75ms RATE=10 QUEUE=200000 LOSS=0.01 IPV6=1
'
if [ "${1:-}" = --random ]; then
  SCENARIOS=$(python3 "$HERE/draw_scenarios.py" "${2:?seed}" "${3:?how many}") || exit 1
  shift 3
fi
printf '%s\n' "$SCENARIOS" | sed '/^$/d' >"$OUT/scenarios.txt"
run() { # name settings prefix port
  local name=$1 set=$2 p=$3 port=$4
  [ -s "$OUT/$name.label.json" ] && return 0
  for try in 1 2; do
    env SNAPLEN=96 DUR=6 $set P=$p PORT=$port BIN=/tmp OUT="$OUT/$name.tx.pcap" RXOUT="$OUT/$name.rx.pcap" \
      TRUTH="$OUT/$name.truth.jsonl" bash "$LAB/scenario.sh" >"$OUT/$name.log" 2>&1
    [ -s "$OUT/$name.truth.jsonl" ] && gzip -f "$OUT/$name.truth.jsonl"
    if grep -q '^iperf3 rc=0' "$OUT/$name.log" && [ -s "$OUT/$name.tx.pcap" ] && \
       [ -s "$OUT/$name.rx.pcap" ] && [ -s "$OUT/$name.truth.jsonl.gz" ] && \
       python3 "$HERE/label_run.py" "$OUT/$name" "$set" >"$OUT/$name.label.json"; then
      rm -f "$OUT/$name.log"; return 0
    fi
    rm -f "$OUT/$name.label.json"
  done
  echo "$name: failed twice (log in $OUT/$name.log)" >&2
}
want=" $* "
i=0
while IFS='|' read -r name set; do
  [ -z "$name" ] && continue
  [ $# -gt 0 ] && [[ "$want" != *" $name "* ]] && continue
  if (( i % 2 == 0 )); then run "$name" "$set" la 5301 & else run "$name" "$set" lb 5302 & fi
  i=$((i+1))
  (( i % 2 == 0 )) && wait
done <<<"$SCENARIOS"
wait
