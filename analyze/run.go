package analyze

import (
	"errors"
	"fmt"
	"net/netip"
	"runtime"
	"slices"

	"tcpviz/internal/batch"
	"tcpviz/internal/words"
	"tcpviz/reassembly"
)

// The pipeline: every command reads a capture through Run (one pass) or
// Load (the one or two passes a graph of one connection needs). Nothing
// else in tcpviz loops over a Scanner.

// ConnInfo is what `tcpviz streams` says of one connection: the tracker's
// view, without the analysis.
type ConnInfo struct {
	Stream         int
	Client, Server netip.AddrPort
	FirstTime      int64 // ns since the epoch
	Duration       int64 // ns
	Packets        [2]int64
	Bytes          [2]int64 // TCP payload bytes, by direction
	Duplicates     [2]int64 // capture duplicates, by direction
	State          string
	// Handshake: the three-way handshake was captured (the client's SYN,
	// the SYN/ACK, and the client's ACK of it or the server's data).
	Handshake bool
	// ZeekState and ZeekHistory are Zeek's conn_state and history
	// (reassembly.Conn.ZeekState); ZeekOrigClient is set when Zeek's
	// originator, whose letters are upper case, is the client.
	ZeekState, ZeekHistory string
	ZeekOrigClient         bool
}

// newConnInfo describes connection c.
func newConnInfo(c *reassembly.Conn) ConnInfo {
	ci := ConnInfo{Stream: c.Stream, Client: c.Client, Server: c.Server,
		FirstTime: c.FirstTime, Duration: c.Duration(), State: string(c.State()), Handshake: c.Handshake && c.HandshakeDone}
	ci.ZeekState, ci.ZeekHistory, ci.ZeekOrigClient = c.ZeekState()
	for d := range 2 {
		ci.Packets[d] = c.Dir[d].Packets
		ci.Bytes[d] = c.Dir[d].Bytes
		ci.Duplicates[d] = c.Dir[d].Duplicates
	}
	return ci
}

// ConnResult is one connection at the end of its life: what the tracker
// knew of it and, when the run analysed it, the statistics of both
// directions (indexed by reassembly.Direction).
type ConnResult struct {
	Info  ConnInfo
	Stats [2]DirStats
}

// RunOptions say what a Run computes.
type RunOptions struct {
	// Analyze runs the per-packet analysis (flags, RTT, statistics); off,
	// only the tracker's view of each connection is made (streams).
	Analyze bool
	// Keep is the stream whose records are kept for graphs, or -1.
	Keep int
	// KeepHint is how many records to expect for Keep (0: unknown).
	KeepHint int
	// KeepTo, if set, receives Keep's records (reused afterwards), with
	// their segments, instead of RunResult.Records. It may run while the
	// tracker is ahead (reassembly.Scanner.PipelineTracker): of the
	// connection it reads only what does not change.
	KeepTo func(*reassembly.Conn, *reassembly.Segment, *Record)
	// OnConn, if set, receives every connection once it is retired, in
	// stream order (see reorder for the bound on what is held back). The
	// result is reused once OnConn returns: copy what is kept.
	OnConn func(*ConnResult)
	// OnSegment, if set, sees every segment in capture order with its
	// Record, the analysis in its Info, Proved included (without
	// Analyze, Keep or Also: nil, the tracker's view only); both are
	// reused afterwards. As KeepTo, it reads of the connection only what
	// the tracker does not change (reassembly.Scanner.PipelineTracker):
	// the tracker may be ahead.
	OnSegment func(*reassembly.Conn, *reassembly.Segment, *Record)
	// OnFlow, if set, receives every flow of any transport (TCP
	// connections, UDP flows, other IP protocols) once it ends, in order
	// of first packet; setting it turns on the decoding of datagrams that
	// are not TCP (flows.go).
	OnFlow func(*FlowResult)
	// OnDatagram, if set with OnFlow, sees every datagram that is not TCP,
	// with its flow (the datagram is reused afterwards).
	OnDatagram func(*reassembly.Datagram, *reassembly.Flow)
	// Select, if set, is the connections the busiest (and Top) are chosen
	// among (a --filter).
	Select func(*reassembly.Conn) bool
	// Top is how many of the connections that carried the most payload
	// RunResult.Top lists (0: none).
	Top int
	// Find, when not 0, is 1 + a stream whose size, main direction and
	// times RunResult.Found gives, as it gives the busiest's otherwise
	// (and whose Focus a later run may read alone); the busiest is then
	// not sought.
	Find int
	// Also are more connections whose records and statistics are kept,
	// as Keep's are (RunResult.Also): a few, chosen by an earlier Run's
	// Top, whose Packets say how many records to expect (0: unknown).
	Also []busy
	// AlsoTo, if set, receives the records of Also[i] as KeepTo does
	// Keep's, instead of RunResult.Also's Records.
	AlsoTo func(i int, c *reassembly.Conn, s *reassembly.Segment, r *Record)

	// scan, when set, overrides how the capture is scanned (the tests
	// compare the ways).
	scan scanMode
	// focus, when set, makes the run read only that connection (Keep),
	// found by an earlier run (RunResult.focus): see reassembly.Focus.
	focus *reassembly.Focus
}

