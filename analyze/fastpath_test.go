package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tcpviz/internal/capturetest"
	"tcpviz/internal/gencap"
	"tcpviz/internal/golden"
	"tcpviz/reassembly"
)

// TestSortedFastPathEqualsLoops: the sorted-list shortcuts for ACKs and
// bytes in flight give, on every packet of every capture at hand, the
// analysis Wireshark's loops give.
func TestSortedFastPathEqualsLoops(t *testing.T) {
	var paths []string
	for _, pattern := range []string{
		filepath.Join("..", "testdata", "*.pcap*"), filepath.Join("..", "testdata", "truth-extra", "*.pcap"),
		filepath.Join(golden.SharedCaptures(), "*", "*.pcap*"), filepath.Join(golden.SharedCaptures(), "*", "*.dmp.gz"),
		filepath.Join(golden.SharedCaptures(), "*", "*.snoop.gz"),
	} {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	frames := 0
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 64<<20 {
			continue
		}
		if f, err := os.Open(path); err != nil {
			continue
		} else {
			_, err := reassembly.NewReader(f)
			f.Close()
			if err != nil {
				continue // not a capture this package reads
			}
		}
		frames += sameAnalysisBothWays(t, filepath.Base(path), func() *reassembly.Reader { return capturetest.Reader(t, path) })
	}
	// Retransmission storms: with fewer than maxUnacked segments
	// outstanding the list is unsorted once the copies are appended.
	for _, outstanding := range []int{1, 100, maxUnacked - 5, maxUnacked} {
		frames += sameAnalysisBothWays(t, fmt.Sprintf("storm over %d", outstanding), func() *reassembly.Reader {
			r, err := reassembly.NewReader(gencap.Retransmissions(3000, outstanding, 1000, 25000))
			if err != nil {
				t.Fatal(err)
			}
			return r
		})
	}
	if frames < 10000 {
		t.Fatalf("only %d segments compared", frames)
	}
	t.Logf("%d segments of %d captures", frames, len(paths))
}

// sameAnalysisBothWays fails unless the fast paths and Wireshark's loops
// analyse every segment of a capture alike; it returns how many there were.
func sameAnalysisBothWays(t *testing.T, name string, open func() *reassembly.Reader) int {
	t.Helper()
	infos := func(loops bool) []PacketInfo {
		a := newAnalyzer()
		a.loopsOnly = loops
		var out []PacketInfo
		sc := reassembly.NewScanner(open())
		for sc.Scan() {
			out = append(out, a.segment(sc.Conn(), sc.Segment()))
		}
		return out
	}
	fast, slow := infos(false), infos(true)
	for i := range fast {
		if !sameInfo(fast[i], slow[i]) {
			t.Fatalf("%s: segment %d: fast path %+v, loops %+v", name, i, fast[i], slow[i])
		}
	}
	return len(fast)
}

// TestRunScanModesAgree: Run gives every connection the same result (the
// tracker's view and every statistic), in the same order, whether it scans
// in one goroutine, with reading and decoding ahead, or with the tracker
// ahead too (what summary and streams use on more than one core).
func TestRunScanModesAgree(t *testing.T) {
	conns := 0
	for _, path := range scanModeCaptures(t) {
		run := func(mode scanMode, analyse bool) string {
			var out []string
			res, err := Run(capturetest.Reader(t, path), RunOptions{Analyze: analyse, Keep: -1, scan: mode,
				OnConn: func(cr *ConnResult) { out = append(out, fmt.Sprintf("%+v", *cr)) }})
			return fmt.Sprintf("%+v\n%v\n%s", *res, err, strings.Join(out, "\n"))
		}
		for _, analyse := range []bool{true, false} {
			plain := run(scanPlain, analyse)
			for _, mode := range []scanMode{scanPipe, scanPipeTrack} {
				if got := run(mode, analyse); got != plain {
					t.Fatalf("%s (analyse %v): scan mode %d differs from the plain scan:\n%s\nplain:\n%s",
						filepath.Base(path), analyse, mode, got, plain)
				}
			}
		}
		conns += strings.Count(run(scanPlain, false), "\n")
	}
	if _, err := os.Stat(golden.SharedCaptures()); conns < 50 && err == nil {
		t.Fatalf("only %d connections compared", conns)
	}
	if conns == 0 {
		t.Fatal("no connection compared")
	}
}

