package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestReportJoined: a report of A+B+C (one transfer captured at three
// points) has, besides the first capture's report, the joined section:
// the hops of the main connection with their losses, the one-way delay
// graph (in the page and as a picture) and the ladder; other commands
// refuse a joined input.
func TestReportJoined(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "truth-mid")
	parts := []string{"tx", "mid", "rx"}
	for i, p := range parts {
		parts[i] = filepath.Join(dir, "gt_mid_two_links."+p+".pcap.gz")
	}
	out := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", out, strings.Join(parts, "+"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	if filepath.Base(filepath.Dir(index)) != "gt_mid_two_links.tx+gt_mid_two_links.mid+gt_mid_two_links.rx-report" {
		t.Errorf("report folder %s", index)
	}
	page, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">joined captures<", "10 data segments lost", "5 data segments lost", `src="ladder.png"`, "join-owd.png", "One-way and queueing delay"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, f := range []string{"ladder.png", "join-owd.png", "seq.png"} {
		if st, err := os.Stat(filepath.Join(filepath.Dir(index), f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	_, stderr, code = tcpviz(t, nil, "summary", strings.Join(parts[:2], "+"))
	if code != 2 || !strings.Contains(stderr, "joined captures (A+B) are for report") {
		t.Errorf("summary A+B: exit %d, %q", code, stderr)
	}
}

// TestReportJoinedStream: A+B#N reports on stream N of A, joined with
// B, as CAPTURE#N and compare's A+B#N name a stream; it said "no such
// file or directory" of A+B#N, both files there.
func TestReportJoinedStream(t *testing.T) {
	dir := filepath.Join(golden.Testdata(), "truth-mid")
	joined := filepath.Join(dir, "gt_mid_two_links.tx.pcap.gz") + "+" + filepath.Join(dir, "gt_mid_two_links.rx.pcap.gz")
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", t.TempDir(), joined+"#0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "(stream 0, c2s)</h2>") || !strings.Contains(string(page), ">joined captures<") {
		t.Errorf("the report's main connection is not stream 0, or the joined section is missing")
	}
}

// TestJoinTableStream: -s N keeps the join table's rows of connection N
// of the first hop's first capture, as CAPTURE#N does; one absent is exit
// 1 with one line. The table ignored -s (every connection, exit 0).
func TestJoinTableStream(t *testing.T) {
	mid := filepath.Join(golden.Testdata(), "truth-mid", "gt_mid_two_links")
	tx, rx := mid+".tx.pcap.gz", mid+".rx.pcap.gz"
	bySuffix, _, _ := tcpviz(t, nil, "join", "-f", "csv", tx+"#1", rx)
	byFlag, stderr, code := tcpviz(t, nil, "join", "-f", "csv", "-s", "1", tx, rx)
	all, _, _ := tcpviz(t, nil, "join", "-f", "csv", tx, rx)
	if code != 0 || byFlag != bySuffix || byFlag == all {
		t.Errorf("join -s 1: exit %d, %q; as tx#1: %v; differs from every connection: %v", code, stderr, byFlag == bySuffix, byFlag != all)
	}
	stdout, stderr, code := tcpviz(t, nil, "join", "-s", "9", tx, rx)
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "tcpviz: -s 9: no such connection in both ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("join -s 9: exit %d, stdout %d bytes, %q", code, len(stdout), stderr)
	}
}

// TestJoinSameCaptureTwice: one capture named twice (or through a
// symbolic link) is no hop: join and ladder refuse it, naming both, before
// reading. join wrote a hop of a capture with itself (nothing lost,
// delays of 0), exit 0.
func TestJoinSameCaptureTwice(t *testing.T) {
	tx := filepath.Join(golden.Testdata(), "truth-mid", "gt_mid_two_links.tx.pcap.gz")
	link := filepath.Join(t.TempDir(), "link.pcap.gz")
	if err := os.Symlink(tx, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"join", tx, tx},
		{"join", tx + "#0", link},
		{"ladder", "-o", filepath.Join(t.TempDir(), "l.svg"), tx, link},
	} {
		stdout, stderr, code := tcpviz(t, nil, args...)
		want := "tcpviz: " + args[0] + ": " + args[len(args)-2] + " and " + args[len(args)-1] + " are one capture: name each capture point once\n"
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, %q; want 2 and %q", args, code, stderr, want)
		}
	}
}
