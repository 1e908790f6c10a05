package analyze

import (
	"fmt"
	"net/netip"

	"tcpviz/reassembly"
)

// CompareKind is what `tcpviz compare` overlays.
type CompareKind string

// Comparisons.
const (
	CompareDelivered  CompareKind = "delivered" // bytes acknowledged by the receiver over time
	CompareThroughput CompareKind = "tput"      // goodput over time (moving average)
	CompareRTT        CompareKind = "rtt"       // ack_rtt samples over time
)

// ParseCompareKind checks a --graph value of compare.
func ParseCompareKind(s string) (CompareKind, error) {
	switch k := CompareKind(s); k {
	case CompareDelivered, CompareThroughput, CompareRTT:
		return k, nil
	}
	return "", fmt.Errorf("unknown comparison %q (want delivered, tput or rtt)", s)
}

// CompareInput is one connection direction to compare.
type CompareInput struct {
	Label string // the series name: the capture, and the stream
	L     *Loaded
}

var compareTitles = map[CompareKind]string{
	CompareDelivered:  "Bytes delivered",
	CompareThroughput: "Goodput",
	CompareRTT:        "Round-trip time",
}

// Compare overlays one series per input, each against the time since its
// own connection's first packet, so that transfers recorded at different
// times line up at their start.
func Compare(kind CompareKind, ins []CompareInput) *Graph {
	g := &Graph{Kind: GraphCompare, XCol: -1, Title: compareTitles[kind],
		X: Axis{Label: "time since the connection's first packet", Unit: "s", Time: true}}
	switch kind {
	case CompareThroughput:
		g.Y, g.Columns = Axis{Label: "goodput (newly acknowledged)", Unit: "bit/s"}, []string{"bps"}
	case CompareRTT:
		g.Y, g.Columns = Axis{Label: "round-trip time (ack_rtt)", Unit: "ms"}, []string{"rtt_ms"}
	default:
		g.Y, g.Columns = Axis{Label: "bytes acknowledged", Unit: "B"}, []string{"bytes"}
	}
	if len(ins) > 0 {
		c := ins[0].L.Conn
		g.Stream, g.Dir = c.Stream, ins[0].L.Dir
		g.Src, g.Dst = c.Client, c.Server
	}
	for _, in := range ins {
		o := SeriesOptions{Conn: in.L.Conn, Dir: in.L.Dir}
		var s Series
		switch kind {
		case CompareThroughput:
			s = pick(Throughput(in.L.Records, o, ThroughputOptions{}), SeriesGoodput, Lines)
		case CompareRTT:
			s = pick(RTT(in.L.Records, o, RTTOptions{}), SeriesRTT, Dots)
		default:
			s = delivered(in.L.Records, in.L.Dir)
		}
		origin := in.L.Conn.FirstTime
		for i := range s.Points {
			s.Points[i].Time -= origin
		}
		s.Name = in.Label
		if len(s.Points) > 0 {
			g.Series = append(g.Series, s)
		}
	}
	return g
}

// CompareRow is one line of compare's table: the main numbers of one
// compared connection direction.
type CompareRow struct {
	Label    string
	Stream   int
	Dir      reassembly.Direction
	Src, Dst netip.AddrPort
	Transfer Transfer
	Stats    *DirStats // of the compared direction
	// ThroughputRatio is the throughput over the first input's;
	// HasRatio is false when either is not measurable.
	ThroughputRatio float64
	HasRatio        bool
}

// CompareRows makes the table of a comparison, in input order.
func CompareRows(ins []CompareInput) []CompareRow {
	var out []CompareRow
	var base float64
	for i, in := range ins {
		st := &in.L.Stats[in.L.Dir]
		r := CompareRow{Label: in.Label, Stream: in.L.Conn.Stream, Dir: in.L.Dir, Src: st.Src, Dst: st.Dst,
			Transfer: Summarize(in.L), Stats: st}
		if i == 0 && st.HasThroughput {
			base = st.ThroughputBps
		}
		if base > 0 && st.HasThroughput {
			r.ThroughputRatio, r.HasRatio = st.ThroughputBps/base, true
		}
		out = append(out, r)
	}
	return out
}

// pick returns a copy of the series called name (empty if absent).
func pick(g *Graph, name string, k SeriesKind) Series {
	if s := g.Lookup(name); s != nil {
		out := *s
		out.Points = append([]Point(nil), s.Points...)
		out.Kind = k
		return out
	}
	return Series{Kind: k}
}

// delivered is the payload of direction d acknowledged by the receiver, at
// each ACK that acknowledges new data.
func delivered(recs []Record, d reassembly.Direction) Series {
	s := Series{Kind: Steps}
	// The first data byte: 1 after a SYN (relative numbering), else the
	// start of the first segment seen.
	first, found := int64(1), false
	var high int64
	for i := range recs {
		r := &recs[i]
		if r.Dir == d && !found && (r.Len > 0 || r.Flags&reassembly.SYN != 0) {
			found = true
			if r.Flags&reassembly.SYN == 0 {
				first = r.Seq
			}
		}
		if r.Dir == d || !r.HasAck || r.Flags&reassembly.SYN != 0 {
			continue
		}
		if n := r.Ack - first; n > high {
			high = n
			s.Points = append(s.Points, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(n)}})
		}
	}
	return s
}
