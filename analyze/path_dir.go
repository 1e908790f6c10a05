package analyze

import (
	"slices"

	"tcpviz/reassembly"
)

// pathDir is the path analysis of one direction that carries data: the
// data seen at the capture point, and the peer's feedback about it.
type pathDir struct {
	proved *[]int64 // the analyzer's: the frames proven spurious (prove)
	// Data seen at the capture point: everything below highEnd except the
	// holes.
	highEnd  uint64
	firstSeq uint64 // the first data byte seen
	holes    []hole // sorted, disjoint
	maxLen   int64  // largest payload seen

	// IPv4 identification: the highest (serial, RFC 1982 on 16 bits) ID
	// this direction's sender used, and whether IDs vary at all (a stack
	// that sends 0 with DF gives no evidence).
	ipidSet, ipidVaries bool
	maxIPID             uint16
	lastTSval           uint32 // TSval of the previous segment with one
	tsSeen              bool

	// Peer feedback about this data.
	ackSet          bool
	cumAck          uint64 // highest cumulative ACK
	lastWin         uint16 // raw window of the last ACK
	maxRawWin       uint16
	winSeen         bool
	lastPeerAck     int64 // time of the last ACK
	dupSinceAdvance int64 // duplicate ACKs since the cumulative ACK last advanced
	highSACK        uint64
	lastPeerTSval   uint32
	peerTSSeen      bool

	// Round-trip probes, one at a time (as tcptrace's RTT sampler, but on
	// timestamps, so retransmissions do not make them ambiguous).
	dataProbe, ackProbe tsProbe
	seqProbe            seqProbe
	rttRecv, rttSend    int64 // capture→receiver→capture, capture→sender→capture; -1 unknown

	// Retransmissions not yet settled, oldest first; pruneRtx drops them
	// from the front (see withRoom: rtxMem is their array).
	rtx    []rtxRec
	rtxMem []rtxRec
	// openFillers counts the hole fillers in rtx not yet proven spurious:
	// the only records a late original can prove (see addData).
	openFillers int
	unacked     int // records with ackedAt == 0
	// The loss episodes (loss_events): the tracker's rule without
	// re-entry (dropEvents), fed the resends seen here; episode is the
	// last one's number.
	drop     dropEvents
	episode  int64
	episodes [8]episode

	n pathCounts
}

type pathCounts struct {
	rtxSeen, rtxFiller int64 // retransmissions of bytes seen here / filling a hole here
	rto, fast          int64
	lostUpstream       int64
	reordered          int64
	dsack              int64
	dupAcks            int64
	proof              [2][5]int64 // [kind][proof]: records first proven so
	leftEdgeSeen       int64       // seen-kind retransmissions of the next expected byte
	leftEdgeSeenProven int64
	lossEvents         int64
	lossSpuriousProof  int64 // finished episodes all proven spurious
	lossSpuriousSeen   int64 // ... all seen twice (receiver-side reading)
	captureMissed      int64 // hole bytes acknowledged without being seen: the capture missed them
	// leftEdgeSeen and leftEdgeSeenProven of the first loss event (see
	// PathStats.FirstEventLostLow).
	firstLeftEdge, firstLeftEdgeProven int64
}

type hole struct {
	left, right uint64
	time        int64
	ipid        uint16 // IPv4 ID of the segment that opened it
	tsval       uint32 // TSval of the segment that opened it
	hasTS       bool
}

type tsProbe struct {
	active bool
	tsval  uint32
	time   int64
}

type seqProbe struct {
	active bool
	end    uint64
	time   int64
}

// Retransmission kinds and proofs.
const (
	kindSeen   = 0 // resent bytes already seen here
	kindFiller = 1 // filled a hole here

	proofNone  = 0
	proofDSACK = 1
	proofEifel = 2
	proofSeen  = 3 // the other copy was seen here too (a late original)
	// The first ACK past a resend of the next expected byte came sooner
	// than half the smallest round trip to the receiver after it: it
	// answered an earlier copy (the timing evidence of RFC 4015's
	// detection, for a path without timestamps; with them the echo tells).
	proofTiming = 4
)

