package analyze

import "tcpviz/reassembly"

// Series names of the congestion-window graph.
const (
	SeriesCwnd     = "cwnd-estimate"
	SeriesSsthresh = "ssthresh-estimate"
	SeriesFastLoss = "loss-fast-retransmit"
	SeriesRTOLoss  = "loss-timeout"
	// SeriesUndoneLoss marks an episode proven spurious (its window
	// restored), whatever its kind.
	SeriesUndoneLoss = "loss-undone"
)

var cwndSeries = []string{SeriesCwnd, SeriesSsthresh, SeriesAdvertised, SeriesFastLoss, SeriesRTOLoss, SeriesUndoneLoss}

// Cwnd builds the congestion-window graph of direction o.Dir, as the ns-2
// studies plot it, estimated from a sender-side capture:
//   - cwnd-estimate: the window the sender allowed, read off a replica of
//     its scoreboard (senderPipe): after each burst of sends (the segments
//     sent before the next ACK), the bytes it counts in the network —
//     sent, less SACKed and deemed lost, plus resent (RFC 6675's pipe,
//     which Linux's cwnd caps; during recovery PRR sets cwnd to it) — at
//     the burst's first send, a step line. Outside loss recovery the
//     largest pipe of the last two round trips: the window changes little
//     within one, while the sender does not fill it at every moment. Where
//     the receiver's window or the application held the sender back, the
//     line is what was used, a lower bound;
//   - ssthresh-estimate: at each loss episode's start (lossEpisodes),
//     measured, not assumed: the bytes in flight with the first segment
//     sent once the episode ended, the window the sender settled at (Linux
//     sets cwnd to ssthresh on leaving recovery: Reno's half, CUBIC's
//     0.7), at least two segments; where another episode began at once,
//     the line's value then; half the line at the loss when the capture
//     ends or another loss comes first;
//   - receive-window: the receiver's advertised window;
//   - loss marks at each episode's start, as fast retransmit (duplicate
//     ACKs or SACK blocks came since the last new ACK, or recovery began
//     again at once) or timeout (none: the timer fired, in recovery too),
//     or undone when proven spurious (Eifel, D-SACK: Linux restores the
//     window), at the line's value then.
//
// At a receiver-side capture the flight is what arrived, not what the
// sender allowed: callers say so (see PathStats.Vantage).
func Cwnd(recs []Record, o SeriesOptions) *Graph { return feed(newCwnd(o), recs) }

// cwndBuilder builds Cwnd's graph record by record.
type cwndBuilder struct {
	f   *frame
	set seriesSet
	ep  lossEpisodes
	pp  senderPipe
	// The sends since the last ACK form a burst: the pipe after it is
	// the window the sender allowed, drawn from the burst's first send.
	burst      bool
	burstFrame int64
	burstTime  int64
	line       int64 // the line's last value, -1 before any
	lineTime   int64 // ... drawn from then
	lastFrame  int64 // the last burst drawn or held
	lastTime   int64
	// Outside recovery the window changes little within a round trip,
	// while the sender may not fill it at every moment (it waits for the
	// application, the receiver's window opens by less than a segment):
	// the line is the largest pipe of the last two round trips, recent holds
	// the bursts that can still be it (a decreasing maximum queue).
	recent []timedValue
	// The right edge of the receiver's window (its last ACK plus its
	// window), once an ACK gave one.
	rwndEdge int64
	haveWin  bool
	// The ssthresh of the last episode, measured: the window the sender
	// settles at once recovery ends (the flight with the first segment
	// sent after it: Linux sets cwnd to ssthresh on leaving recovery),
	// marked at the episode's start; pending until then.
	pending         bool
	pendingPoint    Point
	pendingFallback float64 // half the flight at the loss, if no segment follows
	settledAtAck    bool    // the tracker's next settled ssthresh was drawn at a re-entry
	// The last episode's mark, drawn once the next begins or the capture
	// ends (a D-SACK may prove it spurious after it ended): as undone
	// when markUndone.
	mark                Point
	markName            string
	hasMark, markUndone bool
	lastFlight          int64
}

