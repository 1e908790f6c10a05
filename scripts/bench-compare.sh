#!/usr/bin/env bash
# tcpviz beside tcptrace on the same large capture: RUNS alternating runs
# of each command (files in page cache), then the median wall time, its
# ratio to tcptrace's, and the largest peak memory. Usage:
#   scripts/bench-compare.sh BIN CAPTURE [RUNS]
set -euo pipefail
bin=$1 capture=$2 runs=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat "$capture" > /dev/null
cmds=(
	"tcptrace|tcptrace -n -l -r $capture"
	"streams|$bin streams $capture"
	"summary|$bin summary $capture"
	"seq-png|$bin seq -o $out/seq.png $capture"
	"seq-svg|$bin seq -o $out/seq.svg $capture"
)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < runs; i++)); do
	for c in "${cmds[@]}"; do
		name=${c%%|*}
		/usr/bin/time -f "%e %M" -a -o "$out/$name.times" sh -c "${c#*|} > /dev/null"
	done
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=$(cut -d' ' -f1 "$out/tcptrace.times" | median)
printf '%-10s %8s %8s %10s\n' command median ratio peak_MB
for c in "${cmds[@]}"; do
	name=${c%%|*}
	m=$(cut -d' ' -f1 "$out/$name.times" | median)
	kb=$(cut -d' ' -f2 "$out/$name.times" | sort -n | tail -1)
	printf '%-10s %7.2fs %8.2f %10.1f\n' "$name" "$m" "$(echo "$m / $base" | bc -l)" "$(echo "$kb / 1024" | bc -l)"
done
ls -l "$out"/seq.svg | awk '{print "seq.svg bytes:", $5}'
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