// scanMode is how Run scans a capture.
type scanMode int

const (
	scanAuto      scanMode = iota // pipelined on more than one core
	scanPlain                     // in the caller's goroutine
	scanPipe                      // reading and decoding ahead
	scanPipeTrack                 // reading, decoding and tracking ahead
)

// busy is the size of one connection, as Run ranks them.
type busy struct {
	Stream  int
	Bytes   int64 // TCP payload bytes, both directions
	Packets int
	// Dir is its main direction (MainDirection), First and Last the
	// times of its first and last packets.
	Dir         reassembly.Direction
	First, Last int64
}

// RunResult is what a Run found besides what went to OnConn.
type RunResult struct {
	Packets int64 // packets read
	// Segments are the TCP segments among them.
	Segments int64
	Streams  int // connections seen
	// Busiest is the stream that carried the most payload (the first of
	// equals), -1 when there was no connection; BusiestPackets its
	// packets, BusiestDir its main direction, BusiestFirst and
	// BusiestLast the times of its first and last packets.
	Busiest                   int
	BusiestPackets            int
	BusiestDir                reassembly.Direction
	BusiestFirst, BusiestLast int64
	// Found is the connection RunOptions.Find named, nil if absent.
	Found *busy
	// Flows counts the datagram flows seen (with OnFlow).
	Flows int
	// Kept is the connection RunOptions.Keep named, nil if absent, with
	// its records (both directions, capture order) and statistics.
	Kept    *reassembly.Conn
	Records []Record
	Stats   [2]DirStats
	// Top are the RunOptions.Top connections that carried the most
	// payload, most first (the first stream of equals first).
	Top []busy
	// Also are the connections of RunOptions.Also found in the capture,
	// in the order asked for, each in its main direction.
	Also []*Loaded
	// Warnings are per-packet problems that did not stop the scan,
	// condensed to one per kind.
	Warnings []Warning
	// focus is the busiest connection (or Found) as a later run can read
	// it alone, when it can (focusable: no connection retired while open
	// came back); base its directions' final bases.
	focus     reassembly.Focus
	base      [2]uint64
	focusable bool
}

