package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"tcpviz/internal/cmdline"
	"tcpviz/internal/golden"
)

// TestShardCoversEveryInputOnce: across i = 0…n−1 every input is in
// exactly one share, whatever the order of the list.
func TestShardCoversEveryInputOnce(t *testing.T) {
	var ins []input
	for i := range 500 {
		ins = append(ins, input{name: filepath.Join("archive", "run"+strings.Repeat("x", i%7), "cap"+string(rune('a'+i%26))+".pcap"+strings.Repeat(".gz", i%2)+"#"+string(rune('A'+i%23)))})
	}
	for _, n := range []int{1, 2, 3, 8} {
		seen := map[string]int{}
		for i := range n {
			for _, in := range shardOf(ins, cmdline.Share{I: i, N: n}) {
				seen[in.name]++
			}
		}
		for _, in := range ins {
			if seen[in.name] != 1 {
				t.Fatalf("n=%d: %s in %d shares", n, in.name, seen[in.name])
			}
		}
		rev := slices.Clone(ins)
		slices.Reverse(rev)
		for i := range n {
			a, b := shardOf(ins, cmdline.Share{I: i, N: n}), shardOf(rev, cmdline.Share{I: i, N: n})
			slices.Reverse(b)
			if !slices.Equal(a, b) {
				t.Fatalf("n=%d share %d changes with the order of the inputs", n, i)
			}
		}
	}
}

// TestBatchFlags: --files-from (a file and standard input), --shard
// splitting a directory run, an empty shard exiting 0, bad values.
func TestBatchFlags(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list")
	os.WriteFile(list, []byte("../../testdata/geo_short.pcap\n\n../../testdata/lossy_sll2.pcap\n"), 0o644)
	stdout, stderr, code := tcpviz(t, nil, "streams", "--files-from", list)
	if code != 0 || strings.Count(stdout, "\n") != 5 || !strings.Contains(stdout, "lossy_sll2") {
		t.Fatalf("--files-from: exit %d, %q %q", code, stdout, stderr)
	}
	stdout, _, code = tcpviz(t, []byte("../../testdata/v6_short.pcapng\n"), "streams", "--files-from", "-")
	if code != 0 || !strings.Contains(stdout, "v6_short") {
		t.Fatalf("--files-from -: exit %d, %q", code, stdout)
	}
	rows := 0
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		stdout, stderr, code := tcpviz(t, nil, "streams", "--shard", s, "../../testdata")
		if code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", s, code, stderr)
		}
		rows += strings.Count(stdout, "\n") - min(1, len(stdout))
	}
	all, _, _ := tcpviz(t, nil, "streams", "../../testdata")
	if want := strings.Count(all, "\n") - 1; rows != want {
		t.Errorf("shards gave %d rows, the whole run %d", rows, want)
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		if _, stderr, code := tcpviz(t, nil, "streams", "--shard", bad, demoCapture); code != 2 || !strings.Contains(stderr, "--shard") {
			t.Errorf("--shard %s: exit %d %q", bad, code, stderr)
		}
	}
	if _, stderr, code := tcpviz(t, nil, "streams", "--files-from", "/nonexistent/list"); code != 2 || !strings.Contains(stderr, "--files-from") {
		t.Errorf("missing list: exit %d %q", code, stderr)
	}
}

// TestEmptyShardExitsZero: a share holding no input prints nothing and
// exits 0.
func TestEmptyShardExitsZero(t *testing.T) {
	for i := range 4 {
		stdout, stderr, code := tcpviz(t, nil, "summary", "--shard", string(rune('0'+i))+"/4", demoCapture)
		if code != 0 || stderr != "" {
			t.Fatalf("share %d: exit %d %q", i, code, stderr)
		}
		if stdout == "" {
			return // the empty shares printed nothing and exited 0
		}
	}
}

