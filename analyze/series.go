package analyze

import (
	"math"
	"net/netip"
	"slices"

	"tcpviz/reassembly"
)

// SeriesKind tells a renderer how a series is meant to be drawn.
type SeriesKind uint8

// Series kinds.
const (
	Bars   SeriesKind = iota // vertical bar at each point from V[0] to V[1]
	Steps                    // step line: each value holds until the next point
	Lines                    // straight line through the points
	Dots                     // one small dot per point
	Marks                    // one glyph per point: rare events, never thinned away
	Arrows                   // an arrow from each even point to the next, with its label: a ladder's packets, never thinned
	// Spans: a band over the time axis from each even point's time to
	// the next's (a state held between them), drawn along the foot of
	// the plot under the lines; its points carry no value (empty in
	// exports) and set no y range; never thinned.
	Spans
)

// Point is one plotted point: the packet it comes from, its time and its
// values (their meaning is named by Graph.Columns). Values are finite.
type Point struct {
	Frame int64 // 1-based packet number in the capture, as Wireshark numbers it
	Time  int64 // ns since the epoch
	V     [3]float64
}

// Series is a named list of points, in capture order.
type Series struct {
	Name string
	Kind SeriesKind
	// Cols is how many of Graph.Columns the points fill (the others are
	// empty in exports); 0 means all.
	Cols   int
	Points []Point
	// Unthinned is how many points the series had before it was thinned
	// for a picture while built (SeriesOptions.Thin); 0 if it was not.
	Unthinned int
	// Labels, for Arrows, is the text written by each arrow (one per two
	// points); Dashed draws its lines dashed (what was estimated, not
	// seen).
	Labels []string
	Dashed bool
	// packed holds the points instead of Points until Graph.Unpack, for
	// a long series of a graph Load packed (LoadOptions.Pack).
	packed *packedPoints
	// Palette, when not 0, is 1 + the palette colour of a series without
	// a style of its own (else its position): a sweep's line and its
	// error bars share one.
	Palette int
	// Of, for a series that accompanies another (a comparison's ssthresh
	// and loss marks of one input), names the series whose colour (and
	// facet) it takes; Role is the series of its own graph it is, whose
	// marks and dashes it is drawn with.
	Of, Role string
}

// Axis describes one axis of a graph.
type Axis struct {
	Label string // what is measured
	Unit  string // "s", "B", "bit/s", "ms" ("" for a plain number)
	Time  bool   // values are times (seconds from Graph.TimeOrigin)
	Clock bool   // the times are wall-clock times (TimeOrigin is 0), shown in UTC
	Down  bool   // values grow downwards (a ladder's time)
	// Names, when set, label the axis at 0, 1, 2… instead of numbers (a
	// ladder's capture points).
	Names []string
}

// Graph is the plain description of one graph of one connection direction:
// the series to plot and what the axes mean. It holds no rendering state.
type Graph struct {
	Kind GraphKind
	// Title names the graph ("Time/sequence (tcptrace)"); renderers add
	// the connection and the capture.
	Title  string
	Stream int
	Dir    reassembly.Direction
	// Src sends the data this graph describes; Dst receives it.
	Src, Dst netip.AddrPort
	// TimeOrigin (ns since the epoch) is subtracted from Point.Time to give
	// the time axis: the connection's first packet, or 0 for absolute times.
	TimeOrigin int64
	X, Y       Axis
	// Columns names the meaningful values of each point, in order.
	Columns []string
	// XCol is the index in Point.V of the x value, or -1 when x is the time.
	XCol int
	// YCol is the index in Point.V of the y value; for Bars, V[YCol+1] is
	// the other end of the bar.
	YCol int
	// Zoom is the window asked for, in axis units; unset bounds follow
	// the data.
	Zoom   Zoom
	Series []Series
	// Warnings are problems with what the graph shows (an averaging
	// window shorter than the round trip), for the user.
	Warnings []Warning
	// Notes explain what the picture shows, under its legend: data
	// acknowledged by a proxy, a receiver-side capture's cwnd line.
	Notes []Warning
	// UDP is set on a UDP flow's graph (Loaded.UDP): Stream is its
	// udp.stream, and what its series call acknowledged is what reached
	// the capture point.
	UDP bool
}

// seconds returns the x value of time t (ns since the epoch).
func (g *Graph) seconds(t int64) float64 { return float64(t-g.TimeOrigin) / 1e9 }

// lookup returns the series called name, or nil.
func (g *Graph) lookup(name string) *Series {
	for i := range g.Series {
		if g.Series[i].Name == name {
			return &g.Series[i]
		}
	}
	return nil
}

// Zoom is a window on a graph's axes, in axis units.
type Zoom struct {
	XMin, XMax, YMin, YMax             float64
	HasXMin, HasXMax, HasYMin, HasYMax bool
}

