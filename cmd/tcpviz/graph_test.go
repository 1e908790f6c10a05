package main

import (
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

const bundled = "../../testdata/geo_short.pcap"

// parseNS turns "123.456" seconds into nanoseconds, exactly.
func parseNS(t *testing.T, s string) int64 {
	t.Helper()
	sec, frac, _ := strings.Cut(s, ".")
	frac = (frac + "000000000")[:9]
	a, err1 := strconv.ParseInt(sec, 10, 64)
	b, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad seconds %q", s)
	}
	return a*1e9 + b
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSeqCSVMatchesTshark checks, for the main connection of every lab
// capture and every bundled one, that the tcptrace graph's CSV holds one row per data segment
// with the frame number, the time from the connection's first packet and
// the relative sequence number tshark gives, plus ACK and window rows (and
// SACK rows when the receiver sent SACK blocks).
func TestSeqCSVMatchesTshark(t *testing.T) {
	var cases golden.Cases
	defer cases.Check(t, 4)
	files, err := filepath.Glob(filepath.Join(golden.Dir(), "lab__*.tsv.gz"))
	bundled, _ := filepath.Glob(filepath.Join(golden.Dir(), "testdata__*.tsv.gz"))
	files = append(files, bundled...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no lab golden files in %s (%v)", golden.Dir(), err)
	}
	for _, path := range files {
		g, err := golden.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(g.Name, func(t *testing.T) {
			cases.Need(t, g.Capture)
			if u, ok := golden.Unread[g.Name]; ok {
				t.Skipf("not read as tshark reads it yet (the stream test bounds it): %s", u.Why)
			}
			frames := g.Frames()
			// The main connection: the most payload; the first of equals.
			bytes := map[int64]int64{}
			for _, f := range frames {
				bytes[f.Int("stream")] += f.Int("len")
			}
			main := int64(-1)
			for s, b := range bytes {
				if main < 0 || b > bytes[main] || b == bytes[main] && s < main {
					main = s
				}
			}
			bySender := map[string]int64{}
			first := int64(-1)
			for _, f := range frames {
				if f.Int("stream") != main {
					continue
				}
				if first < 0 {
					first = parseNS(t, f.Str("time_epoch"))
				}
				bySender[f.Str("src")+"|"+f.Str("srcport")] += f.Int("len")
			}
			sender, most := "", int64(-1)
			for s, b := range bySender {
				if b > most {
					sender, most = s, b
				}
			}
			out := filepath.Join(t.TempDir(), "seq.csv")
			// The TCP connection tshark is compared on (a UDP test's capture
			// draws its UDP flow by default).
			if _, stderr, code := tcpviz(t, nil, "seq", "--proto", "tcp", "-o", out, g.Capture); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rows := readCSV(t, out)
			if got := strings.Join(rows[0], ","); got != "frame,time_s,series,seq,seq_end" {
				t.Fatalf("header %q", got)
			}
			type seg struct{ time, seq int64 }
			got := map[int64]seg{}
			count := map[string]int{}
			for _, r := range rows[1:] {
				count[r[2]]++
				switch r[2] {
				case "data", "retransmission", "out-of-order", "spurious-retransmission":
				default:
					continue
				}
				fr, _ := strconv.ParseInt(r[0], 10, 64)
				seq, _ := strconv.ParseInt(r[3], 10, 64)
				if _, dup := got[fr]; dup {
					t.Errorf("frame %d: two data rows", fr)
				}
				got[fr] = seg{parseNS(t, r[1]), seq}
			}
			want, sacks := 0, 0
			for _, f := range frames {
				if f.Int("stream") != main {
					continue
				}
				if f.Str("src")+"|"+f.Str("srcport") != sender {
					if completeSACK(f.Str("sack")) {
						sacks++
					}
					continue
				}
				if f.Int("len") == 0 {
					continue
				}
				want++
				fr := f.Int("frame")
				s, ok := got[fr]
				if !ok {
					if want-len(got) < 5 {
						t.Errorf("frame %d: data segment missing from the CSV", fr)
					}
					continue
				}
				if s.seq != f.Int("seq") {
					t.Errorf("frame %d: seq %d, tshark %d", fr, s.seq, f.Int("seq"))
				}
				if wt := parseNS(t, f.Str("time_epoch")) - first; s.time != wt {
					t.Errorf("frame %d: time_s %d ns, tshark %d ns", fr, s.time, wt)
				}
			}
			if len(got) != want {
				t.Errorf("%d data rows, tshark has %d data segments", len(got), want)
			}
			if count["ack"] == 0 || count["window"] == 0 {
				t.Errorf("no ACK or window rows: %v", count)
			}
			if sacks > 0 && count["sack"]+count["dsack"] == 0 {
				t.Errorf("receiver sent %d packets with SACK blocks, no sack rows: %v", sacks, count)
			}
		})
	}
}

// completeSACK reports whether a golden sack cell holds a block with both
// edges (a header-only capture can cut the option after a left edge).
func completeSACK(cell string) bool {
	for _, b := range strings.Split(cell, ",") {
		if l, r, ok := strings.Cut(b, "-"); ok && l != "" && r != "" {
			return true
		}
	}
	return false
}

// TestGraphCommandsWritePNG runs every graph command without -o: each
// writes <capture>-<graph>-s<N>.png into --out-dir and prints the path;
// the PNG has the asked size and is not blank.
func TestGraphCommandsWritePNG(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		file string
	}{
		{[]string{"seq"}, "geo_short-seq-s1.png"},
		{[]string{"seq", "--style", "stevens"}, "geo_short-stevens-s1.png"},
		{[]string{"tput", "--segments", "10"}, "geo_short-tput-s1.png"},
		{[]string{"rtt", "--sampling", "timestamps", "--by", "seq"}, "geo_short-rtt-timestamps-s1.png"},
		{[]string{"window"}, "geo_short-window-s1.png"},
	} {
		args := append(tc.args, "--out-dir", dir, "--width", "500", "--height", "300", bundled)
		stdout, stderr, code := tcpviz(t, nil, args...)
		want := filepath.Join(dir, tc.file)
		if code != 0 || strings.TrimSpace(stdout) != want {
			t.Errorf("%v: exit %d, stdout %q (want %q), stderr %q", tc.args, code, stdout, want, stderr)
			continue
		}
		f, err := os.Open(want)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if b := img.Bounds(); b.Dx() != 500 || b.Dy() != 300 {
			t.Errorf("%s: size %v", want, b)
		}
		colours := map[uint32]bool{}
		for y := 0; y < 300; y += 2 {
			for x := 0; x < 500; x += 2 {
				r, g, b, _ := img.At(x, y).RGBA()
				colours[(r>>8)<<16|(g>>8)<<8|b>>8] = true
			}
		}
		if len(colours) < 10 {
			t.Errorf("%s: only %d colours: blank?", want, len(colours))
		}
	}
}

