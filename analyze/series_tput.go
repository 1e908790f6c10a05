package analyze

import "tcpviz/reassembly"

// ThroughputOptions choose the moving average of the throughput graph.
type ThroughputOptions struct {
	// Window is the averaging window in ns (like Wireshark), used when
	// Segments is 0. Zero means one second.
	Window int64
	// Segments, when 2 or more, averages over the last Segments segments
	// (or ACKs, for goodput) instead, like tcptrace.
	Segments int
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
	if t.Window <= 0 {
		t.Window = 1e9
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
