package reassembly

import "fmt"

// maxWarnings bounds how many per-packet warnings a Scanner keeps; the
// rest are only counted.
const maxWarnings = 20

// Scanner reads a capture and returns its TCP segments one at a time,
// already assigned to connections. It is shaped like bufio.Scanner.
type Scanner struct {
	r    *Reader
	dec  Decoder
	trk  *Tracker
	seg  Segment
	segp *Segment // the segment Segment returns: seg, or one in a pipeline's batch
	cur  *Conn
	// sweep, sweepAt: the tracker's Expire is due, at that time, once the
	// segment just handed over has been dealt with (Scan's next call): a
	// sweep after a time step may retire the segment's own connection,
	// which the caller must not see retired before its segment.
	sweep   bool
	sweepAt int64
	// segp, cur (and sweep, sweepAt) are written by Scan's goroutine, segp
	// and cur for every segment: in a pipeline the fields the producer
	// reads (r, dec, trk, focus, pipe) are on other cache lines.
	_  [64]byte
	dg *datagramPath // nil unless Datagrams was called

	warnings        []error
	droppedWarnings int64

	pipe  *pipeline // reading and decoding ahead, when set (Pipeline)
	focus *focus    // the one connection read, when set (Focus)
}

// NewScanner returns a scanner reading from r.
func NewScanner(r *Reader) *Scanner {
	s := &Scanner{r: r, trk: NewTracker()}
	s.segp = &s.seg
	return s
}

// Tracker returns the scanner's connection tracker, for callers that want
// to be told of new and retired connections. When Scan returns false every
// connection still open has been retired (Tracker.Flush).
func (s *Scanner) Tracker() *Tracker { return s.trk }

// Scan advances to the next TCP segment. It returns false at the end of
// the capture or when the file cannot be read further (see Err).
func (s *Scanner) Scan() bool {
	if s.pipe != nil {
		return s.scanPipe()
	}
	s.expireDue()
	for s.next() {
		p := s.r.Packet()
		ok, err := s.dec.Decode(p, &s.seg)
		if err != nil {
			s.warn(errPacket(p.Number, err))
		}
		// A datagram noted: a packet without TCP, or the UDP datagram of a
		// tunnel the TCP segment came out of (a UDP flow of its own).
		if s.dg != nil && s.dec.ip.frame == p.Number {
			s.dg.add(&s.dec.ip, p)
		}
		if !ok {
			continue
		}
		if s.focus != nil && !s.focus.has(&s.seg) {
			continue
		}
		s.cur = s.trk.Track(&s.seg)
		if p.Number&expireEvery == 0 && s.focus == nil {
			s.sweep, s.sweepAt = true, s.seg.Time
		}
		return true
	}
	s.dec.Flush()
	s.trk.Flush()
	if s.dg != nil {
		s.dg.flush()
	}
	return false
}

// expireEvery+1 is how many packets pass between sweeps for finished and
// idle connections.
const expireEvery = 1<<13 - 1

// expireDue runs the sweep the last segment handed over made due.
func (s *Scanner) expireDue() {
	if s.sweep {
		s.sweep = false
		s.trk.Expire(s.sweepAt)
	}
}

// errPacket names the packet of a decoding problem.
func errPacket(n int64, err error) error { return fmt.Errorf("packet %d: %w", n, err) }

func (s *Scanner) warn(err error) {
	if len(s.warnings) < maxWarnings {
		s.warnings = append(s.warnings, err)
		return
	}
	s.droppedWarnings++
}

// Segment returns the segment read by the last Scan. The scanner reuses it:
// copy it to keep it.
func (s *Scanner) Segment() *Segment { return s.segp }

// Conn returns the connection of the segment read by the last Scan.
func (s *Scanner) Conn() *Conn { return s.cur }

// Err returns the error that ended the scan early (a damaged file), or nil.
// Segments scanned before it are valid.
func (s *Scanner) Err() error { return s.r.Err() }

// Warnings returns problems with single packets (undecodable headers,
// unknown link types) that did not stop the scan: the first few of them,
// and how many more there were.
func (s *Scanner) Warnings() ([]error, int64) { return s.warnings, s.droppedWarnings }

// Stats returns the decoder's counts.
func (s *Scanner) Stats() DecodeStats { return s.dec.Stats }

// Packets returns how many packets were read.
func (s *Scanner) Packets() int64 { return s.r.Packet().Number }

// Datagrams makes the scanner hand every IP datagram that is not TCP (UDP,
// ICMP, any other protocol; fragmented ones once reassembled) to fn, with
// its flow, during Scan, which still returns only TCP segments. Call it
// before the first Scan. TCP packets take the same path as without it:
// datagrams are decoded only once a packet is known not to carry TCP.
func (s *Scanner) Datagrams(fn func(*Datagram, *Flow)) {
	s.dg = &datagramPath{flows: NewFlowTracker(), fn: fn}
	s.dg.frags.stats = &s.dg.stats
	s.dec.datagrams = true
}

// Flows returns the scanner's flow tracker (nil unless Datagrams was
// called), for callers that want to be told of new and retired flows.
// When Scan returns false every flow has been retired.
func (s *Scanner) Flows() *FlowTracker {
	if s.dg == nil {
		return nil
	}
	return s.dg.flows
}

// DatagramStats returns the datagram path's counts.
func (s *Scanner) DatagramStats() DatagramStats {
	if s.dg == nil {
		return DatagramStats{}
	}
	return s.dg.stats
}

// DatagramError describes the first malformed datagram, or is nil.
func (s *Scanner) DatagramError() error {
	if s.dg == nil {
		return nil
	}
	return s.dg.firstErr
}
