package analyze

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
}

type burstMark struct {
	seq      int64
	follower bool
}

// burstGap: a data segment sent this soon after the previous one, with
// nothing from the receiver between, was sent back to back behind it.
const burstGap = 500e3

// maxBurstMarks bounds burstTail.marks.
const maxBurstMarks = 1 << 13

// data takes a data segment [seq, end) sent at t (ns); notLost: a resend
// that is no loss (a tail-loss probe, or one already proven unneeded).
//
// Paced: sent pacedGap or more after both the last data segment and the
// receiver's last packet, and twice the least gap between two segments:
// on a link slow enough for its segments to leave that far apart (a
// capture behind a 10 Mbit/s Ethernet: 1.2 ms a segment), a train of
// them sent on one ACK would read as paced (tcptrace__dsack.dmp, Reno:
// 100% under the fixed gap alone).
func (b *burstTail) data(seq, end, t int64, notLost bool) {
	gap := t - b.lastData
	follower := b.lastData > 0 && gap < burstGap && b.lastRev <= b.lastData
	paced := b.lastData > 0 && b.lastRev > 0 && gap >= max(pacedGap, 2*b.minGap) && t-b.lastRev >= pacedGap
	if b.lastData > 0 && gap > 0 && (b.minGap == 0 || gap < b.minGap) {
		b.minGap = gap
	}
	b.lastData = t
	if seq >= b.high {
		b.originals++
		if follower {
			b.followers++
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
		b.marks = append(b.marks, burstMark{seq, follower})
		b.high = end
		return
	}
	if seq < b.counted || notLost {
		return
	}
	b.counted = max(b.counted, end)
	if i, ok := b.find(seq); ok {
		b.lost++
		if b.marks[i].follower {
			b.lostFollowers++
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
	if ack <= 0 || b.head >= len(b.marks) || b.marks[b.head].seq >= ack {
		return
	}
	b.head, _ = b.find(ack)
}
