package analyze

import (
	"bufio"
	"fmt"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tcpviz/internal/golden"
)

// tcptraceConn is one connection of a tcptrace -l report: per direction
// (a->b, b->a) the values we compare.
type tcptraceConn struct {
	a, b   string
	values map[string][2]float64
}

var (
	twoCol   = regexp.MustCompile(`([A-Za-z][A-Za-z0-9 /_.]*?):\s+([-\d.]+)`)
	connLine = regexp.MustCompile(`^TCP connection \d+:`)
	hostLine = regexp.MustCompile(`^\s+host [a-z]+:`)
)

// label is a two-column line's label without what precedes it.
func label(s string) string {
	if i := strings.LastIndex(s, "  "); i >= 0 {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// endpoint normalises tcptrace's addr:port (IPv6 with zero-padded groups).
func endpoint(s string) string {
	s = strings.TrimSpace(s)
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return s
	}
	a, err := netip.ParseAddr(s[:i])
	if err != nil {
		return s
	}
	p, _ := strconv.Atoi(s[i+1:])
	return netip.AddrPortFrom(a, uint16(p)).String()
}

func parseTcptraceLong(path string) ([]tcptraceConn, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []tcptraceConn
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case connLine.MatchString(line):
			out = append(out, tcptraceConn{values: map[string][2]float64{}})
		case len(out) == 0:
		case hostLine.MatchString(line): // "host a:", "host b:", then c, d, ...
			c := &out[len(out)-1]
			ep := endpoint(strings.SplitN(line, ":", 2)[1])
			if c.a == "" {
				c.a = ep
			} else {
				c.b = ep
			}
		default:
			m := twoCol.FindAllStringSubmatch(line, -1)
			if len(m) == 2 && label(m[0][1]) == label(m[1][1]) {
				x, _ := strconv.ParseFloat(m[0][2], 64)
				y, _ := strconv.ParseFloat(m[1][2], 64)
				c := &out[len(out)-1]
				if _, dup := c.values[label(m[0][1])]; !dup {
					c.values[label(m[0][1])] = [2]float64{x, y}
				}
			}
		}
	}
	return out, sc.Err()
}

// knownTcptraceDifferences lists the references we do not match, why, and
// how many values differ at most (measured when listed): the count may
// shrink, never grow.
var knownTcptraceDifferences = map[string]struct {
	max int
	why string
}{
	"6syns.dmp.gz":      {6, truncatedFrames},
	"fast_reuse.dmp.gz": {45, truncatedFrames},
	"long_rtt.dmp.gz":   {3, truncatedFrames},
}

// truncatedFrames explains captures whose data frames are cut short.
const truncatedFrames = "data frames are cut to 54 payload bytes and the record's wire length is the cut length: " +
	"tshark, and tcpviz with it, take the payload length from the frame; tcptrace takes it from the IP total length, " +
	"so unique bytes, throughput and the tcptrace-style RTT samples (segment ends no longer meet the ACKs) differ"

// knownUniqueBytesExtra lists, by capture and sender, the unique bytes
// tcpviz counts above tcptrace, and why; the rest of those captures is
// asserted.
var knownUniqueBytesExtra = map[string]struct {
	extra int64
	why   string
}{
	// Frames 8831 and 8833: the chargen server's zero-window probes carry
	// byte 587913179, the receiver's window stays 0 and the capture ends
	// before the window reopens. tcptrace does not count a probe's bytes
	// as unique ("if (!probe) unique_bytes += ...", trace.c) and the byte
	// is never sent outside a probe; tcpviz counts every byte sent once.
	// (Earlier stalls end with the probed byte re-sent after the window
	// reopens, which tcptrace then counts.)
	"urgent.dmp.gz 132.235.1.12:19": {1, "a zero-window probe byte never re-sent before the capture ends: tcptrace does not count probe bytes"},
}

// tcptraceRef is one tcptrace -l reference and the capture it describes.
type tcptraceRef struct{ name, long, capture string }

