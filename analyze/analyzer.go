package analyze

import (
	"sort"

	"tcpviz/internal/slab"
	"tcpviz/reassembly"
)

// analyzer applies Wireshark's TCP analysis to the segments of a capture,
// fed in capture order, and accumulates per-direction statistics.
//
// The per-packet rules are those of tcp_analyze_sequence_number in
// Wireshark 4.0's epan/dissectors/packet-tcp.c, run on the raw 32-bit
// header values with the same serial-number comparisons, so that sequence
// wrap at 2^32 and every quirk (0 meaning "not seen yet", 32-bit window
// arithmetic) behave as in tshark. See (*analyzer).segment.
//
// Memory: per connection, the analyzer keeps the segments not yet
// acknowledged (at most maxUnacked per direction, as Wireshark caps its
// list), a set of received sequence ranges for unique_bytes (bounded by
// maxRanges), and the RTT samples of each direction (8 bytes per sample:
// the exact median needs them; see DirStats.RTTMedianMs).
type analyzer struct {
	conns []*connState  // by stream number; nil once forgotten
	path  *pathAnalyzer // what the path did, beside Wireshark's flags
	// ahead, when set, analyses the path instead of path, and tcptrace's
	// RTT state of the connections whose records are not kept, in the
	// goroutine that tracks the connections (see ahead).
	ahead *ahead
	// loopsOnly turns off the sorted-list fast paths (flow.sorted): the
	// tests compare both ways.
	loopsOnly bool
	scratch   *connState
	sc        scratch // the statistics' sorted copies
	// verdict is the path's for the segment being analysed (the
	// statistics read it: a late original is no resend).
	verdict PathVerdict
}

// dupackNeutral is Wireshark's dupacknum = -1 (in an unsigned field) after
// an ACK of an unseen segment.
const dupackNeutral = ^uint32(0)

// maxUnacked is Wireshark's TCP_MAX_UNACKED_SEGMENTS.
const maxUnacked = 10000

// newAnalyzer returns an analyzer.
func newAnalyzer() *analyzer {
	return &analyzer{path: newPathAnalyzer()}
}

// state returns the analysis state of c, nil if there is none.
func (a *analyzer) state(c *reassembly.Conn) *connState {
	if c.Stream < len(a.conns) {
		return a.conns[c.Stream]
	}
	return nil
}

// forget drops the analysis state of c (call it once c is retired and its
// Stats were taken), so that memory follows the live connections.
func (a *analyzer) forget(c *reassembly.Conn) {
	if c.Stream < len(a.conns) {
		if cs := a.conns[c.Stream]; cs != nil {
			cs.free()
		}
		a.conns[c.Stream] = nil
	}
	if a.ahead != nil {
		a.ahead.forget(c)
	} else {
		a.path.forget(c)
	}
}

// unacked is one segment not yet acknowledged (Wireshark's tcp_unacked_t).
type unacked struct {
	frame        int64
	seq, nextseq uint32
	ts           int64
}

// flow is Wireshark's per-direction analysis state (tcp_flow_t and its
// tcp_analyze_seq_flow_info_t), on raw 32-bit numbers.
type flow struct {
	baseSet bool
	baseSeq uint32

	nextseq         uint32 // highest sequence number seen + 1; 0: none yet
	nextseqframe    int64
	nextseqtime     int64
	maxseqtobeacked uint32
	lastack         uint32
	lastacktime     int64
	lastnondupack   int64
	dupacknum       uint32 // unsigned as in Wireshark: "-1" compares >= 2
	window          uint32 // last raw window seen (MaxUint32: none)
	winScale        int16  // -1 unknown, -2 no scaling, else the shift
	lastFlags       Flag
	validBIF        bool
	isFirstAck      bool

	// segs are the unacknowledged segments, oldest first (Wireshark's list
	// is newest first: iterate backwards to visit them in its order).
	segs    []unacked
	segsMem []unacked // the array segs live in: ACKs drop them from its front (see withRoom)
	// sorted is set while segs are in sequence order without overlap,
	// within 2^30 of the first: then an ACK removes a prefix and the bytes
	// in flight span from the first to the last, found without visiting
	// every segment (see ackSorted). Any other list takes Wireshark's loops,
	// or the bounds below.
	sorted bool
	// While bifOK, bifLo and bifSeqHi are the smallest and largest seq -
	// bifBase over segs, and bifHi the largest nextseq - bifBase (uint32
	// arithmetic, as Wireshark's bytes-in-flight loop): appending keeps
	// them, an ACK that changes segs clears bifOK. An unsorted list (a
	// retransmission storm) then costs its loops only after an ACK that
	// changed it (see analyzeSeq).
	bifOK                  bool
	bifBase                uint32
	bifLo, bifHi, bifSeqHi uint32

	nsack        int
	sackL, sackR [4]uint32
}