// TestGraphOutputs covers -o by extension, CSV on stdout, JSON, stdin,
// stream and direction choice, and the errors.
func TestGraphOutputs(t *testing.T) {
	dir := t.TempDir()
	capture, err := os.ReadFile(bundled)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"svg", "pdf", "json"} {
		out := filepath.Join(dir, "g."+ext)
		if stdout, stderr, code := tcpviz(t, nil, "window", "-o", out, bundled); code != 0 || strings.TrimSpace(stdout) != out {
			t.Fatalf("-o %s: exit %d, %q %q", out, code, stdout, stderr)
		}
		data, _ := os.ReadFile(out)
		switch ext {
		case "svg":
			if !strings.HasPrefix(string(data), "<?xml") || !strings.Contains(string(data), "<svg") {
				t.Errorf("not an SVG")
			}
		case "pdf":
			if !strings.HasPrefix(string(data), "%PDF") {
				t.Errorf("not a PDF")
			}
		case "json":
			var v []map[string]any
			if err := json.Unmarshal(data, &v); err != nil || len(v) == 0 {
				t.Errorf("JSON: %v, %d points", err, len(v))
			}
		}
	}
	// CSV on stdout, from stdin: the same as from the file.
	fromFile, _, code := tcpviz(t, nil, "tput", "-o", "-", bundled)
	fromStdin, stderr, code2 := tcpviz(t, capture, "tput", "-o", "-", "-")
	if code != 0 || code2 != 0 || fromFile != fromStdin || !strings.HasPrefix(fromFile, "frame,time_s,series,bps\n") {
		t.Errorf("stdin CSV differs or failed: %d %d %q %.100q", code, code2, stderr, fromStdin)
	}
	// Stream 0 is the control connection; its main direction is c2s.
	out, _, code := tcpviz(t, nil, "seq", "-s", "0", "-o", "-", bundled)
	if code != 0 || !strings.Contains(out, ",data,") {
		t.Errorf("stream 0: exit %d", code)
	}
	// The other direction of the bulk connection carries no data.
	out, _, _ = tcpviz(t, nil, "seq", "--direction", "s2c", "-o", "-", bundled)
	if strings.Contains(out, ",data,") {
		t.Errorf("s2c has data rows")
	}
	// Zoom: every data row inside the windows.
	out, _, _ = tcpviz(t, nil, "seq", "--from", "3", "--to", "4", "--seq-from", "100000", "--seq-to", "200000", "-o", "-", bundled)
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		c := strings.Split(line, ",")
		ts, _ := strconv.ParseFloat(c[1], 64)
		if ts < 3 || ts > 4 {
			t.Fatalf("row outside the time window: %s", line)
		}
		if c[2] == "data" {
			n++
		}
	}
	if n == 0 {
		t.Errorf("zoom kept no data rows")
	}
	disguised := filepath.Join(dir, "capture.png")
	if err := os.WriteFile(disguised, capture, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"seq", "--style", "xplot", bundled}, 2, "--style"},
		{[]string{"seq", "--direction", "up", bundled}, 2, "--direction"},
		{[]string{"seq", "-o", "x.gif", bundled}, 2, "unknown output format"},
		{[]string{"seq", "-o", filepath.Join(dir, "a.png"), bundled, bundled}, 2, "--out-dir"},
		{[]string{"seq", "--from", "5", "--to", "1", bundled}, 2, "--from"},
		{[]string{"rtt", "--sampling", "guess", bundled}, 2, "sampling"},
		{[]string{"tput", "--segments", "1", bundled}, 2, "--segments"},
		{[]string{"seq", "-s", "9", "-o", "-", bundled}, 1, "no stream 9"},
		{[]string{"seq", "-o", disguised, disguised}, 2, "refusing to overwrite an input"},
		{[]string{"seq"}, 2, "no input"},
	} {
		_, stderr, code := tcpviz(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

// TestGraphSeveralInputs writes one file per input into --out-dir.
func TestGraphSeveralInputs(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "rtt", "--out-dir", dir, bundled, "../../testdata/geo_pep_short.pcap")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 2 || filepath.Base(lines[1]) != "geo_pep_short-rtt-s1.png" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, l := range lines {
		if _, err := os.Stat(l); err != nil {
			t.Error(err)
		}
	}
}

// TestCwndCommand: the cwnd graph of the bundled lossy capture (sender
// side) has estimates and a loss mark for each loss episode the summary
// counted, an ssthresh point at each and one closing the last at the
// last send; a receiver-side capture draws with a warning.
func TestCwndCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cwnd.csv")
	_, stderr, code := tcpviz(t, nil, "cwnd", "-o", out, "../../testdata/lossy_sll2.pcap")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	count := map[string]int{}
	for _, r := range readCSV(t, out)[1:] {
		count[r[2]]++
	}
	if count["cwnd-estimate"] < 10 || count["loss-fast-retransmit"]+count["loss-timeout"] == 0 || count["ssthresh-estimate"] != count["loss-fast-retransmit"]+count["loss-timeout"]+1 {
		t.Errorf("series %v", count)
	}
	rx := "../../../shared/captures/truth/gt_vsat_reno_loss.rx.pcap"
	if _, err := os.Stat(rx); err != nil {
		t.Skip(err)
	}
	_, stderr, code = tcpviz(t, nil, "cwnd", "-o", filepath.Join(t.TempDir(), "rx.png"), rx)
	if code != 0 || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "at the receiver") {
		t.Errorf("exit %d, stderr %q: want a warning that the capture is at the receiver", code, stderr)
	}
}

