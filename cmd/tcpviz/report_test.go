package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tcpviz/charts"
	"tcpviz/internal/golden"
	"tcpviz/internal/udpbuild"
	"tcpviz/scripts/pcapngcraft"
)

func TestReport(t *testing.T) {
	dir := t.TempDir()
	// A capture name with HTML in it must come out escaped.
	capture := filepath.Join(t.TempDir(), "geo<script>.pcap")
	data, err := os.ReadFile(demoCapture)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(capture, data, 0o644)
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	if filepath.Dir(index) != filepath.Join(dir, "geo<script>-report") {
		t.Errorf("index %q is not in a report folder inside %s", index, dir)
	}
	html, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{"seq.png", "stevens.png", "tput.png", "rtt.png", "window.png", "summary.csv",
		"receiver-window limited", "geo&lt;script&gt;.pcap", "ended at 3.6"} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if strings.Contains(page, "geo<script>") {
		t.Errorf("capture name not escaped")
	}
	folder := filepath.Dir(index)
	for _, name := range []string{"seq.png", "window.png"} {
		f, err := os.Open(filepath.Join(folder, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 1200 {
			t.Errorf("%s: %v %v", name, err, img)
		}
	}
	sum, err := os.ReadFile(filepath.Join(folder, "summary.csv"))
	if err != nil || !strings.HasPrefix(string(sum), "file,stream,direction,src_addr") || strings.Count(string(sum), "\n") != 5 {
		t.Errorf("summary.csv (%v):\n%s", err, sum)
	}
}

// TestReportThinsAHugeConnection: a main connection of more packets than
// the report holds every point of is drawn thinned, its points are not
// written, and a warning says where to get them.
func TestReportThinsAHugeConnection(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := tcpvizWith(t, charts.ReportOptions{PointsOver: 100}, "report", "--out-dir", dir, demoCapture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	folder := filepath.Dir(strings.TrimSpace(stdout))
	csvs, _ := filepath.Glob(filepath.Join(folder, "*.csv"))
	pngs, _ := filepath.Glob(filepath.Join(folder, "*.png"))
	if len(csvs) != 2 || len(pngs) < 5 {
		t.Errorf("files %v %v: want summary.csv and streams.csv, and the pictures", csvs, pngs)
	}
	if !strings.Contains(stderr, "more than the report writes every point of (100)") || !strings.Contains(stderr, "tcpviz seq -s 1 -o FILE.csv") {
		t.Errorf("no warning: %q", stderr)
	}
	if html, err := os.ReadFile(filepath.Join(folder, "index.html")); err != nil || !strings.Contains(string(html), "seq.png") || strings.Contains(string(html), "seq.csv") {
		t.Errorf("the page links no picture, or points not written (%v)", err)
	}
}

// TestLabelCountSingular: a count of one says its noun in the singular
// in messages ("1 label"; charts' TestCountsSingular checks the report's
// facts).
func TestLabelCountSingular(t *testing.T) {
	_, stderr, code := tcpviz(t, nil, "compare", "--label", "a", demoCapture, demoCapture)
	if want := "tcpviz: --label: 1 label for 2 inputs (want one per input, in order)\n"; code != 2 || stderr != want {
		t.Errorf("compare --label: exit %d, %q; want %q", code, stderr, want)
	}
}

// TestUDPMainFlow: in an iperf3 UDP run the report's main flow is the UDP
// test (its graphs those a UDP flow has, its legends what reached the
// capture point, iperf3's loss among its numbers), not the TCP control
// connection, which stays among the others; the graphs of ACKs refuse a
// UDP main flow by name, and --proto tcp draws the control connection's.
func TestUDPMainFlow(t *testing.T) {
	capture := filepath.Join(golden.Testdata(), "sweep", "sweep_10ms_fixed_udp_r1.pcap.gz")
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, want := range []string{"UDP flow 0</button>", "stream 0</button>", "(UDP flow 0)", "received (reached the capture point)", "iperf3&#39;s loss", "tput.png"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, f := range []string{"tput.png", "seq.png", "summary.csv"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(strings.TrimSpace(stdout)), f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(strings.TrimSpace(stdout)), "rtt.png")); err == nil {
		t.Error("an RTT graph of a UDP flow")
	}
	for _, g := range []string{"rtt", "window", "cwnd"} {
		_, stderr, code := tcpviz(t, nil, g, "-o", filepath.Join(dir, g+".png"), capture)
		if code != 1 || !strings.Contains(stderr, "UDP flow 0") || !strings.Contains(stderr, "no ACKs") || !strings.Contains(stderr, "--proto tcp") {
			t.Errorf("%s of a UDP main flow: exit %d, %q", g, code, stderr)
		}
		if _, _, code := tcpviz(t, nil, g, "--proto", "tcp", "-o", filepath.Join(dir, g+".png"), capture); code != 0 {
			t.Errorf("%s --proto tcp: exit %d", g, code)
		}
	}
}

// TestReportTableBudget: the page's table lists the busiest connections
// only (reportTableConns), says so, and keeps the rows of those with
// graphs; summary.csv and streams.csv hold every connection.
func TestReportTableBudget(t *testing.T) {
	var f pcapngcraft.File
	f.Section(false)
	f.Interface(pcapngcraft.LinkEthernet, 0)
	var pkts []pcapngcraft.Packet
	for i := range 8 {
		pkts = append(pkts, (pcapngcraft.Transfer{Start: 1_700_000_000e9 + int64(i)*1e9, RTT: 40e6, Gap: 1e6, Segments: 2 + 3*((i*5)%8), MSS: 1000,
			Client: [4]byte{10, 1, 0, 1}, Server: [4]byte{10, 2, 0, 2}, CPort: uint16(1000 + i), SPort: 80}).Packets()...)
	}
	for _, p := range pkts {
		fr, w := pcapngcraft.Frame(pcapngcraft.LinkEthernet, p)
		f.EPB(0, pcapngcraft.Ticks(p.Time, 6), w, fr)
	}
	capture := filepath.Join(t.TempDir(), "many.pcapng")
	if err := os.WriteFile(capture, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stdout, stderr, code := tcpvizWith(t, charts.ReportOptions{TableConns: 3}, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	html, _ := os.ReadFile(strings.TrimSpace(stdout))
	page := string(html)
	if !strings.Contains(page, "lists the 3 busiest of the capture's 8 connections") {
		t.Errorf("the page does not say what its table left out: %s", page[strings.Index(page, "Every connection"):][:600])
	}
	body := page[strings.Index(page, `<table id="summary">`):]
	body = body[:strings.Index(body, "</table>")]
	if n := strings.Count(body, "<tr") - 1; n != 6 {
		t.Errorf("%d rows in the page's table, want the 3 busiest × 2 directions", n)
	}
	// The busiest (the main connection, graphed) is among them: stream 1
	// (i = 1: 2+3×5 segments, the most).
	if !strings.Contains(body, `data-conn="0"`) {
		t.Errorf("the main connection's rows are not in the table")
	}
	sum, _ := os.ReadFile(filepath.Join(filepath.Dir(strings.TrimSpace(stdout)), "summary.csv"))
	if n := strings.Count(string(sum), "\n"); n != 17 {
		t.Errorf("summary.csv has %d lines, want a header and 16 rows", n)
	}
	streams, _ := os.ReadFile(filepath.Join(filepath.Dir(strings.TrimSpace(stdout)), "streams.csv"))
	if n := strings.Count(string(streams), "\n"); n != 9 {
		t.Errorf("streams.csv has %d lines, want a header and 8 rows", n)
	}
}

// TestReportUDPOnly: a capture of UDP alone is reported on its busiest
// UDP flow, as seq and tput draw it (the loader gave up at "no TCP
// connection"; noticed by the tester).
func TestReportUDPOnly(t *testing.T) {
	var frames []udpbuild.Frame
	for i := range 200 {
		d := udpbuild.Datagram{Src: mustAddrPort("10.0.0.1:4000"), Dst: mustAddrPort("10.0.0.2:5201"), ID: uint32(i),
			Payload: udpbuild.Iperf3(time.Duration(i)*time.Millisecond, uint32(i+1), 1200)}
		frames = append(frames, udpbuild.Frame{T: time.Duration(i) * time.Millisecond, Data: d.Packet()})
	}
	capture := filepath.Join(t.TempDir(), "udp_only.pcap")
	writeFile(t, capture, udpbuild.Pcap(frames))
	dir := t.TempDir()
	out, errs, code := tcpviz(t, nil, "report", "--out-dir", dir, capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasSuffix(strings.TrimSpace(out), filepath.Join("udp_only-report", "index.html")) {
		t.Errorf("stdout %q, want the index's path", out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "udp_only-report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "UDP flow 0") {
		t.Error("the page names no UDP flow")
	}
	for _, f := range []string{"seq.png", "tput.png", "seq.csv"} {
		if _, err := os.Stat(filepath.Join(dir, "udp_only-report", f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestReportAgainRemovesStale: a report made again into a folder leaves
// there exactly the files it writes (as into an empty folder), plus what
// the user put there: the first run's graphs of the TCP connection (-s 0)
// go when the second reports the capture's busiest flow, UDP. A list
// naming a file outside the folder, or through a symbolic link, removes
// nothing there. The first run's files stayed.
func TestReportAgainRemovesStale(t *testing.T) {
	const capture = "../../testdata/udp/udp_short.pcap"
	files := func(dir string) []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return nil
		})
		slices.Sort(out)
		return out
	}
	report := func(dir string, args ...string) string {
		stdout, stderr, code := tcpviz(t, nil, append([]string{"report", "--out-dir", dir}, append(args, capture)...)...)
		if code != 0 {
			t.Fatalf("report %v: exit %d: %s", args, code, stderr)
		}
		return filepath.Dir(strings.TrimSpace(stdout))
	}
	fresh := files(report(t.TempDir()))
	dir := t.TempDir()
	folder := report(dir, "-s", "0")
	first := files(folder)
	if list, _ := os.ReadFile(filepath.Join(folder, ".tcpviz-report")); !slices.IsSorted(strings.Fields(string(list))) {
		t.Errorf(".tcpviz-report lists its files in the order they were finished, another at each run, not by name:\n%s", list)
	}
	if slices.Equal(first, fresh) {
		t.Fatalf("the reports of stream 0 and of the busiest flow write the same files: %v", first)
	}
	// The user's files, and a list naming files it must not remove.
	outside := filepath.Join(dir, "victim.txt")
	linked := t.TempDir()
	writeFile(t, outside, []byte("mine"))
	writeFile(t, filepath.Join(linked, "rtt.png"), []byte("mine"))
	if err := os.Symlink(linked, filepath.Join(folder, "link")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(folder, "notes.txt"), []byte("mine"))
	list, _ := os.ReadFile(filepath.Join(folder, ".tcpviz-report"))
	writeFile(t, filepath.Join(folder, ".tcpviz-report"), append(list, "../victim.txt\nlink/rtt.png\n"+outside+"\n"...))
	report(dir)
	want := append(fresh, "link", "notes.txt")
	slices.Sort(want)
	if got := files(folder); !slices.Equal(got, want) {
		t.Errorf("after a second report the folder holds\n%v\nwant\n%v", got, want)
	}
	for _, f := range []string{outside, filepath.Join(linked, "rtt.png")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a file outside the report folder was removed: %v", err)
		}
	}
}

const midTwoLinks = "../../testdata/truth-mid/gt_mid_two_links"

// cutMidRx writes into dir the receiver side of midTwoLinks cut in half
// (its gzip stream ends inside a record), for A+B with B damaged.
func cutMidRx(t *testing.T, dir string) string {
	t.Helper()
	rx, err := os.ReadFile(midTwoLinks + ".rx.pcap.gz")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "rx.pcap.gz")
	writeFile(t, cut, rx[:len(rx)/2])
	return cut
}

// A joined capture that is damaged (A+B, B cut short) fails the report:
// its one line, exit 1, the report written with what was read of it. The
// line was said and the report exited 0 (found by the tester: report
// tx.pcap.gz+rx-cut.pcap).
func TestReportJoinedDamaged(t *testing.T) {
	dir := t.TempDir()
	cut := cutMidRx(t, dir)
	stdout, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, midTwoLinks+".tx.pcap.gz+"+cut)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "tcpviz: "+cut+": packet ") {
		t.Errorf("exit %d, stderr %q; want 1 and the cut capture's one line", code, stderr)
	}
	index := strings.TrimSpace(stdout)
	if _, err := os.Stat(filepath.Join(filepath.Dir(index), "ladder.png")); err != nil || filepath.Base(index) != "index.html" {
		t.Errorf("report %q: no joined section (%v)", stdout, err)
	}
}

// A capture joined with the main one (A+B: B) is an input too: a report
// neither removes it (an earlier list naming it) nor writes over it. Found
// by trying a doctored .tcpviz-report in the folder of tx+rx, run from in
// there (a path holding the folder's "+" would not be read as A+B).
func TestReportKeepsJoinedCapture(t *testing.T) {
	tx, err := filepath.Abs("../../testdata/truth-mid/gt_mid_two_links.tx.pcap.gz")
	if err != nil {
		t.Fatal(err)
	}
	rx, err := os.ReadFile("../../testdata/truth-mid/gt_mid_two_links.rx.pcap.gz")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	folder := filepath.Join(dir, "gt_mid_two_links.tx+rx-report")
	writeFile(t, filepath.Join(folder, "rx.pcap.gz"), rx)
	writeFile(t, filepath.Join(folder, ".tcpviz-report"), []byte("index.html\nrx.pcap.gz\n"))
	t.Chdir(folder)
	_, stderr, code := tcpviz(t, nil, "report", "--out-dir", dir, tx+"+rx.pcap.gz")
	if got, err := os.ReadFile(filepath.Join(folder, "rx.pcap.gz")); err != nil || !bytes.Equal(got, rx) {
		t.Fatalf("report (exit %d: %s) removed or changed the joined capture in its folder: %v", code, stderr, err)
	}
	if code != 2 || !strings.Contains(stderr, "refusing to overwrite an input") {
		t.Errorf("exit %d, stderr %q; want a usage error: an input in the report folder", code, stderr)
	}
}
