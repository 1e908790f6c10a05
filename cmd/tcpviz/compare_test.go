package main

import (
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// TestComparePEP compares the bundled GEO transfers without and with the
// proxy: the table has one row each, the proxy delivers more in 5 s and
// its RTT (to the proxy) is far shorter; the graph is a real picture.
func TestComparePEP(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.png")
	stdout, stderr, code := tcpviz(t, nil, "compare", "-o", out, "../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap#1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The graph's path, and a warning that the proxy acknowledged the
	// data behind it.
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 2 || lines[0] != out ||
		!strings.Contains(lines[1], "geo_pep_short.pcap#1: the receiver answers within a millisecond") {
		t.Errorf("stderr %q, want the graph's path and a warning about the proxy", stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("want a header and 2 rows, got %d (%v):\n%s", len(rows), err, stdout)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	num := func(r int, name string) float64 {
		v, err := strconv.ParseFloat(rows[r][col[name]], 64)
		if err != nil {
			t.Fatalf("row %d %s: %q", r, name, rows[r][col[name]])
		}
		return v
	}
	if rows[2][col["input"]] != "geo_pep_short.pcap#1" || rows[1][col["stream"]] != "1" {
		t.Errorf("inputs %q %q", rows[1][col["input"]], rows[2][col["input"]])
	}
	if a, b := num(1, "delivered_5s_bytes"), num(2, "delivered_5s_bytes"); b <= a {
		t.Errorf("delivered in 5 s: %v without the proxy, %v with it; want more with it", a, b)
	}
	if a, b := num(1, "rtt_median_ms"), num(2, "rtt_median_ms"); a < 590 || a > 620 || b > 10 {
		t.Errorf("median RTT %v ms (want ~600, the GEO link) and %v ms (want a few, to the proxy)", a, b)
	}
	if r := num(1, "throughput_ratio"); r != 1 {
		t.Errorf("first input's throughput ratio %v, want 1", r)
	}
	if r := num(1, "slow_start_rounds"); r != 4 {
		t.Errorf("slow start rounds without the proxy %v, want 4 (10, 20, 40, 74 segments)", r)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("picture %v", b)
	}
}

// TestCompareCwndSaysInputsBasis: compare --graph cwnd says on stderr, of
// the input captured at the receiver, by its label, that its line is the
// data that arrived there, and nothing of the sender's.
func TestCompareCwndSaysInputsBasis(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.csv")
	_, stderr, code := tcpviz(t, nil, "compare", "--graph", "cwnd", "-o", out,
		"--label", "sender", "../../testdata/labelled/sq_50ms_5m.tx.pcap.gz", "--label", "receiver", "../../testdata/labelled/sq_50ms_5m.rx.pcap.gz")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "receiver-side capture"); n != 1 || !strings.Contains(stderr, "tcpviz: warning: compare: receiver: receiver-side capture: the line is the data that arrived") {
		t.Errorf("stderr %q: want one note of the receiver's line", stderr)
	}
}

func TestComparePointsAndErrors(t *testing.T) {
	stdout, stderr, code := tcpviz(t, nil, "compare", "--graph", "tput", "-o", "-", "../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "frame,time_s,series,bps\n") || !strings.Contains(stdout, ",geo_pep_short.pcap,") {
		t.Errorf("points CSV:\n%.300s", stdout)
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--graph", "bogus", "../../testdata/geo_short.pcap"}, 2, "--graph \"bogus\": want delivered, seq, tput, rtt, window, cwnd, loss or owd"},
		{[]string{"../../testdata/geo_short.pcap#7"}, 1, "no stream 7"},
		{[]string{"../../testdata/nope.pcap"}, 1, "no such file"},
	} {
		args := append([]string{"compare", "-o", filepath.Join(t.TempDir(), "x.png")}, tt.args...)
		_, stderr, code := tcpviz(t, nil, args...)
		if code != tt.code || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%v: exit %d stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.msg)
		}
	}
}

