package reassembly

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"tcpviz/internal/golden"
)

// TestPipelineEqualsPlainScan: a pipelined scanner, with the tracker in
// Scan's goroutine or in the pipeline's (with or without hooks there),
// returns, on every capture at hand
// (damaged ones included), the same segments assigned to the same streams,
// the same new connections (each before its first segment) and retired
// ones (as they were when retired, each after its last segment, also
// where a sweep after a time step retires the connection of the segment
// that made it due),
// warnings, counts and error as a plain one; the hooks run in the
// pipeline see the same segments, and every retirement before Scan's
// OnRetire does; and Close stops it midway.
func TestPipelineEqualsPlainScan(t *testing.T) {
	type trace struct {
		segs    []Segment
		streams []int
		news    []int
		newAt   []int // the segments handed over before each OnNew
		retired []int
		retAt   []int  // the segments handed over before each OnRetire
		final   []Conn // each retired connection as OnRetire saw it
		// With hooks in the pipeline: the segments and streams onTrack saw,
		// the streams onRetire saw.
		ahead, aheadRetired []int
		aheadSegs           []Segment
		warns               string
		stats               DecodeStats
		packets             int64
		err                 string
	}
	const (
		plainScan = iota
		pipeScan
		pipeTrack
		pipeAhead
	)
	scan := func(path string, mode int) (trace, bool) {
		f, err := os.Open(path)
		if err != nil {
			return trace{}, false
		}
		defer f.Close()
		r, err := NewReader(f)
		if err != nil {
			return trace{}, false
		}
		sc := NewScanner(r)
		switch mode {
		case pipeScan:
			sc.Pipeline()
			defer sc.Close()
		case pipeTrack:
			sc.PipelineTracker()
			defer sc.Close()
		}
		var tr trace
		var mu sync.Mutex
		retiredAhead := map[*Conn]bool{}
		if mode == pipeAhead {
			sc.PipelineTrackerAhead(func(c *Conn, s *Segment) {
				tr.aheadSegs = append(tr.aheadSegs, *s)
				tr.ahead = append(tr.ahead, c.Stream)
			}, func(c *Conn) {
				tr.aheadRetired = append(tr.aheadRetired, c.Stream)
				mu.Lock()
				retiredAhead[c] = true
				mu.Unlock()
			})
			defer sc.Close()
		}
		sc.Tracker().OnNew = func(c *Conn) {
			tr.news, tr.newAt = append(tr.news, c.Stream), append(tr.newAt, len(tr.segs))
		}
		sc.Tracker().OnRetire = func(c *Conn) {
			if mode == pipeAhead {
				mu.Lock()
				ahead := retiredAhead[c]
				mu.Unlock()
				if !ahead {
					t.Errorf("%s: stream %d retired by Scan before the pipeline's hook saw it", path, c.Stream)
				}
			}
			tr.retired, tr.retAt = append(tr.retired, c.Stream), append(tr.retAt, len(tr.segs))
			tr.final = append(tr.final, *c)
		}
		for sc.Scan() {
			tr.segs = append(tr.segs, *sc.Segment())
			tr.streams = append(tr.streams, sc.Conn().Stream)
		}
		ws, more := sc.Warnings()
		tr.warns = fmt.Sprint(ws, more)
		tr.stats, tr.packets = sc.Stats(), sc.Packets()
		if err := sc.Err(); err != nil {
			tr.err = err.Error()
		}
		return tr, true
	}
	n := 0
	paths := golden.Captures()
	if raceEnabled {
		paths = paths[:min(len(paths), 40)] // the race detector's share: the first 40
	}
	for _, path := range paths {
		plain, ok := scan(path, plainScan)
		if !ok {
			continue
		}
		for _, mode := range []int{pipeScan, pipeTrack, pipeAhead} {
			piped, _ := scan(path, mode)
			if mode == pipeAhead && (!reflect.DeepEqual(piped.aheadSegs, plain.segs) || !reflect.DeepEqual(piped.ahead, plain.streams) ||
				!reflect.DeepEqual(piped.aheadRetired, plain.retired)) {
				t.Fatalf("%s: the pipeline's hooks saw %d segments, retirements %v; the plain scan %d, %v",
					path, len(piped.aheadSegs), piped.aheadRetired, len(plain.segs), plain.retired)
			}
			same := len(plain.segs) == len(piped.segs) && fmt.Sprint(plain.news, plain.newAt, plain.retired, plain.retAt, plain.warns, plain.stats, plain.packets, plain.err) ==
				fmt.Sprint(piped.news, piped.newAt, piped.retired, piped.retAt, piped.warns, piped.stats, piped.packets, piped.err) &&
				reflect.DeepEqual(plain.final, piped.final)
			for i := 0; same && i < len(plain.segs); i++ {
				same = sameSegment(plain.segs[i], piped.segs[i]) && plain.streams[i] == piped.streams[i]
			}
			if !same {
				for i := range min(len(plain.segs), len(piped.segs)) {
					if !sameSegment(plain.segs[i], piped.segs[i]) || plain.streams[i] != piped.streams[i] {
						t.Fatalf("%s: segment %d:\nplain %d %+v\npiped %d %+v", path, i, plain.streams[i], plain.segs[i], piped.streams[i], piped.segs[i])
					}
				}
				t.Fatalf("%s (mode %d): plain %d segments, new %v, retired %v, warnings %s, stats %+v, %d packets, err %q; piped %d, %v, %v, %s, %+v, %d, %q",
					path, mode, len(plain.segs), plain.news, plain.retired, plain.warns, plain.stats, plain.packets, plain.err,
					len(piped.segs), piped.news, piped.retired, piped.warns, piped.stats, piped.packets, piped.err)
			}
		}
		n += len(plain.segs)
	}
	if _, err := os.Stat(golden.SharedCaptures()); n < 10000 && err == nil {
		t.Fatalf("only %d segments compared", n)
	}

	// Close midway: the producer stops, nothing hangs.
	for _, track := range []bool{false, true} {
		for _, path := range paths {
			f, err := os.Open(path)
			if err != nil {
				continue
			}
			r, err := NewReader(f)
			if err != nil {
				f.Close()
				continue
			}
			sc := NewScanner(r)
			if track {
				sc.PipelineTracker()
			} else {
				sc.Pipeline()
			}
			sc.Scan()
			sc.Close()
			f.Close()
			break
		}
	}
}