type rtxRec struct {
	frame     int64 // the resend's
	seq, end  uint64
	time      int64
	ackedAt   int64
	episode   int64
	tsval     uint32
	ipid      uint16
	lostUnits int16
	kind      uint8
	proof     uint8
	hasTS     bool
	leftEdge  bool
	eifelDone bool
}

type episode struct {
	id                  int64
	n, proven, seenLike int64
}

func newPathDir() *pathDir {
	return &pathDir{rttRecv: -1, rttSend: -1}
}

// Serial comparisons on TCP timestamps (RFC 7323) and IPv4 IDs.
func tsBefore(a, b uint32) bool { return int32(a-b) < 0 }
func idBefore(a, b uint16) bool { return int16(a-b) < 0 }
func minSample(cur, v int64) int64 {
	if v < 0 {
		return cur
	}
	if cur < 0 || v < cur {
		return v
	}
	return cur
}

// minRTT is the shortest round trip through the capture point, -1 unknown.
func (f *pathDir) minRTT(pc *pathConn) int64 {
	if pc.synTime != 0 && pc.synAckTime > pc.synTime && pc.ackTime >= pc.synAckTime {
		return pc.ackTime - pc.synTime
	}
	if f.rttRecv >= 0 && f.rttSend >= 0 {
		return f.rttRecv + f.rttSend
	}
	return -1
}

// addData handles a segment of this direction and returns its verdict.
func (f *pathDir) addData(c *reassembly.Conn, s *reassembly.Segment, pc *pathConn) PathVerdict {
	now := s.Time
	ts := s.Opt.HasTimestamp
	// The peer's TSval echoed back: the trip to the sender and back.
	if ts && f.ackProbe.active && s.Opt.TSEcr != 0 && !tsBefore(s.Opt.TSEcr, f.ackProbe.tsval) {
		f.rttSend = minSample(f.rttSend, now-f.ackProbe.time)
		f.ackProbe.active = false
	}
	idUsable := f.ipidVaries && s.IPVersion == 4
	if s.IPVersion == 4 {
		switch {
		case !f.ipidSet:
			f.ipidSet, f.maxIPID = true, s.IPID
		case s.IPID != f.maxIPID:
			f.ipidVaries = true
			if idBefore(f.maxIPID, s.IPID) {
				f.maxIPID = s.IPID
			}
		}
	}
	newTick := ts && (!f.tsSeen || s.Opt.TSVal != f.lastTSval)
	if ts {
		f.lastTSval, f.tsSeen = s.Opt.TSVal, true
	}
	n := int64(s.PayloadLen)
	if n <= 0 {
		return PathNone
	}
	f.maxLen = max(f.maxLen, n)
	seq, end := s.SeqAbs, s.SeqAbs+uint64(n)
	if f.highEnd == 0 {
		f.highEnd, f.firstSeq = seq, seq
	}
	if newTick && !f.dataProbe.active {
		f.dataProbe = tsProbe{active: true, tsval: s.Opt.TSVal, time: now}
	}
	if seq >= f.highEnd {
		// New data. A gap below it is a hole: lost before the capture
		// point, reordered, or missed by the capture.
		if seq > f.highEnd {
			f.openHole(hole{left: f.highEnd, right: seq, time: now, ipid: s.IPID, tsval: s.Opt.TSVal, hasTS: ts})
		}
		f.drop.newData(int64(seq), int64(f.highEnd), s.IPID)
		f.highEnd = end
		if !ts && !f.seqProbe.active {
			f.seqProbe = seqProbe{active: true, end: end, time: now}
		}
		return PathNew
	}
	// Below the highest sequence number seen: a hole filler (late original
	// or retransmission), or a resend of bytes seen here.
	f.seqProbe.active = false // Karn: an ACK can no longer be timed
	top := min(end, f.highEnd)
	i, h, holeBytes := f.holesIn(seq, top)
	if end > f.highEnd {
		f.highEnd = end
	}
	if holeBytes > 0 {
		retrans := f.fillerIsRetransmission(s, &h, idUsable, pc)
		f.removeRange(i, seq, top)
		if !retrans {
			f.n.reordered++ // RFC 4737: below NextExp, not a retransmission
			return PathReordered
		}
		units := (holeBytes + f.maxLen - 1) / f.maxLen
		f.n.lostUpstream += units
		f.addRtx(s, kindFiller, int16(min(units, 1<<14)), false)
		return PathLostUpstream
	}
	// Keep-alive: one byte below the next expected one, already
	// acknowledged (Wireshark's tcp.analysis.keep_alive; not data).
	if n == 1 && f.ackSet && end == f.cumAck && end == f.highEnd {
		return PathNone
	}
	// A late original of bytes a retransmission already filled here: the
	// retransmission was spurious, this one was reordered.
	for k := len(f.rtx) - 1; k >= 0 && f.openFillers > 0; k-- {
		r := &f.rtx[k]
		if r.kind != kindFiller || r.proof != proofNone || r.seq >= end || seq >= r.end {
			continue
		}
		older := false
		switch {
		case idUsable:
			older = idBefore(s.IPID, r.ipid)
		case ts && r.hasTS:
			older = tsBefore(s.Opt.TSVal, r.tsval)
		}
		if older {
			f.prove(r, proofSeen)
			f.n.lostUpstream -= int64(r.lostUnits)
			r.lostUnits = 0
			f.n.reordered++
			return PathReordered
		}
	}
	toSnd, toRcv, _ := pc.trips(int(s.Dir))
	vantage := vantageOf(toSnd, toRcv)
	f.addRtx(s, kindSeen, 0, vantage == VantageSender)
	// At a receiver-side capture the bytes seen here had arrived: the
	// resend was unneeded (as fill counts SpuriousSeenOriginal).
	if vantage == VantageReceiver {
		return PathSpurious
	}
	return PathRetransmitted
}

