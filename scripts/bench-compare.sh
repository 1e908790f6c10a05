#!/usr/bin/env bash
# tcpviz beside tcptrace on the same captures: RUNS alternating runs of
# each command (files in page cache), then per capture the median wall
# time, its ratio to tcptrace's on that capture, the largest peak memory,
# and packets per second. Usage:
#   scripts/bench-compare.sh BIN CAPTURE [RUNS]
# CAPTURE is the large capture of ../shared/lab/record-bench.sh. The
# synthetic captures (a SYN flood of 300,000 and of 1,000,000 SYNs at
# 100,000 a second; 10,000,000 retransmissions of one segment, 25 ms
# apart, 10,000 segments outstanding) are generated once beside it by
# scripts/gencap. SETS picks among bench, flood300k, flood1m, retrans
# (default: those), and bench10: ten copies of the bench capture one after
# the other (gencap repeat: each later in time, its ports moved), to see
# the time per packet and the memory stay as they are on one.
set -euo pipefail
bin=$1 capture=$2 runs=${3:-5}
sets=${SETS:-bench flood300k flood1m retrans}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(dirname "$capture")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

gen() { # file args...
	local f=$dir/$1
	shift
	if [[ ! -s $f ]]; then
		echo "generating $f" >&2
		(cd "$here" && go run ./scripts/gencap "$@") > "$f.tmp" && mv "$f.tmp" "$f"
	fi
	echo "$f"
}

declare -A file packets
file[bench]=$capture
for s in $sets; do
	case $s in
	flood300k) file[$s]=$(gen flood300k.pcap flood 300000 100000) ;;
	flood1m) file[$s]=$(gen flood1m.pcap flood 1000000 100000) ;;
	retrans) file[$s]=$(gen retrans10m.pcap retrans 10000000 10000) ;;
	bench10) file[$s]=$(gen bench10.pcap repeat 10 "$(realpath "$capture")") ;;
	esac
done

# Commands per set: name|command line ({} is the capture).
cmds() {
	echo "tcptrace|tcptrace -n -l -r {}"
	echo "streams|$bin streams {}"
	echo "summary|$bin summary {}"
	if [[ $1 == bench || $1 == bench10 ]]; then
		echo "flows|$bin flows {}"
		echo "packets-csv|$bin packets -f csv {}"
		echo "packets-pq|$bin packets -o $out/$1.parquet {}"
	fi
	if [[ $1 == bench || $1 == retrans ]]; then
		echo "seq-png|$bin seq -o $out/$1.seq.png {}"
		echo "seq-svg|$bin seq -o $out/$1.seq.svg {}"
	fi
	if [[ $1 == bench ]]; then
		echo "report|$bin report --out-dir $out/report {}"
	fi
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for s in $sets; do
	f=${file[$s]}
	cat "$f" > /dev/null
	packets[$s]=$($bin streams --format json "$f" 2>/dev/null | grep -oE '"(c2s|s2c)_packets": *[0-9]+' | awk -F: '{n+=$2} END {print n+0}')
	mapfile -t cs < <(cmds "$s")
	for ((i = 0; i < runs; i++)); do
		for c in "${cs[@]}"; do
			name=${c%%|*}
			line=${c#*|}
			rm -rf "$out/report"
			/usr/bin/time -f "%e %M" -a -o "$out/$s.$name.times" sh -c "${line//\{\}/$f} > /dev/null 2>&1" || true
		done
	done
done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf '%-10s %-9s %8s %8s %9s %12s\n' set command median ratio peak_MB packets/s
for s in $sets; do
	base=$(cut -d' ' -f1 "$out/$s.tcptrace.times" | median)
	mapfile -t cs < <(cmds "$s")
	for c in "${cs[@]}"; do
		name=${c%%|*}
		m=$(cut -d' ' -f1 "$out/$s.$name.times" | median)
		kb=$(cut -d' ' -f2 "$out/$s.$name.times" | sort -n | tail -1)
		printf '%-10s %-9s %7.2fs %8.2f %9.1f %12.0f\n' "$s" "$name" "$m" \
			"$(echo "$m / $base" | bc -l)" "$(echo "$kb / 1024" | bc -l)" \
			"$(echo "${packets[$s]} / ($m + 0.001)" | bc -l)"
	done
done
for f in "$out"/*.seq.svg; do
	[[ -f $f ]] && ls -l "$f" | awk '{print $9 " bytes:", $5}'
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
