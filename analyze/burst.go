package analyze

import "math/bits"

// burstTail follows, at the sender of one direction, which data segments
// went out back to back behind another (followers: within burstGap of the
// previous data segment, nothing from the receiver between), and how many
// of the segments resent later had: a queue of a few packets drops the
// back of the sender's bursts, whatever the window or the RTT, so its
// losses are followers far more often than segments are, where drops
// independent of the sending (random loss) are followers as often as any
// segment (see diagnose's burstDrops). Measured on the labelled runs'
// sender-side captures: the segments the sender resent were followers at
// 0.37–0.93 behind 3–9 KB queues that dropped them, at the share of all
// its segments (0.02–0.49) or near it where the link dropped at random.
type burstTail struct {
	lastData, lastRev int64 // the last data segment's time; the receiver's last packet's
	high              int64 // the highest end sent
	// minGap: the least time between two data segments, the capture's
	// link's time for a segment at most (0 before two).
	minGap int64
	// marks: the originals, in sequence order, from marks[head] the ones
	// from the cumulative ACK on; at most maxBurstMarks (past it the
	// oldest half goes).
	marks   []burstMark
	head    int
	counted int64 // resends below it were counted
	// originals, followers: the segments sent first, of them followers;
	// lost, lostFollowers: the originals resent (each once), of them
	// followers; paced: of the originals, those sent pacedGap or more
	// after both the last data segment and the receiver's last packet
	// (neither an ACK nor the send before set them off: the sender's
	// pacing did).
	originals, followers, lost, lostFollowers, paced int64
	// lone, lostLone: of the originals, those sent with at most one
	// segment outstanding before them (the path near empty: ack, the
	// highest cumulative ACK; maxSeg the largest segment), and of those
	// the ones resent: a queue drops a segment only when it is full,
	// which a flight of two segments cannot fill, where independent
	// drops take it as any (see diagnose's emptyPathDrops).
	lone, lostLone int64
	ack, maxSeg    int64
	// recent: the times of the last denseSends data segments (any,
	// resends included), recent[n%denseSends] the oldest; dense: the
	// spans of the originals and of those resent (nil before an original
	// had denseSends segments before it).
	recent [denseSends]int64
	n      uint64
	dense  *denseSpans
}

type burstMark struct {
	seq            int64
	follower, lone bool
	// probed: a lone original sent again as a tail-loss probe, counted
	// in lostLone (see data).
	probed bool
	span   uint8 // denseBucket of the span ending at it; 0: none
}

// denseSends (a power of two): the span of a segment is the time from the denseSends-th
// data segment before it to it. A queue of a few packets at the
// bottleneck overflows where the sender sent densest, whether or not
// back to back (a train behind a slower link, or paced): the segments it
// dropped ended shorter spans than the sender's segments did, where
// drops independent of the sending ended spans as any segment did (see
// diagnose's denseDrops). On the labelled sender captures (testdata and
// four held-out sets), denseDrops' test alone holds at 88 of 130 with
// queue drops (the followers' at 40) and at 1 of 26 with random drops
// alone (rl_45ms_20m_l15_nosack: go-back-N, see denseDrops).
const denseSends = 4

// denseBuckets: spans are counted in quarter-octaves of 1.024 µs
// (denseBucket), from under one (1) to over a minute.
const denseBuckets = 1 + 4*27

// denseSpans counts, by denseBucket, the spans ending at the originals
// and at the originals resent.
type denseSpans struct {
	all, lost [denseBuckets]int64
}

// denseBucket is the bucket of a span of ns nanoseconds: 1 under 1,024,
// then four a doubling (the two bits after the highest).
func denseBucket(ns int64) uint8 {
	us := uint64(max(ns, 0)) >> 10
	if us == 0 {
		return 1
	}
	oct := bits.Len64(us) - 1
	frac := 0
	if oct >= 2 {
		frac = int(us>>(oct-2)) & 3
	} else {
		frac = int(us<<(2-oct)) & 3
	}
	return uint8(min(2+4*oct+frac, denseBuckets-1))
}

// burstGap: a data segment sent this soon after the previous one, with
// nothing from the receiver between, was sent back to back behind it.
const burstGap = 500e3

// maxBurstMarks bounds burstTail.marks.
const maxBurstMarks = 1 << 13