// fillerIsRetransmission applies issue 9's rule to a segment filling a
// hole: a retransmission if its IPv4 ID is above the ID of the segment that
// opened the hole (IDs count up per packet on Linux and most stacks; every
// original in the hole was sent before that segment, any repair after it),
// else if its TSval is newer than that segment's, else if it arrives at
// least one minimum RTT after the hole opened (a sender cannot repair
// faster); otherwise it is a late original (reordered). Comparing with the
// hole's opener rather than with every ID seen is the same without
// reordering, and stays right when the repair itself is overtaken by
// later segments.
func (f *pathDir) fillerIsRetransmission(s *reassembly.Segment, h *hole, idUsable bool, pc *pathConn) bool {
	if idUsable {
		return idBefore(h.ipid, s.IPID)
	}
	if s.Opt.HasTimestamp && h.hasTS && s.Opt.TSVal != h.tsval {
		return tsBefore(h.tsval, s.Opt.TSVal)
	}
	rtt := f.minRTT(pc)
	if rtt < 0 {
		rtt = 3e6 // Wireshark's out-of-order threshold without a handshake
	}
	return s.Time-h.time >= rtt
}

// addRtx records a retransmission and classifies it as timer-driven or
// fast: fast when the peer reported data above it (duplicate ACKs or SACK,
// RFC 5681/6675) or a partial ACK during recovery (RFC 6582) triggered it,
// and the peer's last ACK came less than minRTO before (as the sender saw
// it: the trip from the capture to the sender is removed). The rest were
// sent on a timer: RTO, and tail-loss probes (RFC 8985), counted with RTO.
//
// It starts a loss episode by the tracker's rule (dropEvents); at a
// sender-side capture, as the tracker, not with a resend that is no loss
// signal (noLossSignal: the ACK, duplicate ACKs and window seen here are
// the sender's). Elsewhere the sender's view is not seen: every resend is
// one.
func (f *pathDir) addRtx(s *reassembly.Segment, kind uint8, units int16, atSender bool) {
	now := s.Time
	seq, end := s.SeqAbs, s.SeqAbs+uint64(s.PayloadLen)
	if kind == kindSeen {
		f.n.rtxSeen++
	} else {
		f.n.rtxFiller++
	}
	// A partial ACK during recovery (NewReno, RFC 6582) counts too: it
	// resets the duplicate ACKs but is itself the trigger.
	f.drop.ack(int64(f.cumAck))
	evidence := f.dupSinceAdvance > 0 || (f.highSACK > seq && f.highSACK > f.cumAck) || f.drop.in
	gap := now - f.lastPeerAck - max(f.rttSend, 0)
	if evidence && f.ackSet && gap < minRTO {
		f.n.fast++
	} else {
		f.n.rto++
	}
	spurious, tlp := noLossSignal(int64(seq), int64(end), int64(f.highEnd), int64(f.cumAck), f.ackSet,
		f.dupSinceAdvance > 0 || f.highSACK > f.cumAck, f.ackSet && f.lastWin == 0)
	if f.drop.resend(int64(f.highEnd), s.IPID, !atSender || !spurious && !tlp) {
		f.episode++
		f.n.lossEvents++
		f.pushEpisode(f.episode)
	}
	episode := int64(0) // none: a resend that is no loss signal, outside an episode
	if f.drop.in {
		episode = f.episode
	}
	r := rtxRec{
		frame: s.Frame, seq: seq, end: end, time: now, episode: episode,
		tsval: s.Opt.TSVal, hasTS: s.Opt.HasTimestamp && s.Opt.TSVal != 0, ipid: s.IPID,
		kind: kind, lostUnits: units,
		leftEdge: seq <= f.cumAck || (!f.ackSet && seq <= f.firstSeq),
	}
	if kind == kindSeen && r.leftEdge {
		f.n.leftEdgeSeen++
		if r.episode == 1 {
			f.n.firstLeftEdge++
		}
	}
	if e := f.episodeOf(r.episode); e != nil {
		e.n++
		if kind == kindSeen {
			e.seenLike++
		}
	}
	f.pruneRtx(now)
	f.rtx, f.rtxMem = withRoom(f.rtx, f.rtxMem)
	f.rtx = append(f.rtx, r)
	f.unacked++
	if kind == kindFiller {
		f.openFillers++
	}
}