// Run reads one capture in one pass. The error, when not nil, is the
// damage that stopped the read; what was read before it is in the result
// (and was given to OnConn).
func Run(r *reassembly.Reader, o RunOptions) (*RunResult, error) {
	res := &RunResult{Busiest: -1}
	sc := reassembly.NewScanner(r)
	var a *analyzer
	if o.Analyze || o.Keep >= 0 || len(o.Also) > 0 {
		a = newAnalyzer()
		defer a.close()
	}
	if o.focus != nil {
		sc.Focus(*o.focus) // before the pipeline starts reading
	}
	var fr *flowRun
	if o.OnFlow != nil {
		fr = newFlowRun(o.OnFlow)
		sc.Datagrams(func(d *reassembly.Datagram, f *reassembly.Flow) {
			fr.datagram(d, f)
			if o.OnDatagram != nil {
				o.OnDatagram(d, f)
			}
		})
		flows := sc.Flows()
		flows.OnNew = func(f *reassembly.Flow) { res.Flows++; fr.newFlow(f) }
		flows.OnRetire = fr.retireFlow
	} else {
		// Read, decode and track on one core, analyse on another (the
		// datagram path, for flows, stays on one). The analysis of every
		// connection reads of a connection, during the scan, only what
		// the tracker does not change (reassembly.Scanner.PipelineTracker)
		// and the rest when it is retired; so do KeepTo, AlsoTo and
		// OnSegment, and records are made of what the segment carries
		// (newRecord), not of the connection as the tracker has it by
		// then.
		mode := o.scan
		if mode == scanAuto {
			switch {
			case runtime.GOMAXPROCS(0) == 1:
				mode = scanPlain
			case a == nil:
				// Nothing but the tracker's work (a pass that ranks or lists
				// connections): one goroutine does it faster than two,
				// which would hand every segment from one core's cache to
				// the other's (streams of the bench capture: 0.27 s in one,
				// 0.30 s reading and decoding ahead, 0.43 s tracking ahead
				// too).
				mode = scanPlain
			default:
				mode = scanPipeTrack
			}
		}
		switch mode {
		case scanPipe:
			sc.Pipeline()
		case scanPipeTrack:
			if a == nil || o.OnSegment != nil {
				// (OnSegment's PacketInfo.Proved comes from the path
				// analysis as the segment is analysed: it stays here.)
				sc.PipelineTracker()
				break
			}
			// The path analysis, and tcptrace's RTT state of the
			// connections whose records are not kept, go with the tracker:
			// the two goroutines then share the work more equally (see
			// ahead).
			// (Without Analyze, the analysis reads the kept connections
			// only: the others' RTT state would be work for nothing.)
			a.ahead = newAhead(func(stream int) bool { return !o.Analyze || stream == o.Keep || alsoIndex(o.Also, stream) >= 0 })
			sc.PipelineTrackerAhead(a.ahead.track, a.ahead.retire)
		}
		defer sc.Close()
	}

	var ro *ordered[*ConnResult] // in stream order
	var spare []*ConnResult      // results OnConn is done with, for reuse
	if o.OnConn != nil {
		ro = &ordered[*ConnResult]{pending: map[int]*ConnResult{}, sink: func(cr *ConnResult) {
			o.OnConn(cr)
			spare = append(spare, cr)
		}}
	}
	var bestBytes int64 = -1
	also := make([]*alsoKept, len(o.Also))
	trk := sc.Tracker()
	trk.OnNew = func(c *reassembly.Conn) {
		res.Streams++
		if fr != nil {
			fr.newConn(c)
		}
	}
	trk.OnRetire = func(c *reassembly.Conn) {
		if fr != nil {
			fr.retireConn(c)
		}
		selected := o.Select == nil || o.Select(c)
		if b := c.Dir[0].Bytes + c.Dir[1].Bytes; o.Find == 0 && selected && (b > bestBytes || b == bestBytes && c.Stream < res.Busiest) {
			res.Busiest, bestBytes = c.Stream, b
			res.BusiestPackets = int(c.Dir[0].Packets + c.Dir[1].Packets)
			res.BusiestDir = mainDirection(c)
			res.BusiestFirst, res.BusiestLast = c.FirstTime, c.LastTime
			res.focus, res.base = reassembly.FocusOf(c), [2]uint64{c.Dir[0].Base, c.Dir[1].Base}
		}
		if c.Stream == o.Find-1 && res.Found == nil {
			// Its first part, if a crowd retired it while open (then it
			// is not focusable).
			b := busyOf(c)
			res.Found = &b
			res.focus, res.base = reassembly.FocusOf(c), [2]uint64{c.Dir[0].Base, c.Dir[1].Base}
		}
		if o.Top > 0 && selected {
			res.Top = addBusy(res.Top, o.Top, busyOf(c))
		}
		if c.Stream == o.Keep && a != nil {
			res.Stats = a.stats(c)
		}
		if i := alsoIndex(o.Also, c.Stream); i >= 0 && also[i] != nil {
			// The Conn it ends with: that of its first SYN may be another.
			also[i].conn, also[i].stats = c, a.stats(c)
		}
		if ro != nil {
			var cr *ConnResult
			if n := len(spare); n > 0 {
				cr, spare = spare[n-1], spare[:n-1]
			} else {
				cr = new(ConnResult)
			}
			*cr = ConnResult{Info: newConnInfo(c)}
			if o.Analyze {
				cr.Stats = a.stats(c)
			}
			ro.add(c.Stream, cr)
		}
		if a != nil {
			a.forget(c)
		}
	}
	recs := records{all: make([]Record, 0, max(o.KeepHint, 0))}
	var kept Record // given to KeepTo
	var info PacketInfo
	var shown Record // given to OnSegment
	onSegment := func(c *reassembly.Conn, seg *reassembly.Segment, info PacketInfo) {
		shown = newRecord(seg, info)
		shown.Info.Proved = info.Proved // news of this segment, not kept
		o.OnSegment(c, seg, &shown)
	}
	for sc.Scan() {
		seg, c := sc.Segment(), sc.Conn()
		res.Segments++
		if fr != nil {
			fr.segment(c, seg)
		}
		if a == nil {
			if o.OnSegment != nil && !seg.InICMP {
				o.OnSegment(c, seg, nil)
			}
			continue
		}
		if seg.InICMP { // counted in its connection, drawn in no graph
			a.segment(c, seg)
			continue
		}
		ai := -1
		if len(o.Also) > 0 {
			ai = alsoIndex(o.Also, c.Stream)
		}
		switch {
		case o.Keep >= 0 && c.Stream == o.Keep:
			res.Kept = c
			info := a.segment(c, seg)
			if o.KeepTo != nil {
				kept = newRecord(seg, info)
				o.KeepTo(c, seg, &kept)
			} else {
				recs.add(newRecord(seg, info))
			}
			if o.OnSegment != nil {
				onSegment(c, seg, info)
			}
		case ai >= 0:
			if also[ai] == nil {
				also[ai] = &alsoKept{conn: c}
				if o.AlsoTo == nil {
					also[ai].recs.all = make([]Record, 0, o.Also[ai].Packets)
				}
			}
			info := a.segment(c, seg)
			if o.AlsoTo != nil {
				kept = newRecord(seg, info)
				o.AlsoTo(ai, c, seg, &kept)
			} else {
				also[ai].recs.add(newRecord(seg, info))
			}
			if o.OnSegment != nil {
				onSegment(c, seg, info)
			}
		case o.OnSegment != nil:
			onSegment(c, seg, a.segment(c, seg))
		case o.Analyze:
			a.addTo(c, seg, &info, false)
		}
	}
	if ro != nil {
		ro.flush()
	}
	if fr != nil {
		fr.ro.flush()
	}
	res.Records = recs.slice()
	for _, k := range also {
		if k != nil {
			res.Also = append(res.Also, &Loaded{Conn: k.conn, Dir: mainDirection(k.conn), Records: k.recs.slice(), Stats: k.stats})
		}
	}
	res.Packets = sc.Packets()
	res.Warnings = scanWarnings(sc)
	res.focusable = trk.Continued() == 0 && trk.Evicted() == 0
	if err := sc.Err(); err != nil {
		return res, fmt.Errorf("%w (%d packets before it were read)", err, sc.Packets())
	}
	return res, nil
}

