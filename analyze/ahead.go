package analyze

import (
	"sync"

	"tcpviz/reassembly"
)

// ahead runs, in the goroutine that tracks the connections
// (reassembly.Scanner.PipelineTrackerAhead), beside the analyzer's own,
// the parts of the analysis that need only the segments and the
// connection as tracked, not Wireshark's: what the path did
// (pathAnalyzer) and tcptrace's RTT state (karnDir). The two goroutines
// then share the work more equally. It takes each connection's results
// when the tracker retires it and keeps them until the analyzer, which
// gets the connection later, forgets it.
//
// tcptrace's RTT state of the connections whose records are kept (keep:
// RunOptions.Keep and Also) stays with the analyzer: each of their
// records carries its ACK's sample (PacketInfo.KarnRTT).
type ahead struct {
	path *pathAnalyzer // the tracker's goroutine only
	// karn is tcptrace's RTT state of each connection's directions, by
	// stream (the tracker's goroutine only): nil before its first segment
	// that is no lone SYN, once retired, and for a kept one.
	karn []*[2]karnDir
	keep func(stream int) bool

	mu   sync.Mutex
	done map[*reassembly.Conn]*aheadDone
}

// aheadDone is what ahead took of a retired connection.
type aheadDone struct {
	path    *[2]PathStats // nil: the path analysis kept nothing (a SYN flood's connections)
	karn    [2]karnSum
	hasKarn bool
}

// newAhead returns an ahead that leaves the RTT state of the streams
// keep reports to the analyzer.
func newAhead(keep func(stream int) bool) *ahead {
	return &ahead{path: newPathAnalyzer(), keep: keep, done: map[*reassembly.Conn]*aheadDone{}}
}

// track is the hook for each tracked segment: its path verdict goes with
// it (Segment.Note). The RTT state sees what the analyzer's add would:
// every segment but a quoted header (InICMP), a lone SYN once a second
// segment brings it (First).
func (ah *ahead) track(c *reassembly.Conn, s *reassembly.Segment) {
	if !s.InICMP { // a quoted header is nothing the path did
		s.Note = uint8(ah.path.add(c, s))
	}
	if s.InICMP && s.First == nil {
		return
	}
	var k *[2]karnDir
	if c.Stream < len(ah.karn) {
		k = ah.karn[c.Stream]
	}
	if k == nil {
		if s.Lone || ah.keep(c.Stream) {
			return
		}
		k = new([2]karnDir)
		for len(ah.karn) <= c.Stream {
			ah.karn = append(ah.karn, nil)
		}
		ah.karn[c.Stream] = k
		if f := s.First; f != nil {
			karnAdd(&k[f.Dir], &k[f.Dir.Reverse()], f)
		}
	}
	if !s.InICMP {
		karnAdd(&k[s.Dir], &k[s.Dir.Reverse()], s)
	}
}

// retire is the hook for each retired connection.
func (ah *ahead) retire(c *reassembly.Conn) {
	var d aheadDone
	if ah.path.conns[c] != nil {
		st := ah.path.stats(c)
		ah.path.forget(c)
		d.path = &st
	}
	if c.Stream < len(ah.karn) {
		if k := ah.karn[c.Stream]; k != nil {
			d.karn, d.hasKarn = [2]karnSum{k[0].karnSum, k[1].karnSum}, true
			ah.karn[c.Stream] = nil
		}
	}
	if d.path == nil && !d.hasKarn {
		return // nothing to keep: stats gives the same
	}
	ah.mu.Lock()
	ah.done[c] = &d
	ah.mu.Unlock()
}

// stats returns the path statistics of c, which the tracker retired, and
// its directions' RTT sums, nil when the analyzer has them.
func (ah *ahead) stats(c *reassembly.Conn) ([2]PathStats, *[2]karnSum) {
	ah.mu.Lock()
	d := ah.done[c]
	ah.mu.Unlock()
	switch {
	case d == nil:
		return (&pathAnalyzer{}).stats(c), nil
	case d.path == nil:
		return (&pathAnalyzer{}).stats(c), karnOf(d)
	}
	return *d.path, karnOf(d)
}

func karnOf(d *aheadDone) *[2]karnSum {
	if !d.hasKarn {
		return nil
	}
	return &d.karn
}

func (ah *ahead) forget(c *reassembly.Conn) {
	ah.mu.Lock()
	delete(ah.done, c)
	ah.mu.Unlock()
}
