package join

import (
	"fmt"
	"path"

	"tcpviz/analyze"
	"tcpviz/reassembly"
)

// The join's graphs: one-way and queueing delay across a hop over time,
// with the packets lost on it; and, for a connection a proxy splits, the
// proxy's buffer.
const (
	GraphOWD   analyze.GraphKind = "owd"
	GraphProxy analyze.GraphKind = "proxy"
)

// The series of the owd graph.
const (
	SeriesOWD         = "owd"          // one-way delay of each packet seen at both ends
	SeriesQueue       = "queue_delay"  // its part above the fixed delay
	SeriesLostBetween = "lost_between" // a data segment lost on the hop, at its fixed delay
	SeriesAccepted    = "accepted"     // bytes the proxy acknowledged to the sender
	SeriesDelivered   = "delivered"    // bytes acknowledged beyond the proxy
	SeriesBuffered    = "buffered"     // the difference: what the proxy held
)

// GraphSeries are the series a graph of the join draws (nil for another
// kind).
func GraphSeries(k analyze.GraphKind) []string {
	switch k {
	case GraphOWD:
		return []string{SeriesOWD, SeriesQueue, SeriesLostBetween}
	case GraphProxy:
		return []string{SeriesAccepted, SeriesDelivered, SeriesBuffered}
	}
	return nil
}

// Graph draws graph kind of direction d of connection ch across hop h:
// GraphProxy the buffer of the proxy that splits it, GraphOWD the one-way
// delay of the packets seen at both ends, "" the one that fits it (proxy
// when split). A split connection has no packet at both ends, an unsplit
// one no proxy: asking for the other graph is an error.
func Graph(kind analyze.GraphKind, h *Hop, ch *ConnHop, d reassembly.Direction) (*analyze.Graph, error) {
	switch {
	case kind == GraphProxy && !ch.Split:
		return nil, fmt.Errorf("stream %d is not split by a proxy between the captures (--graph owd draws it)", ch.Up.Stream)
	case kind == GraphOWD && ch.Split:
		return nil, fmt.Errorf("a proxy splits stream %d between the captures: no packet is in both (--graph proxy draws its buffer)", ch.Up.Stream)
	case ch.Split:
		return proxyGraph(h, ch, d), nil
	}
	return owdGraph(h, ch, d), nil
}

// proxyGraph is the buffer of the proxy that splits connection ch across
// hop h, for direction d: bytes it accepted from the sender, bytes
// delivered beyond it, and their difference, over time.
func proxyGraph(h *Hop, ch *ConnHop, d reassembly.Direction) *analyze.Graph {
	ends := ch.Up.Ends(d)
	g := &analyze.Graph{Kind: GraphProxy, Title: "Proxy buffer " + shortHop(h), Stream: ch.Up.Stream, Dir: d,
		Src: ends[0], Dst: ends[1], XCol: -1, YCol: 0, TimeOrigin: start(ch.Up),
		X:       analyze.Axis{Label: "time", Unit: "s", Time: true},
		Y:       analyze.Axis{Label: "bytes", Unit: "B"},
		Columns: []string{"bytes"}}
	acc := analyze.Series{Name: SeriesAccepted, Kind: analyze.Steps}
	del := analyze.Series{Name: SeriesDelivered, Kind: analyze.Steps}
	buf := analyze.Series{Name: SeriesBuffered, Kind: analyze.Steps}
	for _, b := range proxyBuffer(h, ch, d) {
		acc.Points = append(acc.Points, analyze.Point{Time: b.Time, V: [3]float64{float64(b.Accepted)}})
		del.Points = append(del.Points, analyze.Point{Time: b.Time, V: [3]float64{float64(b.Delivered)}})
		buf.Points = append(buf.Points, analyze.Point{Time: b.Time, V: [3]float64{float64(max(b.Accepted-b.Delivered, 0))}})
	}
	g.Series = []analyze.Series{acc, del, buf}
	return g
}

// Pick finds the connection and direction a graph of the hops shows:
// stream (in the first capture; -1: the one that carried the most
// payload) and dir (-1: its direction with the most payload). ok is false
// when no hop holds the stream.
func (r *Result) Pick(stream, dir int) (ch0 *ConnHop, d reassembly.Direction, ok bool) {
	if len(r.Hops) == 0 {
		return nil, 0, false
	}
	for _, ch := range r.Hops[0].Conns {
		if stream >= 0 && ch.Up.Stream != stream {
			continue
		}
		if ch0 == nil || stream < 0 && ch.Up.Bytes[0]+ch.Up.Bytes[1] > ch0.Up.Bytes[0]+ch0.Up.Bytes[1] {
			ch0 = ch
		}
	}
	if ch0 == nil {
		return nil, 0, false
	}
	d = reassembly.MainDirection(ch0.Up.Bytes)
	if dir >= 0 {
		d = reassembly.Direction(dir)
	}
	return ch0, d, true
}

