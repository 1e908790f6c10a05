package analyze

import "tcpviz/reassembly"

// SlowStart describes where a sender left slow start.
type SlowStart struct {
	Found bool
	// End is when slow start ended, in ns since the connection's first
	// packet (a Transfer's: since its time 0, Summarize), and Flight the
	// most bytes in flight in the last round that still grew: an
	// estimate of the congestion window it reached.
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
	origin          int64 // times are reported from here
	clk             roundClock
	sent, prevSent  int64 // new data sent in this and the previous round
	flight, prevFlt int64 // most bytes in flight in this and the previous round
	rounds          int
	highest         int64
	started         bool
	// rwnd is the receiver's latest advertised window (-1 unknown), set
	// by the caller before each data segment; roundRwnd the smallest seen
	// in this round.
	rwnd, roundRwnd int64
	// Round-trip samples: the smallest of the first rounds (the path's
	// base) and of this round, in ns (0: none yet).
	baseRTT, roundRTT int64
	maxSeg            int64
	// lag is the time from the capture to the sender and back (see
	// handshake.lag; 0 at the sender): a round whose first segment the
	// receiver acknowledged ends where the data that ACK released
	// arrives (roundClock).
	lag    int64
	result SlowStart
}

func newSlowStart(origin int64) slowStart {
	return slowStart{origin: origin, rwnd: -1, roundRwnd: -1}
}

