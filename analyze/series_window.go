package analyze

import "tcpviz/reassembly"

// Window builds the window graph of direction o.Dir: the bytes in flight
// at each segment sent (as the analysis computes them, SACK-aware), and
// the receive window the other side advertises (scaled), as a step line.
func Window(recs []Record, o SeriesOptions) *Graph {
	f := newFrame(GraphWindow, o)
	g := f.g
	g.Y = Axis{Label: "bytes", Unit: "B"}
	g.Columns = []string{"bytes"}
	var set seriesSet
	rev := o.Dir.Reverse()
	for i := range recs {
		r := &recs[i]
		if !f.inTime(r.Time) {
			continue
		}
		pt := func(v int64) Point { return Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(v)}} }
		switch {
		case r.Dir == o.Dir && r.Info.BytesInFlight >= 0:
			set.add(SeriesInFlight, Dots, pt(r.Info.BytesInFlight))
		case r.Dir == rev && r.HasAck && r.Window >= 0 && r.Flags&reassembly.RST == 0:
			set.add(SeriesAdvertised, Steps, pt(r.Window))
		}
	}
	g.Series = set.list(SeriesInFlight, SeriesAdvertised)
	capWindow(g)
	return g
}