// alsoKept is a connection of RunOptions.Also, while the run reads it.
type alsoKept struct {
	conn  *reassembly.Conn
	recs  records
	stats [2]DirStats
}

// alsoIndex is the index of stream in also, or -1.
func alsoIndex(also []busy, stream int) int {
	for i := range also {
		if also[i].Stream == stream {
			return i
		}
	}
	return -1
}

// busyOf is the size of connection c.
func busyOf(c *reassembly.Conn) busy {
	return busy{Stream: c.Stream, Bytes: c.Dir[0].Bytes + c.Dir[1].Bytes, Packets: int(c.Dir[0].Packets + c.Dir[1].Packets),
		Dir: mainDirection(c), First: c.FirstTime, Last: c.LastTime}
}

// addBusy adds b to top (most payload first, the lower stream first of
// equals), keeping at most n.
func addBusy(top []busy, n int, b busy) []busy {
	i := len(top)
	for i > 0 && (top[i-1].Bytes < b.Bytes || top[i-1].Bytes == b.Bytes && top[i-1].Stream > b.Stream) {
		i--
	}
	if i >= n {
		return top
	}
	top = slices.Insert(top, i, b)
	if len(top) > n {
		top = top[:n]
	}
	return top
}

// mainDirection is the direction of c that carried the most payload (c2s
// when equal).
func mainDirection(c *reassembly.Conn) reassembly.Direction {
	return reassembly.MainDirection([2]int64{c.Dir[reassembly.C2S].Bytes, c.Dir[reassembly.S2C].Bytes})
}

// Loaded is one connection of a capture, analysed: what graphs are drawn
// from.
type Loaded struct {
	Conn    *reassembly.Conn
	Dir     reassembly.Direction // the direction asked for, else the main one
	Records []Record
	// Graphs are the graphs LoadOptions.Graphs asked for, in order.
	Graphs []*Graph
	Stats  [2]DirStats
	// Warnings of the pass that analysed the connection.
	Warnings []Warning
	// AppLoss is, for an iperf3 UDP flow (LoadOptions.UDP), the datagrams lost so
	// far at each datagram, as iperf3 counts them (sequence gaps, less
	// late arrivals); nil otherwise.
	AppLoss []Point
	// Thinned: the graphs were thinned for pictures (LoadOptions.ThinOver)
	// though not asked to be.
	Thinned bool
	// Others are, with LoadOptions.Busiest, the other connections
	// analysed in the same pass, most payload first.
	Others []*Loaded
	// UDP is set on a UDP flow (LoadOptions.UDP): Conn.Stream is its udp.stream,
	// and what is "acknowledged" is what reached the capture point.
	UDP bool
	// transfer, when the records were not kept, is what Transfer needs
	// of them, gathered as they were read.
	transfer *transferAcc
}

// LoadOptions choose the connection of a Load.
type LoadOptions struct {
	Stream int // Wireshark's tcp.stream; -1: the connection with the most payload
	// Select, with Stream -1, is the flows the busiest is chosen among:
	// connections (as reassembly.ConnView shows them to it), and with UDP
	// or AnyTransport UDP flows (FlowResult.View); with Stream, whether
	// that UDP flow may be read (a connection given is read whatever it
	// says).
	Select reassembly.Filter
	// AnyTransport, with Stream -1, makes the main flow that of either
	// transport: in a capture whose packets are mostly not TCP, or where
	// Select matches no connection, the UDP flow that carried the most
	// payload (LoadOptions.UDP; of those Select matches), when it carried
	// more than the busiest TCP connection (iperf3's UDP test, not its TCP
	// control connection). With Busiest it comes first (the TCP ones in Others), its graphs
	// those a UDP flow has (GraphSpec.UDP), the others nil.
	AnyTransport bool
	Dir          int // a reassembly.Direction; -1: the direction with the most payload
	// UDP reads a UDP flow instead of a TCP connection: Stream is its
	// udp.stream (-1: the one that carried the most payload), read as a
	// connection-like Loaded (udp_load.go) in its main direction; the
	// other options are not read.
	UDP bool
	// OnConn, if set, receives every connection, analysed, in stream
	// order, during the pass that analyses the chosen one (reused once it
	// returns, as RunOptions.OnConn).
	OnConn func(*ConnResult)
	// Graphs, if set, are drawn of the chosen connection while it is
	// read (SeriesOptions.Conn and Dir are Load's): Loaded.Graphs holds
	// them and Loaded.Records stays nil, so that memory follows the
	// graphs, not the connection's length.
	Graphs []GraphRequest
	// Transfer gathers what Transfer needs (Summarize) while reading:
	// with it, or with Graphs, no records are kept.
	Transfer bool
	// Busiest, when not 0, analyses in the same pass, besides the chosen
	// connection, the others among the Busiest that carried the most
	// payload (Loaded.Others; as many packets as maxAlsoPackets allows),
	// reading the capture twice: the first pass ranks them.
	Busiest int
	// AlsoThin, with Busiest, thins the other connections' graphs (the
	// same Graphs) to that many columns (SeriesOptions.Thin; 0: not), and
	// the chosen one's too when it has more than ThinOver packets
	// (Loaded.Thinned; 0: never).
	AlsoThin, ThinOver int
	// Pack, with Busiest, keeps the points of long series packed, in a
	// quarter of their memory, until Graph.Unpack: the chosen
	// connection's as they are read, and every thinned series once
	// thinned: for a caller that draws the graphs one at a time.
	Pack bool

	// whole, set by tests, makes the second pass read every connection,
	// as it does when OnConn is set.
	whole bool
	// thinned: loadBusiest thinned Graphs for ThinOver.
	thinned bool
}

