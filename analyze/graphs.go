package analyze

import (
	"slices"

	"tcpviz/reassembly"
)

// GraphKind names a graph: the stem of its derived file names and its key
// in the registry.
type GraphKind string

// The graphs tcpviz draws.
const (
	GraphTCPTrace   GraphKind = "seq"     // time/sequence, tcptrace style
	GraphStevens    GraphKind = "stevens" // time/sequence, Stevens style
	GraphThroughput GraphKind = "tput"    // throughput, goodput and delivery rate
	GraphRTT        GraphKind = "rtt"     // round-trip time samples
	GraphWindow     GraphKind = "window"  // bytes in flight and receive window
	GraphCwnd       GraphKind = "cwnd"    // estimated congestion window, ssthresh, losses
	GraphCompare    GraphKind = "compare" // one series per compared connection
)

// GraphParams are the choices a graph takes besides the connection and
// the window on it; each graph reads its own: the throughput graph its
// moving average, the RTT graph its samples and x axis.
type GraphParams struct {
	// Window is the throughput's averaging window in ns (like
	// Wireshark), used when Segments is 0. Zero means one second.
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

	// Sampling chooses the RTT graph's samples ("" is SampleAck).
	Sampling RTTSampling
	// BySeq makes the RTT graph's x the sequence number of the measured
	// segment.
	BySeq bool
}

// GraphSpec is one entry of the registry of graphs: every command that
// draws a graph (the graph commands, report, compare) and every title
// comes from here.
type GraphSpec struct {
	Kind GraphKind
	// Command is the tcpviz command that draws it (seq draws two styles).
	Command string
	// Style is the --style value choosing it within Command, if any.
	Style string
	// Title names the graph.
	Title string
	// Help says what the command draws (--help, the man page,
	// completion), and Params the parameters it takes besides the
	// shared ones (GraphParams: "style" picks among the command's
	// graphs, "window" is the throughput's averaging (--window,
	// --segments, --bins), "by" and "sampling" the RTT's), on the first
	// graph of each command.
	Help   string
	Params []ParamSpec
	// Series are the names of the series it may draw, in order.
	Series []string
	// UDP is set for the graphs a UDP flow has (LoadOptions.UDP's records: no
	// ACKs, so no RTT, flight or window).
	UDP bool
	// SeqWindow is set for the graphs a window of sequence numbers
	// (SeriesOptions.Seq) picks from: those with a sequence axis.
	SeqWindow bool
	// newBuilder starts the graph of the connection o names.
	newBuilder func(o SeriesOptions, p GraphParams) graphBuilder
	// compare is what compare overlays of it, nil when it is not one of
	// compare's graphs.
	compare *compareDef
}

// ParamSpec is a parameter a graph command takes besides the shared
// ones, as its flag says it: a choice among Choices (Default when not
// given), or, without Choices, the throughput's averaging window
// (--window, with --segments and --bins). Compare is set on those compare
// takes too: the parameters that change a series it overlays.
type ParamSpec struct {
	Name, Help, Default string
	Choices             []string
	Compare             bool
}

// The parameters of the graphs, by the name of their flag.
var (
	paramStyle = ParamSpec{Name: "style", Default: "tcptrace", Choices: []string{"tcptrace", "stevens"},
		Help: "tcptrace: segments, ACK and window lines, SACK, events; stevens: segment start against time"}
	paramWindow = ParamSpec{Name: "window", Compare: true,
		Help: "averaging window (like Wireshark): 1s, 200ms, seconds (at least 1µs), or rtt / 4rtt for one or four median round-trip times"}
	paramBy = ParamSpec{Name: "by", Default: "time", Choices: []string{"time", "seq"},
		Help: "x axis: the measured segment's send time, or its sequence number"}
	paramSampling = ParamSpec{Name: "sampling", Default: string(SampleAck), Compare: true, Choices: []string{string(SampleAck), string(SampleKarn), string(SampleTimestamps)},
		Help: "ack: Wireshark's ack_rtt; karn: tcptrace's samples (Karn's rule), as karn_rtt_* summarise them; timestamps: TSval/TSecr echo"}
)