// Range is an inclusive interval; an unset bound is open.
type Range struct {
	Min, Max       int64
	HasMin, HasMax bool
}

// contains reports whether v is in the range.
func (r Range) contains(v int64) bool {
	return (!r.HasMin || v >= r.Min) && (!r.HasMax || v <= r.Max)
}

// overlaps reports whether [lo, hi] meets the range.
func (r Range) overlaps(lo, hi int64) bool {
	return (!r.HasMin || hi >= r.Min) && (!r.HasMax || lo <= r.Max)
}

// bounded reports whether either bound is set.
func (r Range) bounded() bool { return r.HasMin || r.HasMax }

// SeriesOptions select what a graph shows of a connection.
type SeriesOptions struct {
	// Conn is the connection the records belong to.
	Conn *reassembly.Conn
	// Dir is the direction whose data is graphed (the other direction's
	// ACKs, windows and SACK blocks are drawn against it).
	Dir reassembly.Direction
	// Time limits the points to times (ns from the connection's first
	// packet) in the range.
	Time Range
	// Seq limits sequence-valued points to the range, in the numbering
	// shown (relative, or absolute with AbsoluteSeq).
	Seq Range
	// AbsoluteSeq shows the sequence numbers from the headers (unwrapped)
	// instead of relative to the ISN.
	AbsoluteSeq bool
	// AbsoluteTime puts times in seconds since the epoch instead of from the
	// connection's first packet.
	AbsoluteTime bool
	// Thin, when its Cols are set, thins long series for a picture (the
	// RTT graph, whose dots are shaded by their density, keeps every
	// point).
	Thin thinning
	// Stats, when set, are the statistics of the direction drawn
	// (Load's), whose congestion_control the cwnd graph's view follows
	// (cwndBuilder.graph): what names the algorithm from the whole
	// transfer (HyStart's end of slow start, BBR's drain) the statistics
	// alone gather. Builders that draw as the capture is read are given
	// them at the end (graphBuild.graphs).
	Stats *DirStats
	// origin, when hasOrigin, is the connection's first packet (ns since
	// the epoch) instead of Conn.FirstTime: as it was when the first
	// record was made, for a tracker that runs ahead.
	origin    int64
	hasOrigin bool
	// bases, when hasBases, are what absolute numbers count from, by
	// direction (the final bases, from a first pass), instead of Conn's.
	bases    [2]uint64
	hasBases bool
}

// frame holds what the builders share: the options resolved against the
// connection.
type frame struct {
	o         SeriesOptions
	start     int64    // the connection's first packet, ns since the epoch
	seqOffset [2]int64 // added to relative numbers of each direction
	g         *Graph
}

func newFrame(kind GraphKind, o SeriesOptions) *frame {
	f := &frame{o: o}
	g := &Graph{Kind: kind, Dir: o.Dir, XCol: -1,
		X: Axis{Label: "time since the connection's first packet", Unit: "s", Time: true}}
	identify(g, o)
	if c := o.Conn; c != nil {
		f.start = c.FirstTime
		if o.hasOrigin {
			f.start = o.origin
		}
		if o.AbsoluteSeq {
			for d := range f.seqOffset {
				base := c.Dir[d].Base
				if o.hasBases {
					base = o.bases[d]
				}
				f.seqOffset[d] = int64(uint32(base))
			}
		}
	}
	g.TimeOrigin = f.start
	if o.AbsoluteTime {
		g.TimeOrigin = 0
		g.X.Label, g.X.Clock = "time", true
	}
	if o.Time.HasMin {
		g.Zoom.XMin, g.Zoom.HasXMin = g.seconds(f.start+o.Time.Min), true
	}
	if o.Time.HasMax {
		g.Zoom.XMax, g.Zoom.HasXMax = g.seconds(f.start+o.Time.Max), true
	}
	f.g = g
	return f
}

// identify names in g the connection and direction o graphs.
func identify(g *Graph, o SeriesOptions) {
	if c := o.Conn; c != nil {
		g.Stream = c.Stream
		g.Src, g.Dst = c.Client, c.Server
		if o.Dir == reassembly.S2C {
			g.Src, g.Dst = c.Server, c.Client
		}
	}
}

// inTime reports whether record r is inside the time window.
func (f *frame) inTime(t int64) bool { return f.o.Time.contains(t - f.start) }

// seq converts a relative number of direction d to the numbering shown.
func (f *frame) seq(d reassembly.Direction, rel int64) int64 { return rel + f.seqOffset[d] }

// seqWindow sets the graph's y zoom from the sequence window.
func (f *frame) seqWindow() {
	if f.o.Seq.HasMin {
		f.g.Zoom.YMin, f.g.Zoom.HasYMin = float64(f.o.Seq.Min), true
	}
	if f.o.Seq.HasMax {
		f.g.Zoom.YMax, f.g.Zoom.HasYMax = float64(f.o.Seq.Max), true
	}
}

