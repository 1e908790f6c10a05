package analyze

import (
	"math"
	"sort"

	"tcpviz/reassembly"
)

// tcptrace-style RTT (Karn's rule).
//
// The summary's rtt_* columns follow Wireshark's tcp.analysis.ack_rtt: an
// ACK exactly covering a segment's end is timed from the segment's first
// transmission, retransmitted or not. tcptrace (rexmit.c: rexmit, addseg,
// ack_in, rtt_ackin, collapse_quad; trace.c: dotrace) measures RTT
// differently, and karnDir reproduces its rules so that the karn_rtt_*
// columns agree with `tcptrace -l`:
//
//   - Each direction keeps the segments it sent (SYN and FIN count as one
//     byte each) in four lists, one per quadrant of the 32-bit sequence
//     space; touching a quadrant forgets the opposite one. A segment that
//     overlaps bytes already sent is split: the new bytes become segments
//     of their own, the old ones count a retransmission and (unless the
//     segment was split before) take the retransmission's time.
//   - Segments sent while the receiver's last window was zero (and it had
//     sent something) are window probes and are not recorded.
//   - An ACK acknowledges, in order, every recorded segment starting below
//     it. A segment acknowledged for the first time by an ACK equal to its
//     end gives a sample (the time since it was sent) only if it was never
//     retransmitted (Karn's rule) and no segment before it, acknowledged or
//     not, was sent after it ("intervening transmissions", e.g. a
//     retransmitted hole). A segment covered by a larger ACK gives none.
//   - The touching acknowledged segments at the head of a list are merged
//     (taking the later time), so a list holds little more than the
//     unacknowledged segments and the holes never filled.
//
// Statistics are tcptrace's: the minimum ignores a zero minimum (tcptrace
// tests rtt_min == 0 for "unset"), the standard deviation is the sample
// one from the sums, 0 (not measurable here) with two samples or fewer.
//
// Differences from tcptrace that remain by design: sequence numbers are
// those of tcpviz's connections (tcptrace cuts connections differently on
// port reuse), and a quadrant's list is bounded (tcptrace's are not), so
// that memory and the walk of each ACK stay bounded under hostile input:
// past maxKarnSegs segments its first two are merged when both are
// acknowledged (only holes never filled leave acknowledged segments
// apart: what is lost is where they were), and past maxKarnFlight the
// first is forgotten (that many unacknowledged: 95 MB in flight at
// 1448-byte segments; what is forgotten costs at most its own sample). A
// segment crossing 2^32 is split at the boundary and its second part
// wraps to 0, as tcptrace 6.6.7 does (its sample is kept:
// TestKarnLargeFlight).

// maxKarnSegs is the length of a quadrant's list past which its
// acknowledged head is merged; maxKarnFlight the length past which its
// oldest segment is forgotten. A direction keeps at most 3 × 65536
// segments of 40 bytes (7.5 MB), normally only its unacknowledged ones.
// maxKarnFlight must exceed any real flight: when it is reached, each new
// segment pushes out the oldest unacknowledged one, and a flight above it
// would give no sample at all (as a merge of unacknowledged segments
// would: a merged segment ends past its ACK).
const (
	maxKarnSegs   = 4096
	maxKarnFlight = 1 << 16
)

// karnSeg is tcptrace's segment record. first and last are inclusive,
// within one quadrant.
type karnSeg struct {
	first, last uint64
	time        int64 // ns: first transmission, then the last retransmission
	frame       int64 // the packet that sent it (last)
	retrans     int32
	acked       bool
}

// karnQuad is one quadrant's list, sorted and disjoint. next and prev are
// tcptrace's neighbour links (-1: none), which decide when whichQuad
// reorganises the quadrants.
type karnQuad struct {
	segs       []karnSeg
	mem        []karnSeg // an array of ours whose front collapse may have freed (see room)
	exists     bool
	next, prev int8
}

// room returns segs with room for one more segment (see withRoom:
// collapse drops acknowledged segments from the front of segs).
func (quad *karnQuad) room() []karnSeg {
	segs, mem := withRoom(quad.segs, quad.mem)
	quad.mem = mem
	return segs
}

// insert inserts s at index i of the list, keeping the list within its
// bounds by merging its first two segments, when both are acknowledged,
// or else forgetting the first. It returns how far the segments at and
// after i moved towards the front (1 when the list was cut at its front,
// else 0): the caller's index into the list moves with them.
func (quad *karnQuad) insert(i int, s karnSeg) (shift int) {
	segs := quad.room()
	segs = segs[:len(segs)+1]
	copy(segs[i+1:], segs[i:])
	segs[i] = s
	switch {
	case len(segs) > maxKarnSegs && segs[0].acked && segs[1].acked:
		a, b := &segs[0], &segs[1]
		b.first = a.first
		b.time = max(a.time, b.time)
		b.retrans = max(a.retrans, b.retrans)
		segs, shift = segs[1:], 1
	case len(segs) > maxKarnFlight:
		segs, shift = segs[1:], 1
	}
	quad.segs = segs
	return shift
}