// GraphRequest is one graph Load draws.
type GraphRequest struct {
	Spec   GraphSpec
	Series SeriesOptions
	Params GraphParams
}

// noConnError is returned by Load when the capture holds no connection, or
// not the one asked for: valid flags that select nothing in this input.
type noConnError struct {
	Stream  int // asked for; -1: any
	Streams int // connections in the capture
}

func (e *noConnError) Error() string {
	if e.Streams == 0 {
		return "no TCP connection in the capture"
	}
	return fmt.Sprintf("no stream %d (the capture has streams 0 to %d)", e.Stream, e.Streams-1)
}

// Load reads the connection o names from a capture. open is called once
// when the stream is given and the graphs asked for need nothing of it
// beforehand (Passes), twice otherwise: a first pass finds the connection
// with the most payload, or the given one's times and numbering, the
// second analyses the connection (alone when it can: see
// reassembly.Focus) and keeps its records or draws its graphs. The error
// of a damaged capture comes with what was read before the damage, when
// that includes the connection.
func Load(open func() (*reassembly.Reader, error), o LoadOptions) (*Loaded, error) {
	if o.UDP {
		return loadUDP(open, o.Stream, o.Select)
	}
	if o.Busiest > 0 {
		ls, err := loadBusiest(open, o)
		if len(ls) == 0 {
			return nil, err
		}
		ls[0].Others = ls[1:]
		return ls[0], err
	}
	stream, hint := o.Stream, 0
	var only *focused
	if o.Passes() == 2 {
		r, err := open()
		if err != nil {
			return nil, err
		}
		ro := RunOptions{Keep: -1, Select: connSelect(o.Select)}
		if stream >= 0 {
			ro.Find = stream + 1
		}
		res, err := Run(r, ro)
		b := res.chosen(stream)
		var uerr error // the busiest UDP flow's, when sought
		if o.AnyTransport && stream < 0 && err == nil && (res.Segments*2 < res.Packets || b == nil && o.Select != nil) {
			var u *Loaded
			if u, uerr = loadUDP(open, -1, o.Select); uerr == nil && (b == nil || u.Stats[u.Dir].DataBytes+u.Stats[u.Dir.Reverse()].DataBytes > b.Bytes) {
				return u, nil
			}
		}
		if b == nil {
			if err != nil {
				return nil, err
			}
			return nil, noConn(o, stream, res.Streams, uerr)
		}
		stream, hint = b.Stream, b.Packets
		if o.Dir < 0 {
			o.Dir = int(b.Dir)
		}
		o.Graphs = thinFor(o.Graphs, b.First, b.Last)
		for i := range o.Graphs {
			// Absolute numbers count from the final bases, known now.
			o.Graphs[i].Series.bases, o.Graphs[i].Series.hasBases = res.base, true
		}
		if err == nil && res.focusable && o.OnConn == nil && !o.whole {
			// The second pass reads that connection alone; the first
			// decoded every packet, so its warnings are the capture's.
			only = &focused{focus: res.focus, warnings: res.Warnings}
		}
	} else {
		o.Graphs = thinFor(o.Graphs, 0, -1)
	}
	ls, err := loadPass(open, o, stream, hint, nil, only)
	if ls == nil {
		return nil, err
	}
	return ls[0], err
}

// Passes is how many times Load reads the capture: twice to find the
// busiest connection, or when the graphs need the chosen one's times
// (thinned for a picture) or final numbering (absolute sequence numbers)
// before it is read; once otherwise.
func (o LoadOptions) Passes() int {
	if o.Stream < 0 || o.Busiest > 0 {
		return 2
	}
	for _, q := range o.Graphs {
		if q.Series.Thin.Cols > 0 || q.Series.AbsoluteSeq {
			return 2
		}
	}
	return 1
}

// thinFor readies the thinning of the graphs qs asks for for a
// connection from first to last (ns since the epoch; last < first:
// unknown, nothing is thinned).
func thinFor(qs []GraphRequest, first, last int64) []GraphRequest {
	qs = slices.Clone(qs)
	for i := range qs {
		o := &qs[i].Series
		if o.Thin.Cols == 0 {
			continue
		}
		if last < first {
			o.Thin.Cols = 0
			continue
		}
		o.Thin.From, o.Thin.To = first, last
		if o.Time.HasMin {
			o.Thin.From = max(first, first+o.Time.Min)
		}
		if o.Time.HasMax {
			o.Thin.To = min(last, first+o.Time.Max)
		}
	}
	return qs
}

// focused is the connection a second pass reads alone, and the warnings
// of the first pass, which read everything.
type focused struct {
	focus    reassembly.Focus
	warnings []Warning
}