// TestKeptRecordsScanModesAgree: the records of the connections a run
// keeps (the busiest, and the next ones as Also), and the graphs drawn of
// them while reading, are the same whether the tracker runs in the
// analysis' goroutine or ahead of it (records are made of what the
// segment carries, not of the connection as the tracker has it by then).
func TestKeptRecordsScanModesAgree(t *testing.T) {
	kept := 0
	type source struct {
		name string
		open func() *reassembly.Reader
	}
	// A SYN/ACK seen after thousands of segments moves the numbering
	// while the tracker is ahead of the records still to be made.
	sources := []source{{"late SYN/ACK", func() *reassembly.Reader {
		r, err := reassembly.NewReader(gencap.LateSYNACK(1500, 1500, 1000))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}}}
	for _, path := range scanModeCaptures(t) {
		sources = append(sources, source{filepath.Base(path), func() *reassembly.Reader { return capturetest.Reader(t, path) }})
	}
	for _, src := range sources {
		first, _ := Run(src.open(), RunOptions{Keep: -1, Top: 3})
		if first.Busiest < 0 {
			continue
		}
		var also []busy
		for _, b := range first.Top {
			if b.Stream != first.Busiest {
				also = append(also, b)
			}
		}
		run := func(mode scanMode, build bool) string {
			var graphs []string
			var conns []string // every connection's statistics (the others' RTT state is kept ahead)
			o := RunOptions{Analyze: true, Keep: first.Busiest, Also: also, scan: mode,
				OnConn: func(cr *ConnResult) { conns = append(conns, fmt.Sprintf("%+v", *cr)) }}
			if build {
				// Records handed over one by one, as graphs are drawn.
				o.KeepTo = func(c *reassembly.Conn, s *reassembly.Segment, r *Record) {
					if len(graphs) == 0 {
						// Let the tracker run ahead as far as it goes.
						time.Sleep(20 * time.Millisecond)
					}
					graphs = append(graphs, fmt.Sprintf("k %d %d %+v", c.Stream, s.ConnFirstTime, *r))
				}
				o.AlsoTo = func(i int, c *reassembly.Conn, s *reassembly.Segment, r *Record) {
					graphs = append(graphs, fmt.Sprintf("a%d %d %d %+v", i, c.Stream, s.ConnFirstTime, *r))
				}
			}
			res, err := Run(src.open(), o)
			out := fmt.Sprintf("%v\n%+v\n%+v\n%s", err, res.Records, res.Stats, strings.Join(graphs, "\n"))
			for _, l := range res.Also {
				out += fmt.Sprintf("\n%d %+v %+v", l.Conn.Stream, l.Records, l.Stats)
			}
			slices.Sort(conns)
			return out + "\n" + strings.Join(conns, "\n")
		}
		for _, build := range []bool{false, true} {
			plain := run(scanPlain, build)
			if got := run(scanPipeTrack, build); got != plain {
				t.Fatalf("%s (records one by one %v): with the tracker ahead, the kept records differ from the plain scan's:\n%.3000s\nplain:\n%.3000s",
					src.name, build, got, plain)
			}
		}
		kept++
	}
	least := 50
	if raceEnabled {
		least = 20 // of the first 40 (scanModeCaptures)
	}
	if _, err := os.Stat(golden.SharedCaptures()); kept < least && err == nil {
		t.Fatalf("only %d captures compared", kept)
	}
	if kept == 0 {
		t.Fatal("no capture compared")
	}
}

// scanModeCaptures are the captures the scan modes are compared on: the
// bundled ones and the shared corpus (fewer under the race detector).
func scanModeCaptures(t *testing.T) []string {
	var paths []string
	for _, pattern := range []string{
		filepath.Join("..", "testdata", "*.pcap*"), filepath.Join("..", "testdata", "truth-extra", "*.pcap"),
		filepath.Join(golden.SharedCaptures(), "*", "*.pcap*"), filepath.Join(golden.SharedCaptures(), "*", "*.dmp.gz"),
		filepath.Join(golden.SharedCaptures(), "*", "*.snoop.gz"),
	} {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	if raceEnabled {
		paths = paths[:min(len(paths), 40)]
	}
	var out []string
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.Size() > 64<<20 {
			continue
		}
		if f, err := os.Open(path); err != nil {
			continue
		} else {
			_, err := reassembly.NewReader(f)
			f.Close()
			if err != nil {
				continue
			}
		}
		out = append(out, path)
	}
	return out
}

