package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/gencap"
)

// TestLargeFlightBatch: captures with more than 4096 segments in flight
// and one out of place — two-way, one-way, and across 2^32 — in a batch
// with a bundled capture: every command reads them without a panic, and
// the batch keeps every input's rows.
func TestLargeFlightBatch(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, r io.Reader) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	caps := []string{
		// The swaps come once 4096 segments are in flight.
		write("twoway.pcap", gencap.Flight(4300, 1448, 4200, true, 1000)),
		write("oneway.pcap", gencap.Flight(4200, 1448, 4150, false, 1000)),
		write("wrap.pcap", gencap.Flight(9000, 1448, 2000, true, 1<<32-3000*1448)),
		write("wrap-oneway.pcap", gencap.Flight(9000, 1448, 8000, false, 1<<32-3000*1448)),
		filepath.Join("..", "..", "testdata", "geo_short.pcap"),
	}
	stdout, stderr, code := tcpviz(t, nil, append([]string{"summary", "-j", "2", "--format", "csv"}, caps...)...)
	if code != 0 || stderr != "" {
		t.Fatalf("summary: exit %d: %s", code, stderr)
	}
	for _, c := range caps {
		if n := strings.Count(stdout, "\n"+c+","); n < 2 {
			t.Errorf("%s: %d summary rows, want 2 or more", filepath.Base(c), n)
		}
	}
	for _, args := range [][]string{{"seq"}, {"rtt"}, {"tput"}, {"window"}, {"cwnd"}, {"rtt", "--sampling", "karn"}} {
		for _, c := range caps[:4] {
			out := filepath.Join(dir, fmt.Sprintf("%s-%s.csv", filepath.Base(c), strings.Join(args, "")))
			if _, stderr, code := tcpviz(t, nil, append(args, "-o", out, c)...); code != 0 {
				t.Errorf("%s %s: exit %d: %s", strings.Join(args, " "), filepath.Base(c), code, stderr)
			}
		}
	}
	if _, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, caps[0]); code != 0 {
		t.Errorf("report: exit %d: %s", code, stderr)
	}
	if _, stderr, code := tcpviz(t, nil, "compare", "-o", filepath.Join(dir, "c.png"), caps[0], caps[2]); code != 0 {
		t.Errorf("compare: exit %d: %s", code, stderr)
	}
}

// TestForEachInputRecovers: a worker that panics fails its own input
// with a one-line error naming it; the others' results are emitted.
func TestForEachInputRecovers(t *testing.T) {
	ins := []input{{name: "a.pcap", path: "a.pcap"}, {name: "b.pcap", path: "b.pcap"}, {name: "c.pcap", path: "c.pcap"}}
	got := make([]fileResult, len(ins))
	forEachInput(ins, 2, func(i int, in input) fileResult {
		if i == 1 {
			var s []int
			_ = s[i] // index out of range
		}
		return fileResult{lines: []string{in.path}}
	}, func(i int, _ input, r fileResult) { got[i] = r })
	for _, i := range []int{0, 2} {
		if got[i].err != nil || len(got[i].lines) != 1 {
			t.Errorf("input %d: %+v", i, got[i])
		}
	}
	if err := got[1].err; err == nil || !strings.HasPrefix(err.Error(), "b.pcap: internal error: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("panicking input: %v", err)
	}
}

// TestUnsupportedLinkTypeNamed: packets of a link type tcpviz does not
// decode are said, with the link type's number, not passed over.
func TestUnsupportedLinkTypeNamed(t *testing.T) {
	data := gencap.Tunnels()[0].Capture()
	data[20], data[21], data[22], data[23] = 147, 0, 0, 0 // LINKTYPE_USER0
	p := filepath.Join(t.TempDir(), "user0.pcap")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, _ := tcpviz(t, nil, "summary", p)
	if !strings.Contains(stderr, "packet 1: unsupported link type 147; 38 packets skipped") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestCompareSharesSummaryColumns: the columns compare's table takes
// from the summary are the summary's, value for value, in JSON and CSV
// (with --align syn, time 0 is the connection's first packet, as the
// summary's slow_start_end_s counts).
func TestCompareSharesSummaryColumns(t *testing.T) {
	capture := filepath.Join("..", "..", "testdata", "geo_short.pcap")
	shared := map[string]string{"mean_throughput_bps": "throughput_bps", "rtt_median_ms": "rtt_median_ms", "retrans_packets": "retrans_packets",
		"slow_start_end_s": "slow_start_end_s", "slow_start_rounds": "slow_start_rounds", "slow_start_flight_bytes": "slow_start_flight_bytes",
		"slow_start_end_reason": "slow_start_end_reason", "nearby_peer": "nearby_peer"}
	for _, format := range []string{"json", "csv"} {
		cmp, stderr, code := tcpviz(t, nil, "compare", "--align", "syn", "--format", format, "-o", filepath.Join(t.TempDir(), "c.png"), capture, capture)
		if code != 0 {
			t.Fatalf("compare: %s", stderr)
		}
		sum, stderr, code := tcpviz(t, nil, "summary", "--format", format, capture)
		if code != 0 {
			t.Fatalf("summary: %s", stderr)
		}
		c := rowsOf(t, format, cmp)[0]
		var s map[string]string
		for _, r := range rowsOf(t, format, sum) {
			if r["stream"] == c["stream"] && r["direction"] == c["direction"] {
				s = r
			}
		}
		if s == nil {
			t.Fatalf("%s: no summary row of stream %s %s", format, c["stream"], c["direction"])
		}
		for cc, sc := range shared {
			if c[cc] != s[sc] {
				t.Errorf("%s: compare's %s = %q, summary's %s = %q", format, cc, c[cc], sc, s[sc])
			}
		}
	}
}

// rowsOf reads CSV, or a JSON array of objects, as maps of each value's
// text (JSON values as they are written).
func rowsOf(t *testing.T, format, out string) []map[string]string {
	t.Helper()
	var rows []map[string]string
	if format == "json" {
		var raw []map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &raw); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, r := range raw {
			m := map[string]string{}
			for k, v := range r {
				m[k] = string(v)
			}
			rows = append(rows, m)
		}
		return rows
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, k := range recs[0] {
			m[k] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}
