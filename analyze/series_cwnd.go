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
//     everything sent before it is acknowledged), half the flight of the
//     round then (Reno and NewReno; CUBIC keeps 0.7 of it, BBR does not
//     halve), at least two segments;
//   - receive-window: the receiver's advertised window;
//   - loss marks at each episode's first retransmission, as fast
//     retransmit (duplicate ACKs or SACK blocks came since the last new
//     ACK) or timeout (none: the timer fired), at the flight then.
//
// At a receiver-side capture the flight is what arrived, not what the
// sender allowed: callers say so (see PathStats.Vantage).
func Cwnd(recs []Record, o SeriesOptions) *Graph {
	f := newFrame(GraphCwnd, o)
	g := f.g
	g.Y = Axis{Label: "bytes", Unit: "B"}
	g.Columns = []string{"bytes"}
	var set seriesSet
	rev := o.Dir.Reverse()
	var (
		started              bool
		high                 int64 // highest end of data sent
		inRound              bool
		roundEnd             int64
		roundStart           Record // the round's first segment (time, frame)
		roundFlight          int64
		lastFlight           int64
		maxSeg               int64
		inEpisode            bool
		episodeEnd           int64
		cumAck               int64
		haveAck              bool
		signals              int // duplicate ACKs and SACKed ACKs since the last new ACK
		lastRoundEmittedTime int64
	)
	emitRound := func() {
		if roundFlight > 0 && f.inTime(roundStart.Time) {
			set.add(SeriesCwnd, Steps, Point{Frame: roundStart.Frame, Time: roundStart.Time, V: [3]float64{float64(roundFlight)}})
			lastRoundEmittedTime = roundStart.Time
		}
	}
	for i := range recs {
		r := &recs[i]
		if r.Dir == o.Dir {
			if r.Len == 0 || r.Info.Flags&CaptureDuplicate != 0 {
				continue
			}
			n := int64(r.Len)
			maxSeg = max(maxSeg, n)
			end := r.Seq + n
			if r.Info.BytesInFlight >= 0 {
				lastFlight = r.Info.BytesInFlight
			}
			if started && r.Seq < high && !inEpisode {
				inEpisode, episodeEnd = true, high
				flight := max(roundFlight, lastFlight)
				name := SeriesRTOLoss
				if signals > 0 {
					name = SeriesFastLoss
				}
				if f.inTime(r.Time) {
					set.add(name, Marks, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(flight)}})
					set.add(SeriesSsthresh, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(max(flight/2, 2*maxSeg))}})
				}
			}
			if !inRound {
				inRound, roundEnd, roundStart, roundFlight = true, end, *r, 0
			}
			if !started || end > high {
				high, started = end, true
			}
			roundFlight = max(roundFlight, lastFlight)
			continue
		}
		if r.Dir != rev || !r.HasAck || r.Flags&reassembly.SYN != 0 {
			continue
		}
		if r.Window >= 0 && r.Flags&reassembly.RST == 0 && f.inTime(r.Time) {
			set.add(SeriesAdvertised, Steps, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(r.Window)}})
		}
		switch {
		case !haveAck || r.Ack > cumAck:
			cumAck, haveAck, signals = r.Ack, true, 0
		case r.Info.Flags&DupAck != 0 || r.NSACK > 0:
			signals++
		}
		if inEpisode && r.Ack >= episodeEnd {
			inEpisode = false
		}
		if inRound && r.Ack >= roundEnd {
			emitRound()
			inRound = false
		}
	}
	if inRound && roundStart.Time != lastRoundEmittedTime {
		emitRound()
	}
	g.Series = set.list(cwndSeries...)
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