// seriesSet gathers the points of a graph's series by name, each series
// created (with its kind) on its first point. A graph has a few series:
// they are found by a look along them, cheaper than hashing the name of
// every point.
type seriesSet struct {
	all []*setSeries // in the order created
	// thin, when its Cols are set, thins long series (their points are in
	// thinned until done); else, with pack, packs them (in s.packed).
	thin thinning
}

// setSeries is one series of a seriesSet: its points are in s once done,
// in pts or thinned until then.
type setSeries struct {
	s       Series
	pts     pointBuf
	thinned *thinSeries
	added   int // points added
}

func (s *seriesSet) get(name string) *setSeries {
	for _, x := range s.all {
		if x.s.Name == name {
			return x
		}
	}
	return nil
}

func (s *seriesSet) add(name string, k SeriesKind, p Point) {
	x := s.get(name)
	if x == nil {
		x = &setSeries{s: Series{Name: name, Kind: k}}
		s.all = append(s.all, x)
	}
	x.added++
	switch {
	case x.thinned != nil:
		x.thinned.add(&s.thin, k, 0, p)
		return
	case x.s.packed != nil:
		x.s.packed.add(p)
		return
	}
	x.pts.add(p)
	switch n := len(x.s.Points) + x.pts.n; {
	case s.thin.Cols > 0 && k != Spans && n >= thinAfter:
		ts := &thinSeries{cols: make([][]thinPoint, s.thin.Cols+2)}
		for _, q := range x.s.Points {
			ts.add(&s.thin, k, 0, q)
		}
		x.pts.each(func(q Point) { ts.add(&s.thin, k, 0, q) })
		x.s.Points, x.pts, x.thinned = nil, pointBuf{}, ts
	case s.thin.pack && n >= thinAfter:
		pk := &packedPoints{}
		for _, q := range x.s.Points {
			pk.add(q)
		}
		x.pts.each(pk.add)
		x.s.Points, x.pts, x.s.packed = nil, pointBuf{}, pk
	}
}

// done puts the points of every series in its Series.
func (s *seriesSet) done() {
	for _, x := range s.all {
		if x.thinned != nil {
			x.s.Points, x.thinned = x.thinned.points(&s.thin, x.s.Kind), nil
			x.s.Unthinned = x.added
			if s.thin.pack && len(x.s.Points) >= packThinned {
				x.s.packed = &packedPoints{}
				for _, p := range x.s.Points {
					x.s.packed.add(p)
				}
				x.s.Points = nil
			}
			continue
		}
		x.s.Points, x.pts = x.pts.appendTo(x.s.Points), pointBuf{}
	}
}

// series returns the series called name, nil if it has no point; call
// done first.
func (s *seriesSet) series(name string) *Series {
	if x := s.get(name); x != nil {
		return &x.s
	}
	return nil
}

// list returns the series in the order given by names, skipping empty
// ones (a series always has at least one point).
func (s *seriesSet) list(names ...string) []Series {
	s.done()
	var out []Series
	for _, n := range names {
		if sr := s.series(n); sr != nil && sr.size() > 0 {
			out = append(out, *sr)
		}
	}
	return out
}

// pointBuf gathers points in chunks and joins them once: a long series
// grown by append is copied again and again (each time a quarter larger).
type pointBuf struct {
	chunks [][]Point
	n      int
}

const maxPointChunk = 1 << 16

func (b *pointBuf) add(p Point) {
	k := len(b.chunks)
	if k == 0 || len(b.chunks[k-1]) == cap(b.chunks[k-1]) {
		size := 64
		if k > 0 {
			size = min(2*cap(b.chunks[k-1]), maxPointChunk)
		}
		b.chunks = append(b.chunks, make([]Point, 0, size))
		k++
	}
	b.chunks[k-1] = append(b.chunks[k-1], p)
	b.n++
}

func (b *pointBuf) each(f func(Point)) {
	for _, c := range b.chunks {
		for _, p := range c {
			f(p)
		}
	}
}

// appendTo appends the points to dst.
func (b *pointBuf) appendTo(dst []Point) []Point {
	if len(dst) == 0 && len(b.chunks) == 1 {
		return b.chunks[0]
	}
	dst = slices.Grow(dst, b.n)
	for _, c := range b.chunks {
		dst = append(dst, c...)
	}
	return dst
}

// graphBuilder draws one graph of a connection from its records, given one at
// a time in capture order (both directions): a graph is built while the
// capture is read, without keeping the records.
type graphBuilder interface {
	add(r *Record)
	graph() *Graph
}

// feed builds b's graph from recs.
func feed(b graphBuilder, recs []Record) *Graph {
	for i := range recs {
		b.add(&recs[i])
	}
	return b.graph()
}

// finite reports whether all values are finite numbers.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
