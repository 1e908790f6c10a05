package analyze

import (
	"tcpviz/reassembly"
)

// pathAnalyzer infers what the network path did to each direction's data, from
// wherever the capture was taken: where the capture point sits (vantage),
// which segments were lost before it (a hole here, filled later) or after
// it (seen here, then needed again), which retransmissions were spurious
// (proven by D-SACK, RFC 2883/3708; by TCP timestamps, Eifel, RFC 3522; or,
// at a receiver-side capture, because the original was seen), and which
// segments were reordered (RFC 4737).
//
// Unlike the analyzer, which reproduces Wireshark's per-packet flags, pathAnalyzer
// answers for the path; the two are independent and may be fed the same
// segments. Feed every segment in capture order (add), take the results
// when the connection is retired (stats), then forget it.
//
// Memory: nothing for a connection until its SYN/ACK or first payload
// byte; then a small record with the handshake times, and per direction
// that carries data the open holes, the retransmissions not yet settled
// (at most maxRtxRecords) and a few counters. Per segment the work is O(1)
// amortised, plus O(holes) or O(pending retransmissions) while there are
// any.
type pathAnalyzer struct {
	conns map[*reassembly.Conn]*pathConn
	// last caches the previous lookup: segments come in runs of one
	// connection.
	lastConn  *reassembly.Conn
	lastState *pathConn
	// proved are the frames of the retransmissions the segment add
	// took last proved spurious.
	proved []int64
}

// Vantage is where the capture point sits on one direction's path.
type Vantage string

// Vantages.
const (
	VantageSender   Vantage = "sender"   // next to this direction's sender
	VantageReceiver Vantage = "receiver" // next to this direction's receiver
	VantageMiddle   Vantage = "middle"   // a real distance from both ends
	VantageUnknown  Vantage = "unknown"  // no handshake and no timestamps to tell
)

