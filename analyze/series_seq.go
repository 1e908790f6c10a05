package analyze

import (
	"cmp"
	"slices"

	"tcpviz/reassembly"
)

// Series names of the time/sequence graphs.
const (
	SeriesData        = "data"
	SeriesRetrans     = "retransmission"
	SeriesOutOfOrder  = "out-of-order"
	SeriesLost        = "lost-segment"
	SeriesAck         = "ack"
	SeriesRecvWindow  = "window"
	SeriesSACK        = "sack"
	SeriesDSACK       = "dsack"
	SeriesSpurious    = "spurious-retransmission"
	SeriesDupAck      = "dup-ack"
	SeriesZeroWindow  = "zero-window"
	SeriesSYN         = "syn"
	SeriesFIN         = "fin"
	SeriesRST         = "rst"
	SeriesThroughput  = "throughput"
	SeriesGoodput     = "goodput"
	SeriesDelivery    = "delivery-rate"
	SeriesRTT         = "rtt"
	SeriesRTTRepair   = "rtt-repair" // ack_rtt samples Karn's rule leaves out
	SeriesInFlight    = "bytes-in-flight"
	SeriesAdvertised  = "receive-window"
	seqAxisLabel      = "sequence number"
	seqAxisLabelAbs   = "sequence number (absolute)"
	seqColumn, endCol = "seq", "seq_end"
)

var seqSeriesOrder = []string{
	SeriesData, SeriesRetrans, SeriesOutOfOrder, SeriesSpurious, SeriesLost,
	SeriesAck, SeriesRecvWindow, SeriesSACK, SeriesDSACK, SeriesDupAck, SeriesZeroWindow,
	SeriesSYN, SeriesFIN, SeriesRST,
}

var stevensSeries = []string{SeriesData, SeriesRetrans, SeriesOutOfOrder, SeriesSpurious, SeriesSYN, SeriesFIN, SeriesRST}

// A reset's window field advertises nothing (the connection ends with
// it), yet a proxy may fill it with a large value (3.98 MB behind the
// lab's PEP) that would stretch the graph: the window lines skip it.

// tcptraceGraph builds the tcptrace-style time/sequence graph of direction
// o.Dir of a connection from its records (both directions, capture
// order): every data segment as a bar from seq to seq+len (in the series
// data, retransmission, out-of-order or spurious retransmission, by the
// path's verdict: see dataSeries; each data segment is in exactly one of
// them), lost-segment marks, the receiver's ACK line and window line (ack
// + scaled window) as steps, its SACK blocks as bars (D-SACK blocks
// apart), duplicate ACK and zero-window marks, and SYN/FIN/RST marks. A
// resent segment that a later D-SACK proves unneeded is moved to the
// spurious retransmissions.
func tcptraceGraph(recs []Record, o SeriesOptions) *Graph { return feed(newTCPTrace(o), recs) }

// seqBuilder is what the time/sequence graphs' builders share.
type seqBuilder struct {
	f   *frame
	set seriesSet
	sp  spuriousFinder
}

func newSeqBuilder(kind GraphKind, o SeriesOptions, columns ...string) seqBuilder {
	return seqBuilder{f: newSeqFrame(kind, o, columns...), set: seriesSet{thin: o.Thin}, sp: spuriousFinder{d: o.Dir}}
}

// tcptraceBuilder builds TCPTrace's graph record by record.
type tcptraceBuilder struct{ seqBuilder }

func newTCPTrace(o SeriesOptions) graphBuilder {
	return &tcptraceBuilder{newSeqBuilder(GraphTCPTrace, o, seqColumn, endCol)}
}

