package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestIOAgainstPackets: every interval's packets and payload of every
// flow equal the sums of `tcpviz packets`' rows (time_rel_s, len) of that
// stream (the capture's first packet is the connection's: time 0 of
// both), Jain's index is recomputed from them over the flows carrying 1%
// of the interval or more, the shares add up to 1, and with --top the
// flows left out are summed as other.
func TestIOAgainstPackets(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "io", "io_cubic2_bbr.pcap.gz")
	pk, stderr, code := tcpviz(t, nil, "packets", "-f", "csv", "--fields", "time_epoch,stream,len", capture)
	if code != 0 {
		t.Fatalf("packets: %s", stderr)
	}
	type key struct{ bin, stream int }
	want := map[key][2]int64{}
	var origin float64
	for i, r := range sweepCSV(t, pk) {
		ts, _ := strconv.ParseFloat(r["time_epoch"], 64)
		if i == 0 {
			origin = ts
		}
		s, _ := strconv.Atoi(r["stream"])
		n, _ := strconv.ParseInt(r["len"], 10, 64)
		k := key{int(math.Floor((ts - origin + 1e-7) / 0.5)), s}
		c := want[k]
		c[0]++
		c[1] += n
		want[k] = c
	}
	out, stderr, code := tcpviz(t, nil, "io", "--interval", "500ms", "--top", "0", "-f", "csv", capture)
	if code != 0 {
		t.Fatalf("io: %s", stderr)
	}
	rows := sweepCSV(t, out)
	got := map[key][2]int64{}
	perBin := map[int][]int64{}
	jain := map[int]string{}
	for _, r := range rows {
		start, _ := strconv.ParseFloat(r["interval_start_s"], 64)
		b := int(math.Round(start / 0.5))
		s, _ := strconv.Atoi(r["stream"])
		p, _ := strconv.ParseInt(r["packets"], 10, 64)
		n, _ := strconv.ParseInt(r["payload_bytes"], 10, 64)
		if p > 0 {
			got[key{b, s}] = [2]int64{p, n}
		}
		perBin[b] = append(perBin[b], n)
		jain[b] = r["jain_index"]
		if r["proto"] != "tcp" || !strings.HasPrefix(r["flow"], "tcp "+r["stream"]+" 10.88.1.1:") {
			t.Errorf("row %v", r)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d (interval, stream) counts, packets gives %d", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("interval %d stream %d: %v, packets gives %v", k.bin, k.stream, got[k], w)
		}
	}
	for b, xs := range perBin {
		var all, sum, sq float64
		for _, x := range xs {
			all += float64(x)
		}
		n := 0
		for _, x := range xs {
			if x > 0 && float64(x) >= 0.01*all {
				n++
				sum += float64(x)
				sq += float64(x) * float64(x)
			}
		}
		j, err := strconv.ParseFloat(jain[b], 64)
		if dot := strings.IndexByte(jain[b], '.'); jain[b] != "" && (dot < 0 || len(jain[b])-dot-1 != 4) {
			t.Errorf("interval %d: jain %q, want four decimals (a ratio, not a float's every digit)", b, jain[b])
		}
		if n == 0 {
			if jain[b] != "" {
				t.Errorf("interval %d: jain %q with no flow", b, jain[b])
			}
			continue
		}
		if w := sum * sum / (float64(n) * sq); err != nil || math.Abs(j-w) > 0.5e-4 { // written to 4 decimals
			t.Errorf("interval %d: jain %q, recomputed %v", b, jain[b], w)
		}
	}
	// BBR's interval: the index is low (it took most of the link).
	if j, _ := strconv.ParseFloat(jain[8], 64); j > 0.6 {
		t.Errorf("at 4 s, with BBR beside two CUBIC flows, Jain's index %v", j)
	}
	// --top 2: two flows named, the other three summed.
	out, _, _ = tcpviz(t, nil, "io", "--interval", "500ms", "--top", "2", "-f", "csv", capture)
	flows := map[string]bool{}
	for _, r := range sweepCSV(t, out) {
		flows[r["flow"]] = true
		if strings.HasPrefix(r["flow"], "other") && (r["stream"] != "" || r["proto"] != "") {
			t.Errorf("other has a stream or proto: %v", r)
		}
	}
	if len(flows) != 3 || !flows["other (3 flows)"] {
		t.Errorf("--top 2: flows %v", flows)
	}
	// A figure of each kind; a figure of two captures is a usage error.
	dir := t.TempDir()
	for _, g := range []string{"stacked", "lines", "fairness"} {
		svg := filepath.Join(dir, g+".svg")
		if _, stderr, code := tcpviz(t, nil, "io", "--graph", g, "-o", svg, capture); code != 0 {
			t.Errorf("--graph %s: %s", g, stderr)
		}
		b, _ := os.ReadFile(svg)
		if !strings.Contains(string(b), "io_cubic2_bbr.pcap") {
			t.Errorf("--graph %s: the title does not name the capture", g)
		}
	}
	if _, stderr, code := tcpviz(t, nil, "io", "-o", filepath.Join(dir, "x.png"), capture, capture); code != 2 || !strings.Contains(stderr, "one capture") {
		t.Errorf("a figure of two captures: exit %d, %q", code, stderr)
	}
}