// TestParquetOutputs: -o FILE.parquet holds every summary row, typed;
// --out-dir writes one partition per input; Parquet never goes to a
// terminal, and --out-dir takes only Parquet.
func TestParquetOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.parquet")
	if _, stderr, code := tcpviz(t, nil, "summary", "-o", out, "../../testdata"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv, _, _ := tcpviz(t, nil, "summary", "../../testdata")
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(strings.Count(csv, "\n") - 1); f.NumRows() != want {
		t.Errorf("%d Parquet rows, CSV %d", f.NumRows(), want)
	}
	if len(f.RowGroups()) < 4 {
		t.Errorf("%d row groups: want one per input", len(f.RowGroups()))
	}
	// A row per packet: several inputs streamed one after the other, in
	// order, a row group (at least) each.
	two := []string{"../../testdata/lossy_sll2.pcap", "../../testdata/geo_short.pcap"}
	pk := filepath.Join(dir, "p.parquet")
	if _, stderr, code := tcpviz(t, nil, append([]string{"packets", "-o", pk}, two...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	pkCSV, _, _ := tcpviz(t, nil, append([]string{"packets", "-f", "csv", "--fields", "file"}, two...)...)
	if raw, err = os.ReadFile(pk); err != nil {
		t.Fatal(err)
	}
	if f, err = parquet.OpenFile(bytes.NewReader(raw), int64(len(raw))); err != nil {
		t.Fatal(err)
	}
	if want := int64(strings.Count(pkCSV, "\n") - 1); f.NumRows() != want || want < 2000 {
		t.Errorf("packets: %d Parquet rows, CSV %d", f.NumRows(), want)
	}
	if len(f.RowGroups()) != 2 || !strings.HasPrefix(pkCSV, "file\n"+two[0]) || !strings.HasSuffix(pkCSV, two[1]+"\n") {
		t.Errorf("packets of two inputs: %d row groups (want 2), rows not in input order", len(f.RowGroups()))
	}
	pdir := filepath.Join(dir, "parts")
	stdout, stderr, code := tcpviz(t, nil, "streams", "--format", "parquet", "--out-dir", pdir, "../../testdata/geo_short.pcap", "../../testdata/lossy_sll2.pcap")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	parts, _ := filepath.Glob(filepath.Join(pdir, "capture=*", "part-0.parquet"))
	if len(parts) != 2 || strings.Count(stdout, "part-0.parquet") != 2 {
		t.Errorf("partitions %v, stdout %q", parts, stdout)
	}
	if _, stderr, code := tcpviz(t, nil, "streams", "--format", "csv", "--out-dir", pdir, demoCapture); code != 2 || !strings.Contains(stderr, "--out-dir") {
		t.Errorf("--out-dir with CSV: exit %d %q", code, stderr)
	}
}

// TestVersionCompletionMan: --version names the build; completion scripts
// for bash, zsh and fish hold every command and flag; the man page every
// command. bash checks its script's syntax when it is there.
func TestVersionCompletionMan(t *testing.T) {
	stdout, _, code := tcpviz(t, nil, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "tcpviz ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("--version: exit %d %q", code, stdout)
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		script, stderr, code := tcpviz(t, nil, "completion", sh)
		if code != 0 {
			t.Fatalf("completion %s: exit %d %s", sh, code, stderr)
		}
		for _, want := range []string{"summary", "cwnd", "flows", "report", "shard", "sampling", "files-from"} {
			if !strings.Contains(script, want) {
				t.Errorf("completion %s lacks %q", sh, want)
			}
		}
		if sh == "bash" {
			if bash, err := exec.LookPath("bash"); err == nil {
				cmd := exec.Command(bash, "-n")
				cmd.Stdin = strings.NewReader(script)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("bash -n: %v %s", err, out)
				}
				// Flag values complete: --style <TAB>, -f <TAB>.
				for _, c := range []struct{ words, want string }{
					{"tcpviz seq --style ''", "tcptrace stevens"},
					{"tcpviz summary -f ''", "csv json ndjson table parquet"},
					{"tcpviz io --graph f", "fairness"},
				} {
					n := len(strings.Fields(c.words)) - 1
					cmd := exec.Command(bash, "-c", script+"\nCOMP_WORDS=("+c.words+"); COMP_CWORD="+fmt.Sprint(n)+"; _tcpviz; echo \"${COMPREPLY[*]}\"")
					out, err := cmd.Output()
					if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
						t.Errorf("bash completion of %q: %q (%v), want %q", c.words, got, err, c.want)
					}
				}
			}
		}
		if sh == "fish" && !strings.Contains(script, `-l style -x -a "tcptrace stevens"`) {
			t.Errorf("fish completion does not complete --style's values")
		}
		if sh == "zsh" && !strings.Contains(script, `'--style:style:(tcptrace stevens)'`) {
			t.Errorf("zsh completion does not complete --style's values")
		}
	}
	if _, _, code := tcpviz(t, nil, "completion", "tcsh"); code != 2 {
		t.Errorf("completion tcsh: exit %d", code)
	}
	man, _, code := tcpviz(t, nil, "man")
	if code != 0 || !strings.Contains(man, ".TH tcpviz 1") {
		t.Fatalf("man: exit %d, not section 1", code)
	}
	for _, want := range []string{".SH EXAMPLES", ".SH SEE ALSO", "param_<column>", "capture=<name>-<hash>", ".B tcpviz\n.I COMMAND"} {
		if !strings.Contains(man, want) {
			t.Errorf("man page lacks %q", want)
		}
	}
	for _, c := range []string{"streams", "summary", "seq", "cwnd", "compare", "report", "flows"} {
		if !strings.Contains(man, c) {
			t.Errorf("man page lacks %s", c)
		}
	}
}