// sameSegment reports whether two segments are equal, their First (a
// lone connection's SYN, made again for each) compared by value.
func sameSegment(a, b Segment) bool {
	if (a.First == nil) != (b.First == nil) || a.First != nil && *a.First != *b.First {
		return false
	}
	a.First, b.First = nil, nil
	return a == b
}

// TestPipelineLayout: what Scan's goroutine writes for every segment
// (pipeline's cur, i, ev, over; Scanner's segp and cur) is 64 bytes or
// more from every field the producer's goroutine reads for every packet
// (pipeline's track and aheadTrack, fill and stopped; Scanner's r, dec,
// trk, pipe and focus), so that no cache line holds both: a line both
// use goes from one core to the other and back for every packet.
func TestPipelineLayout(t *testing.T) {
	type span struct {
		name     string
		off, end uintptr
	}
	apart := func(what string, scan, producer []span) {
		for _, a := range scan {
			for _, b := range producer {
				if a.off < b.end+64 && b.off < a.end+64 {
					t.Errorf("%s: %s (bytes %d-%d) within 64 bytes of %s (%d-%d)", what, a.name, a.off, a.end, b.name, b.off, b.end)
				}
			}
		}
	}
	var p pipeline
	at := func(name string, off, size uintptr) span { return span{name, off, off + size} }
	apart("pipeline", []span{
		at("cur", unsafe.Offsetof(p.cur), unsafe.Sizeof(p.cur)), at("i", unsafe.Offsetof(p.i), unsafe.Sizeof(p.i)),
		at("ev", unsafe.Offsetof(p.ev), unsafe.Sizeof(p.ev)), at("over", unsafe.Offsetof(p.over), unsafe.Sizeof(p.over)),
	}, []span{
		at("track", unsafe.Offsetof(p.track), unsafe.Sizeof(p.track)), at("fill", unsafe.Offsetof(p.fill), unsafe.Sizeof(p.fill)),
		at("stopped", unsafe.Offsetof(p.stopped), unsafe.Sizeof(p.stopped)), at("aheadTrack", unsafe.Offsetof(p.aheadTrack), unsafe.Sizeof(p.aheadTrack)),
		at("full", unsafe.Offsetof(p.full), unsafe.Sizeof(p.full)), at("free", unsafe.Offsetof(p.free), unsafe.Sizeof(p.free)),
	})
	var s Scanner
	apart("Scanner", []span{
		at("segp", unsafe.Offsetof(s.segp), unsafe.Sizeof(s.segp)), at("cur", unsafe.Offsetof(s.cur), unsafe.Sizeof(s.cur)),
	}, []span{
		at("r", unsafe.Offsetof(s.r), unsafe.Sizeof(s.r)), at("dec", unsafe.Offsetof(s.dec), unsafe.Sizeof(s.dec)),
		at("trk", unsafe.Offsetof(s.trk), unsafe.Sizeof(s.trk)), at("pipe", unsafe.Offsetof(s.pipe), unsafe.Sizeof(s.pipe)),
		at("focus", unsafe.Offsetof(s.focus), unsafe.Sizeof(s.focus)), at("warnings", unsafe.Offsetof(s.warnings), unsafe.Sizeof(s.warnings)),
	})
}

