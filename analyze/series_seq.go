package analyze

import "tcpviz/reassembly"

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
	SeriesRTT         = "rtt"
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

var stevensSeries = []string{SeriesData, SeriesRetrans, SeriesSpurious, SeriesSYN, SeriesFIN, SeriesRST}

// A reset's window field advertises nothing (the connection ends with
// it), yet a proxy may fill it with a large value (3.98 MB behind the
// lab's PEP) that would stretch the graph: the window lines skip it.

// TCPTrace builds the tcptrace-style time/sequence graph of direction
// o.Dir of a connection from its records (both directions, capture
// order): every data segment as a bar from seq to seq+len (in the series
// data, retransmission or out-of-order, so each data segment is in exactly
// one of them), lost-segment marks, the receiver's ACK line and window
// line (ack + scaled window) as steps, its SACK blocks as bars (D-SACK
// blocks apart), duplicate ACK and zero-window marks, and SYN/FIN/RST
// marks. A resent segment that a later D-SACK proves unneeded is drawn as
// a spurious retransmission instead of its Wireshark category.
func TCPTrace(recs []Record, o SeriesOptions) *Graph {
	f := newSeqFrame(GraphTCPTrace, o, seqColumn, endCol)
	g := f.g
	var set seriesSet
	rev := o.Dir.Reverse()
	spurious := spuriousFrames(recs, o.Dir)
	for i := range recs {
		r := &recs[i]
		if !f.inTime(r.Time) {
			continue
		}
		pt := func(a, b int64) Point {
			return Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(a), float64(b)}}
		}
		mark := func(name string, v int64) {
			if o.Seq.Contains(v) {
				set.add(name, Marks, pt(v, v))
			}
		}
		if r.Dir == o.Dir {
			s := f.seq(o.Dir, r.Seq)
			if r.Len > 0 && o.Seq.Overlaps(s, s+int64(r.Len)) {
				name := SeriesData
				switch {
				case spurious[r.Frame]:
					name = SeriesSpurious
				case r.Info.Flags&Retransmission != 0:
					name = SeriesRetrans
				case r.Info.Flags&OutOfOrder != 0:
					name = SeriesOutOfOrder
				}
				set.add(name, Bars, pt(s, s+int64(r.Len)))
			}
			if r.Info.Flags&LostSegment != 0 {
				mark(SeriesLost, s)
			}
			f.flagMarks(r, s, mark)
			continue
		}
		if r.Dir != rev || !r.HasAck {
			continue
		}
		a := f.seq(o.Dir, r.Ack)
		if o.Seq.Contains(a) {
			set.add(SeriesAck, Steps, pt(a, a))
		}
		if r.Window >= 0 && r.Flags&reassembly.RST == 0 {
			if w := a + r.Window; o.Seq.Contains(w) {
				set.add(SeriesRecvWindow, Steps, pt(w, w))
			}
		}
		_, _, dsack := dsackOf(r)
		for k := 0; k < r.NSACK; k++ {
			l, rr := f.seq(o.Dir, r.SACK[k][0]), f.seq(o.Dir, r.SACK[k][1])
			if rr > l && o.Seq.Overlaps(l, rr) {
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
	g.Series = set.list(seqSeriesOrder...)
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

// Stevens builds the Stevens-style time/sequence graph: the start sequence
// number of each data segment of direction o.Dir against its time, with
// retransmissions as their own series, and SYN/FIN/RST marks.
func Stevens(recs []Record, o SeriesOptions) *Graph {
	f := newSeqFrame(GraphStevens, o, seqColumn)
	g := f.g
	var set seriesSet
	spurious := spuriousFrames(recs, o.Dir)
	for i := range recs {
		r := &recs[i]
		if r.Dir != o.Dir || !f.inTime(r.Time) {
			continue
		}
		s := f.seq(o.Dir, r.Seq)
		mark := func(name string, v int64) {
			if o.Seq.Contains(v) {
				set.add(name, Marks, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(v)}})
			}
		}
		if r.Len > 0 && o.Seq.Contains(s) {
			name := SeriesData
			switch {
			case spurious[r.Frame]:
				name = SeriesSpurious
			case r.Info.Flags&Retransmission != 0:
				name = SeriesRetrans
			}
			set.add(name, Dots, Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(s)}})
		}
		f.flagMarks(r, s, mark)
	}
	g.Series = set.list(stevensSeries...)
	return g
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
	if rr <= r.Ack || r.NSACK > 1 && l >= r.SACK[1][0] && rr <= r.SACK[1][1] {
		return l, rr, true
	}
	return 0, 0, false
}

// maxResent bounds the resent segments spuriousFrames waits on.
const maxResent = 4096

// spuriousFrames returns the frames of direction d's resent segments
// (starting below the highest byte sent before them) that a later D-SACK
// block proves unneeded: the receiver already had those bytes. Each
// D-SACK block proves the latest resend it covers.
func spuriousFrames(recs []Record, d reassembly.Direction) map[int64]bool {
	type resent struct{ seq, end, frame int64 }
	var pending []resent
	var out map[int64]bool
	var high int64
	started := false
	for i := range recs {
		r := &recs[i]
		if r.Dir == d {
			if r.Len == 0 {
				continue
			}
			end := r.Seq + int64(r.Len)
			if started && r.Seq < high {
				if len(pending) == maxResent {
					pending = pending[1:]
				}
				pending = append(pending, resent{r.Seq, end, r.Frame})
			}
			if !started || end > high {
				high, started = end, true
			}
			continue
		}
		l, rr, ok := dsackOf(r)
		if !ok {
			continue
		}
		for k := len(pending) - 1; k >= 0; k-- {
			if p := pending[k]; p.seq >= l && p.end <= rr {
				if out == nil {
					out = map[int64]bool{}
				}
				out[p.frame] = true
				pending = append(pending[:k], pending[k+1:]...)
				break
			}
		}
	}
	return out
}