// TestTableFileKeepsOthers: with -o, an input that fails does not discard
// the rows of the others: the file is written, the run exits 1.
func TestTableFileKeepsOthers(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "cut.pcap")
	good, _ := os.ReadFile(demoCapture)
	os.WriteFile(bad, good[:len(good)/2], 0o644) // ends inside a record
	out := filepath.Join(dir, "all.csv")
	_, stderr, code := tcpviz(t, nil, "summary", "-o", out, demoCapture, bad, "../../testdata/lossy_sll2.pcap")
	if code != 1 || !strings.Contains(stderr, "cut.pcap") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	csv, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the output was discarded: %v", err)
	}
	if !strings.Contains(string(csv), "lossy_sll2") || !strings.Contains(string(csv), "geo_short") {
		t.Errorf("rows missing: %s", csv[:min(len(csv), 300)])
	}
}

// TestCompareKeepsOthers: a compare input that cannot be read fails on its
// own, named; the others are drawn and tabulated; exit 1.
func TestCompareKeepsOthers(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.csv")
	stdout, stderr, code := tcpviz(t, nil, "compare", "-o", out, "--format", "csv", demoCapture, "/nonexistent/x.pcap")
	if code != 1 || !strings.Contains(stderr, "/nonexistent/x.pcap") || !strings.Contains(stdout, "geo_short.pcap,1,c2s") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("graph not written: %v", err)
	}
}

// TestCompareUDPWithTCP: CAPTURE#udp overlays the busiest UDP flow (what
// reached the capture point) with a TCP run, in one graph and one table.
func TestCompareUDPWithTCP(t *testing.T) {
	udp := "../../../shared/captures/udp/udp_jitter_50ms.rx.pcap"
	tcp := "../../../shared/captures/lab/sweep_jitter_50ms.pcap"
	for _, p := range []string{udp, tcp} {
		if _, err := os.Stat(p); err != nil {
			t.Skip(err)
		}
	}
	out := filepath.Join(t.TempDir(), "c.csv")
	stdout, stderr, code := tcpviz(t, nil, "compare", "--graph", "delivered", "--format", "csv", "-o", out, udp+"#udp", tcp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "udp_jitter_50ms.rx.pcap#udp,0,c2s,10.88.1.1:39814,10.88.2.2:5201,") {
		t.Fatalf("table %q", stdout)
	}
	// The flow's payload (flows: 18,585,084 bytes from the sender) is
	// what its delivered series reaches.
	var last string
	for _, r := range readCSV(t, out)[1:] {
		if r[2] == "udp_jitter_50ms.rx.pcap#udp" {
			last = r[3]
		}
	}
	if last != "18585084" {
		t.Errorf("UDP delivered reaches %q, want 18585084", last)
	}
	if _, stderr, code := tcpviz(t, nil, "compare", "-o", out, "../../testdata/geo_short.pcap#udp"); code != 1 || !strings.Contains(stderr, "no UDP flow") {
		t.Errorf("a capture without UDP: exit %d, %q", code, stderr)
	}
}