// karnDir is the tcptrace RTT state of the data one side sends, plus what
// the other side's processing needs of this side (packets, last window).
type karnDir struct {
	quads   [4]karnQuad
	packets int64
	winLast uint32 // last effective window this side advertised (0 when neither ACK nor SYN)
	// idleAck is an ACK ackIn's fast path returned at, while idle: nothing
	// changed the quadrants since (add clears it), so the same ACK again
	// would return there too (karnAdd skips it: the ACKs a side that
	// sends no data gets).
	idleAck uint32
	idle    bool
	karnSum
}

// karnSum is what a direction's tcptrace RTT samples add up to: all the
// statistics keep of them (fill).
type karnSum struct {
	n             int64
	minUs, maxUs  float64
	sumUs, sum2Us float64
}

// karnAdd feeds segment s (capture duplicates included: tcptrace sees them
// as retransmissions) to the tcptrace RTT state of its connection.
// It returns the sample an ACK gave for the other direction's data, if any.
func (cs *connState) karnAdd(s *reassembly.Segment) (smp karnSample) {
	return karnAdd(&cs.stats[s.Dir].karn, &cs.stats[s.Dir.Reverse()].karn, s)
}

// karnAdd is connState.karnAdd on the states of the segment's direction
// (this) and the other (other), wherever they are kept (see ahead).
func karnAdd(this, other *karnDir, s *reassembly.Segment) (smp karnSample) {
	this.packets++
	n := uint64(s.PayloadLen)
	if s.Flags&thSYN != 0 {
		n++
	}
	if s.Flags&thFIN != 0 {
		n++
	}
	if n > 0 && !(other.packets > 0 && other.winLast == 0) {
		this.add(s.Seq, n, s.Time, s.Frame)
	}
	if s.Flags&thACK != 0 && (!other.idle || s.Ack != other.idleAck) {
		smp = other.ackIn(s.Ack, s.Time)
	}
	if s.Flags&thRST == 0 { // tcptrace returns before its window stats on a RST
		if s.Flags&(thACK|thSYN) != 0 {
			this.winLast = uint32(s.Window)
		} else {
			this.winLast = 0
		}
	}
	return smp
}

// karnSample is one tcptrace RTT sample: the segment measured (its frame
// and time) and the round-trip time in ns. Zero frame: no sample.
type karnSample struct {
	frame, sent, rtt int64
}

// whichQuad is tcptrace's whichquad: the quadrant of seq, making sure it
// and its neighbours exist and forgetting the opposite one.
func (k *karnDir) whichQuad(seq uint32) int {
	q := int(seq >> 30)
	if p := &k.quads[q]; p.exists && p.next >= 0 && p.prev >= 0 {
		return q
	}
	nx, op, pv := (q+1)&3, (q+2)&3, (q+3)&3
	for _, i := range [3]int{q, nx, pv} {
		if !k.quads[i].exists {
			k.quads[i] = karnQuad{segs: k.quads[i].segs[:0], mem: k.quads[i].mem, exists: true, next: -1, prev: -1}
		}
	}
	if k.quads[op].exists {
		k.quads[op] = karnQuad{segs: k.quads[op].segs[:0], mem: k.quads[op].mem, next: -1, prev: -1}
	}
	k.quads[q].prev, k.quads[q].next = int8(pv), int8(nx)
	k.quads[nx].prev, k.quads[pv].next = int8(q), int8(q)
	k.quads[nx].next, k.quads[pv].prev = -1, -1
	return q
}

// add is tcptrace's rexmit: records n bytes of sequence space from seq.
// A segment crossing a quadrant boundary is split there; crossing 2^32,
// its second part starts at 0, where its ACK finds it.
func (k *karnDir) add(seq uint32, n uint64, now, frame int64) {
	k.idle = false
	first := uint64(seq)
	last := first + n - 1
	// Fast path, the usual case: new data after the last segment of a
	// quadrant whichQuad would return as is.
	if quad := &k.quads[seq>>30]; quad.exists && quad.next >= 0 && quad.prev >= 0 && first>>30 == last>>30 {
		if m := len(quad.segs); m > 0 && m < cap(quad.segs) && m < maxKarnSegs && first > quad.segs[m-1].last {
			quad.segs = append(quad.segs, karnSeg{first: first, last: last, time: now, frame: frame})
			return
		}
	}
	q := k.whichQuad(seq)
	if first>>30 != last>>30 {
		n1 := (first>>30+1)<<30 - first
		k.addSeg(q, first, n1, now, frame)
		k.addSeg(int(k.quads[q].next), ((first>>30+1)<<30)&(1<<32-1), n-n1, now, frame)
		return
	}
	k.addSeg(q, first, n, now, frame)
}