// TestIOUDP: a UDP run's flows are counted too (its iperf3 test and the
// TCP control connection), and --filter keeps the ones it matches.
func TestIOUDP(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "sweep", "sweep_10ms_fixed_udp_r1.pcap.gz")
	fl, _, _ := tcpviz(t, nil, "flows", "-f", "csv", capture)
	bytes := map[string]string{}
	for _, r := range sweepCSV(t, fl) {
		bytes[r["proto"]+" "+r["flow"]] = r["bytes"]
	}
	for _, c := range []struct{ filter, want string }{{"", "tcp 0,udp 0"}, {"udp", "udp 0"}, {"tcp", "tcp 0"}} {
		args := []string{"io", "--interval", "1s", "-f", "csv", capture}
		if c.filter != "" {
			args = append(args, "--filter", c.filter)
		}
		out, stderr, code := tcpviz(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
		sum := map[string]int64{}
		for _, r := range sweepCSV(t, out) {
			n, _ := strconv.ParseInt(r["payload_bytes"], 10, 64)
			sum[r["proto"]+" "+r["stream"]] += n
		}
		var names []string
		for k, v := range sum {
			names = append(names, k)
			if fmt.Sprint(v) != bytes[k] {
				t.Errorf("--filter %q: %s carried %d over the intervals, flows says %s", c.filter, k, v, bytes[k])
			}
		}
		if got := strings.Join(slices.Sorted(slices.Values(names)), ","); got != c.want {
			t.Errorf("--filter %q: flows %s, want %s", c.filter, got, c.want)
		}
	}
}

// TestIOFilterSelectsNothing: as the tables, io's table with a --filter
// that keeps no flow of any input is exit 1 with one line (its header
// written); one that keeps a flow is exit 0.
func TestIOFilterSelectsNothing(t *testing.T) {
	out, stderr, code := tcpviz(t, nil, "io", "-f", "csv", "--filter", "port 9", demoCapture)
	if code != 1 || stderr != "tcpviz: --filter \"port 9\" selects no connection or flow\n" || strings.Count(out, "\n") != 1 {
		t.Errorf("a filter keeping nothing: exit %d, %q, %d lines", code, stderr, strings.Count(out, "\n"))
	}
	out, stderr, code = tcpviz(t, nil, "io", "-f", "csv", "--filter", "port 5201", demoCapture)
	if code != 0 || stderr != "" || strings.Count(out, "\n") < 2 {
		t.Errorf("a filter keeping the transfer: exit %d, %q, %d lines", code, stderr, strings.Count(out, "\n"))
	}
}

// TestFigureOrTableUnknownExtension: io's and sweep's -o is a figure
// (.png .svg .pdf) or a table: an unknown extension's usage error lists
// both (it listed the table's formats alone).
func TestFigureOrTableUnknownExtension(t *testing.T) {
	for _, args := range [][]string{
		{"io", "-o", "x.xyz", demoCapture},
		{"sweep", "--rows", "proto", "-o", "x.xyz", demoCapture},
	} {
		_, stderr, code := tcpviz(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, ".png .svg .pdf") || !strings.Contains(stderr, ".csv .json .ndjson .txt .parquet") {
			t.Errorf("%s -o x.xyz: exit %d, %q; want a usage error listing the figure's and the table's formats", args[0], code, stderr)
		}
	}
}

// TestIOStreams: io takes -s lists and ranges as the tables do (flows'
// numbers, any transport), with --filter or alone; one that keeps
// nothing is exit 1 with one line. io had no -s ("unknown flag -s").
func TestIOStreams(t *testing.T) {
	const capture = "../../testdata/udp/udp_short.pcap" // TCP stream 0, UDP flow 0
	out, stderr, code := tcpviz(t, nil, "io", "-f", "csv", "-s", "0", "--filter", "udp", capture)
	if code != 0 {
		t.Fatalf("io -s 0 --filter udp: exit %d, %q", code, stderr)
	}
	rows := flowsCSV(t, out)
	if len(rows) == 0 {
		t.Fatal("io -s 0 --filter udp: no rows")
	}
	for _, r := range rows {
		if r["proto"] != "udp" || r["stream"] != "0" {
			t.Errorf("io -s 0 --filter udp: a row of %s %s", r["proto"], r["stream"])
		}
	}
	if _, stderr, code := tcpviz(t, nil, "io", "-s", "3-5", capture); code != 1 || stderr != "tcpviz: -s 3-5 selects no connection or flow\n" {
		t.Errorf("io -s 3-5: exit %d, %q", code, stderr)
	}
}