// PathStats is what the path did to one direction's data. The counts are
// of data segments (payload > 0) and are meaningful only when HasData is
// set ("not measurable" otherwise).
type PathStats struct {
	Vantage Vantage
	HasData bool // the direction carried payload

	// Retransmitted counts segments that resent bytes already sent, for
	// any reason: at the capture, a segment overlapping bytes seen before,
	// or a hole-filler judged a retransmission (see LostUpstream).
	Retransmitted int64
	// SpuriousRetransmitted counts retransmissions proven unnecessary. At
	// the sender or in the middle it is the sum of the three proofs below,
	// each retransmission counted once by its first proof: a D-SACK (RFC
	// 2883/3708), a TCP timestamp echo older than a retransmission of the
	// next expected byte (Eifel, RFC 3522), or the late original seen after
	// the repair. At a receiver-side capture it is SpuriousSeenOriginal:
	// every segment that arrived twice (the D-SACK and Eifel counts then
	// only corroborate it).
	SpuriousRetransmitted int64
	SpuriousDSACK         int64 // proven by a D-SACK block
	SpuriousEifel         int64 // proven by the timestamp echo only
	SpuriousTiming        int64 // proven by an ACK too early to answer the resend (proofTiming)
	SpuriousSeenOriginal  int64 // both copies seen at a receiver-side capture

	// LostDownstream counts segments lost after the capture point: seen
	// here, then sent again, and not proven spurious. Without SACK, a
	// go-back-N after a timeout resends segments the receiver holds and
	// nothing proves them spurious: the truth then lies between
	// LostDownstreamLow and LostDownstream.
	LostDownstream    int64
	LostDownstreamLow int64 // only retransmissions of the receiver's next expected byte
	// FirstEventLostLow is LostDownstreamLow within the first loss event
	// (LossEvents): the drops the capture proves in it without SACK, where
	// go-back-N resends after a timeout make its resends an upper bound.
	FirstEventLostLow int64
	// LostUpstream counts distinct segments lost before the capture point:
	// a hole here later filled by a retransmission (IPv4 ID above that of
	// the segment that opened the hole, else a newer TSval, else at least a
	// minimum RTT after the hole opened), plus holes still open at the end
	// (in segments of the largest size seen).
	LostUpstream int64
	// Reordered counts segments that arrived below the highest sequence
	// number seen and were not retransmissions (RFC 4737).
	Reordered int64
	// DSACKBlocks counts D-SACK blocks the peer sent about this data.
	DSACKBlocks int64
	// RTORetransmissions counts retransmissions sent on a timer: RTO, and
	// tail-loss probes (RFC 8985) counted with them — no duplicate ACK,
	// SACK above the segment or partial ACK in recovery triggered it, or the
	// peer had been silent for at least minRTO. FastRetransmissions the
	// others (duplicate-ACK, SACK or NewReno recovery). Their sum is
	// Retransmitted.
	RTORetransmissions, FastRetransmissions int64
	// PeerDupAcks counts the peer's duplicate ACKs (RFC 5681: no data, same
	// cumulative ACK and window, data outstanding).
	PeerDupAcks int64
	// PeerMaxRwnd is the largest receive window the peer advertised, scaled
	// (bytes); -1 when unknown (no ACK, or window scaling not seen).
	PeerMaxRwnd int64
	// LossEvents counts recovery episodes (a retransmission outside an
	// episode starts one; it ends when everything sent before it is
	// acknowledged; the tracker's rule, dropEvents, with its exceptions
	// at a sender-side capture): each is a congestion-window reduction
	// unless undone.
	LossEvents int64
	// LossEventsSpurious counts the episodes all of whose retransmissions
	// were proven spurious (a cwnd reduction caused by reordering or delay).
	LossEventsSpurious int64

	// RTTToSender and RTTToReceiver are the minimum round trips from the
	// capture point to this direction's sender and receiver (ns; -1
	// unknown), from the handshake or TCP timestamp echoes.
	RTTToSender, RTTToReceiver int64
	// NearbyPeer is set when the receiver answers within nearbyRTT of the
	// capture at a sender-side capture: a LAN, or a split-connection proxy
	// (PEP) in front of a long path.
	NearbyPeer bool
	// HandshakeSplit is set when the handshake was seen and split the round
	// trip (SYN to SYN/ACK, SYN/ACK to ACK); timestamp echoes of a
	// millisecond or more may still have shortened either half.
	HandshakeSplit bool
}

// Tunables.
const (
	// minRTO is Linux's (and RFC 6298's floor, relaxed) minimum
	// retransmission timeout: a retransmission sent this long after the
	// last ACK was sent on a timer.
	minRTO = 200e6
	// nearbyRTT: a peer answering within this is next to the capture.
	nearbyRTT = 1e6
	// maxRtxRecords bounds the retransmissions kept for later proof.
	maxRtxRecords = 1024
	// maxHoles bounds the open holes kept per direction.
	maxHoles = 4096
	// vantageNear: a capture within this fraction of the round trip from
	// one end is at that end.
	vantageNear = 0.2
)

type pathConn struct {
	synAckTime int64 // first SYN/ACK; 0 none
	synTime    int64 // last SYN before it
	ackTime    int64 // first ACK of the SYN/ACK; 0 none
	dir        [2]*pathDir
}

// newPathAnalyzer returns an empty path analyser.
func newPathAnalyzer() *pathAnalyzer {
	return &pathAnalyzer{conns: make(map[*reassembly.Conn]*pathConn)}
}

func (p *pathAnalyzer) state(c *reassembly.Conn, create bool) *pathConn {
	if c == p.lastConn && p.lastState != nil {
		return p.lastState
	}
	pc := p.conns[c]
	if pc == nil && create {
		pc = &pathConn{}
		p.conns[c] = pc
	}
	if pc != nil {
		p.lastConn, p.lastState = c, pc
	}
	return pc
}