type connState struct {
	flow     [2]flow
	tsMruSyn int64 // time of the most recent pure SYN; 0 none
	firstRTT int64 // handshake RTT (tcp.analysis.initial_rtt); 0 none
	hs       handshake
	stats    [2]dirAcc
	// karnAhead: tcptrace's RTT state of this connection is kept ahead
	// (see ahead), not in stats[d].karn.
	karnAhead bool
	// ack is what the ACK being analysed tells the loss-episode tracker
	// (dirAcc.add), reused from one ACK to the next: epAck.set writes
	// every field read after it.
	ack epAck
}

func newConnState() *connState {
	cs := &connState{}
	cs.init()
	return cs
}

func (cs *connState) init() {
	for i := range cs.flow {
		f := &cs.flow[i]
		f.window = ^uint32(0)
		f.winScale = -1
		f.validBIF = true
	}
	for i := range cs.stats {
		cs.stats[i].init()
	}
}

// free gives back the memory of cs's sample lists, which are outside the
// Go heap once long (slab.Vec): at once, not when a collection finds cs
// unreachable, so that a long capture's memory follows its live
// connections.
func (cs *connState) free() {
	for i := range cs.stats {
		d := &cs.stats[i]
		d.rtt.free()
		d.cleanRTT.free()
		d.cleanPeak.free()
		if t := d.owd; t != nil {
			t.samples.free()
			t.peak.free()
			t.drops.free()
		}
	}
}

// close gives back the memory outside the heap that the analyzer still
// holds: the states of the connections not forgotten (a read cut short),
// the lone SYNs' scratch state and the statistics' sorted copies.
func (a *analyzer) close() {
	for _, cs := range a.conns {
		if cs != nil {
			cs.free()
		}
	}
	if a.scratch != nil {
		a.scratch.free()
	}
	for i := range a.sc {
		a.sc[i].Free()
	}
}

// scratch holds the copies of sample lists that the statistics sort at a
// connection's end, reused from one connection to the next (outside the
// heap, slab.Vec) rather than made for each: the garbage a long capture
// leaves is then not in proportion to its connections' samples.
type scratch [2]slab.Vec[int64]

// copy returns a copy of l's values in buffer i, valid until the next
// copy to i.
func (sc *scratch) copy(i int, l *nsList) []int64 { return l.copyTo(&sc[i]) }

// Serial-number comparisons (RFC 1982), as Wireshark's GT_SEQ and friends.
func gtSeq(a, b uint32) bool { return int32(a-b) > 0 }
func ltSeq(a, b uint32) bool { return int32(a-b) < 0 }
func leSeq(a, b uint32) bool { return int32(a-b) <= 0 }

const (
	thFIN = reassembly.FIN
	thSYN = reassembly.SYN
	thRST = reassembly.RST
	thACK = reassembly.ACK
)

// segment analyses segment s of connection c (as returned by the tracker) and
// returns its per-packet analysis. Segments must come in capture order.
//
// A capture duplicate (s.Duplicate) is flagged CaptureDuplicate and does
// not change the analysis state: it is not a retransmission, a duplicate
// ACK or anything else the network did. tshark, which does not recognise
// such copies, flags them (usually as retransmissions or duplicate ACKs).
//
// Memory: a connection that has sent nothing but its first SYN, which
// the tracker keeps in a compact record (s.Lone), holds nothing here (a
// SYN flood costs little); its state is made, by analysing the SYN
// again, when a second segment comes (with the SYN as its First) or its
// statistics are asked for (Conn.LoneSYN). The analysis is
// deterministic, so nothing changes but the memory.
func (a *analyzer) segment(c *reassembly.Conn, s *reassembly.Segment) PacketInfo {
	var info PacketInfo
	a.addTo(c, s, &info, true)
	return info
}

