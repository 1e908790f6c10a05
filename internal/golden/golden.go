// Package golden reads the per-frame reference files that
// scripts/tshark-golden.sh writes with tshark (testdata/tshark/*.tsv.gz),
// for tests that compare tcpviz with Wireshark frame by frame.
package golden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
)

// Repo is the repository's root.
func Repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Dir is the directory holding the golden files.
func Dir() string { return filepath.Join(Repo(), "testdata", "tshark") }

// Testdata is the repository's testdata folder (the bundled captures).
func Testdata() string { return filepath.Join(Repo(), "testdata") }

// SharedCaptures is ../shared/captures beside the repository.
func SharedCaptures() string { return filepath.Join(Repo(), "..", "shared", "captures") }

// CorpusPresent reports whether ../shared/captures is beside the
// repository (it is in CI; a fresh clone elsewhere has only the bundled
// captures).
func CorpusPresent() bool {
	st, err := os.Stat(SharedCaptures())
	return err == nil && st.IsDir()
}

// NeedCorpus skips a test that has nothing to read without the shared
// corpus, saying so.
func NeedCorpus(t interface {
	Helper()
	Skipf(string, ...any)
}) {
	t.Helper()
	if !CorpusPresent() {
		t.Skipf("needs the shared corpus %s, which is not beside this checkout", SharedCaptures())
	}
}

// AtLeast is a test's lower bound on how much it checked: corpus with
// the shared corpus present, bundled without it.
func AtLeast(corpus, bundled int) int {
	if CorpusPresent() {
		return corpus
	}
	return bundled
}

// Bundled lists the capture files in testdata/ and its sub-folders
// (regular files that are not .md, .tsv, .args and the like; some may
// still not be captures: callers check), skipping the golden folders.
func Bundled() []string {
	var files []string
	root := Testdata()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case "tshark", "tshark-udp", "tshark-shifted", "cli", "tcptrace":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		switch filepath.Ext(p) {
		case ".md", ".jsonl", ".tsv", ".txt", ".args", ".stdout", ".stderr", ".code":
			return nil
		}
		if strings.HasSuffix(p, ".jsonl.gz") {
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files
}

// Captures lists every capture file the differential tests read: the
// shared corpus (lab, real, truth, malformed, udp) and the repository's
// bundled captures (testdata and its sub-folders; some may not be
// captures).
func Captures() []string {
	var names []string
	for _, dir := range []string{"lab", "real", "truth", "malformed", "udp"} {
		m, _ := filepath.Glob(filepath.Join(SharedCaptures(), dir, "*"))
		names = append(names, m...)
	}
	var files []string
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.Mode().IsRegular() && filepath.Ext(n) != ".md" {
			files = append(files, n)
		}
	}
	return append(files, Bundled()...)
}

// GoldenName is the golden file base name of a capture: <dir>__<name>
// for ../shared/captures/<dir>/<name>, testdata__<a>__<b> for the bundled
// testdata/<a>/<b>.
func GoldenName(capture string) string {
	abs, _ := filepath.Abs(capture)
	if td, _ := filepath.Abs(Testdata()); strings.HasPrefix(abs, td+string(filepath.Separator)) {
		rel, _ := filepath.Rel(td, abs)
		return "testdata__" + strings.ReplaceAll(filepath.ToSlash(rel), "/", "__")
	}
	return filepath.Base(filepath.Dir(abs)) + "__" + filepath.Base(abs)
}

// CapturePath is the capture a golden file base name describes (the
// inverse of GoldenName).
func CapturePath(base string) string {
	dir, name, ok := strings.Cut(base, "__")
	if !ok {
		return ""
	}
	if dir == "testdata" {
		return filepath.Join(Testdata(), filepath.FromSlash(strings.ReplaceAll(name, "__", "/")))
	}
	return filepath.Join(SharedCaptures(), dir, name)
}

// Resolve is the path of a capture named relative to ../shared/captures
// ("udp/x.pcap") or, with a testdata/ prefix, to the repository.
func Resolve(rel string) string {
	if r, ok := strings.CutPrefix(rel, "testdata/"); ok {
		return filepath.Join(Testdata(), filepath.FromSlash(r))
	}
	return filepath.Join(SharedCaptures(), filepath.FromSlash(rel))
}

// File is one golden file: tshark's fields for every TCP frame of a capture.
type File struct {
	Name    string // golden file base name
	Capture string // path of the capture it describes
	Version string // the tshark version line
	cols    map[string]int
	Rows    [][]string
}

// Frame is one row.
type Frame struct {
	f   *File
	row []string
}