// addSeg is tcptrace's addseg on quadrant q.
func (k *karnDir) addSeg(q int, first, n uint64, now, frame int64) {
	last := first + n - 1
	quad := &k.quads[q]
	split := false
	// tcptrace skips, from the head, the segments ending before first.
	segs := quad.segs
	i := len(segs)
	switch {
	case i == 0 || first > segs[i-1].last: // after the last (the usual case)
	case i == 1 || first > segs[i-2].last: // after the one before
		i--
	default:
		i = sort.Search(len(segs), func(j int) bool { return segs[j].last >= first })
	}
	for ; i < len(quad.segs); i++ {
		if first < quad.segs[i].first {
			// Starts before this segment: the bytes before it are new.
			end := min(last, quad.segs[i].first-1)
			i += 1 - quad.insert(i, karnSeg{first: first, last: end, time: now, frame: frame})
			if last < quad.segs[i].first {
				return
			}
			first = quad.segs[i].first
		}
		// Starts within this segment: a retransmission.
		s := &quad.segs[i]
		s.retrans++
		if !split {
			s.time, s.frame = now, frame
		}
		if last <= s.last {
			return
		}
		split = true
		first = s.last + 1
	}
	quad.insert(len(quad.segs), karnSeg{first: first, last: last, time: now, frame: frame})
}

// ackIn is tcptrace's ack_in for an ACK of this direction's data.
func (k *karnDir) ackIn(ack uint32, now int64) (smp karnSample) {
	// Fast path: nothing to acknowledge in a quadrant whichQuad would
	// return as is (e.g. the ACKs of a side that sends no data).
	// So is one that acknowledges nothing new: the quadrant before holds
	// nothing unacknowledged (collapse leaves one record of it at most),
	// and below the ACK this one holds only its first record, already
	// acknowledged (the ACKs of a side whose SYN alone was acknowledged,
	// duplicate ACKs).
	if quad := &k.quads[ack>>30]; quad.exists && quad.next >= 0 && quad.prev >= 0 {
		prev, segs, a := k.quads[quad.prev].segs, quad.segs, uint64(ack)
		if (len(prev) == 0 || len(prev) == 1 && prev[0].acked) &&
			(len(segs) == 0 || (segs[0].acked || a <= segs[0].first) && (len(segs) == 1 || a <= segs[1].first)) {
			k.idle, k.idleAck = true, ack
			return
		}
	}
	k.idle = false
	q := k.whichQuad(ack)
	pq := int(k.quads[q].prev)
	var lastXmit int64 // tcptrace's timeval {0,0}
	changed := false
	prev := k.quads[pq].segs
	for i := range prev {
		if !prev[i].acked {
			prev[i].acked = true
			changed = true
			lastXmit = max(lastXmit, prev[i].time)
		}
	}
	if changed {
		k.collapse(pq)
	}
	changed = false
	segs := k.quads[q].segs
	a := uint64(ack)
	for i := range segs {
		s := &segs[i]
		if a <= s.first {
			break
		}
		lastXmit = max(lastXmit, s.time)
		if s.acked {
			continue
		}
		s.acked = true
		changed = true
		if a == s.last+1 {
			if k.sample(s, lastXmit > s.time, now) {
				smp = karnSample{frame: s.frame, sent: s.time, rtt: max(0, now-s.time)}
			}
		}
	}
	if changed {
		k.collapse(q)
	}
	return smp
}

// sample is tcptrace's rtt_ackin: a sample unless the segment was
// retransmitted or a segment before it was sent after it.
func (k *karnDir) sample(s *karnSeg, intervening bool, now int64) bool {
	if intervening || s.retrans != 0 {
		return false
	}
	us := 0.0
	if now > s.time {
		us = float64(now-s.time) / 1e3
	}
	if k.minUs == 0 || k.minUs > us {
		k.minUs = us
	}
	k.maxUs = max(k.maxUs, us)
	k.sumUs += us
	k.sum2Us += us * us
	k.n++
	return true
}

// collapse is tcptrace's collapse_quad: merges the touching segments of
// the leading run of acknowledged ones (it stops at the first
// unacknowledged segment). The run is merged back to front so that the
// result ends where the run did and the list is resliced, not shifted:
// the cost is the run's length, not the list's.
func (k *karnDir) collapse(q int) {
	segs := k.quads[q].segs
	e := 0
	for e < len(segs) && segs[e].acked {
		e++
	}
	if e < 2 {
		return
	}
	w := e - 1
	for r := e - 2; r >= 0; r-- {
		if segs[r].last+1 == segs[w].first {
			// tcptrace keeps the earlier record, with the later end and
			// the later time.
			segs[w].first = segs[r].first
			segs[w].time = max(segs[w].time, segs[r].time)
			segs[w].retrans = segs[r].retrans
			continue
		}
		w--
		segs[w] = segs[r]
	}
	k.quads[q].segs = segs[w:]
}

// fill sets st's tcptrace-style RTT fields.
func (k *karnSum) fill(st *DirStats) {
	st.KarnRTTSamples = k.n
	if k.n == 0 {
		return
	}
	n := float64(k.n)
	st.KarnRTTMinMs = k.minUs / 1e3
	st.KarnRTTMaxMs = k.maxUs / 1e3
	st.KarnRTTAvgMs = k.sumUs / n / 1e3
	if k.n > 2 {
		st.KarnRTTStdevMs = math.Sqrt(max(0, (k.sum2Us-k.sumUs*k.sumUs/n)/(n-1))) / 1e3
	}
}