// owdGraph is the one-way delay of direction d of connection ch across
// hop h: every packet seen at both ends (its delay, its queueing delay)
// and every data segment lost between them, over the hop's first
// capture's time from the connection's first packet there; frames are
// those of the capture the direction enters the hop at.
func owdGraph(h *Hop, ch *ConnHop, d reassembly.Direction) *analyze.Graph {
	dh := &ch.Dir[d]
	ends := ch.Up.Ends(d)
	g := &analyze.Graph{Kind: GraphOWD, Title: "One-way delay " + shortHop(h), Stream: ch.Up.Stream, Dir: d,
		Src: ends[0], Dst: ends[1], XCol: -1, YCol: 0,
		X:       analyze.Axis{Label: "time", Unit: "s", Time: true},
		Y:       analyze.Axis{Label: "one-way delay", Unit: "ms"},
		Columns: []string{"delay_ms"}}
	first := int64(0)
	for _, dd := range ch.Up.Pkts {
		if len(dd) > 0 && (first == 0 || dd[0].Time < first) {
			first = dd[0].Time
		}
	}
	g.TimeOrigin = first
	owd := analyze.Series{Name: SeriesOWD, Kind: analyze.Dots, Points: make([]analyze.Point, 0, len(dh.Pairs))}
	queue := analyze.Series{Name: SeriesQueue, Kind: analyze.Dots, Points: make([]analyze.Point, 0, len(dh.Pairs))}
	for _, p := range dh.Pairs {
		t := p.Up
		if !dh.Forward {
			// Up is on the hop's second capture's clock: the first's.
			t -= int64(h.Clock.at(t))
		}
		owd.Points = append(owd.Points, analyze.Point{Frame: int64(p.Frame), Time: t, V: [3]float64{float64(p.OWD) / 1e6}})
		queue.Points = append(queue.Points, analyze.Point{Frame: int64(p.Frame), Time: t, V: [3]float64{float64(p.Queue) / 1e6}})
	}
	lost := analyze.Series{Name: SeriesLostBetween, Kind: analyze.Marks}
	for _, p := range dh.Lost {
		t := p.Time
		if !dh.Forward {
			t -= int64(h.Clock.at(t))
		}
		lost.Points = append(lost.Points, analyze.Point{Frame: int64(p.Frame), Time: t, V: [3]float64{h.Clock.fixed(maxWire(dh), dh.Forward) / 1e6}})
	}
	g.Series = append(g.Series, owd, queue)
	if len(lost.Points) > 0 {
		g.Series = append(g.Series, lost)
	}
	return g
}

// maxWire is the largest frame of the direction's matched packets: a
// lost data segment's fixed delay is drawn at that size.
func maxWire(dh *DirHop) uint16 {
	var m uint16
	for _, p := range dh.Pairs {
		m = max(m, p.Size)
	}
	return m
}

// shortHop is the hop as a graph's title names it: the captures' file
// names, without their folders.
func shortHop(h *Hop) string { return path.Base(h.Up.Name) + " > " + path.Base(h.Down.Name) }

// OWDInput is one input of a comparison of one-way delays: captures of
// the same transfer at points of its path, the connection compared
// (Stream in the first capture, -1 for the busiest; Dir -1 for its main
// direction), its label in the legend and its name in errors.
type OWDInput struct {
	Label, Name string
	Captures    []*Capture
	Stream, Dir int
}

// CompareOWD joins each input's captures and overlays the one-way delay
// across the first hop of its connection, one series each (named by its
// label), each input's time 0
// at its first data segment (firstData) or its first packet at the first
// capture; only the points within window w of that time 0.
// A connection the captures do not both hold packet by packet (split by
// a proxy) is an error.
func CompareOWD(ins []OWDInput, firstData bool, w analyze.Range) (*analyze.Graph, error) {
	g := &analyze.Graph{Kind: analyze.GraphCompare, Title: "One-way delay across the first hop", Stream: -1, XCol: -1, YCol: 0,
		X:       analyze.Axis{Label: "time", Unit: "s", Time: true},
		Y:       analyze.Axis{Label: "one-way delay", Unit: "ms"},
		Columns: []string{"delay_ms"}}
	if firstData {
		g.X.Label = "time since the first data segment"
	}
	for _, in := range ins {
		res, err := Join(in.Captures)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		ch, d, ok := res.Pick(in.Stream, in.Dir)
		if !ok || ch.Split {
			return nil, fmt.Errorf("%s: stream %d is not in both captures packet by packet (split by a proxy?)", in.Name, in.Stream)
		}
		one := owdGraph(res.Hops[0], ch, d)
		origin := one.TimeOrigin
		if firstData {
			for _, p := range ch.Up.Pkts[d] {
				if p.data() {
					origin = p.Time
					break
				}
			}
		}
		s := analyze.Series{Name: in.Label, Kind: analyze.Dots}
		for _, p := range one.Series[0].Points { // the one-way delay
			p.Time -= origin
			if (!w.HasMin || p.Time >= w.Min) && (!w.HasMax || p.Time <= w.Max) {
				s.Points = append(s.Points, p)
			}
		}
		g.Series = append(g.Series, s)
	}
	return g, nil
}
