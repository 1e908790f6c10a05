package analyze

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"tcpviz/reassembly"
)

// ThroughputOptions choose the moving average of the throughput graph.
type ThroughputOptions struct {
	// Window is the averaging window in ns (like Wireshark), used when
	// Segments is 0. Zero means one second.
	Window int64
	// RTTs, when positive, sets the window to that many times the
	// connection's median round-trip time (Wireshark's ack_rtt samples of
	// the direction's data) instead; one second when there is none.
	RTTs float64
	// Segments, when 2 or more, averages over the last Segments segments
	// (or ACKs, for goodput) instead, like tcptrace.
	Segments int
	// Bins draws fixed, consecutive bins of the window's width (from the
	// connection's first packet) as steps, instead of a moving average.
	Bins bool
}

// minWindowRTTs: an averaging window shorter than this many round trips
// follows the bursts of each round trip (a window-limited sender sends a
// burst per RTT) and draws a sawtooth that is not in the path.
const minWindowRTTs = 4

// medianAckRTT is the median of the ack_rtt samples of direction d's
// data, in ns; false without samples.
func medianAckRTT(recs []Record, d reassembly.Direction) (int64, bool) {
	var rtts []int64
	for i := range recs {
		if r := &recs[i]; r.Dir != d && r.Info.AckRTT > 0 && r.Info.AckedFrame > 0 {
			rtts = append(rtts, r.Info.AckRTT)
		}
	}
	if len(rtts) == 0 {
		return 0, false
	}
	slices.Sort(rtts)
	n := len(rtts)
	if n%2 == 1 {
		return rtts[n/2], true
	}
	return (rtts[n/2-1] + rtts[n/2]) / 2, true
}

// resolveWindow sets t.Window from t.RTTs and says what is wrong with the
// window chosen: a time shorter than four median RTTs, or no RTT to
// scale by (a window asked for in RTTs is taken as meant).
func resolveWindow(recs []Record, d reassembly.Direction, t *ThroughputOptions) []string {
	if t.Segments >= 2 {
		return nil
	}
	rtt, ok := medianAckRTT(recs, d)
	if t.RTTs > 0 {
		if !ok {
			t.Window = 1e9
			return []string{"no RTT samples to scale the averaging window by: averaging over 1 s"}
		}
		t.Window = int64(t.RTTs * float64(rtt))
	}
	if t.Window <= 0 {
		t.Window = 1e9
	}
	if ok && t.RTTs == 0 && t.Window < minWindowRTTs*rtt {
		return []string{fmt.Sprintf("the averaging window (%s) is shorter than four median RTTs (4 × %s): the curve follows each round trip's burst; --window 4rtt averages them out",
			fmtDuration(t.Window), fmtDuration(rtt))}
	}
	return nil
}

