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
	// marks: the originals from the cumulative ACK on, in sequence
	// order, at most maxBurstMarks (the oldest half goes past it).
	marks   []burstMark
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

// data takes a data segment [seq, end) sent at t (ns).
func (b *burstTail) data(seq, end, t int64) {
	follower := b.lastData > 0 && t-b.lastData < burstGap && b.lastRev <= b.lastData
	paced := b.lastData > 0 && b.lastRev > 0 && t-b.lastData >= pacedGap && t-b.lastRev >= pacedGap
	b.lastData = t
	if seq >= b.high {
		b.originals++
		if follower {
			b.followers++
		}
		if paced {
			b.paced++
		}
		if len(b.marks) >= maxBurstMarks {
			b.marks = append(b.marks[:0], b.marks[maxBurstMarks/2:]...)
		}
		b.marks = append(b.marks, burstMark{seq, follower})
		b.high = end
		return
	}
	if seq < b.counted {
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

// find is the mark of the original that began at seq.
func (b *burstTail) find(seq int64) (int, bool) {
	lo, hi := 0, len(b.marks)
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
	if ack <= 0 || len(b.marks) == 0 || b.marks[0].seq >= ack {
		return
	}
	i, _ := b.find(ack)
	b.marks = append(b.marks[:0], b.marks[i:]...)
}