// addTo is segment, writing the analysis into *info (Run's loop reuses one:
// a PacketInfo is large enough for its copies to count). Without want,
// the caller does not read *info: a SYN held back is not analysed yet.
func (a *analyzer) addTo(c *reassembly.Conn, s *reassembly.Segment, info *PacketInfo, want bool) {
	var v PathVerdict
	switch {
	case s.InICMP: // no path, no sequence analysis (see add)
	case a.ahead == nil:
		v = a.path.add(c, s)
	default:
		v = PathVerdict(s.Note) // the path analysed ahead (ahead.track)
	}
	a.verdict = v
	a.addWire(c, s, info, want)
	a.verdict = PathNone
	info.Path = v
	info.Proved = nil
	if a.ahead == nil && len(a.path.proved) > 0 {
		info.Proved = a.path.proved
	}
}

// addWire is addTo's Wireshark analysis.
func (a *analyzer) addWire(c *reassembly.Conn, s *reassembly.Segment, info *PacketInfo, want bool) {
	cs := a.state(c)
	if cs == nil {
		if s.Lone {
			if want {
				a.add(a.scratchState(), true, c, s, info) // thrown away: the SYN's own analysis
			}
			return
		}
		a.add(a.revive(c, s.First), s.First == nil, c, s, info)
		return
	}
	a.add(cs, false, c, s, info)
}

// scratchState returns a fresh state for analysing a held-back SYN whose
// state is then thrown away, reusing its memory.
func (a *analyzer) scratchState() *connState {
	if a.scratch == nil {
		a.scratch = newConnState()
		return a.scratch
	}
	a.scratch.free()
	*a.scratch = connState{}
	a.scratch.init()
	return a.scratch
}

// revive makes the analysis state of c, analysing again its first SYN,
// if it waited (first: see segment).
func (a *analyzer) revive(c *reassembly.Conn, first *reassembly.Segment) *connState {
	cs := newConnState()
	cs.karnAhead = a.ahead != nil && !a.ahead.keep(c.Stream)
	for len(a.conns) <= c.Stream {
		a.conns = append(a.conns, nil)
	}
	a.conns[c.Stream] = cs
	if first != nil {
		var info PacketInfo
		a.add(cs, true, c, first, &info)
	}
	return cs
}