// loadPass is the analysing pass of Load and loadBusiest: it keeps the
// records, or draws the graphs, of stream (hint of them expected) and of
// also, and returns the stream's connection first, then also's. With
// only, it reads only that connection (stream, without also).
func loadPass(open func() (*reassembly.Reader, error), o LoadOptions, stream, hint int, also []busy, only *focused) ([]*Loaded, error) {
	r, err := open()
	if err != nil {
		return nil, err
	}
	ro := RunOptions{Analyze: o.OnConn != nil, Keep: stream, KeepHint: hint, OnConn: o.OnConn, Also: also}
	if only != nil {
		ro.focus = &only.focus
	}
	gb := newGraphBuild(o.Graphs, o.Dir, o.Transfer)
	// The graphs are drawn on a core of their own where there is one.
	add := func(gb *graphBuild, c *reassembly.Conn, s *reassembly.Segment, r *Record) {
		gb.add(c, s.ConnFirstTime, r)
	}
	var async *batch.Handoff[graphRecord]
	if gb != nil && runtime.GOMAXPROCS(0) > 1 {
		async = batch.New(func(g *graphRecord) error {
			g.gb.add(g.c, g.first, &g.rec)
			return nil
		}, nil, "drawing a graph")
		add = func(gb *graphBuild, c *reassembly.Conn, s *reassembly.Segment, r *Record) {
			g := async.Next() // the record copied in place, into the batch
			g.gb, g.c, g.first, g.rec = gb, c, s.ConnFirstTime, *r
		}
	}
	if gb != nil {
		ro.KeepTo = func(c *reassembly.Conn, s *reassembly.Segment, r *Record) { add(gb, c, s, r) }
		ro.KeepHint = 0
	}
	var alsoGB []*graphBuild
	if gb != nil && len(also) > 0 {
		alsoGB = make([]*graphBuild, len(also))
		for i, b := range also {
			alsoGB[i] = newGraphBuild(thinAll(o.Graphs, o.AlsoThin, b), int(b.Dir), o.Transfer)
		}
		ro.AlsoTo = func(i int, c *reassembly.Conn, s *reassembly.Segment, r *Record) { add(alsoGB[i], c, s, r) }
	}
	res, err := Run(r, ro)
	if async != nil {
		if aerr := async.Finish(); aerr != nil {
			return nil, aerr
		}
	}
	if res.Kept == nil {
		if err != nil {
			return nil, err
		}
		return nil, &noConnError{Stream: stream, Streams: res.Streams}
	}
	l := &Loaded{Conn: res.Kept, Dir: mainDirection(res.Kept), Records: res.Records, Stats: res.Stats, Warnings: res.Warnings, Thinned: o.thinned}
	if only != nil {
		l.Warnings = only.warnings
	}
	if o.Dir >= 0 {
		l.Dir = reassembly.Direction(o.Dir)
	}
	switch {
	case gb != nil:
		l.Graphs, l.transfer = gb.graphs(l.Conn, l.Dir, &l.Stats[l.Dir])
	case len(o.Graphs) > 0:
		// Absolute sequence numbers count from each direction's final
		// base: drawn from the records, at the end (newGraphBuild).
		for _, q := range o.Graphs {
			so := q.Series
			so.Conn, so.Dir, so.Stats = l.Conn, l.Dir, &l.Stats[l.Dir]
			l.Graphs = append(l.Graphs, q.Spec.Draw(l.Records, so, q.Params))
		}
		l.Records = nil
	}
	for _, a := range res.Also {
		if i := alsoIndex(also, a.Conn.Stream); alsoGB != nil && i >= 0 {
			a.Dir = also[i].Dir
			a.Graphs, a.transfer = alsoGB[i].graphs(a.Conn, a.Dir, &a.Stats[a.Dir])
		}
	}
	return append([]*Loaded{l}, res.Also...), err
}

// loadBusiest reads the connection o names, as Load does, and with it
// the o.Busiest connections that carried the most payload, all analysed
// in the same pass. open is called twice: a first pass (the tracker
// alone) ranks the connections. The result holds o's connection first,
// then the others of the busiest, most payload first.
func loadBusiest(open func() (*reassembly.Reader, error), o LoadOptions) ([]*Loaded, error) {
	n := o.Busiest
	r, err := open()
	if err != nil {
		return nil, err
	}
	ro := RunOptions{Keep: -1, Top: n, Select: connSelect(o.Select)}
	if o.Stream >= 0 {
		ro.Find = o.Stream + 1
	}
	reqs := o.Graphs
	first, err := Run(r, ro)
	main := first.chosen(o.Stream)
	anyUDP := o.AnyTransport && o.Stream < 0
	if main == nil {
		if err != nil {
			return nil, err
		}
		var uerr error
		if anyUDP {
			// No TCP connection: the busiest UDP flow is the main one.
			var u *Loaded
			if u, uerr = loadUDPGraphs(open, reqs, o.Select); uerr == nil {
				return []*Loaded{u}, nil
			}
		}
		return nil, noConn(o, o.Stream, first.Streams, uerr)
	}
	if o.Dir < 0 {
		o.Dir = int(main.Dir)
	}
	if o.ThinOver > 0 && main.Packets > o.ThinOver {
		o.Graphs, o.thinned = thinAll(o.Graphs, o.AlsoThin, *main), true
	}
	o.Graphs = thinFor(o.Graphs, main.First, main.Last)
	for k := range o.Graphs {
		o.Graphs[k].Series.Thin.pack = o.Pack // the others' too (thinAll)
	}
	var also []busy
	budget := maxAlsoPackets
	for _, b := range first.Top {
		if b.Stream != main.Stream && b.Packets <= budget {
			budget -= b.Packets
			also = append(also, b)
		}
	}
	ls, err := loadPass(open, o, main.Stream, main.Packets, also, nil)
	if anyUDP && err == nil && first.Segments*2 < first.Packets {
		// Mostly other packets than TCP: a UDP flow that carried more
		// is the main one (iperf3's UDP test before its control
		// connection).
		if u, uerr := loadUDPGraphs(open, reqs, o.Select); uerr == nil && u.Stats[u.Dir].DataBytes+u.Stats[u.Dir.Reverse()].DataBytes > main.Bytes {
			ls = append([]*Loaded{u}, ls...)
		}
	}
	return ls, err
}