// prove marks r spurious by proof p, unless it already was.
func (f *pathDir) prove(r *rtxRec, p uint8) {
	if r.proof != proofNone {
		return
	}
	r.proof = p
	f.n.proof[r.kind][p]++
	if f.proved != nil {
		*f.proved = append(*f.proved, r.frame)
	}
	if r.kind == kindFiller {
		f.openFillers--
	}
	if r.kind == kindSeen && r.leftEdge {
		f.n.leftEdgeSeenProven++
		if r.episode == 1 {
			f.n.firstLeftEdgeProven++
		}
	}
	if e := f.episodeOf(r.episode); e != nil {
		e.proven++
		if r.kind == kindFiller && p == proofSeen {
			e.seenLike++
		}
	}
}

func (f *pathDir) pushEpisode(id int64) {
	slot := &f.episodes[id%int64(len(f.episodes))]
	f.finishEpisode(slot)
	*slot = episode{id: id}
}

func (f *pathDir) finishEpisode(e *episode) {
	if e.id == 0 || e.n == 0 {
		return
	}
	if e.proven == e.n {
		f.n.lossSpuriousProof++
	}
	if e.seenLike == e.n {
		f.n.lossSpuriousSeen++
	}
}

func (f *pathDir) episodeOf(id int64) *episode {
	e := &f.episodes[id%int64(len(f.episodes))]
	if e.id != id {
		return nil
	}
	return e
}