// graphs is the registry, in the order a report shows them.
var graphs = []GraphSpec{
	{Kind: GraphTCPTrace, Command: "seq", Style: "tcptrace", Title: "Time/sequence (tcptrace)", Series: seqSeriesOrder, UDP: true, SeqWindow: true,
		Help: "time/sequence graph: --style tcptrace (segments, ACK and window lines, SACK, events) or stevens", Params: []ParamSpec{paramStyle},
		newBuilder: func(o SeriesOptions, _ GraphParams) graphBuilder { return newTCPTrace(o) }},
	{Kind: GraphStevens, Command: "seq", Style: "stevens", Title: "Time/sequence (Stevens)", Series: stevensSeries, UDP: true, SeqWindow: true,
		compare: &compareDef{kind: CompareSeq, help: "Stevens",
			series: []string{SeriesData, SeriesRetrans, SeriesOutOfOrder, SeriesSpurious}},
		newBuilder: func(o SeriesOptions, _ GraphParams) graphBuilder { return newStevens(o) }},
	{Kind: GraphThroughput, Command: "tput", Title: "Throughput", Series: []string{SeriesThroughput, SeriesGoodput, SeriesDelivery}, UDP: true,
		Help: "throughput, goodput and delivery rate over time, in bit/s", Params: []ParamSpec{paramWindow},
		compare:    &compareDef{kind: CompareThroughput, help: "goodput", title: "Goodput", series: []string{SeriesGoodput}},
		newBuilder: func(o SeriesOptions, p GraphParams) graphBuilder { return newThroughput(o, p) }},
	{Kind: GraphRTT, Command: "rtt", Title: "Round-trip time", Series: []string{SeriesRTT, SeriesRTTRepair}, SeqWindow: true,
		Help: "round-trip time samples over time or sequence number, in ms", Params: []ParamSpec{paramBy, paramSampling},
		compare:    &compareDef{kind: CompareRTT, series: []string{SeriesRTT, SeriesRTTRepair}},
		newBuilder: func(o SeriesOptions, p GraphParams) graphBuilder { return newRTT(o, p) }},
	{Kind: GraphWindow, Command: "window", Title: "Window", Series: []string{SeriesInFlight, SeriesInFlightUnSACKed, SeriesAdvertised},
		Help:       "bytes in flight (and, where the receiver SACKs, those not SACKed) against the advertised receive window",
		compare:    &compareDef{kind: CompareWindow, help: "bytes in flight", title: "Bytes in flight", series: []string{SeriesInFlight}},
		newBuilder: func(o SeriesOptions, _ GraphParams) graphBuilder { return newWindow(o) }},
	{Kind: GraphCwnd, Command: "cwnd", Title: "Congestion window (estimated)", Series: append(slices.Clip(cwndSeries), SeriesPipe, SeriesBDP, SeriesDelivery),
		Help: "estimated congestion window (the sender's pipe after each send), ssthresh at each loss, each round's delivery rate times the least RTT, receive window, loss, timeout and tail-loss-probe marks, congestion-state and window-unknown bands (sender-side captures); for a BBR sender its own cap, pipe and BDP estimate instead of window and ssthresh",
		compare: &compareDef{kind: CompareCwnd, help: "estimated", series: []string{SeriesCwnd},
			with: []companion{{SeriesSsthresh, "ssthresh"}, {SeriesFastLoss, "fast retransmit"}, {SeriesRTOLoss, "timeout"}}},
		newBuilder: func(o SeriesOptions, _ GraphParams) graphBuilder { return newCwnd(o) }},
}

// Graphs returns the entries of the registry of graphs command draws, in
// order ("": every graph, in report order): a graph command's styles, the
// first one its default (seq: tcptrace, then stevens), and none for a
// command that draws no graph. compare's entry is not in the registry, as
// Compare draws it from the inputs' graphs (not Draw): it holds the
// parameters compare takes, those of the graphs it overlays that change
// what it draws, then graph, what it overlays.
func Graphs(command string) []GraphSpec {
	if command == "compare" {
		return []GraphSpec{{Kind: GraphCompare, Command: command, Params: compareParams()}}
	}
	var out []GraphSpec
	for _, g := range graphs {
		if command == "" || g.Command == command {
			out = append(out, g)
		}
	}
	return out
}

// lookupGraph returns the registry entry of kind k.
func lookupGraph(k GraphKind) (GraphSpec, bool) {
	for _, g := range graphs {
		if g.Kind == k {
			return g, true
		}
	}
	return GraphSpec{}, false
}