// TestCompareJoinedStream: joined captures take a stream number too
// (A+B#N, as a single capture does): --graph owd compares that stream's
// one-way delay, named with it (it said "is one capture").
func TestCompareJoinedStream(t *testing.T) {
	dir := "../../testdata/truth-mid/"
	a := dir + "gt_mid_jitter_ackloss.tx.pcap.gz+" + dir + "gt_mid_jitter_ackloss.rx.pcap.gz"
	b := dir + "gt_mid_two_links.tx.pcap.gz+" + dir + "gt_mid_two_links.rx.pcap.gz"
	out := filepath.Join(t.TempDir(), "owd.csv")
	stdout, stderr, code := tcpviz(t, nil, "compare", "--graph", "owd", "-o", out, a+"#0", b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(rows) != 3 || rows[1][1] != "0" || rows[2][1] != "1" {
		t.Fatalf("want stream 0 of the first, the busiest (1) of the second:\n%s", stdout)
	}
	points, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(points), "gt_mid_jitter_ackloss.rx.pcap.gz#0,") {
		t.Fatalf("the first's series is not named with its stream (%v)", err)
	}
}

// TestCompareOWDDamaged: --graph owd of A+B with B cut short draws what
// was read of B and exits 1, B's one line said; it exited 0 (found by the
// tester, as report A+B did).
func TestCompareOWDDamaged(t *testing.T) {
	dir := t.TempDir()
	cut := cutMidRx(t, dir)
	out := filepath.Join(dir, "owd.csv")
	_, stderr, code := tcpviz(t, nil, "compare", "--graph", "owd", "-o", out, midTwoLinks+".tx.pcap.gz+"+cut)
	if st, err := os.Stat(out); code != 1 || err != nil || st.Size() == 0 || !strings.HasPrefix(stderr, "tcpviz: "+cut+": packet ") {
		t.Errorf("exit %d, %v, stderr %q; want 1, the graph written and the cut capture's line", code, err, stderr)
	}
}

// TestCompareLabelsOfFolder: a folder given to compare is one input per
// capture in it, and --label and --hide name those inputs: two labels
// for a folder of two captures label them (it panicked, index out of
// range, as the labels were counted against the arguments), one is a
// usage error, and --hide takes a capture's name in the folder (it
// wanted the folder's).
func TestCompareLabelsOfFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"geo_short.pcap", "geo_pep_short.pcap"} {
		b, err := os.ReadFile("../../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "cmp.csv")
	stdout, stderr, code := tcpviz(t, nil, "compare", "--label", "proxy", "--label", "direct", "-o", out, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("want a header and 2 rows (%v):\n%s", err, stdout)
	}
	label := slices.Index(rows[0], "label")
	if rows[1][label] != "proxy" || rows[2][label] != "direct" {
		t.Errorf("labels %q %q, want proxy and direct (the folder's captures in natural order)", rows[1][label], rows[2][label])
	}
	_, stderr, code = tcpviz(t, nil, "compare", "--label", "one", "-o", out, dir)
	if code != 2 || !strings.Contains(stderr, "1 label for 2 inputs") {
		t.Errorf("one label for a folder of two: exit %d %q; want 2 and a usage error", code, stderr)
	}
	_, stderr, code = tcpviz(t, nil, "compare", "--hide", "geo_short.pcap", "-o", out, dir)
	if code != 0 {
		t.Errorf("--hide a capture of the folder: exit %d %q", code, stderr)
	}
}

// TestCompareRepeatedInstants: an instant of --at or an amount of
// --to-bytes given twice, in any spelling (1s and 1000ms, 1MiB and
// 1048576), is one column: the table had two columns of one name (JSON
// objects with a key twice).
func TestCompareRepeatedInstants(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.csv")
	stdout, stderr, code := tcpviz(t, nil, "compare", "--at", "1s,1000ms,5s", "--at", "1s", "--to-bytes", "1MiB,1048576", "--to-bytes", "1MiB",
		"-o", out, "../../testdata/geo_short.pcap")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, _, _ := strings.Cut(stdout, "\n")
	var got []string
	for _, c := range strings.Split(header, ",") {
		if strings.HasPrefix(c, "delivered_") || strings.HasPrefix(c, "time_to_") {
			got = append(got, c)
		}
	}
	if want := []string{"delivered_1s_bytes", "delivered_5s_bytes", "time_to_1MiB_within_s"}; !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
}

// TestCompareHideLabelWithComma: --hide takes a label as given, comma
// and all ("PEP, 85 KB"), as well as a list of labels: it split the
// label and refused its halves, so such an input could not be hidden.
func TestCompareHideLabelWithComma(t *testing.T) {
	out := filepath.Join(t.TempDir(), "points.csv")
	_, stderr, code := tcpviz(t, nil, "compare", "--label", "no PEP", "--label", "PEP, 85 KB", "--hide", "PEP, 85 KB", "-o", out,
		"../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	points, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(points), "85 KB") || !strings.Contains(string(points), ",no PEP,") {
		t.Errorf("want the points of no PEP alone:\n%.300s", points)
	}
	if _, stderr, code := tcpviz(t, nil, "compare", "--label", "a", "--label", "b", "--hide", "a,c", "-o", out,
		"../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap"); code != 2 || !strings.Contains(stderr, `--hide "c"`) {
		t.Errorf("a list with an unknown label: exit %d, %q", code, stderr)
	}
}

// TestCompareNothingToDraw: a graph none of the inputs has a point of
// (--graph loss of TCP connections: lost datagrams are an iperf3 UDP
// flow's; rtt of a UDP flow: it has no ACKs) is exit 1 with one line and
// no file, as a window that selects nothing is; it wrote an empty graph
// and exited 0.
func TestCompareNothingToDraw(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--graph", "loss", "../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap"},
		{"--graph", "rtt", "../../testdata/udp/udp_short.pcap#udp"},
	} {
		out := filepath.Join(dir, "c.png")
		_, stderr, code := tcpviz(t, nil, append([]string{"compare", "-o", out}, args...)...)
		if code != 1 || !strings.Contains(stderr, "nothing to draw") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 1 and one line", args, code, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", args, out)
		}
	}
}