// pruneRtx drops settled records: acknowledged long enough ago that no
// D-SACK or late original can still come for them, or the oldest beyond
// maxRtxRecords.
func (f *pathDir) pruneRtx(now int64) {
	keep := int64(2e9)
	if rtt := max(f.rttRecv, 0) + max(f.rttSend, 0); 4*rtt > keep {
		keep = 4 * rtt
	}
	i := 0
	for i < len(f.rtx) {
		r := &f.rtx[i]
		if len(f.rtx)-i < maxRtxRecords && (r.ackedAt == 0 || now-r.ackedAt < keep) {
			break
		}
		if r.ackedAt == 0 {
			f.unacked--
		}
		if r.kind == kindFiller && r.proof == proofNone {
			f.openFillers--
		}
		i++
	}
	f.rtx = f.rtx[i:]
}

// holesIn returns the index of the first hole ending above a, a copy of
// the first hole overlapping [a, b), and how many bytes of [a, b) are in
// holes.
func (f *pathDir) holesIn(a, b uint64) (int, hole, int64) {
	i, _ := slices.BinarySearchFunc(f.holes, a, func(h hole, x uint64) int {
		if h.right <= x {
			return -1
		}
		return 1
	})
	var first hole
	var n int64
	for j := i; j < len(f.holes) && f.holes[j].left < b; j++ {
		h := &f.holes[j]
		lo, hi := max(h.left, a), min(h.right, b)
		if hi > lo {
			if n == 0 {
				first = *h
			}
			n += int64(hi - lo)
		}
	}
	return i, first, n
}

// removeRange takes [a, b) out of the holes, starting at index i (from
// holesIn), and returns how many bytes it removed.
func (f *pathDir) removeRange(i int, a, b uint64) int64 {
	var n int64
	for i < len(f.holes) && f.holes[i].left < b {
		h := &f.holes[i]
		lo, hi := max(h.left, a), min(h.right, b)
		if hi <= lo {
			i++
			continue
		}
		n += int64(hi - lo)
		switch {
		case lo == h.left && hi == h.right:
			f.holes = slices.Delete(f.holes, i, i+1)
			continue
		case lo == h.left:
			h.left = hi
		case hi == h.right:
			h.right = lo
		default: // split
			tail := *h
			tail.left = hi
			h.right = lo
			f.holes = slices.Insert(f.holes, i+1, tail)
		}
		i++
	}
	return n
}

func (f *pathDir) openHole(h hole) {
	if len(f.holes) >= maxHoles {
		// Too many open holes (a capture missing most packets): count the
		// oldest as lost before the capture point and let it go.
		if f.maxLen > 0 {
			f.n.lostUpstream += int64((f.holes[0].right - f.holes[0].left + uint64(f.maxLen) - 1) / uint64(f.maxLen))
		}
		f.holes = slices.Delete(f.holes, 0, 1)
	}
	f.holes = append(f.holes, h)
}

