package analyze


// SlowStart describes where a sender left slow start.
type SlowStart struct {
	Found bool
	// End is when slow start ended, in ns since the connection's first
	// packet, and Flight the most bytes in flight in the last round that
	// still grew: an estimate of the congestion window it reached.
	End    int64
	Flight int64
	Rounds int    // round trips spent in slow start
	Reason string // "loss" (a retransmission or duplicate ACK) or "growth stopped"
}

// slowStartGrowth is how much a round's data must exceed the previous
// round's to count as slow-start growth (doubling, with slack for delayed
// ACKs and rounds cut at ACK arrivals).
const slowStartGrowth = 1.5

// minRoundBytes: leading rounds smaller than this (an application's
// greeting, such as iperf3's cookie) are not counted as slow-start rounds.
const minRoundBytes = 4000

// slowStart estimates, segment by segment, where a sender left slow start,
// by the ACK clock: a round trip starts with a data segment and ends when
// the receiver acknowledges that segment; slow start lasts while each
// round sends at least 1.5 times the previous round's new data, and ends
// earlier at the first sign of loss (a retransmission of the data or a
// duplicate ACK from the receiver). It is an estimate: a sender that runs
// out of data to send looks the same as one that stopped growing. Numbers
// are of the data's direction, in any consistent numbering.
type slowStart struct {
	origin           int64 // times are reported from here
	inRound          bool
	roundEnd         int64 // the round ends when this is acknowledged
	sent, prevSent   int64 // new data sent in this and the previous round
	flight, prevFlt  int64 // most bytes in flight in this and the previous round
	rounds           int
	highest          int64
	started          bool
	roundStartedTime int64
	result           SlowStart
}

// data takes a segment of the data direction.
func (ss *slowStart) data(t, seq, n int64, info PacketInfo) {
	if ss.result.Found {
		return
	}
	if info.Flags&(Retransmission|FastRetransmission) != 0 && ss.rounds+btoi(ss.inRound) > 0 {
		ss.lost(t)
		return
	}
	if n == 0 {
		return
	}
	if !ss.inRound {
		ss.inRound, ss.roundEnd, ss.sent, ss.flight, ss.roundStartedTime = true, seq+n, 0, 0, t
	}
	if end := seq + n; !ss.started || end > ss.highest {
		lo := seq
		if ss.started {
			lo = max(ss.highest, seq)
		}
		ss.sent += end - lo
		ss.highest, ss.started = end, true
	}
	ss.flight = max(ss.flight, info.BytesInFlight)
}

// ack takes an ACK from the receiver.
func (ss *slowStart) ack(t, ack int64, info PacketInfo) {
	if ss.result.Found {
		return
	}
	if info.Flags&DupAck != 0 && ss.rounds+btoi(ss.inRound) > 0 {
		ss.lost(t)
		return
	}
	if !ss.inRound || ack < ss.roundEnd {
		return
	}
	// The round trip is over.
	ss.inRound = false
	if ss.rounds == 0 && ss.sent < minRoundBytes {
		return // a greeting, not yet slow start
	}
	if ss.rounds > 0 && float64(ss.sent) < slowStartGrowth*float64(ss.prevSent) {
		ss.result = SlowStart{Found: true, End: ss.roundStartedTime - ss.origin, Flight: ss.prevFlt, Rounds: ss.rounds, Reason: "growth stopped"}
		return
	}
	ss.rounds++
	ss.prevSent, ss.prevFlt = ss.sent, ss.flight
}

func (ss *slowStart) lost(t int64) {
	ss.result = SlowStart{Found: true, End: t - ss.origin, Flight: max(ss.prevFlt, ss.flight), Rounds: ss.rounds + btoi(ss.inRound), Reason: "loss"}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Transfer summarises one direction of a connection for comparisons.
type Transfer struct {
	// Delivered[i] is the payload acknowledged by the receiver by
	// DeliveredAt[i] after the connection's first packet.
	Delivered [len(DeliveredAt)]int64
	// TimeToMB is when the first MiB was acknowledged (ns after the first
	// packet); HasTimeToMB is false when it never was.
	TimeToMB    int64
	HasTimeToMB bool
	Total       int64 // payload acknowledged in all
	SlowStart   SlowStart
}

// DeliveredAt are the instants at which Transfer reports delivered bytes.
var DeliveredAt = [...]int64{1e9, 5e9, 10e9}

// OneMB is the amount behind Transfer.TimeToMB.
const OneMB = 1 << 20

// Summarize computes the Transfer of the loaded connection's direction:
// delivered bytes from its records, slow start as the statistics found it
// (one state machine, fed while the capture was read, for every command).
func Summarize(l *Loaded) Transfer {
	t := Transfer{SlowStart: l.Stats[l.Dir].SlowStart}
	if len(l.Records) == 0 {
		return t
	}
	origin := l.Conn.FirstTime
	next := 0
	var acked int64
	for _, p := range delivered(l.Records, l.Dir).Points {
		at := p.Time - origin
		for next < len(DeliveredAt) && at > DeliveredAt[next] {
			t.Delivered[next] = acked
			next++
		}
		acked = int64(p.V[0])
		if !t.HasTimeToMB && acked >= OneMB {
			t.TimeToMB, t.HasTimeToMB = at, true
		}
	}
	for ; next < len(DeliveredAt); next++ {
		t.Delivered[next] = acked
	}
	t.Total = acked
	return t
}