// TestTputOfUDPFlow: the graph commands take CAPTURE#udp too: the
// throughput of the iperf3 UDP flow holds near its 15 Mbit/s.
func TestTputOfUDPFlow(t *testing.T) {
	udp := "../../../shared/captures/udp/udp_jitter_50ms.rx.pcap"
	if _, err := os.Stat(udp); err != nil {
		t.Skip(err)
	}
	out := filepath.Join(t.TempDir(), "u.csv")
	if _, stderr, code := tcpviz(t, nil, "tput", "-o", out, udp+"#udp"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := readCSV(t, out)
	last := rows[len(rows)-1]
	bps, _ := strconv.ParseFloat(last[3], 64)
	if len(rows) < 10000 || bps < 14e6 || bps > 15.5e6 {
		t.Errorf("%d rows, last %v: want about 14.8 Mbit/s", len(rows), last)
	}
}

// TestCompareLossOfIperf3: the loss series of an iperf3 UDP flow ends at
// iperf3's own count (113 at the receiver, 0 at the sender).
func TestCompareLossOfIperf3(t *testing.T) {
	rx := "../../../shared/captures/udp/udp_jitter_50ms.rx.pcap"
	tx := "../../../shared/captures/udp/udp_jitter_50ms.tx.pcap"
	for _, p := range []string{rx, tx} {
		if _, err := os.Stat(p); err != nil {
			t.Skip(err)
		}
	}
	out := filepath.Join(t.TempDir(), "l.csv")
	if _, stderr, code := tcpviz(t, nil, "compare", "--graph", "loss", "--label", "rx", "--label", "tx", "-o", out, rx+"#udp", tx+"#udp"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	last := map[string]string{}
	for _, r := range readCSV(t, out)[1:] {
		last[r[2]] = r[3]
	}
	if last["rx"] != "113" || last["tx"] != "0" {
		t.Errorf("last lost counts %v: want rx 113, tx 0", last)
	}
}

// TestFilesFromSkips: --files-from skips blank lines, lines of only white
// space (of any kind, CRLF ends too) and # comments, silently; a name
// with spaces around it keeps them, and ./#name names a file starting
// with #.
func TestFilesFromSkips(t *testing.T) {
	data := demoBytes(t)
	t.Chdir(t.TempDir())
	for _, name := range []string{"a.pcap", " spaced.pcap ", "#hash.pcap"} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list := "a.pcap\n\n   \n\t\r\n\u00a0\n# a comment\n#hash.pcap\n \n spaced.pcap \r\n./#hash.pcap\n\n"
	stdout, stderr, code := tcpviz(t, []byte(list), "streams", "--format", "csv", "--files-from", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var files []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		if f, _, _ := strings.Cut(l, ","); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	if want := []string{"a.pcap", `" spaced.pcap "`, "./#hash.pcap"}; !slices.Equal(files, want) {
		t.Errorf("inputs %q, want %q", files, want)
	}
	// Nothing but blank lines and comments: no input, a usage error.
	if _, stderr, code := tcpviz(t, []byte("\n  \n# none\n"), "streams", "--files-from", "-"); code != 2 || !strings.Contains(stderr, "no input") {
		t.Errorf("empty list: exit %d, %q", code, stderr)
	}
}

// TestFilesFromStdinAndCapture: --files-from - reads the list from
// standard input, so a capture named - (or /dev/stdin, one pipe; a list
// or --manifest read from the pipe that is standard input) is a usage
// error before anything is read; the capture read an empty
// standard input after the list and failed as "empty file: not a
// capture file", exit 1, the listed files read (found by the tester:
// echo a.pcap | tcpviz summary --files-from - -).
func TestFilesFromStdinAndCapture(t *testing.T) {
	_, stderr, code := tcpviz(t, []byte(demoCapture+"\n"), "summary", "--files-from", "-", "-")
	if want := "tcpviz: standard input (-) can be named only once: --files-from - reads the list from it\n"; code != 2 || stderr != want {
		t.Errorf("--files-from - -: exit %d, %q; want 2 and %q", code, stderr, want)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { w.Write([]byte(demoCapture + "\n")); w.Close() }()
	dev := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	if _, err := os.Stat(dev); err != nil {
		t.Skip("no /dev/fd here")
	}
	var out, errb bytes.Buffer
	code = runEnv(newEnv(r, &out, &errb), []string{"tcpviz", "summary", "--files-from", "-", dev})
	if want := "tcpviz: " + dev + " and --files-from - are one pipe, read once: name it once\n"; code != 2 || errb.String() != want || out.Len() != 0 {
		t.Errorf("--files-from - %s: exit %d, %q; want 2 and %q", dev, code, errb.String(), want)
	}
	// The list named by the pipe's path, the capture -.
	errb.Reset()
	code = runEnv(newEnv(r, &out, &errb), []string{"tcpviz", "summary", "--files-from", dev, "-"})
	if want := "tcpviz: - and --files-from " + dev + " are one pipe, read once: name it once\n"; code != 2 || errb.String() != want || out.Len() != 0 {
		t.Errorf("--files-from %s -: exit %d, %q; want 2 and %q", dev, code, errb.String(), want)
	}
	// A manifest alike.
	mr, mw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer mr.Close()
	go func() { mw.Write([]byte("file,delay\n" + demoCapture + ",10\n")); mw.Close() }()
	mdev := "/dev/fd/" + strconv.Itoa(int(mr.Fd()))
	errb.Reset()
	code = runEnv(newEnv(mr, &out, &errb), []string{"tcpviz", "summary", "--manifest", mdev, "-"})
	if want := "tcpviz: - and --manifest " + mdev + " are one pipe, read once: name it once\n"; code != 2 || errb.String() != want || out.Len() != 0 {
		t.Errorf("--manifest %s -: exit %d, %q; want 2 and %q", mdev, code, errb.String(), want)
	}
}

// TestPartitionsOfStreams: CAPTURE#0 and CAPTURE#1 of one capture are
// two partitions, each with its stream's rows (they were one folder: the
// second written over the first, its rows lost, exit 0); the same input
// named twice is a usage error before anything is read, as for the
// graphs' derived names.
func TestPartitionsOfStreams(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := tcpviz(t, nil, "streams", "--format", "parquet", "--out-dir", dir, demoCapture+"#0", demoCapture+"#1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "capture=*", "part-0.parquet"))
	if len(parts) != 2 {
		t.Fatalf("partitions %v, stdout %q: want one per stream", parts, stdout)
	}
	for _, p := range parts {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parquet.OpenFile(bytes.NewReader(raw), int64(len(raw)))
		if err != nil || f.NumRows() != 1 {
			t.Errorf("%s: %v rows (%v), want its stream's one", p, f.NumRows(), err)
		}
	}
	// CAPTURE#udpN is named as CAPTURE#N is: the capture's base and
	// -udpN (it kept the name with its escaped suffix, udp_short.pcap%23udp0).
	udp := t.TempDir()
	if _, stderr, code := tcpviz(t, nil, "flows", "--format", "parquet", "--out-dir", udp, filepath.Join(golden.Testdata(), "udp", "udp_short.pcap")+"#udp0"); code != 0 {
		t.Fatalf("flows #udp0: exit %d: %s", code, stderr)
	}
	if parts, _ := filepath.Glob(filepath.Join(udp, "capture=udp_short-udp0-*", "part-0.parquet")); len(parts) != 1 {
		entries, _ := os.ReadDir(udp)
		t.Errorf("flows #udp0: partitions %v, want capture=udp_short-udp0-HASH", entries)
	}
	other := t.TempDir()
	_, stderr, code = tcpviz(t, nil, "summary", "--out-dir", other, demoCapture, demoCapture)
	if code != 2 || !strings.Contains(stderr, "name each capture once") {
		t.Errorf("one capture twice: exit %d, %q; want a usage error", code, stderr)
	}
	if left, _ := os.ReadDir(other); len(left) != 0 {
		t.Errorf("one capture twice: %d entries written", len(left))
	}
}