// tcptraceRefs lists the references: tcptrace's own expected outputs for
// its regression inputs (../shared/captures/reference/tcptrace, named by
// capture) and those scripts/tcptrace-golden.sh wrote for bundled
// captures (testdata/tcptrace, named testdata/<path>).
func tcptraceRefs() []tcptraceRef {
	var refs []tcptraceRef
	longs, _ := filepath.Glob(filepath.Join(golden.SharedCaptures(), "reference", "tcptrace", "*.long"))
	for _, l := range longs {
		name := strings.TrimSuffix(filepath.Base(l), ".long")
		refs = append(refs, tcptraceRef{name, l, filepath.Join(golden.SharedCaptures(), "real", "tcptrace__"+name)})
	}
	longs, _ = filepath.Glob(filepath.Join(golden.Testdata(), "tcptrace", "*.long"))
	for _, l := range longs {
		rel := strings.ReplaceAll(strings.TrimSuffix(filepath.Base(l), ".long"), "__", "/")
		refs = append(refs, tcptraceRef{"testdata/" + rel, l, golden.Resolve("testdata/" + rel)})
	}
	return refs
}

func TestTcptraceReference(t *testing.T) {
	var cases golden.Cases
	defer cases.Check(t, 4)
	refs := tcptraceRefs()
	if len(refs) == 0 {
		t.Fatal("no tcptrace references (testdata/tcptrace is part of the repository)")
	}
	checked, rttEqual, rttTotal := 0, 0, 0
	var karn, karnAsserted karnTally
	for _, ref := range refs {
		name, l, capture := ref.name, ref.long, ref.capture
		t.Run(name, func(t *testing.T) {
			cases.Need(t, capture)
			errorf := t.Errorf
			known, isKnown := knownTcptraceDifferences[name]
			differing := 0
			if isKnown {
				errorf = func(f string, args ...any) {
					differing++
					t.Logf("known ("+known.why+"): "+f, args...)
				}
				defer func() {
					if differing > known.max {
						t.Errorf("%d values differ from tcptrace, at most %d known", differing, known.max)
					} else if differing < known.max {
						t.Logf("%d values differ from tcptrace, %d known: lower knownTcptraceMax", differing, known.max)
					}
				}()
			}
			conns, err := parseTcptraceLong(l)
			if err != nil {
				t.Fatal(err)
			}
			_, a, ours := analyzeCapture(t, capture)
			used := map[int]bool{}
			for _, tc := range conns {
				// The first of our connections with the same endpoints not
				// matched yet (tcptrace numbers connections by first packet
				// too, but merges what Wireshark splits on a new ISN).
				var st [2]DirStats
				found := false
				for i, c := range ours {
					ep := map[string]bool{c.Client.String(): true, c.Server.String(): true}
					if used[i] || !ep[tc.a] || !ep[tc.b] {
						continue
					}
					used[i], found = true, true
					st = a.stats(c)
					if c.Client.String() != tc.a {
						st[0], st[1] = st[1], st[0]
					}
					break
				}
				if !found {
					errorf("tcptrace connection %s - %s: not found", tc.a, tc.b)
					continue
				}
				for d := 0; d < 2; d++ {
					checked++
					sender := tc.a
					if d == 1 {
						sender = tc.b
					}
					want := tc.values["unique bytes sent"][d]
					if k, ok := knownUniqueBytesExtra[name+" "+sender]; ok {
						t.Logf("%s: unique bytes %d, tcptrace %.0f + %d expected (%s)", sender, st[d].UniqueBytes, want, k.extra, k.why)
						want += float64(k.extra)
					}
					if float64(st[d].UniqueBytes) != want {
						errorf("%s-%s dir %d: unique bytes %d, tcptrace %.0f", tc.a, tc.b, d, st[d].UniqueBytes, want)
					}
					want = tc.values["throughput"][d]
					if got := st[d].ThroughputBps / 8; math.Abs(got-want) > 1 {
						errorf("%s-%s dir %d: throughput %.1f B/s, tcptrace %v", tc.a, tc.b, d, got, want)
					}
					if n := tc.values["RTT samples"][d]; n > 0 {
						rttTotal++
						if st[d].RTTSamples > 0 && math.Abs(st[d].RTTMinMs-tc.values["RTT min"][d]) <= 0.05 &&
							math.Abs(st[d].RTTMaxMs-tc.values["RTT max"][d]) <= 0.05 &&
							math.Abs(st[d].RTTMeanMs-tc.values["RTT avg"][d]) <= 0.05 {
							rttEqual++
						}
					}
					k := karnCheck(tc, d, &st[d])
					karn.add(k)
					if _, known := knownTcptraceDifferences[name]; !known {
						karnAsserted.add(k)
					}
					if k.problem != "" {
						errorf("%s-%s dir %d: %s", tc.a, tc.b, d, k.problem)
					}
				}
			}
		})
	}
	t.Logf("%d directions checked; Wireshark-rule RTT min/avg/max equal to tcptrace's (0.1 ms print precision) in %d of %d directions with samples", checked, rttEqual, rttTotal)
	for _, k := range []struct {
		what string
		n    *karnTally
	}{{"all captures", &karn}, {"outside knownTcptraceDifferences", &karnAsserted}} {
		t.Logf("tcptrace-style (Karn) RTT, %s: %d directions (%d with samples): samples equal in %d, min in %d, avg in %d, max in %d, stdev in %d",
			k.what, k.n.dirs, k.n.withSamples, k.n.samples, k.n.min, k.n.avg, k.n.max, k.n.stdev)
	}
}