func newCwnd(o SeriesOptions) graphBuilder {
	f := newFrame(GraphCwnd, o)
	f.g.Y = Axis{Label: "bytes", Unit: "B"}
	f.g.Columns = []string{"bytes"}
	b := &cwndBuilder{f: f, set: seriesSet{thin: o.Thin}, line: -1}
	if c := o.Conn; c != nil {
		b.pp.sack = c.Dir[0].SACKPermitted && c.Dir[1].SACKPermitted
	}
	return b
}

// flush ends a burst: the pipe after it, at its first send, when it
// changed the line.
func (b *cwndBuilder) flush() {
	if !b.burst {
		return
	}
	b.burst = false
	v := b.pp.pipe()
	if dbgCwnd != nil {
		dbgCwnd(b)
	}
	if b.haveWin && b.pp.high+b.pp.maxSeg > b.rwndEdge && v < b.line {
		// Held by the receive window (less than a segment left in it):
		// the pipe says nothing of cwnd, which does not fall for it.
		v = b.line
	}
	if !b.ep.inEpisode {
		v = b.roundMax(b.burstTime, v)
	} else {
		b.recent = b.recent[:0]
	}
	if v <= 0 || !b.f.inTime(b.burstTime) {
		return
	}
	b.lastFrame, b.lastTime = b.burstFrame, b.burstTime
	if v != b.line {
		b.set.add(SeriesCwnd, Steps, Point{Frame: b.burstFrame, Time: b.burstTime, V: [3]float64{float64(v)}})
		b.line, b.lineTime = v, b.burstTime
	}
}

// emitSsthresh marks the pending episode's ssthresh at its start.
func (b *cwndBuilder) emitSsthresh(v float64) {
	if b.pending {
		p := b.pendingPoint
		p.V[0] = v
		b.set.add(SeriesSsthresh, Steps, p)
	}
	b.pending = false
}

type timedValue struct{ t, v int64 }

// roundMax adds the burst value v at time t and gives the largest of the
// last two round trips (of the latest RTT sample).
func (b *cwndBuilder) roundMax(t, v int64) int64 {
	rtt := 2 * max(b.pp.rackRTT, b.pp.minRTT)
	q := b.recent
	for len(q) > 0 && q[len(q)-1].v <= v {
		q = q[:len(q)-1]
	}
	q = append(q, timedValue{t, v})
	i := 0
	for i < len(q)-1 && q[i].t < t-rtt {
		i++
	}
	if i > 0 {
		q = append(q[:0], q[i:]...)
	}
	b.recent = q
	return q[0].v
}

func (b *cwndBuilder) add(r *Record) {
	f, o := b.f, &b.f.o
	if r.Dir == o.Dir {
		if r.Len == 0 || r.Info.Flags&CaptureDuplicate != 0 {
			return
		}
		n := int64(r.Len)
		end := r.Seq + n
		if r.Info.BytesInFlight >= 0 {
			b.lastFlight = r.Info.BytesInFlight
		}
		ev := b.ep.data(r.Seq, end, r.Info.BytesInFlight, r.Info.Flags, r.TSVal, r.HasTS)
		if ev.start {
			b.flush() // the sends before a timeout are a burst of their own
			if !ev.fast {
				b.pp.timeout()
			}
			b.episode(r, ev.fast, b.pendingFallback)
		}
		b.pp.data(r.Seq, end, r.Time)
		if !b.burst {
			b.burst, b.burstFrame, b.burstTime = true, r.Frame, r.Time
		}
		return
	}
	if r.Dir != o.Dir.Reverse() || !r.HasAck || r.Flags&reassembly.SYN != 0 {
		return
	}
	b.flush()
	if r.Window >= 0 && r.Flags&reassembly.RST == 0 && f.inTime(r.Time) {
		b.set.add(SeriesAdvertised, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(r.Window)}})
	}
	dup := r.Info.Flags&DupAck != 0
	a := epAck{ack: r.Ack, signal: dup || r.NSACK > 0, tsecr: r.TSEcr, hasTS: r.HasTS}
	for _, s := range r.SACK[:r.NSACK] {
		a.above = a.above || s[1] > r.Ack
	}
	if l, rr, ok := dsackOf(r); ok {
		a.dsack, a.hasDSACK = [2]int64{l, rr}, true
	}
	ev := b.ep.ack(a)
	if ev.undone {
		b.markUndone = true
	}
	b.settle(ev)
	if ev.start {
		// Recovery again at once: the last episode's window is the one
		// recovery brought the sender to (PRR ends at ssthresh).
		b.episode(r, true, float64(max(b.line, 0)))
		b.settledAtAck = true
	}
	b.pp.ack(r.Ack, r.SACK[:r.NSACK], dup, b.ep.inEpisode, r.Time)
	if r.Window >= 0 {
		b.rwndEdge, b.haveWin = r.Ack+r.Window, true
	}
}