// forget drops the state of c, once its Stats were taken.
func (p *pathAnalyzer) forget(c *reassembly.Conn) {
	delete(p.conns, c)
	if p.lastConn == c {
		p.lastConn, p.lastState = nil, nil
	}
}

// PathVerdict is what the path analysis made of one data segment when it
// was captured: unlike Wireshark's flags (Flag), it says what the path
// did, from wherever the capture was taken (see Path).
type PathVerdict uint8

// Path verdicts.
const (
	// PathNone: no verdict — not a data segment, a capture duplicate or a
	// keep-alive. Graphs then fall back on Wireshark's flags.
	PathNone PathVerdict = iota
	// PathNew: bytes seen here for the first time, in order.
	PathNew
	// PathRetransmitted: a resend of bytes seen here (see
	// PathStats.Retransmitted), however Wireshark labels it: a loss
	// repair as far as is known when it is seen.
	PathRetransmitted
	// PathSpurious: a retransmission known to be unneeded as it was seen:
	// at a receiver-side capture, bytes that had already arrived.
	// Retransmissions proven spurious later (a D-SACK, a timestamp echo, a
	// late original) are PathRetransmitted or PathLostUpstream when seen;
	// PacketInfo.Proved names them when the proof comes.
	PathSpurious
	// PathReordered: an original that arrived late, below bytes sent after
	// it, and was not resent (RFC 4737); possible only where the path
	// before the capture point can reorder (a receiver-side or middle
	// capture).
	PathReordered
	// PathLostUpstream: a retransmission filling a hole here: its bytes
	// were lost before the capture point.
	PathLostUpstream
)

// add feeds segment s of connection c, in capture order, as the
// reassembly.Scanner returns them, and returns its verdict. Capture
// duplicates are ignored.
func (p *pathAnalyzer) add(c *reassembly.Conn, s *reassembly.Segment) PathVerdict {
	p.proved = p.proved[:0]
	if c == nil || s == nil || s.Duplicate || s.Dir > reassembly.S2C {
		return PathNone
	}
	syn := s.Flags&(reassembly.SYN|reassembly.ACK) == reassembly.SYN
	synAck := s.Flags&(reassembly.SYN|reassembly.ACK) == reassembly.SYN|reassembly.ACK
	if syn {
		// A SYN-only connection costs nothing here; its time is kept only
		// once a SYN/ACK shows it is a real connection.
		if pc := p.state(c, false); pc != nil && pc.synAckTime == 0 {
			pc.synTime = s.Time
		}
		return PathNone
	}
	pc := p.state(c, synAck || s.PayloadLen > 0)
	if pc == nil {
		return PathNone
	}
	if synAck {
		if pc.synAckTime == 0 && s.Dir == reassembly.S2C {
			pc.synAckTime = s.Time
			// The connection as this segment was tracked: the tracker may
			// be ahead (reassembly.Scanner.PipelineTracker).
			if pc.synTime == 0 && c.Handshake && s.ClientSYNSeen {
				pc.synTime = s.ConnFirstTime
			}
		}
		return PathNone
	}
	if pc.synAckTime != 0 && pc.ackTime == 0 && s.Dir == reassembly.C2S && s.Flags&reassembly.ACK != 0 {
		pc.ackTime = s.Time
	}
	if s.PayloadLen > 0 && pc.dir[s.Dir] == nil {
		pc.dir[s.Dir] = newPathDir()
		pc.dir[s.Dir].proved = &p.proved
	}
	fwd, rev := pc.dir[s.Dir], pc.dir[s.Dir.Reverse()]
	v := PathNone
	if fwd != nil {
		v = fwd.addData(c, s, pc)
	}
	if rev != nil && s.Flags&reassembly.ACK != 0 {
		rev.addFeedback(c, s)
	}
	return v
}