// karnResult is the comparison of one direction's tcptrace-style RTT.
type karnResult struct {
	samples, min, avg, max, stdev bool // equal within tcptrace's print precision
	withSamples                   bool // tcptrace has samples in this direction
	problem                       string
}

type karnTally struct{ dirs, withSamples, samples, min, avg, max, stdev int }

func (k *karnTally) add(r karnResult) {
	k.dirs++
	b := func(ok bool, n *int) {
		if ok {
			*n++
		}
	}
	b(r.withSamples, &k.withSamples)
	b(r.samples, &k.samples)
	b(r.min, &k.min)
	b(r.avg, &k.avg)
	b(r.max, &k.max)
	b(r.stdev, &k.stdev)
}

// rttTolerance: tcptrace prints RTTs in ms with one decimal ("%8.1f"), so
// an exact value rounds to the printed one when within 0.05 ms (plus a
// hair for binary rounding of the printed decimal).
const rttTolerance = 0.05 + 1e-9

// karnCheck compares the tcptrace-style RTT columns of one direction with
// tcptrace's "RTT samples", "RTT min", "RTT avg", "RTT max" and "RTT
// stdev" (0.0 with two samples or fewer, as ours).
func karnCheck(tc tcptraceConn, d int, st *DirStats) karnResult {
	var r karnResult
	want := tc.values["RTT samples"][d]
	r.withSamples = want > 0
	r.samples = float64(st.KarnRTTSamples) == want
	near := func(got float64, label string) bool {
		return math.Abs(got-tc.values[label][d]) <= rttTolerance
	}
	if want == 0 {
		r.min, r.avg, r.max, r.stdev = r.samples, r.samples, r.samples, r.samples
	} else {
		r.stdev = near(st.KarnRTTStdevMs, "RTT stdev")
		r.min = near(st.KarnRTTMinMs, "RTT min")
		// tcptrace's Average divides by count+0.0001.
		r.avg = near(st.KarnRTTAvgMs*want/(want+0.0001), "RTT avg")
		r.max = near(st.KarnRTTMaxMs, "RTT max")
	}
	if !r.samples || !r.min || !r.avg || !r.max || !r.stdev {
		r.problem = fmt.Sprintf("tcptrace-style RTT samples %d min %.3f avg %.3f max %.3f stdev %.3f ms, tcptrace %.0f %.1f %.1f %.1f %.1f",
			st.KarnRTTSamples, st.KarnRTTMinMs, st.KarnRTTAvgMs, st.KarnRTTMaxMs, st.KarnRTTStdevMs,
			want, tc.values["RTT min"][d], tc.values["RTT avg"][d], tc.values["RTT max"][d], tc.values["RTT stdev"][d])
	}
	return r
}