// fmtDuration writes ns as "1 s", "602.4 ms".
func fmtDuration(ns int64) string {
	if ns >= 1e9 {
		return strconv.FormatFloat(float64(ns)/1e9, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(math.Round(float64(ns)/1e5)/10, 'f', -1, 64) + " ms"
}

// Throughput builds the throughput graph of direction o.Dir: at each data
// segment, the bits per second sent over the averaging window (all bytes,
// retransmissions included), and at each ACK that acknowledges new data,
// the goodput: newly acknowledged bits per second over the same window.
func Throughput(recs []Record, o SeriesOptions, t ThroughputOptions) *Graph {
	f := newFrame(GraphThroughput, o)
	g := f.g
	g.Y = Axis{Label: "throughput", Unit: "bit/s"}
	g.Columns = []string{"bps"}
	g.Warnings = resolveWindow(recs, o.Dir, &t)
	if t.Bins && t.Segments < 2 {
		g.Series = throughputBins(recs, f, t.Window)
		return g
	}
	sent, acked := newMover(t), newMover(t)
	var set seriesSet
	var highAck int64
	haveAck := false
	rev := o.Dir.Reverse()
	for i := range recs {
		r := &recs[i]
		var m *mover
		var n int64
		name := SeriesThroughput
		switch {
		case r.Dir == o.Dir && r.Len > 0:
			m, n = sent, int64(r.Len)
		case r.Dir == rev && r.HasAck && r.Flags&reassembly.SYN == 0:
			if haveAck && r.Ack > highAck {
				m, n, name = acked, r.Ack-highAck, SeriesGoodput
			}
			if !haveAck || r.Ack > highAck {
				highAck, haveAck = r.Ack, true
			}
		}
		if m == nil {
			continue
		}
		// After a pause longer than the window the average has fallen to
		// zero: say so at the moment it did (on the last packet counted),
		// so that the line does not slope down across the pause.
		if last, ok := m.emptiedBefore(r.Time); ok && f.inTime(last+m.window) {
			set.add(name, Lines, Point{Frame: m.lastFrame, Time: last + m.window})
		}
		bps, ok := m.add(r.Time, n)
		m.lastFrame = r.Frame
		if ok && f.inTime(r.Time) && finite(bps) {
			set.add(name, Lines, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{bps}})
		}
	}
	g.Series = set.list(SeriesThroughput, SeriesGoodput)
	return g
}

// mover is a moving average of byte counts over a time window or over the
// last few events.
type mover struct {
	lastFrame int64 // frame of the last event added
	window    int64
	segments  int
	times     []int64
	bytes     []int64
	head      int
	sum       int64
}

func newMover(t ThroughputOptions) *mover {
	return &mover{window: t.Window, segments: t.Segments}
}

// add records n bytes at time t and returns the rate in bits per second,
// and false when there is no rate yet (a single event, or no time
// elapsed).
func (m *mover) add(t, n int64) (float64, bool) {
	m.times = append(m.times, t)
	m.bytes = append(m.bytes, n)
	m.sum += n
	if m.segments >= 2 {
		for len(m.times)-m.head > m.segments {
			m.sum -= m.bytes[m.head]
			m.head++
		}
		m.compact()
		// The bytes sent after the oldest event, over the time since it.
		span := t - m.times[m.head]
		if len(m.times)-m.head < 2 || span <= 0 {
			return 0, false
		}
		return float64(m.sum-m.bytes[m.head]) * 8 / (float64(span) / 1e9), true
	}
	for m.head < len(m.times) && m.times[m.head] <= t-m.window {
		m.sum -= m.bytes[m.head]
		m.head++
	}
	m.compact()
	return float64(m.sum) * 8 / (float64(m.window) / 1e9), true
}

// emptiedBefore reports whether, in window mode, the window emptied
// before time t: the last event is more than a window before t. It returns
// the last event's time.
func (m *mover) emptiedBefore(t int64) (int64, bool) {
	if m.segments >= 2 || len(m.times) == 0 {
		return 0, false
	}
	last := m.times[len(m.times)-1]
	return last, t-last > m.window
}

// compact drops consumed events once they are half the queue.
func (m *mover) compact() {
	if m.head > 1024 && m.head*2 > len(m.times) {
		n := copy(m.times, m.times[m.head:])
		copy(m.bytes, m.bytes[m.head:])
		m.times, m.bytes, m.head = m.times[:n], m.bytes[:n], 0
	}
}

// throughputBins counts the bytes sent (and newly acknowledged) in fixed
// bins of width w from the connection's first packet, within the time
// window, and draws each bin as a step at its start, empty bins between
// included, closed by a point at the last bin's end. A point's frame is
// the first packet counted in its bin (or the last one before, for an
// empty bin).
func throughputBins(recs []Record, f *frame, w int64) []Series {
	type bin struct {
		bytes, frame int64
	}
	var bins [2]map[int64]*bin // throughput, goodput
	var lo, hi [2]int64
	var highAck int64
	haveAck := false
	rev := f.o.Dir.Reverse()
	for i := range recs {
		r := &recs[i]
		k, n := -1, int64(0)
		switch {
		case r.Dir == f.o.Dir && r.Len > 0:
			k, n = 0, int64(r.Len)
		case r.Dir == rev && r.HasAck && r.Flags&reassembly.SYN == 0:
			if haveAck && r.Ack > highAck {
				k, n = 1, r.Ack-highAck
			}
			if !haveAck || r.Ack > highAck {
				highAck, haveAck = r.Ack, true
			}
		}
		if k < 0 || !f.inTime(r.Time) {
			continue
		}
		b := (r.Time - f.start) / w
		if bins[k] == nil {
			bins[k], lo[k], hi[k] = map[int64]*bin{}, b, b
		}
		lo[k], hi[k] = min(lo[k], b), max(hi[k], b)
		if bins[k][b] == nil {
			bins[k][b] = &bin{frame: r.Frame}
		}
		bins[k][b].bytes += n
	}
	var out []Series
	for k, name := range []string{SeriesThroughput, SeriesGoodput} {
		if bins[k] == nil {
			continue
		}
		s := Series{Name: name, Kind: Steps}
		var frame int64
		for b := lo[k]; b <= hi[k]; b++ {
			var bytes int64
			if x := bins[k][b]; x != nil {
				bytes, frame = x.bytes, x.frame
			}
			bps := float64(bytes) * 8 / (float64(w) / 1e9)
			s.Points = append(s.Points, Point{Frame: frame, Time: f.start + b*w, V: [3]float64{bps}})
		}
		last := s.Points[len(s.Points)-1]
		last.Time += w
		s.Points = append(s.Points, last)
		out = append(out, s)
	}
	return out
}