// loadUDPGraphs loads the busiest UDP flow with the graphs of reqs a UDP
// flow has, drawn as Load draws them.
func loadUDPGraphs(open func() (*reassembly.Reader, error), reqs []GraphRequest, sel reassembly.Filter) (*Loaded, error) {
	u, err := loadUDP(open, -1, sel)
	if err != nil {
		return nil, err
	}
	for i, req := range thinFor(reqs, u.Conn.FirstTime, u.Conn.LastTime) {
		if req.Spec.UDP {
			if u.Graphs == nil {
				u.Graphs = make([]*Graph, len(reqs))
			}
			so := req.Series
			so.Conn, so.Dir = u.Conn, u.Dir
			u.Graphs[i] = req.Spec.Draw(u.Records, so, req.Params)
		}
	}
	return u, nil
}

// chosen is the connection a first pass found: stream (RunOptions.Find),
// or the busiest when stream < 0; nil if none.
func (res *RunResult) chosen(stream int) *busy {
	if stream >= 0 || res.Busiest < 0 {
		return res.Found
	}
	return &busy{Stream: res.Busiest, Packets: res.BusiestPackets, Dir: res.BusiestDir, First: res.BusiestFirst, Last: res.BusiestLast}
}

// thinAll is qs thinned to cols columns (0: as they are) for connection b.
func thinAll(qs []GraphRequest, cols int, b busy) []GraphRequest {
	qs = slices.Clone(qs)
	for k := range qs {
		if cols > 0 {
			qs[k].Series.Thin.Cols = cols
		}
	}
	if cols <= 0 {
		return qs
	}
	return thinFor(qs, b.First, b.Last)
}

// maxAlsoPackets bounds the packets of the connections loadBusiest draws
// besides the chosen one (their graphs are thinned, but drawing costs
// time; their records are kept without Graphs): those that do not fit
// are left out, the largest first.
const maxAlsoPackets = 1 << 19

// Warning is a problem a scan met that did not stop it: what kind, the
// first packet it concerns (0: none), how many (packets, connections or
// datagrams, by kind), and for some kinds the link type or the first
// error. A graph's warnings and notes (Graph.Warnings, Graph.Notes) are
// Warnings too, of the graph kinds, with their numbers. Commands say them
// in words (charts.WarningText).
type Warning struct {
	Kind     WarningKind
	Packet   int64
	Count    int64
	LinkType int   // WarnUnknownLink: the link type
	Err      error // WarnMalformed, WarnDatagramMalformed: the first decoding error, if kept
	// Label is the compared input a note of a comparison is about
	// (NoteProxyACKs and the cwnd notes; "" on the connection's own
	// graph), or the parameter of the WarnLogX kinds, whose Values are
	// the values concerned, as the table shows them.
	Label, Values string
	// Window and RTT are WarnShortWindow's averaging window and median
	// round trip, in ns.
	Window, RTT int64
	// Step is WarnClockBack's largest step back, in ns.
	Step int64
}

// WarningKind is what a Warning is about.
type WarningKind uint8

// Warning kinds.
const (
	WarnContinued          WarningKind = iota + 1 // connections retired while open came back (Count)
	WarnEvicted                                   // connections retired while open forgotten (Count)
	WarnBadTime                                   // packets timed beyond nanoseconds since 1970 (Count, from Packet)
	WarnNoTime                                    // packets without a timestamp (Count, from Packet)
	WarnMalformed                                 // packets that could not be decoded (Count, Err)
	WarnUnknownLink                               // packets of an unsupported link type (Count, from Packet, LinkType)
	WarnFragIncomplete                            // fragmented datagrams carrying TCP, incomplete (Count, from Packet)
	WarnDatagramIncomplete                        // other fragmented datagrams, incomplete (Count, from Packet)
	WarnDatagramMalformed                         // datagrams that could not be decoded (Count, Err)
	WarnClockBack                                 // steps back of the capture's clock (Count, from Packet, the largest Step)
	WarnOther                                     // packets of other problems (Count)

	// What a graph says beside its picture: warnings (Graph.Warnings)
	// and notes under its legend (Graph.Notes).
	WarnNoRTTWindow     // an averaging window in RTTs with no RTT sample: 1 s
	WarnShortWindow     // an averaging window shorter than four median RTTs (Window, RTT)
	WarnFarEndEstimated // a ladder of one capture: the far end's times estimated
	WarnLogXNames       // --log-x on a parameter whose values are not all numbers (Label, Values)
	WarnLogXNonPositive // --log-x: values at or below zero left out (Label, Values)
	NoteProxyACKs       // ACKs from a proxy beside the capture (Label: a compared input)
	NoteReceiverFlight  // a cwnd graph at a receiver-side capture: the data arrived per round trip (Label: a compared input)
	NoteBBRCap          // a BBR sender's cwnd graph: BBR's own cap (Label: a compared input)
	NoteNoHandshake     // a cwnd graph of a connection whose handshake was not captured in full: SACK read from the data, window scale unknown (Label: a compared input)
	NoteWindowMisread   // a cwnd graph whose receive window as read the flight ran past: its scale unseen, not drawn (Label: a compared input)
)

