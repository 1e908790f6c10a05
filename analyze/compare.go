package analyze

import (
	"cmp"
	"net/netip"
	"slices"

	"tcpviz/reassembly"
)

// CompareKind is what `tcpviz compare` overlays.
type CompareKind string

// Comparisons: delivered bytes, and one series of a registered graph.
const (
	CompareDelivered  CompareKind = "delivered" // bytes acknowledged by the receiver over time
	CompareThroughput CompareKind = "tput"      // goodput over time
	CompareRTT        CompareKind = "rtt"       // RTT samples over time
	CompareWindow     CompareKind = "window"    // bytes in flight
	CompareCwnd       CompareKind = "cwnd"      // estimated congestion window
	CompareSeq        CompareKind = "seq"       // segment start sequence number (Stevens)
	CompareLoss       CompareKind = "loss"      // datagrams lost, as iperf3 counts them (UDP inputs)
	CompareOWD        CompareKind = "owd"       // one-way delay across the first hop (join's CompareOWD draws it; Compare makes its table)
)

// compareDef is one comparison: its --graph name and what it overlays
// in words, the registered graph that draws it (none for delivered and
// loss), the series of it overlaid (merged into one per input), its
// title (a registered graph's own title when ""). A registered graph's
// comparison is its GraphSpec's compare.
type compareDef struct {
	kind   CompareKind
	help   string // "" when the name says it
	graph  GraphKind
	series []string
	title  string
	// with: series of the graph drawn beside each input's, in its colour
	// (named "<label> <what>").
	with []companion
}

// companion is a series drawn beside a compared one: the graph's series
// and what its name says.
type companion struct{ series, what string }

// The comparisons no registered graph draws: delivered (the default),
// loss, and the one-way delay of joined inputs (drawn by join's
// CompareOWD).
var (
	compareDelivered = compareDef{kind: CompareDelivered, help: "bytes acknowledged", title: "Bytes delivered"}
	compareLoss      = compareDef{kind: CompareLoss, help: "datagrams lost, as iperf3 counts them: UDP inputs", title: "Datagrams lost (iperf3)"}
	compareOWD       = compareDef{kind: CompareOWD, help: "one-way delay across the first hop: joined inputs A+B"}
)

// compareDefs lists the comparisons compare draws: delivered, then that
// of each registered graph that has one, in the registry's order, then
// loss.
func compareDefs() []compareDef {
	out := []compareDef{compareDelivered}
	for _, g := range graphs {
		if g.compare != nil {
			c := *g.compare
			c.graph = g.Kind
			if c.title == "" {
				c.title = g.Title
			}
			out = append(out, c)
		}
	}
	return append(out, compareLoss)
}

// compareKinds lists the comparisons Compare draws, in order.
func compareKinds() []string {
	var out []string
	for _, c := range compareDefs() {
		out = append(out, string(c.kind))
	}
	return out
}

// compareParams are the parameters compare takes, as its flags say
// them (Graphs("compare")): those of the graphs it overlays
// that change a series it draws (ParamSpec.Compare), then graph, what it
// overlays (the comparisons, and the one-way delay of joined inputs).
func compareParams() []ParamSpec {
	var out []ParamSpec
	for _, g := range graphs {
		for _, p := range g.Params {
			if p.Compare {
				out = append(out, p)
			}
		}
	}
	graph := ParamSpec{Name: "graph", Default: string(CompareDelivered), Help: "what to overlay: "}
	defs := append(compareDefs(), compareOWD)
	for i, c := range defs {
		switch i {
		case 0:
		case len(defs) - 1:
			graph.Help += ", or "
		default:
			graph.Help += ", "
		}
		graph.Help += string(c.kind)
		if c.help != "" {
			graph.Help += " (" + c.help + ")"
		}
		graph.Choices = append(graph.Choices, string(c.kind))
	}
	return append(out, graph)
}

// CompareInput is one connection direction to compare.
type CompareInput struct {
	Label string // the series name: --label, or the capture and the stream
	Input string // the input as named (CAPTURE or CAPTURE#STREAM)
	L     *Loaded
}