// addFeedback handles a segment of the peer carrying an ACK of this data.
func (f *pathDir) addFeedback(c *reassembly.Conn, s *reassembly.Segment) {
	now := s.Time
	ack := s.AckAbs
	o := &s.Opt
	// This data's TSval echoed by the peer: the trip to the receiver.
	if o.HasTimestamp && f.dataProbe.active && o.TSEcr != 0 && !tsBefore(o.TSEcr, f.dataProbe.tsval) {
		f.rttRecv = minSample(f.rttRecv, now-f.dataProbe.time)
		f.dataProbe.active = false
	}
	if f.seqProbe.active && ack >= f.seqProbe.end {
		f.rttRecv = minSample(f.rttRecv, now-f.seqProbe.time)
		f.seqProbe.active = false
	}
	if o.HasTimestamp {
		if !f.ackProbe.active && (!f.peerTSSeen || o.TSVal != f.lastPeerTSval) {
			f.ackProbe = tsProbe{active: true, tsval: o.TSVal, time: now}
		}
		f.lastPeerTSval, f.peerTSSeen = o.TSVal, true
	}
	f.maxRawWin = max(f.maxRawWin, s.Window)
	f.winSeen = true

	pure := s.PayloadLen == 0 && s.Flags&(reassembly.SYN|reassembly.FIN|reassembly.RST) == 0
	if !f.ackSet {
		// Before the first ACK, the receiver expects the first byte seen;
		// this ACK may already advance past it.
		f.ackSet, f.cumAck, f.lastWin = true, min(ack, f.firstSeq), s.Window
	} else if pure && ack == f.cumAck && s.Window == f.lastWin && f.highEnd > ack {
		// RFC 5681's duplicate ACK.
		f.dupAcks(1)
	}

	// SACK blocks (RFC 2018), unwrapped around this ACK. The first is a
	// D-SACK (RFC 2883) when it lies below the cumulative ACK or inside the
	// second block; it reports a segment received twice, and proves
	// spurious the retransmission it covers (RFC 3708).
	for i := 0; i < int(o.NSACK); i++ {
		l, r, ok := s.SACK(i)
		if !ok {
			continue
		}
		if i == 0 {
			if _, _, dsack := s.DSACK(); dsack {
				f.n.dsack++
				f.dsackProves(l, r)
				continue
			}
		}
		if r > f.highSACK {
			f.highSACK = r
		}
		f.ackedUnseen(l, r)
	}

	if ack > f.cumAck {
		f.cumAck = ack
		f.dupSinceAdvance = 0
		f.ackedUnseen(0, ack)
		if f.unacked > 0 {
			f.settle(ack, s, now)
		}
	}
	f.lastWin = s.Window
	f.lastPeerAck = now
}

func (f *pathDir) dupAcks(n int64) {
	f.n.dupAcks += n
	f.dupSinceAdvance += n
}

// ackedUnseen removes from the holes what the peer acknowledged: bytes it
// received that the capture never saw (a capture that missed them, not a
// loss).
func (f *pathDir) ackedUnseen(a, b uint64) {
	if len(f.holes) == 0 || b <= f.holes[0].left || a >= f.holes[len(f.holes)-1].right {
		return
	}
	i, _, n := f.holesIn(a, b)
	if n > 0 {
		f.n.captureMissed += f.removeRange(i, a, b)
	}
}

// dsackProves marks spurious the latest unproven retransmission that the
// D-SACK block [l, r) covers.
func (f *pathDir) dsackProves(l, r uint64) {
	for k := len(f.rtx) - 1; k >= 0; k-- {
		x := &f.rtx[k]
		if x.proof == proofNone && x.seq < r && l < x.end {
			f.prove(x, proofDSACK)
			return
		}
	}
}

// settle handles a cumulative ACK advancing to ack: retransmissions it
// covers are acknowledged, and the first ACK that covers the retransmission
// of the next expected byte is checked as Eifel does (RFC 3522): echoing a
// timestamp older than the retransmission's, it was caused by an earlier
// copy, so the retransmission was spurious.
func (f *pathDir) settle(ack uint64, s *reassembly.Segment, now int64) {
	for k := range f.rtx {
		r := &f.rtx[k]
		if r.ackedAt != 0 {
			continue
		}
		if r.leftEdge && !r.eifelDone && ack > r.seq {
			r.eifelDone = true
			switch {
			case r.hasTS && s.Opt.HasTimestamp && s.Opt.TSEcr != 0 && tsBefore(s.Opt.TSEcr, r.tsval):
				f.prove(r, proofEifel)
			case !(r.hasTS && s.Opt.HasTimestamp) && f.rttRecv > 0 && 2*(now-r.time) < f.rttRecv:
				f.prove(r, proofTiming)
			}
		}
		if ack >= r.end {
			r.ackedAt = now
			f.unacked--
		}
	}
}