// build draws the graph from one connection's records.
func (s GraphSpec) build(recs []Record, o SeriesOptions, p GraphParams) *Graph {
	return feed(s.newBuilder(o, p), recs)
}

// Draw builds the graph and gives it its title.
func (s GraphSpec) Draw(recs []Record, o SeriesOptions, p GraphParams) *Graph {
	if o.Thin.Cols > 0 && o.Thin.From == 0 && o.Thin.To == 0 && o.Conn != nil {
		// Thinned for a picture whose span nobody set (a UDP flow's
		// graph, drawn from its records): the connection's, as Load
		// sets it (thinFor); without it every point fell in one column.
		o = thinFor([]GraphRequest{{Spec: s, Series: o, Params: p}}, o.Conn.FirstTime, o.Conn.LastTime)[0].Series
	}
	g := s.build(recs, o, p)
	g.Title = s.Title
	return g
}

// graphBuild draws the graphs Load was asked for while the connection is
// read: for the direction asked for, or for both when the main one is
// known only at the end. It gathers what Transfer needs too.
type graphBuild struct {
	reqs []GraphRequest
	dirs []reassembly.Direction
	b    [2][]graphBuilder // by direction
	ta   [2]*transferAcc
}

// newGraphBuild readies reqs for direction dir (-1: both), and what
// Transfer needs; nil when there is nothing to draw nor transfer, or the
// graphs must be drawn from the records (absolute sequence numbers count
// from each direction's final base, which a SYN seen late can still move,
// unless a first pass gave it).
func newGraphBuild(reqs []GraphRequest, dir int, transfer bool) *graphBuild {
	if len(reqs) == 0 && !transfer {
		return nil
	}
	for _, q := range reqs {
		if q.Series.AbsoluteSeq && !q.Series.hasBases {
			return nil
		}
	}
	gb := &graphBuild{reqs: reqs, dirs: []reassembly.Direction{reassembly.C2S, reassembly.S2C}}
	if dir >= 0 {
		gb.dirs = []reassembly.Direction{reassembly.Direction(dir)}
	}
	return gb
}

// add takes the next record of connection c, whose first packet was at
// first (as the record's segment was tracked: the graphs' time 0). It
// reads of c only what the tracker does not change (Stream, endpoints).
func (gb *graphBuild) add(c *reassembly.Conn, first int64, r *Record) {
	if gb.ta[gb.dirs[0]] == nil {
		for _, d := range gb.dirs {
			for _, q := range gb.reqs {
				o := q.Series
				o.Conn, o.Dir, o.origin, o.hasOrigin = c, d, first, true
				gb.b[d] = append(gb.b[d], q.Spec.newBuilder(o, q.Params))
			}
			gb.ta[d] = newTransferAcc(d)
		}
	}
	for _, d := range gb.dirs {
		for _, b := range gb.b[d] {
			b.add(r)
		}
		gb.ta[d].add(r)
	}
}

// statsReader is a builder that reads the statistics of the direction
// it draws, known once the connection is read, before it draws
// (SeriesOptions.Stats).
type statsReader interface{ readStats(st *DirStats) }

// graphRecord is a record handed to the goroutine that draws the
// graphs (loadPass).
type graphRecord struct {
	gb    *graphBuild
	c     *reassembly.Conn
	first int64
	rec   Record
}

// graphs returns the graphs of direction d of connection c, titled, and
// what Transfer needs (nil when no record came); st are the direction's
// statistics (SeriesOptions.Stats).
func (gb *graphBuild) graphs(c *reassembly.Conn, d reassembly.Direction, st *DirStats) ([]*Graph, *transferAcc) {
	out := make([]*Graph, len(gb.reqs))
	for i, q := range gb.reqs {
		o := q.Series
		o.Conn, o.Dir, o.Stats = c, d, st
		if gb.b[d] == nil {
			out[i] = q.Spec.Draw(nil, o, q.Params)
			continue
		}
		if r, ok := gb.b[d][i].(statsReader); ok {
			r.readStats(st)
		}
		out[i] = gb.b[d][i].graph()
		out[i].Title = q.Spec.Title
		identify(out[i], o)
	}
	ta := gb.ta[d]
	gb.b, gb.ta = [2][]graphBuilder{}, [2]*transferAcc{}
	return out, ta
}