// add is segment on the state cs (isNew: c's first segment), into *info.
func (a *analyzer) add(cs *connState, isNew bool, c *reassembly.Conn, s *reassembly.Segment, info *PacketInfo) {
	if s.InICMP {
		// A TCP header quoted in an ICMP error: a packet of its
		// connection, as Wireshark counts it, with no analysis (no flags,
		// nothing for the state), and the window as Wireshark shows it.
		*info = PacketInfo{BytesInFlight: -1, AckRTT: -1, KarnRTT: -1}
		info.Window, info.ScaleFactor = scaledWindow(&cs.flow[s.Dir], s)
		cs.stats[s.Dir].s.Packets++
		return
	}
	var smp karnSample
	if !cs.karnAhead {
		smp = cs.karnAdd(s)
	}
	d := s.Dir & 1 // (the &1 drops the bounds checks)
	fwd, rev := &cs.flow[d], &cs.flow[d^1]
	*info = PacketInfo{BytesInFlight: -1, AckRTT: -1, KarnRTT: -1, Path: a.verdict}
	if smp.frame > 0 {
		info.KarnRTT, info.KarnFrame, info.KarnSent = smp.rtt, smp.frame, smp.sent
	}
	if s.Duplicate {
		info.Flags = CaptureDuplicate
		info.Window, info.ScaleFactor = scaledWindow(fwd, s)
		cs.stats[d].add(cs, s, info)
		return
	}

	flags := s.Flags
	if isNew {
		if flags&(thSYN|thACK) == thSYN && c.ReusedPorts {
			info.Flags |= ReusedPorts
		}
	} else if flags&(thSYN|thACK) == thSYN && fwd.baseSet && s.Seq == fwd.baseSeq {
		// A SYN again with the same ISN: Wireshark restores nextseq (a RST
		// may have moved it, issue 17616).
		fwd.nextseq = fwd.maxseqtobeacked
	}
	if flags&(thSYN|thACK) == thSYN|thACK && fwd.baseSet && s.Seq != fwd.baseSeq {
		info.Flags |= ReusedPorts
		fwd.baseSeq = s.Seq
	}
	fwd.nsack = 0

	seglen := uint32(s.PayloadLen)
	a.analyzeSeq(cs, fwd, rev, s, seglen, info)

	info.Window, info.ScaleFactor = scaledWindow(fwd, s)

	if flags&thSYN != 0 || cs.hs.seen == 2 { // only a SYN, or the ACK of a SYN/ACK, moves the handshake
		cs.hs.add(s.Dir, flags&thSYN != 0, flags&thACK != 0, s.Time, s.Opt.TSVal, s.Opt.TSEcr, s.Opt.HasTimestamp)
	}
	if flags&thSYN != 0 {
		if flags&thACK == 0 {
			cs.tsMruSyn = s.Time
		}
		fwd.isFirstAck = true
	}
	if flags&(thSYN|thACK) == thACK && cs.tsMruSyn != 0 && cs.firstRTT == 0 {
		cs.firstRTT = s.Time - cs.tsMruSyn
	}
	if flags&(thSYN|thACK) == thACK {
		fwd.isFirstAck = false
	}
	// Options, dissected after the analysis as Wireshark does.
	if s.Opt.WScale >= 0 {
		fwd.winScale = int16(s.Opt.WScale)
	}
	if s.Opt.NSACK > 0 {
		fwd.nsack = 0
		for i := 0; i < int(s.Opt.NSACK); i++ {
			n := i + 1
			if n >= 4 { // Wireshark stores ranges 1..MAX_TCP_SACK_RANGES-1
				break
			}
			fwd.nsack = n
			fwd.sackL[n] = s.Opt.SACK[i].Left
			fwd.sackR[n] = s.Opt.SACK[i].Right
		}
	}
	if flags&thSYN != 0 {
		verifyWindowScaling(flags&thACK != 0, fwd, rev)
	}
	cs.stats[d].add(cs, s, info)
	if info.AckRTT >= 0 {
		cs.stats[d^1].addRTT(info.AckRTT)
	}
}

// verifyWindowScaling is Wireshark's verify_tcp_window_scaling, run after
// a SYN's options: scaling is used only when both SYNs carried the option.
func verifyWindowScaling(synack bool, fwd, rev *flow) {
	if fwd.winScale == -1 {
		fwd.winScale, rev.winScale = -2, -2
	} else if synack && rev.winScale == -2 {
		fwd.winScale = -2
	}
}

// scaledWindow is tcp.window_size and tcp.window_size_scalefactor (0 for
// a SYN, which Wireshark never scales and shows no factor for).
func scaledWindow(fwd *flow, s *reassembly.Segment) (int64, int32) {
	w := int64(s.Window)
	if s.Flags&thSYN != 0 {
		return w, 0
	}
	switch {
	case fwd.winScale >= 0:
		return int64(uint32(w) << uint(fwd.winScale)), 1 << uint(fwd.winScale)
	default:
		return w, int32(fwd.winScale)
	}
}