// data takes a segment of the data direction, with its timestamp echo
// if hasTS.
func (ss *slowStart) data(t, seq, n int64, info PacketInfo, tsecr uint32, hasTS bool) {
	if ss.result.Found {
		return
	}
	if ss.clk.reached(t, tsecr, hasTS) && ss.endRound() {
		return
	}
	if info.Flags&(Retransmission|FastRetransmission) != 0 && ss.begun() {
		ss.lost(t)
		return
	}
	if n == 0 {
		return
	}
	if ss.clk.begin(t, seq, n) {
		ss.sent, ss.flight = 0, 0
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

// ack takes an ACK from the receiver, with its timestamp if hasTS.
func (ss *slowStart) ack(t, ack int64, info PacketInfo, tsval uint32, hasTS bool) {
	if ss.result.Found {
		return
	}
	if info.Flags&DupAck != 0 && ss.begun() {
		ss.lost(t)
		return
	}
	if info.AckRTT > 0 && ss.clk.in && (ss.roundRTT == 0 || info.AckRTT < ss.roundRTT) {
		ss.roundRTT = info.AckRTT
	}
	if ss.clk.ack(t, ack, ss.lag, tsval, hasTS) {
		ss.endRound()
	}
}

// finish is slow start as the capture ends: a round whose end was still
// to pass the capture (farEnd) judged with what it sent.
func (ss slowStart) finish() SlowStart {
	if !ss.result.Found && ss.clk.far.pending {
		ss.endRound()
	}
	return ss.result
}

// begun tells whether slow start is under way: a round counted, or one
// that has sent more than a greeting (minRoundBytes). A loss signal before
// (a greeting resent, the receiver's duplicate ACK of a handshake ACK
// overtaken by the greeting) does not end it.
func (ss *slowStart) begun() bool {
	return ss.rounds > 0 || ss.clk.in && ss.sent >= minRoundBytes
}

// endRound ends the round trip; true when slow start ended with it.
func (ss *slowStart) endRound() bool {
	ss.clk.in = false
	if ss.rounds == 0 && ss.sent < minRoundBytes {
		return false // a greeting, not yet slow start
	}
	if ss.rounds > 0 && float64(ss.sent) < slowStartGrowth*float64(ss.prevSent) {
		ss.result = SlowStart{Found: true, End: ss.clk.start - ss.origin, Flight: ss.prevFlt, Rounds: ss.rounds, Reason: ss.stopReason()}
		return true
	}
	if ss.roundRTT > 0 && (ss.baseRTT == 0 || ss.roundRTT < ss.baseRTT) && ss.rounds < 2 {
		ss.baseRTT = ss.roundRTT
	}
	ss.rounds++
	ss.prevSent, ss.prevFlt = ss.sent, ss.roundFlight()
	return false
}

// roundFlight is the most the round had in flight: what the capture saw
// outstanding, or, away from the sender (lag), all the round's data,
// which the sender had sent within one round trip.
func (ss *slowStart) roundFlight() int64 {
	if ss.lag > 0 {
		return ss.sent
	}
	return ss.flight
}

func (ss *slowStart) lost(t int64) {
	ss.result = SlowStart{Found: true, End: t - ss.origin, Flight: max(ss.prevFlt, ss.roundFlight()), Rounds: ss.rounds + btoi(ss.clk.in), Reason: SlowStartLoss}
}

// stopReason says why growth stopped: the receiver's window (the flight
// came within two segments of it), a longer round trip (Linux's HyStart
// leaves slow start when a round's smallest RTT exceeds the base by
// clamp(base/8, 4 ms, 16 ms)), or neither.
func (ss *slowStart) stopReason() string {
	w := ss.roundRwnd
	if w > 0 && max(ss.roundFlight(), ss.prevFlt)+2*ss.maxSeg >= w {
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
	// Origin is time 0 of the times below, in ns since the epoch: the
	// connection's first packet, or its first data byte (see Align).
	Origin int64
	// Delivered[i] is the payload acknowledged by the receiver by At[i]
	// (of the TransferOptions) after Origin.
	Delivered []int64
	// TimeTo[i] is when the first ToBytes[i] bytes were acknowledged (ns
	// after Origin); HasTimeTo[i] is false when they never were.
	TimeTo    []int64
	HasTimeTo []bool
	// TimeToMB is when the first MiB was acknowledged (ns after Origin);
	// HasTimeToMB is false when it never was.
	TimeToMB    int64
	HasTimeToMB bool
	Total       int64 // payload acknowledged in all
	SlowStart   SlowStart
}

// OneMB is the amount behind Transfer.TimeToMB.
const OneMB = 1 << 20

// Align chooses time 0 of a comparison.
type Align string

// Alignments.
const (
	// AlignSYN puts time 0 at the connection's first packet (its SYN).
	AlignSYN Align = "syn"
	// AlignFirstData puts time 0 at the first data byte of the transfer
	// (see FirstData).
	AlignFirstData Align = "first-data"
)

// TransferOptions choose what Transfer reports.
type TransferOptions struct {
	Align   Align   // "" is AlignSYN
	At      []int64 // instants of Transfer.Delivered, ns after time 0
	ToBytes []int64 // amounts of Transfer.TimeTo
}

func (a Align) origin(l *Loaded, ta *transferAcc) int64 {
	if a == AlignFirstData {
		if t, ok := ta.first.at(); ok {
			return t
		}
	}
	return ta.start(l)
}

// start is the time of the connection's first packet, as the graphs
// count from it: the first record's (Conn.FirstTime is the earliest
// timestamp, and a connection reported in parts starts again at each).
func (ta *transferAcc) start(l *Loaded) int64 {
	if ta.hasStart {
		return ta.startTime
	}
	return l.Conn.FirstTime
}

// firstDataTime returns when direction d sent the first byte of its
// transfer: the first data segment of the first round trip that carried
// at least minRoundBytes. A leading greeting acknowledged before the
// transfer starts (iperf3's 37-byte cookie, sent a round trip or more
// before the test) is skipped, as slow start skips it. A round trip here
// is a data segment until the ACK covering it. Without such a round, the
// first data segment; false without data.
func firstDataTime(recs []Record, d reassembly.Direction) (int64, bool) {
	fd := firstData{d: d}
	for i := range recs {
		if fd.add(&recs[i]) {
			break
		}
	}
	return fd.at()
}

// firstData finds FirstData record by record.
type firstData struct {
	d                reassembly.Direction
	first, sent      int64
	haveFirst, found bool
	clk              roundClock
	hs               handshake // away from the sender, its lag (roundClock)
}

// add takes the next record; true once the answer is known.
func (f *firstData) add(r *Record) bool {
	if f.found {
		return true
	}
	if r.Info.Flags&CaptureDuplicate == 0 {
		f.hs.add(r.Dir, r.Flags&reassembly.SYN != 0, r.HasAck, r.Time, r.TSVal, r.TSEcr, r.HasTS)
	}
	if r.Dir == f.d {
		if r.Len == 0 || r.Info.Flags&CaptureDuplicate != 0 {
			return false
		}
		if !f.haveFirst {
			f.first, f.haveFirst = r.Time, true
		}
		f.clk.reached(r.Time, r.TSEcr, r.HasTS)
		if f.clk.begin(r.Time, r.Seq, int64(r.Len)) {
			f.sent = 0
		}
		if f.sent += int64(r.Len); f.sent >= minRoundBytes {
			f.found = true
		}
		return f.found
	}
	if r.HasAck && r.Flags&reassembly.SYN == 0 {
		f.clk.ack(r.Time, r.Ack, f.hs.lag(f.d), r.TSVal, r.HasTS)
	}
	return false
}

// roundClock is the data phase's one round-trip clock, the ACK clock as
// the capture sees it: a round starts with a data segment sent outside
// one and ends when the receiver acknowledges that segment — at a
// capture away from the sender, where the data that ACK released arrives
// (farEnd). Slow start counts its rounds on it (slowStart), and the
// first-data alignment finds its first round of more than a greeting
// (firstData). The sender-state model keeps Linux's own clocks beside
// it, as the sender counts them: HyStart's round of snd_nxt (cwndOpen)
// and BBR's rounds of the delivery rate (rateSample).
type roundClock struct {
	in    bool
	end   int64 // the round ends when this is acknowledged
	start int64 // its first segment's time
	far   farEnd
}

// reached takes a data segment at time t (its echo tsecr, if hasTS):
// true where the round waited for at the far end is over here.
func (c *roundClock) reached(t int64, tsecr uint32, hasTS bool) bool {
	if !c.far.reached(t, tsecr, hasTS) {
		return false
	}
	c.in = false
	return true
}

// begin takes a data segment of n bytes from seq at time t: true where
// it starts a round (none was on).
func (c *roundClock) begin(t, seq, n int64) bool {
	if c.in {
		return false
	}
	c.in, c.end, c.start = true, seq+n, t
	return true
}

// ack takes an ACK of ack at time t (its timestamp tsval, if hasTS),
// with lag the capture's from the sender (handshake.lag): true where it
// ends the round here; away from the sender the round then waits for
// the data the ACK releases (reached).
func (c *roundClock) ack(t, ack, lag int64, tsval uint32, hasTS bool) bool {
	if !c.in || ack < c.end || c.far.pending {
		return false
	}
	if lag > 0 {
		c.far.set(t, lag, tsval, hasTS)
		return false
	}
	c.in = false
	return true
}

// farEnd is where a round trip ends at a capture away from the sender,
// whose receiver acknowledged the round's first segment: at the first
// data segment sent after that ACK reached the sender, which echoes its
// timestamp (or a later one: RFC 7323's TS.Recent; one of the same
// clock tick, the ACK before it, ends the round up to a tick early), else
// (no timestamps) which arrives the capture's lag after it
// (handshake.lag; later where a queue has grown since the handshake, so
// those rounds come out shorter, and the receiver's duplicate ACKs end
// slow start as they pass the capture, not when they reach the sender).
type farEnd struct {
	pending, byTS bool
	at            int64
	ts            uint32
}

// set starts waiting for the data an ACK at time t (its timestamp tsval,
// if hasTS) releases, with the capture lag from the sender.
func (e *farEnd) set(t, lag int64, tsval uint32, hasTS bool) {
	e.pending, e.byTS, e.ts, e.at = true, hasTS, tsval, t+lag
}

// reached tells, at a data segment at time t (its echo tsecr, if hasTS),
// whether the round it waits for is over; it stops waiting then.
func (e *farEnd) reached(t int64, tsecr uint32, hasTS bool) bool {
	if !e.pending {
		return false
	}
	if over := e.byTS && hasTS && int32(tsecr-e.ts) >= 0 || !(e.byTS && hasTS) && t >= e.at; !over {
		return false
	}
	e.pending = false
	return true
}

func (f *firstData) at() (int64, bool) {
	if f.found {
		return f.clk.start, true
	}
	return f.first, f.haveFirst
}

// delivered is the payload of direction d acknowledged by the receiver, at
// each ACK that acknowledges new data.
func delivered(recs []Record, d reassembly.Direction) Series {
	dv := deliveredSeries{d: d, s: Series{Kind: Steps}, first: 1}
	for i := range recs {
		dv.add(&recs[i])
	}
	return dv.s
}

// deliveredSeries builds delivered record by record.
type deliveredSeries struct {
	d           reassembly.Direction
	s           Series
	first, high int64 // the first data byte: 1 after a SYN (relative numbering), else the start of the first segment seen
	found       bool
}

func (dv *deliveredSeries) add(r *Record) {
	if r.Dir == dv.d && !dv.found && (r.Len > 0 || r.Flags&reassembly.SYN != 0) {
		dv.found = true
		if r.Flags&reassembly.SYN == 0 {
			dv.first = r.Seq
		}
	}
	if r.Dir == dv.d || !r.HasAck || r.Flags&reassembly.SYN != 0 {
		return
	}
	if n := r.Ack - dv.first; n > dv.high {
		dv.high = n
		dv.s.Points = append(dv.s.Points, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(n)}})
	}
}

// transferAcc is what a Transfer, and a comparison's delivered graph, are
// made of, gathered record by record from one direction's point of view:
// a connection's records need not be kept for them.
type transferAcc struct {
	first     firstData
	delivered deliveredSeries
	startTime int64 // the first record's time
	hasStart  bool
}

func newTransferAcc(d reassembly.Direction) *transferAcc {
	return &transferAcc{first: firstData{d: d}, delivered: deliveredSeries{d: d, s: Series{Kind: Steps}, first: 1}}
}

func (ta *transferAcc) add(r *Record) {
	if !ta.hasStart {
		ta.startTime, ta.hasStart = r.Time, true
	}
	ta.first.add(r)
	ta.delivered.add(r)
}

// transferAcc is what l's records give for its direction: gathered while
// they were read, or from the records kept.
func (l *Loaded) transferAcc() *transferAcc {
	if l.transfer != nil && l.transfer.first.d == l.Dir {
		return l.transfer
	}
	ta := newTransferAcc(l.Dir)
	for i := range l.Records {
		ta.add(&l.Records[i])
	}
	return ta
}

// Summarize computes the Transfer of the loaded connection's direction as
// o asks (TransferOptions{}: no instants nor amounts): delivered bytes from its
// records, from its first packet or its first data byte, slow start as
// the statistics found it (one state machine, fed while the capture was
// read, for every command), its end counted from the same time 0.
func Summarize(l *Loaded, o TransferOptions) Transfer {
	at, to := o.At, o.ToBytes
	t := Transfer{SlowStart: l.Stats[l.Dir].SlowStart, Origin: l.Conn.FirstTime,
		Delivered: make([]int64, len(at)), TimeTo: make([]int64, len(to)), HasTimeTo: make([]bool, len(to))}
	ta := l.transferAcc()
	t.Origin = o.Align.origin(l, ta)
	if t.SlowStart.Found { // from time 0, as the other times (the statistics count from the first packet)
		t.SlowStart.End += l.Conn.FirstTime - t.Origin
	}
	var acked int64
	for _, p := range ta.delivered.s.Points {
		when := p.Time - t.Origin
		acked = int64(p.V[0])
		for i, a := range at {
			if when <= a {
				t.Delivered[i] = acked
			}
		}
		for i, n := range to {
			if !t.HasTimeTo[i] && acked >= n {
				t.TimeTo[i], t.HasTimeTo[i] = when, true
			}
		}
		if !t.HasTimeToMB && acked >= OneMB {
			t.TimeToMB, t.HasTimeToMB = when, true
		}
	}
	t.Total = acked
	return t
}