// TestGraphsOfStreamsOfOneCapture: CAPTURE#0 and CAPTURE#1 of one
// capture are two graphs, <base>-seq-s0.png and <base>-seq-s1.png (it
// was refused: "would write the same output names"); the capture
// beside its own #1 (whose busiest may be stream 1), or one stream
// twice, is still refused, as a report of two streams of one capture
// (one folder) is.
func TestGraphsOfStreamsOfOneCapture(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "seq", "--out-dir", dir, demoCapture+"#0", demoCapture+"#1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"geo_short-seq-s0.png", "geo_short-seq-s1.png"} {
		if !strings.Contains(stdout, name) {
			t.Errorf("%s not written: %q", name, stdout)
		}
	}
	for _, args := range [][]string{
		{"seq", "--out-dir", dir, demoCapture, demoCapture + "#1"},
		{"seq", "--out-dir", dir, demoCapture + "#1", demoCapture + "#1"},
		{"report", "--out-dir", dir, demoCapture + "#0", demoCapture + "#1"},
	} {
		if _, stderr, code := tcpviz(t, nil, args...); code != 2 || !strings.Contains(stderr, "would write the same output names") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, stderr)
		}
	}
	// The refusal names the inputs as given: it said "geo_short.pcap
	// and geo_short.pcap" of a report's #0 and #1.
	_, stderr, _ = tcpviz(t, nil, "report", "--out-dir", dir, demoCapture+"#0", demoCapture+"#1")
	if !strings.Contains(stderr, "geo_short.pcap#0 and ") || !strings.Contains(stderr, "geo_short.pcap#1 would write") {
		t.Errorf("report of #0 and #1: %q; want both named with their stream", stderr)
	}
}