// Frames returns the rows as Frames.
func (f *File) Frames() []Frame {
	out := make([]Frame, len(f.Rows))
	for i, r := range f.Rows {
		out[i] = Frame{f, r}
	}
	return out
}

// Has reports whether the file has column name.
func (f *File) Has(name string) bool { _, ok := f.cols[name]; return ok }

// Str returns column name of the frame ("" when absent).
func (fr Frame) Str(name string) string {
	i, ok := fr.f.cols[name]
	if !ok || i >= len(fr.row) {
		return ""
	}
	return fr.row[i]
}

// Int returns column name as an integer (0 when empty).
func (fr Frame) Int(name string) int64 {
	s := fr.Str(name)
	if s == "" {
		return 0
	}
	if strings.HasPrefix(s, "0x") {
		v, _ := strconv.ParseInt(s[2:], 16, 64)
		return v
	}
	v, _ := strconv.ParseInt(s, 10, 64)
	return v
}

// Float returns column name as a float and whether it was present.
func (fr Frame) Float(name string) (float64, bool) {
	s := fr.Str(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// Flag reports whether a 0/1 column is 1.
func (fr Frame) Flag(name string) bool { return fr.Str(name) == "1" }

// All returns every golden file, with the capture each describes. The
// capture paths point into ../shared/captures or testdata; callers skip
// those absent.
func All() ([]*File, error) {
	names, err := filepath.Glob(filepath.Join(Dir(), "*.tsv.gz"))
	if err != nil {
		return nil, err
	}
	var out []*File
	for _, n := range names {
		f, err := Load(n)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Load reads one golden file.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := strings.TrimSuffix(filepath.Base(path), ".tsv.gz")
	f := &File{Name: base, cols: map[string]int{}}
	f.Capture = CapturePath(base)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	header := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			f.Version = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			continue
		}
		cells := strings.Split(line, "\t")
		if !header {
			for i, c := range cells {
				f.cols[c] = i
			}
			header = true
			continue
		}
		f.Rows = append(f.Rows, cells)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Cases counts the cases of a differential test (one per capture) that
// ran rather than skipped, so a test whose every case skipped — a
// checkout without the captures its references describe — fails instead
// of passing silently.
type Cases struct{ ran, total atomic.Int64 }

// Need skips the case t when capture is absent, saying which corpus it
// needs, and counts it as run otherwise.
func (c *Cases) Need(t interface {
	Helper()
	Skipf(string, ...any)
}, capture string) {
	t.Helper()
	c.total.Add(1)
	if _, err := os.Stat(capture); err != nil {
		where := "the shared corpus " + SharedCaptures() + ", which is not beside this checkout"
		if strings.HasPrefix(capture, Testdata()) {
			where = "a bundled capture, missing from testdata"
		}
		t.Skipf("capture %s not present (%s)", filepath.Base(capture), where)
	}
	c.ran.Add(1)
}

// Ran is how many cases ran.
func (c *Cases) Ran() int { return int(c.ran.Load()) }

// Check fails t when fewer than least cases ran (every one, when there
// are fewer), unless TCPVIZ_ALLOW_SKIP=1 says skipping is expected.
func (c *Cases) Check(t interface {
	Helper()
	Errorf(string, ...any)
	Logf(string, ...any)
}, least int) {
	t.Helper()
	ran, total := int(c.ran.Load()), int(c.total.Load())
	least = min(least, total)
	t.Logf("%d of %d cases ran (%d skipped)", ran, total, total-ran)
	if ran >= least || ran > 0 && ran == total {
		return
	}
	if os.Getenv("TCPVIZ_ALLOW_SKIP") == "1" {
		t.Logf("only %d of %d cases ran; TCPVIZ_ALLOW_SKIP=1 accepts it", ran, total)
		return
	}
	t.Errorf("only %d of %d cases ran, at least %d must (the rest skipped: set TCPVIZ_ALLOW_SKIP=1 if that is expected)", ran, total, least)
}

// Unread lists the bundled captures (by golden name) that tcpviz does not
// yet read as tshark does, why, and at most how many differences the
// frame-by-frame stream comparison finds in each (which may only shrink):
// the stream test holds them to it, the tests that build on the streams
// (analysis, summary, seq CSV) pass over them, saying so.
var Unread = map[string]struct {
	Frames int
	Why    string
}{
	"testdata__adversarial__c__frag_many.pcap":        {2, "a datagram in over 256 fragments: tcpviz's reassembly stops at 256 parts (its bound), tshark reassembles"},
	"testdata__adversarial__c__frag_slow.pcap":        {4, "a fragment 31 s after the first: past tcpviz's 30 s reassembly timeout (Linux's ipfrag_time), tshark has none"},
	"testdata__adversarial__c__frag_trunc.pcap":       {7, "fragments cut by the snapshot length: tshark gives the reassembled segment no tcp.len, tcpviz its length on the wire"},
	"testdata__adversarial__c__frag_trunc_first.pcap": {7, "a first fragment cut by the snapshot length: tshark reads its TCP header alone, tcpviz waits for the datagram"},
	"testdata__adversarial__c__frag_vxlan.pcap":       {4, "a VXLAN datagram in IP fragments: tcpviz reassembles fragmented UDP on the datagram path only, and reads no tunnel in it"},
	"testdata__adversarial__c__icmp4_quote_frag.pcap": {7, "ICMP errors quoting IPv4 fragments: tshark feeds the quoted fragments into its reassembly, tcpviz does not"},
	"testdata__adversarial__c__vxlan_sport53.pcap":    {25, "VXLAN from UDP port 53: tshark tries the lower port's dissector first (DNS) and reads no tunnel; tcpviz knows only tunnel ports"},
	"testdata__adversarial__d__dot11_amsdu.pcap":      {27, "an 802.11 A-MSDU: tcpviz does not read its subframes"},
}

// ReadJSONLines reads a gzipped JSON-lines log of the corpus (a link's
// truth log, a sender kernel's record), keeping the lines keep accepts.
func ReadJSONLines[E any](t interface {
	Helper()
	Fatalf(string, ...any)
}, path string, keep func(E) bool) []E {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []E
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		var e E
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if keep(e) {
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// KnownAnalysisDifferences lists the captures where our per-packet analysis
// differs from tshark 4.0 on purpose, why, and at most how many frames
// (TestAnalysisMatchesTshark) and directions (TestSummaryMatchesTshark)
// differ, as measured when listed: the counts may shrink, never grow.
// Every other capture must match on every frame.
var KnownAnalysisDifferences = map[string]KnownDiff{
	"real__ndpi__fix2.pcap":                              {74, 2, dupReason},
	"real__ndpi__rtsp.pcap":                              {544, 14, dupReason},
	"real__tcpdump__pptp.pcap":                           {8, 1, dupReason},
	"real__tcptrace__bad_ack_code.dmp.gz":                {10, 2, dupReason},
	"real__tcptrace__hardware_dups.dmp.gz":               {473, 1, dupReason},
	"real__tcptrace__pcap_v2.2.dmp.gz":                   {10, 2, dupReason},
	"real__zeek__ssh-dups.pcap":                          {128, 2, dupReason},
	"real__tcptrace__discard.solaris.dmp.gz":             {124, 1, dupReason + "; a duplicated SYN also moves tshark's initial_rtt start to the copy"},
	"real__suricata-verify__tcp-empty-sack_tcp-opt.pcap": {1, 1, "frame 24 carries an empty SACK option: tshark 4.0 stops dissecting the TCP header there and shows no analysis (we show its acks_frame and ack_rtt)"},
	"real__zeek__telnet-long-line-no-eol.pcapng.gz":      {1, 0, "one frame (13987) tshark flags as ACK of an unseen segment although the ACK equals the sender's next sequence number (not yet explained; the 16 MB transfer is never acknowledged, so Wireshark's 10000-unacked-segment cap is reached)"},
	"testdata__truth-extra__gt_v6_any_loss.tx.pcap":      {2071, 3, "the SYN's TCP options are cut by the snaplen (96 bytes: SLL2, IPv6 and 40 bytes of TCP header): tshark stops dissecting the SYN there, so it neither analyses it (no ack_rtt on the SYN-ACK) nor learns that no window scaling was offered (scale -1, unknown, where we say -2, none), and with the scale unknown it flags neither duplicate ACKs nor window updates"},
}

// KnownDiff is a listed difference: its bounds and its reason.
type KnownDiff struct {
	Frames, Directions int
	Why                string
}

// dupReason explains the captures with capture duplicates.
const dupReason = "the capture holds the same packets twice (capture duplicates); tshark analyses the copies as retransmissions or duplicate ACKs and its later flags, duplicate-ACK numbers and ack_rtt follow from that, we flag them CaptureDuplicate and leave the analysis state alone"

// CutAtSACK reports whether tshark's dissection of the frame's TCP
// header stopped inside the SACK option (a block with a left edge and no
// right edge: a snap length cut it): tshark then prints no tcp.analysis
// field for the frame, although its analysis state was updated.
func (fr Frame) CutAtSACK() bool {
	for _, b := range strings.Split(fr.Str("sack"), ",") {
		if l, r, ok := strings.Cut(b, "-"); ok && l != "" && r == "" {
			return true
		}
	}
	return false
}