func (b *tcptraceBuilder) add(r *Record) {
	f, o, set := b.f, &b.f.o, &b.set
	resent := b.sp.add(r)
	if !f.inTime(r.Time) {
		return
	}
	pt := func(a, c int64) Point {
		return Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(a), float64(c)}}
	}
	mark := func(name string, v int64) {
		if o.Seq.contains(v) {
			set.add(name, Marks, pt(v, v))
		}
	}
	if r.Dir == o.Dir {
		s := f.seq(o.Dir, r.Seq)
		if r.Len > 0 && o.Seq.overlaps(s, s+int64(r.Len)) {
			name := dataSeries(r)
			p := pt(s, s+int64(r.Len))
			set.add(name, Bars, p)
			if resent != nil && name != SeriesSpurious {
				resent.drawn, resent.pt = true, p
			}
		}
		if r.Info.Flags&LostSegment != 0 {
			mark(SeriesLost, s)
		}
		f.flagMarks(r, s, mark)
		return
	}
	if r.Dir != o.Dir.Reverse() || !r.HasAck {
		return
	}
	a := f.seq(o.Dir, r.Ack)
	if o.Seq.contains(a) {
		set.add(SeriesAck, Steps, pt(a, a))
	}
	if r.Window >= 0 && r.Flags&reassembly.RST == 0 {
		if w := a + r.Window; o.Seq.contains(w) {
			set.add(SeriesRecvWindow, Steps, pt(w, w))
		}
	}
	_, _, dsack := dsackOf(r)
	for k := 0; k < r.NSACK; k++ {
		l, rr := f.seq(o.Dir, r.SACK[k][0]), f.seq(o.Dir, r.SACK[k][1])
		if rr > l && o.Seq.overlaps(l, rr) {
			name := SeriesSACK
			if k == 0 && dsack {
				name = SeriesDSACK
			}
			set.add(name, Bars, pt(l, rr))
		}
	}
	if r.Info.Flags&DupAck != 0 {
		mark(SeriesDupAck, a)
	}
	if r.Info.Flags&ZeroWindow != 0 {
		mark(SeriesZeroWindow, a)
	}
	f.flagMarks(r, a, mark)
}

func (b *tcptraceBuilder) graph() *Graph {
	g := b.f.g
	b.sp.move(&b.set, Bars, SeriesData, SeriesRetrans, SeriesOutOfOrder)
	g.Series = b.set.list(seqSeriesOrder...)
	for i := range g.Series {
		if g.Series[i].Kind != Bars {
			g.Series[i].Cols = 1
		}
	}
	return g
}

// flagMarks adds SYN, FIN and RST marks for record r at sequence value v.
func (f *frame) flagMarks(r *Record, v int64, mark func(string, int64)) {
	if r.Flags&reassembly.SYN != 0 {
		mark(SeriesSYN, v)
	}
	if r.Flags&reassembly.FIN != 0 {
		mark(SeriesFIN, v)
	}
	if r.Flags&reassembly.RST != 0 {
		mark(SeriesRST, v)
	}
}

// stevensGraph builds the Stevens-style time/sequence graph: the start sequence
// number of each data segment of direction o.Dir against its time, in the
// series of TCPTrace (dataSeries: data, retransmission, out-of-order,
// spurious retransmission), and SYN/FIN/RST marks.
func stevensGraph(recs []Record, o SeriesOptions) *Graph { return feed(newStevens(o), recs) }

// stevensBuilder builds Stevens's graph record by record.
type stevensBuilder struct{ seqBuilder }

func newStevens(o SeriesOptions) graphBuilder {
	return &stevensBuilder{newSeqBuilder(GraphStevens, o, seqColumn)}
}

func (b *stevensBuilder) add(r *Record) {
	f, o, set := b.f, &b.f.o, &b.set
	resent := b.sp.add(r)
	if r.Dir != o.Dir || !f.inTime(r.Time) {
		return
	}
	s := f.seq(o.Dir, r.Seq)
	mark := func(name string, v int64) {
		if o.Seq.contains(v) {
			set.add(name, Marks, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(v)}})
		}
	}
	if r.Len > 0 && o.Seq.contains(s) {
		name := dataSeries(r)
		p := Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(s)}}
		set.add(name, Dots, p)
		if resent != nil && name != SeriesSpurious {
			resent.drawn, resent.pt = true, p
		}
	}
	f.flagMarks(r, s, mark)
}

func (b *stevensBuilder) graph() *Graph {
	b.sp.move(&b.set, Dots, SeriesData, SeriesRetrans, SeriesOutOfOrder)
	b.f.g.Series = b.set.list(stevensSeries...)
	return b.f.g
}

// dataSeries is the series a data segment of the graphed direction is
// drawn in: by the path's verdict (PacketInfo.Path), what the path did —
// a resend of bytes the sender had sent before is a retransmission however
// Wireshark labels it (at a sender-side capture Wireshark calls most of
// them out-of-order, by their timing), a late original that was not resent
// is out-of-order, a resend known unneeded as it was seen is spurious.
// Records without a verdict (PathNone: keep-alives, capture duplicates,
// records made without the path analysis) are drawn by Wireshark's flags.
func dataSeries(r *Record) string {
	switch r.Info.Path {
	case PathNew:
		return SeriesData
	case PathRetransmitted, PathLostUpstream:
		return SeriesRetrans
	case PathSpurious:
		return SeriesSpurious
	case PathReordered:
		return SeriesOutOfOrder
	}
	switch {
	case r.Info.Flags&Retransmission != 0:
		return SeriesRetrans
	case r.Info.Flags&OutOfOrder != 0:
		return SeriesOutOfOrder
	}
	return SeriesData
}