// TestCompareLabelTwice: one --label given to two inputs is a usage
// error naming it: their series had one name and one colour (a hash of
// the label picks it), and --hide hid both.
func TestCompareLabelTwice(t *testing.T) {
	_, stderr, code := tcpviz(t, nil, "compare", "--label", "run", "--label", "run", "-o", filepath.Join(t.TempDir(), "c.png"),
		"../../testdata/geo_short.pcap", "../../testdata/geo_pep_short.pcap")
	if code != 2 || !strings.Contains(stderr, `--label "run"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, %q; want a usage error naming the label", code, stderr)
	}
}

// TestCompareSameFileNames: captures of one name in different folders
// (pep/run.pcap, nopep/run.pcap) are labelled by their paths as given:
// both were labelled run.pcap, one legend entry and one colour for
// the two, their points one series in the CSV.
func TestCompareSameFileNames(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, c := range [][2]string{{"pep", "geo_pep_short.pcap"}, {"nopep", "geo_short.pcap"}} {
		data, err := os.ReadFile(filepath.Join(golden.Testdata(), c[1]))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, c[0], "run.pcap")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, stderr, code := tcpviz(t, nil, "compare", "-o", "-", paths[0], paths[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		names[strings.Split(line, ",")[2]] = true
	}
	if len(names) != 2 || !names[paths[0]] || !names[paths[1]] {
		t.Errorf("series %v; want the two paths %v", names, paths)
	}
}

// TestCompareInputTwice: one input named twice (G#1 G#1) gave two series
// of one label (one legend entry, one colour, one series in the points
// CSV): the second is labelled with its count, as compare labels inputs
// alike by their paths.
func TestCompareInputTwice(t *testing.T) {
	in := demoCapture + "#1"
	stdout, stderr, code := tcpviz(t, nil, "compare", "-f", "csv", "-o", "-", in, in)
	if code != 0 {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	var series []string
	for _, r := range flowsCSV(t, stdout) {
		if !slices.Contains(series, r["series"]) {
			series = append(series, r["series"])
		}
	}
	label := filepath.Clean(demoCapture) + "#1"
	if want := []string{label, label + " (2)"}; !slices.Equal(series, want) {
		t.Errorf("series %q, want %q", series, want)
	}
}
