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
	Reason string // see the SlowStart* reasons
}

// Why slow start ended.
const (
	SlowStartLoss    = "loss"           // a retransmission or a duplicate ACK
	SlowStartRwnd    = "receive window" // the flight reached the receiver's window
	SlowStartDelay   = "delay"          // the round trip grew (HyStart's delay rule)
	SlowStartStopped = "growth stopped" // none of these: the application, the send buffer, or a pacing sender
)

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
	// rwnd is the receiver's latest advertised window (-1 unknown), set
	// by the caller before each data segment; roundRwnd the smallest seen
	// in this round.
	rwnd, roundRwnd int64
	// Round-trip samples: the smallest of the first rounds (the path's
	// base) and of this round, in ns (0: none yet).
	baseRTT, roundRTT int64
	maxSeg            int64
	result            SlowStart
}

func newSlowStart(origin int64) slowStart {
	return slowStart{origin: origin, rwnd: -1, roundRwnd: -1}
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
		ss.roundRwnd, ss.roundRTT = -1, 0
	}
	ss.maxSeg = max(ss.maxSeg, n)
	if ss.rwnd >= 0 && (ss.roundRwnd < 0 || ss.rwnd < ss.roundRwnd) {
		ss.roundRwnd = ss.rwnd
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
	if info.AckRTT > 0 && ss.inRound && (ss.roundRTT == 0 || info.AckRTT < ss.roundRTT) {
		ss.roundRTT = info.AckRTT
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
		ss.result = SlowStart{Found: true, End: ss.roundStartedTime - ss.origin, Flight: ss.prevFlt, Rounds: ss.rounds, Reason: ss.stopReason()}
		return
	}
	if ss.roundRTT > 0 && (ss.baseRTT == 0 || ss.roundRTT < ss.baseRTT) && ss.rounds < 2 {
		ss.baseRTT = ss.roundRTT
	}
	ss.rounds++
	ss.prevSent, ss.prevFlt = ss.sent, ss.flight
}

func (ss *slowStart) lost(t int64) {
	ss.result = SlowStart{Found: true, End: t - ss.origin, Flight: max(ss.prevFlt, ss.flight), Rounds: ss.rounds + btoi(ss.inRound), Reason: SlowStartLoss}
}

// stopReason says why growth stopped: the receiver's window (the flight
// came within two segments of it), a longer round trip (Linux's HyStart
// leaves slow start when a round's smallest RTT exceeds the base by
// clamp(base/8, 4 ms, 16 ms)), or neither.
func (ss *slowStart) stopReason() string {
	w := ss.roundRwnd
	if w > 0 && max(ss.flight, ss.prevFlt)+2*ss.maxSeg >= w {
		return SlowStartRwnd
	}
	if ss.baseRTT > 0 && ss.roundRTT > 0 && ss.roundRTT > ss.baseRTT+min(max(ss.baseRTT/8, 4e6), 16e6) {
		return SlowStartDelay
	}
	return SlowStartStopped
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
