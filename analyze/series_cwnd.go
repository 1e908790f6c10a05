package analyze

import "tcpviz/reassembly"

// Series names of the congestion-window graph.
const (
	SeriesCwnd     = "cwnd-estimate"
	SeriesSsthresh = "ssthresh-estimate"
	SeriesFastLoss = "loss-fast-retransmit"
	SeriesRTOLoss  = "loss-timeout"
)

var cwndSeries = []string{SeriesCwnd, SeriesSsthresh, SeriesAdvertised, SeriesFastLoss, SeriesRTOLoss}

// Cwnd builds the congestion-window graph of direction o.Dir, as the ns-2
// studies plot it, estimated from a sender-side capture:
//   - cwnd-estimate: per round trip (a data segment until the ACK
//     covering it), the most bytes in flight during it, drawn from the
//     round's start as a step line (what the sender's window allowed, or
//     less when the application or the receiver held it back);
//   - ssthresh-estimate: at each loss episode's start (a segment resending
//     bytes already sent, outside an episode; the episode ends when
//     everything sent before it is acknowledged), measured, not assumed:
//     the bytes in flight with the first segment sent once the episode
//     ended, the window the sender settled at (Linux sets cwnd to
//     ssthresh on leaving recovery: Reno's half, CUBIC's 0.7), at least
//     two segments; half the flight at the loss when the capture ends or
//     another loss comes first;
//   - receive-window: the receiver's advertised window;
//   - loss marks at each episode's first retransmission (not a resend of
//     bytes already acknowledged, not a zero-window probe), as fast
//     retransmit (duplicate ACKs or SACK blocks came since the last new
//     ACK) or timeout (none: the timer fired), at the flight then.
//
// At a receiver-side capture the flight is what arrived, not what the
// sender allowed: callers say so (see PathStats.Vantage).
func Cwnd(recs []Record, o SeriesOptions) *Graph { return feed(newCwnd(o), recs) }

// cwndBuilder builds Cwnd's graph record by record.
type cwndBuilder struct {
	f                    *frame
	set                  seriesSet
	inRound              bool
	roundEnd             int64
	roundFrame           int64 // the round's first segment
	roundTime            int64
	roundFlight          int64
	lastFlight           int64
	lastRoundEmittedTime int64
	ep                   lossEpisodes
	// The ssthresh of the last episode, measured: the window the sender
	// settles at once recovery ends (the flight with the first segment
	// sent after it: Linux sets cwnd to ssthresh on leaving recovery),
	// marked at the episode's start; pending until then.
	pending         bool
	pendingPoint    Point
	pendingFallback float64 // half the flight at the loss, if no segment follows
}

func newCwnd(o SeriesOptions) graphBuilder {
	f := newFrame(GraphCwnd, o)
	f.g.Y = Axis{Label: "bytes", Unit: "B"}
	f.g.Columns = []string{"bytes"}
	return &cwndBuilder{f: f, set: seriesSet{thin: o.Thin}}
}

func (b *cwndBuilder) emitRound() {
	if b.roundFlight > 0 && b.f.inTime(b.roundTime) {
		b.set.add(SeriesCwnd, Steps, Point{Frame: b.roundFrame, Time: b.roundTime, V: [3]float64{float64(b.roundFlight)}})
		b.lastRoundEmittedTime = b.roundTime
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
		ev := b.ep.data(r.Seq, end, r.Info.BytesInFlight, r.Info.Flags)
		if ev.start {
			flight := max(b.roundFlight, b.lastFlight)
			name := SeriesRTOLoss
			if ev.fast {
				name = SeriesFastLoss
			}
			if b.pending { // a loss again before the last episode's window was seen
				b.emitSsthresh(b.pendingFallback)
			}
			if f.inTime(r.Time) {
				b.set.add(name, Marks, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(flight)}})
				b.pending = true
				b.pendingPoint = Point{Frame: r.Frame, Time: r.Time}
				b.pendingFallback = float64(max(flight/2, 2*b.ep.maxSeg))
			}
		}
		if ev.settled {
			b.emitSsthresh(float64(ev.ssthresh))
		}
		if !b.inRound {
			b.inRound, b.roundEnd, b.roundFrame, b.roundTime, b.roundFlight = true, end, r.Frame, r.Time, 0
		}
		b.roundFlight = max(b.roundFlight, b.lastFlight)
		return
	}
	if r.Dir != o.Dir.Reverse() || !r.HasAck || r.Flags&reassembly.SYN != 0 {
		return
	}
	if r.Window >= 0 && r.Flags&reassembly.RST == 0 && f.inTime(r.Time) {
		b.set.add(SeriesAdvertised, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(r.Window)}})
	}
	b.ep.ack(r.Ack, r.Info.Flags&DupAck != 0 || r.NSACK > 0)
	if b.inRound && r.Ack >= b.roundEnd {
		b.emitRound()
		b.inRound = false
	}
}

func (b *cwndBuilder) graph() *Graph {
	if b.inRound && b.roundTime != b.lastRoundEmittedTime {
		b.emitRound()
		b.inRound = false
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