// stats returns what the path did to each direction of c so far, indexed
// by reassembly.Direction.
func (p *pathAnalyzer) stats(c *reassembly.Conn) [2]PathStats {
	var out [2]PathStats
	for i := range out {
		out[i] = PathStats{Vantage: VantageUnknown, PeerMaxRwnd: -1, RTTToSender: -1, RTTToReceiver: -1}
	}
	if c == nil {
		return out
	}
	pc := p.conns[c]
	for d := range out {
		st := &out[d]
		toSnd, toRcv := int64(-1), int64(-1)
		if pc != nil {
			toSnd, toRcv, st.HandshakeSplit = pc.trips(d)
		}
		st.RTTToSender, st.RTTToReceiver = toSnd, toRcv
		st.Vantage = vantageOf(toSnd, toRcv)
		if pc != nil && pc.dir[d] != nil {
			pc.dir[d].fill(st, c, reassembly.Direction(d))
		}
	}
	return out
}

// trips returns the minimum round trips from the capture point to
// direction d's sender and receiver (ns; -1 unknown) as known so far, and
// whether the handshake split them.
func (pc *pathConn) trips(d int) (toSnd, toRcv int64, split bool) {
	toSnd, toRcv = -1, -1
	if pc.synTime != 0 && pc.synAckTime > pc.synTime && pc.ackTime >= pc.synAckTime {
		// The handshake splits the round trip at the capture point:
		// SYN to SYN/ACK is the trip to the server and back, SYN/ACK
		// to ACK the trip to the client and back.
		toSrv, toCli := pc.synAckTime-pc.synTime, pc.ackTime-pc.synAckTime
		if d == int(reassembly.C2S) {
			toSnd, toRcv = toCli, toSrv
		} else {
			toSnd, toRcv = toSrv, toCli
		}
		split = true
	}
	if pc.timestampsBothWays() {
		// Timestamp echoes: this direction's data echoed by the peer's
		// ACKs is the trip to the receiver; the peer's TSval echoed by
		// data is the trip to the sender. The other direction's data,
		// if any, measures the same two trips the other way round. No
		// sample can be shorter than the trip itself, so the smallest
		// of these and the handshake's wins: a handshake slowed by a
		// first neighbour resolution or a lost SYN does not mislead.
		tsSnd, tsRcv := int64(-1), int64(-1)
		if f := pc.dir[d]; f != nil {
			tsSnd, tsRcv = f.rttSend, f.rttRecv
		}
		if r := pc.dir[d^1]; r != nil {
			tsSnd = minKnown(tsSnd, r.rttRecv)
			tsRcv = minKnown(tsRcv, r.rttSend)
		}
		// Timestamps tick in milliseconds (Linux): below that they
		// cannot split a round trip the handshake already split.
		if tsSnd >= 0 && tsRcv >= 0 && (!split || tsSnd+tsRcv >= nearbyRTT) {
			toSnd, toRcv = minKnown(toSnd, tsSnd), minKnown(toRcv, tsRcv)
		}
	}
	return toSnd, toRcv, split
}

func (pc *pathConn) timestampsBothWays() bool {
	for _, f := range pc.dir {
		if f != nil && f.rttSend >= 0 && f.rttRecv >= 0 {
			return true
		}
	}
	return false
}

func minKnown(a, b int64) int64 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// vantageOf places the capture from its round trips to the two ends.
func vantageOf(toSnd, toRcv int64) Vantage {
	if toSnd < 0 || toRcv < 0 || toSnd+toRcv <= 0 {
		return VantageUnknown
	}
	f := float64(toSnd) / float64(toSnd+toRcv)
	near := vantageNear
	if toSnd+toRcv < nearbyRTT {
		// Both ends within a millisecond (a LAN, or a split-connection
		// proxy next to the capture): "middle" means nothing at this scale,
		// and the end whose stack answers faster is the capturing host.
		near = 0.5
	}
	switch {
	case f < near:
		return VantageSender
	case f > 1-near:
		return VantageReceiver
	}
	return VantageMiddle
}
