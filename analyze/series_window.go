package analyze

import "tcpviz/reassembly"

// windowGraph builds the window graph of direction o.Dir: the bytes in flight
// at each segment sent (Wireshark's tcp.analysis.bytes_in_flight: sent and
// not yet cumulatively acknowledged, SACKed data included, so in a loss
// recovery it stands above the sender's pipe, which the cwnd graph's
// estimate models), and the receive window the other side advertises
// (scaled), as a step line.
func windowGraph(recs []Record, o SeriesOptions) *Graph { return feed(newWindow(o), recs) }

// windowBuilder builds Window's graph record by record.
type windowBuilder struct {
	f   *frame
	set seriesSet
}

func newWindow(o SeriesOptions) graphBuilder {
	f := newFrame(GraphWindow, o)
	f.g.Y = Axis{Label: "bytes", Unit: "B"}
	f.g.Columns = []string{"bytes"}
	return &windowBuilder{f: f, set: seriesSet{thin: o.Thin}}
}

func (b *windowBuilder) add(r *Record) {
	o := &b.f.o
	if !b.f.inTime(r.Time) {
		return
	}
	pt := func(v int64) Point { return Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(v)}} }
	switch {
	case r.Dir == o.Dir && r.Info.BytesInFlight >= 0:
		b.set.add(SeriesInFlight, Dots, pt(r.Info.BytesInFlight))
	case r.Dir == o.Dir.Reverse() && r.HasAck && r.Window >= 0 && r.Flags&reassembly.RST == 0:
		b.set.add(SeriesAdvertised, Steps, pt(r.Window))
	}
}

func (b *windowBuilder) graph() *Graph {
	g := b.f.g
	g.Series = b.set.list(SeriesInFlight, SeriesAdvertised)
	capWindow(g)
	return g
}