// drawMark draws the last episode's mark.
func (b *cwndBuilder) drawMark() {
	if b.hasMark {
		name := b.markName
		if b.markUndone {
			name = SeriesUndoneLoss
		}
		b.set.add(name, Marks, b.mark)
	}
	b.hasMark, b.markUndone = false, false
}

// settle draws the ssthresh the tracker measured, unless drawn already
// where recovery began again at once, or the episode was undone.
func (b *cwndBuilder) settle(ev episodeEvent) {
	switch {
	case ev.settled && b.markUndone:
		b.pending = false // undone: Linux restores ssthresh, the line keeps the last
	case ev.settled && !b.settledAtAck:
		b.emitSsthresh(float64(ev.ssthresh))
	}
	b.settledAtAck = b.settledAtAck && !ev.settled
}

// episode marks a loss episode's start at r; settle is the last
// episode's ssthresh if it is still pending.
func (b *cwndBuilder) episode(r *Record, fast bool, settle float64) {
	flight := max(b.line, 0)
	name := SeriesRTOLoss
	if fast {
		name = SeriesFastLoss
	}
	if b.pending { // a loss again before the last episode's window was seen
		b.emitSsthresh(settle)
	}
	b.drawMark()
	if b.f.inTime(r.Time) {
		b.mark, b.markName, b.hasMark = Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(flight)}}, name, true
		b.pending = true
		b.pendingPoint = Point{Frame: r.Frame, Time: r.Time}
		b.pendingFallback = float64(max(flight/2, 2*b.ep.maxSeg))
	}
}

func (b *cwndBuilder) graph() *Graph {
	b.flush()
	b.settle(b.ep.finish())
	b.drawMark()
	if b.line > 0 && b.lastTime > b.lineTime { // the line lasts to the last send
		b.set.add(SeriesCwnd, Steps, Point{Frame: b.lastFrame, Time: b.lastTime, V: [3]float64{float64(b.line)}})
	}
	if b.pending { // the capture ended before a round after recovery
		b.emitSsthresh(b.pendingFallback)
	}
	g := b.f.g
	g.Series = b.set.list(cwndSeries...)
	capWindow(g)
	return g
}

// capWindow: a receive window far above the rest of the graph (Linux
// grows it to megabytes) would flatten it: the y axis stops at 1.5 times
// the largest other value and the window line leaves the top.
func capWindow(g *Graph) {
	var top, win float64
	for _, sr := range g.Series {
		for _, p := range sr.Points {
			if sr.Name == SeriesAdvertised {
				win = max(win, p.V[0])
			} else {
				top = max(top, p.V[0])
			}
		}
	}
	if top > 0 && win > 3*top && !g.Zoom.HasYMax {
		g.Zoom.YMax, g.Zoom.HasYMax = 1.5*top, true
	}
}

var dbgCwnd func(b *cwndBuilder)