// TestSortedFastPathFarAck: an ACK about 2^31 beyond the first unacked
// segment is, in serial arithmetic, above some of the segments and below
// others: Wireshark's loop removes those it is above, and so must the
// sorted-list shortcut (which once took such an ACK as acknowledging
// nothing).
func TestSortedFastPathFarAck(t *testing.T) {
	for _, far := range []uint32{1 << 31, 1<<31 + 1500, 1<<31 + 2999, 1<<31 + 3001, 1<<31 - 1, 1<<31 + 1<<30, 1 << 30} {
		run := func(loops bool) []PacketInfo {
			cv := newConv(t, 1000, 5000)
			cv.a.loopsOnly = loops
			cv.handshake(7, 7, 10)
			for i := range uint32(3) {
				cv.send(seg{dir: c2s, seq: 1 + i*mss, ack: 1, n: mss, win: W})
			}
			cv.send(seg{dir: s2c, seq: 1, ack: 1 + far, win: W, dtMs: 5})
			cv.send(seg{dir: c2s, seq: 1 + 3*mss, ack: 1, n: mss, win: W})
			cv.send(seg{dir: s2c, seq: 1, ack: 1 + 4*mss, win: W, dtMs: 5})
			return cv.info
		}
		fast, slow := run(false), run(true)
		for i := range fast {
			if !sameInfo(fast[i], slow[i]) {
				t.Errorf("ACK at first+%d: segment %d: fast path %+v, loops %+v", far, i, fast[i], slow[i])
			} else if testing.Verbose() {
				t.Logf("%d %d %+v", far, i, fast[i])
			}
		}
	}
}

// TestStormFastPathEqualsLoops: a retransmission storm over an unsorted
// list, with duplicate ACKs below it, partial ACKs that trim and remove
// segments, and SACK, is analysed as Wireshark's loops analyse it.
func TestStormFastPathEqualsLoops(t *testing.T) {
	run := func(loops bool) []PacketInfo {
		cv := newConv(t, 1<<32-30000, 5000) // sequence numbers wrap during the storm
		cv.a.loopsOnly = loops
		cv.handshake(7, 7, 10)
		for i := range uint32(40) {
			cv.send(seg{dir: c2s, seq: 1 + i*mss, ack: 1, n: mss, win: W})
		}
		// A copy of the first segment, then an ACK inside both copies:
		// it trims them and removes nothing.
		cv.send(seg{dir: c2s, seq: 1, ack: 1, n: mss, win: W, dtMs: 25})
		cv.send(seg{dir: s2c, seq: 1, ack: 1 + mss/2, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 1 + mss/2, ack: 1, n: mss / 2, win: W, dtMs: 25})
		acked := uint32(1 + mss/2)
		for i := range uint32(600) {
			at := acked + (i%3)*mss/2 // copies of the first segments, some half a segment up
			cv.send(seg{dir: c2s, seq: at, ack: 1, n: mss, win: W, dtMs: 25})
			switch {
			case i%97 == 96: // a partial ACK inside a segment: trims
				acked += mss / 2
				cv.send(seg{dir: s2c, seq: 1, ack: acked, win: W, dtMs: 1})
			case i%50 == 49: // a partial ACK at a segment's end
				acked += mss - acked%mss + 1
				cv.send(seg{dir: s2c, seq: 1, ack: acked, win: W, dtMs: 1})
			case i%2 == 0: // a duplicate ACK, SACKing the top
				cv.send(seg{dir: s2c, seq: 1, ack: acked, win: W, dtMs: 1, sack: [][2]uint32{{1 + 30*mss, 1 + 40*mss}}})
			}
		}
		cv.send(seg{dir: s2c, seq: 1, ack: 1 + 40*mss, win: W, dtMs: 1})
		return cv.info
	}
	// Without a handshake the base is below the first segment seen; a
	// sorted list that starts below the base takes the bounds too, and an
	// ACK that removes its first segment must renew them.
	below := func(loops bool) []PacketInfo {
		cv := newConv(t, 100000, 5000)
		cv.a.loopsOnly = loops
		cv.send(seg{dir: c2s, seq: 10000, ack: 1, n: mss, win: W})
		cv.send(seg{dir: s2c, seq: 1, ack: 10000 + mss, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 5000, ack: 1, n: mss, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 11000, ack: 1, n: mss, win: W, dtMs: 1})
		cv.send(seg{dir: s2c, seq: 1, ack: 5000 + mss, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 12000, ack: 1, n: mss, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 11000, ack: 1, n: mss, win: W, dtMs: 1})
		cv.send(seg{dir: c2s, seq: 13000, ack: 1, n: mss, win: W, dtMs: 1})
		return cv.info
	}
	for name, f := range map[string]func(bool) []PacketInfo{"storm": run, "below the base": below} {
		fast, slow := f(false), f(true)
		for i := range fast {
			if !sameInfo(fast[i], slow[i]) {
				t.Fatalf("%s: segment %d: fast path %+v, loops %+v", name, i, fast[i], slow[i])
			}
		}
	}
}

// sameInfo says whether two analyses of a segment are equal, the frames
// they proved spurious compared by value.
func sameInfo(a, b PacketInfo) bool {
	if !slices.Equal(a.Proved, b.Proved) {
		return false
	}
	a.Proved, b.Proved = nil, nil
	return reflect.DeepEqual(a, b)
}