// newSeqFrame starts a graph whose y axis is the sequence number.
func newSeqFrame(kind GraphKind, o SeriesOptions, columns ...string) *frame {
	f := newFrame(kind, o)
	f.g.Y = Axis{Label: seqAxisLabel, Unit: "B"}
	if o.AbsoluteSeq {
		f.g.Y.Label = seqAxisLabelAbs
	}
	f.g.Columns = columns
	f.seqWindow()
	return f
}

// dsackOf returns the D-SACK block of an ACK record, if it carries one
// (RFC 2883): a first SACK block below the cumulative ACK, or inside the
// second block.
func dsackOf(r *Record) (l, rr int64, ok bool) {
	if r.NSACK == 0 || !r.HasAck {
		return 0, 0, false
	}
	l, rr = r.SACK[0][0], r.SACK[0][1]
	if reassembly.IsDSACK(l, rr, r.Ack, r.NSACK > 1, r.SACK[1][0], r.SACK[1][1]) {
		return l, rr, true
	}
	return 0, 0, false
}

// maxResent bounds the resent segments spuriousFinder waits on.
const maxResent = 4096

// spuriousFinder finds, record by record, direction d's resent segments
// (starting below the highest byte sent before them, and not a late
// original by the path's verdict) that a later D-SACK block proves
// unneeded: the receiver already had those bytes. Each D-SACK block proves
// the latest resend it covers. The graphs draw a resent segment in its
// category (dataSeries) first and move it to the spurious retransmissions
// once proven (move); one already drawn as spurious stays where it is.
type spuriousFinder struct {
	d       reassembly.Direction
	pending []resent
	high    int64
	started bool
	proven  []Point        // the proven segments that were drawn
	frames  map[int64]bool // and their frames
}

// resent is a resent segment waiting for a D-SACK; pt is its point, when
// drawn.
type resent struct {
	seq, end, frame int64
	drawn           bool
	pt              Point
}

// add takes record r; for a resent segment it returns its entry, for the
// caller to note the point drawn.
func (sf *spuriousFinder) add(r *Record) *resent {
	if r.Dir == sf.d {
		if r.Len == 0 {
			return nil
		}
		end := r.Seq + int64(r.Len)
		var out *resent
		if sf.started && r.Seq < sf.high && r.Info.Path != PathReordered {
			if len(sf.pending) == maxResent {
				sf.pending = sf.pending[1:]
			}
			sf.pending = append(sf.pending, resent{seq: r.Seq, end: end, frame: r.Frame})
			out = &sf.pending[len(sf.pending)-1]
		}
		if !sf.started || end > sf.high {
			sf.high, sf.started = end, true
		}
		return out
	}
	l, rr, ok := dsackOf(r)
	if !ok {
		return nil
	}
	for k := len(sf.pending) - 1; k >= 0; k-- {
		if p := sf.pending[k]; p.seq >= l && p.end <= rr {
			if p.drawn {
				if sf.frames == nil {
					sf.frames = map[int64]bool{}
				}
				sf.frames[p.frame] = true
				sf.proven = append(sf.proven, p.pt)
			}
			sf.pending = append(sf.pending[:k], sf.pending[k+1:]...)
			break
		}
	}
	return nil
}

// move takes the proven segments out of the series named from and puts
// them in the spurious retransmissions (drawn as kind), with those drawn
// there at once, in capture order.
func (sf *spuriousFinder) move(set *seriesSet, kind SeriesKind, from ...string) {
	if len(sf.proven) == 0 {
		return
	}
	set.done()
	for _, name := range from {
		if sr := set.series(name); sr != nil {
			sr.Points = slices.DeleteFunc(sr.Points, func(p Point) bool { return sf.frames[p.Frame] })
			if sr.packed != nil {
				sr.packed = sr.packed.filter(func(p Point) bool { return !sf.frames[p.Frame] })
			}
		}
	}
	all := sf.proven
	if sr := set.series(SeriesSpurious); sr != nil {
		sr.unpack()
		all = append(sr.Points, all...)
		sr.Points = nil
	}
	slices.SortStableFunc(all, func(a, b Point) int { return cmp.Compare(a.Frame, b.Frame) })
	for _, p := range all {
		set.add(SeriesSpurious, kind, p)
	}
	sf.proven, sf.frames = nil, nil
}