// TestSegmentSize: segments are copied into the pipeline's batches, one
// per packet; 8 more bytes (a field after First instead of in the bools'
// padding) made summary of the bench capture 15% slower. Grow it only
// knowingly, measuring with make bench-compare.
func TestSegmentSize(t *testing.T) {
	if n := unsafe.Sizeof(Segment{}); n > 240 {
		t.Errorf("a Segment is %d bytes, more than 240", n)
	}
}

// TestDSACK: RFC 2883's two forms of a D-SACK (a first block below the
// cumulative ACK, or inside the second block), SACK edges unwrapped next
// to the ACK across the 2^32 wrap, and blocks that are neither.
func TestDSACK(t *testing.T) {
	ack := uint32(100) // just after the wrap: AckAbs 1<<32 + 100
	seg := func(blocks ...SACKBlock) *Segment {
		s := &Segment{Ack: ack, AckAbs: 1<<32 + uint64(ack)}
		s.Opt.NSACK = uint8(len(blocks))
		copy(s.Opt.SACK[:], blocks)
		return s
	}
	for _, c := range []struct {
		name   string
		s      *Segment
		ok     bool
		lo, hi uint64
	}{
		{"below the ACK, before the wrap", seg(SACKBlock{0xffffff00, 50}), true, 1<<32 - 0x100, 1<<32 + 50},
		{"inside the second block", seg(SACKBlock{300, 400}, SACKBlock{200, 500}), true, 1<<32 + 300, 1<<32 + 400},
		{"an ordinary block", seg(SACKBlock{300, 400}, SACKBlock{500, 600}), false, 0, 0},
		{"inverted", seg(SACKBlock{50, 40}), false, 0, 0},
		{"no SACK", seg(), false, 0, 0},
	} {
		lo, hi, ok := c.s.DSACK()
		if ok != c.ok || lo != c.lo || hi != c.hi {
			t.Errorf("%s: D-SACK [%d, %d) %v, want [%d, %d) %v", c.name, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
	if !IsDSACK[int64](10, 20, 30, false, 0, 0) || !IsDSACK[int64](40, 50, 30, true, 0, 100) || IsDSACK[int64](40, 50, 30, true, 45, 100) {
		t.Error("IsDSACK on relative numbers")
	}
}

// TestSweepAfterItsSegment: a sweep (Expire, every expireEvery+1
// packets) that retires the connection of the segment that made it due
// comes after that segment is handed over, in a plain scan as in a
// pipelined one: a time stepped an hour ahead on packet 8192 moves the
// sweeps' clock, and connection B's last packet, number 16384, closes it
// while the clock is far past it (helper-86's mini_back: the plain scan
// retired B first, and summary counted 4 of its 5 packets).
func TestSweepAfterItsSegment(t *testing.T) {
	const a, as, b, bs = "10.0.0.1:40000", "10.0.0.2:80", "10.0.0.3:40001", "10.0.0.4:80"
	ms := time.Millisecond
	var pkts []pkt
	pkts = append(pkts, pkt{src: a, dst: as, seq: 100, flags: SYN, win: 65535})
	for len(pkts) < 2*(expireEvery+1)-5 {
		p := pkt{t: time.Duration(len(pkts)) * ms, src: a, dst: as, seq: 101, ack: 1, flags: ACK, win: 65535}
		if len(pkts) == expireEvery { // packet 8192: an hour ahead
			p.t = time.Hour
		}
		pkts = append(pkts, p)
	}
	at := time.Duration(len(pkts)) * ms
	for i, p := range []pkt{
		{src: b, dst: bs, seq: 500, flags: SYN, win: 65535},
		{src: bs, dst: b, seq: 900, ack: 501, flags: SYN | ACK, win: 65535},
		{src: b, dst: bs, seq: 501, ack: 901, flags: ACK | FIN, win: 65535},
		{src: bs, dst: b, seq: 901, ack: 502, flags: ACK | FIN, win: 65535},
		{src: b, dst: bs, seq: 502, ack: 902, flags: ACK, win: 65535}, // packet 16384
	} {
		p.t = at + time.Duration(i)*ms
		pkts = append(pkts, p)
	}
	capture := pcapOf(t, pkts)
	for _, mode := range []string{"plain", "pipelined", "pipelined, the tracker ahead"} {
		r, err := NewReader(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScanner(r)
		switch mode {
		case "pipelined":
			sc.Pipeline()
		case "pipelined, the tracker ahead":
			sc.PipelineTracker()
		}
		retired := map[*Conn]bool{}
		var bRetired, last int64
		sc.Tracker().OnRetire = func(c *Conn) {
			retired[c] = true
			if c.Client.Port() == 40001 {
				bRetired = last
			}
		}
		for sc.Scan() {
			last = sc.Segment().Frame
			if c := sc.Conn(); retired[c] {
				t.Errorf("%s: packet %d handed over after its connection (stream %d) was retired", mode, last, c.Stream)
			}
		}
		sc.Close()
		if bRetired != int64(len(pkts)) {
			t.Errorf("%s: connection B retired after packet %d, want after its last, %d", mode, bRetired, len(pkts))
		}
	}
}

// TestBatchOwn: a batch the producer takes back is emptied and every
// segment and connection slot of it written (zeroed) at once, so that the
// lines Scan's core read last come over in one sweep (see own), not one
// store at a time behind the producer's reads of its scratch segment.
func TestBatchOwn(t *testing.T) {
	b := &segBatch{segs: make([]Segment, 0, 8), conns: make([]*Conn, 0, 8), evs: make([]pipeEvent, 0, 2)}
	for i := range 8 {
		b.segs = append(b.segs, Segment{Frame: int64(i + 1), Seq: 7})
		b.conns = append(b.conns, &Conn{Stream: i})
	}
	b.evs = append(b.evs, pipeEvent{at: 3})
	b.own()
	if len(b.segs) != 0 || len(b.conns) != 0 || len(b.evs) != 0 {
		t.Fatalf("own left %d segments, %d connections, %d events", len(b.segs), len(b.conns), len(b.evs))
	}
	for i, s := range b.segs[:cap(b.segs)] {
		if s != (Segment{}) {
			t.Errorf("segment slot %d not cleared: frame %d", i, s.Frame)
		}
	}
	for i, c := range b.conns[:cap(b.conns)] {
		if c != nil {
			t.Errorf("connection slot %d not cleared", i)
		}
	}
}

// TestPipelineBatchesAsNeeded: the pipeline makes its batches as the
// capture needs them, up to pipeBatches+1: a capture of a few thousand
// segments makes a few, not seventeen (5.6 MB whatever the capture:
// summary -j 64 of small captures held 300 MB, found by a tester); a
// long one never more than the bound.
func TestPipelineBatchesAsNeeded(t *testing.T) {
	for _, c := range []struct {
		pkts     int
		min, max int
	}{{3000, 2, 6}, {200000, 2, pipeBatches + 1}} {
		var pkts []pkt
		for i := range c.pkts {
			pkts = append(pkts, pkt{t: ms(i), src: cli, dst: srv, seq: uint32(1 + 100*i), ack: 1, flags: ACK, win: 502, payload: 100})
		}
		capture := pcapOf(t, pkts)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := NewReader(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScanner(r)
		sc.PipelineTracker()
		n := 0
		for sc.Scan() {
			n++
		}
		made := sc.pipe.made
		sc.Close()
		runtime.ReadMemStats(&after)
		if n != c.pkts || made < c.min || made > c.max {
			t.Errorf("%d packets: %d scanned, %d batches made, want %d to %d", c.pkts, n, made, c.min, c.max)
		}
		// Seventeen batches are 5.6 MB: a short capture allocates far less.
		if alloc := after.TotalAlloc - before.TotalAlloc; c.pkts < 10000 && alloc > 3<<20 {
			t.Errorf("%d packets: %d bytes allocated", c.pkts, alloc)
		}
	}
}