// CompareOptions choose what a comparison graph shows.
type CompareOptions struct {
	Align Align // time 0 of each input ("" is AlignSYN)
	// Time limits the points to times (ns from each input's time 0) in
	// the range.
	Time   Range
	Params GraphParams // the graph's own choices (throughput window, RTT sampling)
}

// CompareLoad is how Load reads an input of a comparison: drawing the
// compared graph and gathering the delivered bytes while reading, so that
// no records are kept — unless a time window counts from the first data
// byte, which is known only once read: then the graph is drawn from the
// records.
func CompareLoad(kind CompareKind, co CompareOptions) LoadOptions {
	if co.Align == AlignFirstData && (co.Time.HasMin || co.Time.HasMax) {
		return LoadOptions{}
	}
	o := LoadOptions{Transfer: true}
	if c := compareSpec(kind); c.graph != "" {
		gs, _ := lookupGraph(c.graph)
		o.Graphs = []GraphRequest{{Spec: gs, Series: SeriesOptions{Time: co.Time}, Params: co.Params}}
	}
	return o
}

// compareSpec is the comparison kind (delivered, when unknown).
func compareSpec(kind CompareKind) compareDef {
	for _, c := range compareDefs() {
		if c.kind == kind {
			return c
		}
	}
	return compareDelivered
}

// Compare compares the inputs: a graph and a table. The graph overlays
// one series per input, each against the time since its own time 0 (its
// connection's first packet, or its first data byte: co.Align), so that
// transfers recorded at different times line up at their start; for
// CompareOWD there is none (nil: join's CompareOWD draws it from the
// captures). The table has a row per input, in input order: its main
// numbers, with the transfer numbers o asks for.
func Compare(kind CompareKind, ins []CompareInput, co CompareOptions, o TransferOptions) (*Graph, []CompareRow) {
	rows := compareRows(ins, o)
	if kind == CompareOWD {
		return nil, rows
	}
	return compareGraph(kind, ins, co), rows
}

// compareGraph is Compare's graph.
func compareGraph(kind CompareKind, ins []CompareInput, co CompareOptions) *Graph {
	g := &Graph{Kind: GraphCompare, XCol: -1,
		X: Axis{Label: "time since the connection's first packet", Unit: "s", Time: true}}
	if co.Align == AlignFirstData {
		g.X.Label = "time since the first data byte"
	}
	if co.Time.HasMin {
		g.Zoom.XMin, g.Zoom.HasXMin = float64(co.Time.Min)/1e9, true
	}
	if co.Time.HasMax {
		g.Zoom.XMax, g.Zoom.HasXMax = float64(co.Time.Max)/1e9, true
	}
	spec := compareSpec(kind)
	g.Title = spec.title
	g.Y, g.Columns = Axis{Label: "bytes acknowledged", Unit: "B"}, []string{"bytes"}
	if len(ins) > 0 {
		identify(g, SeriesOptions{Conn: ins[0].L.Conn, Dir: ins[0].L.Dir}) // the first input's, this way
		g.Dir = ins[0].L.Dir
	}
	var proxies []Warning // the drawn inputs whose ACKs come from a proxy beside the capture
	for _, in := range ins {
		ta := in.L.transferAcc()
		origin := co.Align.origin(in.L, ta)
		var s Series
		var with []Series // its companions, named by what they are
		var warnings, notes []Warning
		switch {
		case spec.kind == CompareLoss:
			// Only iperf3 UDP flows have it (LoadOptions.UDP); others draw nothing.
			g.Y, g.Columns = Axis{Label: "datagrams lost (iperf3's count)"}, []string{"lost"}
			s = Series{Kind: Steps, Points: slices.Clone(in.L.AppLoss)}
		case spec.graph == "":
			s = Series{Kind: Steps, Points: slices.Clone(ta.delivered.s.Points)}
		default:
			var b *Graph
			if len(in.L.Graphs) > 0 {
				b = in.L.Graphs[0] // drawn while reading (CompareLoad)
			} else {
				// The builders take times from the connection's first packet.
				start := ta.start(in.L)
				o := SeriesOptions{Conn: in.L.Conn, Dir: in.L.Dir, Time: co.Time, Stats: &in.L.Stats[in.L.Dir], origin: start, hasOrigin: true}
				shift := origin - start
				o.Time.Min += shift
				o.Time.Max += shift
				gs, _ := lookupGraph(spec.graph)
				b = gs.build(in.L.Records, o, co.Params)
			}
			g.Y, g.Columns, g.YCol = b.Y, b.Columns, b.YCol
			s = merge(b, spec.series)
			for _, c := range spec.with {
				if cs := b.lookup(c.series); cs != nil {
					// A line beside the input's own is dashed.
					dashed := cs.Kind == Steps || cs.Kind == Lines
					with = append(with, Series{Name: c.what, Role: c.series, Kind: cs.Kind, Dashed: dashed, Points: cs.Points})
				}
			}
			warnings, notes = b.Warnings, b.Notes
		}
		s.Name = in.Label
		if s = shiftedFrom(s, origin, co.Time); len(s.Points) == 0 {
			continue
		}
		g.Series = append(g.Series, s)
		for _, w := range warnings { // said once, whichever drawn inputs say it
			if !slices.Contains(g.Warnings, w) {
				g.Warnings = append(g.Warnings, w)
			}
		}
		if in.L.Stats[in.L.Dir].Path.NearbyPeer {
			proxies = append(proxies, Warning{Kind: NoteProxyACKs, Label: in.Label})
		}
		for _, n := range notes { // what each drawn input's line stands on, said of that input
			if basisNote(n.Kind) {
				n.Label = in.Label
				g.Notes = append(g.Notes, n)
			}
		}
		for _, c := range with {
			if cs := shiftedFrom(c, origin, co.Time); len(cs.Points) > 0 {
				cs.Of = in.Label
				cs.Name = in.Label + " " + cs.Name
				g.Series = append(g.Series, cs)
			}
		}
	}
	g.Notes = append(g.Notes, proxies...) // after the inputs' own
	return g
}