// scanWarnings condenses a scan's per-packet problems into a few: one per
// kind.
func scanWarnings(sc *reassembly.Scanner) []Warning {
	var out []Warning
	if n := sc.Tracker().Continued(); n > 0 {
		out = append(out, Warning{Kind: WarnContinued, Count: int64(n)})
	}
	if n := sc.Tracker().Evicted(); n > 0 {
		out = append(out, Warning{Kind: WarnEvicted, Count: int64(n)})
	}
	st := sc.Stats()
	if n := st.BadTime; n > 0 {
		out = append(out, Warning{Kind: WarnBadTime, Packet: st.FirstBadTime, Count: n})
	}
	if n := st.NoTime; n > 0 {
		out = append(out, Warning{Kind: WarnNoTime, Packet: st.FirstNoTime, Count: n})
	}
	if n := st.ClockBack; n > 0 {
		out = append(out, Warning{Kind: WarnClockBack, Packet: st.FirstClockBack, Count: n, Step: st.MaxClockBack})
	}
	ws, more := sc.Warnings()
	if n := st.Malformed; n > 0 {
		w := Warning{Kind: WarnMalformed, Count: n}
		if len(ws) > 0 {
			w.Err = ws[0]
		}
		out = append(out, w)
	}
	if n := st.UnknownLink; n > 0 {
		out = append(out, Warning{Kind: WarnUnknownLink, Packet: st.FirstUnknown, Count: n, LinkType: int(st.UnknownType)})
	}
	if n := st.FragIncomplete; n > 0 {
		out = append(out, Warning{Kind: WarnFragIncomplete, Packet: st.FirstFragIncomplete, Count: n})
	}
	ds := sc.DatagramStats()
	if n := ds.Incomplete; n > 0 {
		out = append(out, Warning{Kind: WarnDatagramIncomplete, Packet: ds.FirstIncomplete, Count: n})
	}
	if n := ds.Malformed; n > 0 {
		out = append(out, Warning{Kind: WarnDatagramMalformed, Count: n, Err: sc.DatagramError()})
	}
	if more > 0 && len(out) == 0 {
		out = append(out, Warning{Kind: WarnOther, Count: more})
	}
	return out
}

// plural formats a count with a noun: "1 packet", "2 packets".
func plural(n int64, noun string) string { return words.Plural(n, noun) }

// maxPendingConns bounds the connections held back to keep stream order.
const maxPendingConns = 10000

// records collects a connection's records. When the number to expect is
// known, they go straight into one slice of that size; otherwise into
// chunks joined at the end: growing one slice of a million records copies
// it again and again, in steps the garbage collector cannot interrupt.
type records struct {
	all    []Record
	chunks [][]Record
	n      int
}

const recordChunk = 1 << 14

func (r *records) add(rec Record) {
	if len(r.all) < cap(r.all) {
		r.all = append(r.all, rec)
		return
	}
	if r.n%recordChunk == 0 {
		r.chunks = append(r.chunks, make([]Record, 0, recordChunk))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, rec)
	r.n++
}

func (r *records) slice() []Record {
	if r.n == 0 {
		return r.all
	}
	out := make([]Record, len(r.all)+r.n)
	off := copy(out, r.all)
	for i, c := range r.chunks {
		off += copy(out[off:], c)
		r.chunks[i] = nil
	}
	return out
}

// connSelect is sel as RunOptions.Select: nil without a filter.
func connSelect(sel reassembly.Filter) func(*reassembly.Conn) bool {
	if sel == nil {
		return nil
	}
	return func(c *reassembly.Conn) bool {
		v := reassembly.ConnView(c)
		return sel.Match(&v)
	}
}

// noConn is the error of a Load that found no connection to read: none
// of those Select takes (nor of the UDP flows, when udpErr, the busiest
// UDP flow's error, says so), or not stream.
func noConn(o LoadOptions, stream, streams int, udpErr error) error {
	var none *noUDPMatchError
	if o.Select != nil && stream < 0 && errors.As(udpErr, &none) {
		return fmt.Errorf("no connection or flow matches the filter (the capture has %s and %s)", plural(int64(streams), "connection"), plural(int64(none.Flows), "UDP flow"))
	}
	if o.Select != nil && stream < 0 {
		return fmt.Errorf("no connection of the %s matches the filter", plural(int64(streams), "connection"))
	}
	return &noConnError{Stream: stream, Streams: streams}
}
