package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
	"tcpviz/scripts/pcapngcraft"
)

// sweepCSV parses a command's CSV output into rows of named cells.
func sweepCSV(t *testing.T, out string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 1 {
		t.Fatalf("CSV: %v\n%s", err, out)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, name := range recs[0] {
			m[name] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}

// TestSweepAgainstSummary: the seed study's table (rows = RTT, columns =
// fixed/jittered × TCP/UDP) from the bundled sweep equals, cell by cell,
// the mean and interval of the summary's own throughput (TCP: the main
// connection's main direction) or the flows' (UDP: the iperf3 test,
// not its TCP control connection) of each capture, read one by one.
func TestSweepAgainstSummary(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "sweep")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pcap.gz"))
	if len(files) < 24 {
		t.Fatalf("%d captures in %s", len(files), dir)
	}
	out, stderr, code := tcpviz(t, nil, "sweep", "--param", `rtt=sweep_(\d+)ms`, "--param", "kind=(fixed|jitter)",
		"--rows", "rtt", "--cols", "kind,proto", "-f", "csv", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	table := sweepCSV(t, out)
	// Each capture's throughput, from summary or flows.
	name := regexp.MustCompile(`sweep_(\d+)ms_(fixed|jitter)_(tcp|udp)_r\d`)
	groups := map[string][]float64{}
	for _, f := range files {
		m := name.FindStringSubmatch(filepath.Base(f))
		var v float64
		if m[3] == "udp" {
			out, _, _ := tcpviz(t, nil, "flows", "-f", "csv", f)
			best := -1.0
			for _, r := range sweepCSV(t, out) {
				b, _ := strconv.ParseFloat(r["bytes"], 64)
				if r["proto"] == "udp" && b > best {
					best = b
					v, _ = strconv.ParseFloat(r["throughput_bps"], 64)
				}
			}
		} else {
			out, _, _ := tcpviz(t, nil, "summary", "-f", "csv", f)
			best := -1.0
			for _, r := range sweepCSV(t, out) {
				b, _ := strconv.ParseFloat(r["data_bytes"], 64)
				if b > best {
					best = b
					v, _ = strconv.ParseFloat(r["throughput_bps"], 64)
				}
			}
		}
		key := m[1] + "/" + m[2] + "_" + m[3]
		groups[key] = append(groups[key], v)
	}
	cells := 0
	for _, row := range table {
		for _, col := range []string{"fixed_tcp", "fixed_udp", "jitter_tcp", "jitter_udp"} {
			vs := groups[row["rtt"]+"/"+col]
			if len(vs) != 2 {
				t.Fatalf("%s ms %s: %d captures", row["rtt"], col, len(vs))
			}
			mean := (vs[0] + vs[1]) / 2
			sd := math.Abs(vs[0]-vs[1]) / math.Sqrt2
			ci := 12.706 * sd / math.Sqrt2 // t(1) for two runs
			got := func(s string) float64 {
				x, err := strconv.ParseFloat(row[col+"_throughput_bps_"+s], 64)
				if err != nil {
					t.Fatalf("%s ms %s %s: %v", row["rtt"], col, s, err)
				}
				return x
			}
			// The captures' own values come rounded to whole bit/s in
			// CSV: that much slack (t(1)/√2 times it for the interval,
			// and t(1) = 12.706 to the tables' three decimals).
			for _, c := range []struct {
				what           string
				got, want, tol float64
			}{{"mean", got("mean"), mean, 1}, {"sd", got("sd"), sd, 1}, {"ci95", got("ci95"), ci, 10 + 1e-4*ci}, {"n", got("n"), 2, 0}} {
				if math.Abs(c.got-c.want) > c.tol {
					t.Errorf("%s ms %s: %s %s, from the captures' own %s", row["rtt"], col, c.what, fmt.Sprint(c.got), fmt.Sprint(c.want))
				}
			}
			cells++
		}
	}
	if cells != 12 {
		t.Errorf("%d cells, want 3 RTTs × 4", cells)
	}
}

// TestSweepErrors: usage errors name what is wrong before anything is
// read.
func TestSweepErrors(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "sweep")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "rtt=nomatch_(\\d+)", "--rows", "rtt", dir}, "matches no input's file name"},
		{[]string{"--param", "rtt=sweep_(\\d+)ms", "--rows", "delay", dir}, `"delay": no such parameter`},
		{[]string{"--param", "rtt=sweep_(\\d+)ms", "--rows", "rtt", "--metric", "bogus", dir}, `--metric "bogus"`},
		{[]string{"--param", "rtt=", "--rows", "rtt", dir}, "want NAME=REGEX"},
	} {
		_, stderr, code := tcpviz(t, nil, append([]string{"sweep"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("sweep %q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestFields: --fields keeps the columns named, in the order named, a
// pattern for every column it matches; in every format; an unknown name
// is a usage error naming it.
func TestFields(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "geo_short.pcap")
	out, stderr, code := tcpviz(t, nil, "summary", "--fields", "throughput_bps,stream,rtt_m*_ms", "-f", "csv", capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header := strings.SplitN(out, "\n", 2)[0]
	if header != "throughput_bps,stream,rtt_min_ms,rtt_median_ms,rtt_mean_ms,rtt_max_ms" {
		t.Errorf("header %q", header)
	}
	full, _, _ := tcpviz(t, nil, "summary", "-f", "csv", capture)
	all := sweepCSV(t, full)
	for i, r := range sweepCSV(t, out) {
		if r["throughput_bps"] != all[i]["throughput_bps"] || r["rtt_max_ms"] != all[i]["rtt_max_ms"] {
			t.Errorf("row %d: %v, the whole table has %v", i, r, all[i])
		}
	}
	js, _, _ := tcpviz(t, nil, "streams", "--fields", "stream,state", "-f", "ndjson", capture)
	if !strings.HasPrefix(js, `{"stream": 0, "state": "closed"}`) {
		t.Errorf("streams ndjson: %q", js)
	}
	_, stderr, code = tcpviz(t, nil, "summary", "--fields", "stream,nope_*", capture)
	if code != 2 || !strings.Contains(stderr, `"nope_*": no such column`) {
		t.Errorf("unknown field: exit %d, %q", code, stderr)
	}
}

// TestParams: --param and --manifest append param_<name> columns to the
// tables (what the file name or the manifest says), a manifest's files
// are the inputs when none is named, and its row for a missing file fails
// alone (named, exit 1) while the others' rows are written; sweep groups
// by a manifest's parameter.
func TestParams(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(golden.Testdata(), "sweep")
	manifest := filepath.Join(dir, "runs.csv")
	rows := "file,size,cc\n" +
		src + "/sweep_10ms_fixed_tcp_r1.pcap.gz,1M,cubic\n" +
		src + "/sweep_10ms_fixed_tcp_r2.pcap.gz,2M,reno\n" +
		src + "/sweep_50ms_fixed_tcp_r1.pcap.gz,1M,reno\n" +
		"missing.pcap,3M,reno\n"
	if err := os.WriteFile(manifest, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := tcpviz(t, nil, "streams", "--manifest", manifest, "--param", `rtt=sweep_(\d+)ms`, "-f", "csv")
	if code != 1 || !strings.Contains(stderr, "missing.pcap") {
		t.Errorf("exit %d, %q: want 1 and the missing file named", code, stderr)
	}
	got := map[string]string{}
	for _, r := range sweepCSV(t, out) {
		got[filepath.Base(r["file"])] = r["param_rtt"] + "/" + r["param_size"] + "/" + r["param_cc"]
	}
	want := map[string]string{"sweep_10ms_fixed_tcp_r1.pcap.gz": "10/1M/cubic", "sweep_10ms_fixed_tcp_r2.pcap.gz": "10/2M/reno", "sweep_50ms_fixed_tcp_r1.pcap.gz": "50/1M/reno"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("params %v, want %v", got, want)
	}
	out, stderr, code = tcpviz(t, nil, "sweep", "--manifest", manifest, "--rows", "size", "--cols", "cc", "-f", "csv")
	if code != 1 {
		t.Errorf("sweep: exit %d (%s), want 1 for the missing file", code, stderr)
	}
	table := sweepCSV(t, out)
	if len(table) != 2 || table[0]["size"] != "1M" || table[0]["cubic_throughput_bps_n"] != "1" || table[0]["reno_throughput_bps_n"] != "1" || table[1]["reno_throughput_bps_n"] != "1" {
		t.Errorf("sweep by the manifest's size and cc: %v", table)
	}
}

// TestCompareSweepFolder: compare takes a folder (each capture an
// input) and compares each capture's main flow of either transport: a
// UDP run's iperf3 test, not its TCP control connection (which --proto
// tcp asks for).
func TestCompareSweepFolder(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "sweep")
	png := filepath.Join(t.TempDir(), "c.png")
	for _, c := range []struct {
		proto   string
		udpLow  float64 // bounds of a UDP run's mean throughput
		udpHigh float64
	}{{"", 4e6, 5e6}, {"tcp", 0, 1e5}} {
		args := []string{"compare", "-f", "csv", "-o", png, dir}
		if c.proto != "" {
			args = append(args, "--proto", c.proto)
		}
		out, stderr, code := tcpviz(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		rows := sweepCSV(t, out)
		if len(rows) != 24 {
			t.Fatalf("%d rows for 24 captures", len(rows))
		}
		for _, r := range rows {
			v, _ := strconv.ParseFloat(r["mean_throughput_bps"], 64)
			if strings.Contains(r["input"], "_udp_") && (v < c.udpLow || v > c.udpHigh) {
				t.Errorf("--proto %q: %s at %.0f bit/s, want %g to %g", c.proto, r["input"], v, c.udpLow, c.udpHigh)
			}
		}
	}
}

// TestCommentParams: --param NAME reads NAME=VALUE from each pcapng's
// section comment; values with units are ordered by what they mean (10ms,
// 500ms, 1s) and drawn on one axis in seconds; a capture without the
// comment has an empty cell; a NAME no comment gives is a usage error.
func TestCommentParams(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ file, comment string }{
		{"a.pcapng", "delay=1s kind=fixed"}, {"b.pcapng", "kind=fixed\nDelay=10ms"}, {"c.pcapng", "delay=500ms;kind=jitter"}, {"d.pcapng", ""},
	} {
		var f pcapngcraft.File
		var opts []pcapngcraft.Option
		if c.comment != "" {
			opts = append(opts, pcapngcraft.Option{Code: pcapngcraft.OptComment, Value: []byte(c.comment)})
		}
		f.Section(false, opts...)
		f.Interface(pcapngcraft.LinkEthernet, 0)
		for _, p := range (pcapngcraft.Transfer{Start: 1_700_000_000e9, RTT: int64(40+10*i) * 1e6, Gap: 1e6, Segments: 20 * (i + 1), MSS: 1000,
			Client: [4]byte{10, 1, 0, 1}, Server: [4]byte{10, 2, 0, 2}, CPort: 1000, SPort: 80}).Packets() {
			fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
			f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), f.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := tcpviz(t, nil, "streams", "--param", "delay", "--param", "kind", "-f", "csv", dir)
	if code != 0 {
		t.Fatalf("streams: exit %d: %s", code, stderr)
	}
	got := map[string]string{}
	for _, r := range sweepCSV(t, out) {
		got[filepath.Base(r["file"])] = r["param_delay"] + "/" + r["param_kind"]
	}
	if want := "map[a.pcapng:1s/fixed b.pcapng:10ms/fixed c.pcapng:500ms/jitter d.pcapng:/]"; fmt.Sprint(got) != want {
		t.Errorf("params %v, want %s", got, want)
	}
	out, stderr, code = tcpviz(t, nil, "sweep", "--param", "delay", "--rows", "delay", "-f", "csv", dir)
	if code != 0 || !strings.Contains(stderr, "1 capture left out") {
		t.Errorf("sweep: exit %d, %q: want 0 and d.pcapng left out", code, stderr)
	}
	var rows []string
	for _, r := range sweepCSV(t, out) {
		rows = append(rows, r["delay"])
	}
	if fmt.Sprint(rows) != "[10ms 500ms 1s]" {
		t.Errorf("rows %v, want 10ms 500ms 1s", rows)
	}
	svg := filepath.Join(dir, "s.svg")
	if _, stderr, code := tcpviz(t, nil, "sweep", "--param", "delay", "--rows", "delay", "-o", svg, "--log-x", dir); code != 0 {
		t.Fatalf("sweep figure: %s", stderr)
	}
	b, _ := os.ReadFile(svg)
	if s := string(b); !strings.Contains(s, "delay (ms)") && !strings.Contains(s, "delay (s)") {
		t.Errorf("the figure's x axis is not a time: %.300s", s)
	}
	if _, stderr, code := tcpviz(t, nil, "sweep", "--param", "run", "--rows", "run", dir); code != 2 || !strings.Contains(stderr, "no input's pcapng section comment says run=VALUE") {
		t.Errorf("--param run: exit %d, %q", code, stderr)
	}
}

// TestSweepCompareMetric: a metric of compare's (the time to the first
// 100 KB within the transfer, the bytes delivered at 1 s) aggregates
// compare's own value of each capture; the three spellings of the time
// are one column.
func TestSweepCompareMetric(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(golden.Testdata(), "sweep", "*_tcp_*.pcap.gz"))
	if len(files) < 12 {
		t.Fatalf("%d TCP captures", len(files))
	}
	name := regexp.MustCompile(`sweep_(\d+)ms_`)
	for _, c := range []struct{ metric, col, flag string }{
		{"time_to_bytes=100KB", "time_to_100KB_within_s", "--to-bytes"},
		{"time_to_100KB_s", "time_to_100KB_within_s", "--to-bytes"},
		{"time_to_100KB_within_s", "time_to_100KB_within_s", "--to-bytes"},
		{"delivered_1s_bytes", "delivered_1s_bytes", "--at"},
	} {
		out, stderr, code := tcpviz(t, nil, append([]string{"sweep", "--param", `rtt=sweep_(\d+)ms`, "--rows", "rtt", "--metric", c.metric, "-f", "csv"}, files...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.metric, code, stderr)
		}
		arg := map[string]string{"--to-bytes": "100KB", "--at": "1s"}[c.flag]
		groups := map[string][]float64{}
		for _, f := range files {
			out, stderr, code := tcpviz(t, nil, "compare", "-o", filepath.Join(t.TempDir(), "c.png"), c.flag, arg, f)
			if code != 0 {
				t.Fatalf("compare %s: %s", f, stderr)
			}
			rows := sweepCSV(t, out)
			if len(rows) != 1 {
				t.Fatalf("compare %s: %d rows: %s", f, len(rows), out)
			}
			v, err := strconv.ParseFloat(rows[0][c.col], 64)
			if err != nil {
				t.Fatalf("compare %s: %s %q", f, c.col, rows[0][c.col])
			}
			rtt := name.FindStringSubmatch(f)[1]
			groups[rtt] = append(groups[rtt], v)
		}
		table := sweepCSV(t, out)
		if len(table) != 3 {
			t.Fatalf("%s: %d rows", c.metric, len(table))
		}
		for _, row := range table {
			vs := groups[row["rtt"]]
			mean := 0.0
			for _, v := range vs {
				mean += v / float64(len(vs))
			}
			got, _ := strconv.ParseFloat(row[c.col+"_mean"], 64)
			if row[c.col+"_n"] != strconv.Itoa(len(vs)) || math.Abs(got-mean) > 1e-3*math.Abs(mean)+1e-3 {
				t.Errorf("%s at %s ms: mean %s of %s runs, compare's own %v", c.metric, row["rtt"], row[c.col+"_mean"], row[c.col+"_n"], vs)
			}
		}
	}
	if _, stderr, code := tcpviz(t, nil, "sweep", "--param", `rtt=sweep_(\d+)ms`, "--rows", "rtt", "--metric", "time_to_bytes=lots", files[0]); code != 2 || !strings.Contains(stderr, "lots") {
		t.Errorf("a bad amount: exit %d, %q", code, stderr)
	}
}

// TestSweepCompareMetricStdin: a metric of compare's reads the main
// connection again; from standard input (read exactly once) that second
// read said "standard input: empty file: not a capture file" and the
// capture was left out. It is spooled, as a graph's second pass is.
func TestSweepCompareMetricStdin(t *testing.T) {
	capture, err := os.ReadFile(filepath.Join(golden.Testdata(), "geo_short.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := tcpviz(t, capture, "sweep", "--rows", "proto", "--metric", "delivered_1s_bytes", "-f", "csv", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := sweepCSV(t, out)
	if len(rows) != 1 || rows[0]["proto"] != "tcp" || rows[0]["delivered_1s_bytes_mean"] != "14517.000000" {
		t.Errorf("want one row, tcp, 14517 bytes in the first second (compare's):\n%s", out)
	}
}

// TestSweepParamProto: proto is always a sweep's parameter (the main
// flow's transport): a parameter proto of the user's (--param, a
// manifest's column), which it silently replaced, is a usage error
// naming it. The tables keep it as their
// param_proto column.
func TestSweepParamProto(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "sweep")
	_, stderr, code := tcpviz(t, nil, "sweep", "--param", "proto=_(tcp|udp)_", "--param", `rtt=sweep_(\d+)ms`, "--rows", "rtt", "--cols", "proto", dir)
	if code != 2 || !strings.Contains(stderr, "a parameter named proto") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, %q; want a usage error naming the parameter proto", code, stderr)
	}
	if out, stderr, code := tcpviz(t, nil, "streams", "--param", "proto=_(tcp|udp)_", "--fields", "param_proto", filepath.Join(dir, "sweep_10ms_fixed_tcp_r1.pcap.gz")); code != 0 || !strings.Contains(out, "\ntcp\n") {
		t.Errorf("streams --param proto: exit %d, %q %q", code, out, stderr)
	}
}

// TestSweepFailedNotLeftOut: a capture that could not be read is said
// once, by its own error; the "left out" warning counts the captures
// read without the row parameter or the metric (it counted the failed
// one again, as if it lacked a parameter).
func TestSweepFailedNotLeftOut(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pcap")
	_, stderr, code := tcpviz(t, nil, "sweep", "--rows", "proto", "-f", "csv", demoCapture, missing)
	if code != 1 || !strings.Contains(stderr, "missing.pcap: no such file") || strings.Contains(stderr, "left out") {
		t.Errorf("exit %d, %q; want 1, the missing capture's error and no left-out warning", code, stderr)
	}
}

// TestSweepLogXLeavesOutZero: on --log-x, rows at or below zero cannot
// be drawn; the figure says which it leaves out (d=0ms vanished from it
// without a word).
func TestSweepLogXLeavesOutZero(t *testing.T) {
	dir := t.TempDir()
	for name, run := range map[string]string{"d_0ms_a.pcap.gz": "sweep_10ms_fixed_tcp_r1.pcap.gz", "d_10ms_a.pcap.gz": "sweep_50ms_fixed_tcp_r1.pcap.gz",
		"d_100ms_a.pcap.gz": "sweep_100ms_fixed_tcp_r1.pcap.gz"} {
		abs, err := filepath.Abs(filepath.Join(golden.Testdata(), "sweep", run))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	svg := filepath.Join(t.TempDir(), "s.svg")
	_, stderr, code := tcpviz(t, nil, "sweep", "--param", "d=d_([^_]+)_", "--rows", "d", "--log-x", "-o", svg, dir)
	if code != 0 || !strings.Contains(stderr, "--log-x") || !strings.Contains(stderr, "0ms") {
		t.Errorf("exit %d, %q; want a warning that d=0ms is left out", code, stderr)
	}
	_, stderr, _ = tcpviz(t, nil, "sweep", "--param", "d=d_([^_]+)_", "--rows", "d", "-o", svg, dir)
	if stderr != "" {
		t.Errorf("a linear axis: %q", stderr)
	}
}

// TestSweepTransferOfUDP: compare's transfer numbers of a UDP test's
// flow (bytes received by 1 s, time to the first MiB) are a sweep's
// metric as compare gives them: the runs were left out as not
// measurable.
func TestSweepTransferOfUDP(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "sweep", "sweep_100ms_fixed_udp_r1.pcap.gz")
	cmp, stderr, code := tcpviz(t, nil, "compare", "-f", "csv", "-o", filepath.Join(t.TempDir(), "c.png"), capture)
	if code != 0 {
		t.Fatalf("compare: exit %d, %s", code, stderr)
	}
	want := sweepCSV(t, cmp)[0]
	for _, m := range []string{"delivered_1s_bytes", "time_to_1MiB_within_s"} {
		out, stderr, code := tcpviz(t, nil, "sweep", "--rows", "proto", "--metric", m, "-f", "csv", capture)
		rows := sweepCSV(t, out)
		if code != 0 || len(rows) != 1 {
			t.Errorf("sweep --metric %s: exit %d, %q", m, code, stderr)
			continue
		}
		got, _ := strconv.ParseFloat(rows[0][m+"_mean"], 64)
		if w, _ := strconv.ParseFloat(want[m], 64); math.Abs(got-w) > 0.001 { // compare's table: to the ms
			t.Errorf("sweep --metric %s: %v, compare's %v", m, got, w)
		}
	}
}

// TestSweepSameFileOnce: a capture named twice, or through a symbolic
// link and its target, is one run of the sweep, and a warning says so
// (it was counted twice: n 2, sd 0).
func TestSweepSameFileOnce(t *testing.T) {
	runs, _ := filepath.Glob(filepath.Join(golden.Testdata(), "sweep", "*.pcap*"))
	if len(runs) == 0 {
		t.Fatal("no sweep captures")
	}
	link := filepath.Join(t.TempDir(), "link.pcap.gz")
	if err := os.Symlink(runs[0], link); err != nil {
		t.Fatal(err)
	}
	args := []string{"sweep", "-f", "csv", "--rows", "proto"}
	once, _, _ := tcpviz(t, nil, append(args, runs[0])...)
	for _, c := range []struct{ again, warning string }{
		{runs[0], runs[0] + " named twice: counted once"},
		{link, link + " is " + runs[0] + " again: counted once"},
	} {
		out, stderr, code := tcpviz(t, nil, append(args, runs[0], c.again)...)
		if code != 0 || out != once || stderr != "tcpviz: warning: sweep: "+c.warning+"\n" {
			t.Errorf("sweep X %s: exit %d, %q, stderr %q; want the table of X alone and %q", c.again, code, out, stderr, c.warning)
		}
	}
}