// ackSorted removes what ack acknowledges from a sorted list (f.sorted),
// with the same result as Wireshark's loop over every segment: the
// segments ending at or below ack go (the one ending exactly at ack gives
// the ACK's frame and RTT), the one ack falls inside is trimmed to start
// at ack, the others stay. It returns false, having done nothing, for an
// ACK it cannot place: at 2^31 or more from the first segment, serial
// arithmetic may put it above some segments and below others.
func (f *flow) ackSorted(ack uint32, now int64, info *PacketInfo) bool {
	segs := f.segs
	ref := segs[0].seq
	a := ack - ref
	if a >= 1<<31 {
		// The segments x from ref with x - a < -2^31 (as int32) are below
		// the ACK: those at a - 2^31 or more.
		return a-1<<31 > segs[len(segs)-1].nextseq-ref // none: nothing acknowledged
	}
	k := sort.Search(len(segs), func(i int) bool { return segs[i].nextseq-ref > a })
	if k > 0 && segs[k-1].nextseq == ack {
		info.AckedFrame = segs[k-1].frame
		info.AckRTT = now - segs[k-1].ts
	}
	if k < len(segs) && a > segs[k].seq-ref {
		segs[k].seq = ack
		f.bifOK = false
	}
	if k > 0 {
		f.bifOK = false
	}
	f.segs = segs[k:]
	if len(f.segs) == 0 {
		f.segs = segs[:0]
	}
	return true
}