// basisNote tells whether a graph's note of kind k says what its line
// stands on (a cwnd estimate at a receiver, without the handshake, with
// its window misread, BBR's cap): a comparison says it of each input
// whose graph says it.
func basisNote(k WarningKind) bool {
	return k == NoteReceiverFlight || k == NoteNoHandshake || k == NoteWindowMisread || k == NoteBBRCap
}

// shiftedFrom is s with its times from origin, and only those in r.
func shiftedFrom(s Series, origin int64, r Range) Series {
	kept := s.Points[:0:0]
	for _, p := range s.Points {
		p.Time -= origin
		if r.contains(p.Time) {
			kept = append(kept, p)
		}
	}
	s.Points = kept
	return s
}

// CompareRow is one line of compare's table: the main numbers of one
// compared connection direction.
type CompareRow struct {
	Label    string // --label, or the input as named
	Input    string // the input as named
	Stream   int
	Dir      reassembly.Direction
	Src, Dst netip.AddrPort
	Transfer Transfer
	Stats    *DirStats // of the compared direction
	// ThroughputRatio is the throughput over the first input's;
	// HasRatio is false when either is not measurable.
	ThroughputRatio float64
	HasRatio        bool
	// NearbyPeer: the receiver answers within a millisecond on a long
	// path (a split-connection proxy next to the capture): "delivered"
	// means acknowledged by the proxy, not by the far end.
	NearbyPeer bool
}

// compareRows is Compare's table.
func compareRows(ins []CompareInput, o TransferOptions) []CompareRow {
	var out []CompareRow
	var base float64
	for i, in := range ins {
		st := &in.L.Stats[in.L.Dir]
		r := CompareRow{Label: in.Label, Input: in.Input, Stream: in.L.Conn.Stream, Dir: in.L.Dir, Src: st.Src, Dst: st.Dst,
			Transfer: Summarize(in.L, o), Stats: st, NearbyPeer: st.Path.NearbyPeer}
		if r.Input == "" {
			r.Input = r.Label
		}
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

// merge returns the points of g's series called names as one series (of
// the first one's kind), in time order.
func merge(g *Graph, names []string) Series {
	var out Series
	for _, n := range names {
		if s := g.lookup(n); s != nil {
			if out.Points == nil {
				out.Kind = s.Kind
			}
			out.Points = append(out.Points, s.Points...)
		}
	}
	if len(names) > 1 {
		slices.SortStableFunc(out.Points, func(a, b Point) int { return cmp.Compare(a.Time, b.Time) })
	}
	return out
}