// data takes a data segment [seq, end) sent at t (ns); notLost: a resend
// that is no loss (a tail-loss probe, or one already proven unneeded);
// probe: it is a tail-loss probe. A probe of a lone original counts in
// lostLone all the same: the segment sent last into an empty path is the
// one a probe resends, whether or not it arrived, and leaving its probes
// out would spare the lone originals where drops were independent (a
// sender of small messages over a lossy link: a false full queue).
//
// Paced: sent pacedGap or more after both the last data segment and the
// receiver's last packet, and twice the least gap between two segments:
// on a link slow enough for its segments to leave that far apart (a
// capture behind a 10 Mbit/s Ethernet: 1.2 ms a segment), a train of
// them sent on one ACK would read as paced (tcptrace__dsack.dmp, Reno:
// 100% under the fixed gap alone).
func (b *burstTail) data(seq, end, t int64, notLost, probe bool) {
	gap := t - b.lastData
	follower := b.lastData > 0 && gap < burstGap && b.lastRev <= b.lastData
	paced := b.lastData > 0 && b.lastRev > 0 && gap >= max(pacedGap, 2*b.minGap) && t-b.lastRev >= pacedGap
	if b.lastData > 0 && gap > 0 && (b.minGap == 0 || gap < b.minGap) {
		b.minGap = gap
	}
	b.lastData = t
	b.maxSeg = max(b.maxSeg, end-seq)
	var span uint8
	if b.n >= denseSends {
		span = denseBucket(t - b.recent[b.n&(denseSends-1)])
	}
	b.recent[b.n&(denseSends-1)] = t
	b.n++
	if seq >= b.high {
		b.originals++
		if follower {
			b.followers++
		}
		lone := b.ack > 0 && b.high-b.ack <= b.maxSeg
		if lone {
			b.lone++
		}
		if paced {
			b.paced++
		}
		if len(b.marks)-b.head >= maxBurstMarks {
			b.head += maxBurstMarks / 2
		}
		if b.head > 0 && b.head >= len(b.marks)/2 {
			b.marks = append(b.marks[:0], b.marks[b.head:]...)
			b.head = 0
		}
		if span > 0 {
			if b.dense == nil {
				b.dense = &denseSpans{}
			}
			b.dense.all[span]++
		}
		b.marks = append(b.marks, burstMark{seq: seq, follower: follower, lone: lone, span: span})
		b.high = end
		return
	}
	if seq < b.counted {
		return
	}
	if notLost {
		if i, ok := b.find(seq); probe && ok && b.marks[i].lone && !b.marks[i].probed {
			b.marks[i].probed = true
			b.lostLone++
		}
		return
	}
	b.counted = max(b.counted, end)
	if i, ok := b.find(seq); ok {
		b.lost++
		if b.marks[i].follower {
			b.lostFollowers++
		}
		if b.marks[i].lone && !b.marks[i].probed {
			b.lostLone++
		}
		if sp := b.marks[i].span; sp > 0 {
			b.dense.lost[sp]++
		}
	}
}

// find is the mark of the original that began at seq, from head on.
func (b *burstTail) find(seq int64) (int, bool) {
	lo, hi := b.head, len(b.marks)
	for lo < hi {
		m := (lo + hi) / 2
		if b.marks[m].seq < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(b.marks) && b.marks[lo].seq == seq
}

// rev takes a packet from the receiver at t; ack, its cumulative ACK
// (0: none), lets the marks below it go.
func (b *burstTail) rev(t, ack int64) {
	b.lastRev = t
	b.ack = max(b.ack, ack)
	if ack <= 0 || b.head >= len(b.marks) || b.marks[b.head].seq >= ack {
		return
	}
	b.head, _ = b.find(ack)
}

// denseShare: the short spans are the shortest of the originals' up to
// this share of them (whole buckets).
const denseShare = 0.25

// short is what denseDrops reads: of the n originals resent, k ended a
// span in the shortest buckets holding base (at most denseShare) of all
// originals' spans; base 0 when no bucket boundary cuts off a share.
func (d *denseSpans) short() (k, n int64, base float64) {
	if d == nil {
		return 0, 0, 0
	}
	var all int64
	for _, c := range d.all {
		all += c
	}
	for _, c := range d.lost {
		n += c
	}
	if all == 0 {
		return 0, n, 0
	}
	var cum int64
	for i, c := range d.all {
		if float64(cum+c) > denseShare*float64(all) {
			break
		}
		cum += c
		k += d.lost[i]
	}
	return k, n, float64(cum) / float64(all)
}