// analyzeSeq is tcp_analyze_sequence_number.
func (a *analyzer) analyzeSeq(cs *connState, fwd, rev *flow, s *reassembly.Segment, seglen uint32, info *PacketInfo) {
	seq, ack, flags, window := s.Seq, s.Ack, s.Flags, uint32(s.Window)
	now := s.Time

	if !fwd.baseSet {
		if flags&thSYN != 0 {
			fwd.baseSeq = seq
		} else {
			fwd.baseSeq = seq - 1
		}
		fwd.baseSet = true
	}
	if !rev.baseSet && flags&thACK != 0 {
		rev.baseSeq = ack - 1
		rev.baseSet = true
	}
	if flags&thACK != 0 {
		rev.validBIF = true
	}

	f := &info.Flags
	func() {
		// ZERO WINDOW PROBE
		if seglen == 1 && seq == fwd.nextseq && rev.window == 0 {
			*f |= ZeroWindowProbe
			return
		}
		// ZERO WINDOW
		if window == 0 && flags&(thRST|thFIN|thSYN) == 0 {
			*f |= ZeroWindow
		}
		// LOST PACKET
		if fwd.nextseq != 0 && gtSeq(seq, fwd.nextseq) && flags&thRST == 0 {
			*f |= LostSegment
			fwd.validBIF = false
		}
		// KEEP ALIVE
		if seglen <= 1 && seq == fwd.nextseq-1 && flags&(thSYN|thFIN|thRST) == 0 {
			*f |= KeepAlive
		}
		// WINDOW UPDATE
		if seglen == 0 && window != 0 && window != fwd.window && seq == fwd.nextseq &&
			ack == fwd.lastack && flags&(thSYN|thFIN|thRST) == 0 {
			*f |= WindowUpdate
		}
		// WINDOW FULL
		if seglen > 0 && rev.winScale != -1 && flags&(thSYN|thFIN|thRST) == 0 {
			shift := uint(0)
			if !rev.isFirstAck && rev.winScale >= 0 {
				shift = uint(rev.winScale)
			}
			if seq+seglen == rev.lastack+(rev.window<<shift) {
				*f |= WindowFull
			}
		}
		// KEEP ALIVE ACK
		if seglen == 0 && window != 0 && window == fwd.window && seq == fwd.nextseq &&
			ack == fwd.lastack && rev.lastFlags&KeepAlive != 0 && flags&(thSYN|thFIN|thRST) == 0 {
			*f |= KeepAliveAck
			return
		}
		// ZERO WINDOW PROBE ACK
		if seglen == 0 && window == 0 && window == fwd.window && seq == fwd.nextseq &&
			ack == fwd.lastack && rev.lastFlags&ZeroWindowProbe != 0 && flags&(thSYN|thFIN|thRST) == 0 {
			*f |= ZeroWindowProbeAck
			return
		}
		// DUPLICATE ACK
		if seglen == 0 && window != 0 && window == fwd.window && seq == fwd.nextseq &&
			ack == fwd.lastack && flags&(thSYN|thFIN|thRST) == 0 {
			if fwd.dupacknum == dupackNeutral {
				fwd.dupacknum = 1
			} else {
				fwd.dupacknum++
			}
			*f |= DupAck
			info.DupAckNum = int(fwd.dupacknum)
			info.DupAckOf = fwd.lastnondupack
		}
	}()

	// finished_fwd:
	if ack != fwd.lastack {
		fwd.lastnondupack = s.Frame
		fwd.dupacknum = 0
	}

	// ACKED LOST PACKET
	if rev.maxseqtobeacked != 0 && gtSeq(ack, rev.maxseqtobeacked) && flags&thACK != 0 {
		if ltSeq(rev.maxseqtobeacked, rev.nextseq) { // serial arithmetic (LT_SEQ), as Wireshark 4.0.17
			// Move 'max seq to be acked' up so the same loss is not
			// reported again.
			rev.maxseqtobeacked = rev.nextseq
			*f |= AckUnseen
		} else {
			// The other side is stalled: report once until it acks anew.
			if rev.dupacknum == 0 {
				*f |= AckUnseen
			}
			rev.dupacknum = dupackNeutral
		}
	}

	// RETRANSMISSION / FAST RETRANSMISSION / OUT-OF-ORDER
	if (seglen > 0 || flags&(thSYN|thFIN) != 0) && *f&KeepAlive == 0 {
		func() {
			seqNotAdvanced := fwd.nextseq != 0 && ltSeq(seq, fwd.nextseq)
			if seglen > 1 && fwd.nextseq-1 == seq {
				seqNotAdvanced = false
			}
			// SPURIOUS
			if seglen > 0 && rev.lastack != 0 && leSeq(seq+seglen, rev.lastack) {
				*f |= SpuriousRetrans | Retransmission
				return
			}
			// FAST RETRANSMISSION (Wireshark's default precedence: before OOO)
			t := now - rev.lastacktime
			if seqNotAdvanced && rev.dupacknum >= 2 && rev.lastack == seq && t >= 0 && t < 20e6 {
				*f |= FastRetransmission | Retransmission
				return
			}
			// OUT-OF-ORDER
			t = now - fwd.nextseqtime
			thres := int64(3e6)
			if cs.firstRTT != 0 {
				thres = cs.firstRTT
			}
			end := seq + seglen
			if flags&(thSYN|thFIN) != 0 {
				end++
			}
			if seqNotAdvanced && t >= 0 && t < thres && fwd.nextseq != end {
				*f |= OutOfOrder
				return
			}
			if seqNotAdvanced {
				*f |= Retransmission
			}
		}()
	}

	// finished_checking_retransmission_type:
	nextseq := seq + seglen
	if flags&(thSYN|thFIN) != 0 {
		nextseq++
	}
	if (seglen > 0 || flags&(thSYN|thFIN) != 0) && len(fwd.segs) < maxUnacked {
		if n := len(fwd.segs); n == 0 {
			fwd.sorted = true
		} else if fwd.sorted {
			ref := fwd.segs[0].seq
			fwd.sorted = seq-ref < 1<<30 && seq-ref >= fwd.segs[n-1].nextseq-ref && nextseq-ref < 1<<30
		}
		if len(fwd.segs) == cap(fwd.segs) { // (most appends have room: nothing to write back)
			fwd.segs, fwd.segsMem = withRoom(fwd.segs, fwd.segsMem)
		}
		fwd.segs = append(fwd.segs, unacked{frame: s.Frame, seq: seq, nextseq: nextseq, ts: now})
		if fwd.bifOK {
			lo, hi := seq-fwd.bifBase, nextseq-fwd.bifBase
			fwd.bifLo, fwd.bifSeqHi, fwd.bifHi = min(fwd.bifLo, lo), max(fwd.bifSeqHi, lo), max(fwd.bifHi, hi)
		}
	}
	if gtSeq(nextseq, fwd.nextseq) || fwd.nextseq == 0 {
		if *f&ZeroWindowProbe == 0 {
			fwd.nextseq = nextseq
			fwd.nextseqframe = s.Frame
			fwd.nextseqtime = now
		}
	}
	if seq == fwd.maxseqtobeacked || fwd.maxseqtobeacked == 0 {
		if *f&ZeroWindowProbe == 0 {
			fwd.maxseqtobeacked = fwd.nextseq
		}
	}
	fwd.window = window
	fwd.lastack = ack
	fwd.lastacktime = now
	fwd.lastFlags = *f

	// Remove what this ACKs from the other direction's unacked list,
	// visiting it newest first as Wireshark does: the last exact match
	// visited is the first transmission.
	segs := rev.segs
	switch {
	case len(segs) == 0 || a.loopsOnly:
	case rev.sorted && rev.ackSorted(ack, now, info):
		segs = nil // done
	case rev.bifOK && rev.bifBase == rev.baseSeq && max(rev.bifHi, rev.bifSeqHi) < 1<<30 && ack-rev.baseSeq <= rev.bifLo:
		// Every segment lies within 2^30 above the base, where serial
		// arithmetic is plain arithmetic, and starts at or above the
		// ACK: it acknowledges nothing (a duplicate ACK in a storm).
		segs = nil
	}
	keep := len(segs)
	for i := len(segs) - 1; i >= 0; i-- {
		u := &segs[i]
		if ack == u.nextseq {
			info.AckedFrame = u.frame
			info.AckRTT = now - u.ts
		} else if gtSeq(ack, u.seq) && leSeq(ack, u.nextseq) {
			u.seq = ack
			rev.bifOK = false
			continue
		} else if gtSeq(u.nextseq, ack) {
			continue
		}
		// Delete segs[i]: shift the kept tail (entries after i) down later.
		keep--
		u.frame = -1
	}
	if keep != len(segs) {
		// Wireshark's loop removed some: the kept are checked for order
		// on the way, as appending them one by one would (see sorted), so
		// that a list one resend put out of order takes the fast paths
		// again once its ACK came, not only once it empties (a large
		// window may never drain).
		rev.bifOK = false
		j, sorted := 0, true
		var ref uint32
		for i := range segs {
			if u := segs[i]; u.frame != -1 {
				if j == 0 {
					ref = u.seq
				} else if sorted {
					sorted = u.seq-ref < 1<<30 && u.seq-ref >= segs[j-1].nextseq-ref && u.nextseq-ref < 1<<30
				}
				segs[j] = u
				j++
			}
		}
		rev.segs, rev.sorted = segs[:j], sorted
	}
	if info.AckedFrame != 0 && info.AckRTT == 0 {
		info.AckRTT = -1 // tshark shows no ack_rtt for a zero delay
	}

	// BYTES IN FLIGHT
	if seglen != 0 && len(fwd.segs) > 0 && fwd.validBIF {
		base := fwd.baseSeq
		newest := fwd.segs[len(fwd.segs)-1]
		first, last := newest.seq-base, newest.nextseq-base
		if oldest := fwd.segs[0].seq - base; fwd.sorted && oldest <= last && !a.loopsOnly {
			// In order and not across the base: the oldest starts lowest,
			// the newest ends highest.
			first = oldest
		} else if !a.loopsOnly {
			// Wireshark's loop, once until segs change other than by
			// appending.
			if !fwd.bifOK || fwd.bifBase != base {
				fwd.bifBase, fwd.bifLo, fwd.bifHi, fwd.bifSeqHi = base, first, last, first
				for i := range fwd.segs {
					u := &fwd.segs[i]
					fwd.bifLo, fwd.bifSeqHi = min(fwd.bifLo, u.seq-base), max(fwd.bifSeqHi, u.seq-base)
					fwd.bifHi = max(fwd.bifHi, u.nextseq-base)
				}
				fwd.bifOK = true
			}
			first, last = fwd.bifLo, fwd.bifHi
		} else {
			for i := range fwd.segs {
				u := &fwd.segs[i]
				if u.nextseq-base > last {
					last = u.nextseq - base
				}
				if u.seq-base < first {
					first = u.seq - base
				}
			}
		}
		inFlight := last - first
		if rev.nsack > 0 {
			var delivered uint32
			for i := 1; i <= rev.nsack; i++ {
				delivered += rev.sackR[i] - rev.sackL[i]
			}
			inFlight -= delivered
		}
		if inFlight > 0 && inFlight < 2000000000 {
			bif := int64(inFlight)
			if flags&(thSYN|thFIN) != 0 {
				bif--
			}
			if bif != 0 {
				info.BytesInFlight = bif
			}
		}
	}
}
