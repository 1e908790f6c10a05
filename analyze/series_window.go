package analyze

import "tcpviz/reassembly"

// windowGraph builds the window graph of direction o.Dir: the bytes in
// flight at each segment sent (Wireshark's tcp.analysis.bytes_in_flight:
// from the segment's end, a resend's own end, down to the cumulative ACK,
// less the SACK blocks of the latest ACK alone); at each segment sent
// while the receiver held data SACKed above its cumulative ACK, from the
// highest byte sent down to the highest cumulative ACK less every range
// the receiver SACKed above it (SeriesInFlightUnSACKed: its whole
// scoreboard, not the three or four blocks one ACK carries, and without
// the cwnd graph's loss marking: what was lost stays counted until
// acknowledged). The two agree where the latest ACK carries every SACKed
// range; the second is lower where more holes were open than an ACK's
// blocks hold, higher at a resend and after an ACK that came late, whose
// blocks below the cumulative ACK Wireshark subtracts again
// (gt_jitter_reorder frame 77: 26,064 and 30,408). Elsewhere the first is
// drawn alone, which keeps a long transfer's graph as large as it was;
// and the receive window the other side advertises (scaled), as a step
// line.
func windowGraph(recs []Record, o SeriesOptions) *Graph { return feed(newWindow(o), recs) }

// SeriesInFlightUnSACKed is the window graph's bytes in flight less those
// the receiver SACKed.
const SeriesInFlightUnSACKed = "bytes-in-flight-unsacked"

// windowBuilder builds Window's graph record by record.
type windowBuilder struct {
	f   *frame
	set seriesSet
	// The receiver's scoreboard (una: its highest cumulative ACK) and the
	// highest end sent.
	board     sackBoard
	una, high int64
	haveAck   bool
}

func newWindow(o SeriesOptions) graphBuilder {
	f := newFrame(GraphWindow, o)
	f.g.Y = Axis{Label: "bytes", Unit: "B"}
	f.g.Columns = []string{"bytes"}
	return &windowBuilder{f: f, set: seriesSet{thin: o.Thin}}
}

func (b *windowBuilder) add(r *Record) {
	o := &b.f.o
	// The scoreboard follows the whole capture; a time window (--from,
	// --to) only picks what is drawn.
	switch {
	case r.Dir == o.Dir.Reverse() && r.HasAck && r.Flags&reassembly.SYN == 0:
		blocks := r.SACK[:min(r.NSACK, len(r.SACK))]
		if !b.haveAck {
			b.una, b.haveAck = r.Ack, true
		}
		top := max(r.Ack, b.una)
		b.board.deliver(b.una, r.Ack > b.una, top, blocks)
		b.una = top
	case r.Dir == o.Dir:
		b.high = max(b.high, r.Seq+int64(r.Len))
	}
	if !b.f.inTime(r.Time) {
		return
	}
	pt := func(v int64) Point { return Point{Frame: r.Frame, Time: r.Time, V: [3]float64{float64(v)}} }
	switch {
	case r.Dir == o.Dir && r.Info.BytesInFlight >= 0:
		b.set.add(SeriesInFlight, Dots, pt(r.Info.BytesInFlight))
		if sacked := b.board.sackedBelow(b.high); sacked > 0 {
			b.set.add(SeriesInFlightUnSACKed, Dots, pt(max(b.high-b.una-sacked, 0)))
		}
	case r.Dir == o.Dir.Reverse() && r.HasAck && r.Window >= 0 && r.Flags&reassembly.RST == 0:
		b.set.add(SeriesAdvertised, Steps, pt(r.Window))
	}
}

func (b *windowBuilder) graph() *Graph {
	g := b.f.g
	g.Series = b.set.list(SeriesInFlight, SeriesInFlightUnSACKed, SeriesAdvertised)
	capWindow(g)
	return g
}