// fill writes the counts into st, whose Vantage is set.
func (f *pathDir) fill(st *PathStats, c *reassembly.Conn, d reassembly.Direction) {
	n := &f.n
	st.HasData = true
	st.Retransmitted = n.rtxSeen + n.rtxFiller
	st.RTORetransmissions, st.FastRetransmissions = n.rto, n.fast
	st.DSACKBlocks = n.dsack
	st.PeerDupAcks = n.dupAcks
	st.Reordered = n.reordered
	st.LostUpstream = n.lostUpstream
	if f.maxLen > 0 {
		for _, h := range f.holes {
			st.LostUpstream += int64((h.right - h.left + uint64(f.maxLen) - 1) / uint64(f.maxLen))
		}
	}
	st.LossEvents = n.lossEvents
	spurProof, spurSeen := n.lossSpuriousProof, n.lossSpuriousSeen
	for i := range f.episodes {
		e := &f.episodes[i]
		if e.id != 0 && e.n > 0 {
			if e.proven == e.n {
				spurProof++
			}
			if e.seenLike == e.n {
				spurSeen++
			}
		}
	}
	seenProven := n.proof[kindSeen][proofDSACK] + n.proof[kindSeen][proofEifel] + n.proof[kindSeen][proofSeen] + n.proof[kindSeen][proofTiming]
	st.SpuriousTiming = n.proof[kindSeen][proofTiming] + n.proof[kindFiller][proofTiming]
	st.SpuriousDSACK = n.proof[kindSeen][proofDSACK] + n.proof[kindFiller][proofDSACK]
	st.SpuriousEifel = n.proof[kindSeen][proofEifel] + n.proof[kindFiller][proofEifel]
	if st.Vantage == VantageReceiver {
		// Everything seen here reached the receiver: a resend of bytes seen
		// here arrived twice, and nothing was lost after the capture.
		st.SpuriousSeenOriginal = n.rtxSeen + n.proof[kindFiller][proofSeen]
		st.SpuriousRetransmitted = st.SpuriousSeenOriginal
		st.LossEventsSpurious = spurSeen
	} else {
		st.SpuriousSeenOriginal = n.proof[kindFiller][proofSeen]
		st.SpuriousRetransmitted = st.SpuriousDSACK + st.SpuriousEifel + st.SpuriousTiming + st.SpuriousSeenOriginal
		st.LostDownstream = max(n.rtxSeen-seenProven, 0)
		st.LostDownstreamLow = max(n.leftEdgeSeen-n.leftEdgeSeenProven, 0)
		st.FirstEventLostLow = max(n.firstLeftEdge-n.firstLeftEdgeProven, 0)
		st.LossEventsSpurious = spurProof
	}
	st.PeerMaxRwnd = -1
	if f.winSeen {
		peer := &c.Dir[d.Reverse()]
		own := &c.Dir[d]
		switch {
		case own.WScale >= 0 && peer.WScale >= 0:
			st.PeerMaxRwnd = int64(f.maxRawWin) << uint(min(peer.WScale, 14))
		case own.WScale >= 0 || peer.WScale >= 0:
			// Offered by one side only: not in use (RFC 7323, 2.2).
			st.PeerMaxRwnd = int64(f.maxRawWin)
		case own.SYN && peer.SYN && !(own.Timestamps && peer.Timestamps):
			st.PeerMaxRwnd = int64(f.maxRawWin)
			// Neither SYN shows it but both carry timestamps: Linux puts
			// window scale after them, where a header-only capture (-s 96
			// over Linux cooked v2 and IPv6) cuts the options: unknown.
		}
	}
	if st.Vantage == VantageSender && st.RTTToReceiver >= 0 && st.RTTToReceiver < nearbyRTT {
		st.NearbyPeer = true
	}
}
