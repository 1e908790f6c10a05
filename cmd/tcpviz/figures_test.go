package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

const pepShort = "../../testdata/geo_pep_short.pcap"

// table reads CSV text into rows by column name.
func table(t *testing.T, text string) []map[string]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) < 1 {
		t.Fatalf("CSV: %v\n%s", err, text)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, c := range rows[0] {
			m[c] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func float(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

// run1 runs tcpviz in a temporary directory and wants exit code.
func run1(t *testing.T, code int, args ...string) (string, string) {
	t.Helper()
	t.Chdir(t.TempDir())
	stdout, stderr, got := tcpviz(t, nil, args...)
	if got != code {
		t.Fatalf("%q: exit %d, want %d: %s", args, got, code, stderr)
	}
	return stdout, stderr
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestYAxisFlags: --y-min/--y-max bound the axis (points beyond drawn on
// the edge and counted in the legend), --log-y labels decades, and bad
// combinations are usage errors.
func TestYAxisFlags(t *testing.T) {
	capture := abs(t, demoCapture)
	svg := func(args ...string) string {
		run1(t, 0, append(append([]string{"rtt", "-o", "x.svg"}, args...), capture)...)
		b, err := os.ReadFile("x.svg")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := svg("--y-max", "605"); !strings.Contains(s, "above the y axis (up to 613") {
		t.Errorf("--y-max 605: no clipped samples up to 613 ms in the legend")
	}
	if s := svg("--y-min", "604", "--y-max", "0.9k"); !strings.Contains(s, "below it (down to 602") || !strings.Contains(s, ">900<") {
		t.Errorf("--y-min 604 --y-max 0.9k: no samples below, or no 900 tick")
	}
	// Up to 2 s the axis is in seconds.
	if s := svg("--y-max", "2k"); !strings.Contains(s, "round-trip time, ack samples (s)") || !strings.Contains(s, ">1.6<") {
		t.Errorf("--y-max 2k: axis not in seconds")
	}
	if s := svg("--log-y", "--y-min", "1", "--y-max", "500"); !strings.Contains(s, ">10<") || !strings.Contains(s, ">100<") {
		t.Errorf("--log-y: no decade labels")
	}
	for _, args := range [][]string{
		{"rtt", "--y-min", "5", "--y-max", "5", capture},
		{"rtt", "--log-y", "--y-min", "0", capture},
		{"compare", "--y-max", "-1", "--y-min", "3", capture},
	} {
		_, stderr, code := tcpviz(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, "--y-") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"seq", "--font-size", "3", capture}, {"tput", "--font-size", "41", capture},
		{"rtt", "--line-width", "0", capture}, {"sweep", "--line-width", "21", capture}, {"seq", "--theme", "dark", capture},
	} {
		_, stderr, code := tcpviz(t, nil, args...)
		if code != 2 || !strings.Contains(stderr, args[1]) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestHide: hidden series are neither drawn nor exported; an unknown name
// lists the graph's series; hiding them all is refused.
func TestHide(t *testing.T) {
	capture, pep := abs(t, demoCapture), abs(t, pepShort)
	out, _ := run1(t, 0, "seq", "--hide", "ack,window", "--hide", "syn", "-o", "-", capture)
	for _, row := range table(t, out) {
		if s := row["series"]; s == "ack" || s == "window" || s == "syn" {
			t.Fatalf("hidden series %s exported", s)
		}
	}
	if !strings.Contains(out, ",data,") {
		t.Errorf("data series gone too")
	}
	_, stderr, code := tcpviz(t, nil, "tput", "--hide", "goodputt", capture)
	if code != 2 || !strings.Contains(stderr, `--hide "goodputt": no such series in this graph (want throughput, goodput or delivery-rate)`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	// Hiding every series leaves nothing to draw: a usage error, not an
	// empty picture.
	_, stderr, code = tcpviz(t, nil, "window", "--hide", "bytes-in-flight,receive-window", "--hide", "bytes-in-flight-unsacked", capture)
	if code != 2 || !strings.Contains(stderr, "--hide: every series of this graph hidden (bytes-in-flight, bytes-in-flight-unsacked, receive-window): nothing left to draw") {
		t.Errorf("every series hidden: exit %d, stderr %q", code, stderr)
	}
	// Hiding every series this connection has (the demo capture has no
	// SACK: no bytes-in-flight-unsacked) leaves nothing: a failure of
	// the input, not an empty picture.
	stdout, stderr, code := tcpviz(t, nil, "window", "--hide", "bytes-in-flight,receive-window", "-o", "-", capture)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "every series drawn here is hidden (bytes-in-flight, receive-window): nothing left to draw") {
		t.Errorf("every series of the connection hidden: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// compare's series are its inputs' labels.
	out, _ = run1(t, 0, "compare", "--label", "a", "--label", "b", "--hide", "a", "-o", "-", capture, pep)
	if strings.Contains(out, ",a,") || !strings.Contains(out, ",b,") {
		t.Errorf("compare --hide a:\n%.300s", out)
	}
}

// TestThroughputWindowFlags: the 1 s default on a 600 ms path warns;
// --window 4rtt does not, and --bins draws fixed steps of its width.
func TestThroughputWindowFlags(t *testing.T) {
	capture := abs(t, demoCapture)
	_, stderr := run1(t, 0, "tput", "-o", "x.csv", capture)
	if !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "shorter than four median RTTs (4 × 603.9 ms)") {
		t.Errorf("default window: stderr %q", stderr)
	}
	_, stderr = run1(t, 0, "tput", "--window", "4rtt", "-o", "x.csv", capture)
	if stderr != "" {
		t.Errorf("--window 4rtt: stderr %q", stderr)
	}
	out, stderr := run1(t, 0, "tput", "--window", "rtt", "--bins", "-o", "-", capture)
	if stderr != "" {
		t.Errorf("--window rtt --bins: stderr %q", stderr)
	}
	var prev float64 = -1
	for _, row := range table(t, out) {
		if row["series"] != "throughput" {
			continue
		}
		at := float(t, row["time_s"])
		if prev >= 0 && (at-prev < 0.6038 || at-prev > 0.6040) {
			t.Fatalf("bins %v and %v: want one median RTT (603.9 ms) apart", prev, at)
		}
		prev = at
	}
	if prev < 0 {
		t.Fatalf("no bins")
	}
	_, stderr = run1(t, 0, "tput", "--bins", "--window", "3s", "-o", "x.png", capture)
	if stderr != "" {
		t.Errorf("--bins --window 3s: stderr %q", stderr)
	}
	_, stderr, code := tcpviz(t, nil, "tput", "--bins", "--segments", "5", capture)
	if code != 2 || !strings.Contains(stderr, "--segments excludes --window and --bins") {
		t.Errorf("--bins --segments: exit %d %q", code, stderr)
	}
}

// TestCompareFlags: --align, --at, --to-bytes, --label, the graphs from
// the registry, and the single-graph flags.
func TestCompareFlags(t *testing.T) {
	a, b := abs(t, demoCapture), abs(t, pepShort)
	out, stderr := run1(t, 0, "compare", "--at", "1s,500ms", "--at", "3s", "--to-bytes", "100KB,1MiB", "--label", "no PEP", "--label", "PEP", "-o", "c.svg", a, b)
	rows := table(t, out)
	if len(rows) != 2 || rows[0]["label"] != "no PEP" || rows[1]["label"] != "PEP" || rows[0]["input"] != "geo_short.pcap" {
		t.Fatalf("rows %v", rows)
	}
	for _, col := range []string{"delivered_1s_bytes", "delivered_500ms_bytes", "delivered_3s_bytes", "time_to_100KB_within_s", "time_to_1MiB_within_s"} {
		if _, ok := rows[0][col]; !ok {
			t.Errorf("no column %s", col)
		}
	}
	if _, ok := rows[0]["delivered_5s_bytes"]; ok {
		t.Errorf("default columns kept with --at")
	}
	// The first data byte: the first flight of 10 segments (and the
	// cookie) is acknowledged within 1 s of it; the proxy acknowledges
	// far more.
	if got := rows[0]["delivered_1s_bytes"]; got != "14517" {
		t.Errorf("no PEP, 1 s after the first data byte: %s bytes, want 14517 (cookie + 10 segments)", got)
	}
	if rows[0]["nearby_peer"] != "false" || rows[1]["nearby_peer"] != "true" || !strings.Contains(stderr, "PEP") && !strings.Contains(stderr, "geo_pep_short.pcap: the receiver answers within a millisecond") {
		t.Errorf("nearby peer: %s %s, stderr %q", rows[0]["nearby_peer"], rows[1]["nearby_peer"], stderr)
	}
	// --align syn: 1 s after the SYN, nothing but the cookie.
	out, _ = run1(t, 0, "compare", "--align", "syn", "--at", "1s", "-o", "c.svg", a)
	if got := table(t, out)[0]["delivered_1s_bytes"]; got != "0" && got != "37" {
		t.Errorf("--align syn: %s bytes at 1 s", got)
	}
	// Every graph, as points: one series per input, named by its label.
	for _, g := range []string{"delivered", "tput", "rtt", "window", "cwnd", "seq"} {
		out, _ := run1(t, 0, "compare", "--graph", g, "--label", "x", "-o", "-", a)
		if !strings.Contains(out, ",x,") {
			t.Errorf("--graph %s: series not named by --label:\n%.200s", g, out)
		}
	}
	// --from/--to are from time 0; --sampling and --window reach the graph.
	out, _ = run1(t, 0, "compare", "--graph", "rtt", "--sampling", "timestamps", "--from", "0.5", "--to", "2", "-o", "-", a)
	if !strings.HasPrefix(out, "frame,time_s,series,rtt_ms,seq,ack_frame\n") {
		t.Errorf("rtt columns:\n%.100s", out)
	}
	for _, row := range table(t, out) {
		if s := float(t, row["time_s"]); s < 0.5 || s > 2 {
			t.Fatalf("point at %v s outside --from 0.5 --to 2", s)
		}
	}
	_, stderr = run1(t, 0, "compare", "--graph", "tput", "-o", "c.svg", a)
	if !strings.Contains(stderr, "four median RTTs") {
		t.Errorf("compare tput 1 s on a GEO path: no warning: %q", stderr)
	}
	_, stderr = run1(t, 0, "compare", "--graph", "tput", "--window", "4rtt", "-o", "c.svg", a)
	if strings.Contains(stderr, "warning") {
		t.Errorf("compare --window 4rtt: %q", stderr)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--label", "one", a, b}, "--label: 1 label for 2 inputs"},
		{[]string{"--align", "first", a}, "--align"},
		{[]string{"--at", "0", a}, "--at"},
		{[]string{"--to-bytes", "1XB", a}, "--to-bytes"},
	} {
		_, stderr, code := tcpviz(t, nil, append([]string{"compare"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q", tt.args, code, stderr)
		}
	}
}

// TestComparePEPRatio: on the lab's GEO captures (85 KB windows), 1 s
// after the first data byte the proxy has acknowledged hundreds of times
// what the far end acknowledged without it.
func TestComparePEPRatio(t *testing.T) {
	lab := filepath.Join(golden.SharedCaptures(), "lab")
	nopep, pep := filepath.Join(lab, "geo_nopep_85k.pcap"), filepath.Join(lab, "geo_pep_85k.pcap")
	if _, err := os.Stat(pep); err != nil {
		t.Skip(err)
	}
	out, _ := run1(t, 0, "compare", "--align", "first-data", "--at", "1s", "-o", "c.svg", nopep, pep)
	rows := table(t, out)
	n, p := float(t, rows[0]["delivered_1s_bytes"]), float(t, rows[1]["delivered_1s_bytes"])
	if n != 14517 || p/n < 300 || p/n > 600 {
		t.Errorf("delivered 1 s after the first data byte: %v without the proxy, %v with it (ratio %.0f)", n, p, p/n)
	}
}

// TestFacet: compare --facet draws one panel per input, titled by its
// label, every panel on the scale of the whole (the same y ticks).
func TestFacet(t *testing.T) {
	var ins []string
	for _, rtt := range []string{"10", "50", "100"} {
		ins = append(ins, filepath.Join(golden.Testdata(), "sweep", "sweep_"+rtt+"ms_fixed_tcp_r1.pcap.gz"))
	}
	svg := filepath.Join(t.TempDir(), "f.svg")
	args := append([]string{"compare", "--graph", "tput", "--facet", "-o", svg, "--label", "10 ms", "--label", "50 ms", "--label", "100 ms"}, ins...)
	if _, stderr, code := tcpviz(t, nil, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(svg)
	s := string(b)
	for _, l := range []string{">10 ms<", ">50 ms<", ">100 ms<", "Goodput — 10 ms vs 50 ms vs 100 ms"} {
		if !strings.Contains(s, l) {
			t.Errorf("the figure lacks %s", l)
		}
	}
	if n := strings.Count(s, ">throughput (Mbit/s)<"); n != 3 {
		t.Errorf("%d y axes, want a panel per input", n)
	}
	// One scale: every panel has the same y tick labels, as many of each.
	for _, tick := range []string{">0<", ">2<", ">4<"} {
		if n := strings.Count(s, tick); n < 3 {
			t.Errorf("tick %s in %d panels", tick, n)
		}
	}
}
